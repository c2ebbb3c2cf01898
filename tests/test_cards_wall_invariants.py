"""Random-play invariants with the wall cards at the table: Yuuki Kataoka, Kazue Nanpo, Takami
Shibuya, Toki Onjouji and Koromo Amae.

Every seat plays one of those characters every hand (a seeded draw), in hanchan matches (so the
South round's Kazue acts too). At every decision the table is checked:

- all 136 tiles are in exactly one place: hands, melds, ponds, the live wall, the dead wall
  (replacement tiles, indicators, tiles moved there by kans and by abilities) and the tiles kept
  beside a hand; the dead wall holds 14 tiles plus those the abilities added (rule C-19's extra
  indicators counted);
- the answer is one of the legal actions, none offered twice;
- points are conserved (scores, sticks and stakes);
- outside an ability's own steps (and choices offered before the seat acts) a seat holds 13
  tiles (14 on its turn), a kan counting three.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from pipeline.tiles import NUM_TILES
from tests.test_invariants import EagerAgent, check_hand_end, check_match

CARDS = ("yuuki_kataoka", "kazue_nanpo", "takami_shibuya", "toki_onjouji", "koromo_amae")
CATALOG = load_catalog("1.2")
OWN_TURN = frozenset({ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.TSUMO,
                      ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.NINE_TERMINALS})


def all_tiles(state: HandState) -> list[int]:
    """Every tile the table holds, in any place (the tiles beside a hand included)."""
    tiles: list[int] = []
    for p in state.players:
        tiles.extend(p.concealed)
        tiles.extend(x for m in p.melds for x in m.tiles)
        tiles.extend(d.tile for d in p.discards if not d.called)
    w = state.wall
    tiles.extend([*w.live, *w.rinshan, *w.indicators, *w.ura, *w.reserve, *w.dead_end])
    tiles.extend(w.extension or ())  # dead-wall tiles left to draw past the live wall
    for beside in state.aside.values():
        tiles.extend(beside)
    return tiles


def check_table(state: HandState, in_flight: set[int]) -> None:
    tiles = all_tiles(state)
    doubled = sorted(t for t, n in Counter(tiles).items() if n > 1)
    assert not doubled, f"tiles in two places: {doubled}"
    missing = set(range(NUM_TILES)) - set(tiles)
    assert missing <= in_flight, f"tiles missing: {sorted(missing - in_flight)}"
    w = state.wall
    if w.extension is not None:  # draws went on into the dead wall: its count changed
        return
    extra = len(w.indicators) - 5  # rule C-19
    dead = len(w.rinshan) + len(w.indicators) + len(w.ura) + len(w.reserve)
    assert dead == 14 + 2 * extra, f"dead wall holds {dead} tiles"


class WallCheckingAgent:
    """Checks the table at every decision, then lets the wrapped agent answer."""

    def __init__(self, inner: Agent, preset: Preset, seen: Counter[str]) -> None:
        self.inner = inner
        self.preset = preset
        self.seen = seen

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state: HandState = obs._state
        assert legal and all(a.seat == obs.seat for a in legal)
        assert len(set(legal)) == len(legal), "an action is offered twice"
        check_table(state, {a.tile for a in legal if a.kind == ActionKind.RON})
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        steps = any(a.kind == ActionKind.ABILITY and a.detail.split(":")[1] in
                    ("put_live", "put_dead", "swap") for a in legal) \
            or all(a.kind in (ActionKind.ABILITY, ActionKind.PASS) for a in legal)
        if not steps:
            own = any(a.kind in OWN_TURN for a in legal)
            for p in state.players:
                size = len(p.concealed) + 3 * len(p.melds)
                expected = 14 if own and p.seat == obs.seat else 13
                assert size == expected, f"P{p.seat} holds {size} tiles, expected {expected}"
        choice = self.inner.decide(obs, legal)
        assert choice in legal, f"{choice} is not among the legal actions"
        if choice.kind == ActionKind.ABILITY:
            self.seen[choice.detail.split(":")[1]] += 1
        return choice


class RandomCardTable:
    """Deals each seat one of ``cards`` every hand, drawn from a seeded stream (a test
    stand-in for CardTable that keeps a few cards at the table)."""

    def __init__(self, cards: tuple[str, ...], seed: int) -> None:
        self.cards = cards
        self.rng = random.Random(seed)

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        return [CardAbility(CATALOG.card(self.rng.choice(self.cards)), s) for s in range(4)]

    def hand_done(self, rec: HandRecord) -> None:
        pass


def run(make_agent, count: int, offset: int) -> Counter[str]:
    preset = load_preset("cards-hanchan")
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [WallCheckingAgent(make_agent(derive_seed("wall", i, s)), preset, seen)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            for e in rec.events:
                if e.kind == "ability" and ": " in e.detail:
                    seen[e.detail.split(": ", 1)[1].split()[0]] += 1

        table = RandomCardTable(CARDS, derive_seed("wall-table", i))
        result = play_match(preset, agents, seed=17, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
    return seen


@pytest.mark.parametrize("offset", [0, 2])
def test_random_play_with_wall_cards_keeps_the_invariants(offset: int) -> None:
    seen = run(RandomAgent, 2, offset)
    assert seen["put_live"] and seen["put_dead"] and seen["moves"]  # the walls changed


def test_eager_play_with_wall_cards_keeps_the_invariants() -> None:
    seen = run(EagerAgent, 2, 100)
    assert seen["draws"] and seen["swap"] + seen["draw"] > 0


def test_heuristic_play_with_wall_cards_keeps_the_invariants() -> None:
    seen = run(HeuristicBot, 1, 200)
    assert seen["put_live"] and seen["put_dead"]
