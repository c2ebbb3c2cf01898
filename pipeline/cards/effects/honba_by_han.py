"""``honba_by_han``: each honba is multiplied by her han; calls, riichi, swaps and extra turns
add honba."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards.effects.base import CardEffect, HandEndContext, PaymentContext
from pipeline.cards.table_reading import EXTRA_TURN_EVENTS
from pipeline.rules.actions import AbilityTag
from pipeline.rules.records import Event

# Log kinds that add a honba for Teru (calls, riichi declarations), and the tags of the ability
# events that add one too (extra turns, tile swaps).
HONBA_EVENTS = frozenset(("chi", "pon", "minkan", "riichi"))
HONBA_ABILITY_TAGS = EXTRA_TURN_EVENTS | {AbilityTag.SWAPPED}


def added_honba(events: Sequence[Event]) -> int:
    """Honba Teru adds: one per call, riichi declaration, extra turn or swap in the hand."""
    n = 0
    for e in events:
        if e.kind in HONBA_EVENTS:
            n += 1
        elif e.kind == "ability" and e.tag in HONBA_ABILITY_TAGS:
            n += 1
    return n


class HonbaByHan(CardEffect):
    """Anyone's calls, riichi declarations, swaps and extra turns add honba. On her own win
    each honba is multiplied by her han: by the default reading (``honba = "total"``, the
    card's example: 2 honba and 5 han, each worth 500, 1,000 in all) a honba is worth
    100 x han in all, split between the payers of a tsumo (each share rounded up to 100); by
    ``"per_payer"`` it is 100 x han from each payer (300 x han on a ron).

    Whose win the added honba count for is the ``added_for`` reading: any win at the usual
    300 a honba (``"any_win"``, the default: they are honba on the table), or only hers
    (``"her_win"``). Whether they last is ``added_last``: this hand's win only
    (``"this_hand"``, the default), or on the table's honba count from then on
    (``"counter"``: the hand-end hook adds them to the count the next hand starts from).

    Bot policy: no decision; the bot calls, declares riichi and takes extra turns by its usual
    rules, not to add honba, and the pick prices the honba on the table."""

    kind = "honba_by_han"

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        v = s.view
        if v.result is None or v.winner is None:
            return
        if v.winner != self.seat and self.params["added_for"] == "her_win":
            return  # another winner collects only the ordinary honba
        added = added_honba(v.events)
        count = v.honba + added
        payers = sorted({a for a, _, _ in s.transfers})
        if v.kind == "ron" or len(payers) == 1:  # one payer pays the honba of three
            payers = [v.from_seat if v.kind == "ron" else payers[0]]
            usual = 300
        else:
            usual = 100
        if v.winner != self.seat:
            worth, each = 100, usual * count
        elif self.params["honba"] == "total":
            worth = 100 * v.result.han
            each = -(-worth * count // (100 * len(payers))) * 100
        else:
            worth = 100 * v.result.han
            each = worth * (usual // 100) * count
        s.collect(v.winner, {p: each - usual * v.honba for p in payers}, self.card,
                  f"honba {v.honba}+{added} worth {worth} each")

    def hand_end(self, ctx: HandEndContext) -> None:
        if self.params["added_last"] != "counter":
            return
        added = added_honba(ctx.view.record.events)
        if added:
            ctx.table.add_honba(self.seat, added, self.card, "the honba she added stay")
