"""Time to decide every card, and how often the verdicts are wrong: racing against today's
allocation, by resampling the matches of a real deck trial.

    python benchmarks/bench_decide.py --trial data/runs/trial-cards-hanchan-1.2-s1 [--reps 100]

The trial folder (``saki balance`` or ``saki trial`` of every card leaves one) is the
population: each card's matches, with the value the verdicts are asked on (the match's
whole-match difference, :func:`pipeline.sim.card_value.value_clusters`: the holder's final
score with its ability minus with it off for the whole match, over the match's hands; the
pairs' values for a folder written before the whole-match arm), hands and changed pairs. Its
full data give each card's "true" value, the deck's true mean and so each card's true verdict (a
card within ``--zone`` of an edge has none: any verdict is accepted there). Each replicate
draws every card's matches with replacement and plays two allocations on them:

- **precision** (today's rule before racing): every card is sampled in rounds until its
  half-width is at most ``--zone`` (the interval then fits inside an edge's zone), the
  sample sizes planned by :func:`pipeline.sim.trial.plan_round`; then one look of verdicts;
- **racing** (:func:`pipeline.sim.trial.plan_race`): only the undecided cards are sampled,
  up to the grid's next look, the verdicts' p-values counting the looks.

For each: hands spent, minutes at ``--rate`` trial hands per second (the balance job's
projection: 420 measured by ``bench_verdict.py`` before the whole-match arm, over its cost
measured by ``bench_whole_match.py``), cards left undecided, and the share of verdicts that
are wrong (a card outside the zones given the wrong side). Then **planted effects**: one
card's matches shifted so its true value is ``--plant`` points per hand beyond the upper
edge's zone, or as far inside it, raced ``--reps`` times: how often it is found ``above``.

With ``--save``, writes ``benchmarks/results/decide.json`` for the README's table.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.analytics.paired import pair_value_expr  # noqa: E402
from pipeline.analytics.trial import card_tables, read_trial_doc  # noqa: E402
from pipeline.report.balance import TRIAL_HANDS_PER_SECOND  # noqa: E402
from pipeline.sim.card_value import MEASURES, value_clusters  # noqa: E402
from pipeline.sim.trial import (  # noqa: E402
    BLOCK,
    FIRST_BLOCKS,
    MAX_ROUNDS,
    CardProgress,
    changed_magnitude,
    grid_fraction,
    plan_race,
    plan_round,
)
from pipeline.verdicts import (  # noqa: E402
    ABOVE,
    BELOW,
    INSIDE,
    LOOK_GRID,
    LOOK_SHAPE,
    MAX_LOOKS,
    UNDECIDED,
    BandSpec,
    Evidence,
    Reference,
    decide,
)


def load_population(folder: Path, measure: str = "points"
                    ) -> tuple[dict[str, np.ndarray], float, str]:
    """Per card, an array of its matches (value sum in ``measure``, its weight, changed
    pairs, hands replayed: none past a card's replayed blocks), as a trial's rounds read
    them (:func:`pipeline.sim.trial.measure`); the pooled
    99th percentile of a changed pair's |value| (what the few-changes bound reads); and what
    the values are ("whole match" or "pairs", for a folder without the whole-match arm)."""
    import polars as pl

    doc = read_trial_doc(folder)
    out, frames, kinds = {}, [], set()
    for card, blocks in doc["blocks"].items():
        tables = card_tables(folder, card, int(blocks), ("pairs", "whole"))
        pairs, whole = tables["pairs"], tables.get("whole")
        value = pair_value_expr(pairs.columns)
        changed = pairs.group_by("match_id").agg(c=(value != 0).sum(), r=pl.len())
        clusters = value_clusters(pairs, whole, measure)
        per = (clusters.join(changed, on="match_id", how="left")
               .with_columns(pl.col("c", "r").fill_null(0)).sort("match_id"))
        out[card] = per.select("s", "n", "c", "r").to_numpy().astype(float)
        frames.append(pairs)
        kinds.add("whole match" if whole is not None and whole.height else "pairs")
    return out, changed_magnitude(frames), " and ".join(sorted(kinds))


def truth(pop: dict[str, np.ndarray], band: BandSpec) -> dict[str, str | None]:
    """Each card's true verdict (None within an edge's zone)."""
    values = {c: m[:, 0].sum() / m[:, 1].sum() for c, m in pop.items()}
    mean = 0.0 if band.absolute else sum(values.values()) / len(values)
    lo, hi = (band.lo, band.hi) if band.absolute else (mean - band.threshold,
                                                       mean + band.threshold)
    out: dict[str, str | None] = {}
    for c, v in values.items():
        if min(abs(v - lo), abs(v - hi)) < band.zone:
            out[c] = None
        else:
            out[c] = ABOVE if v > hi else BELOW if v < lo else INSIDE
    return out


def estimate(card: str, rows: np.ndarray, looks: int, magnitude: float,
             shape: float = LOOK_SHAPE) -> Evidence:
    s, n, c, r = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    total = n.sum()
    mean = s.sum() / total
    k = len(rows)
    se = math.sqrt(k / (k - 1) * float(((s - mean * n) ** 2).sum())) / total if k > 1 else \
        math.nan
    return Evidence(card, mean, se, k, int(total), int(c.sum()), looks, magnitude,
                    grid_fraction(k // BLOCK, looks), shape, int(r.sum()))


def progress_of(e: Evidence, blocks: int) -> CardProgress:
    half = 1.96 * e.se if math.isfinite(e.se) and e.changed else math.nan
    return CardProgress(e.card, blocks, e.matches, e.hands, e.value, e.value - half,
                        e.value + half, e.changed, e.replayed)


def reference(evidence: list[Evidence], band: BandSpec) -> Reference | None:
    if band.absolute:
        return None
    return Reference.of({e.card: (e.value, e.se) for e in evidence}, "resampled deck")


def draws(rng: np.random.Generator, pop: dict[str, np.ndarray], most: int
          ) -> dict[str, np.ndarray]:
    return {c: m[rng.integers(0, len(m), most)] for c, m in pop.items()}


def race(sample: dict[str, np.ndarray], band: BandSpec, magnitude: float, budget: float,
         shape: float = LOOK_SHAPE) -> tuple[dict[str, str], int]:
    """As a racing trial plays: the verdicts of the last look are the trial's (a card decided
    earlier keeps its data, and is judged again against the final deck's band)."""
    blocks = {c: FIRST_BLOCKS for c in sample}
    final: dict[str, str] = {}
    for _ in range(MAX_LOOKS):
        ev = [estimate(c, sample[c][:blocks[c] * BLOCK], MAX_LOOKS, magnitude, shape)
              for c in sample]
        verdicts = decide(ev, band, reference(ev, band))
        final = {v.card: v.verdict for v in verdicts}
        hands = sum(e.hands for e in ev)
        asks = plan_race([progress_of(e, blocks[e.card]) for e in ev], verdicts,
                         budget - hands)
        if not asks:
            break
        for c, n in asks.items():
            blocks[c] += n
    return {c: final.get(c, UNDECIDED) for c in sample}, hands


