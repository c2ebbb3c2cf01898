"""``tsumo_full_ron``: on her tsumo every player pays the full ron value plus a bonus."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, PaymentContext


class TsumoFullRon(CardEffect):
    """On her tsumo every other player pays what a ron of the hand would be worth, plus
    ``bonus`` and 100 a honba (topping up what the rules made them pay).

    Bot policy: no decision; the bot takes every win offered, and the pick counts the full-ron
    tsumo against the dora her card loses."""

    kind = "tsumo_full_ron"

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        v = s.view
        seat = self.seat
        if v.kind == "tsumo" and v.winner == seat and v.result is not None:
            due = v.result.ron_points + self.params["bonus"] + 100 * v.honba
            s.collect(seat, {p: due - s.paid_by(p) for p in sorted({a for a, _, _ in s.transfers})},
                      self.card, "tsumo paid at the full ron value plus bonus")
