"""Time batch runs on one worker and on all cores: hands per second, parallel efficiency, peak
memory per worker, and whether memory stays flat as a run grows.

Every run goes through :func:`pipeline.sim.run.simulate`, exactly as ``saki simulate`` runs it,
each in a fresh process so that its peak memory is its own (``ru_maxrss`` never goes down within
a process). Times cover playing and writing the shards, including starting the worker processes.
Parallel efficiency is the speed-up over one worker divided by the worker count. On a machine
shared with other work the wall clock says more about the others than about the run, so the
processor time of both runs is compared too (the workers' start-up counts): one worker's CPU
seconds over those of the pool is the share of the pool's work that is the run's own.

Memory: "worker" is the largest peak resident size among the processes that played shards;
"writer" is the process that runs the command and writes every file (with one worker it is also
the one playing). Shards are written as they finish and nothing of a finished shard is kept, so
both peaks must stay flat when the run grows: the same configuration is run at ``--games`` and at
``--grow`` times as many matches, and both sizes are printed. The writer's peak is flat; a
worker's still rises a little between short runs, by the bots' memo tables (shanten and
acceptance caches, bounded in size) filling as they meet new hands, about 0.2 KiB per entry
and more slowly the more hands they have seen.

The preset defaults to cards-hanchan (full 4-card teams) when the catalog has enough playable
cards for it, else online-hanchan; the first line says which ran. The two worker counts' tables
are compared at the end: they must be identical.

    python benchmarks/bench_sim.py [--games 8] [--grow 4] [--preset cards-hanchan]
                                   [--bots heuristic] [--seed 1] [--shard-size 2] [--workers N]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.cards.teams import cards_needed, deck_for  # noqa: E402
from pipeline.rules.preset import Preset, load_preset  # noqa: E402
from pipeline.sim.executor import default_workers  # noqa: E402
from pipeline.sim.run import RunConfig, load_table, parse_bots, simulate  # noqa: E402
from pipeline.sim.tables import TABLES  # noqa: E402


def full_deck(preset: Preset) -> bool:
    """Whether the catalog has enough playable cards for the preset's teams."""
    if not preset.cards.enabled:
        return True
    deck = deck_for(load_catalog(preset.cards.catalog), preset.cards)
    return len(deck) >= cards_needed(preset.cards)


def choose_preset(name: str | None) -> tuple[Preset, str]:
    if name is not None:
        return load_preset(name), name
    cards = load_preset("cards-hanchan")
    if full_deck(cards):
        return cards, "cards-hanchan (full 4-card teams)"
    return load_preset("online-hanchan"), ("online-hanchan (cards-hanchan cannot deal its "
                                           "teams yet: too few playable cards)")


def make_config(preset: Preset, games: int, args: argparse.Namespace) -> RunConfig:
    return RunConfig(preset=preset, catalog=load_catalog(preset.cards.catalog), seed=args.seed,
                     games=games, bots=parse_bots(args.bots), shard_size=args.shard_size)


def run_once(preset: Preset, games: int, args: argparse.Namespace, out: str,
             workers: int) -> dict[str, Any]:
    """One run in this (fresh) process; its figures as plain values. ``cpu`` is the processor
    time of this process and of the workers it started (joined by the end of the run)."""
    def used() -> float:
        me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                    resource.RUSAGE_CHILDREN))
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    before = used()
    s = simulate(make_config(preset, games, args), Path(out), workers=workers)
    return {"hands": s.hands, "seconds": s.seconds, "rate": s.hands_per_second,
            "cpu": used() - before,
            "worker_mib": s.peak_rss_kb / 1024,
            "writer_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def fresh(preset: Preset, games: int, args: argparse.Namespace, out: Path,
          workers: int) -> dict[str, Any]:
    with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
        return pool.submit(run_once, preset, games, args, str(out), workers).result()


def line(label: str, r: dict[str, Any]) -> str:
    return (f"{label:<24} {r['hands']:>5} hands in {r['seconds']:6.2f} s = "
            f"{r['rate']:6.1f} hands/s; peak memory per worker {r['worker_mib']:6.1f} MiB, "
            f"writer {r['writer_mib']:6.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--grow", type=int, default=4,
                        help="the larger run has this many times --games matches")
    parser.add_argument("--preset", default=None,
                        help="default: cards-hanchan when its deck is full, else online-hanchan")
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard-size", type=int, default=2)
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="the pool size to compare with one worker (default: all cores)")
    results.add_save_option(parser)
    args = parser.parse_args()

    preset, which = choose_preset(args.preset)
    print(f"preset {which}; bots {args.bots}, seed {args.seed}, {args.shard_size} matches per "
          f"shard, {default_workers()} cores")
    big = args.games * args.grow
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        one = fresh(preset, args.games, args, base / "one", 1)
        print(line(f"{args.games} matches, 1 worker", one))
        many = fresh(preset, args.games, args, base / "many", args.workers)
        print(line(f"{args.games} matches, {args.workers} workers", many))
        speedup = many["rate"] / one["rate"]
        print(f"speed-up {speedup:.2f}x on {args.workers} workers, parallel efficiency "
              f"{speedup / args.workers:.0%}")
        work = one["cpu"] / many["cpu"]
        print(f"processor time: {one['cpu']:.1f} s on 1 worker, {many['cpu']:.1f} s on "
              f"{args.workers} (workers' start-up included): {work:.0%} of it is the one "
              f"worker's work; the wall-clock efficiency can reach this only on cores that "
              f"nothing else uses (load now {os.getloadavg()[0]:.1f})")
        grown = fresh(preset, big, args, base / "big", args.workers)
        print(line(f"{big} matches, {args.workers} workers", grown))
        print(f"peak memory per worker at {args.games} and {big} matches: "
              f"{many['worker_mib']:.1f} and {grown['worker_mib']:.1f} MiB; writer "
              f"{many['writer_mib']:.1f} and {grown['writer_mib']:.1f} MiB")
        same = all(load_table(base / "one", t).equals(load_table(base / "many", t))
                   for t in TABLES)
        print(f"tables identical across worker counts: {'yes' if same else 'NO'}")
        results.save_if(args.save, "sim", {
            "preset": preset.name, "bots": args.bots, "seed": args.seed,
            "shard_size": args.shard_size, "games": args.games, "grown_games": big,
            "workers": args.workers, "rate_1": round(one["rate"], 1),
            "rate_n": round(many["rate"], 1), "speedup": round(speedup, 3),
            "efficiency": round(speedup / args.workers, 3),
            "cpu_1": round(one["cpu"], 2), "cpu_n": round(many["cpu"], 2),
            "work_efficiency": round(work, 3), "load": round(os.getloadavg()[0], 1),
            "worker_mib": round(many["worker_mib"], 1),
            "grown_worker_mib": round(grown["worker_mib"], 1),
            "writer_mib": round(many["writer_mib"], 1),
            "grown_writer_mib": round(grown["writer_mib"], 1), "identical": same})
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
