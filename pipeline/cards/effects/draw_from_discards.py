"""``draw_from_discards``: a tile of her own pond drawn instead of the wall's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import (
    BeforeDrawContext,
    CardEffect,
    HandStartContext,
    WinCheckContext,
)
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import AbilityTag, Action, ability_action
from pipeline.rules.hooks import TableControls


class DrawFromDiscards(CardEffect):
    """Instead of her live draw she may take a tile lying face up in her own pond (offered with
    the wall draw, tagged ``DRAW``); she must then discard a tile of another type (the type is
    barred this turn, as after a call), so the offer needs one in her hand. Not in riichi (her
    discard would have to be that tile). Reading ``taken_tile_tsumo``: the tile taken back is
    her draw and may win by tsumo (``allowed``, the default), or it may not (``forbidden``).

    Bot policy: a tile of her own pond is drawn instead of the wall's when it wins or brings
    her hand closer to tenpai, or when her hand, one step from tenpai or less, stays as close
    and accepts at least 4 more tiles (``KNOWN_DRAW_MIN_GAIN``) despite the type she may not
    then discard; otherwise the unknown wall tile."""

    kind = "draw_from_discards"
    choices = frozenset({AbilityTag.DRAW})
    optional = frozenset(("draw",))

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.taken_back: int | None = None  # the last tile she took back from her pond
        # the hand's controls: ``action_taken``, handed none, bars the type taken back with them
        self._table: TableControls | None = None

    def hand_start(self, ctx: HandStartContext) -> None:
        self._table = ctx.table

    def before_draw(self, ctx: BeforeDrawContext) -> list[Action]:
        """Her own pond's face-up tiles, for a live draw."""
        view, table = ctx.view, ctx.table
        if view.seat != self.seat or table is None:
            return []
        wall = table.wall()
        if view.source != "wall" or self.seat in wall.riichi_seats():
            return []
        held = {x // 4 for x in wall.concealed(self.seat)}
        return [ability_action(self.seat, self.card, AbilityTag.DRAW, t)
                for t in view.ponds[self.seat] if held - {t // 4}]

    def action_taken(self, action: Action) -> None:
        """A tile taken from her own pond: its type may not be her discard this turn."""
        if self._table is None or action.tag is not AbilityTag.DRAW:
            return
        wall = self._table.wall()
        if action.tile in wall.aside(self.seat):
            return  # the tile beside her hand (another effect's), not one of her pond
        wall.forbid_discard(self.seat, frozenset({action.tile // 4}))
        self.taken_back = action.tile

    def win_allowed(self, ctx: WinCheckContext) -> bool:
        """Under the ``forbidden`` reading, no tsumo on a tile she took back from her pond."""
        win = ctx.win
        return self.params["taken_tile_tsumo"] == "allowed" or win.seat != self.seat \
            or not win.ctx.is_tsumo or win.ctx.win_tile != self.taken_back
