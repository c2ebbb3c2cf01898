"""Scoring cards: Toyone, Touka, Shizuno, Hisa, Hatsumi, Momoko (and the local yaku of C-25).

Point values are checked against the standard score table (non-dealer ron 30 fu: 1 han 1,000,
2 han 2,000, 3 han 3,900, 4 han 7,700; dealer ron 30 fu: 2 han 2,900, 3 han 5,800; limits:
mangan 8,000 / 12,000 dealer, haneman 18,000 dealer, baiman 24,000 dealer, yakuman 48,000
dealer), not against the code's own output.
"""

from __future__ import annotations

from pipeline.cards import registry
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag, Meld, MeldKind
from pipeline.rules.hand import HandState
from pipeline.rules.hooks import OwnTurnView
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.rules.scoring import NO_MODIFIERS, ScoringModifiers, WinContext, score_win
from pipeline.rules.wall import Wall
from pipeline.tiles import parse_tiles, tile_type
from tests.support.scoring_ctx import PINFU, PRESET, RULES, ctx_of, scored, view

CATALOG = load_catalog("1.2")


def card(card_id: str, seat: int = 1) -> CardAbility:
    c = CATALOG.card(card_id)
    assert registry.playable(c), f"{card_id} should be playable"
    return CardAbility(c, seat)


def meld(kind: MeldKind, text: str, taken: list[int], from_seat: int | None = 0) -> Meld:
    tiles = tuple(sorted(parse_tiles(text, taken=taken)))
    taken.extend(tiles)
    if kind == MeldKind.ANKAN:
        return Meld(kind, tiles)
    return Meld(kind, tiles, tiles[0], from_seat)


def inactive(mods: ScoringModifiers | None) -> bool:
    return mods is None or mods == NO_MODIFIERS


def test_c26_the_cards_played_are_those_of_card_version_1_2() -> None:
    # rule C-26: versions 1.0.0 and 1.1.0 are history; 1.2.0 is the one in preparation
    assert CATALOG.version.startswith("1.2")


# --------------------------------------------------------------------------- Toyone Anetai

def test_c22_toyone_chasing_riichi_is_set_to_two_not_added() -> None:
    # C-22 Toyone: the first ability sets a value: a chasing riichi is worth 2 han, not 1 + 1;
    # rule C-24: chasing riichi = riichi declared after another player's riichi
    toyone = card("toyone_anetai")
    ctx = ctx_of(*PINFU, riichi=True)
    chasing = scored(toyone, ctx, discarder=3, riichi=(2, 1))
    assert dict(chasing.yaku) == {"Riichi": 2, "Pinfu": 1}
    assert chasing.han == 3 and chasing.ron_points == 3900
    first = scored(toyone, ctx, discarder=3, riichi=(1, 2))
    assert dict(first.yaku)["Riichi"] == 1 and first.ron_points == 2000


def test_c22_toyone_riichi_discard_bonus_needs_no_chasing_riichi() -> None:
    # C-22 Toyone: her first riichi (not a chasing one) winning on a riichi player's discard,
    # with 3,000 points on the table: +3 han (extra han, rule C-12)
    toyone = card("toyone_anetai")
    ctx = ctx_of(*PINFU, riichi=True)
    result = scored(toyone, ctx, discarder=0, riichi=(1, 0), table_points=3000)
    assert ("ron_on_riichi_discard_per_stick", 3) in result.extra
    assert result.han == 5 and result.ron_points == 8000           # riichi, pinfu, +3: mangan


def test_toyone_riichi_discard_bonus_needs_a_riichi_discarder_a_ron_and_her_riichi() -> None:
    toyone = card("toyone_anetai")
    ctx = ctx_of(*PINFU, riichi=True)
    not_in_riichi = scored(toyone, ctx, discarder=3, riichi=(1, 0), table_points=3000)
    assert not not_in_riichi.extra and not_in_riichi.ron_points == 2000
    tsumo = ctx_of(*PINFU, riichi=True, tsumo=True)
    assert not scored(toyone, tsumo, riichi=(1, 0), table_points=3000).extra
    dama = ctx_of(*PINFU)
    assert not scored(toyone, dama, discarder=0, riichi=(0,), table_points=3000).extra


