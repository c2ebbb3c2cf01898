"""Draws and the flow between hands (rules H-12, M-03, M-04, M-05, K-01, K-11..K-14).

Hands are laid out with :func:`scenario_start` (P0 deals unless a test says otherwise; the dealer
draws ``draws[0]``, then one draw per seat in turn order). Without a script every seat throws
the tile it drew, so a hand whose players never win runs to an exhaustive draw with the dealt
13 tiles unchanged: their tenpai state is fixed by the deal.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest

from pipeline.rules import match as match_module
from pipeline.rules.actions import ActionKind
from pipeline.rules.agari import winning_types
from pipeline.rules.match import MatchProgress, advance, play_match, rank_seats
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord, Outcome, SeatRecord, WinRecord
from pipeline.rules.scenario import (
    ScriptAgent,
    play_scenario,
    scenario_start,
    scenario_wall,
    spare_tiles,
)
from pipeline.rules.wall import Wall
from pipeline.tiles import counts34, is_terminal_or_honor_type, parse_tiles

ONLINE = load_preset("online-hanchan")
SINGLE = load_preset("single-hand")
CLUB = load_preset("club-hanchan")

# One tenpai and one noten hand per seat; any mix of them fits in one wall.
TENPAI = ["123456789m1122p", "123456789s3344p", "111222333z5566p", "444555666z7788p"]
NOTEN = ["1479m25899p369s1z", "2589m369p147s477z", "1369m147p258s577z", "1478m25899s369p6z"]


def deltas(rec) -> list[int]:
    return [s.delta for s in rec.seats]


def offered(agent, kind: ActionKind) -> list:
    return [a for offer in agent.offers for a in offer if a.kind == kind]


def test_tenpai_and_noten_hands_are_what_they_claim():
    for hand in TENPAI:
        assert winning_types(counts34(parse_tiles(hand)))
    for hand in NOTEN:
        assert not winning_types(counts34(parse_tiles(hand)))


# ----------------------------------------------------------------------------- H-12, M-03


def noten_payments(tenpai: tuple[bool, ...]) -> list[int]:
    n = sum(tenpai)
    if n in (0, 4):
        return [0, 0, 0, 0]
    return [3000 // n if t else -3000 // (4 - n) for t in tenpai]


@pytest.mark.parametrize("tenpai", list(product((False, True), repeat=4)),
                         ids=lambda t: "".join("T" if x else "n" for x in t))
def test_h12_exhaustive_draw_noten_players_pay_3000_to_tenpai_players(tenpai):
    # rule H-12: one tenpai +3000 / -1000; two +-1500; three +1000 / -3000; all or none: 0.
    # rule M-03: the dealer keeps the deal when it is tenpai.
    hands = [TENPAI[s] if tenpai[s] else NOTEN[s] for s in range(4)]
    rec, _ = play_scenario(scenario_start(hands, dora="9m"), SINGLE)
    assert rec.draw_kind == "exhaustive"
    assert deltas(rec) == noten_payments(tenpai)
    assert [s.tenpai_at_end for s in rec.seats] == list(tenpai)
    assert [s.outcome for s in rec.seats] == [
        Outcome.DRAW_TENPAI if t else Outcome.DRAW_NOTEN for t in tenpai]
    assert rec.dealer_continues is tenpai[0]


def test_h12_noten_payment_total_is_a_preset_option():
    # rule H-12 (the 3,000 is data): 1,200 in total, one tenpai player.
    preset = replace(SINGLE, noten_payment=1200)
    hands = [NOTEN[0], TENPAI[1], NOTEN[2], NOTEN[3]]
    rec, _ = play_scenario(scenario_start(hands, dora="9m"), preset)
    assert deltas(rec) == [-400, 1200, -400, -400]


# P1 (tenpai) declares riichi with its first draw; the first four discards are simple tiles.
RIICHI_THEN_DRAW = ([NOTEN[0], TENPAI[1], NOTEN[2], NOTEN[3]], "5m7z6m8m")


@pytest.mark.parametrize(("preset", "p1_delta", "sticks_end"), [
    (SINGLE, 3000, 0),   # rule H-12: deposits come back after a draw (1,000 staked, returned)
    (ONLINE, 2000, 1),   # M-08 defaults: the stick stays on the table for the next winner
])
def test_h12_single_hand_returns_riichi_deposits_after_a_draw(preset, p1_delta, sticks_end):
    hands, draws = RIICHI_THEN_DRAW
    start = scenario_start(hands, draws, dora="9m")
    rec, _ = play_scenario(start, preset, [(), ["riichi 7z"]])
    assert rec.draw_kind == "exhaustive" and rec.seats[1].riichi
    assert deltas(rec) == [-1000, p1_delta, -1000, -1000]
    assert rec.sticks_end == sticks_end


# ----------------------------------------------------------------------------- M-05 nagashi

TERMINAL_HONORS = "1m9m1p9p1s9s1z2z3z4z5z6z7z"
NAGASHI_HANDS = ["999s1112223334z", "11m44555666777z", "23456m99m1199p11s", "78m2345678p2345s"]


def nagashi_start(p1_draws: str, p1_positions: set[int]) -> object:
    """Hands above; P1 draws (and throws) only terminals and honors, everyone else simples."""
    simples = spare_tiles(70 - len(p1_positions), *NAGASHI_HANDS, p1_draws,
                          avoid=TERMINAL_HONORS)
    mine = iter(p1_draws[i:i + 2] for i in range(0, len(p1_draws), 2))
    rest = iter(simples[i:i + 2] for i in range(0, len(simples), 2))
    draws = "".join(next(mine) if i in p1_positions else next(rest) for i in range(70))
    return scenario_start(NAGASHI_HANDS, draws)


P1_TERMINALS = "1m9m1p9p1s9s1z2z3z4z5z6z7z1m9m1p9p1s"


def test_m05_nagashi_mangan_is_paid_as_a_mangan_tsumo():
    # rule M-05: all 18 of P1's discards are terminals or honors and none was called.
    start = nagashi_start(P1_TERMINALS, {i for i in range(70) if i % 4 == 1})
    rec, _ = play_scenario(start, ONLINE)
    assert rec.draw_kind == "nagashi_mangan"
    assert rec.seats[1].outcome == Outcome.NAGASHI
    # Non-dealer mangan tsumo: 4,000 from the dealer, 2,000 from each other player.
    assert deltas(rec) == [-4000, 8000, -2000, -2000]


def test_m05_nagashi_mangan_is_an_option():
    start = nagashi_start(P1_TERMINALS, {i for i in range(70) if i % 4 == 1})
    rec, _ = play_scenario(start, replace(ONLINE, nagashi_mangan=False))
    assert rec.draw_kind == "exhaustive"
    assert rec.seats[1].outcome != Outcome.NAGASHI


def test_m05_a_called_discard_breaks_nagashi_mangan():
    # rule M-05: P2 pons P1's first discard (9m); P1's later discards are still all terminals
    # and honors (after the pon P1 draws every fourth tile from the 5th on).
    p1_draws = "9m1m1p9p1s9s1z2z3z4z5z6z7z1m9m1p9p1s"
    positions = {1} | set(range(4, 70, 4))
    rec, agents = play_scenario(nagashi_start(p1_draws, positions), ONLINE, [(), (), ["pon"]])
    assert any(e.kind == "pon" and e.seat == 2 for e in rec.events)
    p1_discards = [e.tile // 4 for e in rec.events if e.kind == "discard" and e.seat == 1]
    assert len(p1_discards) == 18
    assert all(is_terminal_or_honor_type(t) for t in p1_discards)
    assert rec.draw_kind == "exhaustive"
    assert rec.seats[1].outcome != Outcome.NAGASHI


# ----------------------------------------------------------------------------- M-04, K-11 aborts

NINE_KINDS_ON_DRAW = "19m19p19s12z234m56p"  # 8 kinds of terminals/honors in 13 tiles


def test_m04_nine_terminals_counts_the_first_draw_and_is_the_players_choice():
    # rule M-04, K-11: 8 kinds dealt plus 3z drawn: the dealer may abort.
    start = scenario_start([NINE_KINDS_ON_DRAW, "", "", ""], "3z", dora="9m")
    rec, agents = play_scenario(start, ONLINE, [["nine"]])
    assert any(a.kind == ActionKind.NINE_TERMINALS for a in agents[0].offers[0])
    assert rec.draw_kind == "nine_terminals"
    assert deltas(rec) == [0, 0, 0, 0] and rec.dealer_continues
    assert all(s.outcome == Outcome.ABORTIVE for s in rec.seats)


def test_m04_nine_terminals_is_offered_only_on_the_first_draw():
    # rule M-04, K-11: 8 kinds plus a simple: not offered. Declined on the first draw, the
    # hand goes on and it is not offered again.
    start = scenario_start([NINE_KINDS_ON_DRAW, "", "", ""], "5m", dora="9m")
    _, agents = play_scenario(start, ONLINE)
    assert not offered(agents[0], ActionKind.NINE_TERMINALS)
    start = scenario_start([NINE_KINDS_ON_DRAW, "", "", ""], "3z1z2z4z" "7z", dora="9m")
    rec, agents = play_scenario(start, ONLINE)
    nine = [i for i, o in enumerate(agents[0].offers)
            if any(a.kind == ActionKind.NINE_TERMINALS for a in o)]
    assert nine == [0]
    assert rec.draw_kind != "nine_terminals"


@pytest.mark.parametrize(("p3_script", "allowed"), [((), True), (["pon"], False)])
def test_k01_a_call_removes_the_nine_terminals_abort(p3_script, allowed):
    # rule K-01, K-11: P3 pons the dealer's first discard before P1's first draw.
    p1 = "19m19p19s1234z567m"   # 10 kinds
    p3 = "258m28p28s345567z"
    draws = "5z6z6m" if p3_script else "5z6z"
    start = scenario_start(["", p1, "", p3], draws, dora="9s")
    _, agents = play_scenario(start, ONLINE, [(), (), (), p3_script])
    assert bool(offered(agents[1], ActionKind.NINE_TERMINALS)) is allowed


def test_h12_single_hand_has_no_nine_terminals_abort():
    # rule H-12 (seed 001 ends a hand only by a win or an exhaustive draw)
    start = scenario_start([NINE_KINDS_ON_DRAW, "", "", ""], "3z", dora="9m")
    _, agents = play_scenario(start, SINGLE)
    assert not offered(agents[0], ActionKind.NINE_TERMINALS)


@pytest.mark.parametrize(("preset", "draws", "aborted"), [
    (ONLINE, "1z1z1z1z", True),     # rule M-04, K-11
    (ONLINE, "1z1z1z2z", False),    # not the same wind
    (ONLINE, "1z1z2m1z1z", False),  # not all in the first go-around
    (SINGLE, "1z1z1z1z", False),    # seed 001 has no abortive draws
])
def test_m04_four_winds(preset, draws, aborted):
    start = scenario_start(["", "", "", ""], draws, dora="9m")
    rec, _ = play_scenario(start, preset)
    assert (rec.draw_kind == "four_winds") is aborted
    if aborted:
        assert play_log_tail(rec) == ["P3 discard", "abort"]
        assert deltas(rec) == [0, 0, 0, 0] and rec.dealer_continues


def play_log_tail(rec) -> list[str]:
    return [f"P{e.seat} {e.kind}" if e.seat is not None else e.kind for e in rec.events[-2:]]


def test_k01_a_concealed_kan_removes_the_four_winds_abort():
    # rule K-01: P2 kans 2m on its first turn, then all four first discards are East.
    p2 = "222m19p19s234567z"
    start = scenario_start(["", "", p2, ""], "1z1z2m1z", rinshan="1z", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), (), ["ankan 2m"]])
    firsts = [e.tile // 4 for e in rec.events if e.kind == "discard"][:4]
    assert firsts == [27] * 4
    assert rec.draw_kind != "four_winds"


def test_m04_four_riichi_abort_and_the_sticks_stay_on_the_table():
    # rule M-04, K-11: all four declare riichi in the first go-around.
    draws = "9m9s7z9p"
    scripts = [["riichi 9m"], ["riichi 9s"], ["riichi 7z"], ["riichi 9p"]]
    rec, _ = play_scenario(scenario_start(TENPAI, draws, dora="8m"), ONLINE, scripts)
    assert rec.draw_kind == "four_riichi"
    assert deltas(rec) == [-1000] * 4 and rec.sticks_end == 4
    assert rec.dealer_continues
    # The single-hand preset plays on; all four tenpai at the draw, deposits returned.
    rec, _ = play_scenario(scenario_start(TENPAI, draws, dora="8m"), SINGLE, scripts)
    assert rec.draw_kind == "exhaustive"
    assert deltas(rec) == [0, 0, 0, 0] and rec.sticks_end == 0


# ----------------------------------------------------------------------------- K-12 renchan

HAKU = "555z234m567p345s8p"


def played(seat_with_haku: int, draws: str, script: list[str]) -> HandRecord:
    hands = ["", "", "", ""]
    hands[seat_with_haku] = HAKU
    scripts = [(), (), (), ()]
    scripts[seat_with_haku] = script
    rec, _ = play_scenario(scenario_start(hands, draws, dora="9m", honba=2), ONLINE, scripts)
    return rec


@pytest.mark.parametrize(("make", "dealer", "honba"), [
    (lambda: played(1, "1z2z8p", ["ron"]), 1, 0),       # a non-dealer wins: reset, deal passes
    (lambda: played(0, "1z8p", ["ron"]), 0, 3),         # the dealer wins: renchan, +1
    (lambda: play_scenario(scenario_start(NOTEN, dora="9m"), SINGLE)[0], 1, 3),  # draw, noten
    (lambda: play_scenario(scenario_start(["19m19p19s12z234m56p", "", "", ""], "3z"), ONLINE,
                           [["nine"]])[0], 0, 3),       # abortive draw
])
def test_k12_renchan_counter(make, dealer, honba):
    # rule K-12, M-03: reset when a non-dealer wins, raised after a dealer win, any draw or
    # abortive draw. (The engine has no chombo penalty, so that clause has nothing to test.)
    rec = make()
    progress = MatchProgress(scores=[s.start_score for s in rec.seats], honba=2)
    advance(progress, rec, ONLINE)
    assert (progress.dealer, progress.honba) == (dealer, honba)
    assert not progress.finished


# ----------------------------------------------------------------------------- K-13 end of game


def record(dealer: int, end: list[int], *, winner: int | None, continues: bool) -> HandRecord:
    seats = [SeatRecord(seat=s, start_score=25000, end_score=end[s]) for s in range(4)]
    wins = [] if winner is None else [WinRecord(
        seat=winner, from_seat=winner, han=1, fu=30, points=1000, yaku=(("Riichi", 1),),
        dora=0, aka=0, ura=0, limit="", yakuman=0)]
    return HandRecord(round_wind=0, hand_number=0, honba=0, sticks_start=0, dealer=dealer,
                      seats=seats, wins=wins, draw_kind=None if wins else "exhaustive",
                      dealer_continues=continues)


@pytest.mark.parametrize(("where", "dealer", "end", "winner", "finished", "next_hand"), [
    # South 4: the dealer wins and is first with 30,000+: the hanchan ends
    ((1, 3), 3, [20000, 20000, 25000, 35000], 3, True, None),
    # South 4: the dealer wins but is not first: renchan, South 4 again
    ((1, 3), 3, [36000, 20000, 20000, 24000], 3, False, (1, 3, 3)),
    # South 4: a non-dealer wins and first place has 30,000+
    ((1, 3), 3, [31000, 23000, 23000, 23000], 0, True, None),
    # South 4: nobody has 30,000: a West round follows
    ((1, 3), 3, [28000, 24000, 24000, 24000], 0, False, (2, 0, 0)),
    # West 1: someone reaches 30,000: the game ends
    ((2, 0), 0, [30000, 24000, 23000, 23000], 1, True, None),
    # West 4 without 30,000: the game ends (no North round)
    ((2, 3), 3, [29000, 24000, 24000, 23000], 0, True, None),
    # East 1: a player below 0 ends the game ...
    ((0, 0), 0, [56000, -100, 22100, 22000], 0, True, None),
    # ... but exactly 0 plays on
    ((0, 0), 0, [55900, 0, 22100, 22000], 0, False, (0, 0, 0)),
])
def test_k13_hanchan_end(where, dealer, end, winner, finished, next_hand):
    # rule K-13 (club preset; M-06 is the same with online options)
    round_wind, hand_number = where
    progress = MatchProgress(scores=[25000] * 4, dealer=dealer, round_wind=round_wind,
                             hand_number=hand_number)
    rec = record(dealer, end, winner=winner, continues=winner == dealer)
    advance(progress, rec, CLUB)
    assert progress.finished is finished
    if next_hand is not None:
        assert (progress.round_wind, progress.hand_number, progress.dealer) == next_hand


# ----------------------------------------------------------------------------- K-14 ranking


def test_k14_equal_points_rank_by_seat_from_the_first_dealer():
    # rule K-14: the seat closer to the first dealer (seat 0), counter-clockwise, ranks higher.
    assert rank_seats([30000, 20000, 30000, 20000]) == [1, 3, 2, 4]
    assert rank_seats([25000, 25000, 25000, 25000]) == [1, 2, 3, 4]


def test_k14_sticks_left_at_the_end_go_to_first_place(monkeypatch):
    # rule K-14, M-07: a one-hand match whose hand ends in a draw with P1's riichi stick on the
    # table. P1 (tenpai alone: 25,000 - 1,000 + 3,000) is first and takes the stick.
    hands, draws = RIICHI_THEN_DRAW
    order = scenario_wall(hands, draws, dora="9m")

    class FixedWall:
        @staticmethod
        def shuffled(rng) -> Wall:
            return Wall(order)

    monkeypatch.setattr(match_module, "Wall", FixedWall)
    preset = replace(ONLINE, length="single")
    agents = [ScriptAgent(), ScriptAgent(["riichi 7z"]), ScriptAgent(), ScriptAgent()]
    result = play_match(preset, agents, seed=1)
    assert len(result.hands) == 1 and result.hands[0].sticks_end == 1
    assert result.final_scores == [24000, 28000, 24000, 24000]
    assert result.leftover_sticks == 0
    assert result.ranks == [2, 1, 3, 4]  # the three equal scores rank by seat
