"""Time pipeline.bots.shanten.shanten against mahjong.shanten.Shanten.calculate_shanten.

All run on the same random hands (half 14 tiles, half 13, each drawn from a shuffled 136-tile
wall). ``shanten`` is the compiled kernel (``pipeline/bots/_kernel.c``) where it is built; the
pure-Python function it stands in for is timed as well. The pure function reads suits from the
shipped table (``pipeline/data/bots/suit_table.bin``) and memoises hand combinations, so the
script first
warms its memos up on a separate sample of the same size, then times one pass over the benchmark
hands (memos partly warm, as in a long simulation) and a second pass (fully warm). The kernel
keeps no memo. Every result is compared with the package's.

    python benchmarks/bench_shanten.py [--hands 100000] [--seed 2024]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mahjong.shanten import Shanten

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.bots import shanten as shanten_module  # noqa: E402
from pipeline.bots.shanten import _suit_rows  # noqa: E402
from pipeline.bots.suit_table import TABLE_FILE, load_table  # noqa: E402


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
    results.add_save_option(parser)
    args = parser.parse_args()

    warm = random_hands(args.hands, args.seed + 1)
    hands = random_hands(args.hands, args.seed)
    n = len(hands)

    kernel = shanten_module.KERNEL
    pure = getattr(shanten_module, "_pure_shanten", shanten_module.shanten)
    cold, _ = timed(pure, warm)
    print(f"pure warm-up: {n:,} other hands in {cold:.2f} s ({n / cold:,.0f} hands/s, "
          f"memos built from empty); suits read from {TABLE_FILE.name}: "
          f"{'yes' if load_table() else 'no (file missing)'}, "
          f"suits searched: {_suit_rows.cache_info().currsize:,}")

    package = Shanten.calculate_shanten
    t_pkg, expected = timed(package, hands)
    print(f"mahjong package:              {n / t_pkg:>10,.0f} hands/s  ({t_pkg:.2f} s)")
    mismatches = 0
    if kernel is None:
        print("compiled kernel: not built (no C compiler at install, or SAKI_PURE_PYTHON set)")
    else:
        t_kernel, got = timed(shanten_module.shanten, hands)
        mismatches += sum(a != b for a, b in zip(got, expected, strict=True))
        print(f"compiled kernel:              {n / t_kernel:>10,.0f} hands/s  "
              f"({t_kernel:.2f} s)  x{t_pkg / t_kernel:.1f}")
    t_ours, got = timed(pure, hands)
    t_again, _ = timed(pure, hands)
    mismatches += sum(a != b for a, b in zip(got, expected, strict=True))
    print(f"pure Python, after warm-up:   {n / t_ours:>10,.0f} hands/s  ({t_ours:.2f} s)  "
          f"x{t_pkg / t_ours:.1f}")
    print(f"pure Python, same hands again: {n / t_again:>9,.0f} hands/s  ({t_again:.2f} s)  "
          f"x{t_pkg / t_again:.1f}")
    print(f"mismatches with the package: {mismatches} (every function timed, {n:,} hands each)")
    results.save_if(args.save, "shanten", {
        "hands": n, "package_per_s": round(n / t_pkg),
        "kernel_per_s": None if kernel is None else round(n / t_kernel),
        "pure_per_s": round(n / t_ours), "pure_again_per_s": round(n / t_again),
        "mismatches": mismatches})

if __name__ == "__main__":
    main()
