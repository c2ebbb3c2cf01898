"""``ura_rule``: who counts ura-dora, and how many."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.rules.scoring import ScoringModifiers


class UraRule(CardEffect):
    """Others' wins count no ura-dora (``others_get_none``); her riichi win counts
    ``extra_indicators`` more ura indicators, taken from the dead wall after the revealed ones
    (rule C-19's way of finding room). Asked for every seat's win.

    Bot policy: no decision; the pick prices her extra ura indicators on riichi wins and the
    ura the others lose."""

    kind = "ura_rule"
    any_win = True

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p, win = self.params, ctx.win
        if not ctx.own:
            return ScoringModifiers(ura_dora=False) if p["others_get_none"] else None
        riichi = win.ctx.riichi or win.ctx.double_riichi
        if riichi and p["extra_indicators"]:
            return ScoringModifiers(extra_ura_indicators=p["extra_indicators"])
        return None
