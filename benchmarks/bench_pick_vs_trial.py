"""The bots' pick estimates against the trial values: does the pick policy rank cards as their
abilities are worth?

For every card of a trial folder, the heuristic bot's pick estimate
(:func:`pipeline.bots.pick.card_value`, the points it expects the ability to add this hand) is
averaged over the same ``--hands`` random starting hands in an even situation (seat 0 of four at
30,000, East round, seat 0 not dealing), and set against the card's ability value from the
trial. Prints one line per card (flat guesses marked), the cards of each effect kind, and the
rank correlation (Spearman) of estimate and value over all cards.

    python benchmarks/bench_pick_vs_trial.py data/runs/trial-cards-hanchan-1.2-s1 [--hands 200]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_trials import spearman  # noqa: E402
from pipeline.analytics.trial import trial_table  # noqa: E402
from pipeline.bots import pick  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.rules.hooks import PickView  # noqa: E402


def flat_kinds() -> set[str]:
    """Effect kinds whose estimate is a constant (``_flat``), whatever the hand."""
    return {k for k, f in pick.ESTIMATES.items() if f.__qualname__.startswith("_flat")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trial", type=Path)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--catalog", default="1.2")
    args = parser.parse_args()
    catalog = load_catalog(args.catalog)
    table = trial_table(args.trial)
    rng = random.Random(1)
    hands = [rng.sample(range(136), 13) for _ in range(args.hands)]
    view = PickView(seat=0, dealer=1, scores=(30000,) * 4, catalog=catalog)
    flat = flat_kinds()
    rows = []
    for r in table.iter_rows(named=True):
        card = catalog.card(r["card"])
        estimate = sum(pick.card_value(card, h, view) for h in hands) / len(hands)
        kinds = [e.kind for e in card.effects]
        rows.append((r["name"], estimate, r["value"], r["half_width"], kinds,
                     any(k in flat for k in kinds)))
    rows.sort(key=lambda x: -x[2])
    print(f"{'card':22} {'estimate':>9} {'trial value':>12} {'+-':>6}  effects")
    for name, est, value, half, kinds, is_flat in rows:
        half_text = f"{half:6,.0f}" if half is not None else "     -"
        print(f"{name:22} {est:9,.0f} {value:12,.0f} {half_text}  {', '.join(kinds)}"
              + ("  (flat guess)" if is_flat else ""))
    rho = spearman([x[1] for x in rows], [x[2] for x in rows])
    print(f"\n{len(rows)} cards: Spearman rank correlation of pick estimate and trial value "
          f"{rho:.2f}")
    non_flat = [x for x in rows if not x[5]]
    if len(non_flat) > 2:
        print(f"{len(non_flat)} cards without a flat guess: "
              f"{spearman([x[1] for x in non_flat], [x[2] for x in non_flat]):.2f}")


if __name__ == "__main__":
    main()
