"""``set_aside_draw``: the fourth copy of her pon, drawn from another player's pond."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import BeforeDrawContext, CallContext, CardEffect
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import AbilityTag, Action, ability_action


class SetAsideDraw(CardEffect):
    """When she pons and the fourth copy lies in another player's pond, her next live draw may
    be that tile instead of the wall's (offered with the wall draw; taking it is optional). A
    rinshan draw in between leaves the offer for the live draw.

    Bot policy: the set-aside copy is drawn when her hand is within one step of tenpai or under
    a threat, a slow hand draws from the wall (Seiko Matano's policy is said in
    :mod:`pipeline.cards.abilities`)."""

    kind = "set_aside_draw"
    choices = frozenset({AbilityTag.DRAW})
    optional = frozenset(("draw",))

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self._set_aside: int | None = None  # the pond tile her next live draw may be

    def claim_made(self, ctx: CallContext) -> None:
        """After her pon: the fourth copy, if it lies in another player's pond, is set aside
        for her next live draw."""
        view = ctx.view
        if view.seat != self.seat or view.kind != "pon":
            return
        t = view.called // 4
        self._set_aside = next((x for s, pond in enumerate(view.ponds) if s != self.seat
                                for x in pond if x // 4 == t), None)

    def before_draw(self, ctx: BeforeDrawContext) -> list[Action]:
        """The set-aside tile as her next live draw (offered once; the wall is the other way).
        A rinshan draw keeps it waiting."""
        view = ctx.view
        if view.source == "rinshan":
            return []
        tile, self._set_aside = self._set_aside, None
        if view.seat != self.seat or tile is None or not any(tile in p for p in view.ponds):
            return []
        return [ability_action(self.seat, self.card, AbilityTag.DRAW, tile)]
