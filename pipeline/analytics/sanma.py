"""The sanma exclusion list: each card's trial value with three players beside its four-player
value, and the cards the rulebook's promised list should name (rule C-23).

The rulebook allows the cards for three players and promises "a list of characters that we
recommend to exclude from sanma matches". A card belongs on it when it cannot be played for
three (:mod:`pipeline.cards.sanma` says why), or when its three-player ability value leaves the
balance band: relative to the three-player deck's average card by more than the band's
threshold: its verdict is ``above`` or ``below`` the band
(:func:`pipeline.analytics.verdict.verdict_table`, the rule the report's nerf and buff
candidates follow; a card without a q-value says why in ``q_note``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from pipeline.analytics.trial import DEFAULT_THRESHOLD, trial_table
from pipeline.cards.sanma import SANMA_CHANGES, SANMA_UNPLAYABLE
from pipeline.sim.provenance import MismatchError, of_folder

Q_LEVEL = 0.05


def sanma_table(sanma_trial: Path, four_trial: Path | None = None,
                threshold: float = DEFAULT_THRESHOLD,
                names: dict[str, str] | None = None) -> pl.DataFrame:
    """One row per card: the three-player trial value (``value``, ``value_lo``, ``value_hi``),
    relative to the deck's average card with its q-value and flag, whether its interval lies
    clear of the band (``out_of_band``), the four-player trial value beside it (``four_*``,
    null without a four-player trial), and the cards that cannot be played for three
    (``playable`` false, ``note`` their reason; for a playable card what reads differently)."""
    from pipeline.analytics.verdict import verdict_table
    from pipeline.verdicts import BandSpec

    check_trials(sanma_trial, four_trial)
    table = verdict_table(sanma_trial, BandSpec(threshold=threshold))
    table = table.with_columns(
        relative_lo=pl.col("relative") - 1.96 * pl.col("relative_se"),
        relative_hi=pl.col("relative") + 1.96 * pl.col("relative_se"),
        out_of_band=pl.col("verdict").is_in(["above", "below"]), playable=pl.lit(True),
        q_note=pl.when(pl.col("q_value").is_null()).then(pl.col("reason")))
    if four_trial is not None:
        four = trial_table(four_trial).select(
            "card", four_value="value", four_lo="value_lo", four_hi="value_hi",
            four_hands="hands")
        table = table.join(four, on="card", how="left")
    else:
        table = table.with_columns(four_value=pl.lit(None, pl.Float64),
                                   four_lo=pl.lit(None, pl.Float64),
                                   four_hi=pl.lit(None, pl.Float64),
                                   four_hands=pl.lit(None, pl.Int64))
    table = table.with_columns(note=pl.col("card").replace_strict(
        SANMA_CHANGES, default="", return_dtype=pl.String))
    names = names or {}
    missing = [{"card": c, "name": names.get(c, c), "playable": False, "note": why}
               for c, why in SANMA_UNPLAYABLE.items() if c not in table["card"].to_list()]
    if missing:
        table = pl.concat([table, pl.DataFrame(missing)], how="diagonal_relaxed")
    return table


def check_trials(sanma_trial: Path, four_trial: Path | None) -> None:
    """A sanma comparison reads a three-player trial and, beside it, a four-player trial of
    the same catalog content: anything else is refused with one line naming both."""
    three = of_folder(sanma_trial, "trial")
    if three.players != 3:
        raise MismatchError(f"sanma exclusions: {three.describe()} is not a three-player "
                            "trial; give a trial of a three-player preset (e.g. cards-sanma)")
    if four_trial is None:
        return
    four = of_folder(four_trial, "trial")
    if four.players != 4 or four.catalog_hash != three.catalog_hash:
        raise MismatchError(f"sanma exclusions: {four.describe()} does not belong with "
                            f"{three.describe()}; the four-player values must come from a "
                            "four-player trial of the same catalog")


def recommended_exclusions(table: pl.DataFrame) -> list[dict[str, Any]]:
    """The list: cards that cannot be played for three, then the cards whose three-player
    value is out of the band (clear of it, q below 0.05), strongest first. Each entry has
    ``card``, ``name``, ``why`` and the figures it rests on."""
    out: list[dict[str, Any]] = []
    for r in table.filter(~pl.col("playable")).iter_rows(named=True):
        out.append({"card": r["card"], "name": r["name"], "kind": "unplayable",
                    "why": r["note"], "value": None, "value_lo": None, "value_hi": None,
                    "q_value": None, "four_value": None})
    flagged = table.filter(pl.col("playable") & pl.col("out_of_band").fill_null(False)
                           ).sort("relative", descending=True)
    for r in flagged.iter_rows(named=True):
        side = "above" if r["relative"] > 0 else "below"
        out.append({"card": r["card"], "name": r["name"], "kind": "strong" if side == "above"
                    else "weak", "why": f"{side} the balance band with three players",
                    "value": r["value"], "value_lo": r["value_lo"], "value_hi": r["value_hi"],
                    "q_value": r["q_value"], "four_value": r.get("four_value")})
    return out


def sanma_view(sanma_trial: Path, four_trial: Path | None = None,
               names: dict[str, str] | None = None) -> dict[str, Any]:
    """What the report's sanma section shows: every card's row and the recommended list."""
    table = sanma_table(sanma_trial, four_trial, names=names)
    rows = table.sort(["playable", "value"], descending=[True, True], nulls_last=True)
    band = table.filter(pl.col("playable")).select("band_lo", "band_hi").row(0) \
        if table.filter(pl.col("playable")).height else (None, None)
    return {"rows": rows.to_dicts(), "exclusions": recommended_exclusions(table),
            "band_lo": band[0], "band_hi": band[1], "four": four_trial is not None,
            "q_level": Q_LEVEL}


def sanma_figure(view: dict[str, Any]) -> Any:
    """Each playable card's three-player value with its 95% interval (and, when measured, its
    four-player value as a hollow dot), the balance band shaded; returns the matplotlib
    figure (the notebook draws it, the report lists the same rows)."""
    import matplotlib.pyplot as plt

    rows = [r for r in view["rows"] if r["playable"] and r.get("value") is not None]
    rows.sort(key=lambda r: r["value"])
    fig, ax = plt.subplots(figsize=(7, max(2.0, 0.28 * len(rows) + 1)))
    if view.get("band_lo") is not None:
        ax.axvspan(view["band_lo"], view["band_hi"], color="#d8efd8", zorder=0,
                   label="balance band (three players)")
    excluded = {e["card"] for e in view["exclusions"]}
    for i, r in enumerate(rows):
        colour = "#b03030" if r["card"] in excluded else "#2f5d8a"
        if r.get("value_lo") is not None:
            ax.plot([r["value_lo"], r["value_hi"]], [i, i], color=colour, lw=1.5)
        ax.plot(r["value"], i, "o", color=colour)
        if r.get("four_value") is not None:
            ax.plot(r["four_value"], i, "o", mfc="none", color="#777777")
    ax.set_yticks(range(len(rows)), [r["name"] for r in rows], fontsize=8)
    ax.set_xlabel("ability value, points per hand (three players; hollow: four players)")
    ax.axvline(0, color="#999999", lw=0.8)
    if view.get("band_lo") is not None:
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig
