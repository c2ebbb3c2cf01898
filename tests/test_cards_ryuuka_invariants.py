"""Random-play invariants with Ryuuka Shimizudani at the table (beside other wall cards).

Each seat plays Ryuuka Shimizudani or another draw-changing card every hand (a seeded draw), so
up to four pools of ten tiles lie beside the hands at once. At every decision the table checks
of ``tests/invariant_checks.py`` hold (136 tiles in one place each, pools included; legal
answers; points conserved; hand sizes), and:

- a seat whose pool still holds tiles is never offered a win, nor a wall draw (no pass next to
  its pool draws);
- a pool is public: every seat sees the same tiles beside her hand;
- every win of hers holds exactly the yaku she declared (C-22 Ryuuka).
"""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.invariant_checks import CATALOG, SeededTable, TableChecker, Tally, play_checked

RYUUKA = "ryuuka_shimizudani"
CARDS = (RYUUKA, RYUUKA, "toki_onjouji", "takami_shibuya")


class PoolChecker(TableChecker):
    """The table checks, then the pool's: public, and no win and no wall draw while her pool
    holds tiles."""

    def __init__(self, inner: Agent, preset: Preset, tally: Tally, pools: set[int]) -> None:
        super().__init__(inner, preset, tally)
        self.pools = pools

    def check_cards(self, obs: Observation, legal: list[Action]) -> None:
        state = obs._state
        for seat in self.pools:
            assert obs.face_up_aside(seat) == tuple(state.aside.get(seat, ()))  # public
        if obs.seat in self.pools and obs.face_up_aside(obs.seat):
            # C-22 Ryuuka: no win before the pool is empty
            assert not any(a.kind in (ActionKind.TSUMO, ActionKind.RON) for a in legal)
            if any(a.detail.endswith(":draw_instead") for a in legal):
                assert all(a.kind == ActionKind.ABILITY for a in legal)  # no wall draw
                self.tally.seen["pool draws"] += 1


class PoolTable(SeededTable):
    """Deals Ryuuka or another draw-changing card to every seat each hand."""

    def __init__(self, seed: int, pools: set[int]) -> None:
        super().__init__(seed)
        self.pools = pools

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        cards = [self.rng.choice(CARDS) for _ in range(4)]
        self.pools.clear()
        self.pools.update(s for s, c in enumerate(cards) if c == RYUUKA)
        return [CardAbility(CATALOG.card(c), s) for s, c in enumerate(cards)]


def declarations(rec: HandRecord) -> dict[int, frozenset[str]]:
    return {e.seat: frozenset(e.detail.split('declares ', 1)[1].split("+"))
            for e in rec.events if e.kind == "ability" and ": declares " in e.detail}


def run(make_agent, count: int, offset: int) -> Tally:
    preset = load_preset("cards-hanchan")
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        declared = declarations(rec)
        tally.seen["declarations"] += len(declared)
        for win in rec.wins:
            if win.seat in declared:  # C-22 Ryuuka: exactly the declared yaku
                assert {name for name, _ in win.yaku} == declared[win.seat]
                tally.seen["pool wins"] += 1

    for i in range(offset, offset + count):
        pools: set[int] = set()
        agents = PoolChecker.seats(make_agent, "pool", i, preset, tally, pools)
        play_checked(preset, agents, PoolTable(derive_seed("pool-table", i), pools),
                     seed=23, match_index=i, on_hand=on_hand)
    return tally


def test_random_play_with_ryuuka_keeps_the_invariants() -> None:
    seen = run(RandomAgent, 2, 0).seen
    assert seen["declarations"] and seen["pool draws"]


def test_heuristic_play_with_ryuuka_keeps_the_invariants_and_she_wins_sometimes() -> None:
    seen = run(HeuristicBot, 2, 100).seen
    assert seen["declarations"] and seen["pool draws"] and seen["pool wins"]
