"""A card trial's rows in a report: each card's verdict against the deck's balance band (read
from :func:`pipeline.analytics.verdict.verdict_table`, the one place verdicts come from), in
the order a designer reads them, with the paragraph that sums them up and the nerf, buff and
undecided lists.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.report import fmt

if TYPE_CHECKING:
    from pipeline.report.build import ReportInputs


VERDICT_ORDER = {"above": 0, "below": 1, "at_edge": 2, "undecided": 3, "inside": 4}


VERDICT_FLAGS = {"above": "strong", "below": "weak", "undecided": "not enough data"}


def measure_band(threshold: float, measure: str = "points") -> Any:
    """The deck's band a report judges ``measure`` by: +/- ``threshold`` points per hand, or
    the placement measure's own default half-width, zone and unit."""
    from pipeline.sim.card_value import DEFAULT_THRESHOLD, DEFAULT_ZONE, UNITS
    from pipeline.verdicts import BandSpec

    if measure == "points":
        return BandSpec(threshold=threshold)
    return BandSpec(threshold=DEFAULT_THRESHOLD[measure], zone=DEFAULT_ZONE[measure],
                    unit=UNITS[measure], digits=1)


def report_trial_rows(trial: Path, threshold: float, measure: str = "points") -> Any:
    """The trial's cards with their verdicts against the deck's band in ``measure`` (read from
    the one place, :func:`pipeline.analytics.verdict.verdict_table`; ``threshold`` is in
    points per hand, the placement band's is its default), the position's 95% interval, and
    the figures' colour key (``flag``: a nerf, a buff, or hollow while undecided)."""

    from pipeline.analytics.verdict import verdict_table

    table = verdict_table(trial, measure_band(threshold, measure), measure=measure)
    return table.with_columns(
        relative_lo=pl.col("relative") - 1.96 * pl.col("relative_se"),
        relative_hi=pl.col("relative") + 1.96 * pl.col("relative_se"),
        flag=pl.col("verdict").replace_strict(VERDICT_FLAGS, default="",
                                              return_dtype=pl.String))


def _trial_rows(inputs: ReportInputs) -> list[dict[str, Any]]:
    """The trial's cards in the order of their verdicts (nerfs, buffs, at an edge, undecided,
    inside), best ability value first within each (empty without a trial)."""
    if inputs.trial is None:
        return []
    rows = inputs.trial.sort("value", descending=True, nulls_last=True).to_dicts()
    return sorted(rows, key=lambda r: VERDICT_ORDER.get(r.get("verdict") or "", 5))


def _trial_verdict(rows: list[dict[str, Any]], inputs: ReportInputs) -> str:
    count = {k: sum(r.get("verdict") == k for r in rows) for k in VERDICT_ORDER}
    first = rows[0] if rows else {}
    band = ""
    if fmt.value(first.get("band_lo")) is not None:
        se = fmt.value(first.get("edge_se")) or 0.0
        placement = first.get("measure") == "placement"
        kind, unit = ("result", "result points per match") if placement else \
            ("pts", "points per hand")
        half = (first["band_hi"] - first["band_lo"]) / 2
        band = (f" The band: {fmt.show(first['band_lo'], kind, True)} to "
                f"{fmt.show(first['band_hi'], kind, True)} {unit}, the deck's average card "
                f"±{fmt.show(half, kind)} (each edge known to ±{fmt.show(1.96 * se, kind)}; "
                f"the average from {first.get('reference')}).")
    return (f"Verdicts from card trials: {len(rows)} cards, each held by one seat and played "
            "every hand, each match played again with the ability off throughout (its value "
            "over the whole match), every hand replayed without it (the hands alone). "
            f"{count['above']} above the balance band (nerf candidates), {count['below']} "
            f"below it (buff candidates), {count['inside']} inside, {count['at_edge']} at an "
            f"edge, {count['undecided']} undecided; among the verdicts given, at most 5% are "
            f"expected to be wrong (Benjamini-Hochberg).{band}")


def _trial_candidates(rows: list[dict[str, Any]], verdict: str) -> list[dict[str, str]]:
    return [{"id": r["card"], "name": r["name"],
             "why": f"ability value {fmt.pts(r.get('relative'), True)} per hand against the "
                    f"deck's average card "
                    f"{fmt.interval(r.get('relative_lo'), r.get('relative_hi'), 'pts', True)}"
                    .strip() + (f" ({r['reason']})" if r.get("reason") else "")
                    if r.get("bound") is None else str(r.get("reason"))}
            for r in rows if r.get("verdict") == verdict]


def _trial_open(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The undecided cards with why, and what would settle them."""
    out = []
    for r in rows:
        if r.get("verdict") != "undecided":
            continue
        more = (f"; about {fmt.count(r['settle_hands'])} more of its hands would settle it"
                if r.get("settle_hands") is not None else "")
        out.append({"id": r["card"], "name": r["name"], "why": f"{r.get('reason')}{more}"})
    return out


TRIAL_NOTE = (
    "The ability value and the in-deck figures answer different questions. The ability value "
    "is what the card's ability adds on every hand to the seat that plays it (the same deal "
    "replayed without the ability), whoever would have chosen it. The in-deck figures are how "
    "the seats did on the hands where the bots chose the card: they mix in the hands it was "
    "chosen for (a card picked when behind looks weak), how often it is chosen (a card rarely "
    "picked is hardly measured), and the luck of those deals.")