def _raotai_melds(*, ankan: bool = False) -> tuple[tuple[Meld, ...], list[int]]:
    taken: list[int] = []
    melds = (meld(MeldKind.CHI, "123m", taken), meld(MeldKind.CHI, "789p", taken),
             meld(MeldKind.CHI, "123s", taken),
             meld(MeldKind.ANKAN if ankan else MeldKind.PON, "999m" if not ankan else "9999m",
                  taken))
    return melds, taken


def test_c25_toyone_shiiaru_raotai_makes_a_yakuless_hand_win_with_ura() -> None:
    # rule C-25: four melded sets and a pair wait; the card: 2 han, with ura-dora
    toyone = card("toyone_anetai")
    melds, taken = _raotai_melds()
    ctx = ctx_of("5p", "5p", melds=melds, taken=taken, ura="4p")
    assert score_win(ctx, RULES) is None            # no yaku without the card
    result = scored(toyone, ctx, discarder=3)
    assert result.yaku == (("Shiiaru Raotai", 2),)
    assert result.ura == 2                           # the 5p pair under a 4p ura indicator
    assert result.han == 4 and result.fu == 30 and result.ron_points == 7700


def test_c25_shiiaru_raotai_allows_a_closed_kan_and_tsumo() -> None:
    toyone = card("toyone_anetai")
    melds, taken = _raotai_melds(ankan=True)
    ctx = ctx_of("5p", "5p", melds=melds, taken=taken, tsumo=True)
    result = scored(toyone, ctx)
    assert result is not None and ("Shiiaru Raotai", 2) in result.yaku
    three_calls = ctx_of("5p111z", "5p", melds=melds[:3], taken=taken)
    mods = toyone.scoring(view(three_calls))
    assert inactive(mods) or not mods.local_yaku


def test_toyone_raotai_on_a_riichi_discard_gets_the_table_bonus() -> None:
    toyone = card("toyone_anetai")
    melds, taken = _raotai_melds()
    ctx = ctx_of("5p", "5p", melds=melds, taken=taken)
    result = scored(toyone, ctx, discarder=2, riichi=(2,), table_points=2000)
    assert ("ron_on_riichi_discard_per_stick", 2) in result.extra and result.han == 4


def test_toyone_table_bonus_counts_the_sticks_in_play() -> None:
    # in play: 1 stick left from an earlier hand; P0 declares riichi (2 sticks), Toyone (P1)
    # chases (3 sticks) and rons P0's next discard: Riichi 2 (chasing), ippatsu 1, pinfu 1,
    # +3 han for 3,000 on the table: 7 han, haneman 12,000
    hands = ["123m456m789m1122z", "234m456p678s99p23s", "", ""]
    draws = "5z3z1p2p" + "6z4z3p7p" + "4s"
    start = scenario_start(hands, draws=draws, sticks=1, dora="9m", ura="9s",
                           scores=(30000,) * 4)
    toyone = card("toyone_anetai")
    agents = [ScriptAgent(["5z", "riichi 6z"]), ScriptAgent(["3z", "riichi 4z", "ron"]),
              ScriptAgent(), ScriptAgent()]
    rec = HandState(start, PRESET, agents, abilities=[None, toyone, None, None]).play()
    assert len(rec.wins) == 1, rec.log_text()
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 0)
    assert dict(win.yaku) == {"Riichi": 2, "Ippatsu": 1, "Pinfu": 1}
    assert win.han == 7 and win.points == 12000


