"""``wall_to_indicator``: draws go on into the dead wall up to the last revealed indicator."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, HandStartContext


class WallToIndicator(CardEffect):
    """Once the live wall is empty, draws go on into the dead wall up to the last revealed dora
    indicator (the engine's ``Wall.draw_to_indicator``); the last live tile and the last tile
    in play are both last tiles (haitei / houtei).

    Bot policy: no decision: the longer wall plays itself, and the bot draws and discards as
    usual (Satomi Kanbara's policy is said in :mod:`pipeline.cards.abilities`)."""

    kind = "wall_to_indicator"

    def hand_start(self, ctx: HandStartContext) -> None:
        ctx.table.wall().draw_to_indicator(self.seat, self.card)
