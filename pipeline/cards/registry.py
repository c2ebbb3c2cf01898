"""Which effects have an implementation in code (a card is playable when all of its effects do)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Effect kinds implemented for every value of their parameters.
IMPLEMENTED_KINDS: frozenset[str] = frozenset({"yaku_value", "one_han_yaku_value"})


def effect_implemented(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether one effect, with these parameters, has an implementation."""
    from pipeline.cards.abilities import effect_implemented as check

    return kind in IMPLEMENTED_KINDS or check(kind, params)
