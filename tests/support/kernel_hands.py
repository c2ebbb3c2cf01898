"""Mixed hands (every generator's) for the kernel and shaped-hand tests."""

from __future__ import annotations

import random

from tests.support.shanten_hands import GENERATORS, SIZES, melds_for


def mixed_hands(seed: int, count: int) -> list[tuple[list[int], int]]:
    """Hands of every generator and size, with the melds their size implies."""
    rng = random.Random(seed)
    out = []
    kinds = sorted(GENERATORS)
    while len(out) < count:
        kind = kinds[len(out) % len(kinds)]
        n = rng.choice(SIZES if kind != "quads" else (14, 13, 11, 10, 8, 7, 5))
        counts = GENERATORS[kind](rng, n)
        if max(counts) <= 4:
            out.append((counts, melds_for(n)))
    return out
