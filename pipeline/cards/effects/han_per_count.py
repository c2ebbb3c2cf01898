"""``han_per_count``: han for every full group of something counted."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.conditions import condition_holds
from pipeline.cards.shapes import PER_COUNTERS
from pipeline.rules.scoring import ScoringModifiers


class HanPerCount(CardEffect):
    """``han`` extra han per full ``per`` of ``count`` (rule C-12); with ``yaku`` set, only
    on a reading of the hand that holds that yaku. The counts read from her own pond are
    :data:`pipeline.cards.shapes.PER_COUNTERS`; ``shown_family_tiles`` and
    ``face_down_in_other_discards`` are played by the table and swap effects.

    Bot policy: no decision; the bot does not discard for the count, and the pick prices the
    han by a rough chance of reaching a group."""

    kind = "han_per_count"
    hooks = frozenset({"scoring"})
    supported = {"count": frozenset(PER_COUNTERS)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        counter = PER_COUNTERS.get(p["count"])
        if counter is None or not condition_holds(p["condition"], ctx.win, ctx.seat):
            return None
        han = counter(ctx.win) // p["per"] * p["han"]
        if not han:
            return None
        if p["yaku"]:
            return ScoringModifiers(extra_han_with=((p["yaku"], p["count"], han),))
        return ScoringModifiers(extra_han=((p["count"], han),))
