"""How a win on an always-winning tile is valued: as the best completion of the hand's wait when
the hand is in tenpai, "shapeless" otherwise (pipeline/rules/shapeless.py).

Expected values come from the `mahjong` package scoring the completed hand directly, or from the
standard score table, never from the engine's own scoring path."""

from __future__ import annotations

from mahjong.constants import EAST, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.tile import TilesConverter

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.rules.scoring import ScoringModifiers, WinContext
from pipeline.rules.shapeless import (
    always_winning_note,
    score_always_winning,
    score_shapeless,
    tenpai_waits,
)
from pipeline.tiles import parse_tiles, parse_types

PRESET = load_preset("online-hanchan")
RULES = PRESET.scoring_rules()
CATALOG = load_catalog("1.2")
LIVE_DRAWS = 70  # 136 tiles - 52 dealt - 14 in the dead wall


def card_at(card: str, seat: int, *, reading: tuple[str, str] | None = None
            ) -> list[CardAbility | None]:
    """The card at one seat; ``reading`` (effect id, choice) sets its always_winning option."""
    out: list[CardAbility | None] = [None] * 4
    chosen = CATALOG.card(card)
    if reading is not None:
        chosen = chosen.with_param(reading[0], "always_winning", reading[1])
    out[seat] = CardAbility(chosen, seat)
    return out


def play(start, scripts, abilities):
    agents = [ScriptAgent(s) for s in scripts]
    return HandState(start, PRESET, agents, abilities).play(), agents


def deltas(rec) -> list[int]:
    return [s.end_score - s.start_score for s in rec.seats]


def package_value(hand: str, win: str, *, dora: str, tsumo: bool = False, riichi: bool = False,
                  seat_wind: int = WEST):
    """The `mahjong` package's own answer for a complete closed hand (non-dealer, East round).

    The package's text converter gives the red copy of a 5; the hands here hold no red five,
    so red fives are switched off."""
    tiles = TilesConverter.one_line_string_to_136_array(hand)
    win_tile = TilesConverter.one_line_string_to_136_array(win)[0]
    indicators = TilesConverter.one_line_string_to_136_array(dora)
    config = HandConfig(is_tsumo=tsumo, is_riichi=riichi, player_wind=seat_wind,
                        round_wind=EAST, options=OptionalRules(has_aka_dora=False))
    return HandCalculator.estimate_hand_value(tiles, win_tile, dora_indicators=indicators,
                                              config=config)


def ron_ctx(closed: str, tile: str, *, riichi: bool = False, dora: str = "1z") -> WinContext:
    """A non-dealer (West seat) ron in the East round on ``tile`` added to ``closed``."""
    tiles = parse_tiles(closed)
    win = parse_tiles(tile, taken=tiles)[0]
    indicators = tuple(parse_tiles(dora, taken=[*tiles, win]))
    return WinContext(concealed=(*tiles, win), melds=(), win_tile=win, is_tsumo=False,
                      seat_wind=2, round_wind=0, is_dealer=False, dora_indicators=indicators,
                      riichi=riichi)


# ------------------------------------------------------------------ Hiroe Atago in damaten

P1_RIICHI = "123p456p789p11s5z6z"   # riichi on its second draw (5z), waiting on 1s / 5z
HIROE_KANCHAN = "23488m345p46678s"  # damaten, tanyao, waiting on 5s alone (kanchan)
HIROE_RYANMEN = "23m234p234s456s77p"  # damaten, waiting on 1m / 4m (4m: tanyao, sanshoku)


def hiroe_start(hand: str, dora: str):
    """P1 (30,000, above her 20,000) declares riichi on its second turn; its ippatsu draw, a red
    5p, is discarded. Nothing before it is any seat's winning tile."""
    draws = "9m9p2z3z" "4z5z7z1z" "9s0p"   # P0 P1 P2 P3, P0 P1(riichi) P2 P3, P0 P1(ippatsu)
    return scenario_start(["", P1_RIICHI, hand, ""], draws=draws, dora=dora,
                          scores=(25000, 30000, 20000, 25000))