def _tsumo_after_riichi(ability: CardAbility, *, ura: str = "9s") -> tuple:
    """P1 discards once, declares riichi on her second turn and draws her 4s at once (ippatsu
    tsumo): riichi, ippatsu, tsumo, pinfu = 4 han 20 fu."""
    hands = ["", "234m456p678s99p23s", "", ""]
    start = scenario_start(hands, draws="5z3z1z2z" + "6z4z7z5z" + "6z4s", dora="9m", ura=ura,
                           scores=(30000,) * 4)
    agents = [ScriptAgent(), ScriptAgent(["3z", "riichi 4z", "tsumo"]), ScriptAgent(),
              ScriptAgent()]
    abilities = [None, ability, None, None]
    return HandState(start, PRESET, agents, abilities=abilities).play()


# --------------------------------------------------------------------------- Touka Ryuumonbuchi

def test_touka_riichi_ron_is_paid_as_a_dealer_win() -> None:
    touka = card("touka_ryuumonbuchi")
    ctx = ctx_of(*PINFU, riichi=True)
    assert score_win(ctx, RULES).ron_points == 2000
    assert scored(touka, ctx).ron_points == 2900                 # 2 han 30 fu, dealer
    dama = ctx_of(*PINFU)
    assert scored(touka, dama).ron_points == 1000                 # no riichi: unchanged


def test_touka_riichi_tsumo_every_payer_pays_the_dealer_share() -> None:
    rec = _tsumo_after_riichi(card("touka_ryuumonbuchi"))
    win = rec.wins[0]
    assert win.seat == 1 and win.han == 4 and win.fu == 20, rec.log_text()
    # 4 han 20 fu as dealer: 2,600 from each player, the real dealer P0 included
    assert [s.delta for s in rec.seats] == [-2600, 7800, -2600, -2600]
    plain = _tsumo_after_riichi(None)
    assert [s.delta for s in plain.seats] == [-2600, 5200, -1300, -1300]


def test_touka_as_dealer_mangan_and_up_count_one_limit_higher() -> None:
    touka = card("touka_ryuumonbuchi", seat=0)
    # riichi, pinfu, 9p pair and 4s as dora: 5 han, a dealer mangan (12,000) paid as haneman
    mangan = ctx_of(*PINFU, riichi=True, dealer=True, seat_wind=0, dora="8p3s")
    assert score_win(mangan, RULES).ron_points == 12000
    result = scored(touka, mangan, discarder=1)
    assert result.ron_points == 18000 and result.limit == "haneman" and result.han == 5
    # below mangan: unchanged (3 han 30 fu, dealer 5,800)
    small = ctx_of(*PINFU, riichi=True, dealer=True, seat_wind=0, dora="8m3s")
    assert scored(touka, small, discarder=1).ron_points == 5800
    # sanbaiman (11 han: riichi, ippatsu, pinfu, 8 dora) becomes a kazoe yakuman
    big = ctx_of(*PINFU, riichi=True, ippatsu=True, dealer=True, seat_wind=0,
                 dora="8p3s1m3p5s1s2s")
    assert score_win(big, RULES).ron_points == 36000
    top = scored(touka, big, discarder=1)
    assert top.ron_points == 48000 and top.limit == "yakuman"


# --------------------------------------------------------------------------- Shizuno Takakamo

def test_shizuno_others_get_no_ura_dora() -> None:
    shizuno = card("shizuno_takakamo", seat=2)
    ctx = ctx_of(*PINFU, riichi=True, ura="8p")                  # ura 9p: the pair, 2 ura
    plain = score_win(ctx, RULES)
    assert plain.ura == 2 and plain.ron_points == 7700
    result = score_win(ctx, RULES, shizuno.scoring(view(ctx, seat=1)))
    assert result.ura == 0 and result.ron_points == 2000


