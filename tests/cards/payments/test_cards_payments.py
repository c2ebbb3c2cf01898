"""Payment, stake and dora cards in exact hands: Kei, Hitomi, Nelly, Huiyu Hao, Kirame, Teru,
Kana's Inazuma riichi and Kuro (roster entries and their C-22 clarifications).

Hands are laid out with :func:`scenario_start`: P0 deals and draws ``draws[0]``, then one draw
per seat in turn order; a seat without a script throws the tile it drew. Expected points are
worked out from the scoring tables in the comments, not read back from the engine.
"""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility, effect_implemented
from pipeline.cards.effects.dora_multiplier import known_dora_discarded
from pipeline.cards.effects.honba_by_han import added_honba
from pipeline.cards.effects.payment_per_out import live_outs
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.cards.table import CardTable
from pipeline.rules.actions import AbilityTag, ActionKind
from pipeline.rules.hooks import WinView
from pipeline.rules.match import MatchProgress, advance, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import Event, HandRecord
from pipeline.rules.scenario import spare_tiles
from pipeline.rules.scoring import WinContext
from pipeline.tiles import parse_tiles
from tests.support.payment_play import CATALOG, PRESET, deltas, play

PINFU = "234m456p678s99m23s"      # waits 1s-4s; ron 1 han 30 fu = 1,000; tsumo 2 han 20 fu
NOTEN = ["1479m25899p369s1z", "2589m369p147s477z", "1369m147p258s577z", "1478m25899s369p6z"]
HITOMI = "345m567p456s88s67m"     # waits 5m-8m: tsumo, pinfu, tanyao = 3 han 20 fu, 2,700


def conserved(rec: HandRecord) -> bool:
    """Every point moved stays on the table or in a score (sticks and stakes included)."""
    table = 1000 * (rec.sticks_start - rec.sticks_end) + rec.stakes_start - rec.stakes_end
    return sum(deltas(rec)) == table


def triggers(rec: HandRecord, card: str) -> list[tuple]:
    """The card's ability events by their typed fields: (tag, what it names)."""
    return [(e.tag, e.payload) for e in rec.events if e.kind == "ability" and e.card == card]


def pads(n: int, *used: str, avoid: str = "1s4s") -> str:
    return spare_tiles(n, *used, avoid=avoid)


def test_every_payment_card_is_playable():
    for card in ("kei_arakawa", "hitomi_ezaki", "nelly_virsaladze", "huiyu_hao", "kirame_hanada",
                 "teru_miyanaga", "kana_ikeda", "kuro_matsumi"):
        assert all(effect_implemented(e.kind, e.params) for e in CATALOG.card(card).effects)


# ----------------------------------------------------------------------------- Kei Arakawa

KEI_RON = ([NOTEN[0], PINFU, NOTEN[2], NOTEN[3]], "4s")
# P1 wins by tsumo on its second draw (a first-draw win would be chiihou)
SECOND_DRAW_TSUMO = (KEI_RON[0], "5z" + spare_tiles(4, *KEI_RON[0], "5z4s", avoid="1s4s") + "4s")


def test_kei_each_other_player_pays_100_per_live_out_on_her_ron():
    # waits 1s and 4s, none visible: 8 live outs (the winning tile was live until it came)
    rec, _, _ = play(*KEI_RON, cards={1: "kei_arakawa"}, scripts=[(), ["ron"]])
    assert rec.wins[0].points == 1000
    assert deltas(rec) == [-1000 - 800, 1000 + 3 * 800, -800, -800]
    # 8 live outs: each of the three others pays 800
    assert conserved(rec) and triggers(rec, "kei_arakawa") == [(AbilityTag.SETTLED, 3 * 800)]


def test_kei_a_visible_copy_is_not_a_live_out():
    # the dora indicator shows a 4s: 7 live outs
    rec, _, _ = play(*KEI_RON, cards={1: "kei_arakawa"}, scripts=[(), ["ron"]], dora="4s")
    assert deltas(rec) == [-1000 - 700, 1000 + 2100, -700, -700]