def test_hiroe_damaten_kanchan_is_paid_her_hand_completed_by_her_wait() -> None:
    # Hiroe Atago: a higher-placed player's ippatsu draw is always her winning tile in damaten.
    # The tile (a red 5p) does not fit her kanchan; she is in tenpai on 5s, so the win is valued
    # as her hand completed by 5s: tanyao and one dora (the indicator 4s makes 5s dora)
    start = hiroe_start(HIROE_KANCHAN, dora="4s")
    rec, agents = play(start, [[], ["riichi 6z"], ["ron"], []], card_at("hiroe_atago", 2))
    assert rec.seats[1].riichi
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 1)
    assert rec.events[-1].tile == parse_tiles("0p")[0]   # the physical tile was the red 5p
    expected = package_value("234m88m345p456s678s", "5s", dora="4s")
    assert expected.error is None
    assert {y.name for y in expected.yaku} == {"Tanyao", "Dora"}
    assert (win.han, win.fu, win.points) == (expected.han, expected.fu, expected.cost["main"])
    assert (win.han, win.fu, win.points) == (2, 40, 2600)   # the score table: 2 han 40 fu
    # the completion counts as a 5s: the red five of the physical tile is not carried over
    assert (win.dora, win.aka) == (1, 0)
    assert [n for n, _ in win.yaku] == ["Tanyao"]
    # P1 paid its riichi stick and the ron; she collects both; points are conserved
    assert deltas(rec) == [0, -1000 - 2600, 2600 + 1000, 0]
    assert sum(s.end_score for s in rec.seats) == sum(s.start_score for s in rec.seats)
    valued = [e for e in rec.events if e.tag is AbilityTag.ALWAYS_WINNING]
    assert [(e.seat, e.payload) for e in valued] == [(2, parse_types("5s")[0])]
    # wording: the log as people read it
    assert valued[0].detail == "always-winning tile: valued as the winning tile 5s of the " \
        "hand's wait"


def test_hiroe_damaten_win_had_no_value_read_without_a_shape() -> None:
    # Hiroe Atago: the old "shapeless" reading finds no yaku in a damaten ron (no riichi, no
    # tsumo), so her ability could never pay; her completed wait does
    ctx = ron_ctx(HIROE_KANCHAN, "0p", dora="4s")
    assert score_shapeless(ctx, RULES) is None
    assert tenpai_waits(ctx) == frozenset(parse_types("5s"))
    assert score_always_winning(ctx, RULES).total == 2600


def test_hiroe_two_sided_wait_takes_the_higher_completion() -> None:
    # Hiroe Atago: 23m waits on 1m and 4m. 4m makes pinfu, tanyao and sanshoku (4 han 30 fu,
    # 7,700); 1m only pinfu (1 han 30 fu, 1,000): the later wait in tile order is worth more
    start = hiroe_start(HIROE_RYANMEN, dora="8s")
    rec, _ = play(start, [[], ["riichi 6z"], ["ron"], []], card_at("hiroe_atago", 2))
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 1)
    high = package_value("234m234p234s456s77p", "4m", dora="8s")
    low = package_value("123m234p234s456s77p", "1m", dora="8s")
    assert (high.cost["main"], low.cost["main"]) == (7700, 1000)
    assert {y.name for y in high.yaku} == {"Pinfu", "Tanyao", "Sanshoku Doujun"}
    assert (win.han, win.fu, win.points) == (high.han, high.fu, 7700)
    assert {n for n, _ in win.yaku} == {"Pinfu", "Tanyao", "Sanshoku Doujun"}
    assert deltas(rec) == [0, -1000 - 7700, 7700 + 1000, 0]


def test_hiroe_without_the_card_the_red_five_is_not_a_winning_tile() -> None:
    start = hiroe_start(HIROE_KANCHAN, dora="4s")
    rec, agents = play(start, [[], ["riichi 6z"], ["ron"], []], [None] * 4)
    assert not rec.wins or rec.wins[0].seat != 2
    assert not any(a.tile == parse_tiles("0p")[0] for offer in agents[2].offers for a in offer
                   if a.kind.name == "RON")


# ------------------------------------------------------------------ the choice of completion


def test_equal_completions_go_to_the_first_wait_in_tile_order() -> None:
    # 23s waits on 1s and 4s; 99p breaks tanyao, so both are riichi and pinfu, 2 han 30 fu
    ctx = ron_ctx("567m234p678s99p23s", "5z", riichi=True)
    assert tenpai_waits(ctx) == frozenset(parse_types("1s4s"))
    one = package_value("567m234p678s99p123s", "1s", dora="1z", riichi=True)
    four = package_value("567m234p678s99p234s", "4s", dora="1z", riichi=True)
    assert one.cost["main"] == four.cost["main"] == 2000 and one.han == four.han == 2
    result = score_always_winning(ctx, RULES)
    assert (result.han, result.fu, result.total) == (2, 30, 2000)
    assert always_winning_note(ctx, RULES).endswith("winning tile 1s of the hand's wait")


