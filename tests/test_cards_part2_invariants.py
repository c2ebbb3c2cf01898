"""Random-play invariants with the part-2 table cards at the table: Shiromi, Mihoko, Kasumi,
Tomoe and Jun.

Every seat plays one of those characters every hand (a seeded draw), with the table checks of
``tests/invariant_checks.py``: 136 tiles each in one place, only legal actions (the engine
refuses any other), hand sizes (a family is named on the seat's turn, before it acts), and
points conserved at every decision and every hand end (Jun's call payments move points during
the hand; sticks and stakes counted).
"""

from __future__ import annotations

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from tests.invariant_checks import RandomCardTable, TableChecker, Tally, play_checked
from tests.support.rule_checks import EagerAgent

CARDS = ("shiromi_kosegawa", "mihoko_fukuji", "kasumi_iwato", "tomoe_karijuku", "jun_inoue")


class FamilyChecker(TableChecker):
    """The table checks; a family is named on the seat's turn, before it acts."""

    turn_steps = frozenset({"family"})


def run(preset: Preset, make_agent, count: int, offset: int) -> Tally:
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        for e in rec.events:
            if e.kind == "ability":
                tally.seen[e.detail.split(": ")[1]] += 1
            if e.kind == "discard" and "face down" in e.detail:
                tally.seen["face down"] += 1

    for i in range(offset, offset + count):
        agents = FamilyChecker.seats(make_agent, "part2", i, preset, tally)
        play_checked(preset, agents, RandomCardTable(CARDS, derive_seed("part2-table", i)),
                     seed=13, match_index=i, on_hand=on_hand)
    return tally


@pytest.mark.parametrize("offset", [0, 4])
def test_random_play_with_part2_cards_keeps_the_invariants(offset: int) -> None:
    t = run(load_preset("cards-tonpuusen"), RandomAgent, 4, offset)
    assert t.decisions > 0
    assert t.seen["call payment"] > 0          # Jun's payments during the hand were checked


def test_eager_play_with_part2_cards_keeps_the_invariants() -> None:
    t = run(load_preset("cards-tonpuusen"), EagerAgent, 4, 100)
    assert t.kinds["ability"] > t.steps["family"]  # an ability besides naming a family
    assert t.seen["extra turn"] > 0


def test_heuristic_play_with_part2_cards_keeps_the_invariants() -> None:
    t = run(load_preset("cards-tonpuusen"), HeuristicBot, 2, 200)
    assert t.decisions > 0 and t.seen["family sou"] + t.seen["family man"] \
        + t.seen["family pin"] + t.seen["family honors"] > 0
