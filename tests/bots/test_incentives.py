"""Tile incentives: what a card's text rewards or punishes in its holder's tile choices, declared
by its effects (``pipeline/cards/incentives.py``) and read by the heuristic bot's discard and
riichi evaluation, which never names a card.

Each card's incentive is checked in a position built tile by tile (the scenario helpers of
``tests/bots/test_bot_judgment.py``): the same position decided by a seat with no character and by
the card's holder, whose incentive makes the difference.
"""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot, Sight, _guarded, incentive_keeps
from pipeline.bots.pick import card_incentives, default_view
from pipeline.cards.abilities import CardAbility
from pipeline.cards.effects.flip_card import FlipAbility
from pipeline.cards.incentives import NO_WORTH, TileIncentives, combine, worth_of
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ActionKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.hooks import PickView
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.tiles import RED_FIVE_IDS, parse_tiles, parse_types
from tests.support.awai import AWAI, CATALOG
from tests.support.awai import PRESET as AWAI_PRESET
from tests.support.bot_moments import PRESET as JUDGMENT_PRESET
from tests.support.bot_moments import (
    RIICHI_HAND,
    Probe,
    Reached,
    engine_legal,
    offered,
    on_claim,
    own_turn,
    reach,
    tile_is,
)


def decide_as(card: str | None, state: HandState, seat: int, legal: list[Action],
              view: PickView | None = None, seed: int = 0) -> Action:
    """The heuristic bot's choice for ``seat`` holding ``card`` (None: no character)."""
    assert legal == engine_legal(state, seat)
    bot = HeuristicBot(seed)
    if card is not None:
        bot.incentives = card_incentives(card, view)
    choice = bot.decide(Observation(state, seat), legal)
    assert choice in legal
    return choice


def spent(*kinds: str) -> PickView:
    view = default_view()
    return PickView(seat=view.seat, dealer=view.dealer, scores=view.scores,
                    spent=frozenset(kinds))


# ----------------------------------------------------------------------------- declarations


def test_kuro_declares_doubled_dora_and_the_guard_until_her_dora_are_lost() -> None:
    # card kuro_matsumi, C-22 Kuro: each dora gives her 2 han; a known dora discarded outside
    # riichi makes all dora worth 0 han to her for the rest of the match
    inc = card_incentives("kuro_matsumi")
    assert inc is not None and inc.dora_weight == 2.0 and inc.dora_guard
    lost = card_incentives("kuro_matsumi", spent("dora_multiplier"))
    assert lost is not None and lost.dora_weight == 0.0 and not lost.dora_guard


def test_hao_declares_her_dora_worth_nothing() -> None:
    # card huiyu_hao: she ignores dora
    inc = card_incentives("huiyu_hao")
    assert inc is not None and inc.dora_weight == 0.0 and not inc.dora_guard


def test_a_card_without_incentives_declares_none() -> None:
    assert card_incentives("saki_miyanaga") is None
    assert card_incentives("no_such_card") is None


def test_combined_incentives_multiply_dora_and_add_worths() -> None:
    a = TileIncentives(dora_weight=2.0, keep=worth_of([1], 1.0))
    b = TileIncentives(dora_weight=0.5, dora_guard=True, keep=worth_of([1, 2], -0.5))
    both = combine([a, None, b])
    assert both is not None and both.dora_weight == 1.0 and both.dora_guard
    assert both.keep[1] == 0.5 and both.keep[2] == -0.5 and both.keep[3] == 0.0
    assert combine([None, None]) is None and combine([a]) is a


def test_a_keep_table_needs_every_tile_type() -> None:
    try:
        TileIncentives(keep=(0.0,) * 3)
    except ValueError as exc:
        assert "34" in str(exc)
    else:
        raise AssertionError("a short keep table was accepted")


