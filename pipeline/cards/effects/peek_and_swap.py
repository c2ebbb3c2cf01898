"""``peek_and_swap``: when others act, she looks at the next wall tile and may swap it in."""

from __future__ import annotations

from pipeline.cards.effects.base import (
    CallContext,
    CardEffect,
    DiscardContext,
    DrawnContext,
    RiichiContext,
)
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hooks import TableControls

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("swap_wall",))


class PeekAndSwap(CardEffect):
    """While her hand is closed, whenever another player takes an extra turn (seen at its
    draw), discards face down, calls chi or has a riichi accepted, she looks at the next
    live-wall tile and may swap it for any tile of her hand (of another type; not in riichi:
    her hand is locked); the tile she gives is drawn next in its place (logged tagged
    ``SWAPPED``, which Teru's honba count: C-22 Teru). Her card's doubled win under an ippatsu
    threat is its ``win_multiplier`` effect.

    Bot policy: the swap follows the bot's rule for a hand tile offered for a known tile:
    swapped when that brings the hand closer to tenpai, or keeps it as close (one step or
    less) while it accepts at least 4 more tiles; among several such swaps the best one. The
    tile she gives is drawn next by another seat: a dora, a red five or a tile unsafe against
    a player in riichi goes only for a step closer to tenpai, and not when a harmless tile
    does as well."""

    kind = "peek_and_swap"
    choices = frozenset({Move.SWAP_WALL})
    optional = OPTIONAL

    def riichi(self, ctx: RiichiContext) -> None:
        if ctx.view.seat != self.seat:
            self._peek(ctx.table)

    def claim_made(self, ctx: CallContext) -> None:
        if ctx.view.seat != self.seat and ctx.view.kind == "chi":
            self._peek(ctx.table)

    def discard_made(self, ctx: DiscardContext) -> None:
        if ctx.view.seat != self.seat and ctx.view.face_down:
            self._peek(ctx.table)

    def after_draw(self, ctx: DrawnContext) -> None:
        """Another player's draw for an extra turn (the last public event announced it)."""
        view, table = ctx.view, ctx.table
        if view.seat == self.seat or table is None:
            return
        events = table.events()
        if events and events[-1].kind == "ability" and events[-1].seat == view.seat \
                and events[-1].tag is AbilityTag.EXTRA_TURN:
            self._peek(table)

    def _peek(self, table: TableControls | None) -> None:
        """She looks at the next wall tile and may swap it for a tile of her closed hand."""
        if table is None:
            return
        swaps = table.swaps()
        if not swaps.is_closed(self.seat) or self.seat in swaps.riichi_seats():
            return
        nxt = swaps.peek()
        if nxt is None:
            return
        held: dict[tuple[int, bool], int] = {}
        for x in swaps.concealed(self.seat):
            if x // 4 != nxt // 4:
                held.setdefault((x // 4, x in (16, 52, 88)), x)
        options = [ability_action(self.seat, self.card, Move.SWAP_WALL, x, tiles=(nxt,))
                   for x in held.values()]
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.with_wall(self.seat, choice.tile, self.card)
