"""Hand-shape and counted-han cards: Kaori Senoo, Yuuko Mase (shapes, discard triples), Yuu
Matsumi (warm tiles), Seiko Matano (open pons), Kurumi Kakura (pairs in her discards) and Yoshiko
Kainou (Uumensai)."""

from __future__ import annotations

from dataclasses import replace

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.shapes import WARM_TYPES
from pipeline.rules.actions import ActionKind, Meld, MeldKind
from pipeline.rules.hand import HandState, PlayerState
from pipeline.rules.hooks import WinView
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.rules.scoring import WinContext, WinResult, score_win
from pipeline.tiles import counts34, parse_tiles, parse_types

PRESET = load_preset("online-hanchan")
RULES = PRESET.scoring_rules()
CATALOG = load_catalog("1.2")


def ctx_of(concealed: str, win: str, *, tsumo: bool = False, melds: tuple[Meld, ...] = (),
           dora: str = "1z", ura: str = "", riichi: bool = False) -> WinContext:
    tiles = parse_tiles(concealed)
    taken = [*tiles, *(x for m in melds for x in m.tiles)]
    win_tile = parse_tiles(win, taken=taken)[0]
    taken.append(win_tile)
    indicators = parse_tiles(dora, taken=taken)
    return WinContext(concealed=(*tiles, win_tile), melds=melds, win_tile=win_tile,
                      is_tsumo=tsumo, seat_wind=1, round_wind=0, is_dealer=False,
                      dora_indicators=tuple(indicators),
                      ura_indicators=tuple(parse_tiles(ura, taken=[*taken, *indicators])),
                      riichi=riichi)


def card_score(card: str, ctx: WinContext, ponds: tuple[tuple[int, ...], ...] = ((),) * 4
               ) -> WinResult | None:
    """A win of seat 1 valued as the engine does: the card's scoring hook, plus its shapes."""
    ability = CardAbility(CATALOG.card(card), seat=1)
    view = WinView(1, ctx, None if ctx.is_tsumo else 0, (25000,) * 4, 0, (), ponds=ponds)
    mods = ability.scoring(view)
    from pipeline.rules.scoring import NO_MODIFIERS

    mods = mods or NO_MODIFIERS
    shapes = ability.hand_shapes()
    if shapes:
        mods = replace(mods, extra_sequences=shapes.extra_sequences)
    return score_win(ctx, RULES, mods)


def chi(text: str, taken: str = "") -> Meld:
    tiles = tuple(parse_tiles(text, taken=parse_tiles(taken)))
    return Meld(MeldKind.CHI, tiles, tiles[0], 0)


def pon(text: str) -> Meld:
    tiles = tuple(parse_tiles(text))
    return Meld(MeldKind.PON, tiles, tiles[0], 0)


# ---------------------------------------------------------------------- Kaori Senoo


def test_kaori_wins_without_yaku_and_exactly_0_han_counts_as_1() -> None:
    ctx = ctx_of("123m456p789s234s5m", "5m")  # no yaku: tanki, no tanyao, no sanshoku
    assert score_win(ctx, RULES) is None
    result = card_score("kaori_senoo", ctx)
    # 1 han 40 fu (20 + 10 closed ron + 2 single wait) for a non-dealer: 1,300
    assert result.han == 1 and result.fu == 40 and result.ron_points == 1300
    assert result.yaku == () and ("win_without_yaku", 1) in result.extra
    # with two dora the hand is worth 2 han, not 3: only exactly 0 han becomes 1
    dora = card_score("kaori_senoo", ctx_of("123m456p789s234s5m", "5m", dora="4m"))
    assert dora.han == 2 and dora.dora == 2 and dora.ron_points == 2600