def test_kei_tsumo_counts_the_same_outs():
    # tsumo + pinfu 2 han 20 fu: 700 from the dealer, 400 from the others, plus 800 each
    rec, _, _ = play(*SECOND_DRAW_TSUMO, cards={1: "kei_arakawa"}, scripts=[(), ["tsumo"]])
    assert deltas(rec) == [-1500, 1500 + 2400, -1200, -1200]


def test_kei_another_winner_pays_her_1000_per_winning_tile_she_holds():
    kei = "11s4s1479m258p77z3z"  # holds 1s 1s 4s: three of P2's winning tiles
    rec, _, _ = play([NOTEN[0], kei, PINFU, NOTEN[3]], "4s", cards={1: "kei_arakawa"},
                     scripts=[(), (), ["ron"]])
    assert rec.wins[0].seat == 2
    assert deltas(rec) == [-1000, 3000, 1000 - 3000, 0]
    assert conserved(rec)


def test_live_outs_count_unseen_copies_only():
    hand = parse_tiles(PINFU)
    assert live_outs(hand, frozenset({18, 21}), parse_tiles("1s1s4s")) == 5


# ----------------------------------------------------------------------------- Huiyu Hao

def test_hao_may_not_riichi():
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    _, plain, _ = play(hands, "5z6z")
    _, hao, _ = play(hands, "5z6z", cards={1: "huiyu_hao"})
    assert plain[1].was_offered(ActionKind.RIICHI)
    assert not hao[1].was_offered(ActionKind.RIICHI)


def test_hao_ignores_furiten():
    # she throws a 1s (furiten on 1s-4s), then P2 throws a 4s: only Hao may still ron it
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    _, plain, _ = play(hands, "5z1s4s", scripts=[(), ["ron"]])
    rec, hao, _ = play(hands, "5z1s4s", cards={1: "huiyu_hao"}, scripts=[(), ["ron"]])
    assert not plain[1].was_offered(ActionKind.RON)
    assert rec.wins and rec.wins[0].seat == 1 and rec.wins[0].from_seat == 2


def test_hao_ignores_dora():
    # indicator 1m: her 2m is a dora; pinfu + dora is 2,000, pinfu alone 1,000
    hands, draws = KEI_RON
    plain, _, _ = play(hands, draws, scripts=[(), ["ron"]], dora="1m")
    rec, _, _ = play(hands, draws, cards={1: "huiyu_hao"}, scripts=[(), ["ron"]], dora="1m")
    assert plain.wins[0].points == 2000
    assert rec.wins[0].points == 1000 and rec.wins[0].dora == 0


def test_hao_tsumo_every_player_pays_the_full_ron_value_plus_1000():
    # tsumo + pinfu, 2 han 20 fu: its ron value is 1,300; each pays 2,300 (the dealer too)
    rec, _, _ = play(*SECOND_DRAW_TSUMO, cards={1: "huiyu_hao"}, scripts=[(), ["tsumo"]])
    assert deltas(rec) == [-2300, 6900, -2300, -2300] and conserved(rec)


def test_c22_hao_neither_pays_nor_receives_at_an_exhaustive_draw():
    # C-22 Hao: tenpai alone, she gets nothing and nobody pays
    rec, _, _ = play([NOTEN[0], PINFU, NOTEN[2], NOTEN[3]], cards={1: "huiyu_hao"})
    assert rec.draw_kind == "exhaustive" and rec.seats[1].tenpai_at_end
    assert deltas(rec) == [0, 0, 0, 0]


def test_c22_hao_noten_payments_are_split_among_the_others():
    # Hao noten, P2 tenpai, P0 and P3 noten: 3,000 from the two noten players (1,500 each)
    tenpai = "123m789m456p78s11z"
    rec, _, _ = play([NOTEN[0], NOTEN[1], tenpai, NOTEN[3]], cards={1: "huiyu_hao"})
    assert deltas(rec) == [-1500, 0, 3000, -1500]


# ----------------------------------------------------------------------------- Nelly

def test_nelly_deals_in_takes_the_sticks_and_1000_from_each():
    # P0 (Nelly) pays the 1,000 ron, then takes the 2 sticks and 1,000 from each player
    rec, _, _ = play(*KEI_RON, cards={0: "nelly_virsaladze"}, scripts=[(), ["ron"]], sticks=2)
    assert deltas(rec) == [-1000 + 2000 + 3000, 1000 - 1000, -1000, -1000]
    assert rec.sticks_end == 0 and conserved(rec)


