"""``yaku_value``: a yaku is worth a set number of han (rule C-11)."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.conditions import WIN_CONDITIONS, condition_holds
from pipeline.rules.scoring import ScoringModifiers


class YakuValue(CardEffect):
    """The yaku ``yaku`` is worth ``han`` instead of its usual value when ``condition`` holds
    (and, with ``closed_only``, the hand is closed). A value set replaces, it does not add
    (rule C-11).

    Bot policy: no decision; the pick prices the yaku's new value by the starting hand."""

    kind = "yaku_value"
    supported = {"condition": frozenset(WIN_CONDITIONS)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p, win = self.params, ctx.win
        if p["closed_only"] and any(m.is_open for m in win.ctx.melds):
            return None
        if not condition_holds(p["condition"], win, ctx.seat):
            return None
        return ScoringModifiers(yaku_values={p["yaku"]: p["han"]})