def test_c12_kaori_bonus_does_not_let_others_win_without_yaku() -> None:
    # rule C-12: extra han are no yaku. P1 Kaori and P2 Arata (six pinzu: +1 han) both wait on
    # 5m with no yaku; P0 discards 5m: only Kaori may ron
    start = scenario_start(["", "123m456p789s234s5m", "123p456p789m234s5m", ""], draws="5m")
    kaori = CardAbility(CATALOG.card("kaori_senoo"), seat=1)
    arata = CardAbility(CATALOG.card("arata_sagimori"), seat=2)
    agents = [ScriptAgent(), ScriptAgent(["ron"]), ScriptAgent(["ron"]), ScriptAgent()]
    rec = HandState(start, PRESET, agents, [None, kaori, arata, None]).play()
    assert [w.seat for w in rec.wins] == [1] and rec.wins[0].han == 1
    assert not any(a.kind == ActionKind.RON for offer in agents[2].offers for a in offer)


def test_kaori_honor_sequences_win_wait_and_riichi_but_never_wrap() -> None:
    kaori = CardAbility(CATALOG.card("kaori_senoo"), seat=1)
    shapes = kaori.hand_shapes()
    p = PlayerState(seat=1, concealed=parse_tiles("123m456p789s12z55z"), shapes=shapes)
    assert p.waits() == frozenset(parse_types("3z"))  # East-South-West
    q = PlayerState(seat=1, concealed=parse_tiles("123m456p789s41z55z"), shapes=shapes)
    assert not q.waits()  # North-East-South would wrap around
    r = PlayerState(seat=1, concealed=parse_tiles("123m456p789s56z11m"), shapes=shapes)
    assert r.waits() == frozenset(parse_types("7z"))  # haku-hatsu-chun
    # furiten on a wait that only the honor sequence makes (rule H-09)
    p.discards.append(replace_discard(parse_tiles("3z")[0]))
    assert p.discard_furiten(p.waits())
    # in play: riichi is offered on an honor-sequence tenpai, and she wins on West
    start = scenario_start(["", "123m456p789s12z55z", "", ""], draws="9p9m3z9s3z")
    agents = [ScriptAgent(), ScriptAgent(["riichi 9m"]), ScriptAgent(), ScriptAgent(["pass"])]
    agents[1].script.append("ron")
    rec = HandState(start, PRESET, agents, [None, kaori, None, None]).play()
    assert any(a.kind == ActionKind.RIICHI for offer in agents[1].offers for a in offer)
    assert [w.seat for w in rec.wins] == [1]


def replace_discard(tile: int):
    from pipeline.rules.hand import DiscardInfo

    return DiscardInfo(tile=tile, tsumogiri=True, riichi=False)


def test_kaori_honor_sequences_give_no_fu_and_make_no_ittsu_or_yakuhai() -> None:
    # East-South-West completed on West: no fu for the set nor for the wait, so 30 fu and pinfu
    ctx = ctx_of("234m456p678s99m12z", "3z")
    result = card_score("kaori_senoo", ctx)
    assert result.fu == 30 and result.yaku_names() == ["Pinfu"]
    # East-South-West with 4-5-6 and 7-8-9 of souzu is no ittsu (the package alone would read
    # the honor sequence as a 1-2-3); haku-hatsu-chun gives no yakuhai
    ctx = ctx_of("123z456s789s11m23m", "4m", tsumo=True)
    names = card_score("kaori_senoo", ctx).yaku_names()
    assert "Ittsu" not in names and "Sanshoku Doujun" not in names
    assert names == ["Menzen Tsumo", "Pinfu"]
    ctx = ctx_of("567z456s789s11m23m", "4m", tsumo=True)
    assert not any(n.startswith("Yakuhai") for n in card_score("kaori_senoo", ctx).yaku_names())


def test_kaori_open_wind_sequence_meld_scores() -> None:
    # a chi of East-South-West, an open hand without yaku: Kaori may still win it
    meld = chi("123z")
    ctx = ctx_of("456p789s234m5m", "5m", melds=(meld,))
    assert score_win(ctx, RULES) is None
    result = card_score("kaori_senoo", ctx)
    assert result is not None and result.han == 1 and result.yaku == ()


# ---------------------------------------------------------------------- Yuuko Mase


