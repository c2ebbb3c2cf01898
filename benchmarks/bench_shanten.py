"""Time pipeline.bots.shanten.shanten against mahjong.shanten.Shanten.calculate_shanten.

Both run on the same random hands (half 14 tiles, half 13, each drawn from a shuffled 136-tile
wall). Suits are read from the shipped table (``data/bots/suit_table.bin``) and hand combinations
are memoised, so the script first warms the memos up on a separate sample of the same size, then
times one pass over the benchmark hands (memos partly warm, as in a long simulation) and a second
pass (fully warm). Results of both functions are compared too.

    python benchmarks/bench_shanten.py [--hands 100000] [--seed 2024]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from mahjong.shanten import Shanten

from pipeline.bots.shanten import _suit_rows, shanten
from pipeline.bots.suit_table import TABLE_FILE, load_table


def random_hands(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        counts = [0] * 34
        for tile in rng.sample(range(136), 14 if i % 2 == 0 else 13):
            counts[tile // 4] += 1
        hands.append(counts)
    return hands


def timed(fn: Callable[[list[int]], int], hands: list[list[int]]) -> tuple[float, list[int]]:
    start = time.perf_counter()
    results = [fn(h) for h in hands]
    return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    warm = random_hands(args.hands, args.seed + 1)
    hands = random_hands(args.hands, args.seed)
    n = len(hands)

    cold, _ = timed(shanten, warm)
    print(f"warm-up: {n:,} other hands in {cold:.2f} s ({n / cold:,.0f} hands/s, "
          f"memos built from empty); suits read from {TABLE_FILE.name}: "
          f"{'yes' if load_table() else 'no (file missing)'}, "
          f"suits searched: {_suit_rows.cache_info().currsize:,}")

    package = Shanten.calculate_shanten
    t_pkg, expected = timed(package, hands)
    t_ours, got = timed(shanten, hands)
    t_again, _ = timed(shanten, hands)
    mismatches = sum(a != b for a, b in zip(got, expected, strict=True))

    print(f"mahjong package:        {n / t_pkg:>10,.0f} hands/s  ({t_pkg:.2f} s)")
    print(f"ours, after warm-up:    {n / t_ours:>10,.0f} hands/s  ({t_ours:.2f} s)  "
          f"x{t_pkg / t_ours:.1f}")
    print(f"ours, same hands again: {n / t_again:>10,.0f} hands/s  ({t_again:.2f} s)  "
          f"x{t_pkg / t_again:.1f}")
    print(f"mismatches: {mismatches} of {n:,}")


if __name__ == "__main__":
    main()
