"""Time a small batch run on one worker and on all cores: hands per second, parallel efficiency
and peak memory per worker.

The same run (preset, bots, seed, games, shard size) is written twice into fresh temporary
folders, once by one worker (in this process) and once by a pool of all cores, through
:func:`pipeline.sim.run.simulate`, exactly as ``saki simulate`` runs it. Times cover playing
and writing the shards, including starting the worker processes. Parallel efficiency is the
speed-up over one worker divided by the worker count. Peak memory is the largest peak resident
size (``ru_maxrss``) among the processes that played shards; for one worker that is this
process. The two runs' tables are compared at the end: they must be identical.

    python benchmarks/bench_sim.py [--games 16] [--preset online-tonpuusen] [--bots heuristic]
                                   [--seed 1] [--shard-size 2] [--workers N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.executor import default_workers  # noqa: E402
from pipeline.sim.run import RunConfig, RunSummary, load_table, parse_bots, simulate  # noqa: E402
from pipeline.sim.tables import TABLES  # noqa: E402


def line(label: str, s: RunSummary) -> str:
    return (f"{label:<12} {s.hands:>5} hands in {s.seconds:6.2f} s = "
            f"{s.hands_per_second:7.1f} hands/s; peak memory per worker "
            f"{s.peak_rss_kb / 1024:6.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--preset", default="online-tonpuusen")
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard-size", type=int, default=2)
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="the pool size to compare with one worker (default: all cores)")
    args = parser.parse_args()

    preset = load_preset(args.preset)
    config = RunConfig(preset=preset, catalog=load_catalog(preset.cards.catalog),
                       seed=args.seed, games=args.games, bots=parse_bots(args.bots),
                       shard_size=args.shard_size)
    print(f"{args.games} matches of {args.preset}, bots {args.bots}, seed {args.seed}, "
          f"{args.shard_size} matches per shard, {default_workers()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        one = simulate(config, Path(tmp) / "one", workers=1)
        print(line("1 worker", one))
        many = simulate(config, Path(tmp) / "many", workers=args.workers)
        print(line(f"{args.workers} workers", many))
        speedup = many.hands_per_second / one.hands_per_second
        print(f"speed-up {speedup:.2f}x on {args.workers} workers, parallel efficiency "
              f"{speedup / args.workers:.0%}")
        same = all(load_table(one.out, t).equals(load_table(many.out, t)) for t in TABLES)
        print(f"tables identical across worker counts: {'yes' if same else 'NO'}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
