"""The bots for three players (rule C-23, S-01..S-05): their tile counts, their kita, and
their calibration figures against the Tenhou sanma references."""

from __future__ import annotations

import random

from pipeline.bots.calibrate import SANMA_METRICS, calibrate, lineup
from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.shanten import visible_counts
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState, play_hand
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.rules.wall import Wall
from pipeline.tiles import counts34, parse_tiles

SANMA = load_preset("sanma-hanchan")


def test_s01_the_bots_count_2m_to_8m_as_out_of_play_and_kita_as_seen() -> None:
    # rule S-01, S-03: no acceptance and no danger from tiles that are not in the set
    start = HandStart(wall=Wall.shuffled(random.Random(4), 3).order, dealer=0,
                      scores=(35000,) * 3)
    state = HandState(start, SANMA, [ScriptAgent() for _ in range(3)])
    north = next(t for t in state.wall.live if t // 4 == 30)
    state.players[1].kita.append(north)
    seen = visible_counts(Observation(state, 0))
    assert seen[1:8] == [4] * 7
    own = counts34(state.players[0].concealed)
    assert seen[30] >= own[30] + 1  # the North set aside by P1 is public


def _legal(seat: int, hand: list[int], drawn: int) -> list[Action]:
    return ([Action(ActionKind.KITA, seat, t) for t in hand if t // 4 == 30]
            + [Action(ActionKind.DISCARD, seat, t) for t in hand])


def test_s03_the_bot_sets_a_lone_north_aside_and_keeps_a_north_that_works() -> None:
    # rule S-03, S-04: a lone North is a free dora and a free draw; a North pair that is the
    # hand's only pair, one step from tenpai, stays
    bot = HeuristicBot(1)
    lone = parse_tiles("123p456p789s11s5p6s4z")
    assert bot._kita_choice(_legal(0, lone, lone[-1]), counts34(lone), 0) is not None
    pair = parse_tiles("123p456p789s12s45p44z")
    assert bot._kita_choice(_legal(0, pair, pair[-1]), counts34(pair), 0) is None


def test_s02_the_bot_plays_a_whole_sanma_hand_without_chi() -> None:
    # rule S-02: the bot is never offered a chi and plays legal actions only
    start = scenario_start(["19m1479p258s1357z", "23p19m199s1357z56s", "19m369p147s2567z"],
                           draws="1p", dora="1s")
    rec = play_hand(start, SANMA, [HeuristicBot(s) for s in range(3)])
    assert rec.draw_kind or rec.wins
    assert not any(e.kind == "chi" for e in rec.events)


def test_c23_calibration_for_three_uses_the_sanma_references() -> None:
    # rule C-23: three seats, the Tenhou sanma figures and their source printed
    report = calibrate("sanma-tonpuusen", 4, 1)
    assert report.seats == ("heuristic",) * 3 and report.metric_list == SANMA_METRICS
    table = report.as_table()
    assert "heuristic x3" in table and "Data de katsu sannin mahjong" in table
    assert report.hands > 4 * 3
    assert lineup(1, ("heuristic",) * 3, "greedy") == ("greedy", "greedy", "heuristic")
