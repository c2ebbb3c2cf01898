"""Random-play invariants with Awai Oohoshi at the table (one seat or several each hand).

Every decision checks the table as tests/test_cards_wall_invariants.py does: all 136 tiles in
exactly one place (the tiles revealed for her draw stay in the live wall while she
chooses), a 14-tile
dead wall (plus rule C-19's extra indicators), the answer among the legal actions, points
conserved, hand sizes (a kan counting three). Besides, five dora indicators always stay in the
dead wall whatever she swaps, and her kans are all closed kans.
"""

from __future__ import annotations

import random
from collections import Counter

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind, MeldKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.test_cards_wall_invariants import check_table
from tests.test_invariants import EagerAgent, check_hand_end, check_match

AWAI = "awai_oohoshi"
OTHERS = ("yuuki_kataoka", "toki_onjouji", "kazue_nanpo")
CATALOG = load_catalog("1.2")
OWN_TURN = frozenset({ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.TSUMO,
                      ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.NINE_TERMINALS})
REVEAL_STEPS = ("take", "dora_swap")


class CheckingAgent:
    """Checks the table at every decision, then lets the wrapped agent answer."""

    def __init__(self, inner: Agent, preset: Preset, seen: Counter[str],
                 awai_seats: set[int]) -> None:
        self.inner = inner
        self.preset = preset
        self.seen = seen
        self.awai_seats = awai_seats

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state: HandState = obs._state
        assert legal and len(set(legal)) == len(legal)
        revealing = [a for a in legal if a.kind == ActionKind.ABILITY
                     and a.detail.split(":")[1] in REVEAL_STEPS]
        check_table(state, {a.tile for a in legal if a.kind == ActionKind.RON})
        if revealing:
            assert len({a.tile for a in revealing}) <= 3
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        steps = any(a.kind == ActionKind.ABILITY and a.detail.split(":")[1] in
                    ("put_live", "put_dead", "swap") for a in legal)
        if not steps:
            own = any(a.kind in OWN_TURN for a in legal)
            for p in state.players:
                size = len(p.concealed) + 3 * len(p.melds)
                expected = 14 if own and p.seat == obs.seat else 13
                assert size == expected, f"P{p.seat} holds {size} tiles, expected {expected}"
        for s in self.awai_seats:
            assert all(m.kind == MeldKind.ANKAN for m in state.players[s].melds if m.is_kan)
        choice = self.inner.decide(obs, legal)
        assert choice in legal
        if choice.kind == ActionKind.ABILITY:
            self.seen[choice.detail.split(":")[1]] += 1
        if choice.kind == ActionKind.MINKAN and state.players[obs.seat].riichi:
            self.seen["riichi_kan"] += 1
        return choice


class AwaiTable:
    """Awai at seat 0 every hand (and at a random other seat half the time); the other seats
    play wall cards."""

    def __init__(self, seed: int, awai_seats: set[int]) -> None:
        self.rng = random.Random(seed)
        self.awai_seats = awai_seats

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        self.awai_seats.clear()
        self.awai_seats.add(0)
        if self.rng.random() < 0.5:
            self.awai_seats.add(self.rng.randrange(1, 4))
        return [CardAbility(CATALOG.card(AWAI if s in self.awai_seats
                                         else self.rng.choice(OTHERS)), s) for s in range(4)]

    def hand_done(self, rec: HandRecord) -> None:
        pass


def run(make_agent, count: int, offset: int) -> Counter[str]:
    preset = load_preset("cards-hanchan")
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        awai_seats: set[int] = {0}
        agents = [CheckingAgent(make_agent(derive_seed("awai", i, s)), preset, seen, awai_seats)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            for e in rec.events:
                if e.kind == "ability" and "reveals" in e.detail:
                    seen["reveals"] += 1
                if e.kind == "ability" and "becomes a closed kan" in e.detail:
                    seen["closed"] += 1

        table = AwaiTable(derive_seed("awai-table", i), awai_seats)
        result = play_match(preset, agents, seed=23, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
    return seen


def test_random_play_with_awai_keeps_the_invariants() -> None:
    seen = run(RandomAgent, 2, 0)
    assert seen["put_live"] and seen["swap"]   # the other cards moved tiles around hers


def test_eager_play_with_awai_keeps_the_invariants() -> None:
    seen = run(EagerAgent, 2, 50)   # eager kans and riichi: revealed draws, closed kans
    assert seen["reveals"] and seen["closed"]


def test_heuristic_play_with_awai_keeps_the_invariants() -> None:
    seen = run(HeuristicBot, 1, 100)
    assert seen["take"]
