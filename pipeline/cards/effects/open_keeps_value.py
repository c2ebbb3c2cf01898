"""``open_keeps_value``: yaku that lose a han when open keep their closed value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.incentives import TileIncentives
from pipeline.rules.hooks import PickView
from pipeline.rules.scoring import ScoringModifiers

# The yaku worth a han less when open, with their closed value.
OPEN_REDUCED_YAKU = {"Sanshoku Doujun": 2, "Ittsu": 2, "Honitsu": 3, "Chantai": 2,
                     "Junchan": 3, "Chinitsu": 6}


class OpenKeepsValue(CardEffect):
    """Yaku that lose a han when open keep their closed value (C-22 Mako; closed-only yaku
    such as pinfu stay closed-only).

    Bot policy: no decision; her calls count a flush's closed han (her incentives), and the
    pick prices the open values kept by how far the starting hand leans to one suit."""

    kind = "open_keeps_value"

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        return TileIncentives(open_full_han=True)

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        return ScoringModifiers(yaku_values=dict(OPEN_REDUCED_YAKU))
