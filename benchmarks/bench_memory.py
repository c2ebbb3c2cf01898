"""A worker's memory as a run grows: resident size after every shard, and where it heads.

A worker process plays shard after shard (``play_shard``: the matches, then their Parquet
files encoded in memory), and nothing of a finished shard stays behind; what can grow is what
the process keeps between shards, the memos of the rules and the bots above all. This plays
``--matches`` matches of ``--preset`` as consecutive shards of ``--step`` matches in this one
process, as a worker would, and prints the resident size (``VmRSS``) and its peak (``VmHWM``)
after each shard, with the hands per CPU second of that shard.

The growth of the last half of the curve (least squares, MiB per match) gives the projection
to ``--project`` matches: ``peak + slope * (project - matches)``. Memos fill more slowly the more
hands they have seen and stop at their size limits, so the growth only slows down and the
projection is an upper bound.

    python benchmarks/bench_memory.py [--matches 400] [--step 25] [--paired]
                                      [--preset cards-hanchan] [--project 2000] [--save]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.run import ShardTask, play_shard  # noqa: E402


def status_mib() -> tuple[float, float]:
    """This process's resident size now and its peak, in MiB (Linux ``/proc``)."""
    found: dict[str, float] = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(rest.split()[0]) / 1024
    return found["VmRSS"], found["VmHWM"]


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares growth in MiB per match over the points."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--step", type=int, default=25, help="matches per shard")
    parser.add_argument("--preset", default="cards-hanchan")
    parser.add_argument("--paired", action="store_true", help="play the paired replays too")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--project", type=int, default=2000)
    results.add_save_option(parser)
    args = parser.parse_args()

    preset = load_preset(args.preset)
    catalog = load_catalog(preset.cards.catalog) if preset.cards.enabled else None
    toml = catalog.path.read_bytes() if catalog else b""
    rss, _ = status_mib()
    print(f"{args.preset}{', paired' if args.paired else ''}: {rss:.0f} MiB after imports")
    curve: list[tuple[int, float]] = []
    for index, start in enumerate(range(0, args.matches, args.step)):
        task = ShardTask(out="", run_id="memory", index=index, start=start,
                         stop=min(start + args.step, args.matches), seed=args.seed,
                         preset=preset, bots=("heuristic",) * 4,
                         catalog_path=str(catalog.path) if catalog else "", catalog_toml=toml,
                         paired=args.paired)
        cpu = time.process_time()
        output = play_shard(task)
        cpu = time.process_time() - cpu
        rss, peak = status_mib()
        curve.append((task.stop, peak))
        print(f"{task.stop:>5} matches: resident {rss:6.1f} MiB, peak {peak:6.1f} MiB "
              f"({sum(output.match_hands) / cpu:5.1f} hands per CPU second)", flush=True)
    growth = slope(curve[len(curve) // 2:])
    projected = curve[-1][1] + max(growth, 0.0) * max(args.project - curve[-1][0], 0)
    print(f"growth over the last half: {growth * 1024:.1f} KiB per match; projected peak at "
          f"{args.project} matches: {projected:.0f} MiB (an upper bound: memos fill ever "
          f"more slowly and stop at their limits)")
    results.save_if(args.save, "memory" + ("-paired" if args.paired else ""), {
        "preset": args.preset, "paired": args.paired, "matches": args.matches,
        "step": args.step, "curve": [[m, round(p, 1)] for m, p in curve],
        "kib_per_match": round(growth * 1024, 1), "project": args.project,
        "projected_mib": round(projected, 1)})


if __name__ == "__main__":
    main()
