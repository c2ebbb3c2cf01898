"""How a run's bots played, against strong human play: the calibration figures of
:mod:`pipeline.bots.calibrate`, computed from a run's tables instead of fresh matches.

Same definitions and the same reference: rates per seat-hand, except the exhaustive-draw rate
which is per hand; average win over wins; intervals clustered by match. A run of plain presets
measured here and ``saki bots calibrate`` with the same preset, seed and games give the same
figures (the matches are the same matches).
"""

from __future__ import annotations

import polars as pl

from pipeline.analytics.intervals import mean_exprs, rate_exprs
from pipeline.analytics.metrics import group_moments
from pipeline.analytics.runs import RunData


def calibration_table(run: RunData) -> pl.DataFrame:
    """One row per calibration figure: ``metric``, ``label``, ``unit``, ``value``, ``lo``,
    ``hi``, ``human``, ``target_lo``, ``target_hi`` and ``judge`` ("ok", "low", "high" or ""
    without a target)."""
    from pipeline.bots.calibrate import METRICS  # the reference figures (loads the engine)

    moments, _ = group_moments(run, "preset")  # one group: every seat-hand of the run
    sources = {  # calibration figure -> (moment name, rate or mean)
        "win_rate": ("win", "rate"), "deal_in_rate": ("deal_in", "rate"),
        "riichi_rate": ("riichi", "rate"), "call_rate": ("call", "rate"),
        "exhaustive_draw_rate": ("draw_hand", "rate"), "average_win": ("avg_win", "mean"),
        "tsumo_share": ("tsumo", "rate"), "tenpai_at_draw": ("draw_tenpai", "rate"),
        "average_deal_in": ("avg_deal_in", "mean"),
    }
    rows = []
    for m in METRICS:
        name, kind = sources[m.key]
        e = rate_exprs(name) if kind == "rate" else mean_exprs(name)
        value = lo = hi = None
        if moments.height:
            value, lo, hi = moments.select(e[kind].alias("value"), e["lo"].alias("lo"),
                                           e["hi"].alias("hi")).row(0)
        rows.append({"metric": m.key, "label": m.label, "unit": m.unit, "value": value,
                     "lo": lo, "hi": hi, "human": m.human, "target_lo": m.low,
                     "target_hi": m.high,
                     "judge": m.judge(value) if value is not None else ""})
    schema = {"metric": pl.String, "label": pl.String, "unit": pl.String,
              "value": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "human": pl.Float64,
              "target_lo": pl.Float64, "target_hi": pl.Float64, "judge": pl.String}
    return pl.DataFrame(rows, schema=schema, orient="row")


__all__ = ["calibration_table"]
