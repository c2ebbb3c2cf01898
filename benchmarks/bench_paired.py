"""How much variance the paired measurement removes from an ability's estimated effect.

Plays a paired run (or reads one with ``--run``) and compares, per character, two estimates of
the ability's effect on the seat's net points per hand:

- paired: the mean of ``delta_diff`` (with minus without, on the same deal); its variance per
  pair is ``var(delta_diff)``;
- unpaired: the mean of the "with" deltas minus the mean of "without" deltas taken from
  separate deals, as a comparison of two independent samples of hands would have them; its
  variance per pair is ``var(delta_with) + var(delta_without)``.

The ratio of the two variances is how many times more hands the unpaired comparison needs for an
interval as narrow as the paired one. Variances are pooled within characters (so differences
between characters do not count as noise), and the standard errors printed per character treat
pairs as independent (they ignore the clustering by match, which widens both alike).

    python benchmarks/bench_paired.py [--games 12] [--preset cards-hanchan] [--bots heuristic]
                                      [--seed 1] [--workers N] [--run DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.executor import default_workers  # noqa: E402
from pipeline.sim.run import RunConfig, load_table, parse_bots, read_run, simulate  # noqa: E402


def variance_table(pairs: pl.DataFrame) -> pl.DataFrame:
    """Per character: pairs, mean difference, per-pair variances paired and unpaired."""
    return (pairs.group_by("character")
            .agg(n=pl.len(), effect=pl.col("delta_diff").mean(),
                 var_paired=pl.col("delta_diff").var(),
                 var_unpaired=pl.col("delta_with").var() + pl.col("delta_without").var(),
                 changed=(pl.col("delta_diff") != 0).mean())
            .filter(pl.col("n") >= 2)
            .with_columns(se_paired=(pl.col("var_paired") / pl.col("n")).sqrt(),
                          se_unpaired=(pl.col("var_unpaired") / pl.col("n")).sqrt(),
                          ratio=pl.col("var_unpaired") / pl.col("var_paired"))
            .sort("n", descending=True))


def report(pairs: pl.DataFrame) -> None:
    per = variance_table(pairs)
    weights = per["n"] - 1
    pooled_paired = float((per["var_paired"] * weights).sum() / weights.sum())
    pooled_unpaired = float((per["var_unpaired"] * weights).sum() / weights.sum())
    print(f"{pairs.height} pairs over {pairs['character'].n_unique()} characters; "
          f"{(pairs['delta_diff'] != 0).mean():.0%} of pairs differ, "
          f"{pairs['same_moves'].mean():.0%} were played with the same moves")
    print(f"pooled variance per pair: paired {pooled_paired:,.0f}, unpaired "
          f"{pooled_unpaired:,.0f} (points squared)")
    ratio = pooled_unpaired / pooled_paired if pooled_paired else float("inf")
    print(f"variance removed by pairing: {1 - 1 / ratio:.1%}; the unpaired comparison needs "
          f"{ratio:.1f}x as many hands for the same interval")
    print(f"\n{'character':<22}{'pairs':>6}{'effect':>9}{'se paired':>11}{'se unpaired':>13}"
          f"{'ratio':>8}{'differ':>8}")
    for r in per.iter_rows(named=True):
        ratio_text = f"{r['ratio']:.1f}" if r["var_paired"] else "inf"
        print(f"{r['character']:<22}{r['n']:>6}{r['effect']:>9.0f}{r['se_paired']:>11.0f}"
              f"{r['se_unpaired']:>13.0f}{ratio_text:>8}{r['changed']:>8.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--preset", default="cards-hanchan")
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard-size", type=int, default=2)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--run", type=Path, default=None,
                        help="read this paired run folder instead of playing one")
    args = parser.parse_args()

    if args.run is not None:
        doc = read_run(args.run)
        print(f"run {doc['run_id']} ({doc['games']} matches of {doc['preset']['name']})")
        report(load_table(args.run, "pairs"))
        return
    preset = load_preset(args.preset)
    config = RunConfig(preset=preset, catalog=load_catalog(preset.cards.catalog),
                       seed=args.seed, games=args.games, bots=parse_bots(args.bots),
                       shard_size=args.shard_size, paired=True)
    with tempfile.TemporaryDirectory() as tmp:
        summary = simulate(config, Path(tmp) / "run", workers=args.workers)
        print(f"{args.games} matches of {args.preset}, bots {args.bots}, seed {args.seed}: "
              f"{summary.hands_total} hands played and replayed in {summary.seconds:.0f} s "
              f"on {summary.workers} workers")
        report(load_table(Path(tmp) / "run", "pairs"))


if __name__ == "__main__":
    main()
