"""The report's figures, drawn from the tables :mod:`pipeline.analytics` returns.

Each function takes a polars DataFrame in the analytics contract's shape (``character_table``,
``calibration_table`` or ``Comparison.metrics``) and returns a matplotlib :class:`Figure`; none
computes a metric, they only draw the columns they are given. Figures are built on
:class:`matplotlib.figure.Figure` directly (no pyplot state), so they work in a headless process
with the Agg backend and display as they are in a notebook. :func:`png_data_uri` embeds one in an
HTML page.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Collection, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # reports are drawn without a display; must precede any pyplot import
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pipeline.report.fmt import value  # noqa: E402

STRONG = "#c0392b"   # nerf candidate
PLACE_COLORS = ("#1e8449", "#82e0aa", "#f5b7b1", STRONG)  # 1st, 2nd, 3rd, 4th
WEAK = "#2471a3"     # buff candidate
PLAIN = "#555555"
FAINT = "#bbbbbb"
CHANGED_SHADE = "#fff3c4"  # rows of cards whose text or parameters changed
UP, DOWN = STRONG, WEAK
FLAG_COLOURS = {"strong": STRONG, "weak": WEAK, "up": UP, "down": DOWN}
ROW_INCHES = 0.3


def png_data_uri(fig: Figure, dpi: int = 110) -> str:
    """The figure as a ``data:image/png;base64,...`` URI (no file, no network)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _rows(df: pl.DataFrame, columns: Sequence[str]) -> list[dict[str, Any]]:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"table lacks column(s) {', '.join(missing)}")
    return df.select(columns).to_dicts()


def _label(row: dict[str, Any]) -> str:
    name = row.get("name") or row.get("group") or "?"
    return "(no character)" if name == "(none)" else str(name)


def _empty(fig: Figure, text: str) -> Figure:
    ax = fig.add_subplot()
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", color=PLAIN)
    return fig


def _tall(n: int, extra: float = 1.2, width: float = 8.0) -> Figure:
    return Figure(figsize=(width, max(2.2, extra + ROW_INCHES * n)), layout="constrained")


