"""``dora_multiplier``: each dora, red five and ura-dora counts ``factor`` times; with
``lost_on_dora_discard``, a known dora discarded outside riichi sets dora to 0 han for the
rest of the match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.cards.effects.base import CardEffect, HandEndContext, ScoringContext
from pipeline.cards.incentives import TileIncentives
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.hooks import PickView, TableControls
from pipeline.rules.records import Event
from pipeline.rules.scoring import ScoringModifiers
from pipeline.tiles import RED_FIVE_IDS, dora_from_indicator


def known_dora_discarded(events: Sequence[Event], seat: int, red_fives: bool) -> bool:
    """Whether the seat discarded a tile that was a known dora at the time, outside riichi
    (C-22 Kuro: later indicators do not count). The riichi declaration tile is her own choice,
    so it counts; the tiles after it are forced and do not."""
    dora: set[int] = set()
    declared = in_riichi = False
    for e in events:
        if e.kind == "dora" and e.tile is not None:
            dora.add(dora_from_indicator(e.tile // 4))
        elif e.kind == "riichi" and e.seat == seat:
            declared = True
        elif e.kind == "discard" and e.seat == seat and e.tile is not None:
            if not in_riichi and (e.tile // 4 in dora or (red_fives and e.tile in RED_FIVE_IDS)):
                return True
            in_riichi = in_riichi or declared
    return False


class DoraMultiplier(CardEffect):
    """Her wins count each dora ``factor`` times (0 once they are lost). A known dora she
    discards outside riichi is noted at the hand's end and remembered by the match: from then
    on, with ``lost_on_dora_discard``, her dora give 0 han (the win that follows such a
    discard in the same hand already counts none).

    Bot policy: no decision; her incentives (:meth:`incentives`) make the bot keep her dora
    ``factor`` times as firmly as an ordinary dora and, with ``lost_on_dora_discard``, never
    discard a known dora or red five outside riichi while another discard is legal; once they
    are lost for the match, her dora are worth nothing to keep."""

    kind = "dora_multiplier"

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        """Her dora count ``factor`` times; the guard keeps them while they can still be lost
        (``view.spent`` names this kind once they are)."""
        if params["lost_on_dora_discard"] and cls.kind in view.spent:
            return TileIncentives(dora_weight=0.0)
        return TileIncentives(dora_weight=float(params["factor"]),
                              dora_guard=bool(params["lost_on_dora_discard"]))

    dora_lost_now = False  # a known dora of hers was discarded this hand

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        lost = self.params["lost_on_dora_discard"] and self._dora_lost(ctx.table)
        return ScoringModifiers(dora_multiplier=0 if lost else self.params["factor"])

    def _dora_lost(self, table: TableControls | None) -> bool:
        memory = self.memory or MatchMemory()
        if self.seat in memory.dora_lost:
            return True
        if table is not None and not self.dora_lost_now:
            self.dora_lost_now = known_dora_discarded(table.events(), self.seat,
                                                      memory.red_fives)
        return self.dora_lost_now

    def hand_end(self, ctx: HandEndContext) -> None:
        memory = self.memory or MatchMemory()
        if self.seat not in memory.dora_lost and self._dora_lost(ctx.table):
            ctx.table.note(self.seat, self.card, "a known dora discarded outside riichi: dora "
                           "give 0 han for the rest of the match", Move.DORA_LOST,
                           bookkeeping=True)

    def remember(self, memory: MatchMemory) -> None:
        if self.dora_lost_now:
            memory.dora_lost.add(self.seat)
