"""The per-group balance table: every metric of :mod:`pipeline.analytics.metrics` with its
interval, the difference from the field (or a baseline run), the tests and the flag.

A group is compared only when it has at least ``min_hands`` seat-hands, played in at least
:data:`MIN_MATCHES` matches: otherwise its figures are shown, but it gets no p-value, no q-value,
no flag other than "not enough data", and it is listed after every group that has enough data.
"""

from __future__ import annotations

import math

import polars as pl

from pipeline.analytics.catalogs import run_catalog
from pipeline.analytics.intervals import (
    field_diff_exprs,
    field_moments,
    mean_exprs,
    rate_exprs,
)
from pipeline.analytics.metrics import group_moments, pick_moments, trigger_sums
from pipeline.analytics.multitest import add_tests, flag_expr
from pipeline.analytics.paired import paired_effects
from pipeline.analytics.runs import RunData
from pipeline.stats import Z95

DEFAULT_MIN_HANDS = 200
DEFAULT_THRESHOLD = 300.0  # points per hand of swing that matter at the table
# A cluster-robust interval estimated from a handful of matches is far too narrow: a group is
# only tested when its hands come from at least this many matches, whatever min_hands says.
MIN_MATCHES = 10

COLUMNS = (
    "group", "name", "hands", "matches",
    "pick_rate", "pick_lo", "pick_hi",
    "win_rate", "win_lo", "win_hi", "tsumo_share",
    "deal_in_rate", "deal_in_lo", "deal_in_hi",
    "riichi_rate", "call_rate", "draw_tenpai_rate",
    "avg_win", "avg_deal_in",
    "swing", "swing_lo", "swing_hi", "swing_sd",
    "field_diff", "field_diff_lo", "field_diff_hi", "p_value", "q_value",
    "avg_place", "avg_place_lo", "avg_place_hi", "top_rate", "last_rate", "avg_result",
    "triggers_per_hand", "trigger_value",
    "paired_effect", "paired_lo", "paired_hi",
    "flag",
)
# Added beyond the contract: standard errors (for comparing runs), the reference the field
# difference is taken against, and a few intervals and counts a report may want.
EXTRA_COLUMNS = (
    "win_se", "deal_in_se", "swing_se", "field_diff_se", "avg_place_se", "reference",
    "avg_win_lo", "avg_win_hi", "avg_deal_in_lo", "avg_deal_in_hi", "draw_hands",
    "trigger_han", "eligible", "second_rate", "third_rate", "paired_changed",
)


def character_table(run: RunData, by: str = "character", min_hands: int = DEFAULT_MIN_HANDS,
                    threshold: float = DEFAULT_THRESHOLD, baseline: RunData | None = None
                    ) -> pl.DataFrame:
    """One row per group (``by``: "character", "seat" or "preset"), sorted by ``swing``
    descending with groups below ``min_hands`` (or seen in fewer than :data:`MIN_MATCHES`
    matches) last. Columns: :data:`COLUMNS` then
    :data:`EXTRA_COLUMNS`; metric definitions in :mod:`pipeline.analytics.metrics`.

    ``field_diff`` is the group's swing minus the field's (every seat-hand of the run) with a
    cluster-robust interval that counts the group's share of the field. With ``baseline`` (a
    run without cards, say) it is the swing minus the baseline's: the same group there when it
    has at least ``min_hands`` hands (a seat, or "(none)"), else the baseline's whole field; the
    two runs are independent, so the variances add. ``p_value`` tests ``field_diff = 0``,
    ``q_value`` is Benjamini-Hochberg over the groups with enough data, and ``flag`` is
    "strong" / "weak" when ``q < 0.05`` and ``|field_diff| > threshold``.
    """
    moments, per_match = group_moments(run, by)
    base = _hand_metrics(moments)
    base = base.with_columns(
        eligible=(pl.col("hands") >= min_hands) & (pl.col("matches") >= MIN_MATCHES))

    if baseline is None:
        diff = field_diff_exprs("swing", field_moments(per_match, "delta_sum", "n"))
        base = base.with_columns(field_diff=diff["diff"], field_diff_se=diff["se"],
                                 reference=pl.lit("field"))
    else:
        base = _against_baseline(base, baseline, by, min_hands)
    base = base.with_columns(
        field_diff_lo=pl.col("field_diff") - Z95 * pl.col("field_diff_se"),
        field_diff_hi=pl.col("field_diff") + Z95 * pl.col("field_diff_se"),
    )

    if by == "character":
        pick = rate_exprs("pick")
        picks = pick_moments(run).select("group", pick_rate=pick["rate"], pick_lo=pick["lo"],
                                         pick_hi=pick["hi"])
        base = base.join(picks, on="group", how="left")
    else:
        base = base.with_columns(pick_rate=None, pick_lo=None, pick_hi=None)

    trig = trigger_sums(run, by)
    base = base.join(trig, on="group", how="left").with_columns(
        trigger_value=pl.when(pl.col("valued") > 0).then(pl.col("pts") / pl.col("valued")),
        trigger_han=pl.when(pl.col("valued") > 0).then(pl.col("han") / pl.col("valued")))

    paired = paired_effects(run, by)
    if paired is None:
        base = base.with_columns(paired_effect=None, paired_lo=None, paired_hi=None,
                                 paired_changed=None)
    else:
        base = base.join(paired, on="group", how="left")

    names = run_catalog(run.meta, run.label) if by == "character" else None
    base = base.with_columns(name=pl.col("group").map_elements(
        (lambda g: names.name(g)) if names else (lambda g: g), return_dtype=pl.String))

    base = add_tests(base, "field_diff", "field_diff_se", "eligible")
    base = base.with_columns(flag_expr("field_diff", "eligible", threshold, "strong", "weak"))
    base = base.sort(["eligible", "swing", "hands"], descending=[True, True, True],
                     nulls_last=True)
    return _typed(base.select(*COLUMNS, *EXTRA_COLUMNS))


