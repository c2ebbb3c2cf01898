"""Ryuuka Shimizudani in play: ten wall tiles set aside face up, a declared combination of yaku,
draws from the pool in any order, a win only once the pool is empty and only with exactly the
declared yaku, +1 han on a tsumo; and the heuristic bot's policies for her."""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.pick import ESTIMATES, default_view, features
from pipeline.cards import declarations, registry
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.declared_pool import declaration_label, preferred, step_towards
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.tiles import parse_tiles, parse_types

PRESET = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")
CARD = "ryuuka_shimizudani"

# 234m 234p 567p and 3456s: a tanyao hand waiting on 3s or 6s (a nobetan, no pinfu)
HAND = "234m567p345s234p6s"
WAITS = "3s6s"
POOL = "6s1z2z3z4z5z6z7z1m9m"    # the first ten live tiles: the wait first, then nine discards
# P0 deals and draws only from her pool for her first ten turns; the others draw thirty wall
# tiles meanwhile, so her first wall draw is the 31st tile after the pool
FILLER = 30


class Pool(ScriptAgent):
    """Declares ``declare`` (a label such as "Tanyao"), draws the pool in the given type order,
    takes every win offered; notes the pool draws offered and the wins offered."""

    def __init__(self, declare: str, order: str = "", script: list[str] | None = None) -> None:
        super().__init__(script or [])
        self.declare = declare
        self.order = list(parse_types(order)) if order else []
        self.draw_offers: list[list[Action]] = []
        self.wins_offered: list[tuple[ActionKind, int]] = []
        self.seen_pool: list[tuple[int, ...]] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        for a in legal:
            if a.kind in (ActionKind.TSUMO, ActionKind.RON):
                self.wins_offered.append((a.kind, len(obs.face_up_aside(obs.seat))))
                return a
        if any(a.tag is Move.DECLARE for a in legal):
            return step_towards(legal, frozenset(self.declare.split("+")))
        if any(a.tag is AbilityTag.DRAW_INSTEAD for a in legal):
            self.draw_offers.append(legal)
            self.seen_pool.append(obs.face_up_aside(obs.seat))
            if self.order:
                want = self.order.pop(0)
                return next(a for a in legal if a.tile // 4 == want)
            return legal[0]
        return super().decide(obs, legal)


class Watcher(ScriptAgent):
    """Another seat: notes the tiles it sees face up beside P0's hand."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int, ...]] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.seen.append(obs.face_up_aside(0))
        return super().decide(obs, legal)


FIVE_FIXED = CATALOG.card(CARD).with_param("pool", "declarations", "five_fixed")


def ryuuka(seat: int = 0, card=None) -> list[CardAbility | None]:
    seats: list[CardAbility | None] = [None] * 4
    seats[seat] = CardAbility(card or CATALOG.card(CARD), seat)
    return seats


def play(start, agents, abilities=None):
    state = HandState(start, PRESET, agents, abilities or ryuuka())
    return state.play(), state


def start_with(last: str, *, pool: str = POOL, hand: str = HAND, others: str = ""):
    """P0 holds ``hand``; the pool is ``pool``; after the others' thirty filler draws her first
    wall draw is ``last`` (then filler to the end)."""
    used = hand + pool + last + others
    filler = spare_tiles(FILLER, used, avoid=WAITS + pool)
    tail = spare_tiles(29, used, filler, avoid=WAITS + pool)
    draws = pool + filler + last + tail
    return scenario_start([hand, "", "", ""], draws=draws)


def test_pool_is_the_next_ten_live_tiles_set_aside_face_up() -> None:
    # C-22 Ryuuka: before her first discard she sets aside ten wall tiles, face up for everyone
    start = start_with("9s")
    me, watcher = Pool("Tanyao"), Watcher()
    rec, state = play(start, [me, watcher, ScriptAgent(), ScriptAgent()])
    pool = tuple(start.wall[52:62])             # the ten tiles after the deal
    assert sorted(t // 4 for t in pool) == sorted(parse_types(POOL))
    shown = [e for e in rec.events if e.tag is AbilityTag.SET_ASIDE_FACE_UP]
    assert len(shown) == 1 and shown[0].tiles == pool    # the public log names them
    assert watcher.seen[0] and set(watcher.seen[0]) <= set(pool)  # another seat sees them
    assert me.seen_pool[0] == pool                # her first draw offer shows all ten
    assert [(e.card, e.payload) for e in rec.events
            if e.kind == "ability" and e.tag is Move.DECLARE] == [
        ("ryuuka_shimizudani", ("Tanyao",))]


def test_pool_draws_replace_the_wall_in_her_order_with_no_pass() -> None:
    # she draws from the pool instead of the wall, in any order; no wall draw is offered
    order = "9m1m7z6z5z4z3z2z1z6s"
    me = Pool("Tanyao", order)
    rec, _ = play(start_with("9s"), [me, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    assert len(me.draw_offers) == 10
    assert all(a.kind == ActionKind.ABILITY for offer in me.draw_offers for a in offer)
    assert len(me.draw_offers[0]) == 10 and len(me.draw_offers[-1]) == 1  # one offer a type
    her_draws = [e.tile // 4 for e in rec.events if e.kind == "draw" and e.seat == 0]
    assert her_draws[:10] == list(parse_types(order))
    assert [e.tile // 4 for e in rec.events  # a face-up tile: the event names it
            if e.kind == "ability" and e.tag is AbilityTag.DRAW] == list(parse_types(order))


def test_no_win_while_the_pool_holds_tiles_then_tsumo_with_the_declared_yaku_only() -> None:
    # C-22 Ryuuka: she may win only once the pool is empty; yaku outside the declaration are
    # ignored (menzen tsumo was not declared), and the tsumo bonus counts anyway (+1 han)
    me = Pool("Tanyao", "6s")      # the winning 6s first: complete, but the pool is not empty
    rec, _ = play(start_with("6s"), [me, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    assert me.wins_offered == [(ActionKind.TSUMO, 0)]  # only at her first wall draw
    assert len(rec.wins) == 1
    win = rec.wins[0]
    assert win.seat == 0 and win.is_tsumo
    assert dict(win.yaku) == {"Tanyao": 1}              # no "Menzen Tsumo"
    assert win.han == 1 + 1 + win.dora + win.aka + win.ura  # tanyao + the tsumo bonus


def test_declared_menzen_tsumo_and_tsumo_bonus_both_count() -> None:
    # C-22 Ryuuka: declared menzen tsumo counts, and the bonus counts too
    me = Pool("Menzen Tsumo")
    rec, _ = play(start_with("6s"), [me, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    win = rec.wins[0]
    assert dict(win.yaku) == {"Menzen Tsumo": 1}        # tanyao ignored: not declared
    assert win.han == 1 + 1 + win.dora + win.aka + win.ura


def test_a_win_missing_a_declared_yaku_is_not_offered() -> None:
    # C-22 Ryuuka: she needs every declared yaku; riichi was declared and never made
    me = Pool("Riichi")
    rec, _ = play(start_with("6s"), [me, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    assert me.wins_offered == [] and not rec.wins


def test_declared_menzen_tsumo_then_a_ron_is_a_chombo() -> None:
    # C-22 Ryuuka: declaring menzen tsumo and then winning by ron is a chombo (the penalty
    # itself: tests/cards/swaps/test_cards_dead_swaps.py). P1 discards 6s right after her pool is
    # empty (P1's 11th draw); with Tanyao declared the same ron wins.
    def hand_with_ron(declare: str):
        pool = "9p1z2z3z4z5z6z7z1m9m"   # no 6s: she keeps her wait and is not furiten
        used = HAND + pool + "6s"
        filler = spare_tiles(FILLER, used, avoid=WAITS + pool)
        # P0's first wall draw is the 31st wall tile (9s), P1 then draws 6s and discards it
        draws = pool + filler + "9s" + "6s" + spare_tiles(28, used, filler + "9s",
                                                           avoid=WAITS + pool)
        start = scenario_start([HAND, "", "", ""], draws=draws)
        me = Pool(declare)
        rec, _ = play(start, [me, ScriptAgent(), ScriptAgent(), ScriptAgent()])
        return me, rec

    me, rec = hand_with_ron("Menzen Tsumo")
    assert me.wins_offered == [(ActionKind.RON, 0)] and not rec.wins
    assert rec.draw_kind == "chombo" and [e.seat for e in rec.events if e.kind == "chombo"] == [0]
    me, rec = hand_with_ron("Tanyao")
    assert me.wins_offered == [(ActionKind.RON, 0)]
    assert rec.wins[0].from_seat == 1 and dict(rec.wins[0].yaku) == {"Tanyao": 1}
    assert rec.wins[0].han == 1 + rec.wins[0].dora + rec.wins[0].aka + rec.wins[0].ura


def test_bot_declares_tanyao_with_few_outside_tiles_and_riichi_otherwise() -> None:
    simple = tuple(parse_tiles("234m567p345s234p6s"))
    assert preferred(simple, tuple(parse_tiles("2m3m4m5m6m7m8m2p3p4p"))) == {"Tanyao"}
    assert preferred(simple, tuple(parse_tiles(POOL))) == {"Riichi"}
    assert declaration_label(frozenset({"Riichi", "Menzen Tsumo"})) == "Menzen Tsumo+Riichi"


class Noting(HeuristicBot):
    """The heuristic bot, noting its declaration steps and its pool draws."""

    def __init__(self) -> None:
        super().__init__(0)
        self.drawn: list[int] = []
        self.steps: list[str] = []  # the declarations chosen
        self.menus: list[list[str]] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        choice = super().decide(obs, legal)
        if choice.tag is Move.DECLARE:
            self.steps.append(declaration_label(frozenset(choice.payload)))
            self.menus.append([declaration_label(frozenset(a.payload)) for a in legal])
        if choice.tag is AbilityTag.DRAW_INSTEAD:
            self.drawn.append(choice.tile // 4)
        return choice


def test_five_fixed_bot_declares_riichi_keeps_the_winning_tile_for_last_and_wins() -> None:
    # card ryuuka_shimizudani, reading declarations = five_fixed: one step among the five fixed
    # declarations; the hand is tenpai from the deal, the pool's 6s completes it and she may
    # win on the pool's last tile (none are left then): the bot draws the 6s last
    bot = Noting()
    rec, _ = play(start_with("9s"), [bot, ScriptAgent(), ScriptAgent(), ScriptAgent()],
                  ryuuka(card=FIVE_FIXED))
    assert len(bot.menus) == 1 and sorted(bot.menus[0]) == sorted(
        ["Riichi", "Tanyao", "Menzen Tsumo", "Menzen Tsumo+Riichi", "Riichi+Tanyao"])
    assert bot.declared == {"Riichi"}  # seven honors in the pool: no tanyao (preferred)
    assert len(bot.drawn) == 10 and bot.drawn[-1] == parse_types("6s")[0]
    assert parse_types("6s")[0] not in bot.drawn[:-1]
    win = rec.wins[0]
    # her riichi on her first discard is a double riichi: her declared riichi, worth 2 han
    assert win.seat == 0 and win.is_tsumo and set(dict(win.yaku)) == {"Double Riichi"}


def test_any_combination_bot_declares_by_expected_value_and_wins_with_all() -> None:
    # card ryuuka_shimizudani, C-22 Ryuuka, reading any_combination (the default): with seven
    # honors in the pool riichi alone is worth most (riichi + menzen tsumo would give up every
    # ron, riichi + tanyao lacks simples); with a red dragon triplet in hand the bot declares
    # riichi + chun, a combination five_fixed does not offer (its bot declares riichi): the
    # same deal wins with one han more (double riichi on her first discard, the chun, the
    # tsumo bonus)
    bot = Noting()
    play(start_with("9s"), [bot, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    assert bot.declared == {"Riichi"}
    assert bot.steps[-1] == bot.steps[-2]  # the last step repeats the combination: done
    hand, pool = "777z234m567p345s6s", "6s1z2z3z4z5z6z1m9m9p"
    results = {}
    for name, card in (("any", None), ("fixed", FIVE_FIXED)):
        bot = Noting()
        rec, _ = play(start_with("9s", pool=pool, hand=hand),
                      [bot, ScriptAgent(), ScriptAgent(), ScriptAgent()], ryuuka(card=card))
        results[name] = bot.declared, rec.wins[0]
    declared, win = results["any"]
    assert declared == {"Riichi", "Yakuhai (chun)"}
    assert win.seat == 0 and win.is_tsumo
    assert dict(win.yaku) == {"Double Riichi": 2, "Yakuhai (chun)": 1}  # riichi: 1st discard
    assert win.han == 3 + 1 + win.dora + win.aka + win.ura
    declared, win = results["fixed"]
    assert declared == {"Riichi"} and dict(win.yaku) == {"Double Riichi": 2}
    assert win.han == 2 + 1 + win.dora + win.aka + win.ura


def test_bot_keeps_the_honors_of_a_declared_yakuhai() -> None:
    # card ryuuka_shimizudani, bot policy: with riichi declared the lone chun in hand goes
    # early (and the pool's chun after it); with riichi + chun declared neither is discarded
    class Forced(HeuristicBot):
        def __init__(self, target: set[str]) -> None:
            super().__init__(0)
            self.target = frozenset(target)
            self.discarded: list[int] = []

        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            if any(a.tag is Move.DECLARE for a in legal):  # its step offered first
                a = step_towards(legal, self.target)
                legal = [a, *(x for x in legal if x is not a)]
            choice = super().decide(obs, legal)
            if choice.kind in (ActionKind.DISCARD, ActionKind.RIICHI):
                self.discarded.append(choice.tile // 4)
            return choice

    chun = parse_types("7z")[0]
    for target, gone in (({"Riichi"}, True), ({"Riichi", "Yakuhai (chun)"}, False)):
        bot = Forced(target)
        play(start_with("9s", hand="7z234m567p345s6s11p"),
             [bot, ScriptAgent(), ScriptAgent(), ScriptAgent()])
        assert bot.declared == target
        assert (chun in bot.discarded) is gone


def test_any_combination_offers_reachable_yaku_one_at_a_time_and_drops_clashing_ones() -> None:
    # C-22 Ryuuka, reading any_combination: she may declare any combination of the yaku her
    # hand and pool could make; a flush is out of reach (three suits, no suit near 14 tiles)
    # and once tanyao is declared no yakuhai or chanta is offered beside it
    bot = Noting()
    play(start_with("9s"), [bot, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    first = set(bot.menus[0])
    assert {"Riichi", "Menzen Tsumo", "Tanyao", "Pinfu", "Yakuhai (haku)"} <= first
    assert not {"Chinitsu", "Haitei Raoyue", "Ippatsu", "Double Riichi"} & first

    class Tanyao(Pool):
        def __init__(self) -> None:
            super().__init__("Tanyao+Menzen Tsumo")
            self.menus: list[list[str]] = []

        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            if any(a.tag is Move.DECLARE for a in legal):
                self.menus.append([declaration_label(frozenset(a.payload)) for a in legal])
            return super().decide(obs, legal)

    me = Tanyao()
    rec, _ = play(start_with("6s"), [me, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    after_tanyao = next(m for m in me.menus if all("Tanyao" in d for d in m))
    assert not any("Yakuhai" in d or "Chantai" in d for d in after_tanyao)
    # a combination no fixed list holds: tanyao + menzen tsumo, both counted, + the bonus
    win = rec.wins[0]
    assert dict(win.yaku) == {"Tanyao": 1, "Menzen Tsumo": 1}
    assert win.han == 2 + 1 + win.dora + win.aka + win.ura


def test_five_fixed_offers_no_other_combination() -> None:
    # reading five_fixed: tanyao + menzen tsumo is not among the five (the script cannot
    # declare it), and a yakuhai never is
    me = Pool("Tanyao")
    menus: list[list[str]] = []

    class Noted(Pool):
        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            if any(a.tag is Move.DECLARE for a in legal):
                menus.append([declaration_label(frozenset(a.payload)) for a in legal])
            return super().decide(obs, legal)

    me = Noted("Tanyao")
    play(start_with("6s"), [me, ScriptAgent(), ScriptAgent(), ScriptAgent()],
         ryuuka(card=FIVE_FIXED))
    assert len(menus) == 1 and "Menzen Tsumo+Tanyao" not in menus[0]
    assert not any("Yakuhai" in d for d in menus[0])


def test_expected_value_adds_a_sure_yakuhai_to_riichi_but_not_tanyao() -> None:
    # the bot's choice under any_combination: a dragon triplet in hand is all but sure, so
    # it joins riichi; tanyao, even with 23 simples of 23, halves her wins (measured), so
    # riichi alone is worth more; seven honors in the pool leave tanyao three tiles short
    triplet = tuple(parse_tiles("777z123m456p78s99s1z"))
    pool = tuple(parse_tiles("2m3m4p5p6s2z3z4z9m9p"))
    assert "Yakuhai (chun)" in declarations.best(
        declarations.reachable(triplet, pool, 1, 0, keep=declarations.KEEP))
    simple = tuple(parse_tiles("234m567p345s234p6s"))
    pool = tuple(parse_tiles("2m3m4m5m6m7m8m2p3p4p"))
    odds = declarations.reachable(simple, pool, 1, 0, keep=declarations.KEEP)
    assert odds["Tanyao"] == 0  # every tile a simple: tanyao lacks nothing...
    # ...yet the bot's play does not aim for it, so riichi alone is worth more
    assert declarations.expected_value(frozenset({"Riichi", "Tanyao"}), odds) < \
        declarations.expected_value(frozenset({"Riichi"}), odds)
    odds = declarations.reachable(simple, tuple(parse_tiles(POOL)), 1, 0,
                                  keep=declarations.KEEP)
    assert odds["Tanyao"] == 3 and "Tanyao" not in declarations.best(odds)  # 7 honors: short
    assert declarations.clash("Tanyao", "Yakuhai (chun)") and declarations.clash(
        "Chiitoitsu", "Pinfu") and not declarations.clash("Riichi", "Menzen Tsumo")


def test_pick_estimate_depends_on_the_hand_the_seat_and_the_reading() -> None:
    # no win before the pool is drawn: a hand near tenpai loses its early wins, a far one
    # little; the dealer's wins weigh more; a free declaration is worth more than five fixed
    assert EFFECTS["declared_pool"] in ESTIMATES and registry.playable(CATALOG.card(CARD))
    params = dict(CATALOG.card(CARD).effect("pool").params)
    near = features(tuple(sorted(parse_tiles("123m456p789s1122z3z"))))
    far = features(tuple(sorted(parse_tiles("13m46p79s1234567z"))))
    child, dealer = default_view(1), default_view(0)
    value = ESTIMATES[EFFECTS["declared_pool"]]
    assert value(params, far, child) > 0 > value(params, near, child)
    assert value(params, near, dealer) < value(params, near, child)
    fixed = {**params, "declarations": "five_fixed"}
    assert value(fixed, far, child) < value(params, far, child)
