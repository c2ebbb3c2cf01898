"""Claim, draw and discard cards in play: Yuuko Mase (no pon or kan, wrap-around chi), Yuu
Matsumi (priority red-dragon pon), Seiko Matano (set-aside draw), Kurumi Kakura (unclaimable
repeats) and Yoshiko Kainou (repeated discard); and the heuristic bot's policies for them."""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.records import DrawSource
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_tiles, parse_types

PRESET = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")


def ability(card: str, seat: int) -> list[CardAbility | None]:
    seats: list[CardAbility | None] = [None] * 4
    seats[seat] = CardAbility(CATALOG.card(card), seat)
    return seats


def play(start, agents, abilities):
    agents = [a if isinstance(a, ScriptAgent) else ScriptAgent(a) for a in agents]
    state = HandState(start, PRESET, agents, abilities)
    return state.play(), agents, state


def offers(agent: ScriptAgent, kind: ActionKind, tile: str | None = None) -> list[Action]:
    t = parse_types(tile)[0] if tile else None
    return [a for offer in agent.offers for a in offer
            if a.kind == kind and (t is None or a.tile // 4 == t)]


class TakeAbility(ScriptAgent):
    """Takes any ability action offered; otherwise plays its script."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        chosen = [a for a in legal if a.kind == ActionKind.ABILITY]
        if chosen:
            self.offers.append(legal)
            return chosen[0]
        return super().decide(obs, legal)


class FuritenWatch(ScriptAgent):
    """Notes at each decision whether the seat is in temporary furiten."""

    def __init__(self, script=()) -> None:
        super().__init__(script)
        self.furiten: list[bool] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.furiten.append(obs._state.players[obs.seat].temp_furiten)
        return super().decide(obs, legal)


# ---------------------------------------------------------------------- Yuuko Mase


def test_yuuko_may_not_pon_or_kan_but_may_chi_wrap_around() -> None:
    # P1 holds an East pair and 8m9m; P0 discards East, then (next scenario) 1m
    east = scenario_start(["", "11z89m", "", ""], draws="1z")
    _, agents, _ = play(east, [[], ["pon"], [], []], [None] * 4)
    assert offers(agents[1], ActionKind.PON, "1z")
    _, agents, _ = play(east, [[], ["pon"], [], []], ability("yuuko_mase", 1))
    assert not offers(agents[1], ActionKind.PON) and not offers(agents[1], ActionKind.MINKAN)
    one = scenario_start(["", "89m11z", "", ""], draws="1m")
    rec, agents, _ = play(one, [[], ["chi"], [], []], ability("yuuko_mase", 1))
    chi = [e for e in rec.events if e.kind == "chi"]
    assert chi and sorted(t // 4 for t in chi[0].tiles) == parse_types("189m")
    # no concealed kan either: four Easts after her first draw
    kan = scenario_start(["", "111z", "", ""], draws="2m1z")
    _, agents, _ = play(kan, [[], ["ankan 1z"], [], []], [None] * 4)
    assert offers(agents[1], ActionKind.ANKAN)
    _, agents, _ = play(kan, [[], ["ankan 1z"], [], []], ability("yuuko_mase", 1))
    assert not offers(agents[1], ActionKind.ANKAN)


# ---------------------------------------------------------------------- Yuu Matsumi


def test_c22_yuu_pons_a_red_dragon_from_the_pond_beating_a_ron() -> None:
    # C-22 Yuu: at the moment P0 discards, she pons the red dragon lying in P0's pond instead of
    # the last discard, with priority over P1's ron on that discard
    start = scenario_start(["", "234m456p678s345s5p", "77z", ""], draws="7z1z2z3z5p")
    watch = FuritenWatch(["ron"])
    rec, agents, state = play(start, [[], watch, ["pass", "pon"], []],
                              ability("yuu_matsumi", 2))
    assert not rec.wins
    pons = [e for e in rec.events if e.kind == "pon"]
    assert pons and pons[0].seat == 2 and pons[0].tile // 4 == 33
    pond0 = state.players[0].discards
    assert pond0[0].tile // 4 == 33 and pond0[0].called          # the earlier red dragon
    assert pond0[1].tile // 4 == parse_types("5p")[0] and not pond0[1].called
    priority = [e for e in rec.events if e.kind == "ability" and e.tag is AbilityTag.PRIORITY]
    assert [(e.seat, e.card) for e in priority] == [(2, "yuu_matsumi")]
    assert rec.events[rec.events.index(priority[0]) + 1] == pons[0]  # the pon it won
    # the turn goes to her, as after any pon
    after = rec.events[rec.events.index(pons[0]) + 1:]
    assert next(e for e in after if e.kind == "discard").seat == 2
    # P1's ron was beaten: it let its winning tile go by, so it is furiten (rule H-09)
    ron_at = next(i for i, offer in enumerate(watch.offers)
                  if any(a.kind == ActionKind.RON for a in offer))
    assert not watch.furiten[ron_at] and watch.furiten[ron_at + 1]
    # without her ability the ron wins
    rec, _, _ = play(start, [[], ["ron"], ["pass", "pon"], []], [None] * 4)
    assert [w.seat for w in rec.wins] == [1]


def test_c22_yuu_priority_pon_of_the_red_dragon_just_discarded() -> None:
    # P1 waits on the red dragon (ittsu); P0 discards the fourth one; Yuu's pon wins
    start = scenario_start(["", "123456789p234s7z", "77z", ""], draws="7z")
    rec, agents, _ = play(start, [[], ["ron"], ["pon"], []], ability("yuu_matsumi", 2))
    assert not rec.wins
    assert [e.seat for e in rec.events if e.kind == "pon"] == [2]
    assert all((a.card, a.tag) == ("yuu_matsumi", AbilityTag.PRIORITY)
               for a in offers(agents[2], ActionKind.PON))


def test_yuu_no_priority_pon_without_two_red_dragons_or_in_riichi() -> None:
    start = scenario_start(["", "", "7z", ""], draws="7z1z2z3z7z")
    _, agents, _ = play(start, [[], [], [], []], ability("yuu_matsumi", 2))
    assert not offers(agents[2], ActionKind.PON)


# ---------------------------------------------------------------------- Seiko Matano


def test_seiko_takes_the_fourth_copy_from_a_pond_as_her_next_draw() -> None:
    # P3 discards East; P0 discards East and Seiko (P2) pons it; the fourth East lies in P3's
    # pond, so her next draw may be it (then she may add it to her pon)
    start = scenario_start(["", "", "11z", ""],
                           draws="9m9p9s1z1z" "2m" "3m4m5m" "6m7m")
    seiko = TakeAbility(["pass", "pon", "kakan 1z"])
    rec, agents, state = play(start, [[], [], seiko, []], ability("seiko_matano", 2))
    took = [e for e in rec.events if e.kind == "ability" and e.tag is AbilityTag.FROM_POND]
    assert took and took[0].seat == 2 and took[0].tile // 4 == 27
    assert state.players[3].discards[0].called  # the tile left P3's pond
    assert any(e.kind == "kakan" and e.seat == 2 for e in rec.events)
    # the wall tile she did not take is the next wall draw (after her kan's replacement)
    draws = [e for e in rec.events if e.kind == "draw"]
    after = [e for e in draws if rec.events.index(e) > rec.events.index(took[0])]
    assert after[0].tile == took[0].tile and after[0].drawn_from is DrawSource.POND
    assert after[1].drawn_from is DrawSource.RINSHAN
    assert after[2].seat == 3 and after[2].tile // 4 == parse_types("5m")[0]


def test_seiko_no_offer_when_the_fourth_copy_is_not_in_another_pond() -> None:
    start = scenario_start(["", "", "11z", ""], draws="9m9p9s2m1z" "2m" "3m4m5m" "6m7m")
    seiko = TakeAbility(["pon"])
    rec, agents, _ = play(start, [[], [], seiko, []], ability("seiko_matano", 2))
    assert [e.seat for e in rec.events if e.kind == "pon"] == [2]
    assert not offers(seiko, ActionKind.ABILITY)


# ---------------------------------------------------------------------- Kurumi Kakura


def test_kurumi_repeat_of_a_pond_tile_cannot_be_called_or_ronned_but_gives_furiten() -> None:
    # Kurumi (P0) discards 9s twice. P2 holds two 9s: pon offered on the first only. P1 becomes
    # tenpai on 6s-9s with riichi after the first: no ron on the second, and riichi furiten.
    start = scenario_start(["9s", "123456789p78s5z1z", "99s", ""], draws="9s5z1m2m3m")
    rec, agents, state = play(start, [["9s", "9s"], ["riichi 1z", "ron"], ["pass", "pon"], []],
                              ability("kurumi_kakura", 0))
    assert len(offers(agents[2], ActionKind.PON, "9s")) == 1
    assert not offers(agents[1], ActionKind.RON)
    assert state.players[1].riichi and state.players[1].riichi_furiten
    discards = [e for e in rec.events if e.kind == "discard" and e.seat == 0]
    assert [e.tile // 4 for e in discards[:2]] == parse_types("9s9s")
    # without her ability both are claimable and P1 rons the second 9s
    rec, agents, _ = play(start, [["9s", "9s"], ["riichi 1z", "ron"], ["pass", "pass"], []],
                          [None] * 4)
    assert [w.seat for w in rec.wins] == [1]


# ---------------------------------------------------------------------- Yoshiko Kainou


def test_yoshiko_repeats_a_discard_nobody_may_call_and_draws_a_replacement() -> None:
    start = scenario_start(["9s", "", "99s", ""], draws="9s5z6z7z")
    yoshiko = TakeAbility(["9s"])
    rec, agents, state = play(start, [yoshiko, [], ["pass", "pon"], []],
                              ability("yoshiko_kainou", 0))
    assert len(offers(agents[2], ActionKind.PON, "9s")) == 1  # the first 9s only
    repeat = [a for a in offers(yoshiko, ActionKind.ABILITY)]
    assert repeat and (repeat[0].card, repeat[0].tag) == ("yoshiko_kainou", AbilityTag.REPEAT)
    discards = [e for e in rec.events if e.kind == "discard"]
    assert [(e.seat, e.tile // 4) for e in discards[:2]] == [(0, 26), (0, 26)]
    assert (discards[1].tag, discards[1].card) == (AbilityTag.REPEAT, "yoshiko_kainou")
    assert any(e.kind == "ability" and (e.tag, e.card) == (AbilityTag.REPEAT, "yoshiko_kainou")
               for e in rec.events)  # counted as a trigger in the hand's summary
    draws = [(e.seat, e.tile // 4, e.drawn_from) for e in rec.events if e.kind == "draw"]
    assert draws[1] == (0, parse_types("5z")[0], DrawSource.REPLACEMENT)
    assert draws[2][0] == 1  # then play goes on to P1
    assert len(state.players[0].concealed) == 13


def test_yoshiko_no_repeat_after_a_called_discard_or_without_a_copy() -> None:
    # rule C-14: a call by another player interrupts the ability
    start = scenario_start(["9s", "", "99s", ""], draws="9s5z6z7z")
    yoshiko = TakeAbility(["9s"])
    rec, _, _ = play(start, [yoshiko, [], ["pon"], []], ability("yoshiko_kainou", 0))
    assert [e.seat for e in rec.events if e.kind == "pon"] == [2]
    assert not offers(yoshiko, ActionKind.ABILITY, "9s")  # she still holds a 9s
    start = scenario_start(["", "", "", ""], draws="9s5z6z7z1z")
    yoshiko = TakeAbility()
    rec, _, _ = play(start, [yoshiko, [], [], []], ability("yoshiko_kainou", 0))
    assert not offers(yoshiko, ActionKind.ABILITY, "9s")


# ---------------------------------------------------------------------- bot policies


class _Obs:
    """The few things the repeat policy reads."""

    seat = 0

    def __init__(self, hand: str, pons: int = 0) -> None:
        self.concealed = tuple(parse_tiles(hand))
        self._melds = tuple(object() for _ in range(pons))

    def melds(self, seat: int) -> tuple:
        return self._melds if seat == self.seat else ()

    def in_riichi(self, seat: int) -> bool:
        return False

    def shown_types(self, seat: int) -> frozenset:
        return frozenset()


def test_heuristic_bot_repeats_a_useless_copy_and_keeps_a_useful_one() -> None:
    bot = HeuristicBot(0)
    hand = "123m456p789s23s5z9m"  # 1-shanten; the 9m left after discarding 9m is useless
    offer = ability_action(0, "y", AbilityTag.REPEAT, parse_tiles(hand)[-1])
    legal = [offer, Action(ActionKind.PASS, 0)]
    assert bot.decide(_Obs(hand), legal) is offer
    hand = "123m456p789s23s55z"  # tenpai: the second 5z is the hand's pair, keep it
    offer = ability_action(0, "y", AbilityTag.REPEAT, parse_tiles(hand)[-1])
    legal = [offer, Action(ActionKind.PASS, 0)]
    assert bot.decide(_Obs(hand), legal).kind == ActionKind.PASS

def test_heuristic_bot_takes_a_set_aside_tile_near_tenpai_and_declines_it_when_slow() -> None:
    bot = HeuristicBot(0)
    draw = ability_action(0, "s", AbilityTag.DRAW, 108)
    legal = [draw, Action(ActionKind.PASS, 0)]
    # before her draw she holds a pon and 10 tiles
    assert bot.decide(_Obs("456p789s23s55z", pons=1), legal) is draw  # tenpai
    assert bot.decide(_Obs("159m258p369s1z", pons=1), legal).kind == ActionKind.PASS  # far off
