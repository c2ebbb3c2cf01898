"""The report's trial table says how many hands its changed count is out of when a card's
later matches were not replayed hand by hand (``replayed``, docs/trials.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pipeline.report.build import build_report
from pipeline.sim.run import simulate
from pipeline.sim.trial import FIRST_BLOCKS, read_trial, run_trial
from tests.support.paired_runs import make_config as run_config
from tests.support.trial_runs import make_config as trial_config


def test_the_changed_hands_are_counted_out_of_the_replayed_ones(tmp_path: Path) -> None:
    simulate(run_config(tmp_path), tmp_path / "run", workers=1)
    config = dataclasses.replace(trial_config(tmp_path, budget=400),
                                 replayed_blocks=FIRST_BLOCKS)
    run_trial(config, tmp_path / "trial", workers=1)
    assert read_trial(tmp_path / "trial")["blocks"]["quad_a"] > FIRST_BLOCKS
    report = build_report(tmp_path / "run", trial=tmp_path / "trial")
    rows = {r["card"]: r for r in report.context["trial"]}
    quad, plain = rows["quad_a"], rows["plain_a"]
    assert quad["replayed"] < quad["hands"]
    assert plain["replayed"] == plain["hands"]  # it never changed a hand: every one replayed
    html = report.html()
    assert f"of {quad['replayed']:,} replayed" in html
    assert html.count(" replayed</small>") == 1