def test_shizuno_riichi_win_reveals_two_more_ura_indicators_from_the_dead_wall() -> None:
    # ura indicators under the first three dora indicators: 1z (nothing), 8p (9p pair: 2),
    # 3s (the 4s: 1): 3 ura; riichi, ippatsu, tsumo, pinfu + 3 = 7 han, haneman 12,000
    rec = _tsumo_after_riichi(card("shizuno_takakamo"), ura="1z8p3s")
    win = rec.wins[0]
    assert win.ura == 3 and win.han == 7 and win.points == 12000, rec.log_text()
    shown = [e for e in rec.events if e.kind == "ura"]
    assert len(shown) == 1 and [tile_type(t) for t in shown[0].tiles] == [
        tile_type(parse_tiles(x)[0]) for x in ("1z", "8p", "3s")]
    plain = _tsumo_after_riichi(None, ura="1z8p3s")
    assert plain.wins[0].ura == 0 and len([e for e in plain.events if e.kind == "ura"]) == 1


def test_c19_spare_ura_indicators_come_from_the_live_wall_end_when_the_dead_wall_is_short() -> None:
    # rule C-19: past the fifth indicator, 2 tiles from the end of the live wall join the dead
    # wall (an indicator and its ura indicator)
    wall = Wall(tuple(range(136)))
    assert wall.spare_ura(2) == (132, 133)          # under the 2nd and 3rd dora indicators
    wall.revealed = 4
    assert wall.spare_ura(2) == (135, 120)          # the 5th, then the 2nd tile from the end
    wall.revealed = 5
    assert wall.spare_ura(2) == (120, 118)


def test_shizuno_own_damaten_win_is_unchanged() -> None:
    shizuno = card("shizuno_takakamo")
    ctx = ctx_of(*PINFU, ura="8p", spare="3s")
    assert inactive(shizuno.scoring(view(ctx)))


# --------------------------------------------------------------------------- Hisa Takei

def test_hisa_single_wait_gives_two_han() -> None:
    hisa = card("hisa_takei")
    kanchan = ctx_of("234m456p678s99p13s", "2s", riichi=True)
    assert score_win(kanchan, RULES).ron_points == 1300           # riichi, 40 fu
    result = scored(hisa, kanchan)
    assert ("single_wait", 2) in result.extra and result.ron_points == 5200   # 3 han 40 fu


def test_c22_hisa_two_sided_wait_with_one_side_dead_is_not_single() -> None:
    # C-22 Hisa (card clarification): a multi-sided wait with all but one side dead does not
    # count: the 1s-4s wait with all four 1s visible is still two-sided
    hisa = card("hisa_takei")
    ctx = ctx_of(*PINFU, riichi=True)
    seen = [0] * 34
    seen[tile_type(parse_tiles("1s")[0])] = 4
    result = scored(hisa, ctx, seen=seen)
    assert not result.extra and result.ron_points == 2000


HELL = ("234m888p678s345s5p", "5p")   # tanyao, a pair wait on 5p


def _seen(tile: str, n: int) -> list[int]:
    seen = [0] * 34
    seen[tile_type(parse_tiles(tile)[0])] = n
    return seen


def test_hisa_damaten_hell_wait_is_doubled() -> None:
    hisa = card("hisa_takei")
    ctx = ctx_of(*HELL)
    # tanyao 1 + single wait 2 = 3 han 40 fu (5,200), doubled
    assert scored(hisa, ctx, seen=_seen("5p", 3)).ron_points == 10400
    assert scored(hisa, ctx, seen=_seen("5p", 2)).ron_points == 5200     # a copy unseen
    riichi = ctx_of(*HELL, riichi=True)
    assert scored(hisa, riichi, seen=_seen("5p", 3)).ron_points == 8000  # 4 han 40 fu, once


def test_hisa_hell_wait_counts_the_copies_she_saw_in_play() -> None:
    # P0 discards the red 5p and P2 a 5p; Hisa (P1, damaten) passes both (her temporary
    # furiten ends with her own discard) and rons the last copy from P2: her own 5p and the two
    # discards are 3 visible copies
    hands = ["", HELL[0], "", ""]
    start = scenario_start(hands, draws="0p7z5p1z" + "2z3z5p", dora="9m")
    hisa = card("hisa_takei")
    agents = [ScriptAgent(), ScriptAgent(["pass", "pass", "ron"]), ScriptAgent(), ScriptAgent()]
    rec = HandState(start, PRESET, agents, abilities=[None, hisa, None, None]).play()
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 2), rec.log_text()
    assert win.han == 3 and win.points == 10400


