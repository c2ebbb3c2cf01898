"""Card abilities built from catalog effects: reusable effect primitives behind the engine hooks.

A :class:`CardAbility` holds one character's card for one seat and answers the engine's hooks by
asking each of its effects, fed with the parameters from the catalog, so a designer's change of
a number changes the behaviour with no code change. The effect kinds with a class of their own
(:mod:`pipeline.cards.effects`, listed in :data:`~pipeline.cards.effects.registry.EFFECTS`:
``yaku_value``, ``one_han_yaku_value``, ``count_bonus``, ``win_multiplier``,
``open_keeps_value``, ``open_hands``, ``local_yaku``, ``ura_rule``, ``score_as_dealer``,
``double_wind``, ``always_riichi``, ``condition_bonus``, ``dora_both_ways``,
``han_per_count``, ``win_without_yaku``, ``extra_turn``, ``face_down_discard``,
``rinshan_reveal``, ``wall_to_indicator``, ``noten_double_wall``, ``declared_pool``,
``honor_sequences``, ``winds_as_west``) are each
sent only the hooks they name (any of ``EFFECT_HOOKS``: ``hand_start``, ``scoring``,
``forced_face_down``, ``extra_turn``, ``own_actions``, ``action_taken``, ``replace_draw``,
``kans_closed``, ``payments``, ``draw_payments``, ``before_draw``, ``claim_filter``,
``win_allowed``, ``win_is_chombo``, ``hand_shapes``), with the hand's table controls in the
contexts built after the deal; the other 32 kinds are still played by the effect families
below, whose hooks ``_silent`` says they act on, until each moves to a class. Extra han from
bonuses are not yaku (rule C-12); a value set replaces, it does not add (rule C-11).
``effect_implemented`` says which effects (with their parameter values) are covered. The
families: extra sequences and what the counts read in :mod:`pipeline.cards.shapes`; claim
filters, priority calls, set-aside draws
and repeated discards in :mod:`pipeline.cards.claims` (mixed in as ``ClaimEffects``); wall
exchanges, draws from her own pond, a private extra tile and the last-tile effects in
:mod:`pipeline.cards.wall_effects`; rinshan tiles that always win in
:mod:`pipeline.cards.meta_effects` (which also holds the copied and two-sided cards the card
table builds); tiles swapped with ponds or the next wall tile, melds swapped and wins blocked
by a seat wind in :mod:`pipeline.cards.swap_effects`; payments per out, a tsumo paid as a ron,
stakes, sweeps, floors, honba by han and the dora rules in :mod:`pipeline.cards.payments`
(``PaymentHooks``); call payments and always-winning tiles in :mod:`pipeline.cards.table_effects`;
late rons, chi from any seat, wins doubled by chi sources, dama protection, blocked calls and
duels in :mod:`pipeline.cards.duel_effects` (``DuelHooks``).

Bot policies. Each card says what the heuristic bot (:mod:`pipeline.bots.heuristic`) does with
its choices, and why, in a sentence opening "Bot policy" and the card's name in brackets, in the
docstring of the module that implements it (``tests/test_card_policy_docs.py`` checks that every
card has one). Which card to play is the bots' business: the pick estimate of each effect's
worth with the starting hand (:mod:`pipeline.bots.pick`, which the card layer never imports).
Two choices are shared by many cards. An extra turn (optional,
C-17) is taken unless a threat is on the table (a riichi, or an opponent with three open melds,
or two late in the hand) while her hand is two or more steps from tenpai: a folding hand would
only risk one more discard. A face-down discard cannot deal in (C-13), so it is used only under
a threat, on the tile the bot would discard anyway when that tile is dangerous (an expected
deal-in cost of ``FACE_DOWN_MIN_DANGER``, 100 points, or more; in riichi, the tile she must
discard). The bot's tile judgment knows only the standard hand shapes and values, so a card's
bonuses do not change how it builds a hand unless its policy says so.

- Bot policy (Aislinn Wishart): her extra turn after a tedashi discard follows the shared rule;
  the stake others pay for opening needs no decision of hers (and other bots do not call less
  against her).
- Bot policy (Awai Oohoshi): (``rinshan_reveal``) a revealed tile is swapped with an indicator
  when the new indicator makes more of her tiles dora than the old one did and the best tile to
  take stays as good; she then takes the revealed tile that leaves her hand closest to tenpai
  after her best discard (the best connected on a tie). Her kans follow the bot's usual kan
  rules, which call no kan on a discard with a closed hand: the kan on a discard her riichi
  allows is never taken.
- Bot policy (Toyone Anetai): no decision: the chasing-riichi value, Shiiaru raotai and the
  stick bonus apply by themselves, with the bot's usual riichi and calls; the pick prices each
  by a rough chance of applying.
- Bot policy (Nodoka Haramura): her one face-down discard follows the shared rule, so it waits
  for a dangerous tile; the pick prices 2-han pinfu and closed tanyao by the starting hand.
- Bot policy (Komaki Jindai): no decision: she plays face up from the start; the pick weighs
  the doubled win and 2-han riichi and ippatsu against a fixed cost for the open hand.
- Bot policy (Tomoe Karijuku): her extra turn after a white dragon discard follows the shared
  rule; the white dragon winning in riichi and the tsumo bonus need none (the bot takes every
  win offered); the pick counts the white dragons held and unseen.
- Bot policy (Touka Ryuumonbuchi): no decision (``score_as_dealer``): the bot declares riichi
  by its usual rule; the pick prices a riichi win paid as a dealer's, or as dealer one limit
  higher.
- Bot policy (Arata Sagimori): no decision: the bot does not gather pinzu on purpose; the pick
  prices the pinzu thresholds from the pinzu of the starting hand.
- Bot policy (Tomoki Sawamura): her face-down discard while she could deal into an ippatsu
  follows the shared rule (the riichi is the threat); the pick prices 2-han menzen tsumo and
  iipeikou (and 4-han ryanpeikou) by the starting hand.
- Bot policy (Mako Someya): her extra turn after calling souzu or the green dragon follows the
  shared rule; the bot calls by its usual rules, not more for the extra turn; the pick prices
  the open values kept by how far the starting hand leans to one suit.
- Bot policy (Ryuuka Shimizudani): (``declared_pool``) the bot declares the card's preferred
  combination, offered first: under ``any_combination`` the one of highest expected value
  (``declarations.best``: the chance a win holds every declared yaku times what it pays; riichi
  alone unless a second yaku is all but sure), under ``five_fixed``
  :func:`~pipeline.cards.effects.declared_pool.preferred` (tanyao when hand and pool hold at most
  3 terminals and honors, since it survives calls; riichi otherwise). She draws from the pool the
  tile that leaves her hand closest to tenpai, keeping a tile that completes her hand for last
  (she may win only once the pool is empty); with a yaku declared that needs a closed hand she
  makes no call, with riichi declared she declares riichi as soon as she is tenpai, and with a
  yakuhai declared she never discards its honor while she has another tile to discard. It never
  declares a ron marked as a chombo: a reverse mangan for nothing.
- Bot policy (Satomi Kanbara): no decision (``wall_to_indicator``, ``noten_double_wall``): the
  longer wall, the doubled payments and the extra indicators follow from where the hand ends;
  the pick weighs the indicators of a win on her own wall against her doubled payments there.
- Bot policy (Shizuno Takakamo): no decision (``ura_rule``); the pick prices her extra ura
  indicators on riichi wins and the ura the others lose.
- Bot policy (Hisa Takei): no decision: the single-wait han and the hell-wait doubling apply at
  her win; the bot's waits and its riichi or dama choice are its usual ones.
- Bot policy (Haru Takimi): her extra turn after a 2 or 8 and her face-down discard after a chi
  follow the shared rules; the bot neither keeps 2s and 8s nor calls chi for them; the pick
  counts the 2s and 8s held and prices the 3-to-7 bonus by the simples held.
- Bot policy (Momoko Touyoko): no decision: her third-row discards go face down by force
  (``always_riichi``); the bot still declares riichi by its usual rule, although the card gives
  a closed win riichi and ura anyway (a declared riichi adds mostly the ippatsu chance).
- Bot policy (Hatsumi Usuzumi): no decision (``double_wind``): the bot keeps a pair of her seat
  wind as it keeps any value pair; the pick prices the double yakuhai by the seat winds held and
  the others' wind melds.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from pipeline.cards import (
    claims,
    duel_effects,
    meta_effects,
    payments,
    swap_effects,
    table_effects,
    wall_effects,
)
from pipeline.cards.catalog import Card
from pipeline.cards.effects import rinshan_reveal
from pipeline.cards.effects.base import (
    BeforeDrawContext,
    CardEffect,
    ClaimContext,
    DiscardContext,
    DrawContext,
    HandStartContext,
    PaymentContext,
    ScoringContext,
    TurnContext,
    WinCheckContext,
)
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import Action
from pipeline.rules.hand_shapes import HandShapes
from pipeline.rules.hooks import (
    AbilityHooks,
    CallView,
    ClaimView,
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WallControls,
    WinTileView,
    WinView,
    merge_modifiers,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import RiichiView, Settlement

# Parameters whose values are only partly covered: an effect is implemented when its value is.
SUPPORTED_CHOICES: dict[tuple[str, str], frozenset[str]] = {
    ("condition_bonus", "when"): payments.MEMORY_CONDITIONS,  # the rest: its class
    ("stake_rule", "when"): payments.STAKE_WHEN,
    ("priority_call", "call"): claims.SUPPORTED_CALLS,
}


OWN_TURN_KINDS = frozenset(("face_down_discard", "extra_turn")) | claims.CLAIM_KINDS

# Optional choices an ability offers to its player: an ``ABILITY`` action tagged ``<what>``,
# next to a plain alternative (a discard, or a pass). Register ``<what>`` here when adding one:
# the bots must both use and decline every registered choice (tests/test_optional_effects.py
# plays hands with every playable card to check it).
OPTIONAL_EFFECTS: set[str] = {"face_down", "extra_turn", "draw", "repeat"}
OPTIONAL_EFFECTS.update(payments.RIICHI_CHOICES)  # a riichi declared with a stake
OPTIONAL_EFFECTS.update(wall_effects.OPTIONAL)  # a swap with the tile beside the hand, ...
OPTIONAL_EFFECTS.update(swap_effects.OPTIONAL)  # a swap with a pond tile
OPTIONAL_EFFECTS.update(rinshan_reveal.OPTIONAL)  # a revealed tile swapped with an indicator


def effect_implemented(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether this effect, with these parameters, has an implementation: its class
    (:data:`~pipeline.cards.effects.registry.EFFECTS`), or an effect family here."""
    if kind in EFFECTS:  # some values of a few kinds are still played by a family here
        effect = EFFECTS[kind]
        names = set(effect.supported) | {n for k, n in SUPPORTED_CHOICES if k == kind}
        return all(params.get(n) in effect.supported.get(n, frozenset())
                   | SUPPORTED_CHOICES.get((kind, n), frozenset()) for n in names)
    if kind not in OWN_TURN_KINDS and kind not in payments.PAYMENT_KINDS \
            and kind not in table_effects.TABLE_KINDS and kind not in duel_effects.DUEL_KINDS \
            and kind not in swap_effects.SWAP_KINDS \
            and kind not in wall_effects.WALL_KINDS and kind not in meta_effects.META_KINDS:
        return False
    return all(params.get(name) in choices
               for (k, name), choices in SUPPORTED_CHOICES.items() if k == kind)


class CardAbility(duel_effects.DuelHooks, claims.ClaimEffects, payments.PaymentHooks,
                  AbilityHooks):
    """One character's ability for one seat, answering the hooks from the card's effects."""

    def __init__(self, card: Card, seat: int, memory: MatchMemory | None = None) -> None:
        self.card = card
        self.seat = seat
        self.name = card.id
        self._memory = memory
        # the effects with a class of their own, each sent only the hooks it names
        self.effects: tuple[CardEffect, ...] = tuple([
            EFFECTS[e.kind](e.params, seat, card.id) for e in card.effects if e.kind in EFFECTS])
        self._scorers = tuple([e for e in self.effects if "scoring" in e.hooks])  # card order
        self._heard = frozenset().union(*(effect.hooks for effect in self.effects))
        self._table: TableControls | None = None  # this hand's, once it has started

    # The effect families, each built when first asked: a hand asks few of them.

    @cached_property
    def pay(self) -> payments.PaymentEffects:
        return payments.PaymentEffects(self.card, self.seat, self._memory or MatchMemory())

    @cached_property
    def tab(self) -> table_effects.TableEffects:
        return table_effects.TableEffects(self.card, self.seat)

    @cached_property
    def duel(self) -> duel_effects.DuelEffects:
        """Claims, wins, blocks, duels."""
        return duel_effects.DuelEffects(self.card, self.seat)

    @cached_property
    def walls(self) -> wall_effects.WallEffects:
        """The wall and draws."""
        return wall_effects.WallEffects(self.card, self.seat)

    @cached_property
    def swaps(self) -> swap_effects.SwapEffects:
        """Tiles swapped with ponds."""
        return swap_effects.SwapEffects(self.card, self.seat)

    @cached_property
    def meta(self) -> meta_effects.MetaEffects:
        """Rinshan tiles, winds read as West."""
        return meta_effects.MetaEffects(self.card, self.seat)

    @cached_property
    def _silent(self) -> frozenset[str]:
        """The engine-asked hooks on which this card's effects never act (they would return
        what they were given, or nothing, and change no state): ``listens`` is False there.
        Worked out when first asked (an ability built for a pick estimate never is)."""
        kinds, duel, tab, swaps = self._kinds(), bool(self.duel), bool(self.tab), bool(self.swaps)
        walls = bool(self.walls)
        by_place = tab and "others_while_last" in self.tab.open_who  # checked at draws, discards
        late = duel and bool(self.duel.late_han)  # a late ron: offered, then scored
        peeks = swaps and self.swaps.peek          # a peek at the wall after others' moves
        wind = swaps and self.swaps.wind_guard     # wins blocked, swaps with a passed wind
        acting = {
            "claim_filter": (duel and (self.duel.block or self.duel.chi_any))
            or bool(kinds & claims.FILTER_KINDS) or bool(self._calls() & claims.FILTER_CALLS),
            "claim_made": (duel and bool(self.duel.double_chi or self.duel.open_stake)) or tab
            or swaps or "set_aside_draw" in kinds,
            "before_draw": walls or "set_aside_draw" in kinds,
            "replace_draw": False,  # only effect classes replace a draw
            "after_draw": by_place or late or (duel and self.duel.dama) or peeks
            or (bool(self.meta) and self.meta.rinshan),
            "discard_made": (walls and self.walls.last_tile) or peeks or by_place,
            "discard_passed": wind,
            "discard_actions": "repeat_discard" in kinds,
            "late_claims": late,
            "win_allowed": wind or (walls and not self.walls.taken_tile_wins),
            "win_is_chombo": False,  # only effect classes make a win a chombo
            "switched_off": duel and bool(self.duel.block or self.duel.factor),
            "extra_turn": tab and "suji_or_genbutsu_vs_riichi" in self.tab.extra_when,
            "forced_face_down": False,  # only effect classes force a face-down discard
            "always_wins": (duel and self.duel.dama) or (walls and self.walls.last_tile)
            or (tab and "white_dragon_in_riichi" in self.tab.always)
            or (bool(self.meta) and self.meta.rinshan),
            # face-down discards; riichi with a stake (see own_actions, turn_choices below)
            "own_actions": tab or "inazuma_riichi" in self.pay.params
            or "extra_dora_stake" in self.pay.params,
            "turn_choices": walls or swaps or tab or duel,
        }
        return frozenset([hook for hook, on in acting.items() if not on])

    def listens(self, hook: str) -> bool:
        """Every hook is overridden here: it is heard when an effect class names it, or when
        an effect family acts on it (``_silent`` says where none does)."""
        return hook in self._heard or hook not in self._silent

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Face-down discards (rule C-13) when the card's condition holds."""
        table = self.tab.own_actions(view) if self.tab else []
        if table:
            return table + self.pay.own_actions(view)
        turn = None  # built for the first effect that acts on the turn
        for effect in self.effects:
            if "own_actions" in effect.hooks:
                if turn is None:
                    turn = TurnContext(view)
                offered = effect.own_actions(turn)
                if offered:
                    return offered + self.pay.own_actions(view)
        return self.pay.own_actions(view)

    def extra_turn(self, view: DiscardView) -> bool:
        """Extra turns the card's effects earn (offered by the engine; optional, C-17)."""
        if view.face_down:
            return False
        earners = [effect for effect in self.effects if "extra_turn" in effect.hooks]
        if earners:
            discard = DiscardContext(view)
            if any(effect.extra_turn(discard) for effect in earners):
                return True
        return bool(self.tab) and self.tab.extra_turn(view)

    def action_taken(self, action: Action) -> None:
        for effect in self.effects:
            if "action_taken" in effect.hooks:
                effect.action_taken(action)
        self.pay.action_taken(action)
        self.tab.action_taken(action)
        self.duel.action_taken(action)
        if self.walls:
            self.walls.action_taken(action)

    def hand_start(self, table: TableControls) -> None:
        self.pay.hand_start(table)
        self.tab.hand_start(table)
        self.duel.hand_start(table)
        if self.walls:
            self.walls.hand_start(table)
        if self.swaps:
            self.swaps.hand_start(table)
        self._table = table  # the controls the hand's later hooks hand to the effect classes
        start = HandStartContext(table, self.seat, self.name)
        for effect in self.effects:
            if "hand_start" in effect.hooks:
                effect.hand_start(start)

    def scoring(self, win: WinView) -> ScoringModifiers | None:
        own = win.seat == self.seat
        extra = self.pay.scoring(win) if own and self.pay else []
        extra += self.tab.scoring(win) if own and self.tab else []
        extra += self.duel.scoring(win) if own and self.duel else []
        extra += self.swaps.scoring(win) if own and self.swaps else []
        if not self._scorers and not extra:
            return None
        asked = ScoringContext(win, self.seat, self._table)
        return merge_modifiers([*(e.scoring(asked) for e in self._scorers if own or e.any_win),
                                *extra])

    # table effects (pipeline/cards/table_effects.py) on the hooks other mixins answer too
    def turn_choices(self, view: OwnTurnView) -> list[Action]:
        if self.walls:  # the wall steps her turn starts with (pipeline/cards/wall_effects.py)
            self.walls.turn_start(view)
        if self.swaps:  # swaps with a pond (pipeline/cards/swap_effects.py)
            self.swaps.turn_start(view)
        return (self.tab.turn_choices(view) if self.tab else []) or \
            (self.duel.turn_choices(view) if self.duel else [])

    def after_draw(self, view: DrawView) -> None:
        super().after_draw(view)
        if self.tab:
            self.tab.after_draw(view)
        if self.swaps:
            self.swaps.after_draw(view)
        if self.meta:
            self.meta.after_draw(view)

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        super().riichi(view, table)
        if self.tab:
            self.tab.riichi(view, table)
        if self.swaps:
            self.swaps.riichi(view)

    def claim_made(self, view: CallView) -> None:
        super().claim_made(view)
        if self.tab:
            self.tab.claim_made(view)
        if self.swaps:
            self.swaps.claim_made(view)

    def hand_shapes(self) -> HandShapes | None:
        own = super().hand_shapes()
        for effect in self.effects:
            if "hand_shapes" in effect.hooks:
                extra = effect.hand_shapes()
                own = extra.merged(own) if extra else own
        return own

    def always_wins(self, view: WinTileView) -> bool:
        """Asked of a seat at every discard: a card with no always-winning tile says no at
        once (``_every_always_win`` asks each effect family)."""
        return "always_wins" not in self._silent and self._every_always_win(view)

    def _every_always_win(self, view: WinTileView) -> bool:
        return super().always_wins(view) or (bool(self.tab) and self.tab.always_wins(view)) \
            or (bool(self.walls) and self.walls.always_wins(view)) \
            or (bool(self.meta) and self.meta.always_wins(view))

    # swap effects (pipeline/cards/swap_effects.py)
    def win_allowed(self, win: WinView) -> bool:
        return super().win_allowed(win) and (not self.swaps or self.swaps.win_allowed(win)) \
            and self._classes_allow(win) and (not self.walls or self.walls.win_allowed(win))

    def _classes_allow(self, win: WinView) -> bool:
        asked = WinCheckContext(win, self.seat, self._table)
        return all(effect.win_allowed(asked) for effect in self.effects
                   if "win_allowed" in effect.hooks)

    @cached_property
    def _left_when_off(self) -> AbilityHooks | None:
        return claims.PonKanBan(self.seat, self.name) if claims.restriction_stays(self.card) \
            else None

    def while_switched_off(self) -> AbilityHooks | None:
        """Under Yuuko's reading ``restriction_stays``: her ban on pon and kan."""
        return self._left_when_off

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        actions = super().claim_filter(view, actions)
        for effect in self.effects:
            if "claim_filter" in effect.hooks:
                actions = effect.claim_filter(ClaimContext(view, actions))
        return actions

    def win_is_chombo(self, win: WinView) -> bool:
        """Whether an effect makes her declared win a chombo (``declared_pool``)."""
        asked = WinCheckContext(win, self.seat, self._table)
        return any(effect.win_is_chombo(asked) for effect in self.effects
                   if "win_is_chombo" in effect.hooks)

    def discard_passed(self, view: DiscardView, table: TableControls) -> None:
        super().discard_passed(view, table)
        if self.swaps:
            self.swaps.discard_passed(view)

    def payments(self, s: Settlement) -> None:
        super().payments(s)
        paid = PaymentContext(s, self._table)
        for effect in self.effects:
            if "payments" in effect.hooks:
                effect.payments(paid)

    def draw_payments(self, s: Settlement) -> None:
        super().draw_payments(s)
        paid = PaymentContext(s, self._table)
        for effect in self.effects:
            if "draw_payments" in effect.hooks:
                effect.draw_payments(paid)

    # effect classes only
    def kans_closed(self) -> bool:
        """Whether an effect makes her kans closed once made (``rinshan_reveal``)."""
        return any(effect.kans_closed() for effect in self.effects
                   if "kans_closed" in effect.hooks)

    def replace_draw(self, view: DrawView, wall: WallControls) -> int | None:
        """The draw an effect makes in its own way (``rinshan_reveal``), or None."""
        ctx = DrawContext(view, wall)
        for effect in self.effects:
            if "replace_draw" in effect.hooks:
                drawn = effect.replace_draw(ctx)
                if drawn is not None:
                    return drawn
        return None

    def before_draw(self, view: DrawView) -> list[Action]:
        own = self.walls.before_draw(view) if self.walls else []
        asked = BeforeDrawContext(view, self._table)
        for effect in self.effects:
            if "before_draw" in effect.hooks:
                own += effect.before_draw(asked)
        if view.source == "rinshan":  # a set-aside pond tile waits for a live draw
            return own
        return super().before_draw(view) + own

    def discard_made(self, view: DiscardView, table: TableControls) -> None:
        if self.walls:
            self.walls.discard_made(view, table)
        if self.swaps:
            self.swaps.discard_made(view)
        if self.tab:
            self.tab.discard_made(view, table)

    def forced_face_down(self, view: OwnTurnView) -> bool:
        """Whether an effect forces her plain discard face down (``always_riichi``)."""
        forcing = [effect for effect in self.effects if "forced_face_down" in effect.hooks]
        if not forcing:
            return False
        turn = TurnContext(view)
        return any(effect.forced_face_down(turn) for effect in forcing)


# Table effects (pipeline/cards/table_effects.py): their primitives and parameter values.
for _key, _values in (*table_effects.SUPPORTED.items(), *duel_effects.SUPPORTED.items(),
                      *swap_effects.SUPPORTED.items(),
                      *meta_effects.SUPPORTED.items()):
    SUPPORTED_CHOICES[_key] = SUPPORTED_CHOICES.get(_key, frozenset()) | _values