def test_a_tenpai_hand_without_yaku_in_any_completion_does_not_win() -> None:
    # rule H-03: the tile acts as a winning tile, and a damaten ron of a hand without yaku
    # (kanchan on 2s, no tanyao, no pinfu) is no win
    ctx = ron_ctx("567m456p789s99p13s", "5z")
    assert tenpai_waits(ctx) == frozenset(parse_types("2s"))
    assert score_always_winning(ctx, RULES) is None


def test_a_wait_only_an_alias_gives_counts_as_tenpai() -> None:
    # Saki Miyanaga reads her winds as West: 1124z is a West triplet and a lone West, so the hand
    # waits on any wind; without the alias it is not in tenpai. Her rinshan tile (a 5p) is then
    # valued as a completion (a West triplet and pair), not shapeless
    west = parse_types("3z")[0]
    alias = tuple((w, west) for w in parse_types("124z"))
    tiles = parse_tiles("123m456p789s1124z")
    win = parse_tiles("5p", taken=tiles)[0]
    ctx = WinContext(concealed=(*tiles, win), melds=(), win_tile=win, is_tsumo=True,
                     seat_wind=2, round_wind=0, is_dealer=False, rinshan=True,
                     dora_indicators=tuple(parse_tiles("9s", taken=[*tiles, win])))
    modifiers = ScoringModifiers(alias=alias)
    assert tenpai_waits(ctx) == frozenset()
    assert tenpai_waits(ctx, modifiers) == frozenset(parse_types("1234z"))
    shapeless = score_shapeless(ctx, RULES, modifiers)
    assert (shapeless.han, shapeless.fu, shapeless.total) == (2, 30, 2000)  # tsumo, rinshan
    result = score_always_winning(ctx, RULES, modifiers)
    names = {n for n, _ in result.yaku}
    assert {"Menzen Tsumo", "Rinshan Kaihou"} <= names
    assert any(n.startswith("Yakuhai") for n in names) and result.total > 2000


# ------------------------------------------------------------------ Koromo Amae, not in tenpai


def koromo_draws() -> str:
    """P1's first draw is a red dragon (Koromo, P2, pons it); the last live tile is a 9m."""
    placed = {1: "7z", LIVE_DRAWS - 1: "9m"}
    hands = ("77z147m258p369s12z",)
    spare = spare_tiles(LIVE_DRAWS - len(placed), *hands, *placed.values(), avoid="9m7z")
    pieces = iter(spare[i:i + 2] for i in range(0, len(spare), 2))
    return "".join(placed.get(i) or next(pieces) for i in range(LIVE_DRAWS))


def test_koromo_not_in_tenpai_wins_the_last_tile_shapeless() -> None:
    # Koromo Amae, reading always_winning = "shapeless": the last tile of the wall is always
    # her winning tile. After her pon (so the draw order makes her draw the last tile) her hand
    # is far from tenpai: the win stays shapeless, haitei and one dora (the indicator 8m makes
    # the drawn 9m dora), 30 fu. The score table: a non-dealer tsumo of 2 han 30 fu pays
    # 500 / 1,000
    start = scenario_start(["", "", "77z147m258p369s12z", ""], draws=koromo_draws(), dora="8m")
    rec, agents = play(start, [[], [], ["pon", "discard 2z", "tsumo"], []],
                       card_at("koromo_amae", 2, reading=("last_tile", "shapeless")))
    assert any(e.kind == "pon" and e.seat == 2 for e in rec.events)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 2)
    assert rec.events[-1].tile // 4 == parse_types("9m")[0]
    assert [n for n, _ in win.yaku] == ["Haitei Raoyue"]
    assert (win.han, win.fu, win.dora, win.points) == (2, 30, 1, 2000)
    assert deltas(rec) == [-1000, -500, 2000, -500]
    assert sum(deltas(rec)) == 0
    valued = [e for e in rec.events if e.tag is AbilityTag.ALWAYS_WINNING]
    assert [(e.seat, e.payload) for e in valued] == [(2, None)]  # whatever its shape


def test_koromo_not_in_tenpai_cannot_win_the_last_tile_as_a_wildcard() -> None:
    # card koromo_amae, reading always_winning = "wildcard" (the default): the same deal, her
    # hand far from tenpai when she draws the last tile: no tsumo is offered and the hand ends
    # in an exhaustive draw
    start = scenario_start(["", "", "77z147m258p369s12z", ""], draws=koromo_draws(), dora="8m")
    rec, agents = play(start, [[], [], ["pon", "discard 2z"], []], card_at("koromo_amae", 2))
    assert any(e.kind == "pon" and e.seat == 2 for e in rec.events)
    assert not rec.wins and rec.draw_kind == "exhaustive"
    offered = [a for offer in agents[2].offers for a in offer if a.kind.name == "TSUMO"]
    assert offered == []
