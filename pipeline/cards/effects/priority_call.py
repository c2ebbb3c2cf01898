"""``priority_call``: a call with priority over every other claim, ron included."""

from __future__ import annotations

from itertools import combinations

from pipeline.cards.effects.base import CardEffect, ClaimContext
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hooks import ClaimView

RED_DRAGON = 33


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
        kept.extend(ability_action(seat, name, AbilityTag.PRIORITY, tile, kind=ActionKind.PON,
                                   tiles=pair) for pair in sorted(set(combinations(own, 2))))
    return kept


class PriorityCall(CardEffect):
    """``pon_red_dragon_from_pond``: when a player discards, she may pon a red dragon lying in
    that player's pond, with the timing of a normal pon and priority over every other claim,
    ron included (C-22 Yuu); a red dragon just discarded is taken the same way (tag
    ``PRIORITY``). ``chi_any`` is played by :mod:`pipeline.cards.priority_chi`.

    Bot policy: a priority pon is judged like any pon of a value tile: taken when it brings
    her hand closer to tenpai, under a threat only to reach tenpai (Yuu Matsumi's policy is
    said in :mod:`pipeline.cards.abilities`)."""

    kind = "priority_call"
    hooks = frozenset({"claim_filter"})
    supported = {"call": frozenset(("pon_red_dragon_from_pond",))}

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        if self.params["call"] != "pon_red_dragon_from_pond":
            return ctx.actions
        return red_dragon_pond_pon(ctx.view, ctx.actions, self.seat, self.card)
