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
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

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


def trial_forest(table: pl.DataFrame, threshold: float | None = None) -> Figure:
    """Each card's ability value relative to the deck's average card, with its interval, best
    first: the tier view when the report has a trial. With ``threshold``, the band's edges
    (dashed) and their own 95% uncertainty (shaded, from ``edge_se``)."""
    frame = table.sort("relative", descending=True, nulls_last=True).select(
        group=pl.col("card"), name=pl.col("name"), swing=pl.col("relative"),
        swing_lo=pl.col("relative_lo"), swing_hi=pl.col("relative_hi"), flag=pl.col("flag"))
    fig = tier_forest(frame)
    se = value(table["edge_se"].drop_nulls().first()) if "edge_se" in table.columns and \
        table["edge_se"].drop_nulls().len() else None
    for ax in fig.axes:
        ax.set_xlabel("ability value against the deck's average card: points per hand (95%)")
        if threshold is not None:
            for edge in (-threshold, threshold):
                if se:
                    ax.axvspan(edge - 1.96 * se, edge + 1.96 * se, color="#f3e5ab", alpha=0.6,
                               zorder=0)
                ax.axvline(edge, color="#7d6608", lw=1, ls="--", zorder=1)
            ax.set_title("Tier view against the band: red = above (nerf), blue = below (buff), "
                         "hollow = undecided", fontsize=10)
    return fig


FEW_HANDS = "not enough data"  # the analytics' flag for a group too small to judge


def _thin(row: dict[str, Any]) -> bool:
    """Too few hands to judge: drawn hollow or faded, its label marked, never hidden."""
    return row.get("flag") == FEW_HANDS


def place_labels(ax: Any, points: Sequence[tuple[float, float]], labels: Sequence[str],
                 fontsize: float = 8) -> list[Any]:
    """Label each point without two labels overprinting: each label tries a ring of offsets
    around its point (right, left, above, below, then further out) and takes the first whose
    box meets no label already placed and no point; a label placed further out gets a thin
    leader line to its point, and one with no free place at all overprints rather than go
    missing. Boxes are worked out from each label's measured size, so only the chosen place
    is drawn. Returns the text artists."""
    fig = ax.figure
    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)  # a figure made without pyplot has no drawing canvas yet
    renderer = fig.canvas.get_renderer()
    scale = fig.dpi / 72  # offsets are in points, boxes in pixels
    near = [(5, 3, "left"), (-5, 3, "right"), (5, -11, "left"), (-5, -11, "right"),
            (0, 8, "center"), (0, -17, "center")]
    far = [(sx * (5 + 28 * k), dy, ha) for k in (1, 2, 3) for dy in (3, -11, 14, -22)
           for sx, ha in ((1, "left"), (-1, "right"))]
    rings = near + far
    marks = [ax.transData.transform(p) for p in points]  # the points are obstacles too
    boxes: list[Any] = [Bbox.from_extents(x - 3, y - 3, x + 3, y + 3) for x, y in marks]
    placed: list[Any] = []
    order = sorted(range(len(points)), key=lambda i: (-points[i][1], points[i][0]))
    for i in order:
        probe = ax.text(*points[i], labels[i], fontsize=fontsize)  # baseline at the point
        size = probe.get_window_extent(renderer)
        probe.remove()
        width, height = size.width * 1.05, size.height * 1.15
        x, y = marks[i]
        below = size.y0 - y  # the descenders reach below the baseline
        choice = None
        for k, (dx, dy, ha) in enumerate(rings):
            left = x + dx * scale - {"left": 0, "right": width, "center": width / 2}[ha]
            box = Bbox.from_bounds(left, y + dy * scale + below, width, height)
            if not any(box.overlaps(b) for b in boxes):
                choice = (k, dx, dy, ha, box)
                break
        k, dx, dy, ha, box = choice or (0, *near[0], Bbox.from_bounds(x, y, width, height))
        placed.append(ax.annotate(
            labels[i], points[i], xytext=(dx, dy), textcoords="offset points",
            fontsize=fontsize, ha=ha, va="baseline",
            arrowprops={"arrowstyle": "-", "color": FAINT, "lw": 0.6} if k >= len(near)
            else None))
        boxes.append(box)
    return placed


