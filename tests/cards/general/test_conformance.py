"""Conformance: every preset x every card x every team mode keeps the table's invariants.

Each case plays one match of a preset (cards switched on, its team mode set) in which the card
is sure to be played: the real card table deals the teams from the whole deck of catalog 1.2,
with the card moved to the front of P0's team and picked by P0 whenever it is offered. The
``family`` table instead deals P0 the card every hand and the other seats cards of the same
effect kind (``tests/support/card_checks.py``), as a card's own tests do, so the checks that hold
only among one kind's cards run too. Random, eager and heuristic players share the table.

At every decision (``tests/support/invariant_checks.py`` and ``tests/support/card_checks.py``): all
136 tiles (108 with three players) in exactly one place, the dead wall's 14 plus rule C-19's; a
legal action, every one for the seat asked, none twice, the answer among them; only the offers
the rules allow (and the calls a card grants); points conserved with sticks and stakes (C-18);
kans counted alike; hand sizes; every card's own checks. At every hand end and match end the
records' checks (conservation, wins with yaku but where a card allows none, H-03; the match's
length and end, M-01, M-06, K-13; results summing to 0, M-07), Ryuuka's wins holding exactly
the yaku she declared, and the deck's cards each in one place after the match (Maho keeps what
she draws, C-22).

The default run plays a representative slice: every card once (each at a different preset and
table in turn), every preset and table at least once; ``-m slow`` plays the whole grid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.match_duties import match_duties
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.cards.table import CardTable, table_deck
from pipeline.rules.agents import Agent, RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import Preset, list_presets, load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.support.card_checks import AWAI, RYUUKA, ConformanceChecker, Dealt, family_of
from tests.support.invariant_checks import CATALOG, WITHOUT_YAKU, SeededTable, Tally, play_checked
from tests.support.rule_checks import EagerAgent, StakingEagerAgent

PRESETS = list_presets()
MODES = {  # team mode -> team size (C-02, C-05..C-08)
    "standard": 4, "winner-rotation": 4, "tenpai-replacement": 4, "rapid": 2, "draft": 6,
}
TABLES = (*MODES, "family")
PLAYERS = (HeuristicBot, RandomAgent, EagerAgent, RandomAgent)


def with_cards(name: str) -> Preset:
    """A shipped preset with the cards switched on (its deck: what its players can play)."""
    preset = load_preset(name)
    return replace(preset, cards=replace(preset.cards, enabled=True))


def deck_of(preset: Preset) -> frozenset[str]:
    return frozenset(table_deck(CATALOG, preset))


DECKS = {p: deck_of(with_cards(p)) for p in PRESETS}
# every card a table deals (the back of a two-sided card is played by flipping its front)
CARDS = tuple(sorted(frozenset().union(*DECKS.values())))


def card_preset(folder: Path, base: str, table: str, options: str = "") -> Preset:
    """``base`` with the cards switched on and, but at the family table, the team mode set;
    ``options``: more top-level preset lines."""
    cards = "[cards]\nenabled = true\n"
    if table in MODES:
        cards += f'team_mode = "{table}"\nteam_size = {MODES[table]}\n'
    path = folder / f"{base}-{table}.toml"
    path.write_text(f'extends = "{base}"\nname = "{base}-{table}"\n{options}{cards}')
    return load_preset(str(path))


class DealingCardTable(CardTable):
    """The card table with P0 holding ``card`` alone and playing it every hand (as a card's
    trial seats it), the other seats dealt teams of the team mode from the rest of the deck;
    it notes each hand's picks for the checkers."""

    def __init__(self, preset: Preset, agents: list, seed: int, match_index: int,
                 card: str, dealt: Dealt) -> None:
        super().__init__(preset, agents, seed=seed, match_index=match_index, catalog=CATALOG,
                         holder=(0, card))
        self.dealt = dealt

    def abilities_for(self, start: HandStart) -> list:
        abilities = super().abilities_for(start)
        self.dealt.deal(dict(enumerate(self.picks)))
        return abilities


