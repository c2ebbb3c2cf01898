"""Two runs side by side: how each character's figures moved, and what was changed to get there.

``compare_runs(A, B)`` puts the per-group tables of both runs next to each other. For win rate,
deal-in rate, swing and average placement it gives B - A with a 95% interval; the runs are
independent samples, so the variances add (two runs of one seed share their walls and are in
truth positively correlated: the interval is then on the safe, wide side). The flag is read off
the swing: "up" / "down" when the Benjamini-Hochberg q-value of its change is below 0.05 and the
change exceeds ``threshold`` points per hand; "not enough data" when either run has fewer than
``min_hands`` hands of the group (or has them from fewer than 10 matches). Alongside come the
card changes between the two runs' catalogs and the preset options that differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

from pipeline.analytics.catalogs import card_changes, run_catalog
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
    for metric, (col, se) in COMPARED.items():
        delta_se = (pl.col(se) ** 2 + pl.col(f"{se}_b") ** 2).sqrt()
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
    return Comparison(run_a.label, run_b.label, metrics, changes,
                      preset_changes(run_a.meta.get("preset"), run_b.meta.get("preset")),
                      warnings)


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


__all__ = ["COMPARED", "Comparison", "compare_runs", "preset_changes"]
