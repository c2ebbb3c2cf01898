"""``han_per_count``: han for every full group of something counted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.conditions import condition_holds
from pipeline.cards.effects.open_hands import FAMILIES
from pipeline.cards.incentives import POND_GROUP, TileIncentives
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.cards.shapes import PER_COUNTERS
from pipeline.cards.table_reading import table_seats
from pipeline.rules.actions import Action
from pipeline.rules.hooks import PickView, TableControls, WinView
from pipeline.rules.scoring import ScoringModifiers

SHOWN_FAMILY_TILES = "shown_family_tiles"
FACE_DOWN_IN_OTHER_DISCARDS = "face_down_in_other_discards"


def shown_family_tiles(table: TableControls, win: WinView, seat: int,
                       types: frozenset[int]) -> int:
    """The tiles of these types the players other than ``seat`` show: those lying face up in
    their concealed hands (a tile just ronned has left its owner's hand) plus those in their
    melds (calls and closed kans)."""
    shown = 0
    for other in range(table_seats(table)):
        if other == seat:
            continue
        shown += sum(1 for x in table.shown_tiles(other) if x // 4 in types)
        melds = win.melds[other] if win.melds else ()
        shown += sum(1 for m in melds for x in m.tiles if x // 4 in types)
    return shown


def face_down_in_other_discards(table: TableControls, seat: int) -> int:
    """The face-down tiles lying in the ponds of the players other than ``seat``."""
    return sum(n for s, n in enumerate(table.swaps().face_down_counts()) if s != seat)


class HanPerCount(CardEffect):
    """``han`` extra han per full ``per`` of ``count`` (rule C-12); with ``yaku`` set, only
    on a reading of the hand that holds that yaku. The counts read from her own pond are
    :data:`pipeline.cards.shapes.PER_COUNTERS`; ``shown_family_tiles`` counts, at her win, the
    tiles of the family her card named (``open_hands`` ``others_family``) that the other
    players show (:func:`shown_family_tiles`); ``face_down_in_other_discards`` the face-down
    tiles lying in the other players' ponds (:func:`face_down_in_other_discards`).

    Bot policy: no decision; a count of groups in her own pond (:data:`PER_COUNTERS`) is an
    incentive: a type already lying there goes first among discards that keep the hand as
    close to tenpai; the pick prices the han by a rough chance of reaching a group."""

    kind = "han_per_count"
    supported = {"count": frozenset(PER_COUNTERS)
                 | {SHOWN_FAMILY_TILES, FACE_DOWN_IN_OTHER_DISCARDS}}

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        if params["count"] not in PER_COUNTERS:
            return None
        return TileIncentives(repeat_worth=-POND_GROUP * params["han"])

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.family: str | None = None  # the family her card named (shown_family_tiles)

    def action_taken(self, action: Action) -> None:
        if action.tag is Move.FAMILY and self.params["count"] == SHOWN_FAMILY_TILES:
            self.family = action.payload

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p = self.params
        if p["count"] == SHOWN_FAMILY_TILES:
            if self.family is None or ctx.table is None:
                return None
            count = shown_family_tiles(ctx.table, ctx.win, self.seat, FAMILIES[self.family])
        elif p["count"] == FACE_DOWN_IN_OTHER_DISCARDS:
            if ctx.table is None:
                return None
            count = face_down_in_other_discards(ctx.table, self.seat)
        else:
            counter = PER_COUNTERS.get(p["count"])
            if counter is None:
                return None
            count = counter(ctx.win)
        if not condition_holds(p["condition"], ctx.win, ctx.seat):
            return None
        han = count // p["per"] * p["han"]
        if not han:
            return None
        if p["yaku"]:
            return ScoringModifiers(extra_han_with=((p["yaku"], p["count"], han),))
        return ScoringModifiers(extra_han=((p["count"], han),))
