"""The tuning page: one card's sweep as a self-contained HTML page (figure embedded, no
network), in the report's style: the curve of the ability value against the parameter with
its intervals and the balance band shaded, the table, and the card text each value prints.

The page only draws what :func:`pipeline.analytics.tune.tune_table` computed, and records the
configuration it shows (the sweep's card, catalog content, preset, seed, bots, levers and the
band) in its head, as a report does, so a page read later says what it belongs to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.figure import Figure

import pipeline
from pipeline.report import fmt
from pipeline.report.build import _write
from pipeline.report.figures import FAINT, PLAIN, STRONG, WEAK, png_data_uri
from pipeline.report.pages import css, environment


def tuning_figure(table: pl.DataFrame, band: dict[str, float]) -> Figure:
    """One panel per lever: the ability value at each value (dot and 95% interval), the
    balance band shaded, the current value marked."""
    from pipeline.analytics.tune import suggest

    levers = table["address"].unique(maintain_order=True).to_list()
    fig = Figure(figsize=(7.5, max(2.6, 2.4 * len(levers))), layout="constrained")
    axes = fig.subplots(len(levers), 1, squeeze=False)[:, 0]
    suggested = suggest(table, band)
    edge = 1.96 * (band.get("se") or 0.0)
    for ax, address in zip(axes, levers, strict=True):
        rows = table.filter(pl.col("address") == address).to_dicts()
        try:  # a numeric parameter on a numeric axis, a reading's choices by position
            xs = [float(r["param_value"]) for r in rows]
            numeric = True
        except (TypeError, ValueError):
            xs, numeric = [float(i) for i in range(len(rows))], False
        ax.axhspan(band["lo"], band["hi"], color="#d5f5e3", zorder=0,
                   label="balance band (the deck's average card ± threshold)")
        if edge:
            for e in (band["lo"], band["hi"]):
                ax.axhspan(e - edge, e + edge, color="#f3e5ab", alpha=0.7, zorder=0,
                           label="an edge's 95% uncertainty" if e == band["lo"] else None)
        ax.axhline(band["mean"], color=FAINT, lw=1, zorder=1, label="the deck's average card")
        ax.plot([], [], "o", color=PLAIN, label="value inside the band")
        ax.plot([], [], "o", color=STRONG, label="above the band")
        ax.plot([], [], "o", color=WEAK, label="below the band")
        ax.plot([], [], "o", color=PLAIN, mfc="white", label="the catalog's value now")
        if address in suggested and suggested[address]["value"] is not None:
            s = suggested[address]
            if s["lo"] is not None:
                ax.axvspan(s["lo"], s["hi"], color="#e8daef", alpha=0.6, zorder=0)
            ax.axvline(s["value"], color="#7d3c98", lw=1.5, ls="--",
                       label=f"suggested {s['value']:.2f} (interval shaded)")
        for x, r in zip(xs, rows, strict=True):
            colour = PLAIN if r["in_band"] else (STRONG if (r["value"] or 0) > band["hi"]
                                                 else WEAK)
            if r["value_lo"] is not None and r["value_hi"] is not None:
                ax.plot([x, x], [r["value_lo"], r["value_hi"]], color=colour, lw=2)  # 95%
            if r["value"] is not None:
                ax.plot([x], [r["value"]], "o", color=colour, ms=7 if r["current"] else 5,
                        mfc="white" if r["current"] else colour)
        ax.set_xticks(xs, [f"{r['param_value']}{' (now)' if r['current'] else ''}"
                           for r in rows])
        pad = (max(xs) - min(xs)) * 0.08 if numeric and len(xs) > 1 else 0.5
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
        ax.set_xlabel(address.split(".", 1)[1] + (" (value)" if numeric else " (choice)"))
        ax.set_ylabel("ability value, points per hand")
        ax.set_title(address, fontsize=10, loc="left")
        ax.legend(fontsize=7, loc="best")
    return fig


SWEEP_KEYS = ("card", "seed", "preset", "players", "catalog", "catalog_hash", "target",
              "budget_hands", "bots", "levers", "band_trial", "band")


def sweep_config(doc: dict[str, Any], band: dict[str, float]) -> tuple[str, str]:
    """The digest and the words of what a tuning page shows: the sweep's configuration (its
    ``tune.json``) and the band it was judged by."""
    from pipeline.sim.provenance import config_digest, of_record

    config = {"sweep": {k: doc.get(k) for k in SWEEP_KEYS},
              "band": {k: band.get(k) for k in ("lo", "hi")}}
    words = (f"sweep of {doc.get('card')}: "
             f"{of_record('sweep', Path('(sweep)'), doc).words()}, band "
             f"{band.get('lo', 0):+,.0f} to {band.get('hi', 0):+,.0f}")
    return config_digest(config), words


def tuning_html(table: pl.DataFrame, band: dict[str, float], doc: dict[str, Any],
                card_name: str) -> str:
    """The page's HTML (every text from data escaped by the template engine)."""
    rows = table.to_dicts()
    inside = [r for r in rows if r["in_band"]]
    digest, words = sweep_config(doc, band)
    return environment().get_template("tuning.html").render(
        config_digest=digest, config_words=words,
        title=f"Tuning {card_name}", card_name=card_name, css=css(),
        generator=getattr(pipeline, "__version__", ""),
        figure=png_data_uri(tuning_figure(table, band)), rows=rows, band=band,
        inside=inside, doc=doc, fmt=fmt, dumps=json.dumps)


def write_tuning_page(table: pl.DataFrame, band: dict[str, float], doc: dict[str, Any],
                      card_name: str, out: Path) -> Path:
    """Write the page through a temporary file (never half-written)."""
    out = Path(out)
    _write(out, tuning_html(table, band, doc, card_name))
    return out


__all__ = ["sweep_config", "tuning_figure", "tuning_html", "write_tuning_page"]
