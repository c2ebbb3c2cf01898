"""The hand loop, rule by rule (sections H and M of the rulebook): the wall and the deal, turns,
yaku requirements, payments, seat winds and the win record.

Each test lays out an exact situation with :func:`scenario_start` (hands and draws as mpsz, the
dealer's first draw is ``draws[0]``, then one draw per seat in turn order) and plays it with
scripted agents. Seats: P0 is the dealer (East) unless a test says otherwise. Expected points are
written out from the standard tables; the derivation is in the comment next to each number.

Shared hands:

- ``KANCHAN``: ``123m456p789s99s13p``, closed, waits on 2p, no yaku of its own on a ron;
  a tsumo has menzen tsumo and 30 fu (20 + 2 tsumo + 2 kanchan = 24, rounded up).
- ``HAKU``: ``555z234m567p345s8p``, a white-dragon triplet and a single wait on 8p: 1 han on a
  ron, 40 fu (20 + 10 closed ron + 8 concealed honor triplet + 2 single wait).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pipeline.rules.actions import ActionKind
from pipeline.rules.agents import FirstAgent
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import play_scenario, scenario_start, spare_tiles
from pipeline.rules.wall import Wall, WallError
from pipeline.tiles import (
    NUM_TILES,
    TileParseError,
    counts34,
    format_tiles,
    is_red,
    parse_tiles,
    parse_types,
    tile_type,
)

ONLINE = load_preset("online-hanchan")
SINGLE = load_preset("single-hand")

KANCHAN = "123m456p789s99s13p"
HAKU = "555z234m567p345s8p"


def deltas(rec) -> list[int]:
    return [s.delta for s in rec.seats]


def yaku_names(win) -> list[str]:
    return [name for name, _ in win.yaku]


def offered(agent, kind: ActionKind) -> list:
    return [a for offer in agent.offers for a in offer if a.kind == kind]


# ----------------------------------------------------------------------------- H-01


def test_h01_wall_is_136_tiles_with_one_red_five_per_suit():
    # rule H-01: 136 tiles, no flowers (34 types x 4), one red five in each suit.
    wall = Wall.shuffled(random.Random(7))
    assert sorted(wall.order) == list(range(NUM_TILES))
    assert counts34(wall.order) == [4] * 34
    reds = sorted(t for t in wall.order if is_red(t))
    assert [tile_type(t) for t in reds] == parse_types("5m5p5s")
    assert format_tiles(parse_tiles("0m0p0s")) == "0m0p0s"
    with pytest.raises(TileParseError):
        parse_tiles("00p")  # only one red five per suit
    with pytest.raises(WallError):
        Wall((*range(NUM_TILES - 1), 0))  # a copy twice, another missing


def test_h01_everyone_starts_with_25000():
    # rule H-01
    assert SINGLE.start_points == 25000
    rec, _ = play_scenario(scenario_start(["", "", "", ""]), SINGLE)
    assert [s.start_score for s in rec.seats] == [25000] * 4


# ----------------------------------------------------------------------------- H-02


def test_h02_dealer_has_14_others_13_and_dead_wall_of_14_with_one_indicator():
    # rule H-02: dealer P2 here, so the deal starts from P2.
    start = scenario_start(["", "", "123m456p789s1234z", ""], "5z", dealer=2)
    state = HandState(start, SINGLE, [FirstAgent()] * 4)
    assert [len(p.concealed) for p in state.players] == [13] * 4
    assert format_tiles(state.players[2].concealed) == "123m456p789s1234z"
    wall = state.wall
    assert wall.live_left == NUM_TILES - 52 - 14 == 70
    assert wall.rinshan_left + len(wall.indicators) + len(wall.ura) == 14
    assert wall.rinshan_left == 4  # at most four kan replacements
    assert len(wall.dora_indicators) == 1

    rec, agents = play_scenario(start, SINGLE)
    # The dealer's first draw is its 14th tile: 14 discards are offered, and nobody drew before.
    first_play = [e for e in rec.events if e.kind not in ("deal", "dora")][0]
    assert (first_play.kind, first_play.seat) == ("draw", 2)
    assert format_tiles([first_play.tile]) == "5z"
    assert len({a.tile for a in agents[2].offers[0] if a.kind == ActionKind.DISCARD}) == 14
    # Others hold 13 and draw one: their first own turn also lists 14 tiles.
    own_turn = next(o for o in agents[3].offers if any(a.kind == ActionKind.DISCARD for a in o))
    assert len({a.tile for a in own_turn if a.kind == ActionKind.DISCARD}) == 14


def test_h02_round_wind_east_and_seat_winds_follow_the_dealer():
    # rule H-02, M-02: the dealer is East, the next seat South, then West, then North.
    start = scenario_start(["", "", "", ""], dealer=2)
    state = HandState(start, SINGLE, [FirstAgent()] * 4)
    assert state.round_wind == 0
    assert [state.seat_wind(s) for s in range(4)] == [2, 3, 0, 1]


# ----------------------------------------------------------------------------- H-03


def test_h03_no_ron_without_yaku_even_on_dora_but_tsumo_has_one():
    # rule H-03: 2p is dora (indicator 1p) and still gives no yaku; the closed tsumo does.
    start = scenario_start(["", KANCHAN, "", ""], "2p1z3z4z" "5z2p", dora="1p", ura="7z")
    rec, agents = play_scenario(start, ONLINE, [(), ["tsumo"]])
    assert not offered(agents[1], ActionKind.RON)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 1)
    assert yaku_names(win) == ["Menzen Tsumo"]
    assert win.dora == 1
    # 2 han (tsumo + dora) 30 fu, non-dealer tsumo: 500 / 1000.
    assert deltas(rec) == [-1000, 2000, -500, -500]


def test_h03_open_hand_without_yaku_cannot_win_at_all():
    # rule H-03: after a pon of 9s the hand waits on 6p/9p with no yaku; 6p is even dora.
    p1 = "123m456p78p11s99s5z"
    start = scenario_start(["", p1, "", ""], "9s6p1z2z9p", dora="5p", ura="7z")
    rec, agents = play_scenario(start, ONLINE, [(), ["pon", "discard 5z"]])
    assert [e.seat for e in rec.events if e.kind == "pon"] == [1]
    assert not offered(agents[1], ActionKind.RON)
    assert not offered(agents[1], ActionKind.TSUMO)
    assert not rec.wins


def test_h03_first_win_ends_the_hand():
    # rule H-03: nothing is drawn or discarded after the win.
    start = scenario_start(["", HAKU, "", ""], "1z2z8p", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["ron"]])
    assert rec.events[-1].kind == "ron"
    assert len(rec.wins) == 1


# ----------------------------------------------------------------------------- H-04


def test_h04_each_turn_is_one_draw_then_one_discard_with_distinct_tiles():
    # rule H-04: everyone draws and throws the drawn tile until the wall runs out.
    rec, _ = play_scenario(scenario_start(["", "", "", ""]), SINGLE)
    play = [e for e in rec.events if e.kind in ("draw", "discard")]
    assert len(play) == 2 * 70
    for i in range(0, len(play), 2):
        draw, discard = play[i], play[i + 1]
        assert (draw.kind, discard.kind) == ("draw", "discard")
        assert draw.seat == discard.seat == (i // 2) % 4
        assert discard.tile == draw.tile
    dealt = [t for e in rec.events if e.kind == "deal" for t in e.tiles]
    drawn = [e.tile for e in play if e.kind == "draw"]
    assert len(set(dealt + drawn)) == 52 + 70  # every physical tile is seen once
    assert rec.draw_kind == "exhaustive"


def test_h04_copies_keep_distinct_physical_ids():
    # rule H-04
    four = parse_tiles("5555m")
    assert len(set(four)) == 4 and {tile_type(t) for t in four} == {4}
    assert sum(is_red(t) for t in four) == 1
    with pytest.raises(TileParseError):
        parse_tiles("55555m")


# ----------------------------------------------------------------------------- M-02, H-10, H-11

# HAKU as winner; the draws feed its 8p. Junk draws are different winds (no abort).
DEALER_AND_NON_DEALER = [
    # seat, draws, script, deltas
    # dealer ron off P1: 1 han 40 fu x 6 = 1920 -> 2000
    (0, "1z8p", ["ron"], [2000, -2000, 0, 0]),
    # non-dealer ron off P2: 1 han 40 fu x 4 = 1280 -> 1300
    (1, "1z2z8p", ["ron"], [0, 1300, -1300, 0]),
    # dealer tsumo: 2 han (haku, tsumo) 40 fu (20 + 2 + 8 + 2 = 32 -> 40): 1280 -> 1300 all
    (0, "1z2z3z4z8p", ["tsumo"], [3900, -1300, -1300, -1300]),
    # non-dealer tsumo, 2 han 40 fu: base 640, dealer 1280 -> 1300, others 640 -> 700
    (1, "1z2z3z4z6z8p", ["tsumo"], [-1300, 2700, -700, -700]),
]


@pytest.mark.parametrize(("seat", "draws", "script", "expected"), DEALER_AND_NON_DEALER)
def test_m02_dealer_wins_one_and_a_half_and_pays_double_on_tsumo(seat, draws, script, expected):
    # rule M-02, H-10, H-11: the discarder pays a ron; a tsumo is split by dealer status.
    hands = ["", "", "", ""]
    hands[seat] = HAKU
    scripts = [(), (), (), ()]
    scripts[seat] = script
    rec, _ = play_scenario(scenario_start(hands, draws, dora="9m"), ONLINE, scripts)
    assert deltas(rec) == expected
    assert "Yakuhai (haku)" in yaku_names(rec.wins[0])


@pytest.mark.parametrize(("dealer", "round_wind", "yaku"), [
    (2, 0, "Yakuhai (seat wind south)"),   # P3 sits South when P2 deals
    (0, 1, "Yakuhai (round wind south)"),  # P3 is North, but the round is South
    (0, 0, None),                          # P3 is North in East: 2z is no value tile
])
def test_m02_seat_wind_follows_the_dealer(dealer, round_wind, yaku):
    # rule M-02 (and M-01 for the round wind): P3 holds a triplet of South.
    hands = ["", "", "", ""]
    hands[3] = "222z234m567p345s8p"
    draws = "1z1z1z1z"[: 2 * ((3 - dealer) % 4 - 1)] + "8p"  # the seat before P3 throws 8p
    start = scenario_start(hands, draws, dealer=dealer, round_wind=round_wind, dora="9m")
    rec, agents = play_scenario(start, ONLINE, [(), (), (), ["ron"]])
    if yaku is None:
        assert not offered(agents[3], ActionKind.RON)
        assert not rec.wins
        return
    win = rec.wins[0]
    assert win.seat == 3 and yaku in yaku_names(win)
    discarder = (dealer + (3 - dealer) % 4 - 1) % 4
    assert win.from_seat == discarder
    # 1 han 40 fu, non-dealer ron; a dealer discarder pays the same 1300.
    expected = [0, 0, 0, 0]
    expected[3], expected[discarder] = 1300, -1300
    assert deltas(rec) == expected


def test_h11_ron_pays_300_per_honba_and_winner_takes_the_sticks():
    # rule H-10, H-11, M-03: two honba and one stick from an earlier hand.
    start = scenario_start(["", HAKU, "", ""], "1z2z8p", dora="9m", honba=2, sticks=1)
    rec, _ = play_scenario(start, ONLINE, [(), ["ron"]])
    # 1300 + 2 x 300 from P2; the winner also takes the 1,000 stick.
    assert deltas(rec) == [0, 1300 + 600 + 1000, -1900, 0]
    assert rec.sticks_end == 0


def test_h11_tsumo_pays_100_per_honba_from_each_payer():
    # rule H-10, H-11, M-03
    start = scenario_start(["", HAKU, "", ""], "1z2z3z4z6z8p", dora="9m", honba=2, sticks=1)
    rec, _ = play_scenario(start, ONLINE, [(), ["tsumo"]])
    # 1300 / 700 / 700 plus 200 each; the stick goes to the winner.
    assert deltas(rec) == [-1500, 2700 + 600 + 1000, -900, -900]
    assert rec.sticks_end == 0


def test_h10_winner_takes_riichi_deposits_of_other_players():
    # rule H-10: P2 declares riichi (its 1,000 goes on the table), then P1 wins a ron off P3.
    start = scenario_start(["", HAKU, KANCHAN, ""], "1z2z7z8p", dora="9m", ura="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["ron"], ["riichi 7z"]])
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 3)
    assert deltas(rec) == [0, 1300 + 1000, -1000, -1300]
    assert rec.sticks_end == 0


def test_h10_only_a_riichi_winner_reveals_ura_dora():
    # rule H-10: the ura indicator 4m makes 5m ura-dora; P1 holds 5m only in the riichi case.
    hand = "123m456m789s99s13p"  # like KANCHAN, with a 5m
    riichi_start = scenario_start(["", hand, "", ""], "1z7z3z4z" "6z2p", dora="7z", ura="4m")
    rec, _ = play_scenario(riichi_start, ONLINE, [(), ["riichi 7z", "tsumo"]])
    win = rec.wins[0]
    assert win.ura == 1 and any(e.kind == "ura" for e in rec.events)
    assert "Ippatsu" in yaku_names(win)
    plain_start = scenario_start(["", hand, "", ""], "1z7z3z4z" "6z2p", dora="7z", ura="4m")
    rec, _ = play_scenario(plain_start, ONLINE, [(), ["tsumo"]])
    assert rec.wins[0].ura == 0 and not any(e.kind == "ura" for e in rec.events)


def test_h10_red_five_counts_as_dora_but_not_as_yaku():
    # rule H-01, H-10: P1 holds the red 5m (0m); its closed ron has no yaku and is not offered.
    hand = "123m406m789s99s13p"
    start = scenario_start(["", hand, "", ""], "1z7z2p3z" "4z2p", dora="7z")
    rec, agents = play_scenario(start, ONLINE, [(), ["tsumo"]])
    assert not offered(agents[1], ActionKind.RON)  # P2 threw 2p
    assert rec.wins[0].aka == 1


# ----------------------------------------------------------------------------- K-10


def test_k10_winning_tile_is_recorded_with_the_win():
    # rule K-10: the ron event names the claimed tile, the tsumo event the drawn one.
    start = scenario_start(["", HAKU, "", ""], "1z2z8p", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["ron"]])
    discard = [e for e in rec.events if e.kind == "discard"][-1]
    win = rec.events[-1]
    assert (win.kind, win.seat, win.tile) == ("ron", 1, discard.tile)
    assert format_tiles([win.tile]) == "8p" and win.source == 2

    start = scenario_start(["", HAKU, "", ""], "1z2z3z4z6z8p", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["tsumo"]])
    draw = [e for e in rec.events if e.kind == "draw"][-1]
    win = rec.events[-1]
    assert (win.kind, win.seat, win.tile) == ("tsumo", 1, draw.tile)


# ----------------------------------------------------------------------------- special wins


def test_h10_tenhou_dealer_wins_on_the_deal():
    # rule H-10 (yakuman): 16,000 from each of the three others.
    start = scenario_start(["123m456p789s1155z", "", "", ""], "5z", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [["tsumo"]])
    win = rec.wins[0]
    assert "Tenhou" in yaku_names(win) and win.yakuman == 1
    assert deltas(rec) == [48000, -16000, -16000, -16000]


def test_h10_chiihou_non_dealer_wins_on_the_first_draw():
    # rule H-10: non-dealer yakuman tsumo: dealer 16,000, others 8,000.
    start = scenario_start(["", "123m456p789s1155z", "", ""], "9m5z", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["tsumo"]])
    assert "Chiihou" in yaku_names(rec.wins[0])
    assert deltas(rec) == [-16000, 32000, -8000, -8000]


def test_k01_a_call_before_the_first_draw_removes_chiihou():
    # rule K-01: P2 pons the dealer's first discard; P1's first draw still wins, without Chiihou.
    p2 = "99m246m2468s357p7z"
    start = scenario_start(["", "123m456p789s1155z", p2, ""], "9m3z1s5z", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [(), ["tsumo"], ["pon"]])
    win = rec.wins[0]
    assert win.seat == 1 and rec.seats[1].turns == 0
    assert sorted(yaku_names(win)) == ["Menzen Tsumo", "Yakuhai (haku)"]


def test_h10_haitei_is_a_win_on_the_last_draw():
    # rule H-10: P1 draws the 70th live tile (dealer P0 draws first) and wins on it.
    pad = spare_tiles(69, KANCHAN, "2p", "7z7z", avoid="2p")
    start = scenario_start(["", KANCHAN, "", ""], pad + "2p", dora="7z", ura="7z")
    rec, _ = play_scenario(start, ONLINE, [(), ["tsumo"]])
    win = rec.wins[0]
    assert sorted(yaku_names(win)) == ["Haitei Raoyue", "Menzen Tsumo"]
    # 2 han 30 fu non-dealer tsumo: 500 / 1000.
    assert deltas(rec) == [-1000, 2000, -500, -500]


def test_h10_houtei_is_a_ron_on_the_last_discard():
    # rule H-10: P1 draws and throws the last tile; P2 wins on it.
    pad = spare_tiles(69, KANCHAN, "2p", "7z7z", avoid="2p")
    start = scenario_start(["", "", KANCHAN, ""], pad + "2p", dora="7z", ura="7z")
    rec, _ = play_scenario(start, ONLINE, [(), (), ["ron"]])
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 1)
    assert yaku_names(win) == ["Houtei Raoyui"]
    # 1 han, 20 + 10 closed ron + 2 kanchan = 32 -> 40 fu: 1300.
    assert deltas(rec) == [0, -1300, 1300, 0]


# ----------------------------------------------------------------------------- M-03 renchan


@pytest.mark.parametrize(("seat", "script", "draws", "continues"), [
    (0, ["ron"], "1z8p", True),
    (1, ["ron"], "1z2z8p", False),
])
def test_m03_dealer_keeps_the_deal_when_it_wins(seat, script, draws, continues):
    # rule M-03
    hands = ["", "", "", ""]
    hands[seat] = HAKU
    scripts = [(), (), (), ()]
    scripts[seat] = script
    rec, _ = play_scenario(scenario_start(hands, draws, dora="9m"), ONLINE, scripts)
    assert rec.wins and rec.dealer_continues is continues


def test_h03_preset_variation_kuitan_off_removes_open_tanyao():
    # rule H-03, M-09: an open all-simples hand has a yaku only with kuitan.
    p1 = "22m234p567s66s78m5z"
    for kuitan, can_win in ((True, True), (False, False)):
        preset = replace(ONLINE, kuitan=kuitan)
        start = scenario_start(["", p1, "", ""], "6s1z6m", dora="9m")
        rec, agents = play_scenario(start, preset, [(), ["pon", "discard 5z", "ron"]])
        assert bool(offered(agents[1], ActionKind.RON)) is can_win
