"""``score_as_dealer``: a riichi win paid as a dealer's."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.rules.scoring import ScoringModifiers


class ScoreAsDealer(CardEffect):
    """A riichi win is paid as a dealer's; as the dealer, mangan or more is paid one limit
    higher (mangan > haneman > baiman > sanbaiman > kazoe yakuman). Reading ``limit_step``:
    only as the real dealer (``real_dealer``, the default) or also on a riichi win scored as
    the dealer (``also_scored_as_dealer``).

    Bot policy: no decision; the bot declares riichi by its usual rule, and the pick prices a
    riichi win paid as a dealer's, or as dealer one limit higher."""

    kind = "score_as_dealer"

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        win = ctx.win.ctx
        if win.is_dealer:
            return ScoringModifiers(limit_steps=1)
        if win.riichi or win.double_riichi:
            step = 1 if self.params["limit_step"] == "also_scored_as_dealer" else 0
            return ScoringModifiers(as_dealer=True, limit_steps=step)
        return None
