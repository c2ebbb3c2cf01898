"""``payment_per_out``: on her win each other player pays per live out; a winner pays her per
winning tile she holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.cards.effects.base import CardEffect, PaymentContext
from pipeline.cards.incentives import TileIncentives
from pipeline.rules.agari import winning_types
from pipeline.rules.hooks import PickView
from pipeline.tiles import counts34


def live_outs(hand: Sequence[int], waits: frozenset[int], visible: Sequence[int]) -> int:
    """Copies of the winning types not in the hand and not visible (rule C-24's live outs)."""
    own = counts34(hand)
    seen = counts34(visible)
    return sum(max(0, 4 - own[t] - seen[t]) for t in waits)


def waits_before_win(view_hands: Sequence[Sequence[int]], seat: int, win_tile: int | None,
                     tsumo: bool) -> tuple[list[int], frozenset[int]]:
    """The seat's hand and winning types just before the win (a tsumo's tile taken out)."""
    hand = list(view_hands[seat])
    if tsumo and win_tile is not None and win_tile in hand:
        hand.remove(win_tile)
    return hand, winning_types(counts34(hand))


class PaymentPerOut(CardEffect):
    """On her win every other player pays ``per_out`` for each live out her hand had before it
    (rule C-24: copies of her winning types neither in her hand nor visible; on a ron the
    winning tile was one until it came). On another player's win, the winner pays her
    ``per_tile`` for each of the winner's winning tiles she holds.

    Bot policy: no decision; the pick counts about six live outs on her wins and, now and then,
    a winner's tile held. Her incentives (``held_wait_points``): under a threat, a tile that
    may be the threat's winning tile is worth ``per_tile`` more to keep, weighed by that chance
    (her own live outs need nothing more: the bot's discards already keep the widest wait)."""

    kind = "payment_per_out"

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        return TileIncentives(held_wait_points=float(params["per_tile"])) \
            if params["per_tile"] else None

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        v = s.view
        if v.winner is None:
            return
        tsumo = v.kind == "tsumo"
        if v.winner == self.seat:
            hand, waits = waits_before_win(v.hands, self.seat, v.win_tile, tsumo)
            visible = list(v.visible)
            if not tsumo and v.win_tile in visible:
                visible.remove(v.win_tile)  # the winning tile was a live out until it came
            outs = live_outs(hand, waits, visible)
            s.collect(self.seat, {o: self.params["per_out"] * outs for o in range(len(v.scores))
                                  if o != self.seat}, self.card, f"{outs} live outs")
            return
        _, waits = waits_before_win(v.hands, v.winner, v.win_tile, tsumo)
        held = sum(1 for x in v.hands[self.seat] if x // 4 in waits)
        if held:
            s.transfer(v.winner, self.seat, self.params["per_tile"] * held, self.card,
                       f"{held} of the winner's winning tiles in her hand")
