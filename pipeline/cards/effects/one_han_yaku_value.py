"""``one_han_yaku_value``: every 1-han yaku is worth more."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.conditions import WIN_CONDITIONS, condition_holds
from pipeline.rules.scoring import ScoringModifiers

# Yaku whose usual closed value is 1 han (for "every 1-han yaku is worth N").
ONE_HAN_YAKU = (
    "Menzen Tsumo", "Riichi", "Ippatsu", "Pinfu", "Tanyao", "Iipeiko", "Haitei Raoyue",
    "Houtei Raoyui", "Rinshan Kaihou", "Chankan", "Yakuhai (haku)", "Yakuhai (hatsu)",
    "Yakuhai (chun)", "Yakuhai (seat wind east)", "Yakuhai (seat wind south)",
    "Yakuhai (seat wind west)", "Yakuhai (seat wind north)", "Yakuhai (round wind east)",
    "Yakuhai (round wind south)", "Yakuhai (round wind west)", "Yakuhai (round wind north)",
)


class OneHanYakuValue(CardEffect):
    """Every 1-han yaku is worth ``han`` when ``condition`` holds (dora are not yaku).
    Reading ``counts``: the yaku worth 1 han in the hand at hand, open reduced yaku included
    (the default, ``in_hand``), or only those whose closed value is 1 han (``closed_value``).

    Bot policy: no decision; the pick prices the extra han by the yaku the starting hand is
    near."""

    kind = "one_han_yaku_value"
    supported = {"condition": frozenset(WIN_CONDITIONS)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        if not condition_holds(p["condition"], ctx.win, ctx.seat):
            return None
        if p["counts"] == "in_hand":
            return ScoringModifiers(one_han_yaku=p["han"])
        return ScoringModifiers(yaku_values={name: p["han"] for name in ONE_HAN_YAKU})
