"""``open_hands``: a hand played face up from the start."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, HandStartContext


class OpenHands(CardEffect):
    """She plays face up from the start of the hand (the pick is revealed before the
    dealer's first discard); ``who`` is ``self``.

    Bot policy: no decision; the pick weighs what the card gives for the open hand against a
    fixed cost for being read."""

    kind = "open_hands"
    hooks = frozenset({"hand_start"})
    supported = {"who": frozenset(("self",))}

    def hand_start(self, ctx: HandStartContext) -> None:
        if self.params["who"] == "self":
            ctx.table.reveal_hand(ctx.seat, ctx.card)
