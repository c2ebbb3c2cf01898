"""``local_yaku``: a local yaku only this character may score (rule C-25)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.incentives import LAST_OF_FAMILY, TileIncentives
from pipeline.cards.scoring_effects import LOCAL_YAKU, DefinedLocalYaku
from pipeline.rules.hooks import PickView
from pipeline.rules.scoring import ScoringModifiers

# The local yaku that need a tile of each of the five families (manzu, pinzu, souzu, winds,
# dragons): the bots keep the last tile of a family for them.
ALL_FAMILIES = frozenset({"uumensai"})


class LocalYakuEffect(CardEffect):
    """The local yaku ``yaku`` (of :data:`pipeline.cards.scoring_effects.LOCAL_YAKU`) is
    worth ``han`` to her, with ura-dora when ``ura`` (counted as for riichi, also without
    riichi). A local yaku is valued like the package's own: it can make a win legal, and the
    card's value replaces the default.

    Bot policy: no decision; the bot builds its hand as usual, keeping the last tile of a
    family before others (among discards that keep the hand as close to tenpai) for a yaku
    that needs all five (:data:`ALL_FAMILIES`), and the pick prices the yaku by a rough chance
    of applying."""

    kind = "local_yaku"
    supported = {"yaku": frozenset(LOCAL_YAKU)}

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        if params["yaku"] not in ALL_FAMILIES:
            return None
        return TileIncentives(last_of_family=LAST_OF_FAMILY)

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        name, test = LOCAL_YAKU[p["yaku"]]
        if not test(ctx.win.ctx):
            return None
        yaku = DefinedLocalYaku(name, p["han"], p["han"], test)
        return ScoringModifiers(local_yaku=(yaku,), ura_dora=True if p["ura"] else None)
