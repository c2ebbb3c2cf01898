"""``always_riichi``: a closed win always has riichi, and her third row goes face down."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext, TurnContext
from pipeline.cards.scoring_effects import DefinedLocalYaku
from pipeline.rules.scoring import ScoringModifiers


def third_row(turns: int) -> bool:
    """Her 13th to 18th discard (``turns`` discards made before this one)."""
    return 12 <= turns < 18


class AlwaysRiichi(CardEffect):
    """A closed win always has the riichi yaku (worth what riichi is worth to her) and counts
    ura-dora; a declared riichi is not counted twice. Her third row of discards goes face down
    by force (rule C-13 applies to them).

    Bot policy: no decision; the discards go face down by force, and the bot still declares
    riichi by its usual rule (a declared riichi adds mostly the ippatsu chance)."""

    kind = "always_riichi"

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        win = ctx.win.ctx
        if any(m.is_open for m in win.melds):
            return None
        if win.riichi or win.double_riichi:
            return ScoringModifiers(ura_dora=True)
        return ScoringModifiers(local_yaku=(DefinedLocalYaku("Riichi", 1, 0, lambda c: True),),
                                ura_dora=True)

    def forced_face_down(self, ctx: TurnContext) -> bool:
        return third_row(ctx.view.turns)