def test_nelly_at_a_draw_takes_sticks_and_stakes_but_not_honba():
    start = dict(sticks=1, honba=3)
    hands = NOTEN
    plain, _, _ = play(hands, **start)
    rec, _, _ = play(hands, cards={0: "nelly_virsaladze"}, **start)
    assert deltas(plain) == [0, 0, 0, 0] and plain.sticks_end == 1
    assert deltas(rec) == [1000 + 3000, -1000, -1000, -1000]
    assert rec.sticks_end == 0 and conserved(rec)


def riichi_draws(hands, used: str = "", ron: bool = False, avoid: str = "1s4s") -> str:
    """P1 declares riichi with a 6z on its second turn (turn 2: no double riichi) and wins on
    the 4s two turns later: its own draw, or P2's discard (``ron``), after ippatsu ended."""
    before = "5z" + pads(4, *hands, used, "5z6z4s", avoid=avoid)
    after = pads(4 if ron else 7, *hands, used, before, "6z4s", avoid=avoid)
    return before + "6z" + after + "4s"


def nelly_riichi(memory: MatchMemory, card: str = "nelly_virsaladze", scores=(25000,) * 4):
    # P1 declares riichi on its second discard and wins by tsumo two draws later
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    draws = riichi_draws(hands)
    return play(hands, draws, cards={1: card}, scripts=[(), ["riichi 6z", "tsumo"]],
                memory=memory, ura="1z", scores=scores)


def test_nelly_early_riichi_after_dealing_in_gives_2_han():
    # riichi + tsumo + pinfu = 3 han 20 fu (700/1,300: 2,700); +2 han makes a mangan (8,000)
    plain, _, _ = nelly_riichi(MatchMemory())
    rec, _, _ = nelly_riichi(MatchMemory(dealt_in_last=frozenset({1})))
    assert plain.wins[0].points == 2700
    assert rec.wins[0].points == 8000 and rec.seats[1].delta == 8000


def test_nelly_bonus_depends_on_the_riichi_turn():
    memory = MatchMemory(dealt_in_last=frozenset({1}))
    nelly = CardAbility(CATALOG.card("nelly_virsaladze"), 1, memory)
    tiles = parse_tiles(PINFU + "4s")
    ctx = WinContext(concealed=tuple(tiles), melds=(), win_tile=tiles[-1], is_tsumo=False,
                     seat_wind=1, round_wind=0, is_dealer=False, riichi=True)
    win = WinView(1, ctx, 0, (25000,) * 4, 0, (1,))
    expected = {None: 0, 1: 2, 6: 2, 7: 1, 8: 1, 9: 0}  # by turn 6: 2 han, by turn 8: 1 han
    for turn, han in expected.items():
        for effect in nelly.effects:
            if effect.kind == "condition_bonus":
                effect.riichi_turn = turn
        mods = nelly.scoring(win)
        got = sum(h for _, h in mods.extra_han) if mods else 0
        assert got == han, turn


def test_nelly_dealt_in_is_remembered_for_the_next_hand_only():
    memory = MatchMemory()
    rec, _, abilities = play(*KEI_RON, cards={0: "nelly_virsaladze"}, scripts=[(), ["ron"]],
                             memory=memory)
    memory.end_of_hand(rec, abilities)
    assert memory.dealt_in_last == frozenset({0})
    draw, _, abilities = play(NOTEN, memory=memory)
    memory.end_of_hand(draw, abilities)
    assert memory.dealt_in_last == frozenset()


# ----------------------------------------------------------------------------- Kirame

def kirame_riichi(points: int, choice: str):
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    return play(hands, "5z6z", cards={1: "kirame_hanada"}, scripts=[(), [choice]],
                scores=(30000, points, 30000, 30000))


def test_kirame_may_stake_half_her_points_for_3_more_dora_indicators():
    # 8,000 before riichi, 7,000 after the stick: 3,500 staked; 1 + 3 indicators shown
    rec, agents, _ = kirame_riichi(8000, "ability riichi:dora_stake 6z")
    assert rec.seats[1].riichi
    assert sum(1 for e in rec.events if e.kind == "dora") == 4
    assert rec.stakes_end == 3500 and rec.sticks_end == 1
    # exhaustive draw, Kirame tenpai alone: +3,000
    assert deltas(rec) == [-1000, -1000 - 3500 + 3000, -1000, -1000] and conserved(rec)


