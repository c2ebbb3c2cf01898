"""``table_sweep``: when she deals in or the hand is drawn she takes the sticks and stakes, and
every other player pays her."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, PaymentContext
from pipeline.rules.settlement import Settlement


class TableSweep(CardEffect):
    """When she deals in, or the hand ends in a draw (reading ``draws``: any draw, or only an
    exhaustive one), she takes the riichi sticks and stakes on the table and every other
    player pays her ``each_pays``.

    Bot policy: no decision; the sweep follows from the hand's result, and the pick prices it
    by the chance of a drawn hand or her deal-in."""

    kind = "table_sweep"

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        v = s.view
        if v.kind == "ron" and v.from_seat == self.seat and s.table_to is not None:
            self._sweep(s, "dealt in")

    def draw_payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        if self.params["draws"] == "any_draw" or s.view.kind == "exhaustive":
            self._sweep(s, "the hand was drawn")

    def _sweep(self, s: Settlement, why: str) -> None:
        s.take_table(self.seat, self.card, why)
        s.collect(self.seat, {o: self.params["each_pays"] for o in range(len(s.view.scores))
                              if o != self.seat}, self.card, why)