# --------------------------------------------------------------------------- Hatsumi Usuzumi

def test_hatsumi_seat_wind_triplet_is_a_double_yakuhai() -> None:
    hatsumi = card("hatsumi_usuzumi")
    ctx = ctx_of("222z234m456p678s9p", "9p", dora="9m")          # South seat, East round
    plain = score_win(ctx, RULES)
    assert plain.ron_points == 1300                               # 1 han 40 fu
    result = scored(hatsumi, ctx)
    assert dict(result.yaku)["Yakuhai (seat wind south)"] == 2 and result.ron_points == 2600


def test_hatsumi_double_east_stays_double() -> None:
    hatsumi = card("hatsumi_usuzumi", seat=0)
    ctx = ctx_of("111z234m456p678s9p", "9p", seat_wind=0, dealer=True, dora="9m")
    result = scored(hatsumi, ctx, discarder=1)
    assert result.han == 2 == score_win(ctx, RULES).han


def _open_yakuless() -> tuple[WinContext, Meld]:
    taken: list[int] = []
    chi = meld(MeldKind.CHI, "234m", taken)
    return ctx_of("456p678s99p23s", "4s", melds=(chi,), taken=taken), chi


def test_hatsumi_any_players_wind_meld_gives_her_yakuhai() -> None:
    hatsumi = card("hatsumi_usuzumi")
    ctx, chi = _open_yakuless()
    assert score_win(ctx, RULES) is None
    assert scored(hatsumi, ctx, melds=((), (chi,), (), ())) is None   # no wind meld: no yaku
    north = meld(MeldKind.PON, "444z", list(ctx.concealed), from_seat=0)
    result = scored(hatsumi, ctx, melds=((), (chi,), (north,), ()))
    assert result.yaku == (("Yakuhai (wind melds)", 1),) and result.ron_points == 1000
    west = Meld(MeldKind.ANKAN, tuple(parse_tiles("3333z")))
    two = scored(hatsumi, ctx, melds=((west,), (chi,), (north,), ()))
    assert two.han == 2


def test_c22_hatsumi_wind_sequences_count_as_wind_melds() -> None:
    # C-22 Hatsumi: wind sequence melds (made through Kaori's ability) give her yakuhai too
    hatsumi = card("hatsumi_usuzumi")
    ctx, chi = _open_yakuless()
    winds = Meld(MeldKind.CHI, tuple(parse_tiles("123z")), parse_tiles("1z")[0], 1)
    result = scored(hatsumi, ctx, melds=((), (chi,), (), (winds,)))
    assert result is not None and result.yaku == (("Yakuhai (wind melds)", 1),)


def test_hatsumi_wins_in_play_thanks_to_another_players_north_pon() -> None:
    # P0 discards North, P2 pons it; P0 later discards Hatsumi's kanchan tile: a closed hand
    # with no yaku of its own wins with 1 han of yakuhai (40 fu: 1,300)
    hands = ["", "234m456p678s99p13s", "44z", ""]
    start = scenario_start(hands, draws="4z7z2s", dora="9m")

    def play(ability):
        agents = [ScriptAgent(), ScriptAgent(["ron"]), ScriptAgent(["pon"]), ScriptAgent()]
        return HandState(start, PRESET, agents, abilities=[None, ability, None, None]).play()

    rec = play(card("hatsumi_usuzumi"))
    assert rec.wins and rec.wins[0].seat == 1, rec.log_text()
    assert rec.wins[0].yaku == (("Yakuhai (wind melds)", 1),) and rec.wins[0].points == 1300
    assert not play(None).wins


# --------------------------------------------------------------------------- Momoko Touyoko

