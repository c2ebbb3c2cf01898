"""Claims, calls and kans (rules H-05, H-06, H-07, H-11, K-03..K-08, M-04, M-08).

Situations are laid out tile by tile with :func:`scenario_start` (P0 deals and draws
``draws[0]``; then one draw per seat in turn order, a call moves the turn to the caller) and
played with scripted agents. Points are derived in the comments from the standard tables.

Three tanyao hands wait on 5p (so one 5p discard can be claimed by all three), each worth 1 han
40 fu on a ron (1,300 from a non-dealer winner):

- ``WAIT_A`` ``234m678m222s34p88s`` waits 2p/5p (20 + 10 closed ron + 4 simple triplet -> 40);
- ``WAIT_B`` ``345m567s444s67p22m`` waits 5p/8p (same fu);
- ``WAIT_C`` ``234s456m777m666s5p`` waits on 5p alone (20 + 10 + 4 + 4 + 2 single wait = 40).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.rules.actions import ActionKind
from pipeline.rules.hand import HandState
from pipeline.rules.match import MatchProgress, advance
from pipeline.rules.preset import load_preset
from pipeline.rules.records import DrawSource, Outcome
from pipeline.rules.scenario import (
    WatchingScriptAgent,
    play_scenario,
    scenario_start,
    scenario_wall,
    spare_tiles,
)
from pipeline.rules.wall import Wall
from pipeline.tiles import format_tiles, format_types, parse_types

ONLINE = load_preset("online-hanchan")
SINGLE = load_preset("single-hand")
CLUB = load_preset("club-hanchan")

WAIT_A = "234m678m222s34p88s"
WAIT_B = "345m567s444s67p22m"
WAIT_C = "234s456m777m666s5p"


def deltas(rec) -> list[int]:
    return [s.delta for s in rec.seats]


def yaku_names(win) -> list[str]:
    return [name for name, _ in win.yaku]


def offered(agent, kind: ActionKind) -> list:
    return [a for offer in agent.offers for a in offer if a.kind == kind]


def play_log(rec) -> list[str]:
    """The events after the deal, as short text: ``"P1 minkan"``, ``"dora"``..."""
    out = []
    for e in rec.events:
        if e.kind == "deal":
            continue
        who = f"P{e.seat} " if e.seat is not None else ""
        extra = " rinshan" if e.drawn_from is DrawSource.RINSHAN else ""
        out.append(f"{who}{e.kind}{extra}")
    return out[1:]  # drop the first indicator


def discard_types(offer) -> set[str]:
    return {format_types([a.tile // 4]) for a in offer if a.kind == ActionKind.DISCARD}


# ----------------------------------------------------------------------------- H-05 priority


def test_h05_ron_beats_pon_even_when_the_pon_comes_first_in_turn_order():
    # rule H-05: P2 may pon the 5p, P3 may ron it; all answers are collected, the ron wins.
    p2 = "19m1559p19s12347z"
    start = scenario_start(["", "", p2, WAIT_A], "5p", dora="9m")
    rec, agents = play_scenario(start, ONLINE, [(), (), ["pon"], ["ron"]])
    assert offered(agents[2], ActionKind.PON)
    assert not any(e.kind == "pon" for e in rec.events)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (3, 0)
    assert deltas(rec) == [-1300, 0, 0, 1300]


@pytest.mark.parametrize(("p3", "call", "log_after"), [
    ("339m19p19s123457z", "pon", ["P3 discard"]),
    ("333m19p19s123457z", "minkan", ["P3 draw rinshan", "P3 discard", "dora"]),
])
def test_h05_pon_or_kan_beats_chi_and_k04_calls_come_before_the_next_draw(p3, call, log_after):
    # rule H-05: P1 (next seat) wants to chi 3m, P3 wants to pon (or kan) it: P3 gets it.
    # rule K-04: the call is settled right after the discard; P1 does not draw in between, and
    # play goes on from the caller (P3 discards, then P0 draws).
    p1 = "249m19p19s123457z"
    start = scenario_start(["", p1, "", p3], "3m1p", rinshan="6z", dora="9s")
    rec, agents = play_scenario(start, ONLINE, [(), ["chi"], (), [call]])
    assert offered(agents[1], ActionKind.CHI)
    log = play_log(rec)
    assert log[:3] == ["P0 draw", "P0 discard", f"P3 {call}"]
    assert log[3:3 + len(log_after) + 1] == [*log_after, "P0 draw"]
    assert not any(e.kind == "chi" for e in rec.events)
    claim = next(e for e in rec.events if e.kind == call)
    assert claim.source == 0


def test_h05_only_the_next_player_may_chi():
    # rule H-05: P1, P2 and P3 all hold 45m; only P1 (after the discarder P0) may chi the 3m.
    hand = "45m19p19s1234567z"
    start = scenario_start(["", hand, hand, hand], "3m8s8s8s", dora="9m")
    _, agents = play_scenario(start, ONLINE)
    assert any(a.kind == ActionKind.CHI for a in agents[1].offers[0])
    for seat in (2, 3):
        first = agents[seat].offers[0]
        assert any(a.kind == ActionKind.DISCARD for a in first)  # its own first turn
        assert not any(a.kind == ActionKind.CHI for a in first)


# ----------------------------------------------------------------------------- H-11, M-04

THREE_WAITS = ["", WAIT_A, WAIT_B, WAIT_C]
# Four different winds go round first, then the dealer throws 5p with its second draw.
FIFTH_DRAW_5P = "1z2z3z4z5p"


def test_h11_head_bump_gives_the_win_to_the_nearest_seat_only():
    # rule H-11 (single-hand preset: no double ron): three rons on P0's 5p, P1 alone wins.
    start = scenario_start(THREE_WAITS, FIFTH_DRAW_5P, dora="9m")
    rec, _ = play_scenario(start, SINGLE, [(), ["ron"], ["ron"], ["ron"]])
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(1, 0)]
    assert deltas(rec) == [-1300, 1300, 0, 0]
    assert rec.draw_kind is None


def test_h11_head_bump_counts_in_turn_order_after_the_discarder():
    # rule H-11: P2 throws 5p; P3 and P1 can both ron; P3 comes first after P2.
    start = scenario_start(["", WAIT_A, "", WAIT_C], "1z2z5p", dora="9m")
    rec, _ = play_scenario(start, SINGLE, [(), ["ron"], (), ["ron"]])
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(3, 2)]
    assert deltas(rec) == [0, 0, -1300, 1300]


def test_h11_double_ron_pays_each_winner_with_honba_and_sticks_to_the_nearest():
    # rule H-11, M-08 (double ron on), H-10, club rules (multi_ron_honba = "each"): one honba
    # and one stick on the table.
    start = scenario_start(["", "", WAIT_B, WAIT_C], FIFTH_DRAW_5P, dora="9m", honba=1,
                           sticks=1)
    rec, _ = play_scenario(start, CLUB, [(), (), ["ron"], ["ron"]])
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(2, 0), (3, 0)]
    # Each ron: 1300 + 300; the stick goes to P2, the first winner after the discarder.
    assert deltas(rec) == [-3200, 0, 1600 + 1000, 1600]
    assert rec.sticks_end == 0


# A double ron with 2 honba and 2 sticks on P1's 5p: the dealer P0 (WAIT_C, double riichi on
# its first discard: double riichi 2 + ippatsu 1 + tanyao 1 = 4 han 40 fu, a dealer mangan,
# 12,000) and P2 (WAIT_B, 1 han 40 fu, 1,300). Turn order after P1 is P2, P3, P0, so P2 is the
# winner nearest the discarder. One stick was on the table and P0's riichi adds one.
DEALER_FAR = ([WAIT_C, "", WAIT_B, ""], "1z5p")


def _dealer_far_double_ron(preset):
    start = scenario_start(DEALER_FAR[0], DEALER_FAR[1], dora="9m", ura="9s", honba=2,
                           sticks=1)
    rec, _ = play_scenario(start, preset, [["riichi 1z", "ron"], (), ["ron"]])
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(2, 1), (0, 1)]
    assert [(w.points, w.han, w.fu) for w in rec.wins] == [(1300, 1, 40), (12000, 4, 40)]
    return rec


def _next_hand(rec, preset):
    progress = MatchProgress(scores=[25000] * 4, honba=2, sticks=1)
    advance(progress, rec, preset)
    return progress.dealer, progress.honba, progress.sticks, progress.scores


def test_h11_m03_tenhou_double_ron_honba_and_sticks_to_the_nearest_winner_only():
    # rule H-11, H-10, M-03, M-08: online presets settle as Tenhou: the discarder pays each
    # hand, but the 600 of honba and the 2,000 of sticks go to P2 alone (P0 gets neither);
    # the dealer won, so the dealer keeps the deal with honba 3 and no sticks.
    rec = _dealer_far_double_ron(ONLINE)
    assert deltas(rec) == [12000 - 1000, -(1300 + 600) - 12000, 1300 + 600 + 2000, 0]
    assert rec.seats[0].riichi and rec.sticks_end == 0
    assert sum(deltas(rec)) == 1000  # the stick that started on the table
    assert rec.dealer_continues
    assert _next_hand(rec, ONLINE) == (0, 3, 0, [36000, 11100, 28900, 25000])


@pytest.mark.parametrize("name", ["online-tonpuusen", "cards-hanchan", "cards-tonpuusen"])
def test_h11_every_tenhou_style_preset_settles_a_double_ron_as_tenhou(name):
    # rule H-11: the presets built on online-hanchan inherit its double-ron settlement.
    preset = load_preset(name)
    assert (preset.multi_ron_honba, preset.multi_ron_sticks, preset.multi_ron_renchan) == \
        ("nearest", "nearest", "any-winner")


def test_h11_double_ron_options_each_honba_split_sticks_nearest_renchan():
    # rule H-11, M-03 options: honba to each winner (+600 each), the 2,000 of sticks split
    # 1,000 / 1,000, and the deal passes since the dealer is not the nearest winner.
    preset = replace(ONLINE, multi_ron_honba="each", multi_ron_sticks="split",
                     multi_ron_renchan="nearest-winner")
    rec = _dealer_far_double_ron(preset)
    assert deltas(rec) == [12000 + 600 + 1000 - 1000, -(1300 + 600) - (12000 + 600),
                           1300 + 600 + 1000, 0]
    assert not rec.dealer_continues
    dealer, honba, sticks, _ = _next_hand(rec, preset)
    assert (dealer, honba, sticks) == (1, 0, 0)


def test_h11_split_sticks_keep_whole_hundreds_and_give_the_rest_to_the_nearest():
    # rule H-11 option multi_ron_sticks = "split": 3,000 among three winners, 1,000 among two,
    # and 1,000 among three is 400 / 300 / 300.
    from pipeline.rules.settlement import table_shares
    assert table_shares(3000, 3, "split") == [1000, 1000, 1000]
    assert table_shares(1000, 3, "split") == [400, 300, 300]
    assert table_shares(2000, 2, "nearest") == [2000, 0]
    assert table_shares(0, 2, "split") == [0, 0]


def test_m04_triple_ron_is_an_abortive_draw_online():
    # rule M-04, M-08: three rons on one discard abort the hand; nobody pays.
    start = scenario_start(THREE_WAITS, FIFTH_DRAW_5P, dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["ron"], ["ron"], ["ron"]])
    assert rec.draw_kind == "triple_ron"
    assert not rec.wins and deltas(rec) == [0, 0, 0, 0]
    assert rec.dealer_continues


def test_k11_club_triple_ron_is_not_an_abort_all_three_win():
    # rule K-11 lists no triple-ron abort; with double ron every ron scores.
    start = scenario_start(THREE_WAITS, FIFTH_DRAW_5P, dora="9m")
    rec, _ = play_scenario(start, CLUB, [(), ["ron"], ["ron"], ["ron"]])
    assert [w.seat for w in rec.wins] == [1, 2, 3]
    assert deltas(rec) == [-3900, 1300, 1300, 1300]


# ----------------------------------------------------------------------------- H-06 kans

ANKAN_HAND = "111m234p567s99s4z5z"


def test_h06_concealed_kan_draws_a_replacement_and_keeps_the_hand_closed():
    # rule H-06, H-07: P0 kans 1m on its first turn, draws 5z from the dead wall and may still
    # declare riichi (a concealed kan does not open the hand).
    start = scenario_start([ANKAN_HAND, "", "", ""], "1m", rinshan="5z", dora="9m")
    rec, agents = play_scenario(start, ONLINE, [["ankan 1m", "riichi 4z"]])
    assert any(a.kind == ActionKind.ANKAN for a in agents[0].offers[0])
    assert play_log(rec)[:6] == ["P0 draw", "P0 ankan", "dora", "P0 draw rinshan",
                                 "P0 riichi", "P0 discard"]
    rinshan_draw = [e for e in rec.events if e.kind == "draw"][1]
    assert format_tiles([rinshan_draw.tile]) == "5z"
    assert any(a.kind == ActionKind.RIICHI for a in agents[0].offers[1])
    # rule K-01: the kan interrupted the first go-around, so this is no double riichi.
    agents = [WatchingScriptAgent(s) for s in (["ankan 1m", "riichi 4z"], (), (), ())]
    state = HandState(start, ONLINE, agents)
    state.play()
    assert state.players[0].riichi and not state.players[0].double_riichi


def test_h06_open_kan_on_a_discard_draws_a_replacement():
    # rule H-06: P1 holds three 7z and takes the fourth from P0.
    p1 = "19m19p19s1234777z"
    start = scenario_start(["", p1, "", ""], "7z", rinshan="6z", dora="9m")
    rec, agents = play_scenario(start, ONLINE, [(), ["minkan"]])
    assert {a.kind for a in agents[1].offers[0]} == {ActionKind.PON, ActionKind.MINKAN,
                                                      ActionKind.PASS}
    assert play_log(rec)[:6] == ["P0 draw", "P0 discard", "P1 minkan", "P1 draw rinshan",
                                 "P1 discard", "dora"]
    assert play_log(rec)[6] == "P2 draw"


P1_PON_6S = "66s234m567p99p9m1s3z"
P3_WAITS_36S = "45s234m567p888p22z"


def test_h06_added_kan_can_be_robbed_chankan():
    # rule H-06: P1 pons 6s, later adds the fourth; P3 waits on 3s/6s and robs it.
    start = scenario_start(["", P1_PON_6S, "", P3_WAITS_36S], "6s" "1z4z7z" "6s", dora="9m")
    scripts = [(), ["pon", "discard 9m", "kakan 6s"], (), ["ron"]]
    rec, _ = play_scenario(start, ONLINE, scripts)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (3, 1)
    assert yaku_names(win) == ["Chankan"]
    # Chankan 1 han, 20 + 10 closed ron + 4 simple triplet = 34 -> 40 fu: 1300 from the kan.
    assert deltas(rec) == [0, -1300, 0, 1300]
    assert sum(e.kind == "dora" for e in rec.events) == 1  # the robbed kan is no kan


# P1 pons 6s and 7p, adds 6s (its indicator waits for the discard), draws the fourth 7p from
# the dead wall and adds it too; P3, waiting 4p/7p with four 8s, robs the 7p. The second
# indicator, 7s, would make 8s dora.
ROBBED_SECOND_KAN = (["", "66s77p234m567m9p1s3z", "", "6p234m789s888s99m4z"],
                     "6s1z2z7p3z5p5z6s")
ROBBED_SECOND_SCRIPTS = [(), ["pon", "discard 9p", "pon", "discard 1s", "kakan 6s", "kakan 7p"],
                         (), ["2z", "discard 4z", "ron"]]


@pytest.mark.parametrize(("preset", "shown", "points"), [
    (ONLINE, 1, 1300),  # Tenhou: the first kan's indicator waits until the second kan stands
    (replace(ONLINE, kan_dora_before_rob=True), 2, 8000),  # riichienv: shown before the rob
])
def test_k05_h06_a_second_kan_robbed_before_the_first_kans_indicator(preset, shown, points):
    # rule K-05, H-06: chankan 1 han 40 fu (1,300), or with four 8s dora a mangan (8,000)
    start = scenario_start(*ROBBED_SECOND_KAN, rinshan="7p", dora="1z7s")
    rec, _ = play_scenario(start, preset, ROBBED_SECOND_SCRIPTS)
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(3, 1)]
    assert "Chankan" in yaku_names(rec.wins[0])
    assert sum(e.kind == "dora" for e in rec.events) == shown
    assert deltas(rec) == [0, -points, 0, points]


def test_h06_added_kan_completes_when_nobody_robs_it():
    # rule H-06, K-05: the pon becomes a kan, a replacement is drawn, the indicator follows the
    # discard.
    start = scenario_start(["", P1_PON_6S, "", P3_WAITS_36S], "6s" "1z4z7z" "6s", dora="9m")
    scripts = [(), ["pon", "discard 9m", "kakan 6s"], (), ["pass"]]
    rec, agents = play_scenario(start, ONLINE, scripts)
    log = play_log(rec)
    at = log.index("P1 kakan")
    assert log[at:at + 4] == ["P1 kakan", "P1 draw rinshan", "P1 discard", "dora"]
    kakan = next(e for e in rec.events if e.kind == "kakan")
    assert format_tiles(kakan.tiles) == "6666s"
    # P3 passed a chankan: it was offered exactly once.
    assert len(offered(agents[3], ActionKind.RON)) == 1


KOKUSHI_WAIT_1M = "9m19p19s12345677z"


def test_h06_concealed_kan_cannot_be_robbed_online():
    # rule H-06: P2 waits on 1m with kokushi; P0's concealed kan of 1m is not offered to it.
    start = scenario_start([ANKAN_HAND, "", KOKUSHI_WAIT_1M, ""], "1m", rinshan="6z",
                           dora="9m")
    rec, agents = play_scenario(start, ONLINE, [["ankan 1m"], (), ["ron"], ()])
    assert not offered(agents[2], ActionKind.RON)
    assert any(e.kind == "ankan" for e in rec.events)
    assert not rec.wins


def test_k06_club_kokushi_robs_a_concealed_kan_and_the_kan_player_pays():
    # rule K-06, H-06: with the club option kokushi may rob the concealed kan; a regular hand
    # waiting on 1m (P3, tanyao shape 23m) may not.
    p3 = "23m456p678s345s55s"
    start = scenario_start([ANKAN_HAND, "", KOKUSHI_WAIT_1M, p3], "1m", rinshan="6z",
                           dora="9m")
    rec, agents = play_scenario(start, CLUB, [["ankan 1m"], (), ["ron"], ["ron"]])
    assert not offered(agents[3], ActionKind.RON)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 0)
    assert "Kokushi Musou" in yaku_names(win) and win.yakuman == 1
    assert deltas(rec) == [-32000, 0, 32000, 0]  # non-dealer yakuman ron, all from the kan


@pytest.mark.parametrize(("p1", "called", "call", "kans_later"), [
    # P1 pons 5z holding a third 5z and four 6z
    ("19m19p19s5556666z", "5z", "pon", {ActionKind.ANKAN, ActionKind.KAKAN}),
    # P1 chis 3m holding four 6z
    ("45m19p19s1236666z", "3m", "chi", {ActionKind.ANKAN}),
])
def test_h06_no_kan_right_after_a_call_before_discarding(p1, called, call, kans_later):
    # rule H-06, H-07: right after the call P1 may neither kan nor throw the called tile; on
    # its next draw the kans are offered.
    start = scenario_start(["", p1, "", ""], called + "1m2m3m4m", dora="9m")
    _, agents = play_scenario(start, ONLINE, [(), [call]])
    after_call = agents[1].offers[1]
    kinds = {a.kind for a in after_call}
    assert ActionKind.ANKAN not in kinds and ActionKind.KAKAN not in kinds
    assert called not in discard_types(after_call) and "6z" in discard_types(after_call)
    next_turn = {a.kind for a in agents[1].offers[2]}
    assert kans_later <= next_turn


# ----------------------------------------------------------------------------- H-07 kuikae


@pytest.mark.parametrize(("hand", "called", "step", "forbidden"), [
    ("3456m19p19s12345z", "3m", "chi 45m", {"3m", "6m"}),   # called at the low end
    ("3456m19p19s12345z", "6m", "chi 45m", {"6m", "3m"}),   # called at the high end
    ("45678m19p19s1234z", "4m", "chi 56m", {"4m", "7m"}),   # low end, other side
    ("34567m19p19s1234z", "5m", "chi 46m", {"5m"}),         # middle (kanchan): only 5m
    ("555z19m19p19s1234z", "5z", "pon", {"5z"}),            # pon: the called type
])
def test_h07_kuikae_forbids_swap_discards_after_a_call(hand, called, step, forbidden):
    # rule H-07, M-08 (kuikae forbidden)
    start = scenario_start(["", hand, "", ""], called, dora="9m")
    _, agents = play_scenario(start, ONLINE, [(), [step]])
    used = parse_types(step.split()[1]) if " " in step else parse_types(called) * 2
    rest = parse_types(hand)
    for t in used:
        rest.remove(t)
    rest_types = {format_types([t]) for t in rest}
    assert forbidden <= rest_types  # the forbidden tiles are really in hand
    assert discard_types(agents[1].offers[1]) == rest_types - forbidden


def test_h07_a_pon_opens_the_hand_so_no_riichi():
    # rule H-07, H-08: tenpai after a pon of 5z (single wait 7s), but the hand is open.
    p1 = "55z234m567p345s78s"
    start = scenario_start(["", p1, "", ""], "5z" "1m2m3m6z", dora="9m")
    _, agents = play_scenario(start, ONLINE, [(), ["pon", "discard 8s"]])
    assert len(agents[1].offers) >= 3
    assert not offered(agents[1], ActionKind.RIICHI)
    # The same hand, closed, may declare riichi on its first draw.
    start = scenario_start(["", p1, "", ""], "5z" "1m", dora="9m")
    _, agents = play_scenario(start, ONLINE)
    assert offered(agents[1], ActionKind.RIICHI)


# ----------------------------------------------------------------------------- K-03

P2_CHI_6P = "45p19m19s1234567z"
P3_PON_6P = "66p19m19s1234567z"


def test_k03_no_open_call_on_the_last_discard():
    # rule K-03: P1 throws 6p twice: with its first draw and with the last tile of the wall.
    # The first 6p may be chied (P2) or ponned (P3); the last may not.
    pad = spare_tiles(68, P2_CHI_6P, P3_PON_6P, "6p6p", "9m", avoid="3p6p7p")
    draws = pad[:2] + "6p" + pad[2:] + "6p"
    start = scenario_start(["", "", P2_CHI_6P, P3_PON_6P], draws, dora="9m")
    rec, agents = play_scenario(start, ONLINE)
    assert len(offered(agents[2], ActionKind.CHI)) == 1
    assert len(offered(agents[3], ActionKind.PON)) == 1
    last = [e for e in rec.events if e.kind == "discard"][-1]
    assert last.seat == 1 and format_tiles([last.tile]) == "6p"
    assert rec.draw_kind == "exhaustive"


def test_k03_no_kan_on_the_last_draw():
    # rule K-03, H-06: P1 draws a fourth 1z early (kan offered) and a fourth 7z as the last tile
    # of the wall (no kan offered).
    p1 = "19m19p19s1115777z"
    pad = spare_tiles(68, p1, "1z7z", "9m", avoid="1z7z")
    draws = pad[:2] + "1z" + pad[2:] + "7z"
    start = scenario_start(["", p1, "", ""], draws, dora="9m")
    rec, agents = play_scenario(start, ONLINE)
    views, offers = agents[1].views, agents[1].offers
    first = next(i for i, v in enumerate(views) if v[1] is not None)
    assert any(a.kind == ActionKind.ANKAN for a in offers[first])
    last = next(i for i, v in enumerate(views) if v[0] == 0 and v[1] is not None)
    assert format_tiles([views[last][1]]) == "7z"
    assert not any(a.kind == ActionKind.ANKAN for a in offers[last])


# ----------------------------------------------------------------------------- K-05 kan dora


def test_k05_concealed_kan_indicator_is_revealed_before_the_discard():
    # rule K-05: the kan player already sees the new indicator when it discards.
    start = scenario_start([ANKAN_HAND, "", "", ""], "1m", rinshan="6z", dora="9m")
    rec, agents = play_scenario(start, ONLINE, [["ankan 1m"]])
    assert [v[2] for v in agents[0].views[:2]] == [1, 2]
    assert play_log(rec)[:5] == ["P0 draw", "P0 ankan", "dora", "P0 draw rinshan", "P0 discard"]


P1_THREE_7Z = "19m19p19s1234777z"


def test_k05_open_kan_indicator_is_revealed_after_the_discard():
    # rule K-05: after the open kan the kan player discards with one indicator showing; the
    # next player sees two.
    start = scenario_start(["", P1_THREE_7Z, "", ""], "7z", rinshan="6z", dora="9m")
    rec, agents = play_scenario(start, ONLINE, [(), ["minkan"]])
    assert agents[1].views[1][2] == 1  # P1's discard after the replacement draw
    assert agents[2].views[0][2] == 2
    assert play_log(rec)[2:6] == ["P1 minkan", "P1 draw rinshan", "P1 discard", "dora"]


def test_k05_option_reveals_open_kan_indicator_at_once():
    # rule K-05 as an option: kan_dora_open_after_discard = false reveals every kan's at once.
    preset = replace(ONLINE, kan_dora_open_after_discard=False)
    start = scenario_start(["", P1_THREE_7Z, "", ""], "7z", rinshan="6z", dora="9m")
    rec, agents = play_scenario(start, preset, [(), ["minkan"]])
    assert agents[1].views[1][2] == 2
    assert play_log(rec)[2:5] == ["P1 minkan", "dora", "P1 draw rinshan"]


def test_h10_no_kan_dora_when_the_option_is_off():
    # rule H-10 (kan dora is an option, M-08)
    preset = replace(ONLINE, kan_dora=False)
    start = scenario_start([ANKAN_HAND, "", "", ""], "1m", rinshan="6z", dora="9m")
    rec, agents = play_scenario(start, preset, [["ankan 1m"]])
    assert sum(e.kind == "dora" for e in rec.events) == 1
    assert agents[0].views[1][2] == 1


def test_k05_ron_on_the_discard_after_an_open_kan_counts_the_new_indicator():
    # rule K-05: P1 kans 7z and throws the replacement 8m; P2 wins on it. The kan's indicator
    # (3m, so 4m is dora) turns over first.
    p2 = "234m567p345s666s8m"
    start = scenario_start(["", P1_THREE_7Z, p2, ""], "7z", rinshan="8m", dora="1z3m")
    rec, _ = play_scenario(start, ONLINE, [(), ["minkan"], ["ron"]])
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 1) and win.dora == 1
    assert play_log(rec)[-2:] == ["dora", "P2 ron"]
    # tanyao + 1 dora, 20 + 10 + 4 + 2 single wait = 36 -> 40 fu: 2 han 40 fu = 2600.
    assert deltas(rec) == [0, -2600, 2600, 0]


P1_RINSHAN = "777z234m567p345s9s"


def test_k05_rinshan_win_after_open_kan_reveals_no_new_indicator():
    # rule K-05, H-10 (rinshan kaihou): the kan's indicator (8s -> 9s dora) stays hidden.
    start = scenario_start(["", P1_RINSHAN, "", ""], "7z", rinshan="9s", dora="1z8s")
    rec, _ = play_scenario(start, ONLINE, [(), ["minkan", "tsumo"]])
    win = rec.wins[0]
    assert sorted(yaku_names(win)) == ["Rinshan Kaihou", "Yakuhai (chun)"]
    assert win.dora == 0
    assert sum(e.kind == "dora" for e in rec.events) == 1
    assert win.points == 2700 and win.pao_seat is None
    # 2 han, 20 + 16 open honor kan + 2 tsumo + 2 single wait = 40 fu: 700 / 1300 (online pays
    # a rinshan as a tsumo).
    assert deltas(rec) == [-1300, 2700, -700, -700]


def test_k06_club_rinshan_off_a_fed_open_kan_is_paid_by_the_feeder_as_a_ron():
    # rule K-06: the same win with the club preset: P0 fed the kan and pays a 2 han 40 fu ron.
    start = scenario_start(["", P1_RINSHAN, "", ""], "7z", rinshan="9s", dora="1z8s",
                           honba=1)
    rec, _ = play_scenario(start, CLUB, [(), ["minkan", "tsumo"]])
    win = rec.wins[0]
    assert win.pao_seat == 0 and win.points == 2600  # the record shows what was paid
    assert deltas(rec) == [-2600 - 300, 2600 + 300, 0, 0]


def test_k06_club_rinshan_after_a_concealed_kan_is_an_ordinary_tsumo():
    # rule K-06 covers fed open kans only: the dealer kans 1m and wins on the replacement 5z.
    p0 = "111m234p567s99s55z"
    start = scenario_start([p0, "", "", ""], "1m", rinshan="5z", dora="3z3z")
    rec, _ = play_scenario(start, CLUB, [["ankan 1m", "tsumo"]])
    win = rec.wins[0]
    assert sorted(yaku_names(win)) == ["Menzen Tsumo", "Rinshan Kaihou", "Yakuhai (haku)"]
    assert win.pao_seat is None
    # 3 han, 20 + 2 + 32 closed terminal kan + 8 closed honor triplet = 62 -> 70 fu: mangan,
    # a dealer tsumo: 4,000 from each.
    assert deltas(rec) == [12000, -4000, -4000, -4000]


# ----------------------------------------------------------------------------- K-07, K-08


def test_k07_a_kan_moves_the_last_live_tile_to_the_dead_wall():
    # rule K-07: the live wall shrinks by one per kan, the dead wall stays at 14.
    wall = Wall(scenario_wall(["", "", "", ""]))
    last_live = wall.live[0]
    wall.draw_rinshan()
    assert wall.live_left == 69 and wall.reserve == [last_live]
    assert wall.rinshan_left + len(wall.reserve) + len(wall.indicators) + len(wall.ura) == 14


def test_k07_a_hand_with_one_kan_has_one_live_draw_less():
    # rule K-07: P0 kans on its first turn; the exhaustive draw comes after 69 live draws.
    start = scenario_start([ANKAN_HAND, "", "", ""], "1m", rinshan="6z", dora="9m")
    rec, agents = play_scenario(start, SINGLE, [["ankan 1m"]])
    assert [v[0] for v in agents[0].views[:2]] == [69, 68]
    live_draws = [e for e in rec.events if e.drawn_from is DrawSource.WALL]
    assert len(live_draws) == 69
    assert rec.draw_kind == "exhaustive"


def test_k08_no_fifth_kan_and_no_kan_at_all_after_four():
    # rule K-08, H-06, K-11: P0 makes four concealed kans in one turn (suukantsu tenpai on
    # 5z). Then P1 may pon its 6z but not kan it, P2 may not kan a drawn fourth 7z, and since
    # one player made all four kans the hand is not aborted.
    p0 = "111m222p333s444s5z"
    p1 = "89m19p19s1234666z"
    p2 = "258m68p68s134777z"
    start = scenario_start([p0, p1, p2, ""], "1m" "9p" "7z", rinshan="2p3s4s6z", dora="9m")
    preset = replace(ONLINE, nagashi_mangan=False)
    rec, agents = play_scenario(
        start, preset, [["ankan 1m", "ankan 2p", "ankan 3s", "ankan 4s"]])
    assert rec.seats[0].kans == 4
    assert offered(agents[1], ActionKind.PON)
    assert not offered(agents[1], ActionKind.MINKAN)
    assert not offered(agents[2], ActionKind.ANKAN)
    kan_kinds = (ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.MINKAN)
    assert not any(a.kind in kan_kinds for offer in agents[0].offers[4:] for a in offer)
    assert rec.draw_kind == "exhaustive"


def test_m04_four_kans_by_two_players_abort_after_the_discard():
    # rule M-04, K-11: P0 makes three concealed kans, P1 the fourth.
    p0 = "111m222p333s5z6z7z1z"
    p1 = "444s9m19p19s23456z"
    start = scenario_start([p0, p1, "", ""], "1m" "4s", rinshan="2p3s7z7z", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [["ankan 1m", "ankan 2p", "ankan 3s"], ["ankan 4s"]])
    assert [s.kans for s in rec.seats[:2]] == [3, 1]
    assert rec.draw_kind == "four_kans"
    assert play_log(rec)[-2:] == ["P1 discard", "abort"]
    assert deltas(rec) == [0, 0, 0, 0] and rec.dealer_continues


# ----------------------------------------------------------------------------- M-08 pao

DAISANGEN_HAND = "123m4p129s556677z"
DAISANGEN_SCRIPT = ["pon", "discard 1s", "pon", "discard 9s", "pon", "discard 2s"]


def test_m08_pao_daisangen_tsumo_is_paid_by_the_feeder_of_the_third_dragon():
    # rule M-08: P0 fed 5z, P2 fed 6z and 7z (the third set): P2 pays the whole yakuman.
    start = scenario_start(["", DAISANGEN_HAND, "", ""], "5z6z7z" "1z2z3z" "4p", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), [*DAISANGEN_SCRIPT, "tsumo"]])
    win = rec.wins[0]
    assert "Daisangen" in yaku_names(win) and win.pao_seat == 2
    assert deltas(rec) == [0, 32000, -32000, 0]  # non-dealer yakuman, one payer
    assert [s.outcome for s in rec.seats] == [
        Outcome.NONE, Outcome.TSUMO_WIN, Outcome.PAO, Outcome.NONE]


def test_m08_pao_daisangen_ron_is_split_between_feeder_and_discarder():
    # rule M-08: P3 deals in; P2 (pao) and P3 share the 32,000; the honba is the discarder's.
    start = scenario_start(["", DAISANGEN_HAND, "", ""], "5z6z7z" "1z4p", dora="9m", honba=1)
    rec, _ = play_scenario(start, ONLINE, [(), [*DAISANGEN_SCRIPT, "ron"]])
    win = rec.wins[0]
    assert (win.from_seat, win.pao_seat) == (3, 2)
    assert deltas(rec) == [0, 32300, -16000, -16300]


def test_m08_pao_player_dealing_in_pays_everything():
    # rule M-08
    start = scenario_start(["", DAISANGEN_HAND, "", ""], "5z6z7z" "4p", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), [*DAISANGEN_SCRIPT, "ron"]])
    assert deltas(rec) == [0, 32000, -32000, 0]


def test_m08_pao_daisuushii_tsumo():
    # rule M-08: winds from P0 (1z) and P2 (2z, 3z, then 4z: the fourth set).
    p1 = "19m5p19s11223344z"
    script = ["pon", "discard 1s", "pon", "discard 9s", "pon", "discard 1m", "pon",
              "discard 9m", "tsumo"]
    start = scenario_start(["", p1, "", ""], "1z2z3z4z" "5z6z7z" "5p", dora="9p")
    rec, _ = play_scenario(start, ONLINE, [(), script])
    win = rec.wins[0]
    assert "Dai Suushii" in yaku_names(win) and win.pao_seat == 2
    assert deltas(rec) == [0, 32000, -32000, 0]


def test_m08_without_pao_a_daisangen_tsumo_is_split_as_usual():
    # rule M-08 is an option; the single-hand preset (seed 001) has no pao.
    start = scenario_start(["", DAISANGEN_HAND, "", ""], "5z6z7z" "1z2z3z" "4p", dora="9m")
    rec, _ = play_scenario(start, SINGLE, [(), [*DAISANGEN_SCRIPT, "tsumo"]])
    assert rec.wins[0].pao_seat is None
    assert deltas(rec) == [-16000, 32000, -8000, -8000]
