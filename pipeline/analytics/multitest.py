"""Testing many groups at once: p-values, Benjamini-Hochberg q-values and flags.

A table of 50 characters tested at 5% each would flag two or three by chance alone. The
q-value (Benjamini-Hochberg) keeps the expected share of false flags among the flagged under
5%, and a flag also needs an effect big enough to matter at the table (``threshold`` points per
hand), so a tiny but certain difference in a huge run is not called a balance problem.
"""

from __future__ import annotations

import math

import polars as pl

from pipeline.stats import benjamini_hochberg, two_sided_p

Q_LEVEL = 0.05
NOT_ENOUGH = "not enough data"


def add_tests(df: pl.DataFrame, effect: str, se: str, eligible: str) -> pl.DataFrame:
    """Add ``p_value`` (two-sided normal test of ``effect = 0``) and ``q_value``
    (Benjamini-Hochberg over the eligible rows); both null for rows not eligible."""
    ps = [two_sided_p(_num(e), _num(s)) if ok else math.nan
          for e, s, ok in zip(df[effect], df[se], df[eligible], strict=True)]
    qs = benjamini_hochberg(ps)
    return df.with_columns(p_value=pl.Series([_none(p) for p in ps], dtype=pl.Float64),
                           q_value=pl.Series([_none(q) for q in qs], dtype=pl.Float64))


def flag_expr(effect: str, eligible: str, threshold: float, up: str, down: str) -> pl.Expr:
    """``up``/``down`` when q < 0.05 and |effect| > threshold, ``"not enough data"`` for rows
    not eligible, else ``""``."""
    sure = (pl.col("q_value") < Q_LEVEL) & (pl.col(effect).abs() > threshold)
    return (pl.when(~pl.col(eligible)).then(pl.lit(NOT_ENOUGH))
            .when(sure & (pl.col(effect) > 0)).then(pl.lit(up))
            .when(sure & (pl.col(effect) < 0)).then(pl.lit(down))
            .otherwise(pl.lit("")).alias("flag"))


def _num(x: float | None) -> float:
    return math.nan if x is None else float(x)


def _none(x: float) -> float | None:
    return None if math.isnan(x) else x


__all__ = ["NOT_ENOUGH", "Q_LEVEL", "add_tests", "flag_expr"]