def test_yuuko_wrap_sequences_win_but_make_no_ittsu() -> None:
    # 1-2-3, 4-5-6 and 8-9-1 of manzu: no ittsu (the card)
    ctx = ctx_of("123m456m89m234p55s", "1m", tsumo=True)
    assert score_win(ctx, RULES) is None
    result = card_score("yuuko_mase", ctx)
    assert "Ittsu" not in result.yaku_names() and "Menzen Tsumo" in result.yaku_names()
    # 9-1-2 works as well
    assert card_score("yuuko_mase", ctx_of("912m456m789p234s5s", "5s", tsumo=True))


def test_yuuko_one_han_per_three_identical_tiles_in_her_discards() -> None:
    ctx = ctx_of("234m456p678s345s5p", "5p")  # tanyao, 1 han
    pond = tuple(parse_tiles("555p1111z9m"))
    result = card_score("yuuko_mase", ctx, ponds=((), pond, (), ()))
    assert result.han == 1 + 2 and ("triples_in_discards", 2) in result.extra
    # rule C-12: the han need a yaku
    assert card_score("yuuko_mase", ctx_of("123m456p789s234s5m", "5m"),
                      ponds=((), pond, (), ())) is None


# ---------------------------------------------------------------------- Yuu Matsumi


def test_c22_yuu_warm_tiles_are_the_red_painted_faces() -> None:
    # C-22 Yuu: warm tiles are all tiles with red elements (see pipeline/cards/shapes.py for
    # the faces): every manzu, 1 3 5 6 7 9 pin, 1 5 7 9 sou, the red dragon
    assert WARM_TYPES == frozenset(parse_types("123456789m135679p1579s7z"))


def test_yuu_warm_tile_thresholds() -> None:
    yuu = CardAbility(CATALOG.card("yuu_matsumi"), seat=1)

    def bonus(hand: str) -> int:
        tiles = parse_tiles(hand)
        ctx = WinContext(concealed=tuple(tiles), melds=(), win_tile=tiles[-1], is_tsumo=True,
                         seat_wind=1, round_wind=0, is_dealer=False)
        mods = yuu.scoring(WinView(1, ctx, None, (25000,) * 4, 0, ()))
        return dict(mods.extra_han).get("warm_tiles", 0) if mods else 0

    assert bonus("12345678m2p4p8p2s3s4s") == 0        # 8 warm
    assert bonus("123456789m2p4p8p2s3s") == 1         # 9
    assert bonus("123456789m13p2p4p8p") == 2          # 11
    assert bonus("123456789m1357p2p") == 3            # 13
    assert bonus("123456789m13579p") == 4             # 14
    assert bonus("123456789m1379p7z") == 4            # the red dragon counts


# ---------------------------------------------------------------------- Seiko Matano


def test_seiko_open_pons_and_kans_thresholds() -> None:
    melds = (pon("111z"), pon("222z"))
    ctx = ctx_of("234m456p5m", "5m", melds=melds)  # East pon: round wind yakuhai
    assert card_score("seiko_matano", ctx).han == score_win(ctx, RULES).han + 1
    ctx = ctx_of("234m5m", "5m", melds=(*melds, pon("333z")))
    assert card_score("seiko_matano", ctx).han == score_win(ctx, RULES).han + 2


# ---------------------------------------------------------------------- Kurumi Kakura


def test_kurumi_damaten_seven_pairs_gain_a_han_per_pair_in_her_discards() -> None:
    pond = tuple(parse_tiles("99m11z3p9p9p9p"))  # 9m x2, East x2, 9p x3: three pairs
    ctx = ctx_of("1122m3344p5566s7z", "7z")
    plain = score_win(ctx, RULES)
    result = card_score("kurumi_kakura", ctx, ponds=((), pond, (), ()))
    assert plain.han == 2 and result.han == 2 + 3 and result.fu == 25
    # four identical tiles are two pairs
    four = card_score("kurumi_kakura", ctx, ponds=((), tuple(parse_tiles("1111z")), (), ()))
    assert four.han == 2 + 2
    # in riichi: no bonus (damaten only)
    riichi = ctx_of("1122m3344p5566s7z", "7z", riichi=True)
    assert card_score("kurumi_kakura", riichi, ponds=((), pond, (), ())).han == \
        score_win(riichi, RULES).han
    # not a seven-pairs win: no bonus
    other = ctx_of("234m456p678s345s5p", "5p")
    assert card_score("kurumi_kakura", other, ponds=((), pond, (), ())).han == \
        score_win(other, RULES).han


