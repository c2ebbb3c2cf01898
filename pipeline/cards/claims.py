"""Claim, draw and discard primitives: what a card changes about calls, draws and discards.

:class:`ClaimEffects` answers the engine's ``hand_shapes``, ``claim_filter``, ``claim_made``,
``before_draw`` and ``discard_actions`` hooks from a card's effects (it is mixed into
:class:`pipeline.cards.abilities.CardAbility`). The primitives, by effect kind:

- ``wrap_sequences``: besides the shapes, she may not pon or kan (no call, no own kan). While
  another card switches her ability off the restriction lifts with it (reading
  ``switched_off = "restriction_lifts"``, the default) or stays (``"restriction_stays"``:
  :class:`PonKanBan` is what remains of her ability).
- ``priority_call`` (``pon_red_dragon_from_pond``): when a player discards, she may pon a red
  dragon lying in that player's pond, with the timing of a normal pon and priority over every
  other claim, ron included (C-22 Yuu). A red dragon just discarded is taken the same way.
- ``unclaimable_repeat``: her discard of a type already lying face up in her pond cannot be
  called or ronned; it still gives furiten (the engine's furiten rule is untouched).
- ``set_aside_draw``: when she pons and the fourth copy lies in another player's pond, her next
  live draw may be that tile instead of the wall's (offered; taking it is optional).
- ``repeat_discard``: when her discard is not called she may discard a second tile of the same
  type at once, which nobody may call or ron, and draw a replacement tile (her turn ends).

Bot policies (the shared rules are in :mod:`pipeline.cards.abilities`):

- Bot policy (Yoshiko Kainou): the bot repeats the discard when the second copy is useless (the
  hand is no further from tenpai with a dead honor in its place): a safe, unclaimable discard
  and a fresh draw. Uumensai needs no decision; the bot does not aim for five families.
- Bot policy (Kurumi Kakura): no decision: a repeated type cannot be called or ronned by itself;
  the bot neither repeats types on purpose nor aims for damaten seven pairs.
- Bot policy (Yuuko Mase): no decision: the engine offers her no pon or kan and reads her
  wrap-around sequences; the bot counts them as sets when it builds her hand (shanten and
  acceptance in pipeline/bots/shaped.py) and takes every win and riichi they make.
- Bot policy (Seiko Matano): the set-aside fourth copy is drawn instead of the wall's tile when
  her hand is within one step of tenpai (the kan it makes brings a replacement draw, fu and a
  dora indicator) or under a threat (a tile already seen is safer to hold); a slow hand draws
  from the wall. Her pon bonus needs no decision: the bot calls by its usual rules.
- Bot policy (Yuu Matsumi): her priority pon of a red dragon (just discarded or earlier in the
  discarder's pond) is judged like any pon of a value tile: taken when it brings her hand closer
  to tenpai (under a threat only to reach tenpai). The warm-tile bonus needs no decision; the
  bot does not keep warm tiles on purpose.
"""

from __future__ import annotations

from functools import cached_property
from itertools import combinations

from pipeline.cards.catalog import Card
from pipeline.cards.shapes import shapes_of
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hand_shapes import HandShapes
from pipeline.rules.hooks import AbilityHooks, CallView, ClaimView, DiscardView, DrawView

RED_DRAGON = 33
NO_CALL_KINDS = frozenset({ActionKind.PON, ActionKind.MINKAN, ActionKind.ANKAN,
                           ActionKind.KAKAN})

# Effect kinds this module implements (parameters, where they matter: SUPPORTED_CALLS).
CLAIM_KINDS = frozenset({"wrap_sequences", "priority_call",
                         "unclaimable_repeat", "set_aside_draw", "repeat_discard"})
SUPPORTED_CALLS = frozenset({"pon_red_dragon_from_pond"})


def no_pon_or_kan(view: ClaimView, actions: list[Action], seat: int) -> list[Action]:
    """She may not pon or kan: her pon, open kan and own kan declarations are dropped."""
    if view.seat != seat:
        return actions
    return [a for a in actions if a.kind not in NO_CALL_KINDS]