def _hand_metrics(m: pl.DataFrame) -> pl.DataFrame:
    """Hand-level metrics per group from its cluster sums and moments."""
    n = pl.col("n")
    mean = pl.col("delta_sum") / n
    win, deal = rate_exprs("win"), rate_exprs("deal_in")
    swing, place = mean_exprs("swing"), mean_exprs("place")
    avg_win, avg_deal = mean_exprs("avg_win"), mean_exprs("avg_deal_in")
    return m.with_columns(
        hands=n, draw_hands=pl.col("draw_n"),
        tsumo_share=pl.when(pl.col("wins") > 0).then(pl.col("tsumo") / pl.col("wins")),
        riichi_rate=pl.col("riichi") / n,
        call_rate=pl.col("called") / n,
        draw_tenpai_rate=pl.when(pl.col("draw_n") > 0)
        .then(pl.col("draw_tenpai") / pl.col("draw_n")),
        swing_sd=pl.when(n > 1).then(
            ((pl.col("delta_sq") - n * mean * mean) / (n - 1)).clip(0.0, None).sqrt()),
        triggers_per_hand=pl.col("triggers") / n,
        top_rate=pl.col("top_w") / n, last_rate=pl.col("last_w") / n,
        second_rate=pl.col("second_w") / n, third_rate=pl.col("third_w") / n,
        avg_result=pl.col("result_w") / n,
        win_rate=win["rate"], win_lo=win["lo"], win_hi=win["hi"], win_se=win["se"],
        deal_in_rate=deal["rate"], deal_in_lo=deal["lo"], deal_in_hi=deal["hi"],
        deal_in_se=deal["se"],
        swing=swing["mean"], swing_lo=swing["lo"], swing_hi=swing["hi"], swing_se=swing["se"],
        avg_place=place["mean"], avg_place_lo=place["lo"], avg_place_hi=place["hi"],
        avg_place_se=place["se"],
        avg_win=avg_win["mean"], avg_win_lo=avg_win["lo"], avg_win_hi=avg_win["hi"],
        avg_deal_in=avg_deal["mean"], avg_deal_in_lo=avg_deal["lo"],
        avg_deal_in_hi=avg_deal["hi"],
    )


def _against_baseline(base: pl.DataFrame, baseline: RunData, by: str, min_hands: int
                      ) -> pl.DataFrame:
    moments, per_match = group_moments(baseline, by)
    swing = mean_exprs("swing")
    ref = moments.filter(pl.col("n") >= min_hands).select(
        "group", ref_mean=swing["mean"], ref_se=swing["se"],
        reference=pl.lit(f"baseline {baseline.label} same group"))
    field = field_moments(per_match, "delta_sum", "n")
    f_mean, f_se = field["mean"], field["se"]
    base = base.join(ref, on="group", how="left")
    base = base.with_columns(
        reference=pl.col("reference").fill_null(f"baseline {baseline.label} field"),
        ref_mean=pl.col("ref_mean").fill_null(f_mean if not math.isnan(f_mean) else None),
        ref_se=pl.col("ref_se").fill_null(f_se if not math.isnan(f_se) else None),
    )
    return base.with_columns(
        field_diff=pl.col("swing") - pl.col("ref_mean"),
        field_diff_se=(pl.col("swing_se") ** 2 + pl.col("ref_se") ** 2).sqrt(),
    ).drop("ref_mean", "ref_se")


_INTS = ("hands", "matches", "draw_hands")


def _typed(df: pl.DataFrame) -> pl.DataFrame:
    """Counts as Int64, every other number as Float64, text as String: a stable schema."""
    exprs = []
    for name in df.columns:
        if name in _INTS:
            exprs.append(pl.col(name).cast(pl.Int64))
        elif name in ("group", "name", "flag", "reference"):
            exprs.append(pl.col(name).cast(pl.String))
        elif name == "eligible":
            exprs.append(pl.col(name).cast(pl.Boolean))
        else:
            exprs.append(pl.col(name).cast(pl.Float64))
    return df.select(exprs)


__all__ = ["COLUMNS", "DEFAULT_MIN_HANDS", "DEFAULT_THRESHOLD", "EXTRA_COLUMNS", "MIN_MATCHES",
           "character_table"]
