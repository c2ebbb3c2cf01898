"""Part-2 cards built on the existing mechanics: Shiromi Kosegawa, Mihoko Fukuji, Kasumi Iwato,
Tomoe Karijuku and Jun Inoue, each effect in an exact situation (hands and walls from mpsz text).

Seat 1 holds the card under test unless a test says otherwise; seat 0 deals, so the turn order
is P0, P1, P2, P3 and the draws string gives P0's first draw, P1's first draw, and so on.
"""

from __future__ import annotations

from pipeline.cards.abilities import OPTIONAL_EFFECTS, CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.base import ScoringContext
from pipeline.cards.effects.dora_both_ways import DoraBothWays, previous_type
from pipeline.cards.effects.extra_turn import is_suji
from pipeline.cards.effects.han_per_count import HanPerCount
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import ippatsu_alive
from pipeline.rules.actions import AbilityTag, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.hand import HandState
from pipeline.rules.hooks import WinView
from pipeline.rules.preset import load_preset
from pipeline.rules.records import Event
from pipeline.rules.scenario import scenario_start
from pipeline.rules.scoring import WinContext
from pipeline.tiles import parse_tiles, parse_types
from tests.support.card_scripts import CardScript

PRESET = load_preset("cards-hanchan")
CATALOG = load_catalog("1.2")


def dora_both_ways(params: dict, win: WinView, seat: int):
    """The dora_both_ways effect of ``seat``'s card valuing one win."""
    return DoraBothWays(params, seat, "shiromi_kosegawa").scoring(ScoringContext(win, seat))

def play(card: str, hands, draws: str, scripts, *, seat: int = 1, dealer: int = 0,
         scores=(25000,) * 4, dora: str = "", ura: str = "", agents=None):
    start = scenario_start(hands, draws=draws, dealer=dealer, scores=scores, dora=dora, ura=ura)
    agents = agents or [CardScript(s) for s in [*scripts, *([()] * (4 - len(scripts)))]]
    abilities = [None] * 4
    abilities[seat] = CardAbility(CATALOG.card(card), seat)
    state = HandState(start, PRESET, agents, abilities=abilities)
    return state.play(), agents, state


def fired(rec) -> list[tuple]:
    """The ability events by their typed fields: (card, tag, what it names)."""
    return [(e.card, e.tag, e.payload) for e in rec.events if e.kind == "ability"]


def face_down(e) -> bool:
    return e.kind == "discard" and e.tag is AbilityTag.FACE_DOWN


REVEALED = ("mihoko_fukuji", AbilityTag.HAND_REVEALED, None)


# ------------------------------------------------------------------------ Shiromi Kosegawa

TENPAI_P0 = "123m789m123p1122z"   # waits on 1z/2z: riichi whenever it likes


def win_ctx(concealed: str, win: str, *, dora: str, melds=(), riichi=False, ura: str = ""
            ) -> WinContext:
    tiles = parse_tiles(concealed)
    win_tile = parse_tiles(win, taken=tiles)[0]
    used = [*tiles, win_tile, *(x for m in melds for x in m.tiles)]
    indicators = tuple(parse_tiles(dora, taken=used))
    ura_tiles = tuple(parse_tiles(ura, taken=[*used, *indicators])) if ura else ()
    return WinContext(concealed=(*tiles, win_tile), melds=tuple(melds), win_tile=win_tile,
                      is_tsumo=False, seat_wind=1, round_wind=0, is_dealer=False,
                      dora_indicators=indicators, ura_indicators=ura_tiles, riichi=riichi)


def test_previous_type_wraps_like_the_dora_order() -> None:
    assert previous_type(parse_types("5m")[0]) == parse_types("4m")[0]
    assert previous_type(parse_types("1p")[0]) == parse_types("9p")[0]
    assert previous_type(parse_types("1z")[0]) == parse_types("4z")[0]   # North before East
    assert previous_type(parse_types("5z")[0]) == parse_types("7z")[0]   # red before white


