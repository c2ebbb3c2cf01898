"""``blocks_calls``: on her riichi she names a player who may not call or ron unless in
riichi; her riichi switches the other abilities off."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ClaimContext, HandStartContext, TurnContext
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import table_seats
from pipeline.rules.actions import Action, ability_action
from pipeline.rules.hooks import TableControls


class BlocksCalls(CardEffect):
    """As she declares riichi she names another player, who may not call or ron (claims on a
    discard or a kan tile; their own kans are not calls) unless in riichi too, for the rest of
    the hand. From her declaration on (the riichi event in the hand's log), every other
    player's ability is switched off (rule C-20: a riichi hand made noten by it is chombo at
    the draw).

    Bot policy: at her riichi the bot blocks a player not in riichi, the one with the most
    melds, then the points leader."""

    kind = "blocks_calls"
    choices = frozenset({Move.BLOCK})

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.blocked: int | None = None        # the player her riichi blocks
        self.table: TableControls | None = None
        # what ``switched_off`` answers once her riichi is in the log: it stays so for the
        # hand (the log only grows), so the log is read once, not at every turn
        self._off: tuple[int, frozenset[int]] | None = None

    def hand_start(self, ctx: HandStartContext) -> None:
        self.table = ctx.table  # ``switched_off`` is asked with nothing: it reads the log
        self._off = None

    def riichi_choices(self, ctx: TurnContext) -> list[Action]:
        """As she declares riichi: name the player she blocks."""
        view = ctx.view
        if view.seat != self.seat or self.blocked is not None:
            return []
        return [ability_action(self.seat, self.card, Move.BLOCK, payload=s,
                               detail=f"{self.card}:block:P{s}")
                for s in range(len(view.scores) or 4) if s != self.seat]

    def action_taken(self, action: Action) -> None:
        if action.tag is Move.BLOCK:
            self.blocked = action.payload

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        view = ctx.view
        if self.blocked is not None and view.seat == self.blocked and \
                view.discarder is not None and not view.in_riichi:
            return []  # the blocked player may not call or ron unless in riichi too
        return ctx.actions

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        """In riichi: every other seat, from her riichi on."""
        if self._off is not None:
            return self._off
        if self.table is None or not self.table.in_riichi(self.seat):  # no riichi event yet
            return None
        events = self.table.events()
        at = next((i for i, e in enumerate(events) if e.kind == "riichi" and e.seat == self.seat),
                  None)
        if at is not None:
            self._off = (at, frozenset(s for s in range(table_seats(self.table))
                                       if s != self.seat))
        return self._off