def win_dealin_scatter(table: pl.DataFrame) -> Figure:
    """Win rate against deal-in rate per character, each with its 95% interval. Labels are
    placed so they do not overprint; characters with too few hands to judge are grey, hollow
    and unlabelled (their intervals would swamp the picture), and the title counts them."""
    cols = ["group", "name", "win_rate", "win_lo", "win_hi", "deal_in_rate", "deal_in_lo",
            "deal_in_hi", "flag"]
    rows = [r for r in _rows(table, cols)
            if value(r["win_rate"]) is not None and value(r["deal_in_rate"]) is not None]
    fig = Figure(figsize=(8, 6), layout="constrained")
    if not rows:
        return _empty(fig, "no character has win and deal-in rates yet")
    ax = fig.add_subplot()
    points = []
    for r in rows:
        colour = FLAG_COLOURS.get(r["flag"] or "", PLAIN)
        x, y = 100 * r["deal_in_rate"], 100 * r["win_rate"]
        xlo, xhi = value(r["deal_in_lo"]), value(r["deal_in_hi"])
        ylo, yhi = value(r["win_lo"]), value(r["win_hi"])
        alpha = 0.12 if _thin(r) else 0.5
        if xlo is not None and xhi is not None:
            ax.plot([100 * xlo, 100 * xhi], [y, y], color=colour, lw=0.8, alpha=alpha)
        if ylo is not None and yhi is not None:
            ax.plot([x, x], [100 * ylo, 100 * yhi], color=colour, lw=0.8, alpha=alpha)
        ax.plot(x, y, "o", color=FAINT if _thin(r) else colour, ms=5 if _thin(r) else 6,
                markerfacecolor="white" if _thin(r) else colour, zorder=3 if _thin(r) else 4)
        points.append((x, y))
    judged = [i for i, r in enumerate(rows) if not _thin(r)]
    if judged:  # the axes fit the judged characters' intervals and every point, not the
        # few-hands characters' huge intervals, so the crowded middle gets room
        spans = [(100 * value(rows[i][lo]), 100 * value(rows[i][hi])) for i in judged
                 for lo, hi in (("deal_in_lo", "deal_in_hi"),) if value(rows[i][lo]) is not None
                 and value(rows[i][hi]) is not None]
        xs = [p[0] for p in points] + [v for span in spans for v in span]
        ys = [p[1] for p in points] + [100 * v for i in judged for k in ("win_lo", "win_hi")
                                       if (v := value(rows[i][k])) is not None]
        pad_x, pad_y = 0.05 * (max(xs) - min(xs) or 1), 0.05 * (max(ys) - min(ys) or 1)
        ax.set_xlim(min(xs) - pad_x, max(xs) + pad_x)
        ax.set_ylim(min(ys) - pad_y, max(ys) + pad_y)
    FigureCanvasAgg(fig).draw()  # the axes' limits fixed before labels are placed on screen
    labels = place_labels(ax, [points[i] for i in judged], [_label(rows[i]) for i in judged])
    for text in labels:
        text.set_clip_on(True)
    few = len(rows) - len(judged)
    ax.set_xlabel("deal-in rate, % of hands (less is better)")
    ax.set_ylabel("win rate, % of hands (more is better)")
    ax.set_title("Win rate against deal-in rate (lines: 95% intervals)" + (
        f"; {few} with too few hands: grey, unlabelled" if few else ""), fontsize=10)
    ax.grid(color="#eeeeee")
    return fig


def placement_bars(table: pl.DataFrame) -> Figure:
    """Placement per character, two panels with one unit each. Left: shares of matches
    finished first, second, third and last, stacked from the left (greens for the top half,
    reds for the bottom; an older table without the second and third rates shows the middle
    grey). Right: the average placement with its 95% interval. A character with too few hands
    to judge is faded, its label says so, and it comes last."""
    cols = ["group", "name", "top_rate", "last_rate", "avg_place", "avg_place_lo",
            "avg_place_hi", "hands", *(c for c in ("second_rate", "third_rate", "flag")
                                       if c in table.columns)]
    rows = [r for r in _rows(table, cols)
            if value(r["top_rate"]) is not None and value(r["last_rate"]) is not None]
    rows.sort(key=_thin)  # stable: the table's order, the ones too small to judge last
    fig = _tall(len(rows), width=9.0)
    if not rows:
        return _empty(fig, "no placements yet")
    bars, dots = fig.subplots(1, 2, sharey=True, width_ratios=[3, 2])
    for y, r in enumerate(rows):
        top, last = r["top_rate"], r["last_rate"]
        second, third = value(r.get("second_rate")), value(r.get("third_rate"))
        alpha = 0.35 if _thin(r) else 1.0
        bars.barh(y, 1, color="#e5e5e5", height=0.7)
        bars.barh(y, top, color=PLACE_COLORS[0], height=0.7, alpha=alpha)
        if second is not None and third is not None:
            bars.barh(y, second, left=top, color=PLACE_COLORS[1], height=0.7, alpha=alpha)
            bars.barh(y, third, left=top + second, color=PLACE_COLORS[2], height=0.7,
                      alpha=alpha)
        bars.barh(y, last, left=1 - last, color=PLACE_COLORS[3], height=0.7, alpha=alpha)
        place, lo, hi = value(r["avg_place"]), value(r["avg_place_lo"]), value(r["avg_place_hi"])
        colour = FAINT if _thin(r) else PLAIN
        if lo is not None and hi is not None:
            dots.plot([lo, hi], [y, y], color=colour, lw=2, solid_capstyle="butt")
        if place is not None:
            dots.plot(place, y, "o", color=colour, ms=5,
                      markerfacecolor="white" if _thin(r) else colour)
    labels = [_label(r) + (f" ({fmt_count(r['hands'])} hands: too few)" if _thin(r) else "")
              for r in rows]
    bars.set_yticks(range(len(rows)), labels)
    bars.set_ylim(len(rows) - 0.5, -0.5)
    bars.set_xlim(0, 1)
    bars.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    bars.axvline(0.25, color="white", lw=0.8)
    bars.axvline(0.75, color="white", lw=0.8)
    bars.set_xlabel("share of matches, 1st (dark green) to 4th (red)")
    dots.axvline(2.5, color=FAINT, lw=1, zorder=0)
    dots.set_xlim(1, 4)
    dots.set_xticks([1, 2, 2.5, 3, 4], ["1", "2", "2.5", "3", "4"])
    dots.set_xlabel("average placement\n(1 = first; 95% interval)")
    dots.grid(axis="x", color="#eeeeee")
    fig.suptitle("Placement per character (white lines: 25% first, 25% last; faded: few "
                 "hands)", fontsize=10)
    return fig


