"""Which effect kinds have an implementation in code (a card is playable when all of its do)."""

from __future__ import annotations

IMPLEMENTED_KINDS: frozenset[str] = frozenset()
