"""The balance tables as text for a terminal, as CSV and as JSON (``saki stats``,
``saki compare``)."""

from __future__ import annotations

import json
import math
from typing import Any

import polars as pl

from pipeline.analytics.compare import Comparison
from pipeline.analytics.multitest import NOT_ENOUGH
from pipeline.sim.card_value import UNITS

FORMATS = ("table", "csv", "json")
_MARKS = {"strong": "STRONG", "weak": "weak", "up": "UP", "down": "DOWN",
          NOT_ENOUGH: "(few hands)", "": ""}


def stats_text(df: pl.DataFrame, *, label: str, by: str, min_hands: int, threshold: float,
               baseline: str | None = None) -> str:
    """The per-group table for a terminal: one line per group, intervals in brackets."""
    hands = int(df["hands"].sum()) if df.height else 0
    against = f"baseline run {baseline}" if baseline else "the field (all seat-hands)"
    head = (f"run {label}: {hands:,} seat-hands, by {by}; "
            f"min {min_hands} hands, flag threshold {threshold:,.0f} points per hand")
    paired = df["paired_effect"].is_not_null().any() if df.height else False
    rows = [["#", by, "hands", "pick", "win% [95%]", "deal-in% [95%]", "riichi", "calls",
             "swing [95%]", "vs field [95%]", "q", "place", "top", "trig/h",
             *(["paired [95%]"] if paired else []), "flag"]]
    rank = 0
    for r in df.iter_rows(named=True):
        eligible = r["flag"] != NOT_ENOUGH
        rank += eligible
        rows.append([
            str(rank) if eligible else "-",
            r["name"],
            f"{r['hands']:,}",
            _pct(r["pick_rate"], 0),
            f"{_pct(r['win_rate'])} {_span(r['win_lo'], r['win_hi'], pct=True)}",
            f"{_pct(r['deal_in_rate'])} {_span(r['deal_in_lo'], r['deal_in_hi'], pct=True)}",
            _pct(r["riichi_rate"], 0),
            _pct(r["call_rate"], 0),
            f"{_pts(r['swing'])} {_span(r['swing_lo'], r['swing_hi'])}",
            f"{_pts(r['field_diff'])} {_span(r['field_diff_lo'], r['field_diff_hi'])}",
            _q(r["q_value"]),
            _num(r["avg_place"], 2),
            _pct(r["top_rate"], 0),
            _num(r["triggers_per_hand"], 2),
            *([_paired(r)] if paired else []),
            _MARKS.get(r["flag"], r["flag"]),
        ])
    legend = (f"swing = mean net points per hand (payments, honba, sticks and stakes); "
              f"vs field = swing minus {against}; [95%] intervals clustered by match; "
              f"q = Benjamini-Hochberg; "
              f"STRONG (nerf?) / weak (buff?) = q < 0.05 and |vs field| > {threshold:,.0f}; "
              f"(few hands) = under {min_hands} hands or 10 matches, not ranked")
    return "\n".join([head, "", *_columns(rows, left=1), "", legend])


def compare_text(cmp: Comparison) -> str:
    """Per-group changes (B - A) with intervals and flags, then card and preset changes."""
    m = cmp.metrics
    rows = [["character", "hands A", "hands B", "win% A>B (change [95%])",
             "deal-in% A>B (change [95%])", "swing A>B (change [95%])",
             "place A>B (change [95%])", "q", "flag"]]
    for r in m.iter_rows(named=True):
        rows.append([
            r["name"] or r["group"], f"{r['hands_a']:,}", f"{r['hands_b']:,}",
            _move(r, "win_rate", pct=True), _move(r, "deal_in_rate", pct=True),
            _move(r, "swing"), _move(r, "avg_place", digits=2),
            _q(r["q_value"]), _MARKS.get(r["flag"], r["flag"]),
        ])
    out = [f"compare A = {cmp.label_a}", f"     to B = {cmp.label_b}", "",
           *_columns(rows, left=0), "",
           "change = B - A with a 95% interval ("
           + ("from per-match paired differences: both runs share seed and matches"
              if cmp.paired else "the runs taken as independent: different seeds")
           + "); flag UP/DOWN = "
           "swing change with q < 0.05 beyond the threshold; (few hands) = too few hands in "
           "either run", ""]
    out.append("Card changes:" if cmp.card_changes else "Card changes: none")
    for c in cmp.card_changes:
        out.append(f"  {c['card']} ({c['name']}): {c['change']}")
        if c["before"]:
            out.append(f"      before: {c['before']}")
        if c["after"]:
            out.append(f"      after:  {c['after']}")
    out.append("Preset changes:" if cmp.preset_changes else "Preset changes: none")
    for p in cmp.preset_changes:
        out.append(f"  {p['option']}: {_show(p['a'])} -> {_show(p['b'])}")
    out.extend(f"warning: {w}" for w in cmp.warnings)
    return "\n".join(out)


