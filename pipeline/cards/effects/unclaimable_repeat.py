"""``unclaimable_repeat``: a discard of a type already in her pond cannot be claimed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ClaimContext
from pipeline.cards.incentives import TileIncentives
from pipeline.rules.actions import Action
from pipeline.rules.hooks import PickView


class UnclaimableRepeat(CardEffect):
    """Her discard of a type already lying face up in her pond cannot be called or ronned; it
    still gives furiten (the engine's furiten rule is untouched).

    Bot policy: no decision: a repeated type cannot be called or ronned by itself; her
    incentives tell the bot so, and it counts no deal-in danger for such a discard (Kurumi
    Kakura's policy is said in :mod:`pipeline.cards.abilities`)."""

    kind = "unclaimable_repeat"

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        return TileIncentives(repeat_safe=True)

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        view, actions = ctx.view, ctx.actions
        if view.discarder != self.seat or view.tile is None or view.kan_tile:
            return actions
        earlier = {x // 4 for x in view.ponds[self.seat][:-1]}
        if view.tile // 4 not in earlier:
            return actions
        return [a for a in actions if a.tile != view.tile]