def test_kirame_may_decline_and_is_not_offered_at_10000():
    declined, agents, _ = kirame_riichi(8000, "riichi 6z")
    assert declined.stakes_end == 0 and declined.seats[1].riichi
    assert any((a.tag, a.payload) == (AbilityTag.RIICHI, "dora_stake")
               for o in agents[1].offers for a in o)
    rich, agents, _ = kirame_riichi(10000, "riichi 6z")
    assert not any(a.kind == ActionKind.ABILITY for o in agents[1].offers for a in o)


def test_c19_kirame_riichi_winner_gets_the_matching_ura_indicators():
    # rule C-19: 4 indicators shown, so 4 ura indicators count; only the 4th (1s) hits her 2s.
    # riichi + tsumo + pinfu + ura 1 = 4 han 20 fu: 1,300 / 2,600 (5,200); without the stake
    # 3 han 20 fu (2,700). She collects her own stick and stake back.
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    draws = riichi_draws(hands, "3z3z3z3z4z4z4z1s")
    out = {}
    for choice in ("ability riichi:dora_stake 6z", "riichi 6z"):
        rec, _, _ = play(hands, draws, cards={1: "kirame_hanada"},
                         scripts=[(), [choice, "tsumo"]], scores=(30000, 8000, 30000, 30000),
                         dora="3z3z3z3z", ura="4z4z4z1s")
        out[choice.split()[0]] = rec
    assert out["riichi"].wins[0].points == 2700 and out["riichi"].wins[0].ura == 0
    staked = out["ability"]
    assert staked.wins[0].ura == 1 and staked.wins[0].points == 5200
    assert deltas(staked) == [-2600, 5200, -1300, -1300] and staked.stakes_end == 0


def test_kirame_first_drop_below_zero_stays_at_zero_once_per_match():
    # P0 (Kirame, 1,500 points) deals into pinfu + dora (2,000): she pays 1,500 and ends at 0
    memory = MatchMemory()
    args = dict(cards={0: "kirame_hanada"}, scripts=[(), ["ron"]], dora="1m", memory=memory,
                scores=(1500, 30000, 30000, 38500))
    rec, _, abilities = play(*KEI_RON, **args)
    assert rec.seats[0].end_score == 0 and rec.seats[1].delta == 1500 and conserved(rec)
    assert triggers(rec, "kirame_hanada") == [(AbilityTag.FLOOR_AT_ZERO, None)]
    memory.end_of_hand(rec, abilities)
    again, _, _ = play(*KEI_RON, **args)
    assert again.seats[0].end_score == -500 and again.seats[1].delta == 2000


# ----------------------------------------------------------------------------- Teru

def teru_ron(cards):
    # P1 riichi on its second discard, rons P2's 4s a go-around later (no ippatsu)
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    draws = riichi_draws(hands, ron=True)
    return play(hands, draws, cards=cards, scripts=[(), ["riichi 6z", "ron"]], honba=2,
                ura="1z")


def test_teru_honba_worth_her_han_and_riichi_adds_a_honba():
    # card teru_miyanaga, reading honba = "total" (the card's example: 2 honba and 5 han, each
    # honba worth 500, 1,000 in all): riichi + pinfu ron, 2 han 30 fu = 2,000, and 2 + 1 honba
    # (her riichi), each worth 100 x 2 han: 600 from the discarder
    plain, _, _ = teru_ron({})
    rec, _, _ = teru_ron({1: "teru_miyanaga"})
    assert plain.seats[2].delta == -2600  # plain: 2 honba x 300
    assert rec.seats[2].delta == -2600 and rec.seats[1].delta == 2600 and conserved(rec)