def frame_json(df: pl.DataFrame, **info: Any) -> str:
    """A frame as JSON: ``info`` keys, then ``rows`` (one object per row; NaN as null)."""
    return json.dumps({**info, "rows": [_clean(r) for r in df.to_dicts()]}, indent=2)


def compare_json(cmp: Comparison) -> str:
    return json.dumps({
        "a": cmp.label_a, "b": cmp.label_b,
        "metrics": [_clean(r) for r in cmp.metrics.to_dicts()],
        "card_changes": cmp.card_changes, "preset_changes": cmp.preset_changes,
        "warnings": cmp.warnings,
    }, indent=2)


def _paired(r: dict[str, Any]) -> str:
    """A paired effect and its interval; no pair differing is said, not shown as [0, 0]."""
    if _missing(r["paired_effect"]):
        return "-"
    if r.get("paired_changed") == 0:
        return f"{_pts(r['paired_effect'])} [no pair differed]"
    return f"{_pts(r['paired_effect'])} {_span(r['paired_lo'], r['paired_hi'])}"


def _replayed(r: dict) -> int:
    """The hands a trial row's ``changed`` counts among (its replayed ones)."""
    replayed = r.get("replayed")
    return int(r["hands"] if replayed is None else replayed)


def trial_text(df: pl.DataFrame) -> str:
    """A trial's cards for a terminal, best value first: the value the verdicts read (its
    measure's), the hand's paired value, the placement value and rank gain beside it."""
    judged = "verdict" in df.columns
    placement = "measure" in df.columns and df.height and df["measure"][0] == "placement"
    rows = [["card", *(["verdict"] if judged else []), "hands", "matches", "value [95%]",
             "hand only", "placement [95%]", "rank", "changed", "win%", "w/o", "deal-in%",
             "w/o", "calls", "riichi", "place", "trig/h", "offers/h"]]
    for r in df.sort("value", descending=True, nulls_last=True).iter_rows(named=True):
        if r["degenerate"]:  # all pairs equal: no spread to measure, not a certain zero
            value = f"{_pts(r['value'])} [no pair differed]"
        elif placement:
            value = (f"{_signed(r['value'], digits=1)} "
                     f"{_span(r['value_lo'], r['value_hi'], digits=1)}")
        else:
            value = f"{_pts(r['value'])} {_span(r['value_lo'], r['value_hi'])}"
        place = (f"{_signed(r.get('placement_value'), digits=1)} "
                 f"{_span(r.get('placement_lo'), r.get('placement_hi'), digits=1)}"
                 if not _missing(r.get("placement_value")) else "-")
        verdict = [VERDICT_WORDS.get(r["verdict"], r["verdict"])] if judged else []
        rows.append([r["name"], *verdict, f"{r['hands']:,}", f"{r['matches']:,}", value,
                     _pts(r.get("pair_value")), place, _signed(r.get("rank_gain"), digits=2),
                     _pct(r["changed"] / _replayed(r) if _replayed(r) else None, 0),
                     _pct(r["win_rate"]), _pct(r["win_rate_without"]),
                     _pct(r["deal_in_rate"]), _pct(r["deal_in_rate_without"]),
                     _pct(r["call_rate"], 0), _pct(r["riichi_rate"], 0),
                     _num(r["placement"], 2), _num(r["triggers_per_hand"], 2),
                     _offers(r)])
    head = ("value: result points per match (uma and oka) with the ability minus the same "
            "match played with it off throughout" if placement else
            "value: points per hand over the whole match, the holder's final score with the "
            "ability minus the same match played with it off throughout")
    head += ("; hand only: the paired hands' value; placement: result points per match; "
             "rank: places per match (negative: gained); 95% intervals clustered by match")
    lines = [head, *_columns(rows, 0)]
    if judged:
        lines += verdict_notes(df)
    return "\n".join(lines)


