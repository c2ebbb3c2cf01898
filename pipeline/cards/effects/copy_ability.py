"""``copy_ability``: she draws two cards and plays one of their abilities for the hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.effects.base import CardEffect
from pipeline.rules.hooks import TableControls

COPY_COUNT = 2  # cards Maho draws


class CopyAbility(CardEffect):
    """When she is picked, she draws two cards from the deck into her team (she keeps both: they
    stay in her team after the hand) and copies one for this hand; her player chooses through
    its ``pick`` hook (the bots' pick estimates). The copy is chosen with the picks, after the
    deal and before the dealer's first discard, so it is in place before her first discard.
    Her pick stays Maho: under winner rotation Maho rotates and the copied card stays in her
    team (C-22 Maho).

    The kind acts on no hook: the card table (:mod:`pipeline.cards.table`) builds such a
    card's ability another way, drawing the cards as the picks are made (:func:`copies`,
    :func:`copy_choice`) and playing the copied card's whole ability
    (:class:`CopiedAbility`). This class declares the kind, as a card's other effects are
    declared; with nothing drawn (an empty deck) the card plays with no effect.

    Bot policy: the bot copies the drawn card its pick estimate values most with the starting
    hand and situation, as it picks any card."""

    kind = "copy_ability"


def copies(card: Card) -> bool:
    """Whether the card copies another card's ability (``copy_ability``)."""
    return any(e.kind == "copy_ability" for e in card.effects)


def copy_choice(drawn: Sequence[str], choose: Callable[[Sequence[str]], str] | None) -> str:
    """The card copied: the player's choice among the drawn cards (the first without one, or
    when the choice is not one of them)."""
    choice = choose(drawn) if choose is not None else drawn[0]
    return choice if choice in drawn else drawn[0]


class CopiedAbility:
    """The ability of a copied card for the copying seat: every hook is the copied card's; the
    start of the hand logs the copy (an ``ability`` event under the copying card's name)."""

    def __init__(self, inner: Any, by: str, copied: str, drawn: Sequence[str]) -> None:
        self._inner = inner
        self.by = by
        self.copied = copied
        self.drawn = tuple(drawn)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def hand_start(self, table: TableControls) -> None:
        table.note(self._inner.seat, self.by,
                   f"draws {' and '.join(self.drawn)}, copies {self.copied}")
        self._inner.hand_start(table)
