"""Random-play invariants with the claim, win, block and duel cards at the table: Sumire, Yukiko,
Hiroe, Sae, Megan and Aislinn.

Every seat plays one of those characters every hand (a seeded draw), with the checks of
``test_invariants``: 136 tiles each in one place, only legal actions (the engine refuses any
other), and points conserved at every decision and every hand end (Aislinn's stakes counted
with the sticks). Yukiko's priority chi may come from any player, so the "only the next player
may chi" check is replaced for it by its own: the tile is the discard on offer and she is not in
riichi.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation, RandomAgent
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from tests.test_cards_wall_invariants import RandomCardTable
from tests.test_invariants import (
    CheckingAgent,
    Checks,
    EagerAgent,
    check_hand_end,
    check_match,
    check_tiles,
)

CARDS = ("sumire_hirose", "yukiko_maya", "hiroe_atago", "sae_usuzawa", "megan_davin",
         "aislinn_wishart")
CATALOG = load_catalog("1.2")
NAMING = (":duel:P", ":block:P")


class DuelCheckingAgent(CheckingAgent):
    """The checking agent, with a player named (duel, block) and priority chi checked apart."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state = obs._state
        if all(any(n in a.detail for n in NAMING) for a in legal):
            check_tiles(state, set())
            assert {int(a.detail.rsplit("P", 1)[1]) for a in legal} == \
                set(range(4)) - {obs.seat}
            return self._counted(obs, legal)
        priority = [a for a in legal if a.kind == ActionKind.CHI and a.detail.endswith(":priority")]
        if not priority:
            return super().decide(obs, legal)
        last = next(e for e in reversed(state.events) if e.kind == "discard")
        p = state.players[obs.seat]
        assert last.seat != obs.seat and not p.riichi and state.wall.live_left > 0
        assert all(a.tile == last.tile for a in priority)
        check_tiles(state, set())
        return self._counted(obs, legal)

    def _counted(self, obs: Observation, legal: list[Action]) -> Action:
        state = obs._state
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        choice = self.inner.decide(obs, legal)
        assert choice in legal, f"{choice} is not among the legal actions"
        self.checks.decisions += 1
        self.checks.kinds[choice.kind.value] += 1
        return choice


def run(preset: Preset, make_agent, count: int, offset: int) -> tuple[Checks, Counter[str]]:
    checks = Checks()
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [DuelCheckingAgent(make_agent(derive_seed("duel", i, s)), preset, checks)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            for e in rec.events:
                if e.kind == "ability":
                    what = e.detail.split(": ")[1] if ": " in e.detail else e.detail
                    seen[what.split(" ")[0] if what.startswith(("duel", "block")) else what] += 1

        table = RandomCardTable(CARDS, derive_seed("duel-table", i))
        result = play_match(preset, agents, seed=17, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
    return checks, seen


@pytest.mark.parametrize("offset", [0, 4])
def test_random_play_with_duel_cards_keeps_the_invariants(offset: int) -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), RandomAgent, 4, offset)
    assert checks.decisions > 0
    assert seen["duel"] > 0 and seen["priority chi"] > 0


def test_eager_play_with_duel_cards_keeps_the_invariants() -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), EagerAgent, 4, 100)
    assert checks.kinds["ron"] > 0 and seen["stake"] > 0
    assert any("previous discard" in what for what in seen)  # a late ron was checked too


def test_heuristic_play_with_duel_cards_keeps_the_invariants() -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), HeuristicBot, 2, 200)
    assert checks.decisions > 0 and seen["duel"] > 0