VERDICT_WORDS = {"above": "above the band (nerf)", "below": "below the band (buff)",
                 "inside": "inside the band", "at_edge": "at an edge", "undecided": "undecided"}


def verdict_notes(df: pl.DataFrame) -> list[str]:
    """The band the verdicts used, where its centre came from, and why each undecided card is
    undecided with the hands that would settle it."""
    first = df.row(0, named=True) if df.height else None
    if first is None:
        return []
    lines = [""]
    if first["band_lo"] is not None:
        se = first["edge_se"] or 0.0
        unit = UNITS.get(first.get("measure") or "points", "points per hand")
        digits = 1 if first.get("measure") == "placement" else 0
        edges = f" (each edge +/-{1.96 * se:,.{digits}f})" if se else ""
        lines.append(f"band: {first['band_lo']:+,.{digits}f} to {first['band_hi']:+,.{digits}f} "
                     f"{unit}{edges}; deck's average card from {first['reference']}")
    for r in df.filter(pl.col("verdict") == "undecided").iter_rows(named=True):
        more = (f"; about {r['settle_hands']:,} more hands would settle it"
                if r["settle_hands"] is not None else "")
        lines.append(f"{r['name']}: undecided, {r['reason']}{more}")
    # decided by the few-changes bound, or to the indifference zone's precision: say which
    for r in df.filter((pl.col("reason").fill_null("") != "") & (pl.col("verdict") != "undecided")
                       ).iter_rows(named=True):
        lines.append(f"{r['name']}: {VERDICT_WORDS[r['verdict']]}, {r['reason']}")
    return lines


def _offers(r: dict[str, Any]) -> str:
    """Offers per hand and the share taken, e.g. ``0.52 (88%)``."""
    offered, taken = r.get("offers_per_hand"), r.get("offers_taken_per_hand")
    if _missing(offered) or not offered:
        return "-"
    return f"{offered:.2f} ({_pct(taken / offered, 0)})"


def render_trial(df: pl.DataFrame, fmt: str, config: dict[str, Any] | None = None) -> str:
    """``table`` (:func:`trial_text`) or ``json`` (one row per card, after ``config``: the
    configuration the rows belong to)."""
    if fmt == "json":
        return frame_json(df, kind="trial", **({"config": config} if config else {}))
    return trial_text(df)


