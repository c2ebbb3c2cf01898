"""``meld_swap``: as she calls, her meld swapped with another player's, and a pond tile turned
face down."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards.effects.base import CallContext, CardEffect
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import table_seats
from pipeline.rules.actions import Action, ActionKind, ability_action
from pipeline.rules.hooks import SwapControls

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("swap_meld", "turn_down"))


def standard(tiles: Sequence[int]) -> bool:
    """A meld's tiles (ids) as the standard rules allow them: a triplet or kan, or three suited
    neighbours (any seat may hold it; another sequence needs the holder's own shapes: C-20)."""
    types = sorted(x // 4 for x in tiles)
    if len(set(types)) == 1:
        return True
    if len(types) != 3:
        return False
    a, b, c = types
    return c < 27 and a // 9 == c // 9 and b == a + 1 and c == b + 1


class MeldSwap(CardEffect):
    """When she calls (chi, pon, open kan), she may swap one of her melds (the one just made
    included) with another player's meld, and, a separate choice, turn one tile lying face up
    in a pond face down (C-13 then applies to it). A closed kan may be taken (it becomes an open
    kan; its owner's hand is open with her meld), but nothing from a player in riichi (C-22
    Yumi: that hand is locked). A meld only another ability allows (Kaori's honor sequence,
    Yuuko's wrap-around sequence) may be swapped too, either way: whoever then holds a sequence
    their own shapes do not allow has a dead hand (rule C-20, C-22 Yumi: the engine's dead-hand
    check: no win, noten at a draw) until a further swap takes it away or gives it back. Her
    card's han for face-down tiles in the other ponds are its ``han_per_count`` effect.

    Bot policy: the melds are swapped when the other meld is worth more to her, never for a
    sequence the standard rules do not allow (:func:`standard`: her hand would be dead); a pond
    tile is turned face down while her hand is within two steps of tenpai."""

    kind = "meld_swap"
    choices = frozenset({Move.SWAP_MELD, Move.TURN_DOWN})
    optional = OPTIONAL

    def claim_made(self, ctx: CallContext) -> None:
        if ctx.view.seat == self.seat and ctx.table is not None:
            swaps = ctx.table.swaps()
            self._offer_meld_swap(swaps)
            self._offer_turn_down(swaps)

    def _offer_meld_swap(self, swaps: SwapControls) -> None:
        locked = set(swaps.riichi_seats())
        options = [ability_action(self.seat, self.card, Move.SWAP_MELD, mine.tiles[0],
                                  tiles=theirs.tiles)
                   for mine in swaps.melds(self.seat)
                   for other in range(table_seats(swaps)) if other != self.seat
                   and other not in locked
                   for theirs in swaps.melds(other)]
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind != ActionKind.ABILITY:
            return
        mine = next(m for m in swaps.melds(self.seat) if m.tiles[0] == choice.tile)
        other, theirs = next((o, m) for o in range(table_seats(swaps)) if o != self.seat
                             for m in swaps.melds(o) if m.tiles == choice.tiles)
        swaps.swap_melds(self.seat, mine, other, theirs, self.card)

    def _offer_turn_down(self, swaps: SwapControls) -> None:
        options = [ability_action(self.seat, self.card, Move.TURN_DOWN, x)
                   for pond in swaps.lying() for x in pond]
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.turn_face_down(choice.tile, self.card, self.seat)
