"""Two runs side by side: how each character's figures moved, and what was changed to get there.

``compare_runs(A, B)`` puts the per-group tables of both runs next to each other. For win rate,
deal-in rate, swing and average placement it gives B - A with a 95% interval. Two runs of one
seed share their matches (match ``i`` has the same walls, teams dealt from the same stream and
bots on the same streams; ``saki balance --compare-*`` always plays them so): their figures move
together, and the interval comes from the per-match paired differences (:func:`paired_se`:
the linearised difference of the two ratio estimators, clustered by match index), which
counts that covariance. Runs of different seeds are independent samples: the variances add.
The flag is read off the swing: "up" / "down" when the Benjamini-Hochberg q-value of its change
is below 0.05 and the change exceeds ``threshold`` points per hand; "not enough data" when
either run has fewer than ``min_hands`` hands of the group (or has them from fewer than 10
matches). Alongside come the card changes between the two runs' catalogs and the preset options
that differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

from pipeline.analytics.catalogs import card_changes, run_catalog
from pipeline.analytics.metrics import group_sql
from pipeline.analytics.multitest import add_tests, flag_expr
from pipeline.analytics.runs import RunData
from pipeline.analytics.table import DEFAULT_MIN_HANDS, DEFAULT_THRESHOLD, character_table
from pipeline.stats import Z95

# metric -> (its column, its standard error column)
COMPARED = {
    "win_rate": ("win_rate", "win_se"),
    "deal_in_rate": ("deal_in_rate", "deal_in_se"),
    "swing": ("swing", "swing_se"),
    "avg_place": ("avg_place", "avg_place_se"),
}


@dataclass
class Comparison:
    """The result of :func:`compare_runs`; ``warnings`` lists what could not be checked."""

    label_a: str
    label_b: str
    metrics: pl.DataFrame
    paired: bool = False  # same seed: intervals from per-match paired differences
    card_changes: list[dict[str, str]] = field(default_factory=list)
    preset_changes: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def compare_runs(run_a: RunData, run_b: RunData, threshold: float = DEFAULT_THRESHOLD,
                 min_hands: int = DEFAULT_MIN_HANDS, by: str = "character") -> Comparison:
    """Per group of both runs: ``hands_a``, ``hands_b`` and for each compared metric ``m``:
    ``m_a``, ``m_b``, ``m_delta`` (B - A), ``m_delta_lo``, ``m_delta_hi``; then ``p_value``,
    ``q_value`` and ``flag`` for the swing. Groups are listed by swing change, largest first,
    those without enough data last."""
    a = character_table(run_a, by=by, min_hands=min_hands, threshold=threshold)
    b = character_table(run_b, by=by, min_hands=min_hands, threshold=threshold)
    keep = ["group", "name", "hands", "eligible",
            *(c for pair in COMPARED.values() for c in pair)]
    both = a.select(keep).join(b.select(keep), on="group", how="full", suffix="_b",
                               coalesce=True)
    both = both.rename({"hands": "hands_a", "name": "name_a"}).with_columns(
        name=pl.coalesce("name_b", "name_a"),
        hands_a=pl.col("hands_a").fill_null(0), hands_b=pl.col("hands_b").fill_null(0))
    cols: list[str] = ["group", "name", "hands_a", "hands_b"]
    paired = shared_matches(run_a, run_b)
    if paired:
        both = both.join(paired_se(run_a, run_b, by), on="group", how="left")
    for metric, (col, se) in COMPARED.items():
        delta_se = (pl.col(f"{metric}_paired_se") if paired
                    else (pl.col(se) ** 2 + pl.col(f"{se}_b") ** 2).sqrt())
        both = both.with_columns(
            pl.col(col).alias(f"{metric}_a"), pl.col(f"{col}_b").alias(f"{metric}_b"),
            (pl.col(f"{col}_b") - pl.col(col)).alias(f"{metric}_delta"),
            delta_se.alias(f"{metric}_delta_se"))
        both = both.with_columns(
            (pl.col(f"{metric}_delta") - Z95 * pl.col(f"{metric}_delta_se"))
            .alias(f"{metric}_delta_lo"),
            (pl.col(f"{metric}_delta") + Z95 * pl.col(f"{metric}_delta_se"))
            .alias(f"{metric}_delta_hi"))
        cols += [f"{metric}_a", f"{metric}_b", f"{metric}_delta", f"{metric}_delta_lo",
                 f"{metric}_delta_hi"]
    both = both.with_columns(  # enough hands, from enough matches, in both runs
        eligible=pl.col("eligible").fill_null(False) & pl.col("eligible_b").fill_null(False))
    both = add_tests(both, "swing_delta", "swing_delta_se", "eligible")
    both = both.with_columns(flag_expr("swing_delta", "eligible", threshold, "up", "down"))
    both = both.sort(["eligible", "swing_delta"], descending=[True, True], nulls_last=True)
    metrics = both.select(*cols, "p_value", "q_value", "flag",
                          *(f"{m}_delta_se" for m in COMPARED))

    cat_a = run_catalog(run_a.meta, run_a.label)
    cat_b = run_catalog(run_b.meta, run_b.label)
    warnings = [*cat_a.warnings, *cat_b.warnings]
    changes = card_changes(cat_a, cat_b)
    if (cat_a.content_hash != cat_b.content_hash and not changes
            and cat_a.cards and cat_b.cards):
        warnings.append("the two runs' catalogs have different content hashes, but the card "
                        "files available show no difference (a catalog file was edited since)")
    return Comparison(run_a.label, run_b.label, metrics, paired, changes,
                      preset_changes(run_a.meta.get("preset"), run_b.meta.get("preset")),
                      warnings)


def shared_matches(run_a: RunData, run_b: RunData) -> bool:
    """Whether the two runs were played from one seed, so that their match ``i`` is dealt
    alike and the matches pair up."""
    seed = run_a.meta.get("seed")
    return seed is not None and seed == run_b.meta.get("seed")


# metric -> (a cluster's numerator, its denominator) in the per-match sums of _clusters
_PAIRED = {"win_rate": "wins", "deal_in_rate": "deal_ins", "swing": "delta_sum",
           "avg_place": "rank_w"}


def _clusters(run: RunData, by: str) -> pl.DataFrame:
    """Per (group, match): hands ``n`` and the numerators of the compared metrics."""
    g = group_sql(run, by, "h")
    return run.sql(f"""
        SELECT {g} AS "group", h.match_id, CAST(count(*) AS DOUBLE) AS n,
               CAST(count(*) FILTER (outcome IN ('tsumo_win', 'ron_win')) AS DOUBLE) AS wins,
               CAST(count(*) FILTER (outcome = 'dealt_in') AS DOUBLE) AS deal_ins,
               CAST(sum(delta) AS DOUBLE) AS delta_sum, CAST(sum(m.rank) AS DOUBLE) AS rank_w
        FROM hands h JOIN matches m ON m.match_id = h.match_id AND m.seat = h.seat
        GROUP BY ALL""")


def paired_se(run_a: RunData, run_b: RunData, by: str = "character") -> pl.DataFrame:
    """Per group, ``<metric>_paired_se``: the standard error of B - A for each compared
    metric when match ``i`` of A and of B are a pair.

    Each metric is a ratio ``R = sum y / sum n`` over a group's (match) clusters; linearised,
    the difference contributes per match index ``u_i = (y_Bi - R_B n_Bi) / N_B - (y_Ai - R_A
    n_Ai) / N_A`` (a match where the group is absent in one run adds 0 for that run), and
    ``var(R_B - R_A) = K / (K - 1) * sum u_i^2`` over the K match indices where the group
    played in either run. With independent runs this is the sum of the two variances on
    average; with paired runs it also subtracts their covariance."""
    a, b = _clusters(run_a, by), _clusters(run_b, by)
    j = (a.join(b, on=["group", "match_id"], how="full", coalesce=True, suffix="_b")
         .fill_null(0).sort("group", "match_id"))  # fixed order: bit-identical float sums
    totals = j.group_by("group", maintain_order=True).agg(
        pl.len().alias("k"), pl.col("n").sum().alias("na"), pl.col("n_b").sum().alias("nb"),
        *(pl.col(y).sum().alias(f"{y}_ya") for y in _PAIRED.values()),
        *(pl.col(f"{y}_b").sum().alias(f"{y}_yb") for y in _PAIRED.values()))
    j = j.join(totals, on="group")
    parts = {}
    for metric, y in _PAIRED.items():
        ra, rb = pl.col(f"{y}_ya") / pl.col("na"), pl.col(f"{y}_yb") / pl.col("nb")
        parts[metric] = ((pl.col(f"{y}_b") - rb * pl.col("n_b")) / pl.col("nb")
                         - (pl.col(y) - ra * pl.col("n")) / pl.col("na"))
    out = j.group_by("group", maintain_order=True).agg(
        pl.col("k").first(), pl.col("na").first(), pl.col("nb").first(),
        *((u * u).sum().alias(f"{m}_ss") for m, u in parts.items()))
    defined = (pl.col("k") >= 2) & (pl.col("na") > 0) & (pl.col("nb") > 0)
    return out.select("group", *(
        pl.when(defined).then((pl.col("k") / (pl.col("k") - 1) * pl.col(f"{m}_ss")).sqrt())
        .alias(f"{m}_paired_se") for m in _PAIRED))


def preset_changes(a: Any, b: Any) -> list[dict[str, Any]]:
    """Options whose values differ between two resolved presets (``run.json`` ``preset``
    dicts), as ``{option, a, b}``; the ``[cards]`` options are named ``cards.<key>``. The
    description is left out (it does not change play)."""
    flat_a, flat_b = _flatten(a if isinstance(a, dict) else {}), _flatten(
        b if isinstance(b, dict) else {})
    out = []
    for key in sorted(set(flat_a) | set(flat_b)):
        if key == "description":
            continue
        if flat_a.get(key) != flat_b.get(key):
            out.append({"option": key, "a": flat_a.get(key), "b": flat_b.get(key)})
    return out


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in d.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


__all__ = ["COMPARED", "Comparison", "compare_runs", "paired_se", "preset_changes",
           "shared_matches"]