def fmt_count(n: Any) -> str:
    return f"{int(n):,}" if value(n) is not None else "?"


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
    """Ability triggers per hand played, then what a trigger adds, one unit per panel: points
    (``trigger_value``) and, where the table has it and any ability adds han, han
    (``trigger_han``)."""
    cols = ["group", "name", "triggers_per_hand", "trigger_value",
            *(c for c in ("trigger_han",) if c in table.columns)]
    rows = [r for r in _rows(table, cols)
            if value(r["triggers_per_hand"]) is not None and r["group"] != "(none)"]
    has_han = any(value(r.get("trigger_han")) for r in rows)
    fig = _tall(len(rows), width=11.0 if has_han else 9.0)
    if not rows:
        return _empty(fig, "no ability triggers recorded")
    panels = fig.subplots(1, 3 if has_han else 2, sharey=True)
    left, points = panels[0], panels[1]
    ys = list(range(len(rows)))
    left.barh(ys, [r["triggers_per_hand"] for r in rows], color="#8e44ad", height=0.6)
    left.set_xlabel("triggers per hand played")
    for ax, key, colour, unit in ((points, "trigger_value", "#d68910",
                                   "mean points a trigger adds"),
                                  *(((panels[2], "trigger_han", "#16a085",
                                      "mean han a trigger adds"),) if has_han else ())):
        vals = [value(r.get(key)) for r in rows]
        ax.barh(ys, [v or 0 for v in vals], color=colour, height=0.6)
        for y, v in zip(ys, vals, strict=True):
            if not v:
                ax.text(0, y, " none", va="center", fontsize=8, color=PLAIN)
        ax.set_xlabel(unit)
    left.set_yticks(ys, [_label(r) for r in rows])
    left.set_ylim(len(rows) - 0.5, -0.5)
    fig.suptitle("Abilities: how often they fire and what a firing is worth", fontsize=10)
    return fig


def card_strip(rows: Sequence[dict[str, Any]], card_id: str,
               shifts: Sequence[dict[str, Any]] = (),
               label: str = "point swing per hand") -> Figure:
    """Where one card stands: every character's point swing (or, given rows of that shape
    and ``label``, its ability value) as a grey dot, this card's in colour with its 95%
    interval and its name; with ``shifts`` (a comparison's rows) a second strip does the same
    for the change from A to B. For a card's own page of a site."""
    strips = [(label, [r for r in rows if value(r.get("swing")) is not None],
               "swing", "swing_lo", "swing_hi")]
    moved = [r for r in shifts if value(r.get("swing_delta")) is not None]
    if moved:
        strips.append(("change of point swing, B minus A", moved, "swing_delta",
                       "swing_delta_lo", "swing_delta_hi"))
    fig = Figure(figsize=(8, 0.4 + 1.0 * len(strips)), layout="constrained")
    axes = fig.subplots(len(strips), 1, squeeze=False)[:, 0]
    for ax, (label, data, key, lo_key, hi_key) in zip(axes, strips, strict=True):
        others = [r[key] for r in data if r.get("group") != card_id]
        ax.plot(others, [0] * len(others), "o", color=FAINT, ms=5, alpha=0.8)
        mine = next((r for r in data if r.get("group") == card_id), None)
        if mine is not None:
            colour = FLAG_COLOURS.get(mine.get("flag") or "", WEAK)
            lo, hi = value(mine.get(lo_key)), value(mine.get(hi_key))
            if lo is not None and hi is not None:
                ax.plot([lo, hi], [0, 0], color=colour, lw=3, solid_capstyle="butt")
            ax.plot(mine[key], 0, "o", color=colour, ms=8,
                    markerfacecolor="white" if _thin(mine) else colour)
            ax.annotate(_label(mine), (mine[key], 0), xytext=(0, 8), textcoords="offset points",
                        ha="center", fontsize=9, color=colour)
        else:
            ax.text(0.5, 0.75, "not played here", transform=ax.transAxes, ha="center",
                    fontsize=8, color=PLAIN)
        ax.axvline(0, color=FAINT, lw=1, zorder=0)
        ax.set_yticks([])
        ax.set_ylim(-0.6, 1.0)
        ax.set_xlabel(f"{label} (points; grey: the other characters)")
        ax.grid(axis="x", color="#eeeeee")
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
