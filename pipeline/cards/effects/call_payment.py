"""``call_payment``: after her call the player she called from pays her."""

from __future__ import annotations

from pipeline.cards.effects.base import CallContext, CardEffect


class CallPayment(CardEffect):
    """After her call (chi, pon, open kan) the player she called from pays her ``amount`` at
    once, logged as a call payment (a payer may go below zero, as with a win's payments).

    Bot policy: no decision of its own: the bot calls by its usual rules, not more for the
    payment (Jun Inoue's policy is said in :mod:`pipeline.cards.abilities`)."""

    kind = "call_payment"

    def claim_made(self, ctx: CallContext) -> None:
        if ctx.view.seat == self.seat and ctx.table is not None:
            ctx.table.transfer(ctx.view.from_seat, self.seat, self.params["amount"], self.card,
                               "call payment")
