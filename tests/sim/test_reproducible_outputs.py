"""Every JSON and table output is bit-reproducible: the same command on the same finished
folder prints the same bytes, however the engines ordered their work.

A float sum depends on the order of its terms, and an unordered ``group_by`` (Polars) or a
parallel aggregate (DuckDB) hands the terms over in whatever order its threads finish: the
same finished sweep once printed ``next_lo`` 1223.5648497863983 and once 1223.564849786398.
The aggregations now run in a fixed order (sorted by match, one DuckDB thread); these tests
run each command twice on finished folders and compare the bytes, and check that the sweep's
step difference does not depend on the order its rows come in.

The folders use the test catalog of :mod:`tests.test_paired` with greedy bots (seconds).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.tune import paired_difference
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.run import simulate
from pipeline.sim.trial import TrialConfig, run_trial
from pipeline.sim.tune import Lever, TuneConfig, run_tune
from tests.support.paired_runs import make_config as run_config
from tests.support.paired_runs import write_catalog, write_preset

PROJECT_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two finished runs, a finished trial and a finished sweep."""
    base = tmp_path_factory.mktemp("reproducible")
    simulate(run_config(base, games=4), base / "a", workers=1)
    simulate(run_config(base, games=4, seed=5), base / "b", workers=1)
    preset = load_preset(str(write_preset(base)))
    catalog = load_catalog(str(write_catalog(base)))
    run_trial(TrialConfig(preset=preset, catalog=catalog, seed=3, cards=("plain_a", "quad_a"),
                          bots=("greedy",) * 4, target=1.0, budget_hands=80),
              base / "trial", workers=1)
    run_tune(TuneConfig(preset=preset, catalog=catalog, seed=3, card="quad_a",
                        levers=(Lever("quad_a", "mult", "factor", (2, 3, 4), 4),),
                        bots=("greedy",) * 4, target=1.0, budget_hands=40),
             base / "sweep", band=(-300.0, 300.0), workers=1)
    return {"base": base, "a": base / "a", "b": base / "b", "trial": base / "trial",
            "sweep": base / "sweep"}


def commands(f: dict[str, Path]) -> dict[str, list[str]]:
    base = f["base"]
    cards, preset = str(write_catalog(base)), str(write_preset(base))
    tune = ["tune", "quad_a.mult.factor", "--values", "2,3,4", "--cards", cards, "--preset",
            preset, "--bots", "greedy", "--target", "1", "--budget-hands", "40", "--seed", "3",
            "--band", "-300:300", "--workers", "1", "--out", str(f["sweep"])]
    trial = ["trial", "--cards", cards, "--preset", preset, "--only", "plain_a,quad_a",
             "--bots", "greedy", "--target", "1", "--budget-hands", "80", "--seed", "3",
             "--workers", "1", "--out", str(f["trial"])]
    out = {"tune json": [*tune, "--format", "json"], "tune table": tune,
           "trial json": [*trial, "--format", "json"], "trial table": trial,
           "compare json": ["compare", str(f["a"]), str(f["b"]), "--format", "json"],
           "compare table": ["compare", str(f["a"]), str(f["b"])]}
    for fmt in ("json", "csv", "table"):
        out[f"stats {fmt}"] = ["stats", str(f["a"]), "--format", fmt, "--min-hands", "1"]
    out["stats by seat"] = ["stats", str(f["a"]), "--by", "seat", "--format", "json"]
    out["stats against a baseline"] = ["stats", str(f["b"]), "--baseline", str(f["a"]),
                                       "--format", "json", "--min-hands", "1"]
    return out


NAMES = ("tune json", "tune table", "trial json", "trial table", "compare json",
         "compare table", "stats json", "stats csv", "stats table", "stats by seat",
         "stats against a baseline")


def test_every_command_is_tried(finished) -> None:
    assert set(commands(finished)) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_command_on_a_finished_folder_prints_the_same_bytes_twice(finished, name) -> None:
    args = commands(finished)[name]
    first = CliRunner().invoke(cli.app, args)
    assert first.exit_code == 0, first.output
    second = CliRunner().invoke(cli.app, args)
    assert second.exit_code == 0, second.output
    assert first.stdout_bytes == second.stdout_bytes
    assert len(first.stdout_bytes) > 100


@pytest.mark.parametrize("name", ["tune json", "stats json", "compare json"])
def test_the_same_bytes_from_two_processes_with_other_hash_seeds(finished, name) -> None:
    # a set's order changes with the process's hash seed: text built from one would differ
    outputs = []
    for hash_seed in ("1", "2"):
        proc = subprocess.run([sys.executable, "cli.py", *commands(finished)[name]],
                              cwd=PROJECT_ROOT, capture_output=True, timeout=300,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert proc.returncode == 0, proc.stderr.decode()
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1] and len(outputs[0]) > 100


def test_the_report_of_a_finished_run_is_the_same_bytes_twice(finished, tmp_path) -> None:
    pages = []
    for name in ("one.html", "two.html"):
        args = ["report", str(finished["a"]), "--compare", str(finished["b"]), "--trial",
                str(finished["trial"]), "--out", str(tmp_path / name)]
        result = CliRunner().invoke(cli.app, args)
        assert result.exit_code == 0, result.output
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]


def test_a_step_difference_does_not_depend_on_the_order_of_its_matches() -> None:
    # the sweep's next_lo: the same per-match sums handed over in another row order give the
    # same bits (the join's order is not fixed, so the sums run in match order)
    rng = np.random.default_rng(7)
    k = 400
    a = pl.DataFrame({"match_id": np.arange(k), "s": rng.normal(300, 4000, k) / 7,
                      "n": rng.integers(5, 15, k).astype(float)})
    b = a.with_columns(s=pl.col("s") + pl.Series(rng.normal(50, 900, k) / 3))
    want = paired_difference(a, b)
    for seed in range(5):
        shuffled = paired_difference(a.sample(fraction=1.0, shuffle=True, seed=seed),
                                     b.sample(fraction=1.0, shuffle=True, seed=seed + 100))
        assert shuffled == want  # bit for bit, not approximately
