"""Time whole matches of four bots on one core: hands and decisions per second, peak memory.

Shanten and acceptance come from the compiled kernel, and the engine, card and bot modules
from their compiled builds, where they are built (the header says which; ``SAKI_PURE_PYTHON=1``
times the pure-Python code instead). Everything runs in this one
single-threaded process (``--cpu`` also pins it to one CPU). Match ``i`` is played exactly as
``bots calibrate`` plays it: the walls come from ``(seed, i)`` and seat ``s`` gets
``make_agent(bot, derive_seed(seed, i, "agent", s))``. Match 0 is played first from cold memos
(hand combinations, waits, acceptance; the per-suit shanten table is read from
``pipeline/data/bots/suit_table.bin`` then) and reported on its own; matches 1..N are then
timed warm. Each of those calls begins as a simulator's worker begins a shard
(``pipeline.workers.settle_long_lived``: the young generation collected less often from the
first, what the warm process holds frozen from the second), so play is timed as it runs.
Rates are given per wall-clock second and per CPU second of this process (the second is steadier
on a busy machine).

With a preset that plays cards (``--preset cards-hanchan``) every match gets its own
``CardTable``, exactly as ``saki simulate`` deals teams and picks (the catalog read once), so
ability hooks and the card scoring path are timed too.

Memory is measured afterwards, so tracing does not slow the timed runs: ``tracemalloc`` over one
more match (the peak of Python allocations it makes, caches already warm) and the process's
peak resident size (``ru_maxrss``, everything so far).

The log digest is a hash of every event of the timed matches, taken as each match ends: no
record is kept, as a simulation keeps none (a growing list of them would have the garbage
collector walk more of them at every pass). The same seed and code that decides the same way
print the same digest.

    python benchmarks/bench_bots.py [--matches 20] [--seed 1] [--bot heuristic]
                                    [--preset online-hanchan] [--cpu N] [--save]

With ``--save`` the figures are also written to
``benchmarks/results/bots-<preset>-<bot>.json`` (``-pure`` added without the kernel), from which
``benchmarks/perf_table.py`` renders the README's table.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.bots.registry import BOT_KINDS, make_agent  # noqa: E402
from pipeline.bots.shanten import KERNEL  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.cards.table import CardTable  # noqa: E402
from pipeline.rules.actions import Action  # noqa: E402
from pipeline.rules.agents import Agent, Observation  # noqa: E402
from pipeline.rules.match import derive_seed, play_match  # noqa: E402
from pipeline.rules.preset import Preset, load_preset  # noqa: E402
from pipeline.rules.records import HandRecord  # noqa: E402


class CountingAgent:
    """Passes every decision through to the wrapped agent and counts them."""

    def __init__(self, agent: Agent, counter: list[int]) -> None:
        self.agent = agent
        self.counter = counter

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.counter[0] += 1
        return self.agent.decide(obs, legal)

    def __getattr__(self, name: str) -> object:
        """The agent's other hooks (``pick`` for cards) pass through unchanged."""
        if name == "agent":  # not set yet (a copy being built): no recursion
            raise AttributeError(name)
        return getattr(self.agent, name)


@dataclass
class Run:
    matches: int
    hands: int
    decisions: int
    seconds: float      # wall clock
    cpu: float          # this process's CPU time

    def line(self, label: str) -> str:
        return (f"{label:<5} {self.matches:>3} matches {self.hands:>5} hands "
                f"{self.decisions:>7,} decisions in {self.seconds:6.2f} s "
                f"(CPU {self.cpu:6.2f} s): {self.hands / self.seconds:6.1f} hands/s "
                f"{self.decisions / self.seconds:8,.0f} decisions/s "
                f"(per CPU second: {self.hands / self.cpu:6.1f} and "
                f"{self.decisions / self.cpu:,.0f})")