def precision(sample: dict[str, np.ndarray], band: BandSpec, magnitude: float, budget: float,
              shape: float = LOOK_SHAPE) -> tuple[dict[str, str], int]:
    blocks = {c: FIRST_BLOCKS for c in sample}
    most = min(len(m) for m in sample.values()) // BLOCK
    for _ in range(MAX_ROUNDS):
        ev = [estimate(c, sample[c][:blocks[c] * BLOCK], 1, magnitude) for c in sample]
        hands = sum(e.hands for e in ev)
        asks = plan_round([progress_of(e, blocks[e.card]) for e in ev], band.zone,
                          budget - hands)
        if not asks:
            break
        for c, n in asks.items():
            blocks[c] = min(blocks[c] + n, most)
    ev = [estimate(c, sample[c][:blocks[c] * BLOCK], 1, magnitude) for c in sample]
    verdicts = decide(ev, band, reference(ev, band))
    return {v.card: v.verdict for v in verdicts}, sum(e.hands for e in ev)


def score(got: dict[str, str], true: dict[str, str | None]) -> tuple[int, int, int]:
    """(verdicts given, wrong ones outside the zones, undecided)."""
    given = sum(v != UNDECIDED for v in got.values())
    wrong = sum(v != UNDECIDED and true[c] is not None and v != true[c]
                for c, v in got.items())
    return given, wrong, sum(v == UNDECIDED for v in got.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trial", type=Path, default=Path("data/runs/trial-cards-hanchan-1.2-s1"))
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--threshold", type=float, default=300.0)
    ap.add_argument("--zone", type=float, default=100.0)
    ap.add_argument("--plant", type=float, default=50.0)
    ap.add_argument("--budget", type=float, default=2_000_000)
    ap.add_argument("--rate", type=float, default=TRIAL_HANDS_PER_SECOND,
                    help="trial hands per second (default: the balance job's projection's, on 2 "
                    "quiet cores with the whole-match arm)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--measure", choices=MEASURES, default="points",
                    help="the value resampled (the band's --threshold and --zone in its unit)")
    ap.add_argument("--shape", type=float, default=LOOK_SHAPE,
                    help="the racing looks' boundary shape (Wang-Tsiatis: 0.5 flat, 0 "
                    "O'Brien-Fleming; default the trials')")
    results.add_save_option(ap)
    args = ap.parse_args()
    began = time.perf_counter()
    band = BandSpec(threshold=args.threshold, zone=args.zone)
    pop, magnitude, kind = load_population(args.trial, args.measure)
    print(f"population: {args.trial}, {len(pop)} cards, "
          f"{sum(len(m) for m in pop.values()):,} matches, values of the {kind}")
    true = truth(pop, band)
    rng = np.random.default_rng(args.seed)
    most = LOOK_GRID[-1] * BLOCK
    figures: dict[str, dict[str, float]] = {}
    for name, method in (("precision", precision), ("racing", race)):
        hands, given, wrong, undecided = [], 0, 0, []
        for _ in range(args.reps):
            got, used = method(draws(rng, pop, most), band, magnitude, args.budget, args.shape)
            g, w, u = score(got, true)
            hands.append(used)
            given += g
            wrong += w
            undecided.append(u)
        figures[name] = {"hands": float(np.mean(hands)),
                         "minutes": float(np.mean(hands)) / args.rate / 60,
                         "undecided": float(np.mean(undecided)),
                         "wrong_share": wrong / max(given, 1)}
        print(f"{name}: {np.mean(hands):,.0f} hands ({figures[name]['minutes']:.1f} min at "
              f"{args.rate:g} hands/s), {np.mean(undecided):.1f} cards undecided, "
              f"{wrong} of {given} verdicts wrong ({wrong / max(given, 1):.1%})")
    # planted: the median card moved beyond / inside the upper edge's zone
    values = {c: m[:, 0].sum() / m[:, 1].sum() for c, m in pop.items()}
    mean = sum(values.values()) / len(values)
    card = sorted(values, key=values.get)[len(values) // 2]
    plants = {}
    for label, offset in (("beyond", args.threshold + args.zone + args.plant),
                          ("inside", args.threshold - args.zone - args.plant)):
        moved = dict(pop)
        rows = pop[card].copy()
        # the card's mean moves by the shift, the deck's by a share of it: solve for both
        shift = (mean + offset - values[card]) / (1 - 1 / len(values))
        rows[:, 0] += shift * rows[:, 1]
        moved[card] = rows
        found = 0
        for _ in range(args.reps):
            got, _used = race(draws(rng, moved, most), band, magnitude, args.budget,
                              args.shape)
            found += got[card] == ABOVE
        plants[label] = found / args.reps
        print(f"planted {label} the upper edge's zone by {args.plant:g} ({card}): found above "
              f"in {found} of {args.reps}")
    figures["planted"] = {"card": card, "beyond_found_above": plants["beyond"],
                          "inside_found_above": plants["inside"], "plant": args.plant}
    figures["population"] = {"cards": len(pop), "matches": int(sum(len(m) for m in
                                                                   pop.values())),
                             "trial": str(args.trial), "reps": args.reps,
                             "values": kind, "measure": args.measure,
                             "zone": args.zone, "threshold": args.threshold,
                             "shape": args.shape, "budget": args.budget,
                             "rate": args.rate}
    print(f"({time.perf_counter() - began:.0f} s)")
    print(json.dumps(figures, indent=2))
    results.save_if(args.save, "decide", figures)


if __name__ == "__main__":
    main()