def unclaimable_repeat(view: ClaimView, actions: list[Action], seat: int) -> list[Action]:
    """Her discard of a type already lying face up in her pond: no call, no ron on it."""
    if view.discarder != seat or view.tile is None or view.kan_tile:
        return actions
    earlier = {x // 4 for x in view.ponds[seat][:-1]}
    if view.tile // 4 not in earlier:
        return actions
    return [a for a in actions if a.tile != view.tile]


def red_dragon_pond_pon(view: ClaimView, actions: list[Action], seat: int, name: str
                        ) -> list[Action]:
    """Her priority pon of a red dragon from the discarder's pond (C-22 Yuu): a pon of the red
    dragon just discarded (when the rules and the other filters allow it) becomes a priority
    pon, and a red dragon lying earlier in the same pond may be taken the same way."""
    if (view.seat != seat or view.discarder is None or view.tile is None or view.in_riichi
            or view.last_discard or view.unclaimable or view.kan_tile):
        return actions
    own = sorted(x for x in view.concealed if x // 4 == RED_DRAGON)
    others = [x for x in view.concealed if x // 4 != RED_DRAGON]
    if len(own) < 2 or not others:
        return actions  # rule H-07: after the pon she must have a tile she may discard
    targets = []
    if any(a.kind == ActionKind.PON and a.tile == view.tile for a in actions):
        targets.append(view.tile)  # the discard itself: the normal pon gains priority
    earlier = [x for x in view.ponds[view.discarder][:-1] if x // 4 == RED_DRAGON]
    if earlier:
        targets.append(earlier[-1])
    if not targets:
        return actions
    kept = [a for a in actions if not (a.kind == ActionKind.PON and a.tile // 4 == RED_DRAGON)]
    for tile in targets:
        kept.extend([ability_action(seat, name, AbilityTag.PRIORITY, tile, kind=ActionKind.PON,
                                   tiles=pair) for pair in sorted(set(combinations(own, 2)))])
    return kept


class PonKanBan(AbilityHooks):
    """What is left of a ``wrap_sequences`` card while another card switches its ability off,
    under the reading ``switched_off = "restriction_stays"``: she still may not pon or kan."""

    def __init__(self, seat: int, name: str) -> None:
        self.seat = seat
        self.name = name

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        return no_pon_or_kan(view, actions, self.seat)


def restriction_stays(card: Card) -> bool:
    """Whether the card's "may not pon or kan" outlives its ability being switched off."""
    return any(e.params["switched_off"] == "restriction_stays" for e in card.effects
               if e.kind == "wrap_sequences")


# What ``ClaimEffects.claim_filter`` acts on: effect kinds, and priority calls.
FILTER_KINDS = frozenset(("wrap_sequences", "unclaimable_repeat"))
FILTER_CALLS = frozenset(("pon_red_dragon_from_pond",))


class ClaimEffects:
    """The claim, draw and discard hooks of a card (mixed into ``CardAbility``)."""

    card: Card
    seat: int
    name: str
    _set_aside: int | None = None  # the pond tile her next live draw may be

    @cached_property
    def _kind_set(self) -> frozenset[str]:
        return frozenset([e.kind for e in self.card.effects])

    @cached_property
    def _call_set(self) -> frozenset[str]:
        return frozenset([e.params["call"] for e in self.card.effects
                         if e.kind == "priority_call"])

    def _kinds(self) -> frozenset[str]:
        return self._kind_set

    def _calls(self) -> frozenset[str]:
        return self._call_set

    def hand_shapes(self) -> HandShapes | None:
        return shapes_of([e.kind for e in self.card.effects])

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        kinds = self._kinds()
        if "wrap_sequences" in kinds:  # the kinds and calls here are FILTER_KINDS, FILTER_CALLS
            actions = no_pon_or_kan(view, actions, self.seat)
        if "unclaimable_repeat" in kinds:
            actions = unclaimable_repeat(view, actions, self.seat)
        if "pon_red_dragon_from_pond" in self._calls():
            actions = red_dragon_pond_pon(view, actions, self.seat, self.name)
        return actions

    def claim_made(self, view: CallView) -> None:
        """After her pon: the fourth copy, if it lies in another player's pond, is set aside
        for her next live draw."""
        if view.seat != self.seat or view.kind != "pon" or \
                "set_aside_draw" not in self._kinds():
            return
        t = view.called // 4
        self._set_aside = next((x for s, pond in enumerate(view.ponds) if s != self.seat
                                for x in pond if x // 4 == t), None)

    def before_draw(self, view: DrawView) -> list[Action]:
        """The set-aside tile as her next live draw (offered once; the wall is the other way)."""
        tile, self._set_aside = self._set_aside, None
        if view.seat != self.seat or tile is None or not any(tile in p for p in view.ponds):
            return []
        return [ability_action(self.seat, self.name, AbilityTag.DRAW, tile)]

    def discard_actions(self, view: DiscardView) -> list[Action]:
        """A second tile of the discarded type, discarded at once (``repeat_discard``)."""
        if view.seat != self.seat or view.face_down or "repeat_discard" not in self._kinds():
            return []
        same = sorted({x for x in view.concealed if x // 4 == view.tile // 4})
        return [ability_action(self.seat, self.name, AbilityTag.REPEAT, x) for x in same]
