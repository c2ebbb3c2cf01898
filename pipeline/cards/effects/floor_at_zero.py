"""``floor_at_zero``: the first time in the match she would drop below 0 she stays at 0."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, HandEndContext, PaymentContext
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import AbilityTag


class FloorAtZero(CardEffect):
    """Once per match, a payment that would leave her below 0 points leaves her at 0 (the
    settlement's floor, set at a win's or a draw's payments and applied after every other
    transfer); the match remembers that the floor was used once a hand logs it.

    Bot policy: no decision; the floor needs no choice, and the pick gives it a small worth."""

    kind = "floor_at_zero"

    floored = False  # the floor was used this hand

    def payments(self, ctx: PaymentContext) -> None:
        if self.memory is None or self.seat not in self.memory.floor_used:
            ctx.settlement.floor_at_zero(self.seat, self.card)

    def draw_payments(self, ctx: PaymentContext) -> None:
        self.payments(ctx)

    def hand_end(self, ctx: HandEndContext) -> None:
        self.floored = any(e.kind == "ability" and e.seat == self.seat
                           and e.tag is AbilityTag.FLOOR_AT_ZERO for e in ctx.view.record.events)

    def remember(self, memory: MatchMemory) -> None:
        if self.floored:
            memory.floor_used.add(self.seat)
