"""``double_from_chi_sources``: on her tsumo the players she called chi from pay double."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CallContext, CardEffect, PaymentContext
from pipeline.cards.memory import MatchMemory


class DoubleFromChiSources(CardEffect):
    """On her tsumo each player she called chi from this hand pays twice their payment (honba
    included), however many chi she called from them.

    Bot policy: no decision; the bot calls chi by its usual rules, and the double payment
    follows from where her chi came from."""

    kind = "double_from_chi_sources"

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.chi_from: set[int] = set()  # players she called chi from

    def claim_made(self, ctx: CallContext) -> None:
        view = ctx.view
        if view.seat == self.seat and view.kind == "chi":
            self.chi_from.add(view.from_seat)  # read only for the doubled payments

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        v = s.view
        if v.kind == "tsumo" and v.winner == self.seat:
            for src in sorted(self.chi_from):
                paid = s.paid_by(src)
                if paid:
                    s.transfer(src, self.seat, paid, self.card,
                               f"P{src} (she called chi from) pays double")
