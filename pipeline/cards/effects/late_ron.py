"""``late_ron``: she may ron a player's previous discard when the latest was not claimed."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, DiscardContext, DrawnContext, ScoringContext
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.scoring import ScoringModifiers


class LateRon(CardEffect):
    """After a discard nobody claimed (no call, no ron), she may ron that player's *previous*
    discard: the discard that player made just before this one, while it still lies face up in
    the pond (a called or face-down tile cannot be ronned; a discard from an extra turn counts
    like any other). Furiten is the rules' own (H-09), checked at that moment: her discards, a
    winning tile she let go by since her last discard (the discard just passed included) and
    riichi furiten all forbid it; declining it is letting a winning tile go by. A riichi
    declared with the unclaimed discard is accepted first (the winner collects its stick). The
    win is no houtei (the tile is not the last discard) and gets ``han`` extra han (not a yaku,
    rule C-12). The offer lasts until the next draw.

    Bot policy: the late ron is taken whenever it is offered, as the bot takes every legal
    win."""

    kind = "late_ron"
    choices = frozenset({AbilityTag.LATE})

    late_tile: int | None = None  # the earlier discard offered for a late ron

    def late_claims(self, ctx: DiscardContext) -> list[Action]:
        """A ron on the discarder's previous discard."""
        view = ctx.view
        if view.seat == self.seat or view.previous is None:
            return []
        self.late_tile = view.previous
        return [ability_action(self.seat, self.card, AbilityTag.LATE, view.previous,
                               kind=ActionKind.RON)]

    def after_draw(self, ctx: DrawnContext) -> None:
        self.late_tile = None  # a late ron is offered right after a discard

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        win = ctx.win
        if not win.ctx.is_tsumo and win.discarder is not None and \
                win.ctx.win_tile == self.late_tile:
            return ScoringModifiers(extra_han=(("late_ron", self.params["han"]),))
        return None
