"""``dama_protection``: in damaten she does not pay others' tsumo; a higher player's ippatsu
draw is her winning tile; in riichi she ignores furiten."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import (
    CardEffect,
    DrawnContext,
    FuritenContext,
    PaymentContext,
    WinTileContext,
)
from pipeline.cards.effects.conditions import placement_order
from pipeline.cards.memory import MatchMemory
from pipeline.cards.table_reading import ippatsu_alive
from pipeline.rules.agari import winning_types
from pipeline.rules.hooks import TableControls
from pipeline.rules.settlement import Settlement
from pipeline.tiles import counts34

CALL_EVENTS = frozenset(("chi", "pon", "minkan"))


class DamaProtection(CardEffect):
    """While her hand is closed, tenpai and not in riichi (damaten) she pays nothing for
    another player's tsumo (exempt from that win's payments); a tile a higher-placed player
    (rule C-21 on equal points) draws as an ippatsu draw (C-24: in riichi, ippatsu alive) is
    always her winning tile while she is damaten: she may ron it when it is discarded whatever
    her hand's shape (being damaten she is in tenpai, so the tile acts as one of her winning
    tiles and the win is valued as her best completion: :mod:`pipeline.rules.shapeless`; the
    rules' furiten from her own waits still applies). In riichi she ignores furiten.

    Bot policy: in tenpai with a yaku that needs no riichi and two or more winning tiles the
    bot stays dama; otherwise it declares riichi as usual, and every win offered is taken."""

    kind = "dama_protection"

    @classmethod
    def offers_choice(cls, params: Mapping[str, Any]) -> bool:
        return True  # riichi or damaten, which her card makes worth more: no tagged action

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.ippatsu_tiles: set[int] = set()  # higher players' ippatsu draws (her win tiles)

    def after_draw(self, ctx: DrawnContext) -> None:
        """A higher player's ippatsu draw becomes her winning tile."""
        view, table = ctx.view, ctx.table
        if view.seat == self.seat or view.tile is None or table is None:
            return
        events = table.events()
        order = placement_order(table.scores(), table.dealer())
        if order.index(view.seat) < order.index(self.seat) and ippatsu_alive(events, view.seat):
            self.ippatsu_tiles.add(view.tile)

    def always_wins(self, ctx: WinTileContext) -> bool:
        view = ctx.view
        return (view.seat == self.seat and not view.tsumo and not view.in_riichi
                and not view.furiten_probe
                and view.closed and bool(view.waits) and view.tile in self.ippatsu_tiles)

    def ignores_furiten(self, ctx: FuritenContext) -> bool:
        return ctx.in_riichi

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        v = s.view
        if v.kind == "tsumo" and v.winner != self.seat and self._damaten(s, ctx.table):
            s.exempt(self.seat, self.card, "damaten: pays nothing for another's tsumo")

    def _damaten(self, s: Settlement, table: TableControls | None) -> bool:
        hand = s.view.hands[self.seat]
        events = table.events() if table is not None else ()
        opened = any(e.kind in CALL_EVENTS and e.seat == self.seat for e in events)
        return (not opened and not s.view.riichi[self.seat] and len(hand) % 3 == 1
                and bool(winning_types(counts34(hand))))
