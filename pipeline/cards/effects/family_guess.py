"""``family_guess``: before each draw she names a family; the tile drawn is shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import BeforeDrawContext, CardEffect, DrawnContext
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ability_action

FAMILIES: dict[str, frozenset[int]] = {
    "man": frozenset(range(0, 9)), "pin": frozenset(range(9, 18)),
    "sou": frozenset(range(18, 27)), "honors": frozenset(range(27, 34)),
}


def family_of(tile: int) -> str:
    return next(name for name, types in FAMILIES.items() if tile // 4 in types)


class FamilyGuess(CardEffect):
    """Before each draw (from the wall, or the replacement after a kan) she names a family (a
    choice the card requires, no pass); the drawn tile is revealed to the table (the log's
    ``ability`` event names it, and every observation shows it among her shown tiles while she
    holds it: :meth:`~pipeline.rules.hooks.TableControls.show_tile`). Whether the guess was
    right is :meth:`turns_card_over` after the draw: what a right guess does (her first face-up tile
    lying in her pond turned face down, the card flipped) is her card's ``flip_card``
    (``right_guess``), played by the two-sided card
    (:class:`~pipeline.cards.effects.flip_card.FlipAbility`); so is ``riichi_face_down``, the
    tiles her riichi turns face down as it flips the card (``own_riichi``).

    Bot policy: the bot names the family with the most copies it cannot see, the likeliest
    family for the next wall tile."""

    kind = "family_guess"
    choices = frozenset({Move.FAMILY})

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.guess: str | None = None  # the family named for the draw about to be made
        self._right = False            # the last draw's guess was right

    def before_draw(self, ctx: BeforeDrawContext) -> list[Action]:
        view, table = ctx.view, ctx.table
        # "before each draw": the wall draw and the replacement draw after a kan alike
        if view.seat == self.seat and table is not None and \
                (view.source == "rinshan" or (view.source == "wall" and view.live_left)):
            options = [ability_action(self.seat, self.card, Move.FAMILY, payload=f,
                                      detail=f"{self.card}:family:{f}") for f in FAMILIES]
            self.guess = table.wall().choose(self.seat, options).payload
            table.note(self.seat, self.card, f"names {self.guess}", Move.FAMILY,
                       bookkeeping=True, payload=self.guess)
        return []

    def after_draw(self, ctx: DrawnContext) -> None:
        view, table = ctx.view, ctx.table
        guess, self.guess = self.guess, None
        self._right = False
        if guess is None or view.seat != self.seat or view.tile is None or table is None:
            return
        drawn = family_of(view.tile)
        # the tile is shown to the whole table: the log names it, and every observation sees
        # it in her hand until it leaves
        table.show_tile(view.seat, view.tile, self.card, f"reveals a {drawn} tile")
        self._right = drawn == guess

    def turns_card_over(self) -> bool:
        return self._right