def test_shiromi_dora_point_both_ways_with_a_closed_hand() -> None:
    # indicator 5m: 6m is dora for everyone, 4m for her too; she holds 44m and one 6m
    ctx = win_ctx("44m6m78m234p567s99p", "9m", dora="5m")
    mods = dora_both_ways({}, WinView(1, ctx, 0, (25000,) * 4, 0, ()), 1)
    assert mods is not None and mods.extra_han == (("dora_both_ways", 2),)
    ability = CardAbility(CATALOG.card("shiromi_kosegawa"), 1)
    merged = ability.scoring(WinView(1, ctx, 0, (25000,) * 4, 0, ()))
    assert ("dora_both_ways", 2) in merged.extra_han


def test_shiromi_ura_indicators_point_both_ways_in_riichi() -> None:
    # ura indicator 3p: 2p before it is dora for her riichi win; without riichi no ura
    ctx = win_ctx("44m6m78m234p567s99p", "9m", dora="1z", ura="3p", riichi=True)
    assert dora_both_ways({}, WinView(1, ctx, 0, (25000,) * 4, 0, ()), 1).extra_han == \
        (("dora_both_ways", 1),)
    plain = win_ctx("44m6m78m234p567s99p", "9m", dora="1z", ura="3p")
    assert dora_both_ways({}, WinView(1, plain, 0, (25000,) * 4, 0, ()), 1) is None


def test_shiromi_dora_both_ways_not_with_an_open_hand() -> None:
    pon = Meld(MeldKind.PON, tuple(parse_tiles("444m")), parse_tiles("4m")[0], 0)
    ctx = win_ctx("6m78m234p567s99p", "9m", dora="5m", melds=(pon,))
    assert dora_both_ways({}, WinView(1, ctx, 0, (25000,) * 4, 0, ()), 1) is None


def test_suji_for_4_5_6_needs_both_sides() -> None:
    # card clarification: suji for a 4, 5 or 6 must be two-sided
    s = parse_types
    assert is_suji(s("4s")[0], {s("1s")[0], s("7s")[0]})
    assert not is_suji(s("4s")[0], {s("7s")[0]})
    assert not is_suji(s("5s")[0], {s("2s")[0]})
    assert is_suji(s("1s")[0], {s("4s")[0]}) and is_suji(s("9s")[0], {s("6s")[0]})
    assert not is_suji(s("1z")[0], {s("1z")[0]})   # honors have no suji


