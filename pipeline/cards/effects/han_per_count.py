"""``han_per_count``: han for every full group of something counted."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.conditions import condition_holds
from pipeline.cards.shapes import PER_COUNTERS
from pipeline.rules.scoring import ScoringModifiers


def _face_down_in_other_discards(ctx: ScoringContext) -> int:
    counts = ctx.table.swaps().face_down_counts() if ctx.table is not None else ()
    return sum(n for s, n in enumerate(counts) if s != ctx.seat)


# What is counted on the table rather than in the winning hand, by ``count`` value.
TABLE_COUNTERS: dict[str, Callable[[ScoringContext], int]] = {
    "face_down_in_other_discards": _face_down_in_other_discards,
}


class HanPerCount(CardEffect):
    """``han`` extra han per full ``per`` of ``count`` (rule C-12); with ``yaku`` set, only
    on a reading of the hand that holds that yaku. The counts read from the winning hand and
    her own pond are :data:`pipeline.cards.shapes.PER_COUNTERS`, those read on the table
    :data:`TABLE_COUNTERS` (the face-down tiles lying in the other players' ponds);
    ``shown_family_tiles`` is played by the table effects.

    Bot policy: no decision; the bot does not discard for the count, and the pick prices the
    han by a rough chance of reaching a group."""

    kind = "han_per_count"
    hooks = frozenset({"scoring"})
    supported = {"count": frozenset(PER_COUNTERS) | frozenset(TABLE_COUNTERS)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        counter = PER_COUNTERS.get(p["count"])
        on_table = TABLE_COUNTERS.get(p["count"])
        if (counter is None and on_table is None) \
                or not condition_holds(p["condition"], ctx.win, ctx.seat):
            return None
        count = counter(ctx.win) if counter is not None else on_table(ctx)
        han = count // p["per"] * p["han"]
        if not han:
            return None
        if p["yaku"]:
            return ScoringModifiers(extra_han_with=((p["yaku"], p["count"], han),))
        return ScoringModifiers(extra_han=((p["count"], han),))
