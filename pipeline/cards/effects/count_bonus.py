"""``count_bonus``: extra han by thresholds of a count in the winning hand, or on the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards import shapes
from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.conditions import condition_holds
from pipeline.cards.incentives import COUNTED_TILE, TileIncentives, worth_of
from pipeline.rules.actions import MeldKind
from pipeline.rules.hooks import PickView, WinView
from pipeline.rules.scoring import ScoringModifiers


def all_tiles(win: WinView) -> list[int]:
    """The winner's tiles: concealed and in melds."""
    return [*win.ctx.concealed, *(x for m in win.ctx.melds for x in m.tiles)]


# What a count_bonus counts, by its ``count`` value.
COUNTERS: dict[str, Callable[[WinView], int]] = {
    "pinzu_tiles": lambda win: sum(1 for x in all_tiles(win) if 9 <= x // 4 < 18),
    "open_pons_kans": lambda win: sum(1 for m in win.ctx.melds
                                      if m.is_open and m.kind != MeldKind.CHI),
    **shapes.TILE_COUNTERS,
}


def _face_down_in_own_discards(ctx: ScoringContext) -> int:
    return ctx.table.swaps().face_down_counts()[ctx.seat] if ctx.table is not None else 0


# The tile types a count counts, where it counts tiles of the hand: what the bots keep for it.
COUNTED_TYPES: dict[str, frozenset[int]] = {
    "pinzu_tiles": frozenset(range(9, 18)),
    "warm_tiles": shapes.WARM_TYPES,
}

# What is counted on the table rather than in the winning hand, by ``count`` value.
TABLE_COUNTERS: dict[str, Callable[[ScoringContext], int]] = {
    "face_down_in_own_discards": _face_down_in_own_discards,
}


class CountBonus(CardEffect):
    """Extra han by thresholds of ``count`` (``at`` and ``han``, the highest reached) when
    ``condition`` holds. Extra han need a real yaku and are no yaku (rule C-12). The counts
    are read in the winning hand (:data:`COUNTERS`) or on the table (:data:`TABLE_COUNTERS`:
    the face-down tiles lying in her own pond).

    Bot policy: no decision; a count of the hand's tiles (:data:`COUNTED_TYPES`) is an
    incentive: the counted tiles are kept before others among discards that keep the hand as
    close to tenpai; the pick prices the thresholds from the starting hand's count."""

    kind = "count_bonus"
    supported = {"count": frozenset(COUNTERS) | frozenset(TABLE_COUNTERS)}

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        counted = COUNTED_TYPES.get(params["count"])
        if counted is None:
            return None
        return TileIncentives(keep=worth_of(counted, COUNTED_TILE))

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        if not condition_holds(p["condition"], ctx.win, ctx.seat):
            return None
        counter = COUNTERS.get(p["count"])
        on_table = TABLE_COUNTERS.get(p["count"])
        if counter is None and on_table is None:
            return None  # not implemented: a card with it is not playable
        n = counter(ctx.win) if counter is not None else on_table(ctx)
        han = 0
        for at, value in zip(p["at"], p["han"], strict=True):
            if n >= at:
                han = value
        return ScoringModifiers(extra_han=((p["count"], han),)) if han else None
