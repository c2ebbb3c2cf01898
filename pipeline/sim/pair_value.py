"""What one pair of a paired measurement is worth: the seat's net points with the ability minus
without it (``delta_diff``), plus its share of the change in points left on the table.

Points a hand leaves on the table (riichi sticks after a draw, stakes) are not lost: the next
winner takes them, and each seat is as likely as another to be that winner, so a quarter of the
change counts at once (:data:`TABLE_SHARE`). The trials' stopping rule and the analytics read
the same value (:mod:`pipeline.analytics.paired` says more)."""

from __future__ import annotations

import polars as pl

TABLE_SHARE = 0.25  # each seat's share of the points left on the table for a later winner
TABLE_COLUMNS = ("sticks_end_with", "sticks_end_without", "stakes_end_with",
                 "stakes_end_without")


def pair_value_expr(columns: set[str] | list[str]) -> pl.Expr:
    """A pair's value from a ``pairs`` frame with these columns; ``delta_diff`` alone for
    tables written before the table columns existed."""
    diff = pl.col("delta_diff").cast(pl.Float64)
    if not set(TABLE_COLUMNS) <= set(columns):
        return diff
    left = (1000 * (pl.col("sticks_end_with").cast(pl.Float64)
                    - pl.col("sticks_end_without").cast(pl.Float64))
            + pl.col("stakes_end_with").cast(pl.Float64)
            - pl.col("stakes_end_without").cast(pl.Float64))
    return diff + TABLE_SHARE * left