def play(preset: Preset, bot: str, seed: int, indices: range,
         digest: Any = None) -> tuple[Run, list[HandRecord]]:
    """Play the matches; with ``digest`` (a hashlib object) each match's events go into it as
    the match ends and no record is kept, as a simulation keeps none (a run's growing list of
    records would have the garbage collector walk more and more of them)."""
    settle = _settle_long_lived()
    if settle is not None:
        settle()  # each piece of play as a simulator's worker begins a shard
    counter = [0]
    catalog = load_catalog(preset.cards.catalog) if preset.cards.enabled else None
    records: list[HandRecord] = []
    hands = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for i in indices:
        agents = [CountingAgent(make_agent(bot, derive_seed(seed, i, "agent", s)), counter)
                  for s in range(4)]
        table = CardTable(preset, agents, seed, i, catalog) if preset.cards.enabled else None
        played = play_match(preset, agents, seed, i, table=table).hands
        hands += len(played)
        if digest is None:
            records.extend(played)
        else:
            hash_events(digest, played)
    run = Run(len(indices), hands, counter[0], time.perf_counter() - start,
              time.process_time() - cpu)
    return run, records


def _settle_long_lived() -> Any:
    """The tree's own ``settle_long_lived`` (pipeline/workers.py), which its simulator's workers
    call before each shard, or None in a tree without one: play is timed as each tree's
    simulator plays it (``benchmarks/bench_against.py`` runs this with older trees)."""
    try:
        from pipeline import workers
    except ImportError:
        return None
    return getattr(workers, "settle_long_lived", None)


def hash_events(digest: Any, records: list[HandRecord]) -> None:
    for rec in records:
        for event in rec.events:
            digest.update(repr(event).encode())


def log_digest(records: list[HandRecord]) -> str:
    digest = hashlib.sha256()
    hash_events(digest, records)
    return digest.hexdigest()[:16]


def pin(cpu: int | None) -> str:
    """Keep the process on one given CPU, where the platform allows it."""
    if cpu is None:
        return "one process, not pinned"
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def max_rss_mib() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024  # bytes vs KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="timed warm matches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="heuristic", choices=sorted(BOT_KINDS))
    parser.add_argument("--preset", default="online-hanchan")
    parser.add_argument("--cpu", type=int, default=None,
                        help="pin the process to this CPU (default: the scheduler chooses)")
    results.add_save_option(parser)
    args = parser.parse_args()

    preset = load_preset(args.preset)
    print(f"{args.bot} x4 on {preset.name}, seed {args.seed}, Python "
          f"{sys.version.split()[0]}, {pin(args.cpu)}")
    print("shanten and acceptance: " + ("compiled kernel (pipeline/bots/_kernel.c)" if KERNEL
          else "pure Python (kernel not built, or SAKI_PURE_PYTHON set)"))
    from pipeline import _compiled  # here, not above: play() also times older trees, which
    modules = _compiled.describe()  # have no compiled modules (benchmarks/bench_against.py)
    print(f"engine, card and bot modules (pipeline/_compiled.py): {modules}")
    cold, _ = play(preset, args.bot, args.seed, range(0, 1))
    print(cold.line("cold"))
    running = hashlib.sha256()
    warm, _ = play(preset, args.bot, args.seed, range(1, args.matches + 1), running)
    print(warm.line("warm"))

    tracemalloc.start()
    play(preset, args.bot, args.seed, range(args.matches + 1, args.matches + 2))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"memory: tracemalloc peak {peak / (1024 * 1024):.1f} MiB during one more match, "
          f"max RSS {max_rss_mib():.1f} MiB")
    digest = running.hexdigest()[:16]
    print(f"log digest of the warm matches: {digest}")
    name = f"bots-{preset.name}-{args.bot}" + ("" if KERNEL else "-pure")
    results.save_if(args.save, name, {
        "preset": preset.name, "bot": args.bot, "seed": args.seed, "kernel": bool(KERNEL),
        "compiled_modules": len(_compiled.compiled_modules()),
        "matches": warm.matches, "hands": warm.hands, "decisions": warm.decisions,
        "cpu_s": round(warm.cpu, 3), "wall_s": round(warm.seconds, 3),
        "hands_per_cpu_s": round(warm.hands / warm.cpu, 1),
        "decisions_per_cpu_s": round(warm.decisions / warm.cpu),
        "tracemalloc_peak_mib": round(peak / 2**20, 1),
        "max_rss_mib": round(max_rss_mib(), 1), "digest": digest})


if __name__ == "__main__":
    main()