def test_incentive_keeps_weigh_dora_by_the_cards_count() -> None:
    dora = parse_types("1z")
    counts = [0] * 34
    counts[dora[0]] = 1
    counts[9] = 1
    keeps = {dora[0]: 3.0, 9: 0.0}
    kuro = incentive_keeps(TileIncentives(dora_weight=2.0), keeps, 1.0, counts, dora, [], set())
    hao = incentive_keeps(TileIncentives(dora_weight=0.0), keeps, 1.0, counts, dora, [], set())
    assert kuro == {dora[0]: 6.0, 9: 0.0} and hao == {dora[0]: 0.0, 9: 0.0}
    assert keeps == {dora[0]: 3.0, 9: 0.0}  # a new dict: the ordinary keeps are left alone
    plain = incentive_keeps(TileIncentives(), keeps, 1.0, counts, dora, [], set())
    assert plain == keeps and TileIncentives().keep == NO_WORTH


# ----------------------------------------------------------------------------- Kuro's guard

# P0 deals: 123m 456p 789s 23s 66s, ready on 1s/4s, and draws the East, the dora (indicator
# North). Only the East keeps the hand ready, so with no character it goes (with riichi); Kuro
# would lose her dora for the match by that discard, so the guard lets another tile go
# instead, and no riichi is declared on the East.
READY = "123m456p789s23s66s"


def test_kuro_never_discards_a_known_dora_outside_riichi_while_another_discard_is_legal() -> None:
    # card kuro_matsumi, C-22 Kuro
    state, legal = reach([READY, "", "", ""], "1z", [], 0, own_turn(), dora="4z")
    plain = decide_as(None, state, 0, legal)
    assert tile_is(plain, "1z")
    kuro = decide_as("kuro_matsumi", state, 0, legal)
    assert kuro.kind in (ActionKind.DISCARD, ActionKind.RIICHI) and not tile_is(kuro, "1z")
    # once her dora are lost for the match the East is worth nothing to her: it goes again
    lost = decide_as("kuro_matsumi", state, 0, legal, spent("dora_multiplier"))
    assert tile_is(lost, "1z")


def test_kuro_keeps_a_red_five_and_lets_a_plain_copy_go() -> None:
    # card kuro_matsumi, C-22 Kuro: a red five is a known dora; of two fives the plain one goes
    hand = "123m456p789s22s0m"
    state, legal = reach([hand, "", "", ""], "5m", [], 0, own_turn(), dora="4z")
    held = state.players[0].concealed
    assert RED_FIVE_IDS[0] in held
    kuro = decide_as("kuro_matsumi", state, 0, legal)
    assert kuro.tile != RED_FIVE_IDS[0]


