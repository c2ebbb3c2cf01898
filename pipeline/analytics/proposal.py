"""The search behind ``saki propose``: for one card out of the band, which single number to
change, and to what, so that the card lands inside the band with the smallest move.

Why a fitted curve per card and not an evolutionary search over the deck: a card's value moves
mostly with its own numbers, and a card trial's match ``i`` is dealt from the seed and ``i``
alone whatever the catalog (common random numbers), so a few values of one number played on
the same matches give a precise slope for a few thousand hands. An evolutionary search would
play the whole deck per candidate, hundreds of times the cost. What the per-card curve misses
(the deck average and the picks moving with the changes) is caught by the joint round and the
confirmation that follow it (:mod:`pipeline.report.propose`).

Here, nothing is played: :func:`search_card` is handed ``play``, which measures the card at
given values of its numbers (the runner plays trials; a test plants a known curve), and
returns the change it chose, or what it tried when no number reaches the band.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import polars as pl

from pipeline.analytics.tune import suggest
from pipeline.cards.catalog import Card
from pipeline.datafiles import show_value
from pipeline.sim.tune import _step, _valid, shown_in_text

MAX_PROBES = 2   # values beyond the first steps a lever may have played (extrapolated guesses)


@dataclass(frozen=True)
class Point:
    """A measured value of the card at one value of a number: ``value`` with its 95%
    interval."""

    value: float
    lo: float | None
    hi: float | None


@dataclass(frozen=True)
class Axis:
    """One number of a card and every value the search may give it: ``values`` in order,
    ``xs`` their positions on the fitted curve (the number itself; a list's step index),
    ``ks`` how many of ``saki tune``'s steps each is from ``origin`` (the value in the catalog
    the proposal starts from; signed), ``present`` the value in the catalog played now (a
    second round starts from the first round's proposal)."""

    card: str
    effect: str
    param: str
    origin: Any
    present: Any
    values: tuple[Any, ...]
    xs: tuple[float, ...]
    ks: tuple[float, ...]
    reading: bool = False   # a reading option: its choices, each played, no curve between

    @property
    def steps(self) -> tuple[float, ...]:
        return tuple(abs(k) for k in self.ks)

    @property
    def address(self) -> str:
        return f"{self.card}.{self.effect}.{self.param}"

    def at(self, value: Any) -> int:
        key = show_value(value)
        return next(i for i, v in enumerate(self.values) if show_value(v) == key)


@dataclass(frozen=True)
class Change:
    """The number chosen for a card: ``value`` in place of ``current`` (the value in the
    catalog the proposal starts from), with the value the
    fitted curve predicts there (and its interval) and whether that value was played itself
    (``measured``) or read between played ones."""

    card: str
    effect: str
    param: str
    current: Any
    value: Any
    steps: float
    predicted: float
    predicted_lo: float | None
    predicted_hi: float | None
    measured: bool
    # a second number of the same card changed with this one (the pair's value is then the
    # one measured with both changed, in ``predicted``)
    also: Change | None = None

    @property
    def address(self) -> str:
        return f"{self.card}.{self.effect}.{self.param}"

    @property
    def parts(self) -> tuple[Change, ...]:
        """Every number this change moves: itself, and its ``also``."""
        return (self,) if self.also is None else (self, *self.also.parts)

    def on_top_of(self, earlier: Change) -> Change:
        """This change made in a catalog that already holds ``earlier`` (a card searched again
        after a joint round: its search played on the catalog with the earlier change made):
        every number of both, this one's value where both move the same number."""
        mine = {ch.address for ch in self.parts}
        chain = [*self.parts, *(ch for ch in earlier.parts if ch.address not in mine)]
        out: Change | None = None
        for ch in reversed(chain):
            out = replace(ch, also=out)
        assert out is not None
        return out


@dataclass
class CardSearch:
    """What the search did for one card: the change it chose (None: no number reaches the
    band within the allowed step) and every number's played values."""

    card: str
    target: tuple[float, float]
    change: Change | None = None
    tried: dict[str, dict[str, Point]] = field(default_factory=dict)
    crossings: dict[str, float | None] = field(default_factory=dict)
    note: str = ""
    # the other numbers' best changes, in the order they were ranked after ``change``
    alternatives: list[Change] = field(default_factory=list)


def axes_of(card: Card, max_step: int, origin: Card | None = None) -> list[Axis]:
    """Every integer number of the card (``saki tune``'s levers) with the values within
    ``max_step`` of ``saki tune``'s steps of its value in ``origin`` (the catalog's card
    before any change; default ``card``): every whole value for a small number, every 100
    for an amount in points, each step for a list."""
    origin = origin or card
    out = []
    for eff in origin.effects:
        for name, spec in eff.spec.params.items():
            if spec.type not in ("int", "list[int]") or not shown_in_text(origin, eff, name):
                continue  # a number the text does not show is no lever (levers_of)
            start = eff.params[name]
            present = card.effect(eff.id).params[name]
            ladder = {0: start}
            for sign in (-1, 1):
                v = start
                for k in range(1, max_step + 1):
                    v = _step(spec, v, sign)
                    if v is None or not _valid(card, card.effect(eff.id), name, v):
                        break
                    ladder[sign * k] = v
            if len(ladder) == 1:
                continue
            if spec.type == "list[int]":
                order = sorted(ladder)
                values, xs = [ladder[k] for k in order], [float(k) for k in order]
                ks = [float(k) for k in order]
            else:
                lo, hi = min(ladder.values()), max(ladder.values())
                grain = 100 if spec.high is not None and spec.high > 100 else 1
                values = [v for v in range(lo, hi + 1) if (v - start) % grain == 0
                          and _valid(card, card.effect(eff.id), name, v)]
                xs = [float(v) for v in values]
                ks = [_steps_from(ladder, v) for v in values]
            out.append(Axis(card.id, eff.id, name, start, present, tuple(values), tuple(xs),
                            tuple(ks)))
    return out + reading_axes(card, origin)


def reading_axes(card: Card, origin: Card) -> list[Axis]:
    """Every reading option of the card (``saki tune CARD.EFFECT.OPTION``'s): each choice
    one step from the one in ``origin``; a choice the catalog refuses is left out."""
    out = []
    for eff in origin.effects:
        for name, spec, _choice in eff.readings():
            start = eff.params[name]
            present = card.effect(eff.id).params[name]
            values = tuple(v for v in spec.choices
                           if v == start or _valid(card, card.effect(eff.id), name, v))
            if len(values) < 2:
                continue
            out.append(Axis(card.id, eff.id, name, start, present, values,
                            tuple(float(i) for i in range(len(values))),
                            tuple(0.0 if v == start else 1.0 for v in values), reading=True))
    return out


def _steps_from(ladder: dict[int, Any], value: int) -> float:
    """How many steps ``value`` is from the ladder's middle, signed (fractions between
    rungs)."""
    ks = sorted(ladder)
    for a, b in zip(ks, ks[1:], strict=False):
        va, vb = ladder[a], ladder[b]
        if min(va, vb) <= value <= max(va, vb):
            return a + (value - va) / (vb - va) * (b - a) if vb != va else float(a)
    return float(ks[-1] if value > ladder[ks[-1]] else ks[0])


def first_probes(axis: Axis) -> list[Any]:
    """What a number's first look plays: its present value and one step each way (``saki
    tune CARD``'s values), where the allowed values reach; a reading's every choice."""
    if axis.reading:
        return list(axis.values)
    i = axis.at(axis.present)
    here = axis.ks[i]
    picks = {i}
    for side in (-1, 1):
        others = [j for j in range(len(axis.values)) if side * (axis.ks[j] - here) > 0]
        if others:
            picks.add(min(others, key=lambda j: abs(abs(axis.ks[j] - here) - 1.0)))
    return [axis.values[j] for j in sorted(picks)]


def predict(points: Sequence[tuple[float, Point]], x: float
            ) -> tuple[float, float | None, float | None] | None:
    """The fitted curve at ``x``: straight lines between played values, the outer line
    carried on beyond them; the interval from the same lines through the played bounds."""
    pts = sorted(points, key=lambda p: p[0])
    if len(pts) < 2:
        return None
    j = next((k for k in range(1, len(pts)) if x <= pts[k][0]), len(pts) - 1)
    (xa, a), (xb, b) = pts[j - 1], pts[j]
    t = (x - xa) / (xb - xa)

    def line(ya: float | None, yb: float | None) -> float | None:
        return None if ya is None or yb is None else ya + t * (yb - ya)

    lo, hi = line(a.lo, b.lo), line(a.hi, b.hi)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return line(a.value, b.value), lo, hi  # type: ignore[return-value]


def target_of(band_lo: float, band_hi: float, zone: float) -> tuple[float, float]:
    """Where a changed card should land: inside the band by at least a quarter of its width
    (or the indifference zone, if larger), so a fresh look at it is likely to find it inside
    and not at an edge or past it."""
    margin = max(zone, (band_hi - band_lo) / 4)
    return band_lo + margin, band_hi - margin


def search_card(card: Card, axes: Sequence[Axis], target: tuple[float, float],
                play: Callable[[Axis, Sequence[Any]], dict[str, Point]],
                band: tuple[float, float] | None = None,
                play_pair: Callable[[Change, Change], Point] | None = None) -> CardSearch:
    """The smallest change of one number predicted to put the card in ``target``: every
    number played at its value and one step each way (``play``, on the same matches), the
    curve fitted, and where the best value lies beyond the played ones, that value played too
    (up to :data:`MAX_PROBES` times a number) before it is trusted. A change that keeps the
    effect alive first (:func:`zeroes`), even when only inside ``band`` and not ``target``;
    then one predicted in ``target``, a number before a reading, the fewest steps, the
    smallest relative change, and the prediction nearest the target's middle; the others are
    kept as ``alternatives``. A number with no value in ``target`` offers its value predicted
    inside ``band`` nearest ``target``."""
    found = CardSearch(card.id, target)
    for axis in axes:
        measured = dict(play(axis, first_probes(axis)))
        for _ in range(MAX_PROBES + 1):
            pick = _best_on(axis, measured, target)
            if pick is None and band is not None:
                pick = _safest_on(axis, measured, band, target)
            if pick is None or pick.measured or not _beyond(axis, measured, pick.value):
                break
            measured.update(play(axis, [pick.value]))
        found.tried[axis.address] = measured
        found.crossings[axis.address] = _crossing(axis, measured, target)
    ranked = []
    for a in axes:
        pick = _best_on(a, found.tried[a.address], target)
        in_target = pick is not None
        if pick is None and band is not None:  # else the value most safely inside the band
            pick = _safest_on(a, found.tried[a.address], band, target)
        if pick is not None:
            switches_off, reading, *rest = _rank(a, pick, target)
            ranked.append(((switches_off, not in_target, reading, _short_of(pick.predicted, target),
                            *rest), pick))
    if ranked:
        ranked.sort(key=lambda r: r[0])
        found.change = ranked[0][1]
        found.alternatives = [c for _, c in ranked[1:]]
    if found.change is None and play_pair is not None:
        found.change = _pair(axes, found, target, band, play_pair)
    if found.change is None and not found.note:
        found.note = ("the card has no number to change" if not axes else
                      "no number reaches the band within the allowed step" if play_pair is None
                      else "no number, nor two of them together, reaches the band within "
                      "the allowed step")
    return found


def _pair(axes: Sequence[Axis], found: CardSearch, target: tuple[float, float],
          band: tuple[float, float] | None, play_pair: Callable[[Change, Change], Point]
          ) -> Change | None:
    """Two numbers of the card changed together, when no single one will do: each pair's
    value predicted by adding the two numbers' moves on their own curves (both were played
    on the same matches from the same present value), the best predicted pair (as
    :func:`_rank` orders single changes, the steps of both counted) played with both changed
    (``play_pair``, on the same matches) and taken if that measured value lies in ``target``
    (or inside ``band``)."""
    options = []
    numbers = [a for a in axes if not a.reading]
    for i, a in enumerate(numbers):
        base = found.tried[a.address].get(show_value(a.present))
        if base is None:
            continue
        for b in numbers[i + 1:]:
            if (a.effect, a.param) == (b.effect, b.param):
                continue
            for ca in _moves(a, found.tried[a.address]):
                for cb in _moves(b, found.tried[b.address]):
                    guess = ca.predicted + cb.predicted - base.value
                    goal = target if target[0] <= guess <= target[1] else band
                    if goal is None or not goal[0] <= guess <= goal[1]:
                        continue
                    key = (zeroes(a.origin, ca.value) or zeroes(b.origin, cb.value),
                           goal is not target, ca.steps + cb.steps,
                           abs(guess - sum(target) / 2))
                    options.append((key, ca, cb, guess))
    if not options:
        return None
    _, ca, cb, guess = min(options, key=lambda o: o[0])
    got = play_pair(ca, cb)
    found.tried[f"{ca.address}+{cb.param}"] = {
        f"{show_value(ca.value)}, {show_value(cb.value)}": got}
    inside = target if band is None else band
    if not inside[0] <= got.value <= inside[1]:
        found.note = (f"the best pair, {ca.effect}.{ca.param} {show_value(ca.value)} and "
                      f"{cb.effect}.{cb.param} {show_value(cb.value)}, was predicted "
                      f"{guess:+,.0f} and measured {got.value:+,.0f}: outside the band")
        return None
    second = replace(cb, predicted=got.value, predicted_lo=got.lo, predicted_hi=got.hi,
                     measured=True)
    return replace(ca, predicted=got.value, predicted_lo=got.lo, predicted_hi=got.hi,
                   measured=True, also=second)


def _moves(axis: Axis, measured: dict[str, Point]) -> list[Change]:
    """Every value of one number other than its present one, with the card's value there."""
    present = show_value(axis.present)
    return [c for c in _values_on(axis, measured) if show_value(c.value) != present]


def _values_on(axis: Axis, measured: dict[str, Point]) -> list[Change]:
    """Every value of one number with the card's value there: measured, or read off the
    fitted curve (values the curve cannot tell are left out)."""
    points = [(axis.xs[axis.at(_value_of(axis, k))], p) for k, p in measured.items()]
    out = []
    for v, x, st in zip(axis.values, axis.xs, axis.steps, strict=True):
        here = measured.get(show_value(v))
        guess = (here.value, here.lo, here.hi) if here is not None else predict(points, x)
        if guess is None or guess[0] is None:
            continue
        out.append(Change(axis.card, axis.effect, axis.param, axis.origin, v, st, guess[0],
                          guess[1], guess[2], here is not None))
    return out


def _rank(axis: Axis, change: Change, goal: tuple[float, float]
          ) -> tuple[bool, bool, float, float, float]:
    """A change that keeps the effect alive first (a number taken to zero, or a list emptied,
    removes what the text is about: Kasumi's bonus at 0 han is no bonus), a number before a
    reading (a number keeps the text's meaning, a reading changes how it is read), then the
    fewest steps, the smallest relative change, and nearest the goal's middle."""
    rel = 1.0 if axis.reading else \
        abs(_num(change.value) - _num(axis.origin)) / max(abs(_num(axis.origin)), 1.0)
    return (zeroes(axis.origin, change.value), axis.reading, change.steps, rel,
            abs(change.predicted - sum(goal) / 2))


def zeroes(origin: Any, value: Any) -> bool:
    """Whether ``value`` switches off a number that was on in ``origin`` (0 or an empty
    list in place of something)."""
    if isinstance(value, str) or isinstance(origin, str):
        return False  # a reading's choice switches nothing off by itself
    return _num(value) == 0 and _num(origin) != 0 or \
        isinstance(value, list | tuple) and not value and bool(origin)


def _best_on(axis: Axis, measured: dict[str, Point], target: tuple[float, float]
             ) -> Change | None:
    """The fewest steps' value of one number predicted inside ``target``."""
    choices = [c for c in _values_on(axis, measured)
               if c.steps != 0 and target[0] <= c.predicted <= target[1]]
    if not choices:
        return None
    return min(choices, key=lambda c: (c.steps, abs(c.predicted - sum(target) / 2)))


def _safest_on(axis: Axis, measured: dict[str, Point], band: tuple[float, float],
               target: tuple[float, float]) -> Change | None:
    """Of the values predicted inside ``band``, the one nearest ``target`` (fewest steps on
    a tie)."""
    options = [c for c in _values_on(axis, measured)
               if c.steps != 0 and band[0] <= c.predicted <= band[1]]
    if not options:
        return None
    return min(options, key=lambda c: (_short_of(c.predicted, target), c.steps))


def _short_of(value: float, goal: tuple[float, float]) -> float:
    """How far ``value`` lies outside ``goal`` (0 inside)."""
    return max(goal[0] - value, value - goal[1], 0.0)


def _beyond(axis: Axis, measured: dict[str, Point], value: Any) -> bool:
    """Whether ``value`` lies outside the played values (the curve extrapolated there)."""
    xs = [axis.xs[axis.at(_value_of(axis, k))] for k in measured]
    x = axis.xs[axis.at(value)]
    return x < min(xs) or x > max(xs)


def _crossing(axis: Axis, measured: dict[str, Point], target: tuple[float, float]
              ) -> float | None:
    """Where the played curve crosses the target's middle (``suggest``), in the number's
    position (a list's step index); none for a reading (no curve between its choices)."""
    if axis.reading:
        return None
    rows = [{"address": axis.address, "param_value": str(axis.xs[axis.at(_value_of(axis, k))]),
             "value": p.value, "value_lo": p.lo, "value_hi": p.hi}
            for k, p in measured.items()]
    rows.sort(key=lambda r: float(r["param_value"]))
    mid = sum(target) / 2
    found = suggest(pl.DataFrame(rows, infer_schema_length=None),
                    {"mean": mid, "lo": target[0], "hi": target[1]})
    hit = found.get(axis.address)
    return None if hit is None else hit["value"]


def _value_of(axis: Axis, key: str) -> Any:
    return next(v for v in axis.values if show_value(v) == key)


def _num(value: Any) -> float:
    if isinstance(value, list | tuple):
        return float(sum(value)) if value else 0.0
    return float(value)


__all__ = ["MAX_PROBES", "Axis", "CardSearch", "Change", "Point", "axes_of", "first_probes",
           "predict", "search_card", "target_of", "zeroes"]
