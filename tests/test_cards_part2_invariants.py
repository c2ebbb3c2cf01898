"""Random-play invariants with the part-2 table cards at the table: Shiromi, Mihoko, Kasumi,
Tomoe and Jun.

Every seat plays one of those characters every hand (a seeded draw), with the same checks as
``test_invariants``: 136 tiles each in one place, only legal actions (the engine refuses any
other), and points conserved at every decision and every hand end (Jun's call payments move
points during the hand; sticks and stakes counted).
"""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action
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

CARDS = ("shiromi_kosegawa", "mihoko_fukuji", "kasumi_iwato", "tomoe_karijuku", "jun_inoue")
CATALOG = load_catalog("1.2")


class FamilyCheckingAgent(CheckingAgent):
    """The checking agent; a family named before the first discard (a choice made on the seat's
    turn, before it acts) gets the tile and point checks, the turn's own checks come next."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if not all(":family:" in a.detail for a in legal):
            return super().decide(obs, legal)
        state = obs._state
        check_tiles(state, set())
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        choice = self.inner.decide(obs, legal)
        assert choice in legal, f"{choice} is not among the legal actions"
        self.checks.decisions += 1
        return choice


def run(preset: Preset, make_agent, count: int, offset: int) -> tuple[Checks, Counter[str]]:
    checks = Checks()
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [FamilyCheckingAgent(make_agent(derive_seed("part2", i, s)), preset, checks)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            for e in rec.events:
                if e.kind == "ability":
                    seen[e.detail.split(": ")[1]] += 1
                if e.kind == "discard" and "face down" in e.detail:
                    seen["face down"] += 1

        table = RandomCardTable(CARDS, derive_seed("part2-table", i))
        result = play_match(preset, agents, seed=13, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
    return checks, seen


@pytest.mark.parametrize("offset", [0, 4])
def test_random_play_with_part2_cards_keeps_the_invariants(offset: int) -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), RandomAgent, 4, offset)
    assert checks.decisions > 0
    assert seen["call payment"] > 0          # Jun's payments during the hand were checked


def test_eager_play_with_part2_cards_keeps_the_invariants() -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), EagerAgent, 4, 100)
    assert checks.kinds["ability"] > 0 and seen["extra turn"] > 0


def test_heuristic_play_with_part2_cards_keeps_the_invariants() -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), HeuristicBot, 2, 200)
    assert checks.decisions > 0 and seen["family sou"] + seen["family man"] \
        + seen["family pin"] + seen["family honors"] > 0
