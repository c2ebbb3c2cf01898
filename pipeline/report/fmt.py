"""Number formatting for reports: percentages, points and intervals as a designer reads them.

Missing values (``None`` or ``nan``, e.g. a rate of a group that never played) show as a dash, so
a table never prints ``nan``.
"""

from __future__ import annotations

import math
from typing import Any

DASH = "–"


def value(x: Any) -> float | None:
    """``x`` as a float, or None when it is missing (None, nan, infinite or not a number)."""
    if x is None or isinstance(x, bool):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) or math.isinf(f) else f


def pct(x: Any, digits: int = 1) -> str:
    """A share as a percentage: 0.2134 -> ``21.3%``."""
    f = value(x)
    return DASH if f is None else f"{100 * f:.{digits}f}%"


def pts(x: Any, signed: bool = False) -> str:
    """Points with thousands separators: 1234.5 -> ``1,235`` (``+1,235`` when signed)."""
    f = value(x)
    if f is None:
        return DASH
    return f"{f:+,.0f}" if signed else f"{f:,.0f}"


def num(x: Any, digits: int = 2, signed: bool = False) -> str:
    """A plain number: 2.4567 -> ``2.46``."""
    f = value(x)
    if f is None:
        return DASH
    return f"{f:+.{digits}f}" if signed else f"{f:.{digits}f}"


def count(x: Any) -> str:
    """A count with thousands separators."""
    f = value(x)
    return DASH if f is None else f"{int(round(f)):,}"


def interval(lo: Any, hi: Any, kind: str = "pts", signed: bool = False) -> str:
    """A 95% interval as ``(lo to hi)`` in the same unit as its value; empty when unknown."""
    a, b = value(lo), value(hi)
    if a is None or b is None:
        return ""
    return f"({show(a, kind, signed)} to {show(b, kind, signed)})"


def pp(x: Any) -> str:
    """A difference of two shares in percentage points: 0.012 -> ``+1.2 pp``."""
    f = value(x)
    return DASH if f is None else f"{100 * f:+.1f} pp"


def with_interval(x: Any, lo: Any, hi: Any, kind: str = "pts", signed: bool = False) -> str:
    """A value followed by its interval: ``+120 (-40 to +280)``."""
    shown = show(x, kind, signed)
    span = interval(lo, hi, kind, signed)
    return f"{shown} {span}" if span and shown != DASH else shown


def auto(x: Any) -> str:
    """A value of mixed unit (han or points): points style from 100 up, else two decimals."""
    f = value(x)
    if f is None:
        return DASH
    return pts(f) if abs(f) >= 100 else num(f)


def short_label(run_id: str) -> str:
    """A run id without its configuration hash: ``cards-hanchan-1.2-s1-n300``."""
    head, _, tail = run_id.rpartition("-")
    is_hash = len(tail) == 10 and all(c in "0123456789abcdef" for c in tail)
    return head if head and is_hash else run_id


def prob(x: Any) -> str:
    """A p- or q-value: ``0.042``, or ``< 0.001`` for the very small ones."""
    f = value(x)
    if f is None:
        return DASH
    return "< 0.001" if f < 0.001 else f"{f:.3f}"


def show(x: Any, kind: str, signed: bool = False) -> str:
    """``x`` in one of the report's units: ``pct``, ``pp``, ``num``, ``result`` (result points,
    one decimal), ``pts`` or ``auto``."""
    if kind == "result":
        return num(x, 1, signed)
    if kind == "pct":
        return pct(x)
    if kind == "pp":
        return pp(x)
    if kind == "num":
        return num(x, 2, signed)
    if kind == "auto":
        return auto(x)
    if kind == "prob":
        return prob(x)
    return pts(x, signed)
