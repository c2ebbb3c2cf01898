"""``local_yaku``: a local yaku only this character may score (rule C-25)."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.scoring_effects import LOCAL_YAKU, DefinedLocalYaku
from pipeline.rules.scoring import ScoringModifiers


class LocalYakuEffect(CardEffect):
    """The local yaku ``yaku`` (of :data:`pipeline.cards.scoring_effects.LOCAL_YAKU`) is
    worth ``han`` to her, with ura-dora when ``ura`` (counted as for riichi, also without
    riichi). A local yaku is valued like the package's own: it can make a win legal, and the
    card's value replaces the default.

    Bot policy: no decision; the bot builds its hand as usual, and the pick prices the yaku by
    a rough chance of applying."""

    kind = "local_yaku"
    hooks = frozenset({"scoring"})
    supported = {"yaku": frozenset(LOCAL_YAKU)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        name, test = LOCAL_YAKU[p["yaku"]]
        if not test(ctx.win.ctx):
            return None
        yaku = DefinedLocalYaku(name, p["han"], p["han"], test)
        return ScoringModifiers(local_yaku=(yaku,), ura_dora=True if p["ura"] else None)
