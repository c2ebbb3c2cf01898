"""Riichi, ippatsu, the first go-around and furiten (rules H-08, H-09, K-01, K-02, K-09).

Situations are laid out tile by tile with :func:`scenario_start` (P0 deals and draws
``draws[0]``, then one draw per seat in turn order) and played with scripted agents; see
``tests/rules/hand/test_rules_hand.py`` for the conventions. ``KANCHAN`` (``123m456p789s99s13p``)
is a closed hand waiting on 2p with no yaku of its own on a ron: riichi and tsumo give it its han.
Dora and ura indicators are set to 8m (dora 9m, which no winning hand holds).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.rules.actions import ActionKind
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import play_scenario, scenario_start, spare_tiles
from pipeline.tiles import format_types

ONLINE = load_preset("online-hanchan")
SINGLE = load_preset("single-hand")
CLUB = load_preset("club-hanchan")

KANCHAN = "123m456p789s99s13p"
HAKU = "555z234m567p345s8p"
TANYAO_25P = "234m567s345s66s34p"  # pinfu tanyao, waits 2p/5p
NO_DORA = {"dora": "8m8m", "ura": "8m8m"}

# P1 declares riichi with its second draw (d5) and can win with its third (d9): the draws
# between are different honors, so nothing else happens.
SECOND_TURN_RIICHI = "1z5z3z4z" "6z7z2z3z" "4z2p"


def deltas(rec) -> list[int]:
    return [s.delta for s in rec.seats]


def yaku_names(win) -> list[str]:
    return [name for name, _ in win.yaku]


def offered(agent, kind: ActionKind) -> list:
    return [a for offer in agent.offers for a in offer if a.kind == kind]


def own_turns(agent):
    """(view, offer) for each decision the seat made on its own turn after a draw."""
    return [(v, o) for v, o in zip(agent.views, agent.offers, strict=True) if v[1] is not None]


# ----------------------------------------------------------------------------- H-08 conditions


def test_h08_riichi_is_offered_with_the_discards_that_keep_tenpai():
    # rule H-08: closed, tenpai, 25,000 points, a full wall.
    start = scenario_start(["", KANCHAN, "", ""], "1z7z", **NO_DORA)
    _, agents = play_scenario(start, ONLINE)
    first = own_turns(agents[1])[0][1]
    assert {format_types([a.tile // 4]) for a in first if a.kind == ActionKind.RIICHI} == {"7z"}


def test_h08_no_riichi_when_not_tenpai():
    # rule H-08: one tile from tenpai (19s instead of 99s), drawing 7z.
    start = scenario_start(["", "123m456p789s19s13p", "", ""], "1z7z", **NO_DORA)
    _, agents = play_scenario(start, SINGLE)
    view, first = own_turns(agents[1])[0]
    assert format_types([view[1] // 4]) == "7z"
    assert not any(a.kind == ActionKind.RIICHI for a in first)


@pytest.mark.parametrize(("points", "allowed"), [(900, False), (1000, True)])
def test_h08_riichi_needs_1000_points(points, allowed):
    # rule H-08
    start = scenario_start(["", KANCHAN, "", ""], "1z7z", scores=(25000, points, 25000, 25000),
                           **NO_DORA)
    _, agents = play_scenario(start, ONLINE)
    assert bool(offered(agents[1], ActionKind.RIICHI)) is allowed


def test_k02_riichi_needs_four_tiles_left_in_the_live_wall():
    # rule K-02, H-08: P1 and P2 stay tenpai all hand. P1's draw that leaves 4 tiles still
    # allows riichi (it will draw once more); P2's draw that leaves 3 does not.
    pad = spare_tiles(70, KANCHAN, HAKU, "8m8m8m", avoid="2p8p")
    start = scenario_start(["", KANCHAN, HAKU, ""], pad, dora="8m", ura="8m8m")
    _, agents = play_scenario(start, ONLINE)
    seen = {}
    for seat in (1, 2):
        for view, offer in own_turns(agents[seat]):
            riichi = any(a.kind == ActionKind.RIICHI for a in offer)
            assert riichi is (view[0] >= 4), (seat, view)
            seen[(seat, view[0])] = riichi
    assert seen[(1, 4)] is True and seen[(1, 0)] is False
    assert seen[(2, 3)] is False and seen[(2, 7)] is True


def test_h08_riichi_stake_is_not_paid_when_the_declaring_discard_deals_in():
    # rule H-08, K-09: the 1,000 is staked only once the riichi discard has passed.
    start = scenario_start(["", KANCHAN, HAKU, ""], "1z8p", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 8p"], ["ron"]])
    assert rec.wins[0].seat == 2
    assert deltas(rec) == [0, -1300, 1300, 0]  # haku 1 han 40 fu
    assert rec.sticks_end == 0 and not rec.seats[1].riichi


def test_k09_riichi_procedure_declare_discard_sideways_and_stake():
    # rule K-09, H-08: the riichi event comes before the sideways (riichi) discard; the seat
    # record keeps the declaration; the stake goes to the table.
    start = scenario_start(["", KANCHAN, "", ""], SECOND_TURN_RIICHI, **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z"]])
    at = next(i for i, e in enumerate(rec.events) if e.kind == "riichi")
    discard = rec.events[at + 1]
    assert (discard.kind, discard.seat) == ("discard", 1)
    own = [e for e in rec.events if e.kind == "discard" and e.seat == 1]
    assert rec.seats[1].riichi and own.index(discard) + 1 == rec.seats[1].riichi_turn == 2
    # Nobody wins (P1 never calls tsumo): the stick is still on the table at the end.
    assert rec.sticks_end == 1


# ----------------------------------------------------------------------------- H-08 lock, kans


def test_h08_riichi_lock_only_the_drawn_tile_may_be_discarded():
    # rule H-08, K-09
    start = scenario_start(["", KANCHAN, "", ""], "1z7z", **NO_DORA)
    _, agents = play_scenario(start, SINGLE, [(), ["riichi 7z"]])
    turns = own_turns(agents[1])[1:]
    assert len(turns) > 10
    for (_, drawn, _), offer in turns:
        discards = [a.tile for a in offer if a.kind == ActionKind.DISCARD]
        assert discards == [drawn]
        assert not any(a.kind == ActionKind.RIICHI for a in offer)


RIICHI_777Z = "777z234m456p678s9s"  # single wait on 9s; a kan of 7z keeps it


@pytest.mark.parametrize(("preset", "kan_offered"), [
    (SINGLE, False),   # rule H-08: this preset forbids any kan after riichi
    (ONLINE, True),    # M-08 defaults: a concealed kan that keeps the wait
    (CLUB, True),      # rule K-09: a concealed kan is allowed in riichi
])
def test_h08_k09_concealed_kan_in_riichi_depends_on_the_preset(preset, kan_offered):
    start = scenario_start(["", RIICHI_777Z, "", ""], "5z1z2z3z" "4z7z", rinshan="6z",
                           **NO_DORA)
    rec, agents = play_scenario(start, preset, [(), ["riichi 1z", "ankan 7z"]])
    assert bool(offered(agents[1], ActionKind.ANKAN)) is kan_offered
    assert any(e.kind == "ankan" for e in rec.events) is kan_offered
    if kan_offered:  # still locked after the replacement draw
        view, offer = own_turns(agents[1])[2]
        assert [a.tile for a in offer if a.kind == ActionKind.DISCARD] == [view[1]]


@pytest.mark.parametrize("preset", [ONLINE, CLUB])
def test_k09_no_kan_in_riichi_that_changes_the_wait(preset):
    # rule K-09: 5556m waits on 4m, 6m, 7m; after a kan of 5m only 6m is left: not allowed.
    start = scenario_start(["", "5556m234p678p345s", "", ""], "5z1z2z3z" "4z5m", **NO_DORA)
    _, agents = play_scenario(start, preset, [(), ["riichi 1z"]])
    view, offer = own_turns(agents[1])[1]
    assert format_types([view[1] // 4]) == "5m"
    assert [a.kind for a in offer] == [ActionKind.DISCARD]


# ----------------------------------------------------------------------------- ippatsu


def test_k01_double_riichi_on_the_first_uninterrupted_turn():
    # rule K-01 (double riichi), H-08 (ippatsu ends with the riichi player's next discard).
    draws = "1z7z3z4z" "5z6z2z3z" "4z2p"
    start = scenario_start(["", KANCHAN, "", ""], draws, **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z", "tsumo"]])
    win = rec.wins[0]
    assert sorted(yaku_names(win)) == ["Double Riichi", "Menzen Tsumo"]
    # 3 han 30 fu non-dealer tsumo: 1000 / 2000; P1's own stick comes back.
    assert deltas(rec) == [-2000, 4000, -1000, -1000]


def test_k01_a_call_before_the_first_turn_prevents_double_riichi():
    # rule K-01: P3 pons the dealer's first discard; P1's first-turn riichi is a plain riichi.
    p3 = "11z19m19p19s23456z"
    start = scenario_start(["", KANCHAN, "", p3], "1z2m7z3z4z5z2p", **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z", "tsumo"], (), ["pon"]])
    riichi = next(e for e in rec.events if e.kind == "riichi")
    assert riichi.seat == 1
    names = yaku_names(rec.wins[0])
    assert "Riichi" in names and "Double Riichi" not in names


def test_h08_ippatsu_tsumo_within_one_go_around():
    # rule H-08, K-01: riichi 1 + ippatsu 1 + tsumo 1 = 3 han 30 fu: 1000 / 2000.
    start = scenario_start(["", KANCHAN, "", ""], SECOND_TURN_RIICHI, **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z", "tsumo"]])
    assert sorted(yaku_names(rec.wins[0])) == ["Ippatsu", "Menzen Tsumo", "Riichi"]
    assert deltas(rec) == [-2000, 4000, -1000, -1000]


def test_h08_ippatsu_ron_on_the_next_discard():
    # rule H-08: riichi + ippatsu, closed ron, 20 + 10 + 2 kanchan -> 40 fu: 2 han 40 fu 2600.
    start = scenario_start(["", KANCHAN, "", ""], "1z5z3z4z" "6z7z2p", **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z", "ron"]])
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 2)
    assert sorted(yaku_names(win)) == ["Ippatsu", "Riichi"]
    assert deltas(rec) == [0, 2600, -2600, 0]


def test_k01_a_call_cancels_ippatsu():
    # rule K-01, H-08: P3 pons P2's 2z between P1's riichi and P1's winning draw.
    p3 = "22z19m19p19s34567z"
    draws = "1z5z3z4z" "6z7z2z" "3z2p"
    start = scenario_start(["", KANCHAN, "", p3], draws, **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z", "tsumo"], (), ["pon"]])
    assert any(e.kind == "pon" and e.seat == 3 for e in rec.events)
    assert sorted(yaku_names(rec.wins[0])) == ["Menzen Tsumo", "Riichi"]
    assert deltas(rec) == [-1000, 2000, -500, -500]  # 2 han 30 fu


def test_h08_a_pon_of_the_riichi_discard_still_takes_the_stake_and_ends_ippatsu():
    # rule H-08, K-01: P3 pons P1's riichi tile 7z; the riichi stands (1,000 staked), but
    # P1's tsumo on its next draw has no ippatsu.
    p3 = "77z19m19p19s23456z"
    draws = "1z5z3z4z" "6z7z" "2z2p"
    start = scenario_start(["", KANCHAN, "", p3], draws, **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [(), ["riichi 7z", "tsumo"], (), ["pon"]])
    assert any(e.kind == "pon" and e.seat == 3 and e.source == 1 for e in rec.events)
    assert rec.seats[1].riichi
    assert sorted(yaku_names(rec.wins[0])) == ["Menzen Tsumo", "Riichi"]
    assert deltas(rec) == [-1000, 2000, -500, -500]  # 2 han 30 fu; the stick comes back


def test_k01_a_concealed_kan_cancels_ippatsu():
    # rule K-01, H-08: the dealer kans 9p between P1's riichi and P1's winning draw.
    p0 = "999p19m19s234567z"
    draws = "1z5z3z4z" "6z7z2z3z" "9p2p"
    start = scenario_start([p0, KANCHAN, "", ""], draws, rinshan="1z", **NO_DORA)
    rec, _ = play_scenario(start, ONLINE, [["ankan 9p"], ["riichi 7z", "tsumo"]])
    assert any(e.kind == "ankan" and e.seat == 0 for e in rec.events)
    assert sorted(yaku_names(rec.wins[0])) == ["Menzen Tsumo", "Riichi"]
    assert deltas(rec) == [-1000, 2000, -500, -500]


def test_h08_ippatsu_is_an_option():
    # rule H-08, M-08: without the option the same win has no ippatsu.
    start = scenario_start(["", KANCHAN, "", ""], SECOND_TURN_RIICHI, **NO_DORA)
    rec, _ = play_scenario(start, replace(ONLINE, ippatsu=False), [(), ["riichi 7z", "tsumo"]])
    assert sorted(yaku_names(rec.wins[0])) == ["Menzen Tsumo", "Riichi"]


@pytest.mark.parametrize(("preset", "p2_script", "renhou"), [
    (CLUB, (), True),                        # rule K-01: a win before one's first draw
    (CLUB, ["pon", "discard 2p"], False),    # a call broke the first go-around
    (ONLINE, (), False),                     # the online preset has no renhou
])
def test_k01_renhou_only_in_an_uninterrupted_first_go_around(preset, p2_script, renhou):
    # P1 waits on 2p with no other yaku. Either the dealer's first discard is 2p, or P2 pons the
    # dealer's 9m and throws 2p; P1 has not drawn yet in both cases.
    p2 = "99m2p19p19s123456z"
    draws = "9m" if p2_script else "2p"
    start = scenario_start(["", KANCHAN, p2, ""], draws, **NO_DORA)
    rec, agents = play_scenario(start, preset, [(), ["ron"], p2_script])
    assert bool(offered(agents[1], ActionKind.RON)) is renhou
    if renhou:
        win = rec.wins[0]
        assert yaku_names(win) == ["Renhou"] and win.limit == "mangan"
        assert deltas(rec) == [-8000, 8000, 0, 0]


# ----------------------------------------------------------------------------- H-09 furiten


@pytest.mark.parametrize(("hand", "script", "ron_offered"), [
    # 5p, the other wait, is in P1's discards: no ron on 2p, but the 2p tsumo is allowed
    ("234m678s99s34p5p22z", ["discard 5p", "tsumo"], False),
    # the same waits without it
    ("234m678s99s34p7z22z", ["discard 7z", "ron"], True),
])
def test_h09_own_discard_furiten_checks_every_wait_but_tsumo_is_allowed(hand, script,
                                                                        ron_offered):
    # rule H-09: P1 draws 2z (a South triplet: a yaku) and throws a tile, leaving 34p (waits
    # 2p/5p). P2 throws 2p; P1 draws 2p next turn.
    start = scenario_start(["", hand, "", ""], "1z2z2p3z" "4z2p", **NO_DORA)
    rec, agents = play_scenario(start, ONLINE, [(), script])
    assert bool(offered(agents[1], ActionKind.RON)) is ron_offered
    win = rec.wins[0]
    assert win.seat == 1 and win.is_tsumo is not ron_offered


def test_h09_k01_passing_a_ron_gives_temporary_furiten_until_one_s_own_discard():
    # rule H-09, K-01: P1 passes a ron on P2's 2p; P0 pons 9m and throws 5p (a call does not
    # end the furiten): no ron. After P1's own discard, P2's 5p may be won.
    p0 = "99m159p19s123457z"
    draws = "6z6z2p9m" "1z5p"
    start = scenario_start([p0, TANYAO_25P, "", ""], draws, **NO_DORA)
    rec, agents = play_scenario(start, ONLINE, [["pon", "discard 5p"], ["pass", "ron"]])
    assert any(e.kind == "pon" and e.seat == 0 for e in rec.events)
    assert len(offered(agents[1], ActionKind.RON)) == 2  # P2's 2p, then P2's 5p
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 2)
    assert deltas(rec) == [0, 2000, -2000, 0]  # pinfu tanyao, 2 han 30 fu ron


def test_h09_passing_a_ron_in_riichi_is_furiten_for_the_rest_of_the_hand():
    # rule H-09: P1 in riichi passes P2's 2p; P2's later 5p is not offered; tsumo still is.
    draws = "1z7z2p3z" "4z5z5p6z" "1z2p"
    start = scenario_start(["", TANYAO_25P, "", ""], draws, **NO_DORA)
    rec, agents = play_scenario(start, ONLINE, [(), ["riichi 7z", "pass", "tsumo"]])
    assert len(offered(agents[1], ActionKind.RON)) == 1
    win = rec.wins[0]
    assert win.seat == 1 and win.is_tsumo
