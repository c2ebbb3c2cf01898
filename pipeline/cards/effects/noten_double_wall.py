"""``noten_double_wall``: the player on whose wall the hand ends pays double.

Whose wall. The table has four walls of 34 tiles (17 stacks), one in front of each player. The
engine rolls no dice: the break is taken as for the most likely roll of two dice, 7
(:data:`BREAK_ROLL`). Counting the dealer as 1 and going round in turn order, 7 falls on the
dealer's opposite player, whose wall is broken 7 stacks from its right end. The engine's tile
order (:mod:`pipeline.rules.wall`) is read clockwise from the break, as the tiles are taken:
positions ``[0:20]`` lie on the opposite player's wall (dealer + 2), ``[20:54]`` on the dealer's
right-hand player's (dealer + 1), ``[54:88]`` on the dealer's, ``[88:122]`` on the left-hand
player's (dealer + 3) and the dead wall ``[122:136]`` back on the opposite player's wall.

The hand is on the wall of the latest tile taken from the front of the live wall (C-22: the
wall changes when its first tile is drawn; before any draw, that of the last dealt tile). A win
on a dead-wall tile (a replacement tile, or one drawn past the live wall) still counts the live
wall (C-22). Kans move tiles from the end of the live wall, not its front: they do not move the
hand to another wall.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards.effects.base import CardEffect, PaymentContext, ScoringContext
from pipeline.rules.hooks import TableControls
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.wall import DEAL_SIZE
from pipeline.tiles import NUM_TILES, dora_from_indicator

BREAK_ROLL = 7
WALL_TILES = 34


def wall_owner(position: int, dealer: int, roll: int = BREAK_ROLL) -> int:
    """The seat in front of whose wall the tile at ``position`` of the engine's order lies."""
    broken = (dealer + roll - 1) % 4
    first = WALL_TILES - 2 * roll  # tiles of the broken wall left of the break, taken first
    p = position % NUM_TILES
    if p < first:
        return broken
    return (broken - ((p - first) // WALL_TILES + 1)) % 4


def ending_wall(front_drawn: int, dealer: int) -> int:
    """The seat whose wall the hand is on after ``front_drawn`` live draws."""
    return wall_owner(DEAL_SIZE + front_drawn - 1, dealer)


def dora_count(tiles: Sequence[int], indicators: Sequence[int]) -> int:
    """Dora the tiles hold for these indicators (a tile counts once per indicator)."""
    return sum(1 for i in indicators for t in tiles
               if t // 4 == dora_from_indicator(i // 4))


def ending_seat(table: TableControls | None) -> int | None:
    """The seat on whose wall the hand is now (None outside a hand)."""
    if table is None:
        return None
    return ending_wall(table.wall().front_drawn(), table.dealer())


class NotenDoubleWall(CardEffect):
    """The player on whose wall the hand ends pays double (a win's payments and, at an
    exhaustive draw, noten payments), unless in riichi; when she wins on her own wall,
    ``own_wall_dora`` more dora indicators count for her win (with their ura tiles in riichi;
    C-19 past the fifth).

    Bot policy: no decision; the pick weighs the indicators of a win on her own wall against
    her doubled payments there."""

    kind = "noten_double_wall"

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        extra = int(self.params.get("own_wall_dora", 0))
        if not extra or not ctx.own or ending_seat(ctx.table) != self.seat:
            return None
        shown = ctx.table.wall().spare_dora(extra) if ctx.table else ()
        if not shown:
            return None
        win = ctx.win.ctx
        tiles = [*win.concealed, *(t for m in win.melds for t in m.tiles)]
        han = dora_count(tiles, shown)
        riichi = win.riichi or win.double_riichi
        return ScoringModifiers(extra_han=(("Dora", han),) if han else (),
                                extra_ura_indicators=len(shown) if riichi else 0)

    def payments(self, ctx: PaymentContext) -> None:
        """The seat whose wall it is pays its share twice, unless in riichi."""
        s, owner = ctx.settlement, ending_seat(ctx.table)
        if owner is None or s.view.riichi[owner]:
            return
        for payer, payee, points in list(s.transfers):
            if payer == owner and points:
                s.transfer(owner, payee, points, self.card, f"P{owner}'s wall: pays double")

    def draw_payments(self, ctx: PaymentContext) -> None:
        """Noten payments, doubled as a win's are."""
        self.payments(ctx)
