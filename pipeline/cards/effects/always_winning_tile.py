"""``always_winning_tile``: a tile that wins for her whatever her hand's shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, DrawnContext, WinTileContext
from pipeline.cards.memory import MatchMemory


def _rinshan(effect: AlwaysWinningTile, ctx: WinTileContext) -> bool:
    # her own rinshan draw, or another player's rinshan tile discarded
    view = ctx.view
    return view.rinshan if view.tsumo else view.tile in effect.rinshan_tiles


# The tiles that always win, by ``tile`` value: (the effect, the tile offered to her).
TILES: dict[str, Callable[[AlwaysWinningTile, WinTileContext], bool]] = {
    "rinshan": _rinshan,
}


class AlwaysWinningTile(CardEffect):
    """The tile named by ``tile`` (:data:`TILES`) wins for her whatever her hand's shape (the
    engine's ``always_wins`` hook). ``rinshan``: every tile drawn as a rinshan tile this hand:
    her own rinshan draw (by tsumo), and a rinshan tile another player drew after a kan, when
    that player later discards it (by ron, face down too); a rinshan tile is a moment, not a
    tile type: no furiten. Reading ``always_winning``: ``wildcard`` (default) needs a ready
    hand, the tile standing for its best completion; ``shapeless`` lets any hand win, valued by
    :mod:`pipeline.rules.shapeless`. ``white_dragon_in_riichi`` is played by the table
    effects.

    Bot policy: no decision: the bot takes every win offered, these tiles included, and makes
    no extra push for them (for a rinshan tile: kans by its usual rule, no threat and the hand
    no further from tenpai)."""

    kind = "always_winning_tile"
    hooks = frozenset({"after_draw", "always_wins"})
    supported = {"tile": frozenset(TILES)}

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.rinshan_tiles: set[int] = set()  # tiles other players drew as rinshan tiles

    def after_draw(self, ctx: DrawnContext) -> None:
        view = ctx.view
        if self.params["tile"] == "rinshan" and view.source == "rinshan" \
                and view.seat != self.seat and view.tile is not None:
            self.rinshan_tiles.add(view.tile)

    def always_wins(self, ctx: WinTileContext) -> bool:
        wins = TILES.get(self.params["tile"])
        view = ctx.view
        if wins is None or view.seat != self.seat or view.furiten_probe:
            return False
        if not (view.waits or self.params["always_winning"] == "shapeless"):
            return False  # the wildcard reading: only a ready hand has winning tiles
        return wins(self, ctx)
