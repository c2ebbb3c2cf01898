"""Scoring a win: points against Tenhou values, rule options, and the card-modifier seam.

Hands are written as mpsz rows: ``hand`` is the concealed part including the winning tile,
``melds`` lists declared sets as ``kind:tiles`` (``chi``, ``pon``, ``minkan``, ``kakan``,
``ankan``), ``win`` is the winning tile. Seat 1 (South, non-dealer) in an East round unless a row
says otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as PkgMeld

from pipeline.rules.actions import Meld, MeldKind
from pipeline.rules.scoring import (
    NO_MODIFIERS,
    LocalYaku,
    ScoringModifiers,
    ScoringRules,
    WinContext,
    WinResult,
    score_win,
    score_win_exhaustive,
)
from pipeline.tiles import TERMINAL_HONOR_TYPES, is_red, parse_tiles

RULES = ScoringRules()


def make_ctx(
    hand: str, win: str, melds: str = "", *, tsumo: bool = False, seat: int = 1,
    round_wind: int = 0, dora: str = "", ura: str = "", **flags: Any,
) -> WinContext:
    """A win context from mpsz text; every physical tile is distinct."""
    concealed = parse_tiles(hand)
    taken = list(concealed)
    parsed: list[Meld] = []
    for item in melds.split():
        kind, text = item.split(":")
        tiles = tuple(sorted(parse_tiles(text, taken)))
        taken.extend(tiles)
        meld_kind = MeldKind(kind)
        called = None if meld_kind == MeldKind.ANKAN else tiles[0]
        parsed.append(Meld(meld_kind, tiles, called=called))
    wanted = parse_tiles(win)[0]
    win_tile = next(t for t in concealed
                    if t // 4 == wanted // 4 and is_red(t) == is_red(wanted))
    dora_ids = parse_tiles(dora, taken)
    ura_ids = parse_tiles(ura, [*taken, *dora_ids])
    return WinContext(
        concealed=tuple(concealed), melds=tuple(parsed), win_tile=win_tile, is_tsumo=tsumo,
        seat_wind=seat, round_wind=round_wind, is_dealer=seat == 0,
        dora_indicators=tuple(dora_ids), ura_indicators=tuple(ura_ids), **flags,
    )


def win(row: dict[str, Any], rules: ScoringRules = RULES,
        modifiers: ScoringModifiers = NO_MODIFIERS) -> WinResult | None:
    args = {k: v for k, v in row.items() if k not in ("id", "expect")}
    return score_win(make_ctx(**args), rules, modifiers)


def won(row: dict[str, Any], rules: ScoringRules = RULES,
        modifiers: ScoringModifiers = NO_MODIFIERS) -> WinResult:
    result = win(row, rules, modifiers)
    assert result is not None, row
    return result


# --- basic points ---------------------------------------------------------------------------

# expect: (han, fu, ron_points, tsumo_dealer, tsumo_nondealer); on a tsumo, ron_points is the
# same han and fu priced as a ron (what one player pays when a tsumo is settled as a ron)
POINT_ROWS = [
    # non-dealer pinfu ron, 1 han 30 fu
    dict(id="nondealer-ron-1-30", hand="123456m234p789s55p", win="4m",
         expect=(1, 30, 1000, 0, 0)),
    # non-dealer open yakuhai tsumo: 20 + 4 (open chun pon) + 2 (tsumo) = 30 fu
    dict(id="nondealer-tsumo-1-30", hand="234m567p789s55p", win="2m", melds="pon:777z",
         tsumo=True, expect=(1, 30, 1000, 500, 300)),
    # dealer riichi pinfu tanyao + 1 dora (6m), 4 han 30 fu ron
    dict(id="dealer-ron-4-30", hand="234567m234p678s55p", win="2m", seat=0, riichi=True,
         dora="5m", expect=(4, 30, 11600, 0, 0)),
    # dealer riichi tsumo pinfu, 3 han 20 fu: 1300 from each of the three
    dict(id="dealer-tsumo-3-20", hand="234789m12345666p", win="6p", seat=0, tsumo=True,
         riichi=True, expect=(3, 20, 3900, 0, 1300)),
    # the same hand for a non-dealer: 700 / 1300
    dict(id="nondealer-tsumo-3-20", hand="234789m12345666p", win="6p", tsumo=True,
         riichi=True, expect=(3, 20, 2600, 1300, 700)),
    # non-dealer closed chun pon ron: 30 + 8 (closed chun) = 38 -> 40 fu, 1 han: 1300
    dict(id="nondealer-ron-1-40", hand="234m567p789s55p777z", win="2m",
         expect=(1, 40, 1300, 0, 0)),
    # dealer mangan tsumo: riichi tsumo pinfu tanyao + 1 dora = 5 han, 4000 all
    dict(id="dealer-tsumo-mangan", hand="234567m234p678s55p", win="2m", seat=0, tsumo=True,
         riichi=True, dora="5m", expect=(5, 20, 12000, 0, 4000)),
]


@pytest.mark.parametrize("row", POINT_ROWS, ids=[r["id"] for r in POINT_ROWS])
def test_basic_points_match_tenhou(row: dict[str, Any]) -> None:
    result = won(row)
    han, fu, ron, tsumo_dealer, tsumo_nondealer = row["expect"]
    assert (result.han, result.fu) == (han, fu)
    assert (result.ron_points, result.tsumo_dealer, result.tsumo_nondealer) == (
        ron, tsumo_dealer, tsumo_nondealer)


def test_total_is_what_the_winner_collects() -> None:
    assert won(POINT_ROWS[0]).total == 1000
    assert won(POINT_ROWS[1]).total == 500 + 2 * 300
    assert won(POINT_ROWS[3]).total == 3 * 1300


# --- riichi, ippatsu, ura -------------------------------------------------------------------

RIICHI_HAND = dict(hand="234567m234p678s55p", win="2m", dora="1z", ura="4p")  # ura: 55p = 2


def test_riichi_ippatsu_and_ura_count_for_a_riichi_winner() -> None:
    result = won({**RIICHI_HAND, "riichi": True, "ippatsu": True})
    assert result.yaku_names() == ["Riichi", "Ippatsu", "Pinfu", "Tanyao"]
    assert (result.ura, result.han) == (2, 6)
    assert result.limit == "haneman" and result.ron_points == 12000


def test_ura_is_ignored_for_a_winner_without_riichi() -> None:
    result = won(RIICHI_HAND)
    assert result.ura == 0 and result.han == 2


def test_ura_and_ippatsu_follow_the_rules_options() -> None:
    row = {**RIICHI_HAND, "riichi": True, "ippatsu": True}
    result = won(row, ScoringRules(ura_dora=False, ippatsu=False))
    assert result.ura == 0 and "Ippatsu" not in result.yaku_names()
    assert result.han == 3


def test_double_riichi_replaces_riichi() -> None:
    result = won({**RIICHI_HAND, "riichi": True, "double_riichi": True})
    assert "Double Riichi" in result.yaku_names() and "Riichi" not in result.yaku_names()
    assert result.ura == 2


def test_contradictory_context_is_refused() -> None:
    with pytest.raises(ValueError):
        win({**RIICHI_HAND, "ippatsu": True})
    with pytest.raises(ValueError):
        win({"hand": "234m567p789s55p", "win": "2m", "melds": "pon:777z", "riichi": True})
    with pytest.raises(ValueError):
        win({**RIICHI_HAND, "rinshan": True})


# --- red fives (H-10) -----------------------------------------------------------------------

def test_red_fives_are_dora() -> None:
    # rule H-10: each red five is one han of dora, not a yaku
    row = dict(hand="234067m234p678s05p", win="2m", riichi=True)
    result = won(row)
    assert result.aka == 2 and result.dora == 0
    assert result.han == 3 + 2


def test_red_fives_off_counts_nothing() -> None:
    # rule H-10: with red fives off, the same physical tiles are plain fives
    row = dict(hand="234067m234p678s05p", win="2m", riichi=True)
    result = won(row, ScoringRules(red_fives=False))
    assert result.aka == 0 and result.han == 3


def test_red_five_in_a_meld_counts() -> None:
    # rule H-10: a red five in a called set is still dora
    row = dict(hand="234m789s55p777z", win="2m", melds="chi:406p")
    assert won(row).aka == 1


# --- kuitan (M-08, M-09) --------------------------------------------------------------------

KUITAN_ROW = dict(hand="234m678p55s345s", win="2m", melds="chi:456p")


def test_kuitan_on_open_tanyao_wins() -> None:
    # rule M-08: open tanyao counts when kuitan is on (M-09 preset option)
    result = won(KUITAN_ROW, ScoringRules(kuitan=True))
    assert result.yaku == (("Tanyao", 1),)
    assert (result.han, result.fu, result.ron_points) == (1, 30, 1000)


def test_kuitan_off_open_tanyao_has_no_yaku() -> None:
    # rule M-08: with kuitan off an open all-simples hand has no yaku (M-09 preset option)
    assert win(KUITAN_ROW, ScoringRules(kuitan=False)) is None
    # closed tanyao is unaffected
    closed = dict(hand="234m678p55s345s456p", win="2m", riichi=True)
    assert "Tanyao" in won(closed, ScoringRules(kuitan=False)).yaku_names()


# --- kiriage (M-09) -------------------------------------------------------------------------

KIRIAGE_ROWS = [
    # 4 han 30 fu non-dealer: riichi pinfu tanyao dora1
    dict(id="4-30", hand="234567m234p678s55p", win="2m", riichi=True, dora="5m",
         expect=(7700, 8000)),
    # 4 han 30 fu dealer
    dict(id="4-30-dealer", hand="234567m234p678s55p", win="2m", seat=0, riichi=True, dora="5m",
         expect=(11600, 12000)),
    # 3 han 60 fu non-dealer: 30 + closed 2p kan (16) + closed chun (8) = 54 -> 60 fu;
    # riichi, chun, one dora (4m)
    dict(id="3-60", hand="234m678p55s777z", win="2m", melds="ankan:2222p", riichi=True,
         dora="3m", expect=(7700, 8000)),
]


@pytest.mark.parametrize("row", KIRIAGE_ROWS, ids=[r["id"] for r in KIRIAGE_ROWS])
def test_kiriage_rounds_up_to_mangan(row: dict[str, Any]) -> None:
    # rule M-09: kiriage mangan is a preset option
    without, with_kiriage = row["expect"]
    plain = won(row, ScoringRules(kiriage=False))
    rounded = won(row, ScoringRules(kiriage=True))
    assert plain.ron_points == without and plain.limit == ""
    assert rounded.ron_points == with_kiriage and rounded.limit == "mangan"


# --- kazoe limit ----------------------------------------------------------------------------

# riichi tsumo pinfu iipeikou ittsu chinitsu = 12 han, + 1 dora (4m) = 13 han
KAZOE_ROW = dict(hand="11223345678999m", win="4m", tsumo=True, riichi=True, dora="3m")


@pytest.mark.parametrize(("limit", "expect"), [
    ("yakuman", ("yakuman", 1, 16000, 8000)),
    ("none", ("yakuman", 1, 16000, 8000)),
    ("sanbaiman", ("sanbaiman", 0, 12000, 6000)),
])
def test_kazoe_limit(limit: str, expect: tuple[str, int, int, int]) -> None:
    result = won(KAZOE_ROW, ScoringRules(kazoe_limit=limit))
    assert result.han == 13
    assert (result.limit, result.yakuman, result.tsumo_dealer, result.tsumo_nondealer) == expect


def test_twelve_han_is_sanbaiman_under_every_limit() -> None:
    row = {**KAZOE_ROW, "dora": "1z"}
    for limit in ("yakuman", "none", "sanbaiman"):
        result = won(row, ScoringRules(kazoe_limit=limit))
        assert (result.han, result.limit) == (12, "sanbaiman")


def test_unknown_rule_values_are_refused() -> None:
    with pytest.raises(ValueError):
        win(KAZOE_ROW, ScoringRules(kazoe_limit="banana"))


# --- double yakuman (M-09) ------------------------------------------------------------------

DOUBLE_ROWS = [
    dict(id="suuankou-tanki", hand="111m333p555s77711z", win="1z",
         expect=("Suu Ankou Tanki", 64000, 32000)),
    dict(id="kokushi-13-wait", hand="19m19p19s12345677z", win="7z",
         expect=("Kokushi Musou Juusanmen Matchi", 64000, 32000)),
    dict(id="daisuushii", hand="222333444z55m", win="5m", melds="pon:111z",
         expect=("Dai Suushii", 64000, 32000)),
    dict(id="kokushi-single-wait", hand="19m19p19s12345677z", win="6z",
         expect=("Kokushi Musou", 32000, 32000)),
]


@pytest.mark.parametrize("row", DOUBLE_ROWS, ids=[r["id"] for r in DOUBLE_ROWS])
def test_double_yakuman_option(row: dict[str, Any]) -> None:
    # rule M-09: double yakuman is a preset option
    name, on, off = row["expect"]
    doubled = won(row, ScoringRules(double_yakuman=True))
    single = won(row, ScoringRules(double_yakuman=False))
    assert name in doubled.yaku_names()
    assert (doubled.ron_points, single.ron_points) == (on, off)
    assert single.yakuman == 1 and doubled.yakuman == on // 32000
    assert single.dora == 0


# --- dora never gives a yaku (H-03) ---------------------------------------------------------

def test_dora_alone_is_no_win() -> None:
    # rule H-03: a complete closed hand (kanchan wait, no yaku) with three dora does not win
    row = dict(hand="123m456p789s79m99s8m", win="8m", dora="8s1m")
    assert win(row) is None
    # rule H-03: red fives alone do not make a yaku either
    red = dict(hand="123m406p789s79m99s8m", win="8m")
    assert win(red) is None


def test_open_hand_with_only_dora_is_no_win() -> None:
    # rule H-03: an open hand with dora and no yaku does not win
    row = dict(hand="123m789s79m99s8m", win="8m", melds="chi:406p", dora="3p")
    assert win(row) is None


def test_incomplete_hand_is_no_win() -> None:
    assert win(dict(hand="123m456p789s79m99s1z", win="1z")) is None


# --- melds and the fu of kans ---------------------------------------------------------------

# expect: (han, fu, points, yaku present)
MELD_ROWS = [
    # chi + chun pon, tsumo: 20 + 4 + 2 = 26 -> 30 fu
    dict(id="chi", hand="234m789s55s", win="2m", melds="chi:456p pon:777z", tsumo=True,
         expect=(1, 30, 1100, "Yakuhai (chun)")),
    # open pon of 1p (4) + chun pon (4), ron: 20 + 8 = 28 -> 30 fu
    dict(id="pon", hand="234m567s55s", win="2m", melds="pon:111p pon:777z",
         expect=(1, 30, 1000, "Yakuhai (chun)")),
    # closed kan of 9p (32), riichi ron: 30 + 32 = 62 -> 70 fu, 1 han: 2300
    dict(id="ankan", hand="234m567m678s22s", win="2m", melds="ankan:9999p", riichi=True,
         expect=(1, 70, 2300, "Riichi")),
    # open kan of 2p (8) + chun pon (4): 20 + 12 = 32 -> 40 fu, 1 han: 1300
    dict(id="minkan", hand="234m567m55s", win="2m", melds="minkan:2222p pon:777z",
         expect=(1, 40, 1300, "Yakuhai (chun)")),
    # added kan of 9p (16) + chun pon (4): 20 + 20 = 40 fu, 1 han: 1300
    dict(id="kakan", hand="234m567m55s", win="2m", melds="kakan:9999p pon:777z",
         expect=(1, 40, 1300, "Yakuhai (chun)")),
    # three kans: 20 + 32 (closed 1m) + 8 + 8 + 2 (chun pair) + 2 (pair wait) = 72 -> 80 fu
    dict(id="sankantsu", hand="456m77z", win="7z",
         melds="ankan:1111m minkan:2222p kakan:3333s",
         expect=(2, 80, 5200, "San Kantsu")),
    # closed kan alone keeps the hand closed: menzen tsumo and riichi still count
    dict(id="ankan-closed", hand="234m567m678s22s", win="2m", melds="ankan:2222p",
         tsumo=True, riichi=True, expect=(3, 40, 2600 + 2 * 1300, "Menzen Tsumo")),
]


@pytest.mark.parametrize("row", MELD_ROWS, ids=[r["id"] for r in MELD_ROWS])
def test_melds_and_kan_fu(row: dict[str, Any]) -> None:
    han, fu, points, yaku = row["expect"]
    result = won(row)
    assert (result.han, result.fu, result.total) == (han, fu, points)
    assert yaku in result.yaku_names()


# --- situational flags ----------------------------------------------------------------------

FLAG_HAND = dict(hand="234m567p789s55p777z", win="2m")
FLAG_ROWS = [
    dict(id="haitei", flags=dict(tsumo=True, haitei=True), yaku="Haitei Raoyue", han=3),
    dict(id="houtei", flags=dict(houtei=True), yaku="Houtei Raoyui", han=2),
    dict(id="chankan", flags=dict(chankan=True), yaku="Chankan", han=2),
    dict(id="rinshan", flags=dict(tsumo=True, rinshan=True, melds="ankan:1111s",
                                  hand="234m567p55p777z"), yaku="Rinshan Kaihou", han=3),
    dict(id="tenhou", flags=dict(tsumo=True, tenhou=True, seat=0), yaku="Tenhou", han=13),
    dict(id="chiihou", flags=dict(tsumo=True, chiihou=True), yaku="Chiihou", han=13),
]


@pytest.mark.parametrize("row", FLAG_ROWS, ids=[r["id"] for r in FLAG_ROWS])
def test_situational_flags(row: dict[str, Any]) -> None:
    result = won({**FLAG_HAND, **row["flags"]})
    assert row["yaku"] in result.yaku_names()
    assert result.han == row["han"]


def test_tenhou_and_chiihou_pay_yakuman() -> None:
    tenhou = won({**FLAG_HAND, "tsumo": True, "tenhou": True, "seat": 0})
    chiihou = won({**FLAG_HAND, "tsumo": True, "chiihou": True})
    assert (tenhou.tsumo_dealer, tenhou.tsumo_nondealer) == (0, 16000)
    assert (chiihou.tsumo_dealer, chiihou.tsumo_nondealer) == (16000, 8000)
    assert tenhou.yaku == (("Tenhou", 13),)


def test_renhou_follows_the_rules_option() -> None:
    row = {**FLAG_HAND, "renhou": True}
    assert "Renhou" not in won(row, ScoringRules(renhou="off")).yaku_names()
    assert ("Renhou", 5) in won(row, ScoringRules(renhou="mangan")).yaku
    assert won(row, ScoringRules(renhou="yakuman")).yaku == (("Renhou (yakuman)", 13),)


# --- pao ------------------------------------------------------------------------------------

def test_pao_yakuman_reported_for_daisangen() -> None:
    result = won(dict(hand="234m11p", win="2m", melds="pon:555z pon:666z pon:777z"))
    assert result.pao_yakuman == ("Daisangen",)
    assert (result.limit, result.yakuman, result.ron_points) == ("yakuman", 1, 32000)


def test_pao_yakuman_reported_for_daisuushii() -> None:
    # the package names it "Dai Suushii"; pao uses the stable name
    result = won(dict(hand="444z55m", win="5m", melds="pon:111z pon:222z pon:333z"))
    assert "Dai Suushii" in result.yaku_names()
    assert result.pao_yakuman == ("Daisuushii",)


def test_no_pao_for_other_yakuman() -> None:
    assert won(DOUBLE_ROWS[0]).pao_yakuman == ()
    # daisangen valued below yakuman by a card is no longer a pao yakuman
    row = dict(hand="234m11p", win="2m", melds="pon:555z pon:666z pon:777z")
    result = won(row, modifiers=ScoringModifiers(yaku_values={"Daisangen": 6}))
    assert result.pao_yakuman == () and ("Daisangen", 6) in result.yaku


# --- the modifier seam ----------------------------------------------------------------------

PINFU_ROW = POINT_ROWS[0]                                   # pinfu only, 1000
NO_YAKU_ROW = dict(hand="123m456p789s79m99s8m", win="8m", dora="8s")


def test_yaku_value_replaces_han() -> None:
    # rule C-11: the value is set, not added
    result = won(PINFU_ROW, modifiers=ScoringModifiers(yaku_values={"Pinfu": 2}))
    assert result.yaku == (("Pinfu", 2),)
    assert (result.han, result.fu, result.ron_points) == (2, 30, 2000)


def test_yaku_value_zero_removes_the_yaku() -> None:
    # rule C-11: a yaku valued 0 no longer counts, so a pinfu-only hand cannot win
    assert win(PINFU_ROW, modifiers=ScoringModifiers(yaku_values={"Pinfu": 0})) is None


def test_extra_han_needs_a_real_yaku() -> None:
    # rule C-12: extra han add to a hand that has a yaku
    mods = ScoringModifiers(extra_han=(("Card bonus", 2),))
    result = won(PINFU_ROW, modifiers=mods)
    assert result.han == 3 and result.extra == (("Card bonus", 2),)
    assert result.yaku == (("Pinfu", 1),)
    # rule C-12: they never make a yaku-less hand win
    assert win(NO_YAKU_ROW, modifiers=mods) is None


def test_extra_han_not_added_to_yakuman() -> None:
    # rule C-12: like dora, extra han do not stack on a yakuman
    mods = ScoringModifiers(extra_han=(("Card bonus", 13),))
    result = won(DOUBLE_ROWS[3], modifiers=mods)
    assert result.han == 13 and result.extra == ()


def test_dora_multiplier_doubles_every_dora() -> None:
    row = dict(hand="234067m234p678s05p", win="2m", riichi=True, dora="5m", ura="1p")
    plain = won(row)
    doubled = won(row, modifiers=ScoringModifiers(dora_multiplier=2))
    assert (plain.dora, plain.aka, plain.ura) == (1, 2, 1)
    assert (doubled.dora, doubled.aka, doubled.ura) == (2, 4, 2)
    assert doubled.han == plain.han + 4


def test_dora_multiplier_does_not_make_a_yaku() -> None:
    # rule H-03: even multiplied, dora is not a yaku
    assert win(NO_YAKU_ROW, modifiers=ScoringModifiers(dora_multiplier=3)) is None


def test_allowed_yaku_ignores_the_others() -> None:
    row = {**RIICHI_HAND, "riichi": True}
    result = won(row, modifiers=ScoringModifiers(allowed_yaku=frozenset({"Riichi"})))
    assert result.yaku == (("Riichi", 1),)
    assert result.han == 1 + 2          # riichi and two ura; dora still count
    assert win(row, modifiers=ScoringModifiers(allowed_yaku=frozenset({"Chinitsu"}))) is None


@dataclass(frozen=True)
class PairOf(LocalYaku):
    """Test yaku: the pair is of one given tile type."""

    pair_type: int = 0

    def applies(self, ctx: WinContext, decomposition: list[list[int]]) -> bool:
        return any(len(g) == 2 and g[0] == self.pair_type for g in decomposition)


@dataclass(frozen=True)
class TripleSequence(LocalYaku):
    """Test yaku: three identical sequences."""

    def applies(self, ctx: WinContext, decomposition: list[list[int]]) -> bool:
        sequences = [tuple(g) for g in decomposition if len(g) == 3 and g[0] != g[1]]
        return any(sequences.count(s) >= 3 for s in sequences)


def test_local_yaku_counts_and_makes_a_win() -> None:
    # rule C-25: a card's own yaku is a real yaku
    nines = PairOf("Nine Pair", han_closed=2, han_open=1, pair_type=26)   # 99s
    result = won(NO_YAKU_ROW, modifiers=ScoringModifiers(local_yaku=(nines,)))
    assert result.yaku == (("Nine Pair", 2),)
    assert result.dora == 3 and result.han == 5      # 9s three times
    assert win(NO_YAKU_ROW, modifiers=ScoringModifiers(local_yaku=(PairOf("x", 2, 1, 0),))) \
        is None


def test_local_yaku_closed_only() -> None:
    # rule C-25: han_open 0 means the yaku is not allowed on an open hand
    closed_only = PairOf("Five Pair", han_closed=1, han_open=0, pair_type=22)   # 55s
    either = PairOf("Five Pair", han_closed=1, han_open=1, pair_type=22)
    mods = ScoringModifiers(allowed_yaku=frozenset({"Five Pair"}))
    row = KUITAN_ROW
    assert win(row, modifiers=ScoringModifiers(local_yaku=(closed_only,),
                                               allowed_yaku=mods.allowed_yaku)) is None
    result = won(row, modifiers=ScoringModifiers(local_yaku=(either,),
                                                 allowed_yaku=mods.allowed_yaku))
    assert result.yaku == (("Five Pair", 1),)


def test_local_yaku_sees_kokushi_groups() -> None:
    # rule C-25: kokushi is offered to a local yaku as singles and its pair
    red_pair = PairOf("Red Pair", han_closed=13, han_open=13, pair_type=33)
    result = won(DOUBLE_ROWS[1], ScoringRules(double_yakuman=False),
                 ScoringModifiers(local_yaku=(red_pair,)))
    assert result.yakuman == 2
    assert result.yaku_names() == ["Kokushi Musou Juusanmen Matchi", "Red Pair"]


# 111222333m456p77s ron on 7s: read as three closed triplets (San Ankou, 2 han 50 fu, 3200)
# or as three 123m sequences (Iipeiko, 1 han 40 fu, 1300).
SWITCH_ROW = dict(hand="111222333m456p77s", win="7s")


def test_default_reading_is_the_triplets() -> None:
    result = won(SWITCH_ROW)
    assert result.yaku == (("San Ankou", 2),)
    assert (result.han, result.fu, result.ron_points) == (2, 50, 3200)


def test_changed_value_makes_another_decomposition_best() -> None:
    # rule C-11: Iipeiko worth 3 makes the sequence reading (3 han 40 fu, 5200) the best
    result = won(SWITCH_ROW, modifiers=ScoringModifiers(yaku_values={"Iipeiko": 3}))
    assert result.yaku == (("Iipeiko", 3),)
    assert (result.han, result.fu, result.ron_points) == (3, 40, 5200)
    # a smaller change keeps the triplets (2 han 40 fu 2600 < 3200)
    kept = won(SWITCH_ROW, modifiers=ScoringModifiers(yaku_values={"Iipeiko": 2}))
    assert kept.yaku == (("San Ankou", 2),)


def test_local_yaku_makes_another_decomposition_best() -> None:
    # rule C-25: a local yaku present only in the sequence reading can win the comparison
    triple = TripleSequence("Triple Sequence", han_closed=3, han_open=2)
    result = won(SWITCH_ROW, modifiers=ScoringModifiers(local_yaku=(triple,)))
    assert result.yaku == (("Iipeiko", 1), ("Triple Sequence", 3))
    assert (result.han, result.fu, result.limit, result.ron_points) == (4, 40, "mangan", 8000)


def test_yaku_value_can_make_a_yakuman() -> None:
    # rule C-11: a yaku valued 13 is a yakuman: it scores alone, without dora
    row = {**PINFU_ROW, "dora": "3m"}
    result = won(row, modifiers=ScoringModifiers(yaku_values={"Pinfu": 13}))
    assert (result.limit, result.yakuman, result.dora, result.ron_points) == (
        "yakuman", 1, 0, 32000)


# --- differential: the package's own answer -------------------------------------------------

_TERMINALS = sorted(TERMINAL_HONOR_TYPES)
_KAZOE = {"yakuman": HandConstants.KAZOE_LIMITED, "sanbaiman": HandConstants.KAZOE_SANBAIMAN,
          "none": HandConstants.KAZOE_NO_LIMIT}
_PKG_KIND = {MeldKind.CHI: PkgMeld.CHI, MeldKind.PON: PkgMeld.PON, MeldKind.MINKAN: PkgMeld.KAN,
             MeldKind.KAKAN: PkgMeld.SHOUMINKAN, MeldKind.ANKAN: PkgMeld.KAN}


def package_direct(ctx: WinContext, rules: ScoringRules) -> tuple[int, int, int, int] | None:
    """(han, fu, main, additional) straight from estimate_hand_value, or None for no win."""
    options = OptionalRules(
        has_open_tanyao=rules.kuitan, has_aka_dora=rules.red_fives,
        has_double_yakuman=rules.double_yakuman, kazoe_limit=_KAZOE[rules.kazoe_limit],
        kiriage=rules.kiriage, renhou_as_yakuman=rules.renhou == "yakuman",
    )
    config = HandConfig(
        is_tsumo=ctx.is_tsumo, is_riichi=ctx.riichi, is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu and rules.ippatsu, is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan, is_haitei=ctx.haitei, is_houtei=ctx.houtei,
        is_tenhou=ctx.tenhou, is_chiihou=ctx.chiihou,
        is_renhou=ctx.renhou and rules.renhou != "off",
        player_wind=EAST + ctx.seat_wind, round_wind=EAST + ctx.round_wind, options=options,
    )
    melds = [PkgMeld(_PKG_KIND[m.kind], sorted(m.tiles), opened=m.is_open) for m in ctx.melds]
    tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
    ura = list(ctx.ura_indicators) if rules.ura_dora and ctx.riichi else None
    response = HandCalculator.estimate_hand_value(
        tiles, ctx.win_tile, melds=melds, dora_indicators=list(ctx.dora_indicators),
        config=config, ura_dora_indicators=ura,
    )
    if response.error:
        assert response.error in (HandCalculator.ERR_HAND_NOT_WINNING, HandCalculator.ERR_NO_YAKU)
        return None
    return response.han, response.fu, response.cost["main"], response.cost["additional"]


def random_win(rng: random.Random) -> tuple[WinContext, ScoringRules]:
    """A random complete hand with a consistent context, and random rules."""
    while True:
        drawn = _try_random_win(rng)
        if drawn is not None:
            return drawn


def _try_random_win(rng: random.Random) -> tuple[WinContext, ScoringRules] | None:
    free = set(range(136))

    def take(t: int) -> int:
        ids = [i for i in range(4 * t, 4 * t + 4) if i in free]
        if not ids:
            raise LookupError(t)
        tile = rng.choice(ids)
        free.remove(tile)
        return tile

    mode = rng.random()
    if mode < 0.35:
        types = list(range(34))
    elif mode < 0.7:   # one suit, maybe with honors: honitsu, chinitsu, ittsu, chuuren
        s = rng.randrange(3)
        types = list(range(9 * s, 9 * s + 9)) + ([] if rng.random() < 0.4 else list(range(27, 34)))
    elif mode < 0.85:  # terminals and honors: chanta, honroutou, yakuman
        types = list(_TERMINALS)
    else:
        types = list(range(27, 34)) + rng.sample(range(27), 6)
    concealed: list[int] = []
    melds: list[Meld] = []
    try:
        shape = rng.random()
        if shape < 0.04:
            concealed = [take(t) for t in rng.sample(range(34), 7) for _ in range(2)]
        elif shape < 0.06:
            concealed = [take(t) for t in _TERMINALS] + [take(rng.choice(_TERMINALS))]
        else:
            open_share = rng.choice([0.0, 0.0, 0.2, 0.5])
            sequence_starts = [t for t in types if t < 27 and t % 9 <= 6]
            for _ in range(4):
                k = rng.random()
                if k < 0.5 and sequence_starts:
                    t = rng.choice(sequence_starts)
                    group = [take(t), take(t + 1), take(t + 2)]
                    kind = MeldKind.CHI
                elif k < 0.88:
                    t = rng.choice(types)
                    group = [take(t) for _ in range(3)]
                    kind = MeldKind.PON
                else:
                    t = rng.choice(types)
                    group = [take(t) for _ in range(4)]
                    kind = rng.choice([MeldKind.ANKAN, MeldKind.MINKAN, MeldKind.KAKAN])
                if len(group) == 4 or rng.random() < open_share:
                    tiles = tuple(sorted(group))
                    called = None if kind == MeldKind.ANKAN else tiles[0]
                    melds.append(Meld(kind, tiles, called=called))
                else:
                    concealed += group
            t = rng.choice(types)
            concealed += [take(t), take(t)]
        seat = rng.randrange(4)
        n_dora = rng.randint(1, 4)
        dora = tuple(take(rng.randrange(34)) for _ in range(n_dora))
        is_open = any(m.is_open for m in melds)
        riichi = not is_open and rng.random() < 0.4
        ura = tuple(take(rng.randrange(34)) for _ in range(n_dora)) if riichi else ()
    except LookupError:
        return None
    tsumo = rng.random() < 0.5
    rinshan = tsumo and any(m.is_kan for m in melds) and rng.random() < 0.3
    houtei = not tsumo and rng.random() < 0.05
    first_turn = not melds and rng.random() < 0.03
    ctx = WinContext(
        concealed=tuple(concealed), melds=tuple(melds), win_tile=rng.choice(concealed),
        is_tsumo=tsumo, seat_wind=seat, round_wind=rng.randrange(4), is_dealer=seat == 0,
        dora_indicators=dora, ura_indicators=ura, riichi=riichi,
        double_riichi=riichi and rng.random() < 0.1, ippatsu=riichi and rng.random() < 0.3,
        rinshan=rinshan, haitei=tsumo and not rinshan and rng.random() < 0.05, houtei=houtei,
        chankan=not tsumo and not houtei and rng.random() < 0.05,
        tenhou=first_turn and tsumo and seat == 0, chiihou=first_turn and tsumo and seat != 0,
        renhou=first_turn and not tsumo and seat != 0,
    )
    rules = ScoringRules(
        red_fives=rng.random() < 0.8, kuitan=rng.random() < 0.7,
        double_yakuman=rng.random() < 0.5,
        kazoe_limit=rng.choice(["yakuman", "sanbaiman", "none"]), kiriage=rng.random() < 0.5,
        ippatsu=rng.random() < 0.8, ura_dora=rng.random() < 0.8,
        renhou=rng.choice(["off", "mangan", "yakuman"]),
    )
    return ctx, rules


# Non-trivial modifiers that change nothing: they force the every-decomposition path.
NEUTRAL = ScoringModifiers(yaku_values={"No Such Yaku": 5})


def check_against_package(seed: int, count: int) -> None:
    rng = random.Random(seed)
    wins = 0
    for _ in range(count):
        ctx, rules = random_win(rng)
        result = score_win(ctx, rules)
        expected = package_direct(ctx, rules)
        if expected is None:
            assert result is None, ctx
        else:
            assert result is not None, ctx
            han, fu, main, additional = expected
            assert (result.han, result.fu) == (han, fu), ctx
            assert result.is_tsumo == ctx.is_tsumo
            if not ctx.is_tsumo:
                assert (result.ron_points, result.tsumo_dealer) == (main, 0), ctx
            elif ctx.is_dealer:
                assert (result.tsumo_nondealer, result.tsumo_dealer) == (main, 0), ctx
            else:
                assert (result.tsumo_dealer, result.tsumo_nondealer) == (main, additional), ctx
            assert result.han == sum(h for _, h in result.yaku) + result.dora + result.aka \
                + result.ura or result.han == 78, ctx
            wins += 1
        assert score_win_exhaustive(ctx, rules) == result, ctx
        assert score_win(ctx, rules, NEUTRAL) == result, ctx
    assert wins > count // 2


def test_matches_the_package_on_random_hands() -> None:
    check_against_package(seed=20240601, count=400)


@pytest.mark.slow
def test_matches_the_package_on_many_random_hands() -> None:
    check_against_package(seed=7, count=20000)
