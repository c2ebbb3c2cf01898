"""The whole-match value against the paired hands' value, and what the whole-match arm costs.

    python benchmarks/bench_whole_match.py --trial DIR [--cost-blocks 6] [--save]

``--trial``: a trial folder (``saki trial ... --out DIR``). Per card, on the same matches: the
whole-match value (``value``: the holder's final score with the ability minus with it off for
the whole match, per hand), the pairs' value (``pair_value``), their difference with its
standard error clustered by match and the z score (the whole-match check: a card whose
ability pays in a later hand differs, the others agree within noise), and the placement value
and rank gain. Then, for ``--cost-blocks`` blocks of each card (the trial's seed and preset),
the CPU seconds of its shards played without the arm and with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.results import add_save_option, save_if  # noqa: E402
from pipeline.analytics.trial import card_tables, read_trial_doc, trial_table  # noqa: E402
from pipeline.sim.card_value import pair_clusters, value_clusters  # noqa: E402
from pipeline.stats import (  # noqa: E402
    Z95,
    benjamini_hochberg,
    clustered_ratio,
    two_sided_p,
)


def agreement(out: Path) -> list[dict]:
    """Per card: whole-match value, pairs' value, their difference, its se and z."""
    doc = read_trial_doc(out)
    table = {r["card"]: r for r in trial_table(out).iter_rows(named=True)}
    rows = []
    for card, blocks in doc["blocks"].items():
        t = card_tables(out, card, int(blocks), ("pairs", "whole"))
        if "whole" not in t:
            continue
        j = value_clusters(t["pairs"], t["whole"]).join(
            pair_clusters(t["pairs"]), on="match_id", suffix="_pairs")
        diff = clustered_ratio((j["s"] - j["s_pairs"]).to_list(), j["n"].to_list())
        se = (diff.high - diff.low) / (2 * Z95)
        r = table[card]
        rows.append({"card": card, "matches": j.height, "hands": r["hands"],
                     "value": r["value"], "value_se": r["value_se"],
                     "pair_value": r["pair_value"], "pair_se": r["pair_se"],
                     "difference": diff.value, "difference_se": se,
                     "z": diff.value / se if se > 0 else float("nan"),
                     "placement_value": r["placement_value"], "placement_se": r["placement_se"],
                     "rank_gain": r["rank_gain"], "rank_se": r["rank_se"]})
    return rows


def cost(out: Path, blocks: int) -> list[dict]:
    """CPU seconds of each card's first ``blocks`` shards without and with the arm."""
    from pipeline.cards.catalog import load_catalog
    from pipeline.rules.preset import preset_from_dict
    from pipeline.sim.run import play_shard
    from pipeline.sim.trial import TrialConfig

    doc = read_trial_doc(out)
    config = TrialConfig(preset=preset_from_dict(doc["preset"], "trial.json"),
                         catalog=load_catalog(doc["catalog"]["version"]), seed=doc["seed"],
                         cards=tuple(doc["blocks"]))
    rows = []
    for card in config.cards:
        seconds, hands = {}, 0
        for whole in (False, True):
            began = time.process_time()
            hands = 0
            for b in range(blocks):
                task = dataclasses.replace(config.task(out, card, b), whole=whole)
                hands += sum(play_shard(task).match_hands)
            seconds[whole] = time.process_time() - began
        rows.append({"card": card, "hands": hands, "cpu_s_without_arm": seconds[False],
                     "cpu_s_with_arm": seconds[True], "ratio": seconds[True] / seconds[False]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trial", type=Path, required=True)
    parser.add_argument("--cost-blocks", type=int, default=6)
    add_save_option(parser)
    args = parser.parse_args()
    rows = agreement(args.trial)
    for r in rows:
        if r["pair_se"] is None or r["placement_se"] is None:
            print(f"{r['card']}: no pair differed ({r['matches']} matches)")
            continue
        print(f"{r['card']}: whole match {r['value']:+,.0f} +/- {r['value_se']:,.0f}, pairs "
              f"{r['pair_value']:+,.0f} +/- {r['pair_se']:,.0f}; difference "
              f"{r['difference']:+,.0f} +/- {r['difference_se']:,.0f} (z {r['z']:+.1f}); "
              f"placement {r['placement_value']:+.1f} +/- {r['placement_se']:.1f} result points "
              f"a match, rank {r['rank_gain']:+.2f} +/- {r['rank_se']:.2f} ({r['matches']} "
              "matches)")
    zs = [r["z"] for r in rows if math.isfinite(r["z"])]
    p = [two_sided_p(r["difference"], r["difference_se"]) for r in rows if math.isfinite(r["z"])]
    print(f"{len(rows)} cards, {len(zs)} with a difference to test: {sum(abs(z) > Z95 for z in zs)}"
          f" beyond 1.96 standard errors ({0.05 * len(zs):.1f} expected by chance), "
          f"{sum(q < 0.05 for q in benjamini_hochberg(p))} with q < 0.05 (Benjamini-Hochberg)")
    costs = cost(args.trial, args.cost_blocks) if args.cost_blocks else []
    for c in costs:
        print(f"{c['card']}: {c['hands']} hands, CPU {c['cpu_s_without_arm']:.1f} s without the "
              f"whole-match arm, {c['cpu_s_with_arm']:.1f} s with it ({c['ratio']:.2f}x)")
    save_if(args.save, "bench_whole_match",
            {"cards": [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                        for k, v in r.items()} for r in rows], "cost": costs})


if __name__ == "__main__":
    main()
