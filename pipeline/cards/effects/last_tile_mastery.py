"""``last_tile_mastery``: the last live tile and the last discard always win for her; her
closed discards shorten the live wall."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, DiscardContext, WinTileContext
from pipeline.cards.moves import Move
from pipeline.rules.actions import ability_action

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("move_two",))


class LastTileMastery(CardEffect):
    """The last live tile and the last discard always win for her (the engine's
    ``always_wins`` hook). Reading ``always_winning``: ``wildcard`` (default) needs a ready
    hand, the tile standing for its best completion; ``shapeless`` lets a hand that is not
    ready win too, valued by :mod:`pipeline.rules.shapeless` with haitei or houtei as its yaku.
    The last discard is a moment, not a tile type, so it adds no furiten of its own; her real
    waits' furiten applies. While her hand is closed each of her discards moves the last
    live-wall tile to the dead wall; when she is the only player in riichi she may move a second
    one. The part with Satomi Kanbara in play (the last dead-wall tile too) waits for Satomi's
    card: the wall drawn up to the last indicator is not built yet.

    Bot policy: the second last-tile move (offered while she is the only player in riichi) is
    declined when the last live tile already falls to her own draw (tiles left a multiple of
    four) and made otherwise, which may bring it to her; her last-tile wins are taken like
    every win."""

    kind = "last_tile_mastery"
    choices = frozenset({Move.MOVE_TWO})
    optional = OPTIONAL

    def discard_made(self, ctx: DiscardContext) -> None:
        """Her discard with a closed hand moves the last live tile to the dead wall; a second
        one, if she wants, while she is the only player in riichi."""
        if ctx.view.seat != self.seat or ctx.table is None:
            return
        wall = ctx.table.wall()
        if not wall.is_closed(self.seat) or not wall.move_last_live_to_dead(self.seat, self.card):
            return
        if wall.riichi_seats() == (self.seat,) and wall.live_left():
            offer = ability_action(self.seat, self.card, Move.MOVE_TWO)
            if wall.offer(self.seat, offer):
                wall.move_last_live_to_dead(self.seat, self.card)

    def always_wins(self, ctx: WinTileContext) -> bool:
        """The last live tile she draws, and the last discard: to a ready hand, or to any hand
        under the ``shapeless`` reading."""
        view = ctx.view
        return view.seat == self.seat and view.last \
            and (bool(view.waits) or self.params["always_winning"] == "shapeless")
