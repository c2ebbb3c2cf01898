"""The paired ability effect: each hand played with a character against the same deal played
again without its ability (the ``pairs`` table of a run made with ``--paired``).

``delta_diff`` of a pair is the seat's net points with the ability minus without it on the
same wall, dealer, scores and bot states, so the luck of the deal cancels out. The effect of a
group is the mean ``delta_diff`` over its pairs, with a cluster-robust 95% interval (cluster =
match: the pairs of one match share its score situation).
"""

from __future__ import annotations

import polars as pl

from pipeline.analytics.intervals import mean_exprs
from pipeline.analytics.metrics import group_sql, moment_sql
from pipeline.analytics.runs import RunData


def paired_effects(run: RunData, by: str) -> pl.DataFrame | None:
    """Per group: ``paired_effect``, ``paired_lo``, ``paired_hi``, ``paired_changed`` (pairs
    whose two sides differ); None when the run has no ``pairs`` table. When no pair differs
    the spread is zero, which measures nothing: the interval is null, never a certain zero."""
    if not run.has("pairs"):
        return None
    columns = set(run.sql("SELECT * FROM pairs LIMIT 0").columns)
    if "delta_diff" in columns:
        diff = "delta_diff"
    elif {"delta_with", "delta_without"} <= columns:
        diff = "delta_with - delta_without"
    else:
        return None
    effect = mean_exprs("paired")
    return run.sql(f"""
        WITH c AS (
            SELECT {group_sql(run, by)} AS "group", match_id, count(*) AS n,
                   sum({diff}) AS s, count(*) FILTER (({diff}) <> 0) AS changed
            FROM pairs GROUP BY ALL)
        SELECT "group", {moment_sql("paired", "s", "n")},
               CAST(sum(changed) AS BIGINT) AS paired_changed
        FROM c GROUP BY "group"
    """).select("group", "paired_changed", paired_effect=effect["mean"],
                paired_lo=pl.when(pl.col("paired_changed") > 0).then(effect["lo"]),
                paired_hi=pl.when(pl.col("paired_changed") > 0).then(effect["hi"]))


__all__ = ["paired_effects"]
