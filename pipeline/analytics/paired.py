"""The paired ability effect: each hand played with a character against the same deal played
again without its ability (the ``pairs`` table of a run made with ``--paired``).

``delta_diff`` of a pair is the seat's net points with the ability minus without it on the
same wall, dealer, scores and bot states, so the luck of the deal cancels out. Points a hand
leaves on the table (riichi sticks after a draw, stakes) are not lost: the next winner takes
them, and each seat is as likely as another to be that winner. So a pair's **value** is
``delta_diff`` plus a quarter of the change the ability made to the points left on the table
(:data:`TABLE_SHARE`): a riichi stick left after a draw costs 750, not 1,000, and an ability
that makes the others stake (Hitomi's, collected in a later hand) is worth a quarter of the
stakes at once. The effect of a group is the mean value over its pairs, with a cluster-robust
95% interval (cluster = match: the pairs of one match share its score situation).
"""

from __future__ import annotations

import polars as pl

from pipeline.analytics.intervals import mean_exprs
from pipeline.analytics.metrics import group_sql, moment_sql
from pipeline.analytics.runs import RunData
from pipeline.sim.pair_value import TABLE_COLUMNS as _TABLE_COLUMNS
from pipeline.sim.pair_value import TABLE_SHARE, pair_value_expr


def _pair_value_sql(columns: set[str], diff: str) -> str:
    if not set(_TABLE_COLUMNS) <= columns:
        return diff
    return (f"({diff}) + {TABLE_SHARE} * (1000 * (sticks_end_with - sticks_end_without) "
            "+ (stakes_end_with - stakes_end_without))")


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
    diff = _pair_value_sql(columns, diff)
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


__all__ = ["TABLE_SHARE", "pair_value_expr", "paired_effects"]
