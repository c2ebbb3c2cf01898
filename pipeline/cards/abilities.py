"""Card abilities built from catalog effects: reusable effect primitives behind the engine hooks.

A :class:`CardAbility` holds one character's card for one seat and answers the engine's hooks by
asking each of its effects. Each effect kind is a small function here (a primitive), fed with the
parameters from the catalog, so a designer's change of a number changes the behaviour with no
code change. Per-character code is only for what no primitive covers.

Primitives implemented so far: scoring ``yaku_value``, ``one_han_yaku_value``, ``count_bonus``
(pinzu tiles, open pons and kans), ``condition_bonus`` (3-7 only, three-type wait, single wait,
tsumo) and ``win_multiplier`` (always); at hand start ``open_hands`` (herself). Extra han from
bonuses are not yaku (rule C-12); a value set replaces, it does not add (rule C-11).
``effect_implemented`` says which effects (with their parameter values) are covered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards.catalog import Card, Effect
from pipeline.rules.actions import Action, MeldKind
from pipeline.rules.agari import winning_types
from pipeline.rules.hooks import (
    AbilityHooks,
    DiscardView,
    OwnTurnView,
    TableControls,
    WinView,
    face_down_actions,
    merge_modifiers,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.tiles import counts34

# Yaku whose usual closed value is 1 han (for "every 1-han yaku is worth N").
ONE_HAN_YAKU = (
    "Menzen Tsumo", "Riichi", "Ippatsu", "Pinfu", "Tanyao", "Iipeiko", "Haitei Raoyue",
    "Houtei Raoyui", "Rinshan Kaihou", "Chankan", "Yakuhai (haku)", "Yakuhai (hatsu)",
    "Yakuhai (chun)", "Yakuhai (seat wind east)", "Yakuhai (seat wind south)",
    "Yakuhai (seat wind west)", "Yakuhai (seat wind north)", "Yakuhai (round wind east)",
    "Yakuhai (round wind south)", "Yakuhai (round wind west)", "Yakuhai (round wind north)",
)

ScoringPrimitive = Callable[[Mapping[str, Any], WinView, int], ScoringModifiers | None]


def _condition_holds(condition: str, win: WinView, seat: int) -> bool | None:
    """Whether a catalog condition holds for this seat's win; None when not implemented."""
    closed = all(not m.is_open for m in win.ctx.melds)
    if condition == "always":
        return True
    if condition == "closed":
        return closed
    if condition == "in_riichi":
        return win.ctx.riichi or win.ctx.double_riichi
    if condition == "damaten":
        return closed and not (win.ctx.riichi or win.ctx.double_riichi)
    if condition == "last_place":
        scores = win.scores
        # rule C-21: on equal points the player farther from the dealer ranks lower
        order = sorted(range(4), key=lambda s: (-scores[s], (s - win.dealer) % 4))
        return order[-1] == seat
    if condition == "chasing_riichi":
        return seat in win.riichi_seats and win.riichi_seats.index(seat) > 0
    return None


def yaku_value(params: Mapping[str, Any], win: WinView, seat: int) -> ScoringModifiers | None:
    """A yaku is worth ``han`` instead of its usual value (rule C-11)."""
    if params["closed_only"] and any(m.is_open for m in win.ctx.melds):
        return None
    if not _condition_holds(params["condition"], win, seat):
        return None
    return ScoringModifiers(yaku_values={params["yaku"]: params["han"]})


def one_han_yaku_value(params: Mapping[str, Any], win: WinView, seat: int
                       ) -> ScoringModifiers | None:
    """Every 1-han yaku is worth ``han`` (dora are not yaku)."""
    if not _condition_holds(params["condition"], win, seat):
        return None
    return ScoringModifiers(yaku_values={name: params["han"] for name in ONE_HAN_YAKU})


def _all_tiles(win: WinView) -> list[int]:
    return [*win.ctx.concealed, *(x for m in win.ctx.melds for x in m.tiles)]


