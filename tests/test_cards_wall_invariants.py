"""Random-play invariants with the wall cards at the table: Yuuki Kataoka, Kazue Nanpo, Takami
Shibuya, Toki Onjouji and Koromo Amae.

Every seat plays one of those characters every hand (a seeded draw), in hanchan matches (so the
South round's Kazue acts too). At every decision the table checks of
``tests/invariant_checks.py`` hold: all 136 tiles in exactly one place, the tiles the abilities
moved to the walls or kept beside a hand included; a dead wall of 14 tiles plus rule C-19's
extra indicators; legal answers offered once; points conserved; hand sizes outside the steps
that move tiles between hand and wall. The tests show that the walls changed.
"""

from __future__ import annotations

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord
from tests.invariant_checks import RandomCardTable, TableChecker, Tally, play_checked
from tests.support.rule_checks import EagerAgent

CARDS = ("yuuki_kataoka", "kazue_nanpo", "takami_shibuya", "toki_onjouji", "koromo_amae")


def run(make_agent, count: int, offset: int) -> Tally:
    preset = load_preset("cards-hanchan")
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        for e in rec.events:
            if e.kind == "ability" and ": " in e.detail:
                tally.seen[e.detail.split(": ", 1)[1].split()[0]] += 1

    for i in range(offset, offset + count):
        agents = TableChecker.seats(make_agent, "wall", i, preset, tally)
        play_checked(preset, agents, RandomCardTable(CARDS, derive_seed("wall-table", i)),
                     seed=17, match_index=i, on_hand=on_hand)
    return tally


@pytest.mark.parametrize("offset", [0, 2])
def test_random_play_with_wall_cards_keeps_the_invariants(offset: int) -> None:
    t = run(RandomAgent, 2, offset)
    assert t.steps["put_live"] and t.steps["put_dead"] and t.seen["moves"]  # the walls changed


def test_eager_play_with_wall_cards_keeps_the_invariants() -> None:
    t = run(EagerAgent, 2, 100)
    assert t.seen["draws"] and t.steps["swap"] + t.steps["draw"] > 0


def test_heuristic_play_with_wall_cards_keeps_the_invariants() -> None:
    t = run(HeuristicBot, 1, 200)
    assert t.steps["put_live"] and t.steps["put_dead"]
