"""Random-play invariants with Awai Oohoshi at the table (one seat or several each hand).

Every decision gets the table checks of ``tests/invariant_checks.py`` (all 136 tiles in exactly
one place, the tiles revealed for her draw staying in the live wall while she chooses; a dead
wall of 14 tiles with at least five dora indicators whatever she swaps, plus rule C-19's extra
ones; legal answers; points conserved; hand sizes, while she chooses among revealed tiles too).
Besides, at most three tiles are revealed for her draw and her kans are all closed kans.
"""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.rules.actions import Action, ActionKind, MeldKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.invariant_checks import (
    CATALOG,
    SeededTable,
    TableChecker,
    Tally,
    play_checked,
    step_name,
)
from tests.support.rule_checks import EagerAgent

AWAI = "awai_oohoshi"
OTHERS = ("yuuki_kataoka", "toki_onjouji", "kazue_nanpo")
REVEAL_STEPS = ("take", "dora_swap")


class AwaiChecker(TableChecker):
    """The table checks (hand sizes included while she chooses among revealed tiles); at most
    three tiles revealed for her draw, and her kans all closed kans (her replacement draws
    come from the live wall: the rinshan tiles stay)."""

    replacements = False

    def __init__(self, inner: Agent, preset: Preset, tally: Tally, awai_seats: set[int]
                 ) -> None:
        super().__init__(inner, preset, tally)
        self.awai_seats = awai_seats

    def check_cards(self, obs: Observation, legal: list[Action]) -> None:
        revealing = [a for a in legal if step_name(a) in REVEAL_STEPS]
        assert len({a.tile for a in revealing}) <= 3
        for s in self.awai_seats:
            assert all(m.kind == MeldKind.ANKAN for m in obs._state.players[s].melds if m.is_kan)

    def note(self, obs: Observation, choice: Action) -> None:
        if choice.kind == ActionKind.MINKAN and obs._state.players[obs.seat].riichi:
            self.tally.seen["riichi_kan"] += 1


class AwaiTable(SeededTable):
    """Awai at seat 0 every hand (and at a random other seat half the time); the other seats
    play wall cards."""

    def __init__(self, seed: int, awai_seats: set[int]) -> None:
        super().__init__(seed)
        self.awai_seats = awai_seats

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        self.awai_seats.clear()
        self.awai_seats.add(0)
        if self.rng.random() < 0.5:
            self.awai_seats.add(self.rng.randrange(1, 4))
        return [CardAbility(CATALOG.card(AWAI if s in self.awai_seats
                                         else self.rng.choice(OTHERS)), s) for s in range(4)]


def run(make_agent, count: int, offset: int) -> Tally:
    preset = load_preset("cards-hanchan")
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        for e in rec.events:
            if e.kind == "ability" and "reveals" in e.detail:
                tally.seen["reveals"] += 1
            if e.kind == "ability" and "becomes a closed kan" in e.detail:
                tally.seen["closed"] += 1

    for i in range(offset, offset + count):
        awai_seats: set[int] = {0}
        agents = AwaiChecker.seats(make_agent, "awai", i, preset, tally, awai_seats)
        play_checked(preset, agents, AwaiTable(derive_seed("awai-table", i), awai_seats),
                     seed=23, match_index=i, on_hand=on_hand)
    return tally


def test_random_play_with_awai_keeps_the_invariants() -> None:
    t = run(RandomAgent, 2, 0)
    assert t.steps["put_live"] and t.steps["swap"]   # the other cards moved tiles around hers


def test_eager_play_with_awai_keeps_the_invariants() -> None:
    t = run(EagerAgent, 2, 50)   # eager kans and riichi: revealed draws, closed kans
    assert t.seen["reveals"] and t.seen["closed"]


def test_heuristic_play_with_awai_keeps_the_invariants() -> None:
    t = run(HeuristicBot, 1, 100)
    assert t.steps["take"]
