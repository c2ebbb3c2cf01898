"""``open_hands``: hands played face up: her own from the start, the others' while she is
last, or the others' tiles of a family she names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.cards.effects.base import (
    CallContext,
    CardEffect,
    DiscardContext,
    DrawnContext,
    HandStartContext,
    RiichiContext,
    TurnContext,
)
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import table_seats
from pipeline.rules.actions import Action, ability_action
from pipeline.rules.hooks import TableControls

FAMILIES: dict[str, frozenset[int]] = {
    "man": frozenset(range(0, 9)), "pin": frozenset(range(9, 18)),
    "sou": frozenset(range(18, 27)), "honors": frozenset(range(27, 34)),
}


def last_place(scores: Sequence[int], dealer: int) -> int:
    """The seat in last place (rule C-21: on equal points, farther from the dealer ranks lower)."""
    n = len(scores)  # three or four seats (rule S-01)
    return sorted(range(n), key=lambda s: (-scores[s], (s - dealer) % n))[-1]


class OpenHands(CardEffect):
    """Hands played face up, by ``who``:

    - ``self``: she plays face up from the start of the hand (the pick is revealed before the
      dealer's first discard).
    - ``others_while_last``: while she is last (rule C-21 on equal points) the other players
      play face up; checked after the deal, every draw, every discard, every riichi and every
      call, so the reveal starts and stops during the hand (points paid for a call by another
      ability may show only from the next discard).
    - ``others_family``: before her first discard she names a family (man, pin, sou, honors;
      a choice with no pass); the other players keep their tiles of it face up, tiles drawn
      later too. Her ``han_per_count`` of ``shown_family_tiles`` counts them.

    Bot policy: no decision for ``self`` and ``others_while_last``; the pick weighs what the
    card gives for her open hand against a fixed cost for being read. Under ``others_family``
    the bot names the family with the most copies it cannot see (Kasumi Iwato's policy is said
    in :mod:`pipeline.cards.abilities`)."""

    kind = "open_hands"
    choices = frozenset({Move.FAMILY})

    @classmethod
    def offers_choice(cls, params: Mapping[str, Any]) -> bool:
        return params.get("who") == "others_family"  # the family she names

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.who: str = params["who"]
        self.revealing = False                  # others play face up now (others_while_last)
        self.family: str | None = None          # the family named (others_family)
        # the hand's controls, for the family shown once it is named: ``action_taken`` is
        # handed none (others_family only)
        self._table: TableControls | None = None

    def hand_start(self, ctx: HandStartContext) -> None:
        if self.who == "self":
            ctx.table.reveal_hand(ctx.seat, ctx.card)
        elif self.who == "others_family":
            self._table = ctx.table
        self._check_last(ctx.table)

    def _check_last(self, table: TableControls | None) -> None:
        """Others face up exactly while she is last (reveal and hide as her place changes)."""
        if self.who != "others_while_last" or table is None:
            return
        last = last_place(table.scores(), table.dealer()) == self.seat
        if last == self.revealing:
            return
        self.revealing = last
        for other in range(table_seats(table)):
            if other != self.seat:
                if last:
                    table.reveal_hand(other, self.card)
                else:
                    table.hide_hand(other, self.card)

    def after_draw(self, ctx: DrawnContext) -> None:
        self._check_last(ctx.table)

    def discard_made(self, ctx: DiscardContext) -> None:
        self._check_last(ctx.table)

    def riichi(self, ctx: RiichiContext) -> None:
        self._check_last(ctx.table)

    def claim_made(self, ctx: CallContext) -> None:
        self._check_last(ctx.table)  # any call may change her place

    def turn_choices(self, ctx: TurnContext) -> list[Action]:
        """Before her first discard: name a family (``others_family``)."""
        if self.who != "others_family" or self.family is not None or ctx.view.turns:
            return []
        return [ability_action(self.seat, self.card, Move.FAMILY, payload=f,
                               detail=f"{self.card}:family:{f}") for f in FAMILIES]

    def action_taken(self, action: Action) -> None:
        if action.tag is Move.FAMILY and self.who == "others_family" \
                and self._table is not None:
            self.family = action.payload
            for other in range(table_seats(self._table)):
                if other != self.seat:
                    self._table.show_types(other, FAMILIES[self.family], self.card)
