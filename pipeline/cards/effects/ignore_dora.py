"""``ignore_dora``: dora give her no han, she never pays or receives at an exhaustive draw, she
ignores furiten and may not declare riichi."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import (
    CardEffect,
    FuritenContext,
    PaymentContext,
    ScoringContext,
)
from pipeline.cards.incentives import TileIncentives
from pipeline.rules.hooks import PickView
from pipeline.rules.scoring import ScoringModifiers


class IgnoreDora(CardEffect):
    """Her wins count no dora (red fives and ura-dora included); riichi is never offered to
    her; she may ron in furiten; at an exhaustive draw she is exempt from the noten payments
    (she neither pays nor receives).

    Bot policy: no decision; riichi is never offered, and her incentives (:meth:`incentives`)
    tell the bot that dora are worth nothing to her, so it keeps none for their value."""

    kind = "ignore_dora"

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        return TileIncentives(dora_weight=0.0)

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        return ScoringModifiers(dora_multiplier=0)

    def riichi_allowed(self) -> bool:
        return False

    def ignores_furiten(self, ctx: FuritenContext) -> bool:
        return True

    def draw_payments(self, ctx: PaymentContext) -> None:
        if ctx.settlement.view.kind == "exhaustive":
            ctx.settlement.exempt(self.seat, self.card, "ignores noten payments")
