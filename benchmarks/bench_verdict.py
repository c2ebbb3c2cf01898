"""How long a balance verdict takes: card trials of every card, and the time to +/-100 each.

A designer acts on every card's ability value once its interval is narrow enough; this measures
how long that takes on this machine. Three figures:

1. The cost of a pair: trial shards (one card held by one seat, as ``saki trial`` plays them)
   played in this process with the paired replay and without it, alternating, over
   ``--pair-shards`` cards; CPU seconds per hand with pairs divided by CPU seconds per hand
   without. A paired trial hand is the hand plus its replay without the ability. The same for
   ``simulate --paired`` (every seat with a character replayed, ``--sim-matches`` matches):
   a plain hand plus one seat's replay, over a plain hand.
2. Trials of all the deck's cards, in rounds (one block of 4 matches per card per round, the
   holder once in every seat, the same shards ``saki trial`` plays) on ``--workers`` local
   processes (one pool for every round, as ``saki trial`` keeps it), until ``--seconds`` have
   passed (at least one round): the trial hands per wall second reached (worker start-up
   included), each card's interval half-width, and the peak resident memory of the workers.
3. The projection: a card's half-width shrinks as one over the square root of its hands, so a
   card measured at half-width ``h`` on ``n`` hands needs ``n (h / target)^2`` hands for
   ``+/-target``. The sum over the cards (a card whose pairs never differ yet is given
   the deck's median need) divided by the rate reached gives one line::

       projected: X min for +/-100 points/hand on every card (W workers)

   The rate reached depends on what else the machine runs; the line before it gives the time
   from the CPU cost of a pair alone, as if every worker had a core to itself.

    python benchmarks/bench_verdict.py [--seconds 120] [--workers W] [--target 100] [--seed 1]
                                       [--pair-shards 6] [--sim-matches 6] [--save]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.executor import LocalExecutor, default_workers  # noqa: E402
from pipeline.sim.run import (  # noqa: E402
    RunConfig,
    ShardOutput,
    load_shards,
    parse_bots,
    play_shard,
    write_shard,
)
from pipeline.sim.tables import PAIRS  # noqa: E402
from pipeline.sim.trial import (  # noqa: E402
    BLOCK,
    NumberedShard,
    TrialConfig,
    card_folder,
    measure,
    play_numbered,
    trial_deck,
)


def plain_and_paired(tasks: list[Any]) -> tuple[float, float, int, int]:
    """Each shard played plain, then paired, in this process: CPU seconds of each side, the
    hands and the pairs."""
    plain = paired = 0.0
    hands = pairs = 0
    for task in tasks:
        for with_pairs in (False, True):
            began = time.process_time()
            output = play_shard(dataclasses.replace(task, paired=with_pairs))
            spent = time.process_time() - began
            if with_pairs:
                paired += spent
                pairs += output.rows[PAIRS]
            else:
                plain += spent
                hands += sum(output.match_hands)
    return plain, paired, hands, pairs


def pair_cost(config: TrialConfig, out: Path, shards: int) -> tuple[float, float, int]:
    """CPU seconds per hand of trial shards played plain and paired (alternating), and hands."""
    cards = config.cards[:: max(1, len(config.cards) // shards)][:shards]
    tasks = [config.task(out, card, 1000 + i) for i, card in enumerate(cards)]
    plain, paired, hands, _ = plain_and_paired(tasks)
    return plain / hands, paired / hands, hands


def simulate_pair_cost(preset: Any, catalog: Any, seed: int, out: Path, matches: int
                       ) -> tuple[float, int, int]:
    """The cost of one seat's pair in ``simulate --paired`` (every seat with a character
    replayed): the shards of a run played plain and paired, alternating, in this process;
    returns (plain hand + one replay) / plain hand, the hands and the pairs."""
    config = RunConfig(preset=preset, catalog=catalog, seed=seed, games=matches,
                       bots=parse_bots("heuristic"), shard_size=1)
    plain, paired, hands, pairs = plain_and_paired(config.shards(out))
    per_hand = plain / hands
    return (per_hand + (paired - plain) / pairs) / per_hand, hands, pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="play trial rounds until this much wall time has passed")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--target", type=float, default=100.0, help="points per hand")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="cards-hanchan")
    parser.add_argument("--pair-shards", type=int, default=6,
                        help="trial shards played with and without pairs for the pair cost")
    parser.add_argument("--sim-matches", type=int, default=6,
                        help="matches of simulate --paired played plain and paired")
    results.add_save_option(parser)
    args = parser.parse_args()

    preset = load_preset(args.preset)
    catalog = load_catalog(preset.cards.catalog)
    cards = tuple(trial_deck(catalog, preset))
    config = TrialConfig(preset=preset, catalog=catalog, seed=args.seed, cards=cards,
                         target=args.target, budget_hands=10**9)
    print(f"{len(cards)} cards of catalog {catalog.version}, preset {preset.name}, seed "
          f"{args.seed}, {args.workers} workers")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        plain, paired, sample = pair_cost(config, out / "cost", args.pair_shards)
        cost = paired / plain
        print(f"pair cost: {plain * 1000:.1f} ms per plain trial hand, {paired * 1000:.1f} ms "
              f"with its paired replay: {cost:.2f}x ({sample} hands, one process)")
        sim_cost, sim_hands, sim_pairs = simulate_pair_cost(preset, catalog, args.seed,
                                                            out / "simulate", args.sim_matches)
        print(f"simulate --paired: a seat's pair costs {sim_cost:.2f}x a plain hand "
              f"({sim_hands} hands, {sim_pairs} pairs, one process)")

        executor = LocalExecutor(args.workers, reuse=True)  # one pool for every round
        began = time.perf_counter()
        rounds = hands = 0
        peak_kb = 0
        while True:
            todo = [config.task(out / "trial", card, rounds) for card in cards]

            def on_done(output: ShardOutput, todo: list = todo) -> None:
                nonlocal hands, peak_kb
                task = todo[output.index]
                write_shard(Path(task.out), task, output)
                hands += sum(output.match_hands)
                peak_kb = max(peak_kb, output.peak_rss_kb)

            round_began = time.perf_counter()
            executor.run(play_numbered, [NumberedShard(i, t) for i, t in enumerate(todo)],
                         on_match=lambda n: None, on_done=on_done)
            rounds += 1
            spent = time.perf_counter() - began
            last = time.perf_counter() - round_began
            print(f"round {rounds}: {len(todo)} shards of {BLOCK} matches, {hands:,} trial hands "
                  f"so far, {spent:.0f} s, {hands / spent:.1f} trial hands/s")
            if spent + last > args.seconds * 1.1:
                break
        executor.close()
        seconds = time.perf_counter() - began
        rate = hands / seconds

        progress = [measure(load_shards(card_folder(out / "trial", c), PAIRS), c, rounds)
                    for c in cards]
    widths = {p.card: p.half_width for p in progress}
    finite = sorted(w for w in widths.values() if math.isfinite(w))
    need = {p.card: p.hands * (p.half_width / args.target) ** 2
            for p in progress if math.isfinite(p.half_width)}
    median_need = statistics.median(need.values()) if need else math.nan
    undefined = [c for c in cards if c not in need]
    total = sum(need.values()) + median_need * len(undefined)
    minutes = total / rate / 60
    print(f"reached {rate:.1f} trial hands/s (each with its paired replay) over {seconds:.0f} s, "
          f"worker start-up included; peak memory per worker {peak_kb / 1024:.0f} MiB")
    if finite:
        print(f"interval half-widths after {rounds} rounds: median "
              f"+/-{statistics.median(finite):,.0f}, widest +/-{finite[-1]:,.0f}, "
              f"narrowest +/-{finite[0]:,.0f} points/hand"
              + (f"; {len(undefined)} cards without an interval yet (no pair differed): "
                 + ", ".join(undefined) if undefined else ""))
        widest = sorted(need, key=lambda c: -widths[c])[:5]
        print("widest: " + ", ".join(f"{c} +/-{widths[c]:,.0f}" for c in widest))
    cpu_minutes = total * paired / args.workers / 60
    print(f"from CPU time alone ({paired * 1000:.1f} ms per paired hand, every worker on a core "
          f"of its own): {cpu_minutes:.0f} min")
    print(f"projected: {minutes:.0f} min for +/-{args.target:g} points/hand on every card "
          f"({args.workers} workers)")
    results.save_if(args.save, "verdict", {
        "cards": len(cards), "workers": args.workers, "seconds": round(seconds, 1),
        "rounds": rounds, "hands": hands, "hands_per_s": round(rate, 1),
        "pair_cost": round(cost, 3), "simulate_pair_cost": round(sim_cost, 3),
        "plain_ms_per_hand": round(plain * 1000, 2),
        "paired_ms_per_hand": round(paired * 1000, 2),
        "median_half_width": statistics.median(finite) if finite else None,
        "widest_half_width": finite[-1] if finite else None,
        "undefined_cards": len(undefined), "target": args.target,
        "projected_hands": round(total), "projected_min": round(minutes, 1),
        "projected_cpu_min": round(cpu_minutes, 1),
        "worker_mib": round(peak_kb / 1024, 1)})


if __name__ == "__main__":
    main()
