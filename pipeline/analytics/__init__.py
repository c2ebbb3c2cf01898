"""Balance analytics over a simulation run: the one place metrics are computed.

The command line (``saki stats``, ``saki compare``), the HTML report and the notebooks all call
these functions::

    run = open_run("data/runs/<name>")        # complete, intact runs only
    df = character_table(run, by="character")  # per-group metrics with intervals and flags
    cmp = compare_runs(run_a, run_b)           # changes between two runs, card and preset diff
    cal = calibration_table(run)               # the bots against human reference figures

Modules: :mod:`~pipeline.analytics.runs` (opening a run, DuckDB views),
:mod:`~pipeline.analytics.metrics` (the named queries and every metric's definition),
:mod:`~pipeline.analytics.intervals` (clustered intervals for many groups),
:mod:`~pipeline.analytics.multitest` (p-values, Benjamini-Hochberg, flags),
:mod:`~pipeline.analytics.table` (the per-group table), :mod:`~pipeline.analytics.compare`,
:mod:`~pipeline.analytics.calibration`, :mod:`~pipeline.analytics.paired`,
:mod:`~pipeline.analytics.frames` (the same core metrics from Polars frames),
:mod:`~pipeline.analytics.render` (text, CSV and JSON output) and
:mod:`~pipeline.analytics.synthetic` (runs with planted effects, for tests and benchmarks).
"""

from __future__ import annotations

from pipeline.analytics.calibration import calibration_table
from pipeline.analytics.compare import Comparison, compare_runs
from pipeline.analytics.runs import AnalyticsError, RunData, open_run
from pipeline.analytics.table import character_table

__all__ = ["AnalyticsError", "Comparison", "RunData", "calibration_table", "character_table",
           "compare_runs", "open_run"]
