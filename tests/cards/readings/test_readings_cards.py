"""Readings of single cards (``saki cards readings``): each choice changes play as documented.
Kana Ikeda (``counts``), Toyone Anetai (``table_points``), Takami Shibuya
(``taken_tile_tsumo``), Yuuko Mase (``switched_off``). Teru, Hitomi and Himeko are in
tests/cards/payments/test_cards_payments.py and tests/cards/meta/test_cards_meta.py; the
always-winning tiles in tests/cards/readings/test_readings_always_winning.py."""

from __future__ import annotations

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag, ActionKind, Meld, MeldKind
from pipeline.rules.hooks import WinView, merge_modifiers
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import scenario_start, spare_tiles
from pipeline.rules.scoring import WinContext, score_win
from pipeline.tiles import parse_tiles
from tests.support.duel_play import Naming
from tests.support.duel_play import play as duel_play
from tests.support.wall_play import Steps, ability_events
from tests.support.wall_play import play as wall_play

CATALOG = load_catalog("1.2")
RULES = load_preset("online-hanchan").scoring_rules()


def with_reading(card_id: str, effect: str, option: str, choice: str):
    return CATALOG.card(card_id).with_param(effect, option, choice)


# ------------------------------------------------------------------ Kana Ikeda


def open_ittsu_ron() -> WinContext:
    """An open ittsu (chi 123m): 1 han open, 2 closed; nothing else."""
    chi = parse_tiles("123m")
    rest = parse_tiles("456789m234p5s", taken=chi)
    win = parse_tiles("5s", taken=[*chi, *rest])[0]
    meld = Meld(MeldKind.CHI, tuple(chi), called=chi[0], from_seat=0)
    return WinContext(concealed=(*rest, win), melds=(meld,), win_tile=win, is_tsumo=False,
                      seat_wind=1, round_wind=0, is_dealer=False,
                      dora_indicators=tuple(parse_tiles("7z", taken=[*chi, *rest, win])))


def kana_value(card, ctx: WinContext, scores=(30000, 10000, 30000, 30000)) -> int:
    ability = CardAbility(card, 1)
    mods = merge_modifiers([ability.scoring(WinView(1, ctx, 0, scores, 0, ()))])
    return score_win(ctx, RULES, mods).han


def test_kana_in_last_place_doubles_an_open_ittsu_in_hand_reading() -> None:
    # card kana_ikeda, reading counts = "in_hand" (the default): the open ittsu is a 1-han
    # yaku in this hand, so in last place it is worth 2
    ctx = open_ittsu_ron()
    assert score_win(ctx, RULES).han == 1
    assert kana_value(CATALOG.card("kana_ikeda"), ctx) == 2
    # not in last place: no change
    assert kana_value(CATALOG.card("kana_ikeda"), ctx, scores=(30000, 40000, 20000, 10000)) == 1


def test_kana_closed_value_reading_leaves_an_open_ittsu_at_one_han() -> None:
    # card kana_ikeda, reading counts = "closed_value": ittsu's closed value is 2 han, so the
    # open one is not doubled
    card = with_reading("kana_ikeda", "last_place", "counts", "closed_value")
    assert kana_value(card, open_ittsu_ron()) == 1


# ------------------------------------------------------------------ Toyone Anetai


def toyone_view(stakes: int) -> WinView:
    tiles = parse_tiles("234m456p678s99p23s")
    win = parse_tiles("4s", taken=tiles)[0]
    ctx = WinContext(concealed=(*tiles, win), melds=(), win_tile=win, is_tsumo=False,
                     seat_wind=1, round_wind=0, is_dealer=False, riichi=True,
                     dora_indicators=tuple(parse_tiles("1z", taken=[*tiles, win])))
    return WinView(1, ctx, 2, (25000,) * 4, 0, (2, 1), table_points=2000, stakes=stakes)


def toyone_bonus(card, stakes: int) -> int:
    mods = merge_modifiers([CardAbility(card, 1).scoring(toyone_view(stakes))])
    return sum(h for name, h in mods.extra_han if name == "ron_on_riichi_discard_per_stick")


def test_toyone_counts_stakes_as_points_on_the_table() -> None:
    # card toyone_anetai, reading table_points = "sticks_and_stakes": 2 sticks and a 3,000
    # stake are 5,000 on the table: +5 han on a riichi ron on a riichi player's discard
    assert toyone_bonus(CATALOG.card("toyone_anetai"), 3000) == 5
    assert toyone_bonus(CATALOG.card("toyone_anetai"), 0) == 2


def test_toyone_sticks_only_reading_ignores_stakes() -> None:
    card = with_reading("toyone_anetai", "sticks", "table_points", "sticks_only")
    assert toyone_bonus(card, 3000) == 2


# ------------------------------------------------------------------ Takami Shibuya

TAKAMI_READY = "23m456p789s11z555z"   # ready on 1m / 4m (haku triplet: a yaku)


def takami_takes_back_her_winning_tile(card):
    # she deals, draws 1m and throws it (furiten: a tsumo is still a win); at her next draw
    # she takes it back from her pond: it completes 123m
    draws = "1m" + "2s3s4s" + "6s" + spare_tiles(20, TAKAMI_READY, "1m2s3s4s6s",
                                                  avoid="1m4m")
    start = scenario_start([TAKAMI_READY, "", "", ""], draws=draws)
    takami = Steps(["1m", "tsumo"], steps=[("draw", "1m")])
    rec, agents, state = wall_play(start, [takami, [], [], []],
                                   [CardAbility(card, 0), None, None, None])
    return rec, takami


