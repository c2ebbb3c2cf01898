"""A tuning sweep's table: the card's ability value at each value of a parameter, each step's
difference with its own interval, and which values lie in the balance band.

Every value's trial plays the same match indices (common random numbers, see
:mod:`pipeline.sim.tune`), so the difference between two values is measured on paired matches:
each value's ability value is a ratio ``R = sum s / sum n`` over its matches (``s`` the sum of
the holder's paired differences in a match, ``n`` its hands); linearised, the difference
contributes per match index ``u_i = (s_Bi - R_B n_Bi) / N_B - (s_Ai - R_A n_Ai) / N_A`` (a
match played by one value only adds its own term), and ``var(R_B - R_A) = K / (K - 1) sum
u_i^2`` over the K match indices. With independent matches this is the sum of the two
variances; with shared deals it also takes their covariance away, which is the point.

The balance band is the deck's average card value (a trial of every deck card with the same
catalog and preset) plus or minus the threshold the report flags at. A value is *in the band*
when its whole interval lies inside it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.analytics.runs import AnalyticsError
from pipeline.analytics.trial import card_clusters, trial_table
from pipeline.datafiles import show_value
from pipeline.sim.provenance import check_same_deck, of_folder, of_record
from pipeline.stats import Z95

DEFAULT_THRESHOLD = 300.0  # points per hand: the report's flag threshold


def match_sums(trial_out: Path, card: str) -> pl.DataFrame:
    """Per match of the card's trial: ``s`` and ``n`` of its value (the trial table's, from
    :func:`pipeline.analytics.trial.card_clusters`: the one definition)."""
    return card_clusters(trial_out, card)


def paired_difference(a: pl.DataFrame, b: pl.DataFrame, z: float = Z95
                      ) -> dict[str, float | None]:
    """``B - A`` of two values' ability values measured on paired matches (the module
    docstring): ``diff``, ``diff_lo``, ``diff_hi``, ``diff_se``; None where undefined."""
    j = (a.join(b, on="match_id", how="full", coalesce=True, suffix="_b").fill_null(0.0)
         .sort("match_id"))  # a join's row order is not fixed; float sums depend on it
    na, nb = float(j["n"].sum()), float(j["n_b"].sum())
    k = j.height
    if na <= 0 or nb <= 0:
        return {"diff": None, "diff_lo": None, "diff_hi": None, "diff_se": None}
    ra, rb = float(j["s"].sum()) / na, float(j["s_b"].sum()) / nb
    u = (j["s_b"] - rb * j["n_b"]) / nb - (j["s"] - ra * j["n"]) / na
    ss = float((u * u).sum())
    if k < 2 or ss <= 0:
        return {"diff": rb - ra, "diff_lo": None, "diff_hi": None, "diff_se": None}
    se = math.sqrt(k / (k - 1) * ss)
    return {"diff": rb - ra, "diff_lo": rb - ra - z * se, "diff_hi": rb - ra + z * se,
            "diff_se": se}


def deck_band(trial_out: Path, threshold: float = DEFAULT_THRESHOLD,
              cards: tuple[str, ...] | None = None) -> dict[str, float]:
    """The balance band from a deck trial: ``mean`` (the cards' average ability value, each
    card counted once), ``lo`` and ``hi`` (mean minus and plus ``threshold``), ``cards``, and
    ``se``, the standard error of the mean (so of both edges: a deck trial of 8 matches a
    card leaves them uncertain by tens of points per hand)."""
    from pipeline.verdicts import Reference

    table = trial_table(trial_out, cards)
    rows = [(r["card"], r["value"], r["value_se"]) for r in table.iter_rows(named=True)
            if r["value"] is not None]
    if not rows:
        raise AnalyticsError(f"{trial_out}: no card value to draw the band from")
    ref = Reference.of({c: (v, se if se is not None else math.nan) for c, v, se in rows},
                       str(trial_out))
    return {"mean": ref.mean, "lo": ref.mean - threshold, "hi": ref.mean + threshold,
            "threshold": threshold, "cards": float(len(rows)), "se": ref.se}


def sweep_band(doc: dict[str, Any], threshold: float = DEFAULT_THRESHOLD,
               sweep: Path | None = None) -> dict[str, float]:
    """The band a sweep is judged by: the one it was given (``--band``), else the deck
    trial's average plus or minus ``threshold``. The deck trial's path is kept as ``saki
    tune`` was given it (relative to where it ran); with ``sweep`` (the sweep's folder, under
    ``data/runs`` of that place) it is also found from another working folder, e.g. a
    notebook's."""
    if doc.get("band"):
        lo, hi = doc["band"]
        return {"mean": (lo + hi) / 2, "lo": lo, "hi": hi, "threshold": (hi - lo) / 2,
                "cards": 0.0, "se": 0.0}
    if not doc.get("band_trial"):
        raise AnalyticsError("the sweep has neither a band nor a deck trial to draw one from; "
                             "run 'saki tune' again")
    path = Path(doc["band_trial"])
    if not path.is_absolute() and not path.exists() and sweep is not None:
        beside = Path(sweep).resolve().parent / path.name  # data/runs/<trial> beside it
        path = beside if beside.exists() else path
    record = of_record("sweep", Path(sweep) if sweep is not None else Path("(sweep)"), doc)
    check_same_deck("tune", record, of_folder(path, "trial"),
                    "the band comes from a deck trial of the sweep's catalog and preset: run "
                    "'saki tune' again (or give --band LO:HI)")
    return deck_band(path, threshold)


