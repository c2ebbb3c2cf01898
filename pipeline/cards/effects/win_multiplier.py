"""``win_multiplier``: the win's value is multiplied."""

from __future__ import annotations

from pipeline.cards import scoring_effects
from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.rules.scoring import ScoringModifiers


class WinMultiplier(CardEffect):
    """The win's value (before honba and sticks) is multiplied by ``factor`` when ``when``
    holds (``always``, or a named predicate of
    :data:`pipeline.cards.scoring_effects.MULTIPLIER_CONDITIONS`).

    Bot policy: no decision; the pick prices the multiplied value by the starting hand."""

    kind = "win_multiplier"
    hooks = frozenset({"scoring"})
    supported = {"when": frozenset(("always",)) | frozenset(scoring_effects.MULTIPLIER_CONDITIONS)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        when = self.params["when"]
        holds = scoring_effects.MULTIPLIER_CONDITIONS.get(when)
        if when == "always" or (holds is not None and holds(ctx.win, ctx.seat)):
            return ScoringModifiers(value_multiplier=self.params["factor"])
        return None
