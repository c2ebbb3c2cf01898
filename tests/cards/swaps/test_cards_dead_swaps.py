"""Two consequences of rule C-20 that part-2 cards bring about, in exact situations.

- Yumi Kajiki may swap for another character's non-standard meld (Kaori's honor sequence): she
  then holds a sequence her own shapes do not allow, and her hand is dead (it cannot win, and is
  noten at an exhaustive draw) until a further swap takes the meld away.
- Ryuuka Shimizudani with menzen tsumo declared may still declare a ron, and that ron is a
  chombo: a reverse mangan, the hand played again by the same dealer with the same counter.

The heuristic bot takes neither: the dead meld costs her the hand, the chombo ron 8,000 or
12,000 points.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.bots.greedy import GreedyBot
from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.declared_pool import step_towards
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.match import MatchProgress, advance
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.tiles import NUM_TILES, parse_types
from tests.support.rule_checks import check_hand_end

CARDS = load_preset("cards-hanchan")
ONLINE = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")
LIVE = 70   # live-wall tiles: every draw of a hand without kans


def t(text: str) -> int:
    """One tile type from mpsz text."""
    return parse_types(text)[0]


def seats(**cards: int) -> list[CardAbility | None]:
    """Abilities by seat: ``seats(yumi_kajiki=3, kaori_senoo=2)``."""
    out: list[CardAbility | None] = [None] * 4
    for card, seat in cards.items():
        out[seat] = CardAbility(CATALOG.card(card), seat)
    return out


def deltas(rec) -> list[int]:
    return [s.end_score - s.start_score for s in rec.seats]


# ---------------------------------------------------------------------- Yumi Kajiki
# P0 deals. P1 throws 6z and Kaori (P2) chis it with 5z7z: a dragon sequence only her ability
# allows. P0 throws 8m and Yumi (P3) pons it; her meld swap may take Kaori's dragon sequence
# for the pon just made. Yumi then holds 111z (the round wind, her yaku), 234p and 6789s (waits
# 6s and 9s), and draws 9s at her next turn. P1 is tenpai (2z/3z) from the deal.

YUMI = "111z234p678s9s88m2m"
KAORI = "57z1m379m159p258s4z"
TENPAI_P1 = "234m456p789s22z33z"
AVOID = "9s8m6z1z2z3z"


class MeldSwapper(ScriptAgent):
    """A script that also answers meld-swap offers: ``takes`` lists ``(her meld's type, the
    other meld's type)`` as mpsz text, taken in order when offered (any other offer is passed);
    notes every meld-swap offer and every win offered."""

    def __init__(self, script=(), takes=()) -> None:
        super().__init__(script)
        self.takes = [(t(a), t(b)) for a, b in takes]
        self.meld_offers: list[list[Action]] = []
        self.wins: list[Action] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.wins += [a for a in legal if a.kind in (ActionKind.TSUMO, ActionKind.RON)]
        melds = [a for a in legal if a.tag is Move.SWAP_MELD]
        if not melds:
            return super().decide(obs, legal)
        self.meld_offers.append(melds)
        if self.takes:
            mine, theirs = self.takes[0]
            for a in melds:
                if a.tile // 4 == mine and a.tiles[0] // 4 == theirs:
                    self.takes.pop(0)
                    return a
        return legal[-1]


def yumi_hand(yumi: ScriptAgent, fixed: str = "3m6z4p8m5s6m1p9s") -> tuple:
    """Plays the layout above with Yumi's agent; ``fixed`` are the first live draws."""
    draws = fixed + spare_tiles(LIVE - len(parse_types(fixed)), YUMI, KAORI, TENPAI_P1, fixed,
                                avoid=AVOID)
    start = scenario_start(["", TENPAI_P1, KAORI, YUMI], draws=draws)
    agents = [ScriptAgent(), ScriptAgent(), ScriptAgent(["chi 57z", "1m"]), yumi]
    state = HandState(start, CARDS, agents, seats(kaori_senoo=2, yumi_kajiki=3))
    return state.play(), state


def meld_types(state: HandState, seat: int) -> list[tuple[int, ...]]:
    return [tuple(x // 4 for x in m.tiles) for m in state.players[seat].melds]


def test_c22_yumi_may_take_kaoris_honor_sequence() -> None:
    # C-22 Yumi: swapping for another character's non-standard meld is allowed (her pon of 8m
    # just made, for Kaori's 5z6z7z); Kaori gets the pon
    yumi = MeldSwapper(["pon 88m", "2m"], takes=[("8m", "5z")])
    rec, state = yumi_hand(yumi)
    assert [(a.tile // 4, a.tiles[0] // 4) for a in yumi.meld_offers[0]] == [(t("8m"), t("5z"))]
    assert meld_types(state, 3) == [(t("5z"), t("6z"), t("7z"))]
    assert meld_types(state, 2) == [(t("8m"),) * 3]
    assert ("yumi_kajiki", AbilityTag.SWAPPED, 2) in [(e.card, e.tag, e.payload)
                                                     for e in rec.events]  # with P2's meld
    places = [x for p in state.players for x in (*p.concealed, *(y for m in p.melds
                                                                  for y in m.tiles))]
    assert len(set(places)) == len(places)   # every tile in one place


def test_c22_yumi_holding_an_honor_sequence_has_a_dead_hand() -> None:
    # C-22 Yumi, rule C-20: with Kaori's dragon sequence she draws her winning 9s (111z is
    # her yaku) but may not win, and at the exhaustive draw she is noten: P1, the only
    # tenpai player, takes 1,000 from each of the others
    yumi = MeldSwapper(["pon 88m", "2m"], takes=[("8m", "5z")])
    rec, state = yumi_hand(yumi)
    assert not yumi.wins and not rec.wins
    ninth = [e for e in rec.events if e.kind == "draw" and e.seat == 3 and e.tile // 4 == t("9s")]
    assert ninth                                 # the winning tile came
    assert t("9s") in state.players[3].waits()   # the shape still waits on it (6789s)
    assert rec.draw_kind == "exhaustive"
    assert [s.tenpai_at_end for s in rec.seats] == [False, True, False, False]
    assert deltas(rec) == [-1000, 3000, -1000, -1000]


def test_c20_yumi_keeping_her_pon_wins_and_is_tenpai() -> None:
    # the same hand without the swap: her 9s tsumo is offered, and at the draw she is tenpai
    # (rule C-20's dead hand came from the meld alone)
    yumi = MeldSwapper(["pon 88m", "2m"])
    rec, _ = yumi_hand(yumi)
    assert yumi.meld_offers and [a.kind for a in yumi.wins] == [ActionKind.TSUMO]
    assert [s.tenpai_at_end for s in rec.seats] == [False, True, False, True]
    assert deltas(rec) == [-1500, 1500, -1500, 1500]


def test_c22_yumi_recovers_from_a_dead_hand_with_a_further_swap() -> None:
    # C-22 Yumi: P0 throws the fourth 1z after her first swap; she pons it and swaps the dragon
    # sequence back for Kaori's 8m pon. Her hand (pons of 8m and 1z, 234p 678s, 9s) is live
    # again: her next draw, 9s, may win (the East pon is her yaku)
    yumi = MeldSwapper(["pon 88m", "2m", "pon 11z", "1z", "tsumo"],
                       takes=[("8m", "5z"), ("5z", "8m")])
    rec, state = yumi_hand(yumi, fixed="3m6z4p8m1z5s6m1p9s")
    assert sorted(meld_types(state, 3)) == [(t("8m"),) * 3, (t("1z"),) * 3]
    assert meld_types(state, 2) == [(t("5z"), t("6z"), t("7z"))]
    assert rec.wins and rec.wins[0].seat == 3 and rec.wins[0].is_tsumo


def test_c20_kaori_holding_her_own_honor_sequence_is_not_dead() -> None:
    # rule C-20: the sequence is legal for the seat whose ability allows it. Kaori (P2) keeps
    # her dragon sequence and is tenpai at the draw with it (11m 234p 567p 78s after the chi)
    kaori = "57z11m234p567p78s1s"
    draws = "3m6z" + spare_tiles(LIVE - 2, kaori, TENPAI_P1, "3m6z", avoid="6s9s6z")
    start = scenario_start(["", TENPAI_P1, kaori, ""], draws=draws)
    agents = [ScriptAgent(), ScriptAgent(), ScriptAgent(["chi 57z", "1s"]), ScriptAgent()]
    rec = HandState(start, CARDS, agents, seats(kaori_senoo=2)).play()
    assert rec.draw_kind == "exhaustive" and rec.seats[2].tenpai_at_end


# The bot's meld-swap policy, with a table built by hand: P1 (Yumi) holds a pon of 2m (or Kaori's
# dragon sequence), P2 the dragon sequence, which holds the dora (6z: the indicator is 5z), and
# P3 a pon of 9m and a pon of 6z. The dealt hands hold none of these tiles.

SWAP_HANDS = ("111p222p333p444p6p", "345p678s1234s158m", "777p999p111s999s5s",
              "666m777m888m134z4s")


def _swap_table(yumi: str) -> tuple[HandState, dict[str, Meld]]:
    start = scenario_start(list(SWAP_HANDS), dora="5z")
    state = HandState(start, CARDS, [ScriptAgent() for _ in range(4)], [None] * 4)
    taken = {x for p in state.players for x in p.concealed} | set(state.wall.dora_indicators)

    def meld(text: str, kind: MeldKind) -> Meld:
        ids = []
        for ty in parse_types(text):
            ids.append(next(x for x in range(NUM_TILES) if x // 4 == ty and x not in taken))
            taken.add(ids[-1])
        return Meld(kind, tuple(sorted(ids)), ids[0], 0)

    made = {"2m": meld("2m2m2m", MeldKind.PON), "567z": meld("5z6z7z", MeldKind.CHI),
            "9m": meld("9m9m9m", MeldKind.PON), "6z": meld("6z6z6z", MeldKind.PON)}
    holder = {"2m": 2, "567z": 2, "9m": 3, "6z": 3} | {yumi: 1}
    for name, m in made.items():
        state.players[holder[name]].melds.append(m)
    return state, made


def _swap(mine: Meld, theirs: Meld) -> Action:
    return ability_action(1, "yumi_kajiki", Move.SWAP_MELD, mine.tiles[0], tiles=theirs.tiles)


def test_c22_yumi_heuristic_bot_never_takes_an_honor_sequence_but_takes_a_standard_meld() -> None:
    # C-22 Yumi: the dragon sequence holds a dora, worth more than her 2m pon by the bot's own
    # count, but it would leave her a dead hand (rule C-20): declined. Offered next to it, the
    # 6z pon (dora and a yakuhai) is taken
    state, made = _swap_table("2m")
    honor = _swap(made["2m"], made["567z"])
    dragons = _swap(made["2m"], made["6z"])
    passing = Action(ActionKind.PASS, 1)
    obs = Observation(state, 1)
    assert HeuristicBot(0).decide(obs, [honor, passing]) == passing
    assert HeuristicBot(0).decide(obs, [honor, dragons, passing]) == dragons


def test_c22_yumi_heuristic_bot_swaps_away_a_dead_sequence_for_any_pon() -> None:
    # C-22 Yumi: holding the dragon sequence (a dead hand, rule C-20), she gives it for P3's
    # plain 9m pon, which is worth less to her by the bot's count (no dora in it)
    state, made = _swap_table("567z")
    away = _swap(made["567z"], made["9m"])
    passing = Action(ActionKind.PASS, 1)
    assert HeuristicBot(0).decide(Observation(state, 1), [away, passing]) == away


# ---------------------------------------------------------------------- Ryuuka Shimizudani
# Ryuuka (P0) holds 234m 234p 567p 345s 6s (tanyao, waiting on 3s/6s). Her pool holds neither
# wait; once she has drawn all ten tiles, P1 throws 6s. The live draws: her pool, then the
# others' draws (three a go-around while she draws from the pool), with the 6s where P1's draw
# after her tenth pool draw falls.

HAND = "234m567p345s234p6s"
POOL = "9p1z2z3z4z5z6z7z1m9m"
RYUUKA = "ryuuka_shimizudani"


class Declaring(ScriptAgent):
    """Declares ``declare``, draws the pool in its offered order, takes every win offered
    unless ``ron`` is False; notes the rons offered."""

    def __init__(self, declare: str, ron: bool = True) -> None:
        super().__init__()
        self.declare = declare
        self.ron = ron
        self.rons: list[Action] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.rons += [a for a in legal if a.kind == ActionKind.RON]
        if self.ron and self.rons and self.rons[-1] in legal:
            return self.rons[-1]
        if any(a.tag is Move.DECLARE for a in legal):
            return step_towards(legal, frozenset(self.declare.split("+")))
        return super().decide(obs, legal)


def ryuuka_start(dealer: int, *, sticks: int = 0, honba: int = 0) -> HandStart:
    """P1's 6s comes after her tenth pool draw: the 28th other draw with P0 dealing (P1 draws
    first after her), the 29th with P3 dealing (P3 draws before her)."""
    at = {0: 27, 3: 28}[dealer]
    used = HAND + POOL + "6s"
    filler = spare_tiles(LIVE - 11, used, avoid="3s6s" + POOL)
    draws = POOL + filler[:2 * at] + "6s" + filler[2 * at:]
    return scenario_start([HAND, "", "", ""], draws=draws, dealer=dealer, sticks=sticks,
                          honba=honba)


def ryuuka_hand(start: HandStart, agent: ScriptAgent) -> tuple:
    agents = [agent, ScriptAgent(), ScriptAgent(), ScriptAgent()]
    state = HandState(start, ONLINE, agents, seats(ryuuka_shimizudani=0))
    return state.play(), state


def test_c22_ryuuka_ron_with_menzen_tsumo_declared_is_offered_and_is_a_dealer_chombo() -> None:
    # C-22 Ryuuka: declaring menzen tsumo then winning by ron is chombo. The ron may be declared
    # (marked as a chombo); rule C-20 (normal chombo rules): the dealer pays a reverse mangan,
    # 4,000 to each other player; no win is scored, honba and the stick on the table are
    # untouched, points are conserved
    start = ryuuka_start(0, sticks=1, honba=2)
    me = Declaring("Menzen Tsumo")
    rec, _ = ryuuka_hand(start, me)
    assert [(a.tile // 4, a.card, a.tag) for a in me.rons] == [(t("6s"), RYUUKA,
                                                                 AbilityTag.CHOMBO)]
    assert not rec.wins and rec.draw_kind == "chombo"
    chombo = [(e.seat, e.source) for e in rec.events if e.kind == "chombo"]
    assert chombo == [(0, 1)]  # her illegal ron off P1
    assert deltas(rec) == [-12000, 4000, 4000, 4000]
    assert rec.sticks_end == 1 and rec.stakes_end == 0
    assert sum(s.end_score for s in rec.seats) + 1000 * rec.sticks_end == \
        sum(start.scores) + 1000 * start.sticks


def test_c22_ryuuka_non_dealer_chombo_pays_4000_to_the_dealer_and_2000_to_the_others() -> None:
    # C-22 Ryuuka, rule C-20: P3 deals; her reverse mangan is 8,000 (a non-dealer mangan paid
    # as if by tsumo)
    start = ryuuka_start(3)
    me = Declaring("Menzen Tsumo+Riichi")   # riichi undeclared: the ron is still a chombo
    rec, _ = ryuuka_hand(start, me)
    assert [(a.card, a.tag) for a in me.rons] == [(RYUUKA, AbilityTag.CHOMBO)]
    assert deltas(rec) == [-8000, 2000, 2000, 4000]
    assert sum(deltas(rec)) == 0


def test_k12_a_chombo_replays_the_hand_without_raising_the_counter() -> None:
    # rule K-12: the renchan counter is not raised by a chombo penalty; rule C-20: the same
    # dealer plays the hand again (hand number, round and honba as before)
    start = ryuuka_start(0, sticks=1, honba=2)
    rec, _ = ryuuka_hand(start, Declaring("Menzen Tsumo"))
    assert rec.dealer_continues
    progress = MatchProgress(scores=list(start.scores), honba=2, sticks=1)
    advance(progress, rec, ONLINE)
    assert not progress.finished
    assert (progress.dealer, progress.round_wind, progress.hand_number, progress.honba,
            progress.sticks) == (0, 0, 0, 2, 1)
    assert progress.scores == [13000, 29000, 29000, 29000]


def test_c20_the_hand_end_check_knows_a_card_chombo_without_abortive_draws() -> None:
    # rule C-20 (normal chombo rules) under tournament-2022 (no abortive draws, M-04): a card's
    # chombo is no abortive draw; the checks of the random-play tests pass it, and still
    # refuse an abortive draw under that preset
    tournament = load_preset("tournament-2022")
    start = replace(ryuuka_start(0), scores=(tournament.start_points,) * 4)
    agents = [Declaring("Menzen Tsumo"), ScriptAgent(), ScriptAgent(), ScriptAgent()]
    rec = HandState(start, tournament, agents, seats(ryuuka_shimizudani=0)).play()
    assert rec.draw_kind == "chombo" and not tournament.abortive_draws
    check_hand_end(rec, tournament, None)
    with pytest.raises(AssertionError):
        check_hand_end(replace(rec, draw_kind="nine_terminals"), tournament, None)


def test_c22_ryuuka_ron_with_tanyao_declared_is_no_chombo() -> None:
    # the same ron with only tanyao declared is an ordinary win, not marked
    me = Declaring("Tanyao")
    rec, _ = ryuuka_hand(ryuuka_start(0), me)
    assert [a.tag for a in me.rons] == [None]
    assert rec.wins and rec.wins[0].seat == 0 and rec.draw_kind is None


def test_c22_ryuuka_heuristic_bot_never_declares_a_chombo_ron() -> None:
    # C-22 Ryuuka: a heuristic bot that declared menzen tsumo is offered the chombo ron on
    # P1's 6s and lets it go; the hand goes on (no chombo, nobody pays a penalty)
    class Bot(HeuristicBot):
        def __init__(self) -> None:
            super().__init__(0)
            self.rons: list[Action] = []
            self.took: list[Action] = []

        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            if any(a.tag is Move.DECLARE for a in legal):
                return step_towards(legal, frozenset({"Menzen Tsumo"}))
            self.rons += [a for a in legal if a.kind == ActionKind.RON]
            choice = super().decide(obs, legal)
            if choice.kind == ActionKind.RON:
                self.took.append(choice)
            return choice

    bot = Bot()
    rec, _ = ryuuka_hand(ryuuka_start(0), bot)
    assert bot.rons and all((a.card, a.tag) == (RYUUKA, AbilityTag.CHOMBO) for a in bot.rons)
    assert not bot.took
    assert rec.draw_kind != "chombo" and not any(e.kind == "chombo" for e in rec.events)
    # the bot's win filter itself: the same ron unmarked is taken, marked it is passed
    state = HandState(ryuuka_start(0), ONLINE, [ScriptAgent() for _ in range(4)], [None] * 4)
    ron = Action(ActionKind.RON, 0, bot.rons[0].tile)
    passing = Action(ActionKind.PASS, 0)
    obs = Observation(state, 0)
    assert HeuristicBot(0).decide(obs, [ron, passing]) == ron
    assert HeuristicBot(0).decide(obs, [bot.rons[0], passing]) == passing
    # the greedy baseline too: it takes every win but a chombo
    assert GreedyBot(0).decide(obs, [ron, passing]) == ron
    assert GreedyBot(0).decide(obs, [bot.rons[0], passing]) == passing
