"""Each card's verdict against the balance band, from a trial folder.

:func:`card_values` is the one place a card's value and its interval come from (today the
trial's ability value, :mod:`pipeline.analytics.trial`); the verdict, the report, the
comparisons and the tuning read it, so another measure of a card's worth is plugged in there.

:func:`verdict_table` adds to it each card's verdict (:mod:`pipeline.verdicts`): ``above``,
``inside``, ``below``, ``at_edge`` or ``undecided`` with its ``reason`` and ``settle_hands``,
the band used (``band_lo``, ``band_hi`` and their standard error ``edge_se``), the card's
position against the deck's average card (``relative``, ``relative_se``), its ``p_value`` and
``q_value``, and where the deck's average card came from (``reference``).

The deck's average card is always the whole deck's: the folder's own cards when it tried every
card of its preset's deck, else a stored deck trial of the same preset, catalog and bots
(:func:`pipeline.sim.trial.find_deck_trial`); with neither, a card is not judged against the
deck's band and says why. An absolute band (``BandSpec(lo=..., hi=...)``) needs no reference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.analytics.trial import card_tables, in_measure, read_trial_doc, trial_table
from pipeline.bots.expert import EXPERT_STYLE
from pipeline.bots.policies import EXPERT_POLICY
from pipeline.sim.trial import (
    CHANGED_QUANTILE,
    find_deck_trial,
    grid_fraction,
    look_grid,
    look_shape,
)
from pipeline.verdicts import MIN_CHANGED, BandSpec, Evidence, Reference, Verdict, decide

VERDICT_COLUMNS = ("verdict", "band_lo", "band_hi", "edge_se", "relative", "relative_se",
                   "p_value", "q_value", "reason", "settle_hands", "bound", "reference")


def card_values(out: Path, cards: tuple[str, ...] | None = None,
                measure: str = "points") -> pl.DataFrame:
    """One row per card: ``value``, ``value_lo``, ``value_hi``, ``value_se``, ``matches``,
    ``hands``, ``changed`` (and the trial's other columns), the value in ``measure``
    (``points`` per hand over whole matches, or ``placement``: result points per match)."""
    return in_measure(trial_table(out, cards), measure)


def deck_of(doc: dict[str, Any]) -> list[str] | None:
    """The cards of the trial's deck: kept in ``trial.json``; for an older folder, worked out
    from its preset and (unchanged) catalog, else None."""
    if doc.get("deck"):
        return list(doc["deck"])
    try:
        from pipeline.cards.catalog import load_catalog
        from pipeline.rules.preset import preset_from_dict
        from pipeline.sim.trial import trial_deck

        catalog = load_catalog(doc["catalog"]["version"])
        if catalog.content_hash() != doc["catalog"]["content_hash"]:
            return None
        return trial_deck(catalog, preset_from_dict(doc["preset"], "trial.json"))
    except Exception:  # noqa: BLE001 - any failure means the deck cannot be told
        return None


def deck_reference(out: Path, doc: dict[str, Any] | None = None,
                   table: pl.DataFrame | None = None, measure: str = "points"
                   ) -> Reference | None:
    """The whole deck's average card for the trial in ``out`` (see the module's docstring)."""
    doc = doc if doc is not None else read_trial_doc(out)
    deck = deck_of(doc)
    if not deck:
        return None
    measured = set(doc.get("blocks", {}))
    if set(deck) <= measured:
        have = table if table is not None and set(deck) <= set(table["card"]) else \
            card_values(out, tuple(deck), measure)
        rows = have.filter(pl.col("card").is_in(deck))
        return _reference(rows, f"this trial's {len(deck)} cards")
    identity = {k: doc.get(k) for k in ("schema_version", "kind", "preset", "catalog", "seed",
                                         "bots", "block")}
    folder = find_deck_trial(identity, set(deck), Path(out))
    if folder is None:
        return None
    rows = card_values(folder, tuple(deck), measure)
    stored = read_trial_doc(folder)
    return _reference(rows, f"the stored deck trial {folder} (seed {stored.get('seed')}, "
                            f"{int(rows['hands'].sum()):,} hands)")


def _reference(rows: pl.DataFrame, source: str) -> Reference:
    return Reference.of({r["card"]: (r["value"], _num(r["value_se"]))
                         for r in rows.iter_rows(named=True)}, source)


def changed_magnitude(out: Path, cards: list[str]) -> float:
    """The 99th percentile of |value| of the pairs that differ, the cards pooled."""
    from pipeline.analytics.paired import pair_value_expr

    blocks = read_trial_doc(out).get("blocks", {})
    parts = []
    for card in cards:
        pairs = card_tables(out, card, int(blocks[card]), ("pairs",)).get("pairs")
        if pairs is not None and pairs.height:
            parts.append(pairs.select(pair_value_expr(pairs.columns).abs().alias("v"))
                         .filter(pl.col("v") > 0))
    pooled = pl.concat(parts) if parts else None
    if pooled is None or not pooled.height:
        return math.nan
    return float(pooled["v"].quantile(CHANGED_QUANTILE, interpolation="higher"))


def verdict_table(out: Path, band: BandSpec | None = None, cards: tuple[str, ...] | None = None,
                  table: pl.DataFrame | None = None, measure: str = "points") -> pl.DataFrame:
    """:func:`card_values` in ``measure`` (or ``table``, already read) with each card's
    verdict columns (:data:`VERDICT_COLUMNS`). The few-changes bound is in points per hand:
    for ``placement`` it is not used (a card with too few changed hands stays undecided)."""
    band = band or BandSpec()
    doc = read_trial_doc(out)
    table = table if table is not None else card_values(out, cards, measure)
    reference = None if band.absolute else deck_reference(out, doc, table, measure)
    deck = deck_of(doc) if reference is not None and \
        set(deck_of(doc) or []) <= set(doc.get("blocks", {})) else list(table["card"])
    evidence = evidence_of(out, doc, table, measure, deck)
    verdicts = decide(evidence, band, reference)
    return with_expert_value(with_verdicts(table, verdicts, band, reference), doc)


def evidence_of(out: Path, doc: dict[str, Any], table: pl.DataFrame, measure: str,
                deck: list[str]) -> list[Evidence]:
    """What the verdicts read of each row of ``table`` (the trial folder ``out``'s cards):
    its value, the looks it was raced with and where on their grid, and (for the few-changes
    bound, in points) what a changed hand of ``deck`` is worth."""
    magnitude = math.nan
    if measure == "points" and (table["changed"] < MIN_CHANGED).any():
        magnitude = changed_magnitude(out, [c for c in deck if c in doc.get("blocks", {})])
    looks, shape, grid = int(doc.get("looks", 1)), look_shape(doc), look_grid(doc)
    blocks = doc.get("blocks", {})
    return [Evidence(r["card"], r["value"], _num(r["value_se"]), r["matches"], r["hands"],
                     r["changed"], looks, magnitude,
                     grid_fraction(int(blocks.get(r["card"], 0)), looks, grid), shape,
                     r.get("replayed"), grid)
            for r in table.iter_rows(named=True)]


def folder_evidence(folder: Path, cards: tuple[str, ...], measure: str = "points"
                    ) -> list[Evidence]:
    """The verdicts' reading of ``cards`` in the trial folder ``folder`` (to carry them into
    a racing trial of the deck's other cards: :func:`pipeline.sim.trial.run_trial`)."""
    return evidence_of(folder, read_trial_doc(folder), card_values(folder, cards, measure),
                       measure, list(cards))


def joint_verdict_table(parts: Sequence[tuple[Path, tuple[str, ...]]], band: BandSpec,
                        measure: str = "points") -> pl.DataFrame:
    """The verdicts of one deck measured in several trial folders of the same catalog and
    preset (each ``(folder, cards)``: the cards read from it; a card in two parts is read
    from the first): the deck's average card from all of them, Benjamini-Hochberg across
    them all, as if one trial had measured them (a proposal's joint round re-measures the
    changed cards and those near an edge, and carries the others' values)."""
    tables, evidence, seen = [], [], set()
    for folder, cards in parts:
        wanted = tuple(c for c in cards if c not in seen)
        if not wanted:
            continue
        seen.update(wanted)
        doc = read_trial_doc(folder)
        table = card_values(folder, wanted, measure)
        tables.append(table)
        evidence += evidence_of(folder, doc, table, measure, list(wanted))
    table = pl.concat(tables, how="diagonal_relaxed")
    reference = None
    if not band.absolute:
        reference = _reference(table, f"this deck's {table.height} cards, from "
                                      f"{len(tables)} trial(s)")
    return with_verdicts(table, decide(evidence, band, reference), band, reference)


EXPERT_COLUMNS = ("expert_value", "expert_lo", "expert_hi")


def played_by_expert(doc: dict[str, Any]) -> bool:
    """Whether the trial's holder played the expert style (``--holder-policy expert``, or
    ``heuristic:expert`` at every seat): its values are the cards' values for an expert."""
    bots = doc.get("bots") or []
    return doc.get("holder_policy") == EXPERT_POLICY or \
        bool(bots) and all(b == f"heuristic:{EXPERT_STYLE}" for b in bots)


def with_expert_value(table: pl.DataFrame, doc: dict[str, Any]) -> pl.DataFrame:
    """``table`` with each card's value for an expert player (:data:`EXPERT_COLUMNS`: the
    value and its interval, under their own names) when the expert held the card; as it is
    otherwise."""
    if not played_by_expert(doc):
        return table
    return table.with_columns(pl.col("value").alias("expert_value"),
                              pl.col("value_lo").alias("expert_lo"),
                              pl.col("value_hi").alias("expert_hi"))


def with_verdicts(table: pl.DataFrame, verdicts: Sequence[Verdict], band: BandSpec,
                  reference: Reference | None) -> pl.DataFrame:
    """``table`` (one row per card) with each card's verdict columns
    (:data:`VERDICT_COLUMNS`), whatever value the verdicts were asked on."""
    source = ("the band given" if band.absolute else
              reference.source if reference is not None else "none")
    extra = pl.DataFrame([{
        "card": v.card, "verdict": v.verdict, "band_lo": _none(v.band_lo),
        "band_hi": _none(v.band_hi), "edge_se": _none(v.edge_se), "relative": _none(v.x),
        "relative_se": _none(v.x_se), "p_value": _none(v.p_value), "q_value": _none(v.q_value),
        "reason": v.reason, "settle_hands": v.settle_hands, "bound": _none(v.bound),
        "reference": source} for v in verdicts], schema=_schema())
    return table.join(extra, on="card", how="left", maintain_order="left")


def _schema() -> dict[str, pl.DataType]:
    schema: dict[str, pl.DataType] = {"card": pl.String}
    for c in VERDICT_COLUMNS:
        schema[c] = (pl.String if c in ("verdict", "reason", "reference") else
                     pl.Int64 if c == "settle_hands" else pl.Float64)
    return schema


def _num(x: float | None) -> float:
    return math.nan if x is None else float(x)


def _none(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def verdict_counts(df: pl.DataFrame) -> dict[str, int]:
    """How many cards got each verdict (every verdict named, zeros included)."""
    from pipeline.verdicts import VERDICTS

    return {k: int((df["verdict"] == k).sum()) for k in VERDICTS}


def compare_verdicts(trial_a: Path, trial_b: Path, band: BandSpec | None = None,
                     changed: set[str] | frozenset[str] = frozenset(),
                     measure: str = "points") -> pl.DataFrame:
    """Did it work? One row per card tried on both sides: each side's ability value and
    verdict (each against its own deck's band), the change B minus A with its 95% interval
    (paired by match when both trials share the seed: the same deals), whether the card's
    text changed (``changed``), and for it ``inside_now``: ``yes`` (B inside the band or at an
    edge), ``no`` (B above or below) or ``not decided``; values, band and change in
    ``measure``."""
    from pipeline.analytics.trial import value_difference

    a = verdict_table(Path(trial_a), band, measure=measure)
    b = verdict_table(Path(trial_b), band, measure=measure)
    paired = read_trial_doc(trial_a).get("seed") == read_trial_doc(trial_b).get("seed")
    keep = ("card", "name", "value", "value_lo", "value_hi", "verdict", "band_lo", "band_hi",
            "matches")
    both = a.select(keep).join(b.select(keep), on="card", suffix="_b", how="inner")
    rows = []
    for r in both.iter_rows(named=True):
        d = value_difference(Path(trial_a), Path(trial_b), r["card"], paired=paired,
                             measure=measure)
        verdict_b = r["verdict_b"]
        inside = ("yes" if verdict_b in ("inside", "at_edge") else
                  "no" if verdict_b in ("above", "below") else "not decided")
        rows.append({**{k: r[k] for k in keep}, "value_b": r["value_b"],
                     "value_lo_b": r["value_lo_b"], "value_hi_b": r["value_hi_b"],
                     "verdict_b": verdict_b, "band_lo_b": r["band_lo_b"],
                     "band_hi_b": r["band_hi_b"], "change": _none(d["diff"]),
                     "change_lo": _none(d["lo"]), "change_hi": _none(d["hi"]),
                     "paired": paired, "changed": r["card"] in changed,
                     "inside_now": inside if r["card"] in changed else None,
                     "few": min(r["matches"], r["matches_b"]) < 16})
    frame = pl.DataFrame(rows, infer_schema_length=None)
    if not frame.height:
        return frame
    return frame.sort(["changed", "change"], descending=[True, False], nulls_last=True)


__all__ = ["VERDICT_COLUMNS", "card_values", "changed_magnitude", "compare_verdicts",
           "deck_of", "deck_reference", "verdict_counts", "verdict_table"]