def tier_forest(table: pl.DataFrame) -> Figure:
    """Point swing per character with its 95% interval, best first (a forest plot).

    Colour: red for a nerf candidate (flag ``strong``), blue for a buff candidate (``weak``);
    hollow markers for groups with too few hands.
    """
    rows = [r for r in _rows(table, ["group", "name", "swing", "swing_lo", "swing_hi", "flag"])
            if value(r["swing"]) is not None]
    fig = _tall(len(rows))
    if not rows:
        return _empty(fig, "no character has a point swing yet")
    ax = fig.add_subplot()
    for y, r in enumerate(rows):
        colour = FLAG_COLOURS.get(r["flag"] or "", PLAIN)
        lo, hi = value(r["swing_lo"]), value(r["swing_hi"])
        if lo is not None and hi is not None:
            ax.plot([lo, hi], [y, y], color=colour, lw=2, solid_capstyle="butt")
        thin = r["flag"] == "not enough data"
        ax.plot(r["swing"], y, "o", ms=6, color=colour,
                markerfacecolor="white" if thin else colour)
    ax.axvline(0, color=FAINT, lw=1, zorder=0)
    ax.set_yticks(range(len(rows)), [_label(r) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel("point swing: mean net points per hand (95% interval)")
    ax.set_title("Tier view: red = nerf candidate, blue = buff candidate, hollow = few hands",
                 fontsize=10)
    ax.grid(axis="x", color="#eeeeee")
    return fig


def win_dealin_scatter(table: pl.DataFrame) -> Figure:
    """Win rate against deal-in rate per character, each with its 95% interval."""
    cols = ["group", "name", "win_rate", "win_lo", "win_hi", "deal_in_rate", "deal_in_lo",
            "deal_in_hi", "flag"]
    rows = [r for r in _rows(table, cols)
            if value(r["win_rate"]) is not None and value(r["deal_in_rate"]) is not None]
    fig = Figure(figsize=(8, 6), layout="constrained")
    if not rows:
        return _empty(fig, "no character has win and deal-in rates yet")
    ax = fig.add_subplot()
    for r in rows:
        colour = FLAG_COLOURS.get(r["flag"] or "", PLAIN)
        x, y = 100 * r["deal_in_rate"], 100 * r["win_rate"]
        xlo, xhi = value(r["deal_in_lo"]), value(r["deal_in_hi"])
        ylo, yhi = value(r["win_lo"]), value(r["win_hi"])
        if xlo is not None and xhi is not None:
            ax.plot([100 * xlo, 100 * xhi], [y, y], color=colour, lw=0.8, alpha=0.5)
        if ylo is not None and yhi is not None:
            ax.plot([x, x], [100 * ylo, 100 * yhi], color=colour, lw=0.8, alpha=0.5)
        ax.plot(x, y, "o", color=colour, ms=6)
        ax.annotate(_label(r), (x, y), xytext=(4, 3), textcoords="offset points", fontsize=8)
    ax.set_xlabel("deal-in rate, % of hands (less is better)")
    ax.set_ylabel("win rate, % of hands (more is better)")
    ax.set_title("Win rate against deal-in rate (lines: 95% intervals)", fontsize=10)
    ax.grid(color="#eeeeee")
    return fig


def placement_bars(table: pl.DataFrame) -> Figure:
    """Placement per character: shares of matches finished first, second, third and last,
    stacked from the left (greens for the top half, reds for the bottom). A table without the
    second and third rates (an older run's) shows first and last only, the middle grey. The
    average placement is written beside each bar."""
    cols = ["group", "name", "top_rate", "last_rate", "avg_place", "avg_place_lo",
            "avg_place_hi", *(c for c in ("second_rate", "third_rate") if c in table.columns)]
    rows = [r for r in _rows(table, cols)
            if value(r["top_rate"]) is not None and value(r["last_rate"]) is not None]
    fig = _tall(len(rows))
    if not rows:
        return _empty(fig, "no placements yet")
    ax = fig.add_subplot()
    for y, r in enumerate(rows):
        top, last = r["top_rate"], r["last_rate"]
        second, third = value(r.get("second_rate")), value(r.get("third_rate"))
        ax.barh(y, 1, color="#e5e5e5", height=0.7)
        ax.barh(y, top, color=PLACE_COLORS[0], height=0.7)
        if second is not None and third is not None:
            ax.barh(y, second, left=top, color=PLACE_COLORS[1], height=0.7)
            ax.barh(y, third, left=top + second, color=PLACE_COLORS[2], height=0.7)
        ax.barh(y, last, left=1 - last, color=PLACE_COLORS[3], height=0.7)
        place = value(r["avg_place"])
        if place is not None:
            ax.text(1.02, y, f"avg {place:.2f}", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [_label(r) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 1.18)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    ax.axvline(0.25, color="white", lw=0.8)
    ax.axvline(0.75, color="white", lw=0.8)
    ax.set_xlabel("share of matches: 1st dark green, 2nd light green, 3rd light red, 4th red")
    ax.set_title("Placement per character (white lines: 25% first, 25% last)", fontsize=10)
    return fig


def pick_rate_bars(table: pl.DataFrame) -> Figure:
    """Pick rate per character (picked when held) with its 95% interval, most picked first."""
    rows = [r for r in _rows(table, ["group", "name", "pick_rate", "pick_lo", "pick_hi"])
            if value(r["pick_rate"]) is not None]
    rows.sort(key=lambda r: -r["pick_rate"])
    fig = _tall(len(rows))
    if not rows:
        return _empty(fig, "no pick rates (a run without cards, or no character held)")
    ax = fig.add_subplot()
    ys = range(len(rows))
    ax.barh(ys, [100 * r["pick_rate"] for r in rows], color="#7f8c8d", height=0.6)
    for y, r in zip(ys, rows, strict=True):
        lo, hi = value(r["pick_lo"]), value(r["pick_hi"])
        if lo is not None and hi is not None:
            ax.plot([100 * lo, 100 * hi], [y, y], color="black", lw=1)
    ax.set_yticks(list(ys), [_label(r) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.set_xlabel("pick rate: % of hands the character was held in which it was picked")
    ax.set_title("Pick rates (lines: 95% intervals)", fontsize=10)
    return fig


def trigger_bars(table: pl.DataFrame) -> Figure:
    """Ability triggers per hand played (left) and the mean value of a trigger (right)."""
    rows = [r for r in _rows(table, ["group", "name", "triggers_per_hand", "trigger_value"])
            if value(r["triggers_per_hand"]) is not None and r["group"] != "(none)"]
    fig = _tall(len(rows), width=9.0)
    if not rows:
        return _empty(fig, "no ability triggers recorded")
    left, right = fig.subplots(1, 2, sharey=True)
    ys = list(range(len(rows)))
    left.barh(ys, [r["triggers_per_hand"] for r in rows], color="#8e44ad", height=0.6)
    left.set_xlabel("triggers per hand played")
    vals = [value(r["trigger_value"]) for r in rows]
    right.barh(ys, [v or 0 for v in vals], color="#d68910", height=0.6)
    for y, v in zip(ys, vals, strict=True):
        if v is None:
            right.text(0, y, " no value", va="center", fontsize=8, color=PLAIN)
    right.set_xlabel("mean value of a trigger (han or points)")
    left.set_yticks(ys, [_label(r) for r in rows])
    left.set_ylim(len(rows) - 0.5, -0.5)
    fig.suptitle("Abilities: how often they fire and what a firing is worth", fontsize=10)
    return fig


def calibration_dots(cal: pl.DataFrame) -> Figure:
    """The bots' rates with their 95% intervals (dots), the human reference (black diamonds) and
    the target range (green band) for each calibration figure given in the table."""
    _rows(cal, ["metric", "value", "lo", "hi", "human", "target_lo", "target_hi"])
    rows = [r for r in cal.to_dicts() if value(r["value"]) is not None]
    rates = [r for r in rows if not is_points_row(r)]
    points = [r for r in rows if is_points_row(r)]
    panels = [p for p in (rates, points) if p]
    fig = Figure(figsize=(8, 1.0 + 0.45 * max(len(rows), 1)), layout="constrained")
    if not panels:
        return _empty(fig, "no calibration figures")
    axes = fig.subplots(len(panels), 1, height_ratios=[len(p) + 0.6 for p in panels],
                        squeeze=False)[:, 0]
    for ax, panel in zip(axes, panels, strict=True):
        scale = 1 if panel is points else 100
        for y, r in enumerate(panel):
            tlo, thi = value(r["target_lo"]), value(r["target_hi"])
            if tlo is not None and thi is not None:
                ax.fill_betweenx([y - 0.3, y + 0.3], scale * tlo, scale * thi, color="#d5f5e3")
            lo, hi = value(r["lo"]), value(r["hi"])
            if lo is not None and hi is not None:
                ax.plot([scale * lo, scale * hi], [y, y], color=PLAIN, lw=2)
            ax.plot(scale * r["value"], y, "o", color=WEAK)
            human = value(r["human"])
            if human is not None:
                ax.plot(scale * human, y, "D", color="black", ms=5)
        ax.set_yticks(range(len(panel)), [str(r.get("label") or r["metric"]) for r in panel])
        ax.set_ylim(len(panel) - 0.5, -0.5)
        ax.set_xlabel("points" if panel is points else "%")
        ax.grid(axis="x", color="#eeeeee")
    axes[0].set_title("Bots (blue, 95% interval) against human play (black diamond); green: "
                      "target range", fontsize=10)
    return fig


def is_points_row(row: dict[str, Any]) -> bool:
    """Calibration rows in points (average win) rather than shares: the row's ``unit`` when the
    table has one, else any number above 1."""
    if row.get("unit"):
        return row["unit"] == "points"
    return any((value(row.get(k)) or 0) > 1 for k in ("value", "human", "target_hi"))


def shift_forest(metrics: pl.DataFrame, metric: str = "swing", label_a: str = "A",
                 label_b: str = "B", *, changed: Collection[str] = ()) -> Figure:
    """Per-character change of one metric between two runs (B minus A) with its 95% interval,
    from ``Comparison.metrics``; red for ``up``, blue for ``down``. The ``changed`` cards (ids)
    get a shaded row and a ✎ on their label, so an edit and its effect are seen together."""
    cols = ["group", "name", f"{metric}_delta", f"{metric}_delta_lo", f"{metric}_delta_hi",
            "flag"]
    rows = [r for r in _rows(metrics, cols) if value(r[f"{metric}_delta"]) is not None]
    rows.sort(key=lambda r: -r[f"{metric}_delta"])
    fig = _tall(len(rows))
    if not rows:
        return _empty(fig, "no character played in both runs")
    ax = fig.add_subplot()
    rate = metric.endswith("_rate")
    scale = 100 if rate else 1
    for y, r in enumerate(rows):
        colour = FLAG_COLOURS.get(r["flag"] or "", PLAIN)
        lo, hi = value(r[f"{metric}_delta_lo"]), value(r[f"{metric}_delta_hi"])
        if lo is not None and hi is not None:
            ax.plot([scale * lo, scale * hi], [y, y], color=colour, lw=2)
        ax.plot(scale * r[f"{metric}_delta"], y, "o", color=colour)
        if r["group"] in changed:
            ax.axhspan(y - 0.5, y + 0.5, color=CHANGED_SHADE, zorder=0, lw=0)
    ax.axvline(0, color=FAINT, lw=1, zorder=0)
    ax.set_yticks(range(len(rows)), [("✎ " if r["group"] in changed else "") + _label(r)
                                     for r in rows])
    for tick, r in zip(ax.get_yticklabels(), rows, strict=True):
        if r["group"] in changed:
            tick.set_fontweight("bold")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    unit = "percentage points" if rate else ("places" if metric == "avg_place"
                                              else "points per hand")
    ax.set_xlabel(f"change of {metric.replace('_', ' ')}, {label_b} minus {label_a}\n"
                  f"({unit}, 95% interval)")
    ax.set_title(f"Shift per character: {label_a} → {label_b}", fontsize=10)
    ax.grid(axis="x", color="#eeeeee")
    return fig


def shift_scatter(metrics: pl.DataFrame, metric: str = "swing", label_a: str = "A",
                  label_b: str = "B") -> Figure:
    """One metric in run A (x) against run B (y) per character; on the diagonal nothing moved."""
    rows = [r for r in _rows(metrics, ["group", "name", f"{metric}_a", f"{metric}_b", "flag"])
            if value(r[f"{metric}_a"]) is not None and value(r[f"{metric}_b"]) is not None]
    fig = Figure(figsize=(7, 6), layout="constrained")
    if not rows:
        return _empty(fig, "no character played in both runs")
    ax = fig.add_subplot()
    xs = [r[f"{metric}_a"] for r in rows]
    ys = [r[f"{metric}_b"] for r in rows]
    for r, x, y in zip(rows, xs, ys, strict=True):
        ax.plot(x, y, "o", color=FLAG_COLOURS.get(r["flag"] or "", PLAIN))
        ax.annotate(_label(r), (x, y), xytext=(4, 3), textcoords="offset points", fontsize=8)
    lo, hi = min(xs + ys), max(xs + ys)
    ax.plot([lo, hi], [lo, hi], color=FAINT, lw=1, zorder=0)
    name = metric.replace("_", " ")
    ax.set_xlabel(f"{name} in {label_a}")
    ax.set_ylabel(f"{name} in {label_b}")
    ax.set_title(f"{name}: {label_a} against {label_b} (diagonal: no change)", fontsize=10)
    ax.grid(color="#eeeeee")
    return fig
