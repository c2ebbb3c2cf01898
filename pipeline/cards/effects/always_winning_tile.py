"""``always_winning_tile``: a tile that wins for her whatever her hand's shape."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, DrawnContext, WinTileContext
from pipeline.cards.memory import MatchMemory

WHITE_DRAGON = 31


def _rinshan(effect: AlwaysWinningTile, ctx: WinTileContext) -> bool:
    # her own rinshan draw, or another player's rinshan tile discarded; a moment, not a tile
    # type: no furiten, and the shapeless reading lets any hand win
    view = ctx.view
    if view.furiten_probe or not (view.waits or effect.params["always_winning"] == "shapeless"):
        return False  # the wildcard reading: only a ready hand has winning tiles
    return view.rinshan if view.tsumo else view.tile in effect.rinshan_tiles


def _white_dragon_in_riichi(effect: AlwaysWinningTile, ctx: WinTileContext) -> bool:
    # to a ready hand (for furiten too), or to any hand under the shapeless reading (not for
    # furiten)
    view = ctx.view
    if not (view.in_riichi and view.tile // 4 == WHITE_DRAGON):
        return False
    if effect.params["always_winning"] == "shapeless":
        return not view.furiten_probe
    return bool(view.waits)


# The tiles that always win for her, by ``tile`` value: (the effect, the tile offered to her).
TILES: dict[str, Callable[[AlwaysWinningTile, WinTileContext], bool]] = {
    "rinshan": _rinshan,
    "white_dragon_in_riichi": _white_dragon_in_riichi,
}


class AlwaysWinningTile(CardEffect):
    """The tile named by ``tile`` (:data:`TILES`) wins for her whatever her hand's shape (the
    engine's ``always_wins`` hook). Reading ``always_winning``: ``wildcard`` (default) needs a
    ready hand, the tile standing for its best completion; ``shapeless`` lets any hand win on
    it, valued by :mod:`pipeline.rules.shapeless`.

    - ``rinshan``: every tile drawn as a rinshan tile this hand: her own rinshan draw (by
      tsumo), and a rinshan tile another player drew after a kan, when that player later
      discards it (by ron, face down too). A rinshan tile is a moment, not a tile type: no
      furiten.
    - ``white_dragon_in_riichi``: while she is in riichi a white dragon wins for her, by tsumo
      or ron, also discarded face down. Under ``wildcard`` the white dragon is one of her
      winning tiles for furiten: one in her own face-up pond, or one she let go by, makes her
      furiten (rule H-09); under ``shapeless`` furiten comes only from her hand's own waits.

    Bot policy: no decision: the bot takes every win offered, these tiles included, with no
    extra push for them (a rinshan tile: kans by its usual rule, no threat and the hand no
    further from tenpai; the policies of Saki Miyanaga and Tomoe Karijuku are said in
    :mod:`pipeline.cards.abilities`)."""

    kind = "always_winning_tile"
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
        return wins is not None and ctx.view.seat == self.seat and wins(self, ctx)
