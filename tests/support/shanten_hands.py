"""Hands for the shanten, kernel and waits tests: tile text, generators by shape, samples near
tenpai."""

from __future__ import annotations

import random
from collections.abc import Callable

from pipeline.tiles import NUM_TYPES, parse_types

SIZES = (14, 13, 11, 10, 8, 7, 5, 4, 2, 1)

def h(text: str) -> list[int]:
    counts = [0] * NUM_TYPES
    for t in parse_types(text):
        counts[t] += 1
    return counts


def melds_for(n: int) -> int:
    return 4 - (n - 1) // 3


def wall_hand(rng: random.Random, n: int) -> list[int]:
    """``n`` tiles taken from a shuffled 136-tile wall."""
    counts = [0] * NUM_TYPES
    for tile in rng.sample(range(136), n):
        counts[tile // 4] += 1
    return counts


def pool_hand(rng: random.Random, n: int, types: list[int]) -> list[int]:
    """``n`` tiles drawn from all four copies of the given types."""
    pool = [t for t in types for _ in range(4)]
    counts = [0] * NUM_TYPES
    for t in rng.sample(pool, n):
        counts[t] += 1
    return counts


def one_suit_hand(rng: random.Random, n: int) -> list[int]:
    base = rng.choice((0, 9, 18))
    types = list(range(base, base + 9))
    if rng.random() < 0.3:
        types += rng.sample(range(27, 34), 2)
    return pool_hand(rng, n, types)


def quad_hand(rng: random.Random, n: int) -> list[int]:
    """A hand with one or more four-of-a-kinds (suits or honors) and the rest nearby."""
    counts = [0] * NUM_TYPES
    quads = rng.sample(range(NUM_TYPES), rng.randint(1, min(3, n // 4)))
    for t in quads:
        counts[t] = 4
    rest = n - 4 * len(quads)
    near = [t for q in quads if q < 27 for t in range(q - q % 9, q - q % 9 + 9)]
    near += rng.sample(range(NUM_TYPES), 4)
    pool = [t for t in near for _ in range(4 - counts[t])]
    for t in rng.sample(pool, rest):
        counts[t] += 1
    return counts


def near_tenpai_hand(rng: random.Random, n: int) -> list[int]:
    """A complete ``3k + 2`` hand with a tile or three swapped out, trimmed to ``n`` tiles."""
    k = (n - 1) // 3
    while True:
        counts = [0] * NUM_TYPES
        for _ in range(k):
            if rng.random() < 0.3:
                t = rng.randrange(NUM_TYPES)
                group = [t, t, t]
            else:
                t = rng.randrange(3) * 9 + rng.randrange(7)
                group = [t, t + 1, t + 2]
            for x in group:
                counts[x] += 1
        counts[rng.randrange(NUM_TYPES)] += 2
        if max(counts) > 4:
            continue
        for _ in range(rng.randint(0, 2)):
            held = [t for t in range(NUM_TYPES) if counts[t]]
            counts[rng.choice(held)] -= 1
            free = [t for t in range(NUM_TYPES) if counts[t] < 4]
            counts[rng.choice(free)] += 1
        while sum(counts) > n:
            held = [t for t in range(NUM_TYPES) if counts[t]]
            counts[rng.choice(held)] -= 1
        return counts


GENERATORS: dict[str, Callable[[random.Random, int], list[int]]] = {
    "wall": wall_hand,
    "near_tenpai": near_tenpai_hand,
    "one_suit": one_suit_hand,
    "quads": quad_hand,
}

def near_tenpai_sample(seed: int, count: int) -> list[tuple[list[int], int]]:
    """13-, 10- and 7-tile closed parts (with 0, 1 and 2 melds) of every generator."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = (13, 13, 13, 10, 7)[i % 5]
        kind = ("wall", "near_tenpai", "one_suit", "quads")[i % 4]
        counts = GENERATORS[kind](rng, n)
        if max(counts) <= 4:
            out.append((counts, melds_for(n)))
    return out