COUNTERS: dict[str, Callable[[WinView], int]] = {
    "pinzu_tiles": lambda win: sum(1 for x in _all_tiles(win) if 9 <= x // 4 < 18),
    "open_pons_kans": lambda win: sum(1 for m in win.ctx.melds
                                      if m.is_open and m.kind != MeldKind.CHI),
}


def count_bonus(params: Mapping[str, Any], win: WinView, seat: int) -> ScoringModifiers | None:
    """Extra han by thresholds of a count (rule C-12: extra han need a real yaku)."""
    if not _condition_holds(params["condition"], win, seat):
        return None
    counter = COUNTERS.get(params["count"])
    if counter is None:
        return None  # not implemented yet: the card is not playable (see effect_implemented)
    n = counter(win)
    han = 0
    for at, value in zip(params["at"], params["han"], strict=True):
        if n >= at:
            han = value
    return ScoringModifiers(extra_han=((params["count"], han),)) if han else None


def _waiting_types(win: WinView) -> frozenset[int]:
    hand = list(win.ctx.concealed)
    hand.remove(win.ctx.win_tile)
    return winning_types(counts34(hand))


CONDITIONS: dict[str, Callable[[WinView], bool]] = {
    "only_3_to_7": lambda win: all(x // 4 < 27 and 2 <= (x // 4) % 9 <= 6
                                   for x in _all_tiles(win)),
    "wait_three_types": lambda win: len(_waiting_types(win)) >= 3,
    "single_wait": lambda win: len(_waiting_types(win)) == 1,
    "tsumo": lambda win: win.ctx.is_tsumo,
}


def condition_bonus(params: Mapping[str, Any], win: WinView, seat: int
                    ) -> ScoringModifiers | None:
    """Extra han when a condition holds on the win (rule C-12)."""
    holds = CONDITIONS.get(params["when"])
    if holds is not None and holds(win):
        return ScoringModifiers(extra_han=((params["when"], params["han"]),))
    return None


OPEN_REDUCED_YAKU = {"Sanshoku Doujun": 2, "Ittsu": 2, "Honitsu": 3, "Chantai": 2,
                     "Junchan": 3, "Chinitsu": 6}


def open_keeps_value(params: Mapping[str, Any], win: WinView, seat: int
                     ) -> ScoringModifiers | None:
    """Yaku that lose a han when open keep their closed value (C-22 Mako: not closed-only
    yaku such as pinfu)."""
    return ScoringModifiers(yaku_values=dict(OPEN_REDUCED_YAKU))


def win_multiplier(params: Mapping[str, Any], win: WinView, seat: int
                   ) -> ScoringModifiers | None:
    """The win's value (before honba and sticks) is multiplied."""
    if params["when"] == "always":
        return ScoringModifiers(value_multiplier=params["factor"])
    return None


SCORING_PRIMITIVES: dict[str, ScoringPrimitive] = {
    "open_keeps_value": open_keeps_value,
    "win_multiplier": win_multiplier,
    "yaku_value": yaku_value,
    "one_han_yaku_value": one_han_yaku_value,
    "count_bonus": count_bonus,
    "condition_bonus": condition_bonus,
}

FACE_DOWN_WHEN = frozenset(("once_per_hand", "ippatsu_threat", "after_chi"))


def _extra_turn_earned(when: str, params: Mapping[str, Any], view: DiscardView) -> bool:
    t = view.tile // 4
    called = view.after_call
    if when == "discard_2_or_8":
        return t < 27 and t % 9 in (1, 7)
    if when == "discard_white_dragon":
        return t == 31
    if when == "call_souzu_or_green":
        return called is not None and (18 <= called[1] // 4 < 27 or called[1] // 4 == 32)
    if when == "after_call":
        return called is not None
    if when == "tedashi_all_closed_behind":
        # C-22 Aislinn: no extra turn from a discard after a call; the dealer's first discard
        # counts as tedashi
        tedashi = not view.tsumogiri or (view.first_discard and view.seat == view.dealer)
        below = view.scores[view.seat] < view.start_points or not params["points_below_start"]
        return called is None and view.others_closed and tedashi and below
    return False


EXTRA_TURN_WHEN = frozenset(("discard_2_or_8", "discard_white_dragon", "call_souzu_or_green",
                             "after_call", "tedashi_all_closed_behind"))

# Parameters whose values are only partly covered: an effect is implemented when its value is.
SUPPORTED_CHOICES: dict[tuple[str, str], frozenset[str]] = {
    ("count_bonus", "count"): frozenset(COUNTERS),
    ("condition_bonus", "when"): frozenset(CONDITIONS),
    ("yaku_value", "condition"): frozenset(
        ("always", "closed", "in_riichi", "damaten", "last_place", "chasing_riichi")),
    ("win_multiplier", "when"): frozenset(("always",)),
    ("face_down_discard", "when"): FACE_DOWN_WHEN,
    ("extra_turn", "when"): EXTRA_TURN_WHEN,
    ("open_hands", "who"): frozenset(("self",)),
    ("one_han_yaku_value", "condition"): frozenset(
        ("always", "closed", "in_riichi", "damaten", "last_place", "chasing_riichi")),
}


# Effects acting at the start of the hand through the table controls.
HAND_START_PRIMITIVES: dict[str, Callable[[Mapping[str, Any], TableControls, CardAbility],
                                          None]] = {}


OWN_TURN_KINDS = frozenset(("face_down_discard", "extra_turn"))


def effect_implemented(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether this effect, with these parameters, has an implementation."""
    if kind not in SCORING_PRIMITIVES and kind not in HAND_START_PRIMITIVES \
            and kind not in OWN_TURN_KINDS:
        return False
    return all(params.get(name) in choices
               for (k, name), choices in SUPPORTED_CHOICES.items() if k == kind)


def open_hands(params: Mapping[str, Any], table: TableControls, ability: CardAbility) -> None:
    """She plays face up from the start of the hand (the pick is revealed before the dealer's
    first discard)."""
    if params["who"] == "self":
        table.reveal_hand(ability.seat, ability.name)


class CardAbility(AbilityHooks):
    """One character's ability for one seat, answering the hooks from the card's effects."""

    def __init__(self, card: Card, seat: int) -> None:
        self.card = card
        self.seat = seat
        self.name = card.id
        self._scoring: list[tuple[Effect, ScoringPrimitive]] = [
            (e, SCORING_PRIMITIVES[e.kind]) for e in card.effects if e.kind in SCORING_PRIMITIVES
        ]
        self._start = [(e, HAND_START_PRIMITIVES[e.kind]) for e in card.effects
                       if e.kind in HAND_START_PRIMITIVES]
        self._face_down = [e.params["when"] for e in card.effects
                           if e.kind == "face_down_discard" and e.params["when"] in FACE_DOWN_WHEN]
        self.face_down_used = 0  # an ability lives for one hand: "once per hand" counts here

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Face-down discards (rule C-13) when the card's condition holds."""
        for when in self._face_down:
            if (when == "once_per_hand" and not self.face_down_used) or \
                    (when == "ippatsu_threat" and view.opponents_ippatsu) or \
                    (when == "after_chi" and view.after_call == "chi"):
                return face_down_actions(view, self.name)
        return []

    def extra_turn(self, view: DiscardView) -> bool:
        """Extra turns the card's effects earn (offered by the engine; optional, C-17)."""
        return not view.face_down and any(
            _extra_turn_earned(e.params["when"], e.params, view) for e in self.card.effects
            if e.kind == "extra_turn")

    def action_taken(self, action: Action) -> None:
        if action.detail.endswith(":face_down"):
            self.face_down_used += 1

    def hand_start(self, table: TableControls) -> None:
        for effect, primitive in self._start:
            primitive(effect.params, table, self)

    def scoring(self, win: WinView) -> ScoringModifiers | None:
        if win.seat != self.seat or not self._scoring:
            return None
        return merge_modifiers(p(e.params, win, self.seat) for e, p in self._scoring)


HAND_START_PRIMITIVES["open_hands"] = open_hands
