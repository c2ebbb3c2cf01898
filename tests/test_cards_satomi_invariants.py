"""Random-play invariants with Satomi Kanbara at the table (with Koromo Amae, Kirame Hanada and
the other wall cards around her).

At every decision: all 136 tiles in exactly one place (the dead-wall tiles drawn past the live
wall included), the answer legal and offered once, points conserved.
"""

from __future__ import annotations

import random
from collections import Counter

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from pipeline.tiles import NUM_TILES
from tests.test_cards_wall_invariants import all_tiles
from tests.test_invariants import EagerAgent, check_hand_end, check_match

CARDS = ("koromo_amae", "kirame_hanada", "yuuki_kataoka", "toki_onjouji", "huiyu_hao")
CATALOG = load_catalog("1.2")


def check_tiles(state: HandState, in_flight: set[int]) -> None:
    tiles = all_tiles(state)
    doubled = sorted(t for t, n in Counter(tiles).items() if n > 1)
    assert not doubled, f"tiles in two places: {doubled}"
    missing = set(range(NUM_TILES)) - set(tiles)
    assert missing <= in_flight, f"tiles missing: {sorted(missing - in_flight)}"


class Checking:
    def __init__(self, inner: Agent, preset: Preset, seen: Counter[str]) -> None:
        self.inner = inner
        self.preset = preset
        self.seen = seen

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state: HandState = obs._state
        assert legal and all(a.seat == obs.seat for a in legal)
        assert len(set(legal)) == len(legal), "an action is offered twice"
        check_tiles(state, {a.tile for a in legal if a.kind == ActionKind.RON})
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        if state.wall.extension is not None:
            self.seen["past the live wall"] += 1
        choice = self.inner.decide(obs, legal)
        assert choice in legal
        return choice


class SatomiTable:
    """Satomi at one seat every hand, wall cards at the others (a stand-in for CardTable)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        satomi = self.rng.randrange(4)
        return [CardAbility(CATALOG.card("satomi_kanbara" if s == satomi
                                         else self.rng.choice(CARDS)), s) for s in range(4)]

    def hand_done(self, rec: HandRecord) -> None:
        pass


def run(make_agent, count: int, offset: int) -> Counter[str]:
    preset = load_preset("cards-hanchan")
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [Checking(make_agent(derive_seed("satomi", i, s)), preset, seen)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            for e in rec.events:
                if e.kind == "ability" and "pays double" in e.detail:
                    seen["double"] += 1

        result = play_match(preset, agents, seed=23, match_index=i, on_hand=on_hand,
                            table=SatomiTable(derive_seed("satomi-table", i)))
        check_match(result, preset)
    return seen


def test_random_play_with_satomi_keeps_the_invariants() -> None:
    seen = run(RandomAgent, 2, 0)
    assert seen["past the live wall"] and seen["double"]


def test_eager_play_with_satomi_keeps_the_invariants() -> None:
    seen = run(EagerAgent, 1, 50)
    assert seen["double"]
