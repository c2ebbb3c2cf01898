"""Proofs for card trials: planted effects found with the right sign, A/A flags, bot styles.

Three checks, each printing its figures (docs/trials.md keeps the last ones measured):

- ``plant``: Nodoka's closed tanyao and pinfu (2 han each in catalog 1.2) planted at 4 han (the
  weak plant of issue 15) and at 8 han (a strong one). Each catalog's trial of Nodoka uses the
  same seed, so match ``i`` is dealt alike in all three, and the change of her value is read from
  per-match paired differences. A plant is detected when the change's 95% interval lies above 0.
- ``aa``: the same trial with two seeds; per card the difference of the two values is tested
  (two-sided, Benjamini-Hochberg across cards). Nothing differs between the two, so a flag is a
  false alarm: at most 5% of cards may be flagged.
- ``styles``: the same trial (one seed) with the bots ``heuristic`` and ``heuristic:careful``;
  prints the rank correlation (Spearman) of the cards' values. A verdict that flips with the
  bot's style is not a verdict.

    python benchmarks/bench_trials.py plant [--target 150] [--seed 1] [--workers N]
    python benchmarks/bench_trials.py aa [--budget-hands 8000] [--only ID,...]
    python benchmarks/bench_trials.py styles [--budget-hands 8000] [--only ID,...]

Trial folders go under ``--out`` (default data/runs/proofs); a second run reuses them.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.analytics.trial import trial_table, value_difference  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.datafiles import PROJECT_ROOT, SHIPPED_DATA  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.executor import LocalExecutor  # noqa: E402
from pipeline.sim.trial import TrialConfig, run_trial, trial_deck  # noqa: E402
from pipeline.stats import benjamini_hochberg, spearman, two_sided_p  # noqa: E402

NODOKA = "nodoka_haramura"


def planted_catalog(folder: Path, han: int) -> Path:
    """Catalog 1.2 with Nodoka's two 2-han values set to ``han``."""
    text = (SHIPPED_DATA / "cards" / "1.2.toml").read_text()
    start = text.index(f'id = "{NODOKA}"')
    end = text.index("[[card]]", start)
    block = re.sub(r"han = 2\n", f"han = {han}\n", text[start:end])
    path = folder / f"1.2-nodoka-{han}han.toml"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text[:start] + block + text[end:])
    return path


def trial(args: argparse.Namespace, name: str, *, catalog: str = "1.2", seed: int | None = None,
          bots: str = "heuristic", cards: tuple[str, ...] | None = None) -> Path:
    preset = load_preset(args.preset)
    cat = load_catalog(catalog)
    chosen = cards or tuple(trial_deck(cat, preset))
    config = TrialConfig(preset=preset, catalog=cat, seed=args.seed if seed is None else seed,
                         cards=chosen, bots=(bots,) * 4, target=args.target,
                         budget_hands=args.budget_hands)
    out = args.out / name
    began = time.perf_counter()
    summary = run_trial(config, out, executor=LocalExecutor(args.workers))
    print(f"  {name}: {summary.hands:,} hands, {time.perf_counter() - began:.0f} s")
    return out


def show(value: float, lo: float, hi: float) -> str:
    return f"{value:+,.0f} [{lo:+,.0f}, {hi:+,.0f}]"


def plant(args: argparse.Namespace) -> None:
    folders = {2: trial(args, "nodoka-2han", cards=(NODOKA,))}
    for han in (4, 8):
        catalog = planted_catalog(args.out / "catalogs", han)
        folders[han] = trial(args, f"nodoka-{han}han", catalog=str(catalog), cards=(NODOKA,))
    for han, folder in folders.items():
        r = trial_table(folder).row(0, named=True)
        print(f"Nodoka, tanyao and pinfu at {han} han: value "
              f"{show(r['value'], r['value_lo'], r['value_hi'])} over {r['hands']:,} hands")
    for han in (4, 8):
        d = value_difference(folders[2], folders[han], NODOKA, paired=True)
        verdict = "detected, right sign" if d["lo"] > 0 else (
            "WRONG SIGN" if d["hi"] < 0 else "not detected")
        print(f"  plant {han} han - catalog 1.2: {show(d['diff'], d['lo'], d['hi'])} "
              f"(paired by match): {verdict}")


def aa(args: argparse.Namespace) -> None:
    cards = tuple(args.only.split(",")) if args.only else None
    a = trial_table(trial(args, "aa-seed1", seed=args.seed, cards=cards))
    b = trial_table(trial(args, "aa-seed2", seed=args.seed + 1, cards=cards))
    joined = a.join(b, on="card", suffix="_b")
    ps = []
    for r in joined.iter_rows(named=True):
        se = math.hypot(r["value_se"] or math.nan, r["value_se_b"] or math.nan)
        ps.append(two_sided_p(r["value_b"] - r["value"], se))
    tested = [p for p in ps if not math.isnan(p)]
    qs = benjamini_hochberg(tested)
    flagged = sum(q < 0.05 for q in qs)
    print(f"A/A (seeds {args.seed} and {args.seed + 1}): {len(tested)} cards tested, "
          f"{sum(p < 0.05 for p in tested)} with p < 0.05 (5% expected by chance), "
          f"{flagged} flagged after Benjamini-Hochberg ({100 * flagged / max(len(tested), 1):.1f}%"
          f"; at most 5% allowed)")


def styles(args: argparse.Namespace) -> None:
    cards = tuple(args.only.split(",")) if args.only else None
    a = trial_table(trial(args, "aa-seed1", seed=args.seed, cards=cards))  # aa's, if played
    b = trial_table(trial(args, "styles-careful", seed=args.seed, bots="heuristic:careful",
                          cards=cards))
    joined = a.join(b, on="card", suffix="_b")
    rho = spearman(joined["value"].to_list(), joined["value_b"].to_list())
    flips = sum((r["value_lo"] or 0) > 0 and (r["value_hi_b"] or 0) < 0
                or (r["value_hi"] or 0) < 0 and (r["value_lo_b"] or 0) > 0
                for r in joined.iter_rows(named=True))
    print(f"bot styles heuristic and heuristic:careful, seed {args.seed}: {joined.height} cards, "
          f"Spearman rank correlation of the values {rho:.2f}; {flips} cards sure of opposite "
          "signs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("check", choices=("plant", "aa", "styles"))
    parser.add_argument("--preset", default="cards-hanchan")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=float, default=150.0)
    parser.add_argument("--budget-hands", type=int, default=8000)
    parser.add_argument("--only", default="")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "data" / "runs" / "proofs")
    args = parser.parse_args()
    {"plant": plant, "aa": aa, "styles": styles}[args.check](args)


if __name__ == "__main__":
    main()