def test_teru_honba_by_the_cards_worked_example():
    # card teru_miyanaga: the roster's example, 2 honba and 5 han: each honba worth 500 (100 x
    # han), 1,000 in all. Here riichi + pinfu + 2 dora (indicator 8m: the 9m pair) make 4 han
    # 30 fu, 7,700; the honba are 2 on the table and 1 for her riichi, each worth 400: 1,200.
    # By the "per_payer" reading each is worth 300 x 4 han: 3,600
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    draws = riichi_draws(hands, ron=True)
    args = dict(scripts=[(), ["riichi 6z", "ron"]], honba=2, ura="1z", dora="8m")
    rec, _, _ = play(hands, draws, cards={1: "teru_miyanaga"}, **args)
    win = rec.wins[0]
    assert (win.han, win.points) == (4, 7700)
    assert rec.seats[2].delta == -(7700 + 3 * 400) and conserved(rec)
    per_payer = CATALOG.card("teru_miyanaga").with_param("honba", "honba", "per_payer")
    rec, _, _ = play(hands, draws, cards={1: per_payer}, **args)
    assert rec.seats[2].delta == -(7700 + 3 * 300 * 4) and conserved(rec)


def test_teru_tsumo_the_honba_are_split_between_the_payers():
    # card teru_miyanaga, reading honba = "total": riichi + tsumo + pinfu, 3 han 20 fu, 1,300
    # from the dealer and 700 from the others; 1 honba + 1 (her riichi), each worth 100 x 3
    # han: 600 in all, 200 from each payer (100 of them the ordinary honba)
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    rec, _, _ = play(hands, riichi_draws(hands), cards={1: "teru_miyanaga"},
                     scripts=[(), ["riichi 6z", "tsumo"]], ura="1z", honba=1)
    assert rec.wins[0].points == 2700
    assert deltas(rec) == [-1500, 2700 + 600, -900, -900] and conserved(rec)


def test_teru_tsumo_per_payer_reading_each_payer_pays_100_x_her_han_per_honba():
    # reading honba = "per_payer": each honba 100 x 3 han from every payer: +600 each
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    per_payer = CATALOG.card("teru_miyanaga").with_param("honba", "honba", "per_payer")
    rec, _, _ = play(hands, riichi_draws(hands), cards={1: per_payer},
                           scripts=[(), ["riichi 6z", "tsumo"]], ura="1z", honba=1)
    assert rec.wins[0].points == 2700
    assert deltas(rec) == [-1900, -1000 + 1000 + 1900 + 2 * 1300, -1300, -1300]


def test_teru_added_honba_count_for_another_winner_at_the_usual_value():
    rec, _, _ = teru_ron({3: "teru_miyanaga"})
    assert rec.seats[2].delta == -(2000 + 3 * 300)


def teru_reading(**readings: str):
    card = CATALOG.card("teru_miyanaga")
    for name, value in readings.items():
        card = card.with_param("honba", name, value)
    return card


def test_teru_her_win_reading_the_added_honba_count_only_on_her_win():
    # reading added_for = "her_win": P1's riichi adds a honba, but Teru (P3) does not win, so
    # the discarder pays the 2 honba on the table only (the default adds the third: 2,900)
    rec, _, _ = teru_ron({3: teru_reading(added_for="her_win")})
    assert rec.seats[2].delta == -(2000 + 2 * 300) and conserved(rec)
    # on her own win they count as by default: 3 honba x 100 x 2 han
    own, _, _ = teru_ron({1: teru_reading(added_for="her_win")})
    assert own.seats[2].delta == -2600 and own.seats[1].delta == 2600


def teru_riichi_then_draw(reading: str) -> HandRecord:
    # P1 (Teru) declares riichi on her second discard (1 added honba); nobody wins, P0 deals
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    rec, _, _ = play(hands, "5z6z", cards={1: teru_reading(added_last=reading)},
                     scripts=[(), ["riichi 6z"]], honba=2)
    assert rec.draw_kind == "exhaustive" and rec.seats[1].riichi
    return rec


def next_honba(rec: HandRecord) -> int:
    progress = MatchProgress(scores=[s.start_score for s in rec.seats], honba=rec.honba)
    advance(progress, rec, PRESET)
    return progress.honba