# ---------------------------------------------------------------------- Yoshiko Kainou


def test_c25_yoshiko_uumensai_three_han_with_ura_open_and_seven_pairs() -> None:
    # rule C-25: Uumensai = all three suits, a wind and a dragon; open and seven pairs allowed
    ctx = ctx_of("123m456p789s444z5z", "5z", ura="3z")  # ura indicator West: North is ura
    assert score_win(ctx, RULES) is None
    result = card_score("yoshiko_kainou", ctx)
    assert ("Uumensai", 3) in result.yaku and result.ura == 3  # ura without riichi
    opened = ctx_of("456p789s444z5z", "5z", melds=(chi("123m"),))
    assert ("Uumensai", 3) in card_score("yoshiko_kainou", opened).yaku
    pairs = ctx_of("11m22p33s44z55z66m7p", "7p")
    result = card_score("yoshiko_kainou", pairs)
    assert result.yaku_names() == ["Chiitoitsu", "Uumensai"] and result.han == 5
    # no wind: no Uumensai
    assert card_score("yoshiko_kainou", ctx_of("123m456p789s234s5z", "5z")) is None


def test_shaped_seat_counts_and_waits_helpers_agree() -> None:
    # the seat's cached waits follow its shapes (wrap-around 9-1 waits on 8 and 2)
    yuuko = CardAbility(CATALOG.card("yuuko_mase"), seat=0).hand_shapes()
    p = PlayerState(seat=0, concealed=parse_tiles("19m456p789s234s55z"), shapes=yuuko)
    assert p.waits() == frozenset(parse_types("28m"))
    assert counts34(p.concealed) == p.held()


def test_shaped_scoring_agrees_with_the_package_on_ordinary_hands() -> None:
    # a seat with extra sequences values an ordinary hand exactly as the package does: the
    # readings of pipeline.rules.scoring_shapes are a superset that adds nothing here
    import random

    from pipeline.rules.hand_shapes import honor_sequences, wrap_sequences
    from pipeline.rules.scoring import ScoringModifiers, score_win_exhaustive

    rng = random.Random(7)
    mods = ScoringModifiers(extra_sequences=honor_sequences() | wrap_sequences())
    checked = 0
    while checked < 300:
        left = [4] * 34
        groups = []
        for _ in range(4):
            if rng.random() < 0.6:
                b = rng.choice((0, 9, 18)) + rng.randrange(7)
                group = [b, b + 1, b + 2]
            else:
                group = [rng.randrange(34)] * 3
            groups.append(group)
        groups.append([rng.randrange(34)] * 2)
        for g in groups:
            for t in g:
                left[t] -= 1
        if min(left) < 0:
            continue
        taken: list[int] = []
        tiles = []
        for g in groups:
            part = parse_tiles("".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in g), taken=taken)
            taken.extend(part)
            tiles.append(part)
        melds: tuple[Meld, ...] = ()
        if rng.random() < 0.4:  # the first set called
            kind = MeldKind.PON if groups[0][0] == groups[0][1] else MeldKind.CHI
            melds = (Meld(kind, tuple(tiles[0]), tiles[0][0], 0),)
            tiles = tiles[1:]
        concealed = [x for part in tiles for x in part]
        win = rng.choice(concealed)
        ctx = WinContext(concealed=tuple(concealed), melds=melds, win_tile=win,
                         is_tsumo=rng.random() < 0.5, seat_wind=rng.randrange(4),
                         round_wind=0, is_dealer=False)
        plain = score_win(ctx, RULES)
        shaped = score_win_exhaustive(ctx, RULES, mods)
        if plain is None:
            assert shaped is None
        else:
            assert shaped is not None, ctx
            assert (shaped.han, shaped.fu, shaped.ron_points, sorted(shaped.yaku)) == \
                (plain.han, plain.fu, plain.ron_points, sorted(plain.yaku)), ctx
        checked += 1
