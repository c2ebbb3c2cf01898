"""Comparing two runs that share seed and matches: the change's interval comes from per-match
paired differences, not from adding two variances.

Synthetic runs of one seed draw the same random numbers whatever the characters' weights, so
run B (a planted change of one character) and run A deal alike match by match, as two real
runs of one seed do. The true change is known in closed form (``expected_swing``)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline.analytics.compare import compare_runs
from pipeline.analytics.render import compare_text
from pipeline.analytics.runs import open_run
from pipeline.analytics.synthetic import SyntheticSpec, write_synthetic_run
from pipeline.analytics.table import character_table

CHARS = tuple(f"char_{i:02d}" for i in range(12))
STAR = CHARS[0]


def run(tmp: Path, name: str, seed: int, weight: float = 1.0, matches: int = 400):
    spec = SyntheticSpec(matches=matches, characters=CHARS, seed=seed, seat_luck=0.3,
                         win_weight={STAR: weight})
    return open_run(write_synthetic_run(tmp / name, spec))


def star(cmp) -> dict:
    return cmp.metrics.filter(pl.col("group") == STAR).row(0, named=True)


@pytest.mark.slow
def test_same_seed_intervals_cover_the_truth(tmp_path: Path) -> None:
    truth = (SyntheticSpec(1, win_weight={STAR: 1.3}).expected_swing(STAR)
             - SyntheticSpec(1).expected_swing(STAR))
    covered, replicates = 0, 30
    for seed in range(replicates):
        a, b = run(tmp_path, f"a{seed}", seed), run(tmp_path, f"b{seed}", seed, 1.3)
        cmp = compare_runs(a, b, min_hands=1)
        assert cmp.paired
        r = star(cmp)
        covered += r["swing_delta_lo"] <= truth <= r["swing_delta_hi"]
    print(f"paired 95% intervals covering the planted change: {covered} of {replicates}")
    # 95% intervals: at least 25 of 30 cover the truth (fewer has a chance under 2%)
    assert covered >= 25, covered


def test_same_seed_is_paired_and_much_narrower_than_adding_variances(tmp_path: Path) -> None:
    a, b = run(tmp_path, "a", 7), run(tmp_path, "b", 7, 1.3)
    paired = star(compare_runs(a, b, min_hands=1))
    ta = character_table(a, min_hands=1).filter(pl.col("group") == STAR).row(0, named=True)
    tb = character_table(b, min_hands=1).filter(pl.col("group") == STAR).row(0, named=True)
    added = (ta["swing_se"] ** 2 + tb["swing_se"] ** 2) ** 0.5
    print(f"same-seed swing change se: paired {paired['swing_delta_se']:.1f}, "
          f"variances added {added:.1f} ({added / paired['swing_delta_se']:.1f} times wider)")
    assert paired["swing_delta_se"] * 1.5 < added


def test_an_a_a_comparison_of_one_seed_moves_nothing(tmp_path: Path) -> None:
    a, b = run(tmp_path, "a", 3), run(tmp_path, "b", 3)
    cmp = compare_runs(a, b, min_hands=1)
    assert cmp.paired
    assert (cmp.metrics["swing_delta"] == 0).all() and (cmp.metrics["flag"] == "").all()
    assert "from per-match paired differences" in compare_text(cmp)


def test_runs_of_different_seeds_add_their_variances(tmp_path: Path) -> None:
    a, b = run(tmp_path, "a", 3), run(tmp_path, "b", 4, 1.3)
    cmp = compare_runs(a, b, min_hands=1)
    assert not cmp.paired
    r = star(cmp)
    ta = character_table(a, min_hands=1).filter(pl.col("group") == STAR).row(0, named=True)
    tb = character_table(b, min_hands=1).filter(pl.col("group") == STAR).row(0, named=True)
    assert abs(r["swing_delta_se"] - (ta["swing_se"] ** 2 + tb["swing_se"] ** 2) ** 0.5) < 1e-6
    assert "the runs taken as independent" in compare_text(cmp)