def test_the_guard_gives_way_when_every_discard_is_a_dora() -> None:
    dora = parse_types("1z")
    only = [Action(ActionKind.DISCARD, 0, tile=t) for t in parse_tiles("11z")]
    assert _guarded(only, dora) is only
    mixed = [*only, Action(ActionKind.DISCARD, 0, tile=parse_tiles("9m")[0])]
    assert [a.tile // 4 for a in _guarded(mixed, dora)] == parse_types("9m")
    red = [Action(ActionKind.DISCARD, 0, tile=RED_FIVE_IDS[0]), mixed[-1]]
    assert _guarded(red, dora) == [mixed[-1]]


# ----------------------------------------------------------------------------- Hao's dora

# P0 deals a hand two steps from tenpai with lone tiles, among them 9p and the South, the dora
# (indicator East), a guest wind for the dealer. With no character the dora is kept and the
# 9p goes; to Hao the dora is worth nothing, so the lone guest wind goes first.
FAR = "123m456p78s2m5m6m9p1s"


def test_hao_lets_a_dora_go_that_she_cannot_score() -> None:
    # card huiyu_hao: she ignores dora
    state, legal = reach([FAR, "", "", ""], "2z", [], 0, own_turn(), dora="1z")
    assert tile_is(decide_as(None, state, 0, legal), "9p")
    assert tile_is(decide_as("huiyu_hao", state, 0, legal), "2z")


def test_shiromi_keeps_the_tile_before_an_indicator_as_a_dora_while_closed() -> None:
    # card shiromi_kosegawa: with a closed hand the tile before each indicator is a dora too.
    # The indicator is the West: the South before it is a lone guest wind that goes first with
    # no character; to Shiromi it is a dora, kept, and the 9p goes
    state, legal = reach([FAR, "", "", ""], "2z", [], 0, own_turn(), dora="3z")
    assert tile_is(decide_as(None, state, 0, legal), "2z")
    assert tile_is(decide_as("shiromi_kosegawa", state, 0, legal), "9p")
    inc = card_incentives("shiromi_kosegawa")
    assert inc is not None and inc.closed_dora_before


# ----------------------------------------------------------------------------- paired replays


def test_a_bot_with_incentives_plays_for_its_ability_and_forgets_them_without_it() -> None:
    bot = HeuristicBot(0)
    bot.pick(tuple(parse_tiles(READY + "1z")), ("kuro_matsumi",))
    assert bot.incentives is not None and bot.plays_for_ability()
    bot.play_without_ability()
    assert bot.incentives is None and not bot.plays_for_ability()


# ----------------------------------------------------------------------------- Ryuuka's riichi

RIICHI_CHUN = frozenset({"Riichi", "Yakuhai (chun)"})


def declared_decision(hand: str, declared: frozenset[str]) -> Action:
    """P0's first decision (drawing a useless 9m) with ``declared`` made and its honors kept,
    as the bot notes a declaration (``Move.DECLARE``)."""
    state, legal = reach([hand, "", "", ""], "9m", [], 0, own_turn(), dora="4z")
    assert any(a.kind == ActionKind.RIICHI for a in legal)
    bot = HeuristicBot(0)
    bot.declared = declared
    bot.keep = frozenset(parse_types("7z")) if "Yakuhai (chun)" in declared else frozenset()
    choice = bot.decide(Observation(state, 0), legal)
    assert choice in legal and tile_is(choice, "9m")
    return choice


def test_ryuuka_declines_a_riichi_that_locks_her_declared_yakuhai_out() -> None:
    # card ryuuka_shimizudani, C-22 Ryuuka: her win needs every declared yaku. Ready on 1p/4p
    # with the chun as the pair: riichi now would lock the pair, and a third chun could only be
    # discarded, so with riichi + chun declared she stays dama until the chun is a set; with
    # riichi alone declared the same hand declares riichi at once
    pair = "77z234m567p345s23p"
    assert declared_decision(pair, RIICHI_CHUN).kind == ActionKind.DISCARD
    assert declared_decision(pair, frozenset({"Riichi"})).kind == ActionKind.RIICHI


def test_ryuuka_declares_riichi_once_the_yakuhai_is_a_set_or_one_of_the_waits() -> None:
    # card ryuuka_shimizudani: a chun triplet, or a chun pair in a shanpon wait (her win on the
    # chun holds the yakuhai), makes the locked hand able to win with every declared yaku
    assert declared_decision("777z234m567p345s2p", RIICHI_CHUN).kind == ActionKind.RIICHI
    assert declared_decision("77z234m567p345s11p", RIICHI_CHUN).kind == ActionKind.RIICHI


# ----------------------------------------------------------------------------- tile worths

# P0 deals four sets and two lone tiles and draws the second: either lone tile goes and the
# other is a single wait on three unseen copies, so only a card's incentive tells them apart.
FOUR_SETS = "123m456p789s567m"


def first_choice(hand: str, draw: str, card: str | None) -> Action:
    state, legal = reach([hand, "", "", ""], draw, [], 0, own_turn(), dora="3z")
    return decide_as(card, state, 0, legal)


def test_haru_lets_a_2_or_8_go_first_for_her_extra_turn() -> None:
    # card haru_takimi: discarding a 2 or an 8 gives her an extra turn, and a hand of 3-7 tiles
    # only gives +1 han: of a lone 9p and a lone 2s the 2s goes (the 9p with no character)
    assert tile_is(first_choice(FOUR_SETS[:-4] + "567m9p", "2s", None), "9p")
    assert tile_is(first_choice(FOUR_SETS[:-4] + "567m9p", "2s", "haru_takimi"), "2s")


def test_tomoe_keeps_her_white_dragon_as_an_ordinary_seat_would() -> None:
    # card tomoe_karijuku: a white dragon discarded earns her an extra turn, but the white
    # dragon also wins for her in riichi and gives 2 han drawn: no incentive either way (shedding
    # it first measured worse), so the lone guest wind (West) goes and the white dragon stays
    assert card_incentives("tomoe_karijuku") is None
    assert tile_is(first_choice(FOUR_SETS + "5z", "3z", "tomoe_karijuku"), "3z")


def test_arata_keeps_a_pinzu_tile_for_her_count() -> None:
    # card arata_sagimori: +1/2/3 han for 6/9/11 pinzu tiles; of a lone 1p and a lone East the
    # East goes (the 1p with no character)
    hand = "123m456s789s567m1p"
    assert tile_is(first_choice(hand, "1z", None), "1p")
    assert tile_is(first_choice(hand, "1z", "arata_sagimori"), "1z")


def test_yuu_keeps_a_warm_tile_for_her_count() -> None:
    # card yuu_matsumi: +1..4 han for 9..14 warm tiles (red paint: every manzu tile); of a
    # lone 1m and a lone 4p (green and blue) the 4p goes (the 1m with no character)
    hand = "234s678s111z222z1m"
    assert tile_is(first_choice(hand, "4p", None), "1m")
    assert tile_is(first_choice(hand, "4p", "yuu_matsumi"), "4p")


def test_yoshiko_keeps_the_last_tile_of_a_family_for_uumensai() -> None:
    # card yoshiko_kainou: uumensai needs all five families; the lone East is her only wind
    # (the green dragon has the white triplet beside it): the green dragon goes (the East with
    # no character)
    hand = "123m456p789s555z1z"
    assert tile_is(first_choice(hand, "6z", None), "1z")
    assert tile_is(first_choice(hand, "6z", "yoshiko_kainou"), "6z")


def test_yuuko_discards_a_type_already_in_her_pond_towards_a_triple() -> None:
    # card yuuko_mase: 1 han per three identical tiles in her discards; P0 discarded an East on
    # her first turn and draws another: of it and a lone 9p (two copies of each unseen, one 9p
    # the dora indicator) the East goes again (the 9p with no character)
    hand = "123m456p789s567m9p"
    draws = "1z" + spare_tiles(3, hand, "1z1z9p", avoid="1z9p") + "1z"

    def choice(card: str | None) -> Action:
        state, legal = reach([hand, "", "", ""], draws, [["1z"]], 0, own_turn(1), dora="9p")
        return decide_as(card, state, 0, legal)

    assert tile_is(choice(None), "9p")
    assert tile_is(choice("yuuko_mase"), "1z")


def test_kurumi_counts_a_repeated_type_as_safe_against_a_riichi() -> None:
    # card kurumi_kakura: her discard of a type already lying in her pond can be neither called
    # nor ronned. P0 discarded 5s before P1's riichi and draws another 5s; her single wait
    # stays on two unseen copies either way (one 9p is the dora indicator): with no character
    # the 5s is the more dangerous tile and the 9p goes; to Kurumi the 5s cannot deal in, and
    # it goes
    hand = "123m456p789s567m9p"
    draws = "5s" + "4s" + spare_tiles(2, hand, RIICHI_HAND, "5s4s5s9p", avoid="5s9p") + "5s"

    def choice(card: str | None) -> Action:
        state, legal = reach([hand, RIICHI_HAND, "", ""], draws, [["5s"], ["riichi 4s"]], 0,
                             own_turn(1), dora="9p")
        assert state.players[1].riichi
        return decide_as(card, state, 0, legal)

    assert tile_is(choice(None), "9p")
    assert tile_is(choice("kurumi_kakura"), "5s")


def test_declared_worths_by_card() -> None:
    # the tiles each card's text rewards (keep > 0) or punishes (keep < 0)
    haru = card_incentives("haru_takimi")
    assert haru is not None
    two, three, eight = parse_types("2m")[0], parse_types("3m")[0], parse_types("8s")[0]
    assert haru.keep[two] < haru.keep[parse_types("1m")[0]] < 0 == haru.keep[three]
    assert haru.keep[eight] == haru.keep[two] and haru.keep[parse_types("7z")[0]] < 0
    arata = card_incentives("arata_sagimori")
    assert arata is not None and all(arata.keep[t] > 0 for t in range(9, 18))
    assert sum(1 for w in arata.keep if w) == 9
    yuu = card_incentives("yuu_matsumi")
    assert yuu is not None and yuu.keep[parse_types("7z")[0]] > 0 == yuu.keep[parse_types("4p")[0]]
    for card, safe, repeat in (("kurumi_kakura", True, True), ("yuuko_mase", False, True)):
        inc = card_incentives(card)
        assert inc is not None and inc.repeat_safe is safe and (inc.repeat_worth < 0) is repeat
    yoshiko = card_incentives("yoshiko_kainou")
    assert yoshiko is not None and yoshiko.last_of_family > 0
    assert card_incentives("toyone_anetai") is None  # her local yaku needs no family


# ----------------------------------------------------------------------------- calls

# P1 may chi P0's 4p with 23p: an all-simples hand three steps from tenpai goes to two, and its
# 6s is the dora (indicator 5s). Two steps away a call needs 2 han: all simples and the dora.
CALL_HAND = "23p678p56s24m8m2s8s6p"


def call_situation() -> tuple[HandState, list[Action]]:
    state, legal = reach(["4p", CALL_HAND, "", ""], "1z", [["4p"]], 1, on_claim, dora="5s")
    assert ActionKind.CHI in {a.kind for a in legal}
    return state, legal


def test_hao_passes_a_call_worth_only_a_dora_she_cannot_score() -> None:
    # card huiyu_hao: she ignores dora, so the chi shows her 1 han (all simples), too little
    # for a hand two steps away; with no character the dora makes it 2 han and the chi is taken
    state, legal = call_situation()
    assert decide_as(None, state, 1, legal).kind == ActionKind.CHI
    assert decide_as("huiyu_hao", state, 1, legal).kind == ActionKind.PASS
    assert decide_as("kuro_matsumi", state, 1, legal).kind == ActionKind.CHI


def test_shiromi_passes_a_call_that_gives_up_her_closed_hand_dora() -> None:
    # card shiromi_kosegawa: with a closed hand the tile before each indicator (4s before 5s)
    # is a dora to her; holding one, the chi costs her that han, which leaves it 1 han net
    hand = "23p678p4s6s24m8m2s8s6p"  # the same steps, with a lone 4s beside the dora
    state, legal = reach(["4p", hand, "", ""], "1z", [["4p"]], 1, on_claim, dora="5s")
    assert decide_as(None, state, 1, legal).kind == ActionKind.CHI
    assert decide_as("shiromi_kosegawa", state, 1, legal).kind == ActionKind.PASS


def test_mako_takes_a_flush_call_that_keeps_its_closed_han_for_her() -> None:
    # card mako_someya: her open flush keeps its closed han, and a souzu call earns her an
    # extra turn. P1 may chi P0's 4s with 23s (or 35s): a souzu and honors hand three steps
    # from tenpai goes to two. Open, an ordinary half flush shows 1 han and a dragon pair
    # little more, too little two steps away; to her the flush is worth 2 han, and the call a
    # free draw
    hand = "23s58s9s33z44z5677z"
    state, legal = reach(["4s", hand, "", ""], "1z", [["4s"]], 1, on_claim, dora="9m")
    assert decide_as(None, state, 1, legal).kind == ActionKind.PASS
    assert decide_as("mako_someya", state, 1, legal).kind == ActionKind.CHI
    inc = card_incentives("mako_someya")
    assert inc is not None and inc.open_full_han
    assert inc.call_worth[parse_types("4s")[0]] > 0 and inc.call_worth[parse_types("4p")[0]] == 0


def test_awai_takes_the_kan_on_a_discard_her_riichi_allows() -> None:
    # card awai_oohoshi, C-22 Awai: in riichi she may declare a kan on another player's discard
    # that leaves her wait unchanged (6p-9p with or without the 555s); offered, she takes it,
    # where the ordinary rule (no kan on a discard with a closed hand) would pass
    start = scenario_start(["", "555s123m456p78p11z", "", ""], draws="4z2z3z4z5s1m2m3m",
                           dealer=0, dora="6z")
    probe = Probe(["riichi 2z"], offered(ActionKind.MINKAN))
    seats = [None, CardAbility(CATALOG.card(AWAI), 1), None, None]
    state = HandState(start, AWAI_PRESET, [ScriptAgent(), probe, ScriptAgent(), ScriptAgent()],
                      seats)
    try:
        state.play()
    except Reached as stop:
        legal = stop.legal
    else:
        raise AssertionError("the kan in riichi was never offered")
    assert state.players[1].riichi
    obs = Observation(state, 1)
    assert HeuristicBot(0).decide(obs, legal).kind == ActionKind.PASS
    awai = HeuristicBot(0)
    awai.incentives = card_incentives(AWAI)
    assert awai.decide(obs, legal).kind == ActionKind.MINKAN


# ----------------------------------------------------------------------------- Satoha's swap


def wall_swap(indicator: str) -> Action:
    """Satoha's peek (card satoha_tsujigaito): P1, two steps from tenpai with 23m 456p 789s 68p
    and lone 5s, East and 9m, sees the next wall tile, a 7p, while P0 is on its turn; each of
    her types is offered for it. Any of the three lone tiles takes her a step closer (678p);
    the one she hands on is drawn next by another seat."""
    state, _ = reach(["", "23m456p789s5s68p1z9m", "", ""], "1z", [], 0, own_turn(),
                     dora=indicator)
    seen = {*state.players[0].concealed, *state.players[1].concealed,
            *state.wall.dora_indicators}
    seven = next(x for x in range(4 * parse_types("7p")[0], 4 * parse_types("7p")[0] + 4)
                 if x not in seen)
    held: dict[int, int] = {}
    for x in state.players[1].concealed:
        held.setdefault(x // 4, x)
    legal = [ability_action(1, "satoha_tsujigaito", Move.SWAP_WALL, x, tiles=(seven,))
             for x in held.values()]
    choice = HeuristicBot(0).decide(Observation(state, 1), [*legal, Action(ActionKind.PASS, 1)])
    assert choice.kind == ActionKind.ABILITY and choice.tiles == (seven,)
    return choice


def test_satohas_swap_hands_on_no_dora_when_another_tile_does_as_well() -> None:
    # card satoha_tsujigaito: without the 5s the hand accepts the most, so it goes; once it is
    # the dora (indicator 4s) the next drawer would get it, and the East or the 9m goes instead
    assert tile_is(wall_swap("2z"), "5s")
    handed = wall_swap("4s")
    assert tile_is(handed, "1z") or tile_is(handed, "9m")


# ----------------------------------------------------------------------------- Kei's payments

# P1 is ready on the East and the South (RIICHI_HAND) and declares riichi on its first turn; P0
# discarded a 9m, holds 123m 456p 55s 67s with a lone East and 2p, and draws the South.


def kei_choice(card: str | None) -> Action:
    hand = "123m456p55s67s1z2p"
    draws = "9m" + "4s" + spare_tiles(2, hand, RIICHI_HAND, "9m4s2z", avoid="2z") + "2z"
    state, legal = reach([hand, RIICHI_HAND, "", ""], draws, [["9m"], ["riichi 4s"]], 0,
                         own_turn(1), dora="9p")
    assert state.players[1].riichi
    return decide_as(card, state, 0, legal)


def test_kei_declares_what_a_winners_tile_in_her_hand_pays_her() -> None:
    # card kei_arakawa: when another player wins, that player pays her 1,000 for each of their
    # winning tiles in her hand
    inc = card_incentives("kei_arakawa")
    assert inc is not None and inc.held_wait_points == 1000.0


def test_kei_keeps_a_tile_the_riichi_may_wait_on() -> None:
    # card kei_arakawa: with no character the South goes (the hand pushes on); to Kei the South
    # is also a tile P1 may win on, worth 1,000 to her in her hand if P1 wins, so she lets a
    # tile of her 123m go instead
    assert tile_is(kei_choice(None), "2z")
    assert tile_is(kei_choice("kei_arakawa"), "1m")


def test_the_wait_chance_is_the_danger_per_point_of_each_threat() -> None:
    # what Kei's incentive weighs: the chance a tile is among the threats' waits, as the
    # danger of dealing in weighs it (for one riichi, the danger divided by its value)
    hand = "123m456p55s67s1z2p"
    draws = "9m" + "4s" + spare_tiles(2, hand, RIICHI_HAND, "9m4s2z", avoid="2z") + "2z"
    state, _ = reach([hand, RIICHI_HAND, "", ""], draws, [["9m"], ["riichi 4s"]], 0,
                     own_turn(1), dora="9p")
    bot = HeuristicBot(0)
    obs = Observation(state, 0)
    threats = bot._threats(obs)
    assert len(threats) == 1 and threats[0].weight == 1.0
    visible = Sight(obs).visible
    for text in ("2z", "1m", "5s", "4s"):
        t = parse_types(text)[0]
        chance = bot._wait_chance(t, threats, visible)
        assert 0.0 <= chance <= 1.0
        assert abs(chance * threats[0].value - bot._danger(t, threats, visible)) < 1e-6
    assert bot._wait_chance(parse_types("4s")[0], threats, visible) == 0.0  # genbutsu


# ----------------------------------------------------------------------------- Himeko's turn

# P0 (Mairu's card) discarded a 1p, holds 123m 456p 789s 567m and a lone 9p, and draws the East:
# either lone tile leaves her ready on three unseen copies of the other.


def two_sided_choice(back_up: bool) -> tuple[Action, Action]:
    """P0's discard with no character and with Mairu's card, whose side lying face up is
    set as a right guess (or a flip back) would set it."""
    hand = "123m456p789s567m9p"
    draws = "1p" + spare_tiles(3, hand, "1p1z", avoid="1p9p1z") + "1z"
    card = FlipAbility(CardAbility(CATALOG.card("mairu_shirouzu"), 0),
                       CardAbility(CATALOG.card("himeko_tsuruta"), 0))
    probe = Probe(["1p"], lambda obs, legal: own_turn(1)(obs, legal)
                  and legal[0].kind == ActionKind.DISCARD)
    state = HandState(scenario_start([hand, "", "", ""], draws, dealer=0, dora="3z"),
                      JUDGMENT_PRESET, [probe, ScriptAgent(), ScriptAgent(), ScriptAgent()],
                      [card, None, None, None])
    try:
        state.play()
    except Reached as stop:
        legal = stop.legal
    else:
        raise AssertionError("P0 never reached its second discard")
    card.up = 1 if back_up else 0
    obs = Observation(state, 0)
    assert obs.cards_up(0) == {"himeko_tsuruta" if back_up else "mairu_shirouzu"}
    bot = HeuristicBot(0)
    bot.play_as("mairu_shirouzu")
    return HeuristicBot(0).decide(obs, legal), bot.decide(obs, legal)


def test_himeko_lets_a_new_family_go_first_for_her_extra_turn() -> None:
    # card himeko_tsuruta: when she discards a family not yet visible in her discards she gets
    # an extra turn. Her pond shows pinzu: the East (honors) earns the turn, the 9p does not;
    # with no character the 9p goes (the lower of two equal tiles)
    plain, himeko = two_sided_choice(back_up=True)
    assert tile_is(plain, "9p") and tile_is(himeko, "1z")


def test_mairus_side_up_plays_no_new_family_worth() -> None:
    # card mairu_shirouzu: the front earns nothing by a new family; the bot reads the side
    # lying face up (public), never the card's name
    plain, mairu = two_sided_choice(back_up=False)
    assert tile_is(plain, "9p") and tile_is(mairu, "9p")
    assert card_incentives("mairu_shirouzu") is None
    back = card_incentives("himeko_tsuruta")
    assert back is not None and back.new_family_worth < 0


def test_a_two_sided_cards_sides_are_forgotten_without_the_ability() -> None:
    bot = HeuristicBot(0)
    bot.play_as("mairu_shirouzu")
    assert [card for card, _ in bot.sides] == ["mairu_shirouzu", "himeko_tsuruta"]
    assert bot.plays_for_ability()
    bot.play_without_ability()
    assert bot.sides == () and bot.incentives is None and not bot.plays_for_ability()
