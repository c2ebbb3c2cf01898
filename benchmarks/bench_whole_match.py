"""The whole-match value against the paired hands' value, and what the whole-match arm costs.

    python benchmarks/bench_whole_match.py --trial DIR [--cost-blocks 6] [--save]
    python benchmarks/bench_whole_match.py --cost-only [--cards a,b] [--seed 1] [--cost-blocks 1]

``--trial``: a trial folder (``saki trial ... --out DIR``). Per card, on the same matches: the
whole-match value (``value``: the holder's final score with the ability minus with it off for
the whole match, per hand), the pairs' value (``pair_value``), their difference with its
standard error clustered by match and the z score (the whole-match check: a card whose
ability pays in a later hand differs, the others agree within noise), and the placement value
and rank gain. Then, for ``--cost-blocks`` blocks of each card (the trial's seed and preset),
the user CPU seconds of its shards played three ways in one process: without the arm, with
the arm's matches played again from their first hand, and with them played on from the first
hand the ability changed (the shared start, what a trial does; the same tables).
``--cost-only``: the cost part alone, on cards-hanchan and catalog 1.2 (``--cards``, default
the whole deck, and ``--seed``), without a trial folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.results import add_save_option, save_if  # noqa: E402
from pipeline.analytics.trial import card_tables, read_trial_doc, trial_table  # noqa: E402
from pipeline.sim.card_value import pair_clusters, value_clusters  # noqa: E402
from pipeline.sim.trial import TrialConfig  # noqa: E402
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


def trial_config(out: Path) -> TrialConfig:
    """The configuration a trial folder was played with (its preset, catalog, seed, cards)."""
    from pipeline.cards.catalog import load_catalog
    from pipeline.rules.preset import preset_from_dict

    doc = read_trial_doc(out)
    return TrialConfig(preset=preset_from_dict(doc["preset"], "trial.json"),
                       catalog=load_catalog(doc["catalog"]["version"]), seed=doc["seed"],
                       cards=tuple(doc["blocks"]))


ARMS = {"without_arm": {"whole": False},
        "from_first_hand": {"whole": True, "share_start": False},
        "shared_start": {"whole": True, "share_start": True}}


def cost(config: TrialConfig, blocks: int) -> list[dict]:
    """User CPU seconds of each card's first ``blocks`` shards played each way of :data:`ARMS`
    (in turn, card by card, so a change of load touches the three alike)."""
    from pipeline.sim.run import play_shard

    rows = []
    for card in config.cards:
        seconds, hands = {}, 0
        for arm, fields in ARMS.items():
            began = _user_cpu()
            hands = 0
            for b in range(blocks):
                task = dataclasses.replace(config.task(Path("."), card, b), **fields)
                hands += sum(play_shard(task).match_hands)
            seconds[arm] = _user_cpu() - began
        rows.append({"card": card, "hands": hands,
                     **{f"cpu_s_{arm}": s for arm, s in seconds.items()},
                     "ratio": seconds["shared_start"] / seconds["without_arm"],
                     "ratio_from_first_hand": seconds["from_first_hand"] / seconds["without_arm"]})
    return rows


def _user_cpu() -> float:
    """This process's user CPU seconds (what other processes on the cores do not add to)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def print_cost(costs: list[dict]) -> dict:
    for c in costs:
        print(f"{c['card']}: {c['hands']} hands, user CPU {c['cpu_s_without_arm']:.1f} s without "
              f"the whole-match arm, {c['cpu_s_from_first_hand']:.1f} s with it played from the "
              f"first hand ({c['ratio_from_first_hand']:.2f}x), {c['cpu_s_shared_start']:.1f} s "
              f"with the shared start ({c['ratio']:.2f}x)")
    hands = sum(c["hands"] for c in costs)
    total = {arm: sum(c[f"cpu_s_{arm}"] for c in costs) for arm in ARMS}
    per_hand = {arm: 1000 * s / hands for arm, s in total.items()} if hands else {}
    if hands:
        print(f"all: {hands} trial hands; user CPU per trial hand "
              f"{per_hand['without_arm']:.2f} ms without the arm, "
              f"{per_hand['from_first_hand']:.2f} ms with it from the first hand, "
              f"{per_hand['shared_start']:.2f} ms with the shared start "
              f"({1 - per_hand['shared_start'] / per_hand['from_first_hand']:.1%} less)")
    return {"hands": hands, "cpu_ms_per_hand": per_hand}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trial", type=Path)
    parser.add_argument("--cost-blocks", type=int, default=6)
    parser.add_argument("--cost-only", action="store_true",
                        help="time the arm on cards-hanchan without a trial folder")
    parser.add_argument("--cards", default="", help="--cost-only: comma-separated card ids")
    parser.add_argument("--seed", type=int, default=1)
    add_save_option(parser)
    args = parser.parse_args()
    if args.cost_only:
        costs = cost(deck_config(args.cards, args.seed), args.cost_blocks)
        summary = print_cost(costs)
        save_if(args.save, "bench_whole_match_cost", {"cost": costs, **summary})
        return
    if args.trial is None:
        parser.error("--trial DIR is needed (or --cost-only)")
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
    costs = cost(trial_config(args.trial), args.cost_blocks) if args.cost_blocks else []
    summary = print_cost(costs)
    save_if(args.save, "bench_whole_match",
            {"cards": [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                        for k, v in r.items()} for r in rows], "cost": costs, **summary})


def deck_config(cards: str, seed: int) -> TrialConfig:
    """A cards-hanchan trial of catalog 1.2: the cards named, or the whole deck."""
    from pipeline.cards.catalog import load_catalog
    from pipeline.rules.preset import load_preset
    from pipeline.sim.trial import trial_deck

    preset, catalog = load_preset("cards-hanchan"), load_catalog("1.2")
    chosen = tuple(c for c in cards.split(",") if c) or tuple(trial_deck(catalog, preset))
    return TrialConfig(preset=preset, catalog=catalog, seed=seed, cards=chosen)


if __name__ == "__main__":
    main()
