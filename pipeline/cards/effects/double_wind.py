"""``double_wind``: her seat wind doubled, and a yakuhai for every wind meld on the table."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.scoring_effects import WIND_NAMES, WIND_TYPES, DefinedLocalYaku
from pipeline.rules.hooks import WinView
from pipeline.rules.scoring import ScoringModifiers


def wind_melds(win: WinView) -> int:
    """Declared wind melds on the table (any kind, wind sequences too), except her own melds
    of a wind that already gives her yakuhai."""
    ctx = win.ctx
    melds = win.melds or tuple(ctx.melds if s == win.seat else ()
                               for s in range(len(win.scores) or 4))
    own_value = {27 + ctx.seat_wind, 27 + ctx.round_wind}
    count = 0
    for s, seat_melds in enumerate(melds):
        for m in seat_melds:
            types = {x // 4 for x in m.tiles}
            if not types <= set(WIND_TYPES):
                continue
            if s == win.seat and len(types) == 1 and types <= own_value:
                continue
            count += 1
    return count


class DoubleWind(CardEffect):
    """Her seat-wind triplet is worth 2 han (as when it is also the round wind), and each wind
    meld made by any player gives her one yakuhai: a real yaku, so it can make her win legal.

    Bot policy: no decision; the bot keeps a pair of her seat wind as it keeps any value pair,
    and the pick prices the double yakuhai by the seat winds held and the others' wind
    melds."""

    kind = "double_wind"

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        win = ctx.win.ctx
        values = {} if win.seat_wind == win.round_wind else {
            f"Yakuhai (seat wind {WIND_NAMES[win.seat_wind]})": 2}
        n = wind_melds(ctx.win)
        local = (DefinedLocalYaku("Yakuhai (wind melds)", n, n, lambda c: True),) if n else ()
        return ScoringModifiers(yaku_values=values, local_yaku=local)