def test_momoko_closed_win_gets_riichi_and_ura() -> None:
    momoko = card("momoko_touyoko")
    ctx = ctx_of("234m456p678s99p13s", "2s", ura="8p")           # no yaku of its own
    assert score_win(ctx, RULES) is None
    result = scored(momoko, ctx)
    assert dict(result.yaku) == {"Riichi": 1} and result.ura == 2
    assert result.ron_points == 5200                              # 3 han 40 fu
    declared = ctx_of("234m456p678s99p13s", "2s", ura="8p", riichi=True)
    assert dict(scored(momoko, declared).yaku) == {"Riichi": 1}  # not counted twice
    opened, _ = _open_yakuless()
    assert inactive(momoko.scoring(view(opened)))


def test_no_ura_dora_beats_ura_without_riichi() -> None:
    # Shizuno in play: Momoko keeps her riichi yaku but gets no ura-dora
    momoko, shizuno = card("momoko_touyoko"), card("shizuno_takakamo", seat=3)
    ctx = ctx_of("234m456p678s99p13s", "2s", ura="8p")
    from pipeline.rules.hooks import scoring_modifiers

    result = score_win(ctx, RULES, scoring_modifiers([momoko, shizuno], view(ctx)))
    assert dict(result.yaku) == {"Riichi": 1} and result.ura == 0


def test_momoko_damaten_ron_in_play_shows_her_ura() -> None:
    hands = ["", "234m456p678s99p13s", "", ""]
    start = scenario_start(hands, draws="2s", dora="9m", ura="8p")
    agents = [ScriptAgent(), ScriptAgent(["ron"]), ScriptAgent(), ScriptAgent()]
    rec = HandState(start, PRESET, agents,
                    abilities=[None, card("momoko_touyoko"), None, None]).play()
    win = rec.wins[0]
    assert win.seat == 1 and win.ura == 2 and win.points == 5200, rec.log_text()
    assert [e.tiles for e in rec.events if e.kind == "ura"] == [tuple(parse_tiles("8p"))]


def test_momoko_third_row_of_discards_goes_face_down() -> None:
    # forced: her 13th to 18th discards go face down (rule C-13 then applies to them)
    start = scenario_start(["", "", "", ""], dora="9m")
    momoko = card("momoko_touyoko", seat=0)
    agents = [ScriptAgent() for _ in range(4)]
    rec = HandState(start, PRESET, agents, abilities=[momoko, None, None, None]).play()
    mine = [e for e in rec.events if e.kind == "discard" and e.seat == 0]
    assert len(mine) == 18, rec.log_text()
    down = [(e.tag, e.card) == (AbilityTag.FACE_DOWN, "momoko_touyoko") for e in mine]
    assert down == [False] * 12 + [True] * 6
    assert not any(e.tag is AbilityTag.FACE_DOWN for e in rec.events
                   if e.kind == "discard" and e.seat != 0)
    assert not momoko.forced_face_down(OwnTurnView(0, (1,), True, False, 11, ()))
    assert momoko.forced_face_down(OwnTurnView(0, (1,), True, False, 12, ()))


# --------------------------------------------------------------------------- Uumensai (C-25)

def test_c25_uumensai_open_and_seven_pairs() -> None:
    # rule C-25: all three suits, a wind and a dragon; open allowed, seven pairs allowed
    yoshiko = CardAbility(CATALOG.card("yoshiko_kainou"), seat=1)
    pairs = ctx_of("11m99p55s11z55z22m3s", "3s")
    result = scored(yoshiko, pairs)
    assert dict(result.yaku) == {"Chiitoitsu": 2, "Uumensai": 3}
    taken: list[int] = []
    pon = meld(MeldKind.PON, "555z", taken)
    opened = ctx_of("234m456p11z78s", "9s", melds=(pon,), taken=taken)
    assert ("Uumensai", 3) in scored(yoshiko, opened).yaku
    no_dragon = ctx_of("234m456p678s11z23s", "4s", riichi=True)
    assert "Uumensai" not in dict(scored(yoshiko, no_dragon).yaku)
