"""Random play with the whole deck, in every team mode: the invariants hold and nothing raises.

Teams are dealt by the real :class:`CardTable` from every playable card of catalog 1.2, with
random, eager and heuristic players mixed at the table. At every decision the table checks of
``tests/support/invariant_checks.py`` hold (every one of the 136 tiles in exactly one place,
set-aside and extra tiles included; the answer is a legal action offered once; scores, sticks and
stakes conserved; hand sizes outside an ability's own steps); at every hand end and match end the
records are checked as in the card-free invariants. The default run plays four East-only
matches per mode and the match indices that once broke the checker; the slow run plays thousands
of hands, among them 80 fresh hanchan matches per mode (the soak).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards import registry
from pipeline.cards.table import CardTable
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hooks import PickView
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from tests.support.invariant_checks import CATALOG, TableChecker, Tally, play_checked
from tests.support.rule_checks import EagerAgent

MODES = {  # team mode -> team size (C-02, C-05..C-08)
    "standard": 4, "winner-rotation": 4, "tenpai-replacement": 4, "rapid": 2, "draft": 6,
}
PLAYERS = (HeuristicBot, RandomAgent, EagerAgent, RandomAgent)
MAHO = "maho_yumeno"


class DeckChecker(TableChecker):
    """The table checks with any card dealt: Awai Oohoshi's replacement draws come from the
    live wall (the rinshan tiles stay), and any card's choice may come amid another's steps.

    The card table asks it for the seat's pick (and Maho Yumeno's copy): it passes on the
    wrapped bot's own pick, which must be one of the options, so the bots' picks are what is
    played; an agent that picks nothing plays its first option, as at the table."""

    replacements = False
    turn_steps = None

    def pick(self, hand: Sequence[int], options: Sequence[str],
             situation: PickView | None = None) -> str:
        choice = self.choose(hand, options, situation)
        assert choice in options, f"picked {choice!r}, not one of {list(options)}"
        self.tally.seen["picks"] += 1
        return choice

    def choose(self, hand: Sequence[int], options: Sequence[str],
               situation: PickView | None) -> str:
        inner = getattr(self.inner, "pick", None)
        return options[0] if inner is None else inner(hand, options, situation)


class FirstPickChecker(DeckChecker):
    """Every seat plays its first option: how the matches of :data:`REGRESSIONS` were found."""

    pick = None  # the table then plays the first option


class MahoChecker(DeckChecker):
    """A seat that plays Maho Yumeno whenever she is in its team (she draws two cards and keeps
    both, rule C-22), so the teams grow until the deck runs out."""

    def choose(self, hand: Sequence[int], options: Sequence[str],
               situation: PickView | None) -> str:
        return MAHO if MAHO in options else super().choose(hand, options, situation)


def mode_preset(folder: Path, mode: str, base: str = "cards-hanchan") -> Preset:
    path = folder / f"{base}-{mode}.toml"
    path.write_text(f'extends = "{base}"\nname = "{base}-{mode}"\n[cards]\n'
                    f'team_mode = "{mode}"\nteam_size = {MODES[mode]}\n')
    return load_preset(str(path))


def play(preset: Preset, matches: int, offset: int, checker: type[DeckChecker] = DeckChecker,
         tally: Tally | None = None) -> tuple[int, Counter[str], set[str]]:
    """Play checked matches (a win without yaku only with Kaori Senoo's card, picked or
    copied: rule H-03); return hands played, ability events by card and characters picked."""
    tally = tally if tally is not None else Tally()
    triggers: Counter[str] = Counter()
    picked: set[str] = set()
    hands = 0

    def on_hand(rec: HandRecord) -> None:
        picked.update(p for p in rec.picks if p)
        triggers.update(e.card for e in rec.events if e.kind == "ability")

    for i in range(offset, offset + matches):
        agents = [checker(kind(derive_seed("deck", i, s)), preset, tally)
                  for s, kind in enumerate(PLAYERS[:preset.players])]
        table = CardTable(preset, agents, seed=23, match_index=i, catalog=CATALOG)
        result = play_checked(preset, agents, table, seed=23, match_index=i, on_hand=on_hand,
                              yakuless=True)
        hands += len(result.hands)
    return hands, triggers, picked


# The soak: fresh match indices (never played by an earlier version of these tests), in every
# team mode. The default run plays a handful of East-only matches; the slow run a few hundred
# hanchan matches, so a rare interaction of cards is found here and not by a user.
HANDFUL = range(1, 4)            # cards-tonpuusen, per mode (index 0: the deck test above)
SOAK_START, SOAK_MATCHES = 30000, 80  # cards-hanchan, per mode: 400 matches in all


@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_team_mode_with_the_whole_deck_keeps_the_invariants(tmp_path: Path,
                                                                  mode: str) -> None:
    # rules C-02 (teams), C-05 (winner rotation), C-06 (tenpai replacement), C-07 (rapid),
    # C-08 (draft)
    hands, triggers, picked = play(mode_preset(tmp_path, mode, "cards-tonpuusen"), 1, 0)
    assert hands >= 4 and len(picked) >= 4
    assert sum(triggers.values()) > 0  # abilities fired


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_handful_of_fresh_matches_with_the_whole_deck_keep_the_invariants(
        tmp_path: Path, mode: str) -> None:
    hands, _, picked = play(mode_preset(tmp_path, mode, "cards-tonpuusen"), len(HANDFUL),
                            HANDFUL.start)
    assert hands >= 4 * len(HANDFUL) and len(picked) >= 8


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_thousands_of_hands_with_the_whole_deck_keep_the_invariants(tmp_path: Path,
                                                                    mode: str) -> None:
    hands, _, picked = play(mode_preset(tmp_path, mode), 60, 1000)
    assert hands >= 500
    playable = {c.id for c in CATALOG.cards if registry.playable(c)}
    assert len(picked) >= len(playable) // 2  # the whole deck is exercised, not a few cards


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_hundreds_of_fresh_matches_with_the_whole_deck_keep_the_invariants(
        tmp_path: Path, mode: str) -> None:
    hands, _, picked = play(mode_preset(tmp_path, mode), SOAK_MATCHES, SOAK_START)
    assert hands >= 8 * SOAK_MATCHES
    playable = {c.id for c in CATALOG.cards if registry.playable(c)}
    assert len(picked) >= len(playable) * 3 // 4


# Match indices (cards-hanchan, the slow run's base) that once broke the checker, with the
# mode they were played in and what broke.
REGRESSIONS = [
    # card satomi_kanbara, card yukiko_maya, rule K-03: past the live wall the rules offered
    # no call while the hook views offered Yukiko's priority chi (one notion of the last
    # discard now: Wall.last_discard)
    ("winner-rotation", 20055), ("winner-rotation", 20239), ("winner-rotation", 20271),
    ("rapid", 20105), ("rapid", 20189),
    # card toki_onjouji, rule H-07: after a call she swapped the tile beside her hand in for
    # her last tile she could discard and was left with no legal discard
    ("winner-rotation", 20361),
]


@pytest.mark.parametrize(("mode", "index"), REGRESSIONS)
def test_match_indices_that_once_broke_the_checker_keep_the_invariants(
        tmp_path: Path, mode: str, index: int) -> None:
    hands, _, _ = play(mode_preset(tmp_path, mode), 1, index, FirstPickChecker)
    assert hands >= 4


def test_the_bots_picks_are_played_not_the_first_option(tmp_path: Path) -> None:
    # rule C-03: each seat picks after seeing its starting hand; the heuristic seat's picks
    # are its own, so the checked matches play more than each team's first card
    tally = Tally()
    _, _, picked = play(mode_preset(tmp_path, "standard", "cards-tonpuusen"), 2, 0,
                        tally=tally)
    _, _, first = play(mode_preset(tmp_path, "standard", "cards-tonpuusen"), 2, 0,
                       FirstPickChecker)
    assert tally.seen["picks"] > 0 and picked != first


# Every team mode with teams as large as the deck allows and seats that keep playing Maho
# Yumeno (rule C-22: she keeps the cards she draws): the deck runs out, and no mode draws from
# it empty (docs/team-modes.md). cards-hanchan, and the 2022 tournament's winner rotation.
LARGE = {"standard": 13, "winner-rotation": 12, "tenpai-replacement": 12, "rapid": 13,
         "draft": 12}
MAHO_MATCHES = 12


def large_preset(folder: Path, mode: str, base: str = "cards-hanchan") -> Preset:
    path = folder / f"{base}-{mode}-large.toml"
    path.write_text(f'extends = "{base}"\nname = "{base}-{mode}-large"\n[cards]\n'
                    f'team_mode = "{mode}"\nteam_size = {LARGE[mode]}\n')
    return load_preset(str(path))


def test_a_seat_keeping_maho_in_twelve_card_rotation_plays_on_when_the_deck_is_empty(
        tmp_path: Path) -> None:
    # rule C-05, C-22: match 34 of seed 2 (the simulator's) once failed here; the checked
    # match below empties the deck within its first hands
    tally = Tally()
    hands, triggers, _ = play(large_preset(tmp_path, "winner-rotation"), 1, 0, MahoChecker,
                              tally)
    assert hands >= 8 and triggers[MAHO] > 0


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(LARGE))
def test_every_team_mode_with_seats_keeping_maho_plays_to_the_end(tmp_path: Path,
                                                                 mode: str) -> None:
    # rules C-02, C-05..C-08, C-22 Maho
    hands, triggers, _ = play(large_preset(tmp_path, mode), MAHO_MATCHES, 40000, MahoChecker)
    assert hands >= 8 * MAHO_MATCHES and triggers[MAHO] > 0


@pytest.mark.slow
def test_the_tournament_preset_with_seats_keeping_maho_plays_to_the_end() -> None:
    # rule C-05, C-22: six-card winner rotation, no abortive draws (card chombo still counts)
    hands, triggers, _ = play(load_preset("tournament-2022"), MAHO_MATCHES, 41000,
                              MahoChecker)
    assert hands >= 8 * MAHO_MATCHES and triggers[MAHO] > 0


# Three players with the cards (rule C-23): the same checks at every decision, 108 tiles
# (S-01), Norths set aside with their replacement draws (S-03), three starting stacks.
def sanma_preset(folder: Path, length: str) -> Preset:
    path = folder / f"cards-sanma-{length}.toml"
    path.write_text(f'extends = "cards-sanma"\nname = "cards-sanma-{length}"\n'
                    f'length = "{length}"\n')
    return load_preset(str(path))


def test_three_player_card_matches_keep_the_invariants_at_every_decision(
        tmp_path: Path) -> None:
    # rule C-23, S-01, S-03
    tally = Tally()
    hands, triggers, picked = play(sanma_preset(tmp_path, "tonpuusen"), 2, 0, tally=tally)
    assert hands >= 6 and len(picked) >= 4 and sum(triggers.values()) > 0
    assert tally.decisions > 300 and tally.kinds["kita"] > 0


@pytest.mark.slow
def test_hundreds_of_three_player_card_hands_keep_the_invariants(tmp_path: Path) -> None:
    # rule C-23
    hands, _, picked = play(sanma_preset(tmp_path, "hanchan"), 40, 50000)
    assert hands >= 300
    assert len(picked) >= 30