class FamilyTable(SeededTable):
    """P0 plays ``card`` every hand, the other seats cards of its effect family, the match's
    memory shared as the card table shares it."""

    def __init__(self, preset: Preset, card: str, seed: int, dealt: Dealt) -> None:
        super().__init__(seed)
        family = family_of(card)
        assert family is not None
        self.players = preset.players
        self.card = card
        self.others = [c for c in family.cards if c in deck_of(preset)] or [card]
        self.dealt = dealt
        self.memory = MatchMemory(red_fives=preset.red_fives)
        self.abilities: list[CardAbility] = []

    def abilities_for(self, start: HandStart) -> list:
        names = [self.card, *(self.rng.choice(self.others) for _ in range(1, self.players))]
        self.abilities = [CardAbility(CATALOG.card(c), s, self.memory)
                          for s, c in enumerate(names)]
        self.dealt.deal(dict(enumerate(names)))
        return [*self.abilities, *match_duties(self.memory)]

    def hand_done(self, rec: HandRecord) -> None:
        self.memory.end_of_hand(rec, self.abilities)


def declarations(rec: HandRecord) -> dict[int, frozenset[str]]:
    """The yaku Ryuuka Shimizudani declared, by seat."""
    return {e.seat: frozenset(e.payload) for e in rec.events
            if e.kind == "ability" and e.tag is Move.DECLARE}


def play_case(folder: Path, base: str, card: str, table: str, index: int, tally: Tally,
              players: Sequence[Callable[[int], Agent]] = PLAYERS, options: str = ""
              ) -> Counter[str]:
    """One checked match of the grid; what the hands showed: cards dealt, ability events by
    card, wins of the seats that declared their yaku (Ryuuka)."""
    preset = card_preset(folder, base, table, options)
    dealt = Dealt()
    seen: Counter[str] = Counter()
    agents = [ConformanceChecker(kind(derive_seed("conformance", index, s)), preset, tally,
                                 dealt)
              for s, kind in enumerate(players[:preset.players])]
    if table == "family":
        deals = FamilyTable(preset, card, derive_seed("conformance-table", index), dealt)
    else:
        deals = DealingCardTable(preset, agents, 31, index, card, dealt)

    def on_hand(rec: HandRecord) -> None:
        seen.update(dealt.cards.values())
        seen.update(c for c in (rec.picks or ()) if c)
        seen.update(f"{e.card} acts" for e in rec.events if e.kind == "ability" and e.card)
        declared = declarations(rec)
        seen["declarations"] += len(declared)
        seen["hands with 4 dora events"] += sum(e.kind == "dora" for e in rec.events) >= 4
        for win in rec.wins:
            # C-22 Ryuuka: exactly the yaku she declared, while her ability works (C-20)
            if win.seat in declared and win.seat not in dealt.switched_off:
                assert {name for name, _ in win.yaku} == declared[win.seat]
                seen["declared wins"] += 1

    # a win without yaku only for Kaori Senoo's card, dealt, picked or copied (H-03)
    yakuless = (lambda rec: dealt.seats(WITHOUT_YAKU)) if table == "family" else True
    play_checked(preset, agents, deals, seed=31, match_index=index, on_hand=on_hand,
                 yakuless=yakuless)
    if table != "family":  # every card in one place, none lost or doubled (C-22 Maho)
        cards = deals.state.all_cards()
        assert sorted(cards) == sorted(set(cards)) and card not in cards
    return seen


def grid() -> list[tuple[str, str, str]]:
    """Every preset x every card x every table (the family table where the card has one)."""
    return [(p, c, t) for p in PRESETS for c in CARDS for t in TABLES
            if c in DECKS[p] and (t in MODES or family_of(c) is not None)]


def quick_slice() -> list[tuple[str, str, str]]:
    """Every card once, the presets and tables taken in turn, so each comes up."""
    out = []
    for i, card in enumerate(CARDS):
        tables = [t for t in TABLES if t in MODES or family_of(card) is not None]
        presets = [p for p in PRESETS if card in DECKS[p]]
        out.append((presets[i % len(presets)], card, tables[i % len(tables)]))
    return out