def test_m03_teru_counter_reading_the_added_honba_stay_on_the_table_count():
    # rule M-03: after a draw the next hand starts with one honba more: 2 + 1 by the default
    # reading (added_last = "this_hand"), 2 + 1 + her riichi's 1 by "counter"
    kept = teru_riichi_then_draw("this_hand")
    assert kept.honba_added == 0 and next_honba(kept) == 3
    lasting = teru_riichi_then_draw("counter")
    assert lasting.honba_added == 1 and next_honba(lasting) == 4
    assert (AbilityTag.HONBA_ADDED, 1) in triggers(lasting, "teru_miyanaga")
    # after a non-dealer's win the count goes back to 0 (M-03), the added honba too
    won, _, _ = play([NOTEN[0], PINFU, NOTEN[2], NOTEN[3]],
                     riichi_draws([NOTEN[0], PINFU, NOTEN[2], NOTEN[3]], ron=True),
                     cards={1: teru_reading(added_last="counter")},
                     scripts=[(), ["riichi 6z", "ron"]], honba=2, ura="1z")
    assert won.wins and won.honba_added == 1 and next_honba(won) == 0


def test_c22_teru_honba_come_from_calls_riichi_swaps_and_extra_turns():
    # C-22 Teru: Toki's swap counts; any ability event tagged a swap or an extra turn does,
    # whatever its text says
    events = [Event("pon", 1, 4), Event("riichi", 2), Event("chi", 0, 8), Event("ankan", 3),
              Event("ability", 1, detail="haru_takimi: extra turn", tag=AbilityTag.EXTRA_TURN),
              Event("ability", 2, detail="toki_onjouji: beside-hand tile exchanged",
                    tag=AbilityTag.SWAPPED),
              Event("ability", 2, detail="toki_onjouji: swap named, no tag"),
              Event("discard", 1, 5)]
    assert added_honba(events) == 5


# ----------------------------------------------------------------------------- Kana

def test_kana_inazuma_riichi_stakes_5000_and_is_worth_5_han():
    # Inazuma 5 + tsumo + pinfu = 7 han: haneman 3,000 / 6,000; stick and stake come back
    memory = MatchMemory()
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    draws = "5z6z" + pads(7, *hands, "5z6z4s") + "4s"
    rec, agents, abilities = play(hands, draws, cards={1: "kana_ikeda"}, memory=memory,
                                  scripts=[(), ["ability riichi:inazuma 6z", "tsumo"]],
                                  ura="1z", scores=(25000, 40000, 25000, 25000))
    assert rec.wins[0].points == 12000
    assert deltas(rec) == [-6000, 12000, -3000, -3000] and conserved(rec)
    assert (AbilityTag.STAKED, 5000) in triggers(rec, "kana_ikeda")
    memory.end_of_hand(rec, abilities)
    _, again, _ = play(hands, draws, cards={1: "kana_ikeda"}, memory=memory,
                       scripts=[(), ["riichi 6z"]])
    assert not any(a.kind == ActionKind.ABILITY for o in again[1].offers for a in o)


def test_c22_kana_ronned_on_the_declaration_tile_may_try_again():
    # P2 waits on 5z-6z (hatsu): Kana's declaration tile 6z is ronned; no stake, not used
    memory = MatchMemory()
    hands = [NOTEN[0], PINFU, "123m456p789s55z66z", NOTEN[3]]
    rec, _, abilities = play(hands, "5z6z", cards={1: "kana_ikeda"}, memory=memory,
                             scripts=[(), ["ability riichi:inazuma 6z"], ["ron"]])
    assert rec.wins[0].seat == 2 and not rec.seats[1].riichi
    assert rec.stakes_end == 0 and conserved(rec)
    memory.end_of_hand(rec, abilities)
    assert not memory.used(1, "inazuma")
    _, agents, _ = play([NOTEN[0], PINFU, NOTEN[2], NOTEN[3]], "5z6z",
                        cards={1: "kana_ikeda"}, memory=memory)
    assert any((a.tag, a.payload) == (AbilityTag.RIICHI, "inazuma")
               for o in agents[1].offers for a in o)


# ----------------------------------------------------------------------------- Kuro

def test_kuro_each_dora_gives_2_han():
    # indicator 1m: her 2m is dora. Pinfu + dora: 2 han (2,000); Kuro: 1 + 2 = 3 han (3,900)
    plain, _, _ = play(*KEI_RON, scripts=[(), ["ron"]], dora="1m")
    rec, _, _ = play(*KEI_RON, cards={1: "kuro_matsumi"}, scripts=[(), ["ron"]], dora="1m")
    assert plain.wins[0].points == 2000
    assert rec.wins[0].han == 3 and rec.wins[0].points == 3900


