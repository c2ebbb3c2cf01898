"""Fitting the bots' pick estimates to card trials, and checking the fit on unseen matches.

For each card of a trial folder: its raw pick estimate averaged over typical starting
situations (:func:`pipeline.bots.pick_offsets.estimate_means`), its trial value (the ability's
mean points per hand), and the gap between them. The fitted offset is the gap shrunk by how
noisy the trial value is (empirical Bayes: a card's gap keeps the share ``tau^2 / (tau^2 +
se^2)`` of its distance from the cards' mean gap, with ``tau^2`` the spread of the gaps beyond
sampling noise), so a card measured on a few matches moves its estimate less.

The check that the fit helps: the trial's matches are split in two halves (alternate blocks of
four, so each half has every seat), offsets are fitted on one half, and the rank correlation
with the other half's values is compared for the raw and the fitted estimates.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import polars as pl

from pipeline.analytics.intervals import mean_by_group
from pipeline.analytics.trial import BLOCK, card_clusters, read_trial_doc, trial_table
from pipeline.cards.catalog import Catalog
from pipeline.sim.provenance import MismatchError, card_measures, of_folder
from pipeline.stats import spearman

COLUMNS = ("card", "name", "kinds", "estimate", "value", "half_width", "gap", "offset",
           "fitted")


@dataclass(frozen=True)
class FitCheck:
    """How well estimates rank the cards: over every match, and on held-out halves."""

    cards: int
    raw: float            # Spearman of raw estimate and trial value, all matches
    fitted: float         # the same for the fitted estimate (optimistic: fitted on them)
    held_out_raw: float   # raw estimate against one half's values (mean of the two ways)
    held_out_fitted: float  # estimate fitted on one half, against the other half
    halves: float         # the two halves' values against each other (the ceiling)

    def as_dict(self) -> dict[str, float | int]:
        return {k: getattr(self, k) for k in ("cards", "raw", "fitted", "held_out_raw",
                                              "held_out_fitted", "halves")}


def shrunk_offsets(gaps: Sequence[float], ses: Sequence[float | None]) -> list[float]:
    """Each gap pulled towards the mean gap by its noise (a degenerate card, whose value is an
    exact zero because the ability never moved points, keeps its whole gap)."""
    if not gaps:
        return []
    se2 = [0.0 if s is None or not math.isfinite(s) else s * s for s in ses]
    mean = sum(gaps) / len(gaps)
    spread = sum((g - mean) ** 2 for g in gaps) / max(len(gaps) - 1, 1)
    tau2 = max(0.0, spread - sum(se2) / len(se2))
    out = []
    for g, s2 in zip(gaps, se2, strict=True):
        w = 1.0 if s2 == 0 else tau2 / (tau2 + s2)
        out.append(mean + w * (g - mean))
    return out


def fit_table(trial: pl.DataFrame, means: Mapping[str, float],
              kinds: Mapping[str, Sequence[str]]) -> pl.DataFrame:
    """One row per card of ``trial`` (a :func:`trial_table`): the columns of :data:`COLUMNS`."""
    rows = [r for r in trial.iter_rows(named=True) if r["card"] in means]
    gaps = [r["value"] - means[r["card"]] for r in rows]
    offsets = shrunk_offsets(gaps, [r["value_se"] for r in rows])
    return pl.DataFrame([{
        "card": r["card"], "name": r["name"], "kinds": ", ".join(kinds.get(r["card"], ())),
        "estimate": means[r["card"]], "value": r["value"], "half_width": r["half_width"],
        "gap": g, "offset": o, "fitted": means[r["card"]] + o}
        for r, g, o in zip(rows, gaps, offsets, strict=True)],
        schema={c: pl.String if c in ("card", "name", "kinds") else pl.Float64
                for c in COLUMNS}, orient="row")


def half_values(out: Path, cards: Sequence[str]) -> dict[str, tuple[tuple[float, float | None],
                                                                  tuple[float, float | None]]]:
    """Each card's (value, se) on the two halves of its matches (alternate blocks of four)."""
    halves = {}
    for card in cards:
        c = card_clusters(out, card).with_columns(half=(pl.col("match_id") // BLOCK) % 2)
        est = {r["half"]: (r["mean"], r["se"])
               for r in mean_by_group(c, "half", "s", "n").iter_rows(named=True)}
        halves[card] = (est.get(0, (math.nan, None)), est.get(1, (math.nan, None)))
    return halves


def check_fit(out: Path, table: pl.DataFrame) -> FitCheck:
    """Rank correlations of estimates and trial values (see :class:`FitCheck`)."""
    cards = table["card"].to_list()
    est = dict(zip(cards, table["estimate"].to_list(), strict=True))
    halves = half_values(out, cards)
    usable = [c for c in cards if all(math.isfinite(halves[c][h][0]) for h in (0, 1))]
    raw_ho, fit_ho = [], []
    for fit_half in (0, 1):
        other = 1 - fit_half
        gaps = [halves[c][fit_half][0] - est[c] for c in usable]
        offsets = shrunk_offsets(gaps, [halves[c][fit_half][1] for c in usable])
        target = [halves[c][other][0] for c in usable]
        raw_ho.append(spearman([est[c] for c in usable], target))
        fit_ho.append(spearman([est[c] + o for c, o in zip(usable, offsets, strict=True)],
                               target))
    return FitCheck(
        cards=len(cards), raw=spearman(table["estimate"].to_list(), table["value"].to_list()),
        fitted=spearman(table["fitted"].to_list(), table["value"].to_list()),
        held_out_raw=sum(raw_ho) / 2, held_out_fitted=sum(fit_ho) / 2,
        halves=spearman([halves[c][0][0] for c in usable], [halves[c][1][0] for c in usable]))


def kind_summary(table: pl.DataFrame) -> pl.DataFrame:
    """Per effect kind: the cards using it, their mean estimate, value and gap."""
    return (table.with_columns(kind=pl.col("kinds").str.split(", ")).explode("kind")
            .group_by("kind", maintain_order=True).agg(cards=pl.col("name").sort().str.join(", "),
                                  estimate=pl.col("estimate").mean(),
                                  value=pl.col("value").mean(), gap=pl.col("gap").mean())
            .sort("gap"))


def offsets_toml(table: pl.DataFrame, out: Path, check: FitCheck, samples: int) -> str:
    """The shipped offsets file's text (``pipeline/data/bots/pick_offsets.toml``)."""
    doc = read_trial_doc(out)
    lines = [
        "# Pick-estimate offsets fitted from a card trial (points per hand), read by",
        "# pipeline/bots/pick_offsets.py. Generated; do not edit by hand. Regenerate with:",
        f"#   saki trial --budget-hands N --seed S --out TRIAL && saki bots fit-picks TRIAL "
        f"--hands {samples} --out pipeline/data/bots/pick_offsets.toml",
        "# offset = (trial value - estimate), shrunk by the value's noise; estimate = the raw",
        f"# estimate's mean over {samples} sampled starting situations.",
        "",
        "[source]",
        f"trial = {_q(Path(out).name)}",
        f"generated = {_q(date.today().isoformat())}",
        f"cards = {check.cards}",
        f"samples = {samples}",
        f"spearman_raw = {check.raw:.3f}",
        f"spearman_held_out_raw = {check.held_out_raw:.3f}",
        f"spearman_held_out_fitted = {check.held_out_fitted:.3f}",
    ]
    measures = card_measures(doc)  # each fitted card's own, not the folder's last trial's
    used = {json.dumps(measures.get(c), sort_keys=True) for c in table["card"].to_list()}
    measure = measures.get(table["card"][0], {}) if len(used) == 1 and table.height else {}
    source = {"preset": (doc.get("preset") or {}).get("name"),
              "catalog": (doc.get("catalog") or {}).get("version"),
              "catalog_hash": (doc.get("catalog") or {}).get("content_hash"),
              "seed": doc.get("seed"), "budget_hands": measure.get("budget_hands"),
              "target": measure.get("target")}
    for key, value in source.items():
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            lines.append(f"{key} = {_q(value) if isinstance(value, str) else value}")
    for r in table.sort("card").iter_rows(named=True):
        half = "nan" if r["half_width"] is None else f"{r['half_width']:.1f}"
        lines += ["", f"[cards.{r['card']}]", f"offset = {r['offset']:.1f}",
                  f"estimate = {r['estimate']:.1f}", f"value = {r['value']:.1f}",
                  f"half_width = {half}"]
    return "\n".join(lines) + "\n"


def _q(text: object) -> str:
    return json.dumps(str(text), ensure_ascii=False)  # a TOML basic string


def fit_trial(out: Path, catalog: Catalog, samples: int = 400
              ) -> tuple[pl.DataFrame, FitCheck]:
    """The fit table and its check for the trial folder ``out``."""
    from pipeline.bots.pick_offsets import estimate_means

    played = of_folder(out, "trial")
    if played.catalog_hash != catalog.content_hash():
        raise MismatchError(
            f"fit-picks: {played.describe()}, but --catalog {catalog.version} is content "
            f"{catalog.content_hash()[:8]}; fit a trial with the catalog it was played with "
            f"(--catalog {played.catalog}), or play a trial of {catalog.version}")
    trial = trial_table(out)
    cards = [c for c in trial["card"].to_list() if c in catalog.ids]
    means = estimate_means(catalog, cards, samples)
    kinds = {c: [e.kind for e in catalog.card(c).effects] for c in cards}
    table = fit_table(trial, means, kinds)
    return table, check_fit(out, table)


__all__ = ["COLUMNS", "FitCheck", "check_fit", "fit_table", "fit_trial", "half_values",
           "kind_summary", "offsets_toml", "shrunk_offsets"]
