"""``dora_both_ways``: the tile before each dora indicator counts too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.incentives import TileIncentives
from pipeline.rules.hooks import PickView
from pipeline.rules.scoring import ScoringModifiers


def previous_type(t: int) -> int:
    """The tile type before ``t`` in the dora order (9 before 1, North before East, red dragon
    before white)."""
    if t < 27:
        return t - t % 9 + (t % 9 - 1) % 9
    if t < 31:
        return 27 + (t - 27 - 1) % 4
    return 31 + (t - 31 - 1) % 3


class DoraBothWays(CardEffect):
    """With a closed hand (closed kans allowed), one extra han per tile of hers that lies just
    before an indicator (ura indicators too on a riichi win).

    Bot policy: no decision; her incentives make the bot keep the tiles before the indicators
    as dora while her hand is closed, and the pick counts them in the starting hand."""

    kind = "dora_both_ways"

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        return TileIncentives(closed_dora_before=True)

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        win = ctx.win.ctx
        if any(m.is_open for m in win.melds):
            return None
        indicators = list(win.dora_indicators)
        if win.riichi or win.double_riichi:
            indicators.extend(win.ura_indicators)
        tiles = [x // 4 for x in (*win.concealed, *(t for m in win.melds for t in m.tiles))]
        han = sum(tiles.count(previous_type(i // 4)) for i in indicators)
        return ScoringModifiers(extra_han=(("dora_both_ways", han),)) if han else None
