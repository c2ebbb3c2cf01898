"""``open_keeps_value``: yaku that lose a han when open keep their closed value."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.rules.scoring import ScoringModifiers

# The yaku worth a han less when open, with their closed value.
OPEN_REDUCED_YAKU = {"Sanshoku Doujun": 2, "Ittsu": 2, "Honitsu": 3, "Chantai": 2,
                     "Junchan": 3, "Chinitsu": 6}


class OpenKeepsValue(CardEffect):
    """Yaku that lose a han when open keep their closed value (C-22 Mako; closed-only yaku
    such as pinfu stay closed-only).

    Bot policy: no decision; the bot calls by its usual rules, and the pick prices the open
    values kept by how far the starting hand leans to one suit."""

    kind = "open_keeps_value"
    hooks = frozenset({"scoring"})

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        return ScoringModifiers(yaku_values=dict(OPEN_REDUCED_YAKU))