def test_c22_kuro_a_known_dora_discarded_outside_riichi_loses_dora_for_the_match():
    # she throws a drawn 2m (dora) and rons P2's 4s: her 2m gives 0 han now and later
    memory = MatchMemory()
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    rec, _, abilities = play(hands, "5z2m4s", cards={1: "kuro_matsumi"}, memory=memory,
                             scripts=[(), ["2m", "ron"]], dora="1m")
    assert rec.wins[0].points == 1000 and rec.wins[0].dora == 0
    assert (Move.DORA_LOST, None) in triggers(rec, "kuro_matsumi")  # 0 han for the match
    memory.end_of_hand(rec, abilities)
    assert 1 in memory.dora_lost
    later, _, _ = play(*KEI_RON, cards={1: "kuro_matsumi"}, scripts=[(), ["ron"]], dora="1m",
                       memory=memory)
    assert later.wins[0].points == 1000


def test_c22_kuro_only_a_dora_known_at_the_discard_counts_and_not_in_riichi():
    # C-22 Kuro: 3m thrown before the kan revealed a 2m indicator does not count
    before = [Event("dora", None, 0), Event("discard", 1, 8), Event("dora", None, 4)]
    after = [Event("dora", None, 0), Event("dora", None, 4), Event("discard", 1, 8)]
    assert not known_dora_discarded(before, 1, red_fives=True)
    assert known_dora_discarded(after, 1, red_fives=True)
    in_riichi = [Event("dora", None, 4), Event("riichi", 1), Event("discard", 1, 100),
                 Event("discard", 1, 8)]
    assert not known_dora_discarded(in_riichi, 1, red_fives=True)
    declaring = [Event("dora", None, 4), Event("riichi", 1), Event("discard", 1, 8)]
    assert known_dora_discarded(declaring, 1, red_fives=True)  # the declaration tile is hers
    assert known_dora_discarded([Event("discard", 1, 16)], 1, red_fives=True)   # a red five
    assert not known_dora_discarded([Event("discard", 1, 16)], 1, red_fives=False)
    assert not known_dora_discarded(after, 2, red_fives=True)  # only Kuro's own discards


def test_c22_kuro_lost_dora_apply_to_kuro_alone():
    memory = MatchMemory(dora_lost={1})
    rec, _, _ = play(*KEI_RON, cards={1: "nodoka_haramura"}, scripts=[(), ["ron"]], dora="1m",
                     memory=memory)
    assert rec.wins[0].dora == 1  # another character of the same seat keeps its dora


# ----------------------------------------------------------------------------- Hitomi

HITOMI_HANDS = [NOTEN[0], PINFU, HITOMI, NOTEN[3]]


def test_hitomi_a_deal_in_while_she_is_tenpai_makes_everyone_stake_her_tsumo_value():
    # card hitomi_ezaki, reading stake = "tsumo_share": P0 deals into P1 (1,000) after
    # Hitomi's first discard; her tsumo would be worth 2,700 (1,300 from the dealer P0, 700
    # from each other player): each stakes what it would pay, one tsumo value on the table
    draws = "5z" + pads(3, *HITOMI_HANDS, "5z4s", avoid="1s4s5m8m") + "4s"
    rec, _, _ = play(HITOMI_HANDS, draws, cards={2: "hitomi_ezaki"}, scripts=[(), ["ron"]])
    assert rec.wins[0].seat == 1 and rec.seats[2].turns >= 1
    assert deltas(rec) == [-1000 - 1300, 1000 - 700, 0, -700]
    assert rec.stakes_end == 2700 and conserved(rec)


def test_hitomi_whole_value_reading_every_player_stakes_her_whole_tsumo():
    # card hitomi_ezaki, reading stake = "whole_value": every player, she too, stakes 2,700
    draws = "5z" + pads(3, *HITOMI_HANDS, "5z4s", avoid="1s4s5m8m") + "4s"
    whole = CATALOG.card("hitomi_ezaki").with_param("deal_in", "stake", "whole_value")
    rec, _, _ = play(HITOMI_HANDS, draws, cards={2: whole}, scripts=[(), ["ron"]])
    assert deltas(rec) == [-1000 - 2700, 1000 - 2700, -2700, -2700]
    assert rec.stakes_end == 4 * 2700 and conserved(rec)


