"""A card's value per match, the one definition every reader of a trial uses: the trial's
stopping rule and races (:mod:`pipeline.sim.trial`), the trial table, the verdicts, the
report, the comparisons and tuning (:mod:`pipeline.analytics.trial`).

Each match is a cluster: ``s`` (the match's sum) and ``n`` (its weight); the value is
``sum(s) / sum(n)`` with an interval clustered by match. Two measures:

- ``points`` (points per hand): over whole matches, the holder's final score with its ability
  minus with it off for the whole match (``s``), per hand of the match with the ability
  (``n``). It counts what the paired hands cannot: stakes and sticks collected in a later
  hand by whoever collects them, a floor that keeps the match alive, match-end duties, the
  score situation the later hands are played in. A trial folder written before the whole-match
  arm existed has only its pairs: the value is then the pairs' (``delta_diff`` plus the
  table's share, :mod:`pipeline.sim.pair_value`);
- ``placement`` (result points per match): the holder's final result under the preset's uma
  and oka (rule M-07) with minus without, one value per match (``n = 1``).
"""

from __future__ import annotations

import polars as pl

from pipeline.sim import SimError
from pipeline.sim.pair_value import pair_value_expr

MEASURES = ("points", "placement")
UNITS = {"points": "points per hand", "placement": "result points per match"}
# The balance band's default half-width and indifference zone in each measure's unit. In the
# trials of Hitomi, Mako, Kasumi and Nelly (seed 9) a point per hand over the match was worth
# 0.016 to 0.020 result points per match, so 300 and 100 points per hand are about 5 and 1.5.
DEFAULT_THRESHOLD = {"points": 300.0, "placement": 5.0}
DEFAULT_ZONE = {"points": 100.0, "placement": 1.5}


def check_measure(measure: str) -> str:
    if measure not in MEASURES:
        raise SimError(f"--measure {measure!r} is not known; use --measure points (points per "
                       "hand over the whole match) or --measure placement (result points per "
                       "match, uma and oka included)")
    return measure


def pair_clusters(pairs: pl.DataFrame) -> pl.DataFrame:
    """Per match: the sum of the pairs' values (``s``) and their count (``n``)."""
    return (pairs.group_by("match_id")
            .agg(s=pair_value_expr(pairs.columns).sum(), n=pl.len().cast(pl.Float64))
            .sort("match_id"))


def value_clusters(pairs: pl.DataFrame, whole: pl.DataFrame | None,
                   measure: str = "points") -> pl.DataFrame:
    """Per match (sorted, so sums over matches are bit-identical): ``match_id``, ``s``, ``n``
    of the card's value in ``measure``."""
    check_measure(measure)
    if whole is None or not whole.height:
        if measure == "placement":
            raise SimError("this trial has no matches played to the end without the ability "
                           "(it was written before they were played); play it again with "
                           "'saki trial' and the same --out to measure placement")
        return pair_clusters(pairs)
    column, weight = (("result", None) if measure == "placement"
                      else ("final_score", "hands_with"))
    return whole.select(
        "match_id",
        s=pl.col(f"{column}_with").cast(pl.Float64) - pl.col(f"{column}_without").cast(
            pl.Float64),
        n=pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0)).sort("match_id")


__all__ = ["DEFAULT_THRESHOLD", "DEFAULT_ZONE", "MEASURES", "UNITS", "check_measure",
           "pair_clusters", "value_clusters"]
