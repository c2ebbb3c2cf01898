"""``private_extra_tile``: a tile beside her hand that only she sees, to swap in or draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import BeforeDrawContext, CardEffect, TurnContext
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hooks import WallControls

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS); "draw" is
# the engine's draw from another source, registered there already.
OPTIONAL = frozenset(("swap",))


class PrivateExtraTile(CardEffect):
    """Before her first discard she draws a live tile and keeps it beside her hand, seen by her
    alone (C-22 Toki). On her turn, before she acts (``turn_start``), she may swap it with a
    tile of the closed part of her hand (not in riichi: her hand is locked); instead of a live
    draw or a rinshan draw she may take it (one extra tile a hand: once taken it is gone). A win
    on it taken instead of a rinshan draw is a rinshan win. A swap is logged as one (Teru's
    honba count it: C-22 Teru).

    Bot policy: the tile beside her hand is swapped in when that brings her hand closer to
    tenpai, and taken instead of a draw when it wins or brings the hand closer to tenpai (in
    riichi only to win); otherwise it stays beside the hand, unseen by the others."""

    kind = "private_extra_tile"
    choices = frozenset({Move.SWAP_ASIDE, AbilityTag.DRAW})
    optional = OPTIONAL | {"draw"}

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.aside_drawn = False    # the extra tile was drawn (it may be gone since)

    def turn_start(self, ctx: TurnContext) -> None:
        view = ctx.view
        if ctx.table is None or view.seat != self.seat:
            return
        wall = ctx.table.wall()
        if not self.aside_drawn and view.turns == 0:
            self.aside_drawn = True
            wall.set_aside(self.seat, self.card)
        if not view.in_riichi:
            self._offer_swap(wall)

    def _offer_swap(self, wall: WallControls) -> None:
        """The tile beside her hand for one of her closed tiles (optional, C-22 Toki), never
        one that leaves her no tile she may discard (after a call, rule H-07's kuikae)."""
        beside = wall.aside(self.seat)
        if not beside:
            return
        extra = beside[0]
        hand = wall.concealed(self.seat)
        barred = wall.barred(self.seat)

        def leaves_discard(t: int) -> bool:
            return not barred or any(x // 4 not in barred for x in (*hand, extra) if x != t)

        options = [ability_action(self.seat, self.card, Move.SWAP_ASIDE, t)
                   for t in hand if leaves_discard(t)]
        if not options:
            return
        choice = wall.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            wall.exchange_aside(self.seat, extra, choice.tile, self.card,
                                "swaps the tile beside her hand with a hand tile")

    def before_draw(self, ctx: BeforeDrawContext) -> list[Action]:
        """The tile beside her hand, for any of her draws (a rinshan draw too)."""
        if ctx.view.seat != self.seat or ctx.table is None:
            return []
        return [ability_action(self.seat, self.card, AbilityTag.DRAW, t)
                for t in ctx.table.wall().aside(self.seat)]
