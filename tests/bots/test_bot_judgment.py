"""Judgment of the heuristic bot in constructed positions.

Each position is laid out tile by tile with :func:`scenario_start` and played by scripted seats
up to the moment of decision; there the engine's own legal list (``self_actions`` on the seat's
turn, ``claim_actions`` plus PASS on a discard) goes to ``HeuristicBot.decide``. Rules the
engine enforces before the bot is asked are cited: H-03 (a win needs a yaku), H-07 (kuikae),
H-09 (furiten), M-04 (nine terminals).

Seats: P0 deals and draws ``draws[0]``; then one draw per seat in turn order.
"""

from __future__ import annotations

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.pick import effect_kinds
from pipeline.bots.shanten import shanten
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agari import is_complete, winning_types
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.scenario import spare_tiles
from pipeline.tiles import counts34, parse_tiles, parse_types
from tests.support.bot_moments import (
    BIG_TENPAI,
    RIICHI_HAND,
    decide,
    engine_legal,
    is_type,
    offered,
    on_claim,
    own_turn,
    reach,
    tile_is,
)


def kinds(legal: list[Action]) -> set[ActionKind]:
    return {a.kind for a in legal}


def hand_shanten(state: HandState, seat: int) -> int:
    p = state.players[seat]
    return shanten(counts34(p.concealed), len(p.melds))


# ----------------------------------------------------------------------------- wins

# Tanyao ready on 2p/5p.
WAIT_25P = "234m678m222s34p88s"


def test_takes_a_ron_when_offered() -> None:
    state, legal = reach(["5p", WAIT_25P, "", ""], "1z", [["5p"]], 1, on_claim)
    assert ActionKind.RON in kinds(legal) and ActionKind.CHI in kinds(legal)
    assert decide(state, 1, legal).kind == ActionKind.RON


def test_takes_a_tsumo() -> None:
    draws = spare_tiles(5, WAIT_25P, avoid="25p") + "5p"  # P1's second draw wins
    state, legal = reach(["", WAIT_25P, "", ""], draws, [], 1, offered(ActionKind.TSUMO))
    assert len(state.players[1].discards) == 1
    assert decide(state, 1, legal).kind == ActionKind.TSUMO


def test_h09_furiten_hand_is_offered_no_ron_but_takes_its_tsumo() -> None:
    # P1 declines a tsumo on 5p and discards it: furiten on 2p/5p (rule H-09), so P2's 2p is no
    # ron for P1 (the engine does not ask); the next 5p P1 draws is a tsumo it takes.
    pad = spare_tiles(2, WAIT_25P, "5p2p5p", avoid="25p")
    draws = "1z" + "5p" + "2p" + pad + "5p"
    state, legal = reach(["", WAIT_25P, "", ""], draws, [(), ["5p"], ["2p"]], 1,
                         lambda obs, legal: (ActionKind.TSUMO in kinds(legal)
                                             and len(obs.pond(1)) == 1))
    p1 = state.players[1]
    ready = [x for x in p1.concealed if x != p1.drawn]
    assert winning_types(counts34(ready)) == frozenset(parse_types("25p"))
    assert p1.discard_furiten(frozenset(parse_types("25p")))
    assert any(e.kind == "discard" and e.seat == 2 and is_type(e.tile, "2p")
               for e in state.events)
    assert not state.agents[1].was_offered(ActionKind.RON)
    assert decide(state, 1, legal).kind == ActionKind.TSUMO


# ----------------------------------------------------------------------------- push and fold

# P2 after P1's riichi on 4s: two steps from tenpai (123m, 79m, 55p, 34s, 68s) and cheap (no
# dora, no tanyao, no value pair); 4s is genbutsu but part of the 34s shape, while 2p, 8p and
# the drawn North are loose and keep the hand two steps away.
FAR_CHEAP = "123m79m55p34s68s2p8p"


