"""The skill ceiling: each card's value for the expert style against the shipped bot.

Every card of the deck is played by ``saki bots gap CARD --policies expert`` (the shipped
holder and the expert holder on the same matches, :mod:`pipeline.sim.policy_gap`), and the
deck's values under the two styles are compared: the expert's gap per card with its paired
95% interval, the rank agreement of the deck (Spearman), and the verdicts' positions against
the deck's band (its average card +/- 300 points per hand, an indifference zone of 100) read
from the point values: a card "flips" when it is clearly above, inside or below the band under
one style and clearly elsewhere under the other (neither within a zone of an edge). A card
whose holder never faces a decision the expert weighs plays the same matches identically
under both styles (a gap of exactly 0).

    python benchmarks/bench_expert.py [--matches 4] [--seed 1] [--workers 2] [--only ID,...]

Trial folders go under ``--out`` (default data/runs/expert-s<seed>); a second run reuses and
extends them. Prints one JSON document (docs/trials.md, "Skill ceiling", keeps the figures).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.datafiles import PROJECT_ROOT  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.executor import LocalExecutor  # noqa: E402
from pipeline.sim.policy_gap import policy_gap  # noqa: E402
from pipeline.sim.trial import trial_deck  # noqa: E402
from pipeline.stats import spearman  # noqa: E402
from pipeline.verdicts import DEFAULT_THRESHOLD, DEFAULT_ZONE  # noqa: E402


def position(value: float, mean: float) -> str:
    """Where a value lies against the deck's band, ``edge`` within a zone of either edge."""
    lo, hi = mean - DEFAULT_THRESHOLD, mean + DEFAULT_THRESHOLD
    if any(abs(value - e) < DEFAULT_ZONE for e in (lo, hi)):
        return "edge"
    return "below" if value < lo else "above" if value > hi else "inside"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="cards-hanchan")
    parser.add_argument("--only", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    preset = load_preset(args.preset)
    catalog = load_catalog(preset.cards.catalog)
    deck = args.only.split(",") if args.only else trial_deck(catalog, preset)
    out = args.out or PROJECT_ROOT / "data" / "runs" / f"expert-s{args.seed}"
    blocks = -(-args.matches // preset.players)
    began = time.perf_counter()
    rows = []
    executor = LocalExecutor(args.workers, reuse=True)
    try:
        for card in deck:
            gap = policy_gap(preset, catalog, card, ["shipped", "expert"], seed=args.seed,
                             blocks=blocks, out=out / card, executor=executor)
            shipped, expert = gap.rows
            rows.append({"card": card, "hands": shipped.hands, "shipped": shipped.value,
                         "expert": expert.value, "gap": expert.gap, "gap_lo": expert.gap_lo,
                         "gap_hi": expert.gap_hi, "same_play": expert.gap == 0 and
                         expert.gap_lo == 0 and expert.gap_hi == 0})
            print(f"{card}: shipped {shipped.value:+.0f}, expert {expert.value:+.0f}, gap "
                  f"{expert.gap:+.0f} [{expert.gap_lo:+.0f}, {expert.gap_hi:+.0f}]",
                  file=sys.stderr, flush=True)
    finally:
        executor.close()
    shipped_values = [r["shipped"] for r in rows]
    expert_values = [r["expert"] for r in rows]
    mean_s = sum(shipped_values) / len(rows)
    mean_e = sum(expert_values) / len(rows)
    flips = [r["card"] for r in rows
             if "edge" not in (position(r["shipped"], mean_s), position(r["expert"], mean_e))
             and position(r["shipped"], mean_s) != position(r["expert"], mean_e)]
    weighed = [r for r in rows if not r["same_play"]]
    print(json.dumps({
        "seed": args.seed, "matches_per_card": blocks * preset.players,
        "cards": len(rows), "cards_weighed": len(weighed),
        "spearman": spearman(shipped_values, expert_values) if len(rows) > 2 else None,
        "spearman_weighed": (spearman([r["shipped"] for r in weighed],
                                      [r["expert"] for r in weighed])
                             if len(weighed) > 2 else None),
        "flips_outside_zone": flips,
        "significant": [r["card"] for r in weighed if r["gap_lo"] > 0 or r["gap_hi"] < 0],
        "seconds": round(time.perf_counter() - began, 1),
        "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
