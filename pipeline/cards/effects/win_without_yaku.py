"""``win_without_yaku``: a complete hand wins with no yaku."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.rules.scoring import ScoringModifiers


class WinWithoutYaku(CardEffect):
    """Her complete hand wins with no yaku (exactly 0 han counts as 1).

    Bot policy: no decision; the bot calls and wins as if every complete hand had a yaku, and
    the pick prices the wins a yakuless hand would miss."""

    kind = "win_without_yaku"

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        return ScoringModifiers(win_without_yaku=True)