def test_takami_wins_by_tsumo_on_a_tile_taken_back() -> None:
    # card takami_shibuya, reading taken_tile_tsumo = "allowed" (the default)
    rec, takami = takami_takes_back_her_winning_tile(CATALOG.card("takami_shibuya"))
    assert [e.payload for e in ability_events(rec, AbilityTag.FROM_POND)] == [0]  # P0's pond
    assert rec.wins and rec.wins[0].seat == 0 and rec.wins[0].from_seat == 0


def test_takami_forbidden_reading_no_tsumo_on_a_tile_taken_back() -> None:
    # card takami_shibuya, reading taken_tile_tsumo = "forbidden": no tsumo is offered
    card = with_reading("takami_shibuya", "draw", "taken_tile_tsumo", "forbidden")
    rec, takami = takami_takes_back_her_winning_tile(card)
    events = [e for e in rec.events if e.seat == 0]
    took = next(i for i, e in enumerate(events) if e.tag is AbilityTag.FROM_POND)
    assert [e.kind for e in events[took + 1:took + 3]] == ["draw", "discard"]
    assert events[took + 2].tile // 4 != events[took + 1].tile // 4  # another type


# ------------------------------------------------------------------ Yuuko Mase


def test_yuuko_restriction_lifts_with_her_ability_by_default() -> None:
    # card yuuko_mase, reading switched_off = "restriction_lifts": nothing of her card is left
    # while Megan's duel switches it off, so her pon is offered
    start = scenario_start(["", "55z147m258p369s1z", "5z", ""], draws="1z2z", dora="9s")
    abilities = [CardAbility(CATALOG.card("megan_davin"), 0),
                 CardAbility(CATALOG.card("yuuko_mase"), 1), None, None]
    rec, agents, _ = duel_play(start, [Naming(1), [], ["5z"], []], abilities)
    assert ("megan_davin", AbilityTag.SWITCHED_OFF, 1) in [(e.card, e.tag, e.payload)
                                                          for e in rec.events]
    assert any(a.kind == ActionKind.PON for o in agents[1].offers for a in o)


def test_yuuko_restriction_stays_reading_keeps_her_from_calling_pon() -> None:
    # card yuuko_mase, reading switched_off = "restriction_stays": while switched off she
    # still may not pon
    card = with_reading("yuuko_mase", "wrap", "switched_off", "restriction_stays")
    start = scenario_start(["", "55z147m258p369s1z", "5z", ""], draws="1z2z", dora="9s")
    abilities = [CardAbility(CATALOG.card("megan_davin"), 0), CardAbility(card, 1), None,
                 None]
    rec, agents, _ = duel_play(start, [Naming(1), [], ["5z"], []], abilities)
    assert ("megan_davin", AbilityTag.SWITCHED_OFF, 1) in [(e.card, e.tag, e.payload)
                                                          for e in rec.events]
    assert not any(a.kind == ActionKind.PON for o in agents[1].offers for a in o)
    assert CardAbility(card, 1).while_switched_off() is not None
    assert CardAbility(CATALOG.card("yuuko_mase"), 1).while_switched_off() is None


# ------------------------------------------------------------------ Touka Ryuumonbuchi


def test_touka_limit_step_only_as_the_real_dealer_by_default() -> None:
    # card touka_ryuumonbuchi, reading limit_step: a non-dealer riichi mangan (riichi, pinfu,
    # 9p pair and 4s as dora: 5 han) is paid as a dealer mangan, 12,000; "also_scored_as_dealer"
    # pays it one rank higher too, as a dealer haneman (18,000)
    from tests.support.scoring_ctx import PINFU, ctx_of, scored

    ctx = ctx_of(*PINFU, riichi=True, dora="8p3s")
    assert score_win(ctx, RULES).ron_points == 8000
    touka = CardAbility(CATALOG.card("touka_ryuumonbuchi"), 1)
    assert scored(touka, ctx).ron_points == 12000
    chained = CardAbility(with_reading("touka_ryuumonbuchi", "dealer", "limit_step",
                                       "also_scored_as_dealer"), 1)
    assert scored(chained, ctx).ron_points == 18000


# ------------------------------------------------------------------ Nelly Virsaladze


def test_nelly_sweeps_an_abortive_draw_unless_read_exhaustive_only() -> None:
    # card nelly_virsaladze, reading draws: "any_draw" (default) sweeps nine terminals too;
    # "exhaustive_only" does not
    from tests.support.payment_play import deltas
    from tests.support.payment_play import play as pay_play

    nine = "19m19p19s1234567z"
    exhaustive_only = with_reading("nelly_virsaladze", "sweep", "draws", "exhaustive_only")
    for card, swept in ((CATALOG.card("nelly_virsaladze"), True), (exhaustive_only, False)):
        rec, _, _ = pay_play([nine, "", "", ""], cards={1: card}, scripts=[["nine"]],
                             sticks=1)
        assert rec.draw_kind == "nine_terminals", rec.draw_kind
        assert (deltas(rec) == [-1000, 1000 + 3000, -1000, -1000]) is swept