def test_hitomi_not_tenpai_no_stakes():
    draws = "5z" + pads(3, *HITOMI_HANDS, "5z4s", avoid="1s4s5m8m") + "4s"
    hands = [NOTEN[0], PINFU, NOTEN[2], NOTEN[3]]
    rec, _, _ = play(hands, draws, cards={2: "hitomi_ezaki"}, scripts=[(), ["ron"]])
    assert rec.wins and rec.stakes_end == 0 and deltas(rec) == [-1000, 1000, 0, 0]


def test_c18_a_stake_is_capped_by_the_points_a_player_has():
    # rule C-18: P3 has 500 points and stakes 500 of the 700 it owes (dealer 1,300, P1 700)
    draws = "5z" + pads(3, *HITOMI_HANDS, "5z4s", avoid="1s4s5m8m") + "4s"
    rec, _, _ = play(HITOMI_HANDS, draws, cards={2: "hitomi_ezaki"}, scripts=[(), ["ron"]],
                     scores=(30000, 30000, 39500, 500))
    assert rec.seats[3].end_score == 0 and rec.stakes_end == 1300 + 700 + 500


def test_hitomi_a_cheaper_tsumo_than_hers_is_staked_in_the_next_hand():
    # P1 tsumo + pinfu: 1,500 in all, below Hitomi's 2,700; P1 stakes its 1,500 next hand
    memory = MatchMemory()
    draws = "5z" + pads(4, *HITOMI_HANDS, "5z4s", avoid="1s4s5m8m") + "4s"
    rec, _, abilities = play(HITOMI_HANDS, draws, cards={2: "hitomi_ezaki"},
                             scripts=[(), ["tsumo"]], memory=memory)
    assert rec.wins[0].seat == 1 and rec.seats[1].delta == 1500 and rec.stakes_end == 0
    memory.end_of_hand(rec, abilities)
    nxt, _, _ = play(NOTEN, memory=memory)  # whatever P1 plays (here: no character)
    assert nxt.stakes_end == 1500 and deltas(nxt) == [0, -1500, 0, 0] and conserved(nxt)
    assert (AbilityTag.STAKED, 1500) in triggers(nxt, "hitomi_ezaki")


def test_hitomi_a_tsumo_worth_more_than_hers_stakes_nothing():
    # P1 riichi-tsumo-pinfu (2,700 plus riichi: 3 han 20 fu is 2,700) is not below 2,700
    memory = MatchMemory()
    draws = riichi_draws(HITOMI_HANDS, avoid="1s4s5m8m")
    rec, _, abilities = play(HITOMI_HANDS, draws, cards={2: "hitomi_ezaki"}, ura="1z",
                             scripts=[(), ["riichi 6z", "tsumo"]], memory=memory)
    assert rec.wins[0].points == 2700
    memory.end_of_hand(rec, abilities)
    assert memory.pending_stakes == {}


# ----------------------------------------------------------------------------- the event preset

def test_tournament_2022_preset_loads_and_plays_a_card_match():
    preset = load_preset("tournament-2022")
    assert (preset.start_points, preset.uma, preset.oka) == (30000, (15, 5, -5, -15), False)
    assert preset.kazoe_limit == "yakuman" and preset.nagashi_mangan and not preset.red_fives
    assert (preset.cards.team_mode, preset.cards.team_size) == ("winner-rotation", 6)
    agents = [HeuristicBot(seed=s) for s in range(4)]
    table = CardTable(preset, agents, seed=4, match_index=0)
    result = play_match(preset, agents, seed=4, table=table)
    first, last = result.hands[0].teams["teams"], result.hands[-1].teams["teams"]
    assert all(len(team) == 6 for team in first)
    winners = {w.seat for h in result.hands for w in h.wins}
    assert any(first[s] != last[s] for s in winners)  # C-05: a winner's card was replaced
    assert abs(sum(result.results)) < 1e-6
    assert sum(result.final_scores) + 1000 * result.leftover_sticks + \
        result.leftover_stakes == 4 * 30000