@pytest.mark.parametrize("p1_script", [["riichi 4s"], ["4s"]], ids=["riichi", "no-riichi"])
def test_folds_with_genbutsu_when_far_from_tenpai(p1_script: list[str]) -> None:
    state, legal = reach(["", RIICHI_HAND, FAR_CHEAP, ""], "1z" + "4s" + "4z",
                         [(), p1_script], 2, own_turn(), dora="7z")
    assert hand_shanten(state, 2) == 2
    choice = decide(state, 2, legal)
    assert choice.kind == ActionKind.DISCARD
    if state.players[1].riichi:
        assert tile_is(choice, "4s")  # the only tile that cannot deal in
    else:
        assert not tile_is(choice, "4s")  # with no threat the shape is kept


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pushes_an_unsafe_tile_to_keep_a_big_tenpai(seed: int) -> None:
    state, legal = reach(["", RIICHI_HAND, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                         [(), ["riichi 6p"]], 2, own_turn(), dora="4m")
    assert state.players[1].riichi
    assert any(a.kind == ActionKind.DISCARD and tile_is(a, "6p") for a in legal)
    choice = decide(state, 2, legal, seed)
    assert choice.kind in (ActionKind.DISCARD, ActionKind.RIICHI)
    assert tile_is(choice, "8m")


# ----------------------------------------------------------------------------- riichi and waits


def test_declares_riichi_on_an_early_two_sided_wait() -> None:
    # P0 draws 4p on its second turn: 234m 567p 22s 678s 34p waits on 2p/5p; 9m goes.
    hand = "234m567p22s678s3p9m"
    draws = "1z" + spare_tiles(3, hand, "1z4p", avoid="25p") + "4p"
    state, legal = reach([hand, "", "", ""], draws, [], 0, own_turn(1))
    assert state.wall.live_left > 60
    choice = decide(state, 0, legal)
    assert choice.kind == ActionKind.RIICHI and tile_is(choice, "9m")


@pytest.mark.parametrize(("hand", "riichi"), [("234m567p22s678s3p9m", False),
                                               ("234m567p11s678s3p9m", True)],
                         ids=["tanyao-dama", "no-yaku-riichi"])
def test_a_character_whose_damaten_pays_stays_dama_only_with_a_yaku(hand: str,
                                                                    riichi: bool) -> None:
    # Hiroe Atago (dama_protection): the early two-sided wait above. With all simples the hand
    # has a yaku without riichi, so her bot stays dama; with a pair of 1s it has none: riichi
    draws = "1z" + spare_tiles(3, hand, "1z4p", avoid="25p") + "4p"
    state, legal = reach([hand, "", "", ""], draws, [], 0, own_turn(1))
    assert legal == engine_legal(state, 0)
    bot = HeuristicBot(0)
    bot.playing = effect_kinds("hiroe_atago")
    choice = bot.decide(Observation(state, 0), legal)
    assert tile_is(choice, "9m")
    assert (choice.kind == ActionKind.RIICHI) == riichi
    # any other character declares riichi on both
    plain = HeuristicBot(0).decide(Observation(state, 0), legal)
    assert plain.kind == ActionKind.RIICHI and tile_is(plain, "9m")


def test_the_bot_remembers_the_effects_of_the_character_it_picks() -> None:
    bot = HeuristicBot(0)
    assert bot.playing == frozenset()
    hand = parse_tiles("234m567p22s678s3p9m")
    picked = bot.pick(hand, ["hiroe_atago"])
    assert picked == "hiroe_atago" and "dama_protection" in bot.playing
    bot.pick(hand, ["nodoka_haramura"])
    assert "dama_protection" not in bot.playing
    assert effect_kinds("no_such_card") == frozenset()


def test_prefers_the_two_sided_wait_over_the_closed_wait() -> None:
    # Discarding 6m waits on 2m/5m (34m); discarding 3m would wait on 5m alone (46m).
    state, legal = reach(["234p678s345s99p34m", "", "", ""], "6m", [], 0, own_turn(), dora="7z")
    assert {a.tile // 4 for a in legal if a.kind == ActionKind.RIICHI} >= set(parse_types("36m"))
    choice = decide(state, 0, legal)
    assert choice.kind in (ActionKind.DISCARD, ActionKind.RIICHI)
    assert tile_is(choice, "6m")


# ----------------------------------------------------------------------------- calls


@pytest.mark.parametrize(("pair", "calls"), [("77z", True), ("44z", False)])
def test_pons_a_dragon_but_not_a_guest_wind(pair: str, calls: bool) -> None:
    # P0 discards the third copy; P2 (West) holds the pair in a hand with terminals, so only a
    # value honor gives the open hand a yaku (North is no value for West in the East round).
    hand = "24m678p35s99s1m1p" + pair
    state, legal = reach([pair[0] + "z", "", hand, ""], "1z", [[pair[0] + "z"]], 2, on_claim)
    assert ActionKind.PON in kinds(legal)
    choice = decide(state, 2, legal)
    assert choice.kind == (ActionKind.PON if calls else ActionKind.PASS)


@pytest.mark.parametrize(("tail", "calls"), [("9s44z", False), ("777z", True)])
def test_chi_only_when_the_open_hand_keeps_a_yaku(tail: str, calls: bool) -> None:
    # rule H-03: P1 may chi P0's 4p with 23p, which makes the hand ready, and 6p is dora. With
    # 1m, 9s and a North pair left there is no yaku to win with, so the bot passes; with a red
    # dragon triplet the same chi is ready with a yaku, and the bot takes it.
    hand = "123m23p678p56s" + tail
    state, legal = reach(["4p", hand, "", ""], "1z", [["4p"]], 1, on_claim, dora="5p")
    assert ActionKind.CHI in kinds(legal)
    choice = decide(state, 1, legal)
    assert choice.kind == (ActionKind.CHI if calls else ActionKind.PASS)


# P1 (South) holds a red dragon pair in a hand with terminals and a red five: after chi of P0's
# 4p with 23p it is ready, and its only yaku can come from the pair becoming a set.
BACKING_HAND = "123m23p678p06s9s77z"


@pytest.mark.parametrize(("style_name", "calls"), [("default", True), ("careful", False)])
def test_a_live_value_pair_backs_a_call_for_all_but_careful_players(style_name: str,
                                                                    calls: bool) -> None:
    state, legal = reach(["4p", BACKING_HAND, "", ""], "1z", [["4p"]], 1, on_claim)
    assert ActionKind.CHI in kinds(legal)
    assert engine_legal(state, 1) == legal
    choice = HeuristicBot(0, style_name).decide(Observation(state, 1), legal)
    assert choice.kind == (ActionKind.CHI if calls else ActionKind.PASS)


def test_a_dead_value_pair_backs_no_call() -> None:
    # The same chi once both other red dragons are in sight (the dora indicator and P0's
    # first discard, which P1 lets go): the pair can never become a set, so no yaku; pass.
    state, legal = reach(["7z4p", BACKING_HAND, "", ""], "2z3z4z1z", [["7z", "4p"]], 1,
                         offered(ActionKind.CHI), dora="7z")
    assert sum(1 for d in state.players[0].discards if is_type(d.tile, "7z")) == 1
    choice = decide(state, 1, legal)
    assert choice.kind == ActionKind.PASS
    assert is_type(state.wall.dora_indicators[0], "7z")


def test_h07_never_discards_into_kuikae() -> None:
    # rule H-07: after chi of 4m with 56m, neither 4m nor 7m (the other end of the same run)
    # may go out. The bot would discard 7m to wait on 3s/6s; it picks a legal tile instead.
    hand = "56m7m234p678p3456s"
    state, legal = reach(["4m", hand, "", ""], "1z", [["4m"], ["chi 56m"]], 1, own_turn())
    assert state.players[1].melds and state.players[1].drawn is None
    offered_types = {a.tile // 4 for a in legal if a.kind == ActionKind.DISCARD}
    assert offered_types.isdisjoint(parse_types("47m"))
    choice = decide(state, 1, legal)
    assert choice.kind == ActionKind.DISCARD and choice.tile // 4 not in parse_types("47m")
    state.players[1].kuikae = frozenset()  # the same hand without the rule
    free = state.self_actions(1, drew=False, rinshan=False)
    assert tile_is(HeuristicBot(0).decide(Observation(state, 1), free), "7m")


# ----------------------------------------------------------------------------- no yaku (H-03)

# P1 calls chi on P0's 1m with 23m and drops 9m: 123m open, 456p 678s 99s 34p waits on 2p/5p
# with no yaku (a terminal run, a terminal pair, no value honor).
NO_YAKU = "23m456p678s99s34p9m"


def test_h03_no_tsumo_for_a_complete_hand_without_yaku() -> None:
    draws = "1z" + spare_tiles(3, NO_YAKU, "1m1z5p", avoid="25p9s") + "5p"
    state, legal = reach(["1m", NO_YAKU, "", ""], draws, [["1m"], ["chi 23m", "9m"]], 1,
                         own_turn(1))
    assert hand_shanten(state, 1) == -1 and is_complete(counts34(state.players[1].concealed))
    assert ActionKind.TSUMO not in kinds(legal)
    assert decide(state, 1, legal).kind == ActionKind.DISCARD


def test_h03_no_ron_for_a_complete_hand_without_yaku() -> None:
    draws = "1z" + spare_tiles(3, NO_YAKU, "1m1z2p", avoid="25p9s")
    state, legal = reach(["1m2p", NO_YAKU, "", ""], draws, [["1m", "2p"], ["chi 23m", "9m"]], 1,
                         lambda obs, legal: on_claim(obs, legal) and len(obs.pond(1)) == 1)
    assert ActionKind.RON not in kinds(legal) and ActionKind.CHI in kinds(legal)
    assert decide(state, 1, legal).kind == ActionKind.PASS


# ----------------------------------------------------------------------------- nine terminals


@pytest.mark.parametrize(("hand", "draw", "kind_count", "aborts"), [
    ("19m19p1s1234z2345p", "6m", 9, True),
    ("19m19p19s1234z234p", "5m", 10, True),
    ("19m19p19s12345z23p", "4p", 11, False),
    ("19m19p19s1234567z", "5m", 13, False),
])
def test_m04_nine_terminals_aborts_below_eleven_kinds(hand: str, draw: str, kind_count: int,
                                                      aborts: bool) -> None:
    # rule M-04: offered on the first draw with nine or more kinds; with eleven or more the bot
    # plays on for thirteen orphans and lets a simple go.
    state, legal = reach([hand, "", "", ""], draw, [], 0, own_turn(), dora="5s")
    counts = counts34(state.players[0].concealed)
    assert sum(1 for t in parse_types("19m19p19s1234567z") if counts[t]) == kind_count
    assert ActionKind.NINE_TERMINALS in kinds(legal)
    choice = decide(state, 0, legal)
    if aborts:
        assert choice.kind == ActionKind.NINE_TERMINALS
    else:
        assert choice.kind in (ActionKind.DISCARD, ActionKind.RIICHI)
        assert choice.tile // 4 not in parse_types("19m19p19s1234567z")
