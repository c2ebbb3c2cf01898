"""The ability framework: hooks, merged modifiers, and the first scoring primitives."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pipeline.cards import registry
from pipeline.cards.abilities import CardAbility, effect_implemented
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag, Meld, MeldKind
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hand import play_hand
from pipeline.rules.hooks import AbilityHooks, WinView, merge_modifiers, scoring_modifiers
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.rules.scoring import NO_MODIFIERS, ScoringModifiers, WinContext, score_win
from pipeline.rules.wall import Wall
from pipeline.tiles import parse_tiles

PRESET = load_preset("online-hanchan")
RULES = PRESET.scoring_rules()
CATALOG = load_catalog("1.2")


def view(ctx: WinContext, seat: int = 1, *, scores=(25000,) * 4, riichi=()) -> WinView:
    return WinView(seat, ctx, None if ctx.is_tsumo else 0, tuple(scores), 0, tuple(riichi))


def ron_ctx(concealed: str, win: str, melds: tuple[Meld, ...] = (), **kw) -> WinContext:
    tiles = parse_tiles(concealed)
    win_tile = parse_tiles(win, taken=tiles)[0]
    return WinContext(concealed=(*tiles, win_tile), melds=melds, win_tile=win_tile,
                      is_tsumo=False, seat_wind=1, round_wind=0, is_dealer=False,
                      dora_indicators=tuple(parse_tiles("1z", taken=tiles)), **kw)


def test_merge_modifiers_combines_every_part() -> None:
    a = ScoringModifiers(yaku_values={"Pinfu": 2}, extra_han=(("x", 1),), dora_multiplier=2)
    b = ScoringModifiers(yaku_values={"Pinfu": 3, "Tanyao": 2}, extra_han=(("y", 2),),
                         dora_multiplier=3, allowed_yaku=frozenset({"Pinfu"}))
    merged = merge_modifiers([a, b, NO_MODIFIERS])
    assert merged.yaku_values == {"Pinfu": 3, "Tanyao": 2}
    assert merged.extra_han == (("x", 1), ("y", 2))
    assert merged.dora_multiplier == 6
    assert merged.allowed_yaku == frozenset({"Pinfu"})
    assert merge_modifiers([]) is NO_MODIFIERS
    assert scoring_modifiers([], None) is NO_MODIFIERS  # no abilities: no work at all


def test_c11_nodoka_pinfu_value_is_set_not_added() -> None:
    # rule C-11: "pinfu is worth 2 han" replaces its 1 han
    ctx = ron_ctx("234m456p678s99p23s", "4s")
    plain = score_win(ctx, RULES)
    assert plain is not None and plain.yaku_names() == ["Pinfu"] and plain.han == 1
    nodoka = CardAbility(CATALOG.card("nodoka_haramura"), seat=1)
    result = score_win(ctx, RULES, nodoka.scoring(view(ctx)))
    assert result.han == 2 and dict(result.yaku)["Pinfu"] == 2
    assert result.ron_points == 2000 and plain.ron_points == 1000


def test_ability_only_acts_on_its_own_seats_win() -> None:
    ctx = ron_ctx("234m456p678s99p23s", "4s")
    nodoka = CardAbility(CATALOG.card("nodoka_haramura"), seat=2)
    assert nodoka.scoring(view(ctx, seat=1)) in (None, NO_MODIFIERS)


def test_c12_arata_bonus_han_need_a_real_yaku() -> None:
    # rule C-12: 9 pinzu give +2 han, but an open hand with no yaku still cannot win
    chi = Meld(MeldKind.CHI, tuple(parse_tiles("123p")), parse_tiles("1p")[0], 0)
    ctx = ron_ctx("456p678p234s5m", "5m", melds=(chi,))
    arata = CardAbility(CATALOG.card("arata_sagimori"), seat=1)
    mods = arata.scoring(view(ctx))
    assert mods is not None and ("pinzu_tiles", 2) in mods.extra_han
    assert score_win(ctx, RULES) is None
    assert score_win(ctx, RULES, mods) is None


def test_arata_pinzu_thresholds_and_three_type_wait() -> None:
    arata = CardAbility(CATALOG.card("arata_sagimori"), seat=1)
    six = ron_ctx("123p456p234s678s5m", "5m")            # 6 pinzu, tanki: +1
    assert arata.scoring(view(six)).extra_han == (("pinzu_tiles", 1),)
    eleven = ron_ctx("11p234p456p789p23s", "4s")          # 11 pinzu, 1-4s wait: +3
    assert arata.scoring(view(eleven)).extra_han == (("pinzu_tiles", 3),)
    wide = ron_ctx("234m678m23456s99p", "4s")            # waits 1s, 4s, 7s: +1
    assert ("wait_three_types", 1) in arata.scoring(view(wide)).extra_han


def test_yaku_value_conditions_chasing_riichi_and_last_place() -> None:
    toyone = CardAbility(CATALOG.card("toyone_anetai"), seat=1)
    ctx = ron_ctx("234m456p678s99p23s", "4s", riichi=True)
    first = toyone.scoring(view(ctx, riichi=(1, 2)))
    chasing = toyone.scoring(view(ctx, riichi=(2, 1)))
    assert first is None or "Riichi" not in first.yaku_values
    assert chasing is not None and chasing.yaku_values["Riichi"] == 2
    kana = CardAbility(CATALOG.card("kana_ikeda"), seat=1)
    last = kana.scoring(view(ctx, scores=(30000, 10000, 30000, 30000)))
    ahead = kana.scoring(view(ctx, scores=(30000, 40000, 20000, 10000)))
    assert last is not None and last.one_han_yaku == 2  # card kana_ikeda: in last place
    assert ahead is None or not (ahead.yaku_values or ahead.one_han_yaku)
    closed = CardAbility(CATALOG.card("kana_ikeda").with_param("last_place", "counts",
                                                               "closed_value"), seat=1)
    last = closed.scoring(view(ctx, scores=(30000, 10000, 30000, 30000)))
    assert last is not None and last.yaku_values["Pinfu"] == 2


def test_arata_tsumo_in_play_scores_the_bonus_and_logs_the_trigger() -> None:
    hands = ["", "123p456p789p234s5m", "", ""]
    start = scenario_start(hands, draws="7z6z5z6z7s5m", dora="1z")
    arata = CardAbility(CATALOG.card("arata_sagimori"), seat=1)
    agents = [ScriptAgent(), ScriptAgent(["6z", "tsumo"]), ScriptAgent(), ScriptAgent()]
    plain = play_hand(start, PRESET, [ScriptAgent(), ScriptAgent(["6z", "tsumo"]),
                                      ScriptAgent(), ScriptAgent()])
    rec = play_hand(start, PRESET, agents, abilities=[None, arata, None, None])
    assert plain.wins[0].han == 3 and plain.wins[0].points == 4000   # tsumo + ittsu, 30 fu
    assert rec.wins[0].han == 5 and rec.wins[0].points == 8000       # +2 for 9 pinzu
    assert rec.seats[1].delta == 8000
    logged = [e for e in rec.events if e.kind == "ability"]
    assert [(e.tag, e.card, e.payload) for e in logged] == [
        (AbilityTag.SCORED, "arata_sagimori", +2)]   # the win's value: +2 han


@pytest.mark.parametrize("seed", range(6))
def test_cards_without_scoring_effects_leave_play_identical(seed: int) -> None:
    rng = random.Random(seed)
    start = HandStart(wall=Wall.shuffled(rng).order, dealer=seed % 4)
    maho = CATALOG.card("maho_yumeno")  # no effect of hers acts through these hooks yet
    with_cards = play_hand(start, PRESET, [RandomAgent(seed * 4 + s) for s in range(4)],
                           abilities=[CardAbility(maho, s) for s in range(4)])
    without = play_hand(start, PRESET, [RandomAgent(seed * 4 + s) for s in range(4)])
    assert with_cards.log_text() == without.log_text()


def test_base_hooks_do_nothing() -> None:
    ctx = ron_ctx("234m456p678s99p23s", "4s")
    assert AbilityHooks().scoring(view(ctx)) is None


def test_partial_kinds_report_only_supported_values_as_implemented() -> None:
    assert effect_implemented("count_bonus", {"count": "pinzu_tiles", "condition": "always"})
    assert not effect_implemented("count_bonus", {"count": "shown_family_tiles",
                                                  "condition": "always"})
    assert effect_implemented("extra_turn", {"when": "new_family_discard"})  # the back side
    assert not effect_implemented("extra_turn", {"when": "no_such_moment"})
    assert not effect_implemented("no_such_kind", {"tiles": 10})
    assert effect_implemented("priority_call", {"call": "chi_any"})
    assert effect_implemented("priority_call", {"call": "pon_red_dragon_from_pond"})
    assert registry.playable(CATALOG.card("arata_sagimori"))
    assert not CATALOG.card("arata_sagimori").playable(implemented={"no_such_kind"})


def test_preset_replace_keeps_rules_for_abilities() -> None:
    preset = replace(PRESET, kuitan=False)
    assert preset.scoring_rules().kuitan is False


def test_komaki_doubles_her_win_and_sets_riichi_to_two_han() -> None:
    komaki = CardAbility(CATALOG.card("komaki_jindai"), seat=1)
    assert registry.playable(CATALOG.card("komaki_jindai"))
    pinfu = ron_ctx("234m456p678s99p23s", "4s")
    assert score_win(pinfu, RULES, komaki.scoring(view(pinfu))).ron_points == 2 * 1000
    riichi = ron_ctx("234m456p678s99p23s", "4s", riichi=True)
    result = score_win(riichi, RULES, komaki.scoring(view(riichi)))
    assert dict(result.yaku)["Riichi"] == 2 and result.han == 3     # rule C-11
    assert result.ron_points == 2 * 3900


def test_komaki_plays_face_up_from_the_start_of_the_hand() -> None:
    from pipeline.rules.agents import Observation
    from pipeline.rules.hand import HandState

    seen = {}

    class Peek(ScriptAgent):
        def decide(self, obs: Observation, legal):
            seen.setdefault(obs.seat, (obs.shown_hand(1), obs.shown_hand(2)))
            return super().decide(obs, legal)

    start = scenario_start(["", "", "", ""], draws="7z6z5z6z")
    komaki = CardAbility(CATALOG.card("komaki_jindai"), seat=1)
    state = HandState(start, PRESET, [Peek(), Peek(), Peek(), Peek()],
                      abilities=[None, komaki, None, None])
    state.play()
    others_view_of_komaki, others_view_of_seat2 = seen[0]
    assert others_view_of_komaki is not None and len(others_view_of_komaki) == 13
    assert others_view_of_seat2 is None
    assert [(e.seat, e.card) for e in state.events if e.tag is AbilityTag.HAND_REVEALED] == [
        (1, "komaki_jindai")]


class FaceDownFirst(ScriptAgent):
    """Discards its first East face down when the ability offers it."""

    def decide(self, obs, legal):
        from pipeline.rules.actions import ActionKind

        for a in legal:
            if a.kind == ActionKind.ABILITY and a.tile // 4 == 27:
                self.offers.append(legal)
                return a
        return super().decide(obs, legal)


def test_c13_face_down_discard_cannot_be_called_and_is_hidden() -> None:
    # rule C-13 and roster general rules: a face-down tile cannot be called or ronned, and the
    # other seats do not learn what it was
    from pipeline.rules.hand import HandState

    start = scenario_start(["", "1z", "11z", ""], draws="7z6z5z7z")
    nodoka = CardAbility(CATALOG.card("nodoka_haramura"), seat=1)
    agents = [ScriptAgent(), FaceDownFirst(), ScriptAgent(), ScriptAgent()]
    state = HandState(start, PRESET, agents, abilities=[None, nodoka, None, None])
    rec = state.play()
    down = [e for e in rec.events if e.kind == "discard" and e.tag is AbilityTag.FACE_DOWN]
    assert len(down) == 1 and down[0].seat == 1 and down[0].tile // 4 == 27
    pon_offers = [a for offer in agents[2].offers for a in offer if a.kind.value == "pon"
                  and a.tile // 4 == 27]
    assert not pon_offers
    from pipeline.rules.agents import Observation

    assert all(t // 4 != 27 for t in Observation(state, 2).discards(1))
    assert any(t // 4 == 27 for t in Observation(state, 1).discards(1))
    # once per hand: offered on her first turn only
    ability_offers = [any(a.kind.value == "ability" for a in offer) for offer in agents[1].offers]
    assert ability_offers[0] and not any(ability_offers[1:])


def test_c13_face_down_tiles_give_no_furiten() -> None:
    # rule C-13
    from pipeline.rules.hand import DiscardInfo, PlayerState

    p = PlayerState(seat=0, concealed=[])
    p.discards.append(DiscardInfo(tile=parse_tiles("4s")[0], tsumogiri=False, riichi=False,
                                  face_down=True))
    waits = frozenset({parse_tiles("4s")[0] // 4})
    assert not p.discard_furiten(waits)
    p.discards.append(DiscardInfo(tile=parse_tiles("4s")[0], tsumogiri=False, riichi=False))
    assert p.discard_furiten(waits)


def test_tomoki_face_down_only_under_ippatsu_threat() -> None:
    from pipeline.rules.hooks import OwnTurnView

    tomoki = CardAbility(CATALOG.card("tomoki_sawamura"), seat=0)
    calm = OwnTurnView(0, (4, 8), True, False, 3, ())
    threat = OwnTurnView(0, (4, 8), True, False, 3, (2,))
    assert tomoki.own_actions(calm) == []
    offered = tomoki.own_actions(threat)
    assert [a.tile for a in offered] == [4, 8]
    assert all((a.card, a.tag) == ("tomoki_sawamura", AbilityTag.FACE_DOWN) for a in offered)


def test_heuristic_bot_both_uses_and_declines_face_down_discards() -> None:
    """No optional ability goes unused for want of a policy: the bot spends Nodoka's face-down
    discard under a threat and keeps it otherwise."""
    from pipeline.bots.heuristic import HeuristicBot
    from pipeline.rules.actions import ActionKind

    counts = {"offered": 0, "used": 0}

    class Counting(HeuristicBot):
        def decide(self, obs, legal):
            choice = super().decide(obs, legal)
            if any(a.kind == ActionKind.ABILITY for a in legal):
                counts["offered"] += 1
                counts["used"] += choice.kind == ActionKind.ABILITY
            return choice

    card = CATALOG.card("nodoka_haramura")
    for seed in range(12):
        start = HandStart(wall=Wall.shuffled(random.Random(seed)).order, dealer=seed % 4)
        play_hand(start, PRESET, [Counting(seed * 4 + s) for s in range(4)],
                  abilities=[CardAbility(card, s) for s in range(4)])
    assert counts["used"] >= 1
    assert counts["offered"] > counts["used"]


class TakeExtraTurns(ScriptAgent):
    """Takes every extra turn it is offered (and otherwise follows its script)."""

    def decide(self, obs, legal):
        if legal[0].tag is AbilityTag.EXTRA_TURN:
            self.offers.append(legal)
            return legal[0]
        return super().decide(obs, legal)


def _haru_hand(draws: str, scripts=None, agents=None):
    from pipeline.rules.hand import HandState

    start = scenario_start(["", "2m2p8s", "", ""], draws=draws)
    haru = CardAbility(CATALOG.card("haru_takimi"), seat=1)
    agents = agents or [ScriptAgent(), TakeExtraTurns(scripts or []), ScriptAgent(),
                        ScriptAgent()]
    state = HandState(start, PRESET, agents, abilities=[None, haru, None, None])
    return state.play(), agents


def test_c15_c17_extra_turn_is_optional_and_never_twice_in_a_row() -> None:
    # Haru discards 2m: extra turn; in it she discards 2p, which would earn another: not given
    rec, agents = _haru_hand("7z6z5z4z7z6z", scripts=["2m", "2p"])
    seq = [(e.seat, e.kind, e.card, e.tag, e.tsumogiri) for e in rec.events
           if e.kind in ("discard", "ability")]
    i = seq.index((1, "ability", "haru_takimi", AbilityTag.EXTRA_TURN, False))
    assert seq[i - 1][0] == 1 and seq[i + 1][0] == 1        # she discards again at once
    assert seq[i + 1][1:] == ("discard", "", None, False)   # 2p, which would earn one...
    assert seq[i + 2][0] == 2                               # ...but play moves on: C-15
    declined, _ = _haru_hand("7z6z5z4z7z6z", agents=[ScriptAgent(), ScriptAgent(["2m"]),
                                                    ScriptAgent(), ScriptAgent()])
    assert not any(e.kind == "ability" for e in declined.events)   # C-17: optional


def test_c14_a_call_interrupts_the_extra_turn() -> None:
    from pipeline.rules.hand import HandState

    start = scenario_start(["", "2m", "22m", ""], draws="7z6z5z4z")
    haru = CardAbility(CATALOG.card("haru_takimi"), seat=1)
    agents = [ScriptAgent(), TakeExtraTurns(["2m"]), ScriptAgent(["pon"]), ScriptAgent()]
    rec = HandState(start, PRESET, agents, abilities=[None, haru, None, None]).play()
    kinds = [(e.seat, e.kind) for e in rec.events if e.kind in ("discard", "pon", "ability")]
    i = kinds.index((1, "discard"))
    assert kinds[i + 1] == (2, "pon")      # the pon comes straight after: no extra turn


def test_c16_extra_turns_keep_ippatsu() -> None:
    # rule C-16: Haru declares riichi with 2m, takes the extra turn: both that draw and her next
    # regular draw are ippatsu draws
    from pipeline.rules.hand import HandState

    flags: list[bool] = []

    class Watch(TakeExtraTurns):
        def decide(self, obs, legal):
            if legal[0].tag is not AbilityTag.EXTRA_TURN:
                flags.append(obs._state.players[obs.seat].ippatsu)
            return super().decide(obs, legal)

    start = scenario_start(["", "2m123p456p789p23s5s", "", ""], draws="7z5s5z6z7z1z", dora="1z")
    haru = CardAbility(CATALOG.card("haru_takimi"), seat=1)
    agents = [ScriptAgent(), Watch(["riichi 2m"]), ScriptAgent(), ScriptAgent()]
    rec = HandState(start, PRESET, agents, abilities=[None, haru, None, None]).play()
    assert any(e.kind == "ability" and e.tag is AbilityTag.EXTRA_TURN for e in rec.events)
    assert flags[:4] == [False, True, True, False]


def test_heuristic_bot_takes_and_declines_extra_turns() -> None:
    from pipeline.bots.heuristic import HeuristicBot
    from pipeline.rules.actions import ActionKind

    counts = {"offered": 0, "taken": 0}

    class Counting(HeuristicBot):
        def decide(self, obs, legal):
            choice = super().decide(obs, legal)
            if legal[0].kind == ActionKind.ABILITY and legal[0].tag is AbilityTag.EXTRA_TURN:
                counts["offered"] += 1
                counts["taken"] += choice == legal[0]
            return choice

    card = CATALOG.card("haru_takimi")
    for seed in range(16):
        start = HandStart(wall=Wall.shuffled(random.Random(seed)).order, dealer=seed % 4)
        play_hand(start, PRESET, [Counting(seed * 4 + s) for s in range(4)],
                  abilities=[CardAbility(card, s) for s in range(4)])
    assert counts["taken"] >= 1
    assert counts["offered"] > counts["taken"]