def in_band(lo: float | None, hi: float | None, band: dict[str, float]) -> bool:
    """Whether an interval lies wholly inside the band (an undefined one never does)."""
    return lo is not None and hi is not None and band["lo"] <= lo and hi <= band["hi"]


def tune_table(out: Path, doc: dict[str, Any], band: dict[str, float] | None) -> pl.DataFrame:
    """One row per lever value, levers in order, values in order: ``address``, ``effect``,
    ``param``, ``param_value`` (as written in a catalog), ``current``, the trial's ``value``,
    ``value_lo``, ``value_hi``, ``half_width``, ``degenerate``, ``hands``, ``matches``,
    ``win_rate``, ``deal_in_rate``; ``next_diff``, ``next_lo``, ``next_hi`` (the next value
    of the lever minus this one, on paired matches) and ``in_band``."""
    card = doc["card"]
    texts = {v["slug"]: v["text"] for v in doc["variants"]}
    rows: list[dict[str, Any]] = []
    for lever in doc["levers"]:
        slugs = lever["slugs"]
        sums = [match_sums(Path(out) / "values" / s, card) for s in slugs]
        for i, (slug, value) in enumerate(zip(slugs, lever["values"], strict=True)):
            trial = trial_table(Path(out) / "values" / slug, (card,)).row(0, named=True)
            step = (paired_difference(sums[i], sums[i + 1]) if i + 1 < len(slugs)
                    else {"diff": None, "diff_lo": None, "diff_hi": None})
            rows.append({
                "address": f"{card}.{lever['effect']}.{lever['param']}",
                "effect": lever["effect"], "param": lever["param"],
                "param_value": show_value(value),
                "current": show_value(value) == show_value(lever["current"]),
                "value": trial["value"], "value_lo": trial["value_lo"],
                "value_hi": trial["value_hi"], "half_width": trial["half_width"],
                "degenerate": trial["degenerate"], "hands": trial["hands"],
                "matches": trial["matches"], "win_rate": trial["win_rate"],
                "deal_in_rate": trial["deal_in_rate"], "next_diff": step["diff"],
                "next_lo": step["diff_lo"], "next_hi": step["diff_hi"],
                "in_band": (in_band(trial["value_lo"], trial["value_hi"], band)
                            if band is not None else None),
                "text": texts[slug],
            })
    return pl.DataFrame(rows, infer_schema_length=None)


def suggest(table: pl.DataFrame, band: dict[str, float]) -> dict[str, dict[str, float]]:
    """Per lever with numeric values: the value at which the card would sit on the deck's
    average (the band's centre), interpolated between the two tested values whose ability
    values straddle it, with an interval from the same interpolation of the values' 95%
    bounds (clipped to the tested range): ``value``, ``lo``, ``hi``, ``between`` (the two
    tested values). Levers whose values do not straddle it are left out."""
    out: dict[str, dict[str, float]] = {}
    target = band["mean"]
    for (address,), group in table.group_by("address", maintain_order=True):
        rows = group.to_dicts()
        try:
            xs = [float(r["param_value"]) for r in rows]
        except (TypeError, ValueError):
            continue
        for a, b, xa, xb in zip(rows, rows[1:], xs, xs[1:], strict=False):
            va, vb = a["value"], b["value"]
            if va is None or vb is None or va == vb or not (min(va, vb) <= target
                                                             <= max(va, vb)):
                continue

            span = (min(xs), max(xs))
            ends = [x for x in (_cross(a["value_lo"], b["value_lo"], xa, xb, target, span),
                                _cross(a["value_hi"], b["value_hi"], xa, xb, target, span))
                    if x is not None]
            out[address] = {"value": _cross(va, vb, xa, xb, target, span),
                            "lo": min(ends) if ends else None,
                            "hi": max(ends) if ends else None, "between": (xa, xb)}
            break
    return out


def _cross(ya: float | None, yb: float | None, xa: float, xb: float, target: float,
           span: tuple[float, float]) -> float | None:
    """Where the line through (xa, ya) and (xb, yb) reaches ``target``, within ``span``."""
    if ya is None or yb is None or ya == yb:
        return None
    x = xa + (target - ya) / (yb - ya) * (xb - xa)
    return min(max(x, span[0]), span[1])


def lever_ranking(table: pl.DataFrame) -> pl.DataFrame:
    """Per lever: ``move`` (half the value's change from the lowest to the highest value, a
    step's typical effect) with the levers that move the card most first."""
    out = []
    for address, group in table.group_by("address", maintain_order=True):
        vals = group["value"].to_list()
        move = (vals[-1] - vals[0]) / max(1, len(vals) - 1) if None not in vals else None
        out.append({"address": address[0], "values": group["param_value"].to_list(),
                    "move_per_step": move})
    ranked = sorted(out, key=lambda r: -abs(r["move_per_step"] or 0.0))
    return pl.DataFrame(ranked, infer_schema_length=None)


__all__ = ["DEFAULT_THRESHOLD", "deck_band", "in_band", "lever_ranking", "match_sums",
           "paired_difference", "suggest", "sweep_band", "tune_table"]