QUICK = quick_slice()
REST = [c for c in grid() if c not in QUICK]


def case_id(case: tuple[str, str, str]) -> str:
    return "-".join(case)


def test_the_quick_slice_covers_every_card_preset_and_table() -> None:
    assert {c for _, c, _ in QUICK} == set(CARDS)
    assert {p for p, _, _ in QUICK} == set(PRESETS)
    assert {t for _, _, t in QUICK} == set(TABLES)
    assert set(QUICK) <= set(grid())


@pytest.mark.parametrize(("preset", "card", "table"), QUICK,
                         ids=[case_id(c) for c in QUICK])
def test_every_preset_card_and_team_mode_keeps_the_invariants(
        tmp_path: Path, preset: str, card: str, table: str) -> None:
    tally = Tally()
    index = CARDS.index(card)
    seen = play_case(tmp_path, preset, card, table, index, tally)
    assert tally.decisions > 0 and seen[card] > 0  # the card was dealt


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "card", "table"),
                         REST, ids=[case_id(c) for c in REST])
def test_the_whole_grid_keeps_the_invariants(tmp_path: Path, preset: str, card: str,
                                              table: str) -> None:
    tally = Tally()
    seen = play_case(tmp_path, preset, card, table, 100 + TABLES.index(table), tally)
    assert tally.decisions > 0 and seen[card] > 0


def test_the_family_tables_reach_what_the_card_checks_are_about(tmp_path: Path) -> None:
    """The cards' steps come up under the checks, so the checks mean something: Awai's revealed
    draws, pond and meld swaps, duels, pool draws and Ryuuka's declared wins, the walls moved,
    families named and extra turns, draws past the live wall, shaped chis."""
    tally = Tally()
    seen: Counter[str] = Counter()
    for card in (AWAI, RYUUKA, "sumire_hirose", "hajime_kunihiro", "yumi_kajiki",
                 "yuuki_kataoka", "shiromi_kosegawa", "satomi_kanbara", "kaori_senoo"):
        seen += play_case(tmp_path, "cards-hanchan", card, "family", 7, tally)
    steps = tally.steps
    assert steps["take"] and steps["swap_pond"] and steps["swap_meld"] and steps["turn_down"]
    assert steps["duel"] + steps["block"] > 0 and steps["family"] and steps["extra_turn"]
    assert steps["put_live"] and steps["put_dead"] and steps["draw"]
    assert tally.seen["pool draws"] and seen["declarations"] and seen["declared wins"]
    assert tally.seen["past the live wall"] and tally.seen["shaped chi"]


def test_the_team_tables_play_the_meta_cards(tmp_path: Path) -> None:
    """Saki, Maho (who copies a card drawn from the deck) and Mairu (who flips to Himeko) are
    played at the team tables, under the checks."""
    tally = Tally()
    seen: Counter[str] = Counter()
    for card in ("maho_yumeno", "saki_miyanaga", "mairu_shirouzu"):
        seen += play_case(tmp_path, "cards-hanchan", card, "standard", 3, tally)
    assert seen["maho_yumeno acts"] and seen["saki_miyanaga"] and seen["mairu_shirouzu"]


def test_eager_play_with_payment_cards_keeps_the_invariants_and_stakes_happen(
        tmp_path: Path) -> None:
    # a 9,000 start: under Kirame's 10,000, so her stake for extra dora is offered; players
    # that take every riichi an ability offers with a stake
    tally = Tally()
    seen: Counter[str] = Counter()
    low = "start_points = 9000\nreturn_points = 9000\n"
    for index in range(4):
        seen += play_case(tmp_path, "cards-tonpuusen", "kirame_hanada", "family", index,
                          tally, (StakingEagerAgent,) * 4, low)
    assert tally.kinds["ability"] > 0  # riichi declared with a stake
    assert seen["kirame_hanada acts"] and seen["hands with 4 dora events"]  # her 3 indicators