def render_tune(df: pl.DataFrame, band: dict[str, float], card_name: str, fmt: str,
                config: dict[str, Any] | None = None) -> str:
    """A sweep's table (``table``) or ``json``: one row per value, the band, and the values
    whose interval lies inside the band (named plainly, or that none does)."""
    inside = [r for r in df.to_dicts() if r["in_band"]]
    named = ", ".join(f"{r['param']} = {r['param_value']}" for r in inside)
    verdict = (f"inside the balance band: {named}" if inside
               else "no value's interval lies inside the balance band")
    from pipeline.analytics.tune import suggest

    suggested = suggest(df, band)
    if fmt == "json":
        rows = [{k: v for k, v in r.items() if k != "text"} for r in df.to_dicts()]
        return json.dumps({"kind": "tune", "card": card_name,
                           **({"config": config} if config else {}), "band": band,
                           "in_band": [r["param_value"] for r in inside],
                           "suggested": {k: {**v, "between": list(v["between"])}
                                         for k, v in suggested.items()},
                           "verdict": verdict, "rows": [_clean(r) for r in rows]}, indent=2)
    edge = 1.96 * (band.get("se") or 0.0)
    known = (f"; each edge known to ±{edge:,.0f}, the deck's average being measured too"
             if edge else "")
    lines = [f"{card_name}: ability value (points per hand, with minus without) at each value",
             f"balance band {_pts(band['lo'])} to {_pts(band['hi'])} (the deck's average card "
             f"{_pts(band['mean'])} ± {band['threshold']:,.0f}{known})", ""]
    head = ("parameter", "value", "ability value", "95% interval", "win", "deal-in", "hands",
            "next - this", "band")
    rows = [head]
    for r in df.to_dicts():
        mark = " (now)" if r["current"] else ""
        interval = "no pair differed" if r["degenerate"] else _span(r["value_lo"], r["value_hi"])
        step = "" if _missing(r["next_diff"]) else \
            f"{_signed(r['next_diff'])} {_span(r['next_lo'], r['next_hi'])}"
        rows.append((f"{r['effect']}.{r['param']}", f"{r['param_value']}{mark}",
                     _pts(r["value"]), interval, _pct(r["win_rate"]), _pct(r["deal_in_rate"]),
                     f"{r['hands']:,}", step, "in" if r["in_band"] else "out"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(head))]
    lines += ["  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip()
              for row in rows]
    lines += ["", verdict]
    for address, v in suggested.items():
        span = (f" [{v['lo']:.2f}, {v['hi']:.2f}]" if v["lo"] is not None else "")
        lines.append(f"suggested {address.split('.', 1)[1]} = {v['value']:.2f}{span}: where the "
                     f"card would sit on the deck's average card, interpolated between the "
                     f"tested {v['between'][0]:g} and {v['between'][1]:g}")
    return "\n".join(lines)


def _clean(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in row.items()}


def _move(r: dict[str, Any], metric: str, pct: bool = False, digits: int = 0) -> str:
    a, b, d = r[f"{metric}_a"], r[f"{metric}_b"], r[f"{metric}_delta"]
    lo, hi = r[f"{metric}_delta_lo"], r[f"{metric}_delta_hi"]
    if pct:
        return f"{_pct(a)}>{_pct(b)} ({_signed(d, pct=True)} {_span(lo, hi, pct=True)})"
    if digits:
        return (f"{_num(a, digits)}>{_num(b, digits)} ({_signed(d, digits=digits)} "
                f"{_span(lo, hi, digits=digits)})")
    return f"{_pts(a)}>{_pts(b)} ({_signed(d)} {_span(lo, hi)})"


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _pct(x: Any, digits: int = 1) -> str:
    return "-" if _missing(x) else f"{100 * x:.{digits}f}%"


def _pts(x: Any) -> str:
    return "-" if _missing(x) else f"{x:+,.0f}"


def _num(x: Any, digits: int) -> str:
    return "-" if _missing(x) else f"{x:.{digits}f}"


def _signed(x: Any, pct: bool = False, digits: int = 0) -> str:
    if _missing(x):
        return "-"
    if pct:
        return f"{100 * x:+.1f}"
    return f"{x:+.{digits}f}" if digits else f"{x:+,.0f}"


def _span(lo: Any, hi: Any, pct: bool = False, digits: int = 0) -> str:
    if _missing(lo) or _missing(hi):
        return "[-]"
    if pct:
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    if digits:
        return f"[{lo:.{digits}f}, {hi:.{digits}f}]"
    return f"[{lo:+,.0f}, {hi:+,.0f}]"


def _q(q: Any) -> str:
    if _missing(q):
        return "-"
    return "<0.001" if q < 0.001 else f"{q:.3f}"


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _columns(rows: list[list[str]], left: int) -> list[str]:
    """Column ``left`` (the names) left-aligned, the others right-aligned, two spaces apart."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [c.ljust(w) if i == left else c.rjust(w)
                 for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    return lines


__all__ = ["FORMATS", "compare_json", "compare_text", "frame_json", "render_trial", "stats_text",
           "trial_text"]