def test_shiromi_genbutsu_discard_against_riichi_gives_an_extra_turn_with_face_down() -> None:
    # P0 declares riichi on 5z at once; Shiromi discards her 5z (genbutsu): an extra turn is
    # offered, and in the extra turn her discard may go face down (and she takes it)
    rec, agents, _ = play("shiromi_kosegawa", [TENPAI_P0, "5z8p9p", "", ""],
                          "5z1s2s3s4s6p", [["riichi 5z"], ["5z", "extra", "fd 8p"]])
    shiromi = agents[1]
    assert shiromi.offered("extra_turn") == [1]
    assert shiromi.offered("face_down", upto=99) == [1]   # only in the extra turn
    assert ("shiromi_kosegawa", AbilityTag.EXTRA_TURN, None) in fired(rec)
    down = [e for e in rec.events if face_down(e) and e.seat == 1]
    assert [e.tile // 4 for e in down] == parse_types("8p")
    # rule C-15: the face-down discard of the extra turn earns no second one; P2 plays next
    i = rec.events.index(down[0])
    assert next(e.seat for e in rec.events[i + 1:] if e.kind == "draw") == 2


def test_shiromi_no_extra_turn_without_a_riichi() -> None:
    rec, agents, _ = play("shiromi_kosegawa", [TENPAI_P0, "5z8p9p", "", ""],
                          "5z1s2s3s4s6p", [["5z"], ["5z"]])
    assert agents[1].offered("extra_turn") == []


def test_shiromi_two_sided_suji_against_riichi() -> None:
    # P0 discards 1s, then declares riichi on 7s: 4s is suji on both sides for Shiromi
    draws = "1s9p2p3p7s4s"
    _, agents, _ = play("shiromi_kosegawa", [TENPAI_P0, "4s5z6z", "", ""], draws,
                        [["1s", "riichi 7s"], ["5z", "4s"]])
    assert agents[1].offered("extra_turn") == [2]
    # the same with 5z instead of 1s: 4s is suji on one side only, no extra turn
    _, agents, _ = play("shiromi_kosegawa", [TENPAI_P0, "4s5z6z", "", ""], "7z9p2p3p7s1s",
                        [["7z", "riichi 7s"], ["5z", "4s"]])
    assert agents[1].offered("extra_turn") == []


def test_shiromi_c22_tiles_discarded_by_others_after_the_riichi_are_genbutsu() -> None:
    # C-22 Shiromi: P0 riichi on its first discard; P2 then discards 8p: genbutsu against P0,
    # so Shiromi's 8p earns the extra turn
    hands = [TENPAI_P0, "8p6z4s", "8p", "6z"]
    draws = "5z1s2s3s" + "4z" + "7p"
    _, agents, _ = play("shiromi_kosegawa", hands, draws,
                        [["riichi 5z"], ["1s", "8p"], ["8p"], ["6z"]])
    assert agents[1].offered("extra_turn") == [2]


def test_shiromi_tiles_discarded_before_the_riichi_are_not_genbutsu() -> None:
    # P2 discards 8p before P0's riichi (P0 declares on its second discard): not genbutsu
    hands = [TENPAI_P0, "8p6z4s", "8p", ""]
    draws = "7z1s2s3s5z2p"
    _, agents, _ = play("shiromi_kosegawa", hands, draws,
                        [["7z", "riichi 5z"], ["1s", "8p"], ["8p"]])
    assert agents[1].offered("extra_turn") == []


def test_shiromi_c22_her_own_earlier_discard_after_the_riichi_is_genbutsu_again() -> None:
    # C-22 Shiromi: "discarding such a tile again triggers her ability": her first 6z after
    # the riichi is not safe yet (no extra turn), then her second 6z is genbutsu
    hands = [TENPAI_P0, "66z4s", "", ""]
    draws = "5z1s2s3s4z2p"
    _, agents, _ = play("shiromi_kosegawa", hands, draws, [["riichi 5z"], ["6z", "6z"]])
    assert agents[1].offered("extra_turn") == [2]   # not at 1: 6z was not safe yet


# ------------------------------------------------------------------------ Mihoko Fukuji


def test_mihoko_in_last_place_others_play_face_up_until_she_leaves_it() -> None:
    # she starts last (20,000); P3 (20,500) declares riichi and drops to 19,500: from then on
    # she is not last and the hands are hidden again
    scores = (25000, 20000, 25000, 20500)
    rec, agents, state = play("mihoko_fukuji", ["", "", "", TENPAI_P0], "1s2s3s5z4s",
                              [[], [], [], ["riichi 5z"]], scores=scores)
    details = fired(rec)
    assert details[:3] == [REVEALED] * 3
    assert sorted(e.seat for e in rec.events if e.tag is AbilityTag.HAND_REVEALED) == [0, 2, 3]
    assert details.count(("mihoko_fukuji", AbilityTag.HAND_HIDDEN, None)) == 3
    watcher = agents[0]
    assert watcher.seen[0] == (True, False, True, True)   # P0 sees P2 and P3, not Mihoko
    assert watcher.seen[-1] == (True, False, False, False)
    assert agents[2].seen[0][3]                          # every other player sees them too
    assert not state.revealed


def test_mihoko_reveal_starts_when_she_drops_to_last_during_the_hand() -> None:
    # P3 starts last (24,500); Mihoko's own riichi stick drops her to 24,000: others face up
    scores = (25000, 25000, 25000, 24500)
    rec, agents, state = play("mihoko_fukuji", ["", TENPAI_P0, "", ""], "1s2s3s4s",
                              [[], ["riichi 2s"]], scores=scores)
    kinds = [(e.kind, e.seat, e.card, e.tag) for e in rec.events
             if e.kind in ("riichi", "ability")]
    assert kinds[0] == ("riichi", 1, "", None)            # nothing revealed before it
    assert state.players[1].double_riichi
    assert [k[2:] for k in kinds[1:4]] == [REVEALED[:2]] * 3
    assert agents[0].seen[0] == (True, False, False, False)   # P0 before: only itself
    assert agents[0].seen[-1] == (True, False, True, True)    # after: P2 and P3 too
    assert state.revealed == {0, 2, 3}


def test_mihoko_c21_on_equal_points_the_seat_farther_from_the_dealer_is_last() -> None:
    # rule C-21: Mihoko (seat 1) and P3 both on 20,000
    scores = (25000, 20000, 25000, 20000)
    rec, _, _ = play("mihoko_fukuji", ["", "", "", ""], "", [], scores=scores)   # dealer P0
    assert REVEALED not in fired(rec)   # P3 is last
    rec, _, _ = play("mihoko_fukuji", ["", "", "", ""], "", [], scores=scores, dealer=2)
    assert REVEALED in fired(rec)       # she is last


def test_a_reveal_that_stops_leaves_another_abilitys_reveal_alone() -> None:
    # Komaki plays face up by her own card; Mihoko leaving last place hides only her reveals
    state = HandState(scenario_start(["", "", "", ""]), PRESET, [CardScript()] * 4)
    state.reveal_hand(2, "komaki_jindai")
    state.reveal_hand(2, "mihoko_fukuji")
    state.reveal_hand(3, "mihoko_fukuji")
    state.hide_hand(2, "mihoko_fukuji")
    state.hide_hand(3, "mihoko_fukuji")
    assert state.revealed == {2}


def test_mihoko_face_down_when_her_last_discard_matches_another_players_last() -> None:
    # she discards 6z, P2 then discards 6z: on her next turn she may discard face down
    hands = ["", "6z", "6z", ""]
    rec, agents, _ = play("mihoko_fukuji", hands, "1s2s3s4s5s7s8s", [[], ["6z", "fd 7s"], ["6z"]])
    assert agents[1].offered("face_down") == [1]
    assert any(e.kind == "discard" and e.seat == 1
               and (e.tag, e.card) == (AbilityTag.FACE_DOWN, "mihoko_fukuji")
               for e in rec.events)
    # P2 discards something else: no match, no face-down discard
    _, agents, _ = play("mihoko_fukuji", hands, "1s2s3s4s5s7s8s", [[], ["6z"], ["2s"]])
    assert agents[1].offered("face_down") == []


def test_mihoko_a_called_discard_is_not_her_last_visible_one() -> None:
    # she discards 5z, then 6z, which P2 pons and answers with 5z: her last visible discard is
    # the 5z (the 6z left her pond), matching P2's last discard
    hands = ["", "5z6z", "66z5z", ""]
    _, agents, _ = play("mihoko_fukuji", hands, "1s2s3s4s7s8s9s1p2p",
                        [[], ["5z", "6z"], ["3s", "pon", "5z"]])
    assert agents[1].offered("face_down") == [2]


# ------------------------------------------------------------------------ Kasumi Iwato

# Every tile placed: souzu with P0 (6) and P2 (3), none with P3 or Kasumi.
KASUMI_HANDS = ["123456s111222z", "123m456m789m123p5p", "789s3334445556z", "667777z46789p11p"]
KASUMI_DRAWS = "8m9m7m2m1m5p"   # nobody draws souzu; Kasumi's second draw is her 5p


def test_kasumi_names_a_family_before_her_first_discard() -> None:
    rec, agents, _ = play("kasumi_iwato", KASUMI_HANDS, KASUMI_DRAWS, [[], ["family sou"]],
                          dora="9s")
    first = next(o for o in agents[1].offers if o[0].kind == ActionKind.ABILITY)
    assert sorted((a.card, a.tag, a.payload) for a in first) == [
        ("kasumi_iwato", Move.FAMILY, f) for f in ("honors", "man", "pin", "sou")]
    details = fired(rec)
    assert ("kasumi_iwato", Move.FAMILY, "sou") in details
    assert sum(tag is AbilityTag.TYPES_SHOWN for _, tag, _ in details) == 3
    assert sum(1 for offer in agents[1].offers for a in offer if a.tag is Move.FAMILY) == 4


def test_kasumi_others_show_their_family_tiles_to_everyone_draws_too() -> None:
    # sou named: Kasumi's and P0's observations show P2's souzu, and the 1s P2 draws and keeps

    class Peek(CardScript):
        peeks: list[tuple[int, ...]] = []

        def decide(self, obs, legal):
            self.peeks.append(tuple(sorted(x // 4 for x in obs.shown_tiles(2))))
            return super().decide(obs, legal)

    class Peek1(Peek):
        peeks: list[tuple[int, ...]] = []

    hands = ["", "", "789s11m55m11p55p66z", ""]
    p0, kasumi = Peek(), Peek1(["family sou"])
    _, _, state = play("kasumi_iwato", hands, "1z2z1s3z4z", [],
                       agents=[p0, kasumi, CardScript(["7s"]), CardScript()])
    assert p0.peeks[0] == ()                          # before she names it: nothing shown
    assert kasumi.peeks[:2] == [(), tuple(parse_types("789s"))]  # named, then P2's 789s
    assert tuple(parse_types("189s")) in p0.peeks     # 7s discarded, the 1s drawn shown
    assert state.shown_tiles(1) == ()                # her own hand stays hidden


def test_kasumi_gets_a_han_per_three_family_tiles_the_others_show() -> None:
    # 9 souzu held by the others at her tsumo: +3 han on ittsu and menzen tsumo (3 han 30 fu
    # plain, 6 han with the bonus: haneman)
    rec, _, _ = play("kasumi_iwato", KASUMI_HANDS, KASUMI_DRAWS,
                     [[], ["family sou", "9m", "tsumo"]], dora="9s")
    win = rec.wins[0]
    assert win.seat == 1 and win.han == 6 and win.points == 12000
    # pin named instead: P3's 46789p11p (7 tiles) and P2's none: +2 han (5 han: mangan)
    rec, _, _ = play("kasumi_iwato", KASUMI_HANDS, KASUMI_DRAWS,
                     [[], ["family pin", "9m", "tsumo"]], dora="9s")
    assert rec.wins[0].han == 5 and rec.wins[0].points == 8000


def test_heuristic_kasumi_names_the_family_she_sees_least_of() -> None:
    # she holds nine manzu and four pinzu: the souzu (no copy seen) are the most the others
    # can hold, so the bot names sou
    from pipeline.bots.heuristic import HeuristicBot

    start = scenario_start(["", "123456789m1234p", "", ""], dora="1z")
    agents = [HeuristicBot(s) for s in range(4)]
    abilities = [None, CardAbility(CATALOG.card("kasumi_iwato"), 1), None, None]
    rec = HandState(start, PRESET, agents, abilities=abilities).play()
    assert ("kasumi_iwato", Move.FAMILY, "sou") in fired(rec)


class _Table:
    """Stand-in for the table controls: only the shown tiles are read."""

    def __init__(self, shown):
        self.shown = shown

    def shown_tiles(self, seat):
        return self.shown[seat]

    def show_types(self, seat, types, by):
        pass


def test_kasumi_called_family_tiles_count_too() -> None:
    # "shown or called": P2's pon of 777s and P3's chi of 123s count with P0's shown 5s
    card = CATALOG.card("kasumi_iwato")
    (params,) = [e.params for e in card.effects if e.kind == "han_per_count"]
    effect = HanPerCount(params, 1, card.id)
    table = _Table({0: tuple(parse_tiles("5s")), 2: (), 3: ()})
    effect.action_taken(ability_action(1, "kasumi_iwato", Move.FAMILY, payload="sou"))
    pon = Meld(MeldKind.PON, tuple(parse_tiles("777s")), parse_tiles("7s")[0], 0)
    chi = Meld(MeldKind.CHI, tuple(parse_tiles("123s")), parse_tiles("1s")[0], 2)
    ctx = win_ctx("123m456m789m123p5p", "5p", dora="1z")
    win = WinView(1, ctx, 0, (25000,) * 4, 0, (), melds=((), (), (pon,), (chi,)))
    mods = effect.scoring(ScoringContext(win, 1, table))
    assert mods.extra_han == (("shown_family_tiles", 2),)   # 7 tiles: 2 groups
    win = WinView(1, ctx, 0, (25000,) * 4, 0, (), melds=((), (), (pon,), ()))
    assert effect.scoring(ScoringContext(win, 1, table)).extra_han == \
        (("shown_family_tiles", 1),)


# ------------------------------------------------------------------------ Jun Inoue


def test_jun_takes_400_from_the_player_she_called_from_and_gets_an_extra_turn() -> None:
    rec, agents, _ = play("jun_inoue", ["5z", "55z1m", "", ""], "5z1s2s3s",
                          [["5z"], ["pon", "1m", "extra"]])
    jun = agents[1]
    after_pon = jun.scores[[i for i, o in enumerate(jun.offers)
                            if any(a.kind == ActionKind.PON for a in o)][0] + 1]
    assert after_pon == (24600, 25400, 25000, 25000)      # points conserved: 100,000
    assert ("jun_inoue", AbilityTag.PAID, 0) in fired(rec)   # P0 pays her (the 400 above)
    assert jun.offered("extra_turn", upto=1) == [1]
    assert ("jun_inoue", AbilityTag.EXTRA_TURN, None) in fired(rec)
    assert jun.offered("face_down", upto=99) == []        # nobody's ippatsu was at stake


def test_jun_call_that_breaks_an_ippatsu_allows_a_face_down_discard_instead() -> None:
    # P3 declares riichi; P0's next discard 6z is ponned by Jun: P3's ippatsu chance is gone,
    # so her discard may go face down, and then no extra turn follows
    hands = ["6z", "66z1m", "", TENPAI_P0]
    rec, agents, _ = play("jun_inoue", hands, "1s2s3s5z6z",
                          [[], ["2s", "pon", "fd 1m"], [], ["riichi 5z"]])
    jun = agents[1]
    assert jun.offered("face_down", upto=99) == [1]
    down = next(e for e in rec.events if face_down(e) and e.seat == 1)
    i = rec.events.index(down)
    assert next(e.seat for e in rec.events[i + 1:] if e.kind == "draw") == 2
    assert ("jun_inoue", AbilityTag.EXTRA_TURN, None) not in fired(rec)
    # the same call with no riichi on the table: no face-down discard
    _, agents, _ = play("jun_inoue", hands, "1s2s3s5z6z", [[], ["2s", "pon"], [], ["5z"]])
    assert agents[1].offered("face_down", upto=99) == []


def test_c16_an_extra_turn_keeps_the_ippatsu_chance_jun_may_break() -> None:
    # rule C-16: a riichi player's discard in an extra turn does not end its ippatsu
    riichi = [Event("riichi", 3), Event("discard", 3, 0)]
    assert ippatsu_alive(riichi, 3)
    assert not ippatsu_alive([*riichi, Event("discard", 3, 4)], 3)
    extra = [*riichi, Event("ability", 3, detail="x: extra turn", tag=AbilityTag.EXTRA_TURN),
             Event("discard", 3, 4)]
    assert ippatsu_alive(extra, 3)
    assert not ippatsu_alive([*riichi, Event("pon", 0, 8)], 3)
    assert not ippatsu_alive([Event("discard", 3, 0)], 3)     # no riichi at all


def test_part2_optional_choices_are_registered() -> None:
    # the face-down discards and extra turns offered here are the registered optional effects
    assert {"face_down", "extra_turn"} <= OPTIONAL_EFFECTS


# ------------------------------------------------------------------------ Tomoe Karijuku

TOMOE = "123m789m123p1122z"   # tenpai on 1z/2z (shanpon): a white dragon does not complete it


def test_tomoe_in_riichi_wins_on_a_drawn_white_dragon_whatever_the_shape() -> None:
    # riichi on her second discard, a white dragon as her next (ippatsu) draw. Her hand is in
    # tenpai on 1z/2z, so the tile acts as one of those (pipeline/rules/shapeless.py; equal
    # value, 1z first): riichi, ippatsu, menzen tsumo, the round wind East and chantai (2), and
    # her +2 han for a white dragon drawn: 8 han, baiman (4,000 / 8,000)
    draws = "1s4s2s3s6s7s8s9s4p" + "5z"
    rec, agents, _ = play("tomoe_karijuku", ["", TOMOE, "", ""], draws,
                          [[], ["4s", "riichi 7s", "tsumo"]], dora="4p", ura="4p")
    win = rec.wins[0]
    assert win.seat == 1 and win.from_seat == 1
    assert win.han == 8 and win.points == 16000
    assert {"Riichi", "Ippatsu", "Menzen Tsumo", "Yakuhai (round wind east)",
            "Chantai"} == {n for n, _ in win.yaku}
    assert any(tag is AbilityTag.ALWAYS_WINNING for _, tag, _ in fired(rec))


def test_tomoe_white_dragon_tsumo_bonus_on_a_complete_hand_without_riichi() -> None:
    # waiting on 1z/5z (damaten): tsumo on the white dragon: chantai, yakuhai and menzen tsumo
    # (4 han) plus her 2 han for a white dragon drawn: 6 han
    rec, _, _ = play("tomoe_karijuku", ["", "123m789m123p1155z", "", ""], "1s2s3s4s6s5z",
                     [[], ["2s", "tsumo"]], dora="4p", ura="4p")
    win = rec.wins[0]
    assert win.seat == 1 and win.han == 6
    assert {n for n, _ in win.yaku} == {"Chantai", "Yakuhai (haku)", "Menzen Tsumo"}


def test_tomoe_without_riichi_a_white_dragon_is_an_ordinary_tile() -> None:
    draws = "1s4s2s3s6s7s8s9s4p" + "5z"
    _, agents, _ = play("tomoe_karijuku", ["", TOMOE, "", ""], draws,
                        [[], ["4s", "7s", "5z"]], dora="4p", ura="4p")
    drew_white = next(o for o in agents[1].offers
                      if any(a.kind == ActionKind.DISCARD and a.tile // 4 == 31 for a in o))
    assert not any(a.kind == ActionKind.TSUMO for a in drew_white)


def test_tomoe_rons_a_white_dragon_discarded_face_down() -> None:
    # the roster's rule: a face-down tile can be ronned only by an always-winning tile. Nodoka
    # (P2, once per hand) discards her white dragon face down into Tomoe's riichi. It acts as
    # her winning tile 1z (tenpai on 1z/2z, equal value, 1z first): riichi, ippatsu, the round
    # wind East and chantai (2), 5 han, mangan 8,000
    start = scenario_start(["", TOMOE, "5z", ""], draws="1s4s2s3s6s7s8s", dora="4p", ura="4p")
    agents = [CardScript(), CardScript(["4s", "riichi 7s", "ron"]), CardScript(["2s", "fd 5z"]),
              CardScript()]
    abilities = [None, CardAbility(CATALOG.card("tomoe_karijuku"), 1),
                 CardAbility(CATALOG.card("nodoka_haramura"), 2), None]
    rec = HandState(start, PRESET, agents, abilities=abilities).play()
    assert any(face_down(e) and e.seat == 2 for e in rec.events)
    win = rec.wins[0]
    assert (win.seat, win.from_seat, win.han, win.points) == (1, 2, 5, 8000)
    # rule C-13: without the always-winning tile nobody may ron a face-down tile
    agents = [CardScript(), CardScript(["4s", "riichi 7s", "ron"]), CardScript(["2s", "fd 5z"]),
              CardScript()]
    rec = HandState(start, PRESET, agents,
                    abilities=[None, None, abilities[2], None]).play()
    assert not any(w.seat == 1 for w in rec.wins)


def test_tomoe_discarding_a_white_dragon_gives_an_extra_turn() -> None:
    _, agents, _ = play("tomoe_karijuku", ["", "5z", "", ""], "1s2s", [[], ["5z"]])
    assert agents[1].offered("extra_turn", upto=1) == [1]


def test_a_shapeless_win_counts_only_yaku_that_do_not_need_a_shape() -> None:
    from pipeline.rules.shapeless import score_shapeless

    rules = PRESET.scoring_rules()
    plain = win_ctx(TOMOE, "5z", dora="4p")             # no riichi: no yaku, no win
    assert score_shapeless(plain, rules) is None
    riichi = win_ctx(TOMOE, "5z", dora="4p", ura="4p", riichi=True)
    result = score_shapeless(riichi, rules)
    assert (result.han, result.fu, result.ron_points) == (1, 30, 1000)
    assert result.yaku == (("Riichi", 1),)
    dora = win_ctx(TOMOE, "5z", dora="9m", ura="4p", riichi=True)   # 9m shows 1m: one held
    assert score_shapeless(dora, rules).han == 2
