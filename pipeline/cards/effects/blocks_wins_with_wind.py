"""``blocks_wins_with_wind``: no other player wins holding her seat wind; the round wind or her
seat wind, passed by everyone, may be swapped into her hand."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, DiscardContext, WinCheckContext
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import table_seats
from pipeline.rules.actions import Action, ActionKind, ability_action

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("swap_pond",))
WINDS = 27               # East's type; South, West, North follow


def terminal_or_honor(t: int) -> bool:
    """Of a tile type."""
    return t >= 27 or t % 9 in (0, 8)


class BlocksWinsWithWind(CardEffect):
    """Another player may not win while holding a tile of her seat wind (in the hand or in a
    meld, the winning tile included), except with a yakuman (a counted yakuman: kazoe is not
    one). And whenever another player discards the round wind or her seat wind and nobody
    claims or rons it, she may swap it for a terminal or honor of her hand (of another type;
    not in riichi): the discarder's pond then holds her tile (no discard: nobody may call or ron
    it; logged tagged ``SWAPPED``, which Teru's honba count: C-22 Teru).

    Bot policy: the swap of a passed wind follows the bot's rule for a hand tile offered for a
    known tile (closer to tenpai, or as close with at least 4 more tiles accepted); blocking
    the others' wins needs no decision."""

    kind = "blocks_wins_with_wind"
    choices = frozenset({Move.SWAP_POND})
    optional = OPTIONAL

    def win_allowed(self, ctx: WinCheckContext) -> bool:
        """No other player wins holding her seat wind, unless with a yakuman."""
        win = ctx.win
        if win.seat == self.seat or win.yakuman:
            return True
        wind = WINDS + (self.seat - win.dealer) % (len(win.scores) or 4)
        held = (*win.ctx.concealed, *(x for m in win.ctx.melds for x in m.tiles))
        return all(x // 4 != wind for x in held)

    def discard_passed(self, ctx: DiscardContext) -> None:
        """Another player's round wind or her seat wind, unclaimed: for a terminal or honor
        of her hand, if she wants."""
        view = ctx.view
        if ctx.table is None or view.seat == self.seat or view.face_down:
            return
        swaps = ctx.table.swaps()
        if self.seat in swaps.riichi_seats():
            return
        winds = {WINDS + swaps.round_wind(),
                 WINDS + (self.seat - view.dealer) % table_seats(swaps)}
        if view.tile // 4 not in winds or view.tile not in swaps.lying()[view.seat]:
            return  # another wind, or already swapped away (two such cards in play)
        held: dict[int, int] = {}
        for x in swaps.concealed(self.seat):
            if terminal_or_honor(x // 4) and x // 4 != view.tile // 4:
                held.setdefault(x // 4, x)
        options = [ability_action(self.seat, self.card, Move.SWAP_POND, x, tiles=(view.tile,))
                   for x in held.values()]
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.with_pond(self.seat, choice.tile, view.tile, self.card)
