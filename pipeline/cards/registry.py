"""Which effects have an implementation in code: a card is playable when all of its effects do.

The catalog is pure data and knows nothing of the code; this is where the card layer answers
for it (``card.playable(effect_is_implemented)``, or :func:`playable`)."""

from __future__ import annotations

from pipeline.cards.abilities import effect_implemented
from pipeline.cards.catalog import Card, Effect


def effect_is_implemented(effect: Effect) -> bool:
    """Whether one effect, with its parameters, has an implementation."""
    return effect_implemented(effect.kind, effect.params)


def playable(card: Card) -> bool:
    """Whether every effect of the card is implemented."""
    return card.playable(effect_is_implemented)


def missing_kinds(card: Card) -> tuple[str, ...]:
    """The card's effect kinds without an implementation (for its parameter values)."""
    return card.missing_kinds(effect_is_implemented)
