"""Core metrics from in-memory Polars frames (notebooks, or a table already loaded with
:func:`pipeline.sim.run.load_table`), defined exactly as the DuckDB queries of
:mod:`pipeline.analytics.metrics` so the two forms can be held to each other."""

from __future__ import annotations

import polars as pl

from pipeline.analytics.intervals import mean_by_group, rate_by_group
from pipeline.analytics.metrics import NONE_GROUP, WIN_OUTCOMES


def basic_metrics(hands: pl.DataFrame, by: str = "character") -> pl.DataFrame:
    """Per group (``character`` with "(none)" for no character, or ``seat`` as text):
    ``hands``, ``wins``, ``win_rate`` with ``win_lo``/``win_hi``, ``swing`` (mean delta) with
    ``swing_lo``/``swing_hi``, sorted by group."""
    if by == "character":
        key = pl.col("character").fill_null(NONE_GROUP)
    elif by == "seat":
        key = pl.col("seat").cast(pl.String)
    else:
        raise ValueError(f"basic_metrics groups by character or seat, not {by!r}")
    clusters = (hands.with_columns(key.alias("group"))
                .group_by("group", "match_id")
                .agg(n=pl.len(), wins=pl.col("outcome").is_in(WIN_OUTCOMES).sum(),
                     delta_sum=pl.col("delta").cast(pl.Int64).sum())
                .sort("group", "match_id"))
    win = rate_by_group(clusters, "group", "wins", "n")
    swing = mean_by_group(clusters, "group", "delta_sum", "n")
    counts = clusters.group_by("group").agg(hands=pl.col("n").sum().cast(pl.Int64),
                                            wins=pl.col("wins").sum().cast(pl.Int64))
    return (counts
            .join(win.select("group", win_rate="rate", win_lo="lo", win_hi="hi"), on="group")
            .join(swing.select("group", swing="mean", swing_lo="lo", swing_hi="hi"),
                  on="group")
            .sort("group"))


__all__ = ["basic_metrics"]
