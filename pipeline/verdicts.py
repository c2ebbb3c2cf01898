"""Verdicts against the balance band: is a card above it, inside it, below it, at an edge?

A designer asks which cards are out of balance and how sure we are. Each card's ability value
``v`` (points per hand, with a standard error ``se`` from ``G`` matches) is judged against the
band: the deck's average card ``m`` plus or minus a threshold ``T`` (the deck's mean is itself
measured, and its uncertainty is carried into the edges), or an absolute band ``LO:HI``.

Per card, one-sided Student t tests (``G - 1`` degrees of freedom) on the position ``x``
(``v - m`` for the deck's band, ``v`` for an absolute one) against the edges ``lo`` and ``hi``,
each edge with its indifference zone ``z`` (a difference of less than ``z`` from an edge does
not matter for the decision: the thresholding bandit's precision, Locatelli, Gutzeit and
Carpentier 2016, "An optimal algorithm for the thresholding bandit problem", whose APT rule
classifies an arm once its interval leaves ``[edge - z, edge + z]`` on one side):

- ``above``: rejects ``x <= hi - z`` (the card is beyond the upper edge, or less than ``z``
  inside it); said as *beyond the edge* when ``x <= hi`` is rejected too;
- ``below``: rejects ``x >= lo + z`` (likewise at the lower edge);
- ``inside``: rejects ``x >= hi + z`` and ``x <= lo - z`` (the larger of the two one-sided
  p-values: an intersection-union test); *within both edges* when ``x >= hi`` and ``x <= lo``
  are rejected too;
- ``at_edge``: rejects ``|x - e| >= z`` for the nearer edge ``e`` (two one-sided tests, as
  for equivalence): the card sits on the edge, within the indifference zone.

A verdict is wrong only when the card's true position is outside both edges' zones and on
the other side (``above`` for a card more than ``z`` inside the upper edge, ``at_edge`` for one
more than ``z`` from it): inside a zone either side is an acceptable answer, which is what lets
every card be decided once its interval is about ``z`` wide, where asking for the strict side
(or for the whole interval inside the zone) would sample a card that sits ``z / 2`` from an
edge until its interval is ``z / 2`` wide, four times the hands. Of the tests that reject, the
verdict names the most telling: a strict side, else ``at_edge``, else the side within the zone
(its ``reason`` says so). The card's p-value is the smallest of its tests'; the p-values of all
cards go through Benjamini-Hochberg: among the verdicts given, the expected share of wrong ones
stays under ``alpha`` (5%).

**Repeated looks.** A racing trial (:mod:`pipeline.sim.trial`) looks at a card after each of its
rounds and stops sampling it once decided; testing each look at 5% would be wrong more often
than 5%. The looks are on a grid fixed in advance (:data:`LOOK_GRID`: the card's blocks of
matches grow by about 1.41 from look to look; doubling would sample a card that a look just
missed deciding up to twice as long as it needed, 1.44 times on average, this grid 1.2 times,
for a slightly higher boundary over its more looks), so the statistic at the looks is a Gaussian
random walk observed at known times. The boundary is of Wang and Tsiatis's power family
(group-sequential tests, Jennison and Turnbull ch. 2): a look at information fraction ``t`` (the
card's matches over the grid's last look's) rejects when ``z >= C t^(shape - 1/2)``, so an early
look asks for a larger ``z`` and the last looks a smaller one than a flat (Pocock, ``shape``
1/2) boundary would: :data:`LOOK_SHAPE` spends little of the error on the first, cheap looks,
where a card far from an edge is decided anyway, and keeps it for the last ones, where the cards
near an edge are. The chance that the weighted statistic ``z t^(1/2 - shape)`` *ever* reaches a
level is computed once by simulation (:func:`crossing_probability`); a test's p-value is that
chance at its weighted statistic: a valid p-value whatever look the trial stopped at, so
Benjamini-Hochberg applies to them as to single looks.

**Cards whose ability changes almost no hand.** With a handful of pairs that differ, the
clustered interval is not to be trusted (too narrow). Such a card is judged by a bound: its
value is at most (share of its hands the ability changed) x (what one changed hand is worth).
The share's upper bound is the exact Poisson one; what a changed hand is worth is bounded by
the 99th percentile of the deck's changed hands (an assumption, stated in the reason). When
that bound lies inside the band (or inside an edge's zone), the card is ``inside`` (or
``at_edge``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from statistics import NormalDist

ABOVE, INSIDE, BELOW, AT_EDGE, UNDECIDED = "above", "inside", "below", "at_edge", "undecided"
VERDICTS = (ABOVE, INSIDE, BELOW, AT_EDGE, UNDECIDED)
ALPHA = 0.05            # expected share of wrong verdicts among those given (Benjamini-Hochberg)
DEFAULT_THRESHOLD = 300.0   # the band's half-width around the deck's average card
DEFAULT_ZONE = 100.0    # indifference zone around each edge, points per hand
MIN_CHANGED = 10        # fewer pairs that differ: the bound of the few-changes argument instead
MIN_MATCHES = 8         # fewer matches: no t test at all (the first racing look has 8)
# a racing trial's card's blocks of matches at its looks (x sqrt 2 a look, rounded: 8 to 1,024
# matches); the verdicts' p-values count the looks of this grid
LOOK_GRID = (2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256)
MAX_LOOKS = len(LOOK_GRID)
# the grid of the trials raced before 2026-12-07 (the matches doubling from look to look): a
# folder raced then keeps its p-values (pipeline.sim.trial.look_grid)
DOUBLING_GRID = (2, 4, 8, 16, 32, 64, 128, 256)
LOOK_SHAPE = 0.4        # the boundary's shape (Wang-Tsiatis Delta: 0.5 flat, 0 O'Brien-Fleming)
# a racing trial's default budget in hands (saki trial --band, saki balance, saki propose's
# verdicts), sized for the default balance job to end within about 10 minutes on 2 quiet cores:
# it decided every card of catalog 1.2 in 120,592 hands, 9 min 23 s (docs/trials.md);
# resampling that trial, 130,000 leaves 0.3 cards undecided on average, 150,000 0.2
RACE_BUDGET_HANDS = 130_000
_NORMAL = NormalDist()
_PATHS = 400_000        # simulated random walks behind the crossing probability
_RESOLVED = 100         # below this many crossings the simulation gives way to a bound


# --- Student's t ------------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta (Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (normal when df is infinite)."""
    if math.isinf(df):
        return _NORMAL.cdf(-t)
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(p: float, df: float) -> float:
    """The t value with ``P(T <= t) = p`` (bisection on :func:`t_sf`)."""
    if math.isinf(df):
        return _NORMAL.inv_cdf(p)
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1.0 - t_sf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# --- repeated looks ---------------------------------------------------------------------------


@cache
def _max_statistics(looks: int, shape: float = LOOK_SHAPE,
                    grid: tuple[int, ...] = LOOK_GRID) -> tuple[float, ...]:
    """Sorted maxima over ``looks`` looks of the weighted statistic ``z t^(1/2 - shape)`` of a
    standardized Gaussian random walk observed at the times of ``grid``'s first ``looks``
    points (:data:`LOOK_GRID`'s by default; ``t`` the time over the last look's), from a
    fixed seed: the same on every machine."""
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(20261206))
    walk = np.zeros(_PATHS)
    best = np.full(_PATHS, -np.inf)
    time = 0.0
    last = grid[looks - 1]
    for k in range(looks):
        step = grid[k] - time
        walk += rng.standard_normal(_PATHS) * math.sqrt(step)
        time = float(grid[k])
        weight = (time / last) ** (0.5 - shape)
        best = np.maximum(best, walk / math.sqrt(time) * weight)
    return tuple(np.sort(best).tolist())


def crossing_probability(w: float, looks: int, shape: float = LOOK_SHAPE,
                         grid: tuple[int, ...] = LOOK_GRID) -> float:
    """The chance that the weighted statistic (``z t^(1/2 - shape)``, the module's
    docstring) of a test looked at ``looks`` times on the grid (:data:`LOOK_GRID`) ever
    reaches ``w`` under the null: the p-value of a one-sided test with repeated looks. One
    look is the plain normal tail; beyond the simulation's resolution the union bound over
    the looks takes over (each look's tail at its own boundary; both are upper bounds there,
    the smaller is used)."""
    single = _NORMAL.cdf(-w) if w < 40 else 0.0
    if looks <= 1:
        return single
    import bisect

    maxima = _max_statistics(looks, shape, grid)
    above = len(maxima) - bisect.bisect_left(maxima, w)
    if above >= _RESOLVED:
        return above / len(maxima)
    resolved = maxima[len(maxima) - _RESOLVED]  # the largest w the simulation still resolves
    if w < resolved:
        return single
    last = grid[looks - 1]
    union = sum(_NORMAL.cdf(-min(w / (grid[k] / last) ** (0.5 - shape), 40.0))
                for k in range(looks))
    return min(_RESOLVED / len(maxima), union)


def one_sided_p(t: float, df: float, looks: int = 1, fraction: float = 0.0,
                shape: float = LOOK_SHAPE, grid: tuple[int, ...] = LOOK_GRID) -> float:
    """P-value of a one-sided t statistic (large ``t`` is evidence) with repeated looks, seen
    at information ``fraction`` of the grid's last look (unknown, 0: the first look's, the
    largest boundary)."""
    if math.isnan(t):
        return math.nan
    p = t_sf(t, df)
    if looks <= 1:
        return p
    z = 40.0 if p <= 0 else -_NORMAL.inv_cdf(min(max(p, 1e-300), 1 - 1e-16))
    looks = min(looks, len(grid))
    first = grid[0] / grid[looks - 1]
    weight = min(max(fraction, first), 1.0) ** (0.5 - shape)
    return crossing_probability(z * weight, looks, shape, grid)


# --- the band ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BandSpec:
    """Which band: the deck's average card +/- ``threshold`` (when ``lo``/``hi`` are None),
    or the absolute ``lo:hi``; and the indifference ``zone`` around each edge."""

    threshold: float = DEFAULT_THRESHOLD
    lo: float | None = None
    hi: float | None = None
    zone: float = DEFAULT_ZONE
    alpha: float = ALPHA
    unit: str = "points per hand"  # of the values judged (and of threshold, lo, hi, zone)
    digits: int = 0                # decimals the unit is written with

    @property
    def absolute(self) -> bool:
        return self.lo is not None and self.hi is not None

    def describe(self) -> str:
        d = self.digits
        if self.absolute:
            return f"the band {self.lo:+,.{d}f} to {self.hi:+,.{d}f} {self.unit}"
        return f"the deck's average card +/- {self.threshold:,.{d}f} {self.unit}"


@dataclass(frozen=True)
class Evidence:
    """One card's measurement: value and standard error (points per hand), its matches (the
    clusters), hands and pairs that differed; ``looks`` is how many looks its allocation
    could take (1 unless the trial raced) and ``fraction`` where on that grid its sample is
    (the information fraction: 1 at the last look), ``shape`` the boundary's; ``magnitude``
    the 99th percentile of the deck's changed pairs' |value| (for the few-changes bound),
    ``nan`` when unknown."""

    card: str
    value: float
    se: float
    matches: int
    hands: int
    changed: int
    looks: int = 1
    magnitude: float = math.nan
    # its sample over the grid's last look's (racing: blocks over 256); unknown (0): taken as
    # the first look's, the largest boundary (never too small a p-value)
    fraction: float = 0.0
    shape: float = LOOK_SHAPE  # the looks' boundary shape the trial raced with
    # hands replayed without the ability, which ``changed`` counts among (None: every hand; a
    # trial replays a card's first matches only: pipeline/sim/trial.py REPLAYED_BLOCKS)
    replayed: int | None = None
    grid: tuple[int, ...] = LOOK_GRID  # the grid of looks the trial raced on

    @property
    def replayed_hands(self) -> int:
        return self.hands if self.replayed is None else self.replayed


@dataclass(frozen=True)
class Reference:
    """The deck's average card: the plain mean of every deck card's value and its standard
    error; ``members`` the cards it is made of (their own value is part of it) with their
    standard errors; ``source`` says where it comes from, for the report."""

    mean: float
    se: float
    members: dict[str, float]
    source: str

    @classmethod
    def of(cls, values: dict[str, tuple[float, float]], source: str) -> Reference:
        """From every deck card's (value, se)."""
        c = len(values)
        mean = sum(v for v, _ in values.values()) / c
        var = sum(s * s for _, s in values.values() if math.isfinite(s)) / (c * c)
        return cls(mean, math.sqrt(var), {k: s for k, (_, s) in values.items()}, source)

    def relative_se(self, card: str, se: float) -> float:
        """Standard error of ``value - mean``: a member is part of the mean (its own variance
        counts (1 - 1/c)^2, the others' 1/c^2); another card is independent of it. Cards share
        deals, which makes this a little wide rather than narrow."""
        if card not in self.members:
            return math.hypot(se, self.se)
        c = len(self.members)
        others = self.se ** 2 - se * se / (c * c)
        return math.sqrt((1 - 1 / c) ** 2 * se * se + max(others, 0.0))


@dataclass(frozen=True)
class Verdict:
    """A card's verdict: ``above``, ``inside``, ``below``, ``at_edge`` or ``undecided`` (with
    ``reason`` and ``settle_hands``, about how many more of its hands would settle it); the
    band in points per hand (``band_lo``, ``band_hi``, their common standard error
    ``edge_se``), the position tested (``x``, ``x_se``), the four p-values and ``p_value``,
    the verdict's (Benjamini-Hochberg: ``q_value``)."""

    card: str
    verdict: str
    band_lo: float
    band_hi: float
    edge_se: float
    x: float
    x_se: float
    p: dict[str, float] = field(default_factory=dict)
    p_value: float = math.nan
    q_value: float = math.nan
    reason: str = ""
    settle_hands: int | None = None
    bound: float = math.nan   # the few-changes bound on |value| when that argument was used

    @property
    def decided(self) -> bool:
        return self.verdict != UNDECIDED


def poisson_upper(k: int, level: float) -> float:
    """Upper confidence bound of a Poisson mean after ``k`` events, at one-sided level
    ``level`` (the chance to see ``k`` or fewer events at the bound is ``level``): exact up to
    200 events, the Wilson-Hilferty form of the chi-square quantile beyond."""
    if k > 200:
        z = -_NORMAL.inv_cdf(level)
        n = k + 1
        return n * (1 - 1 / (9 * n) + z / (3 * math.sqrt(n))) ** 3

    def cdf(mu: float) -> float:
        log_term = -mu
        total = math.exp(log_term)
        for i in range(1, k + 1):
            log_term += math.log(mu) - math.log(i)
            total += math.exp(log_term)
        return total

    lo, hi = float(k), float(k) + 10.0 + 10.0 * math.sqrt(k + 1) - math.log(level) * 3
    for _ in range(100):
        mid = (lo + hi) / 2
        if cdf(mid) > level:
            lo = mid
        else:
            hi = mid
    return hi


def decide(evidence: Sequence[Evidence], band: BandSpec, reference: Reference | None
           ) -> list[Verdict]:
    """Every card's verdict, Benjamini-Hochberg across them (see the module's docstring).
    ``reference`` is the whole deck's average card, needed for the deck's band; without it
    every card is undecided with the reason."""
    a = band.alpha
    n_cards = max(len(evidence), 1)
    drafts: list[tuple[Evidence, Verdict]] = []
    for e in evidence:
        if band.absolute:
            lo, hi, centre, edge_se, x_se = band.lo, band.hi, 0.0, 0.0, e.se
        elif reference is None:
            drafts.append((e, Verdict(e.card, UNDECIDED, math.nan, math.nan, math.nan,
                                      e.value, math.nan, reason="no whole-deck reference "
                                      "to measure the band from: try every card of the deck "
                                      "(or give an absolute band, --band LO:HI)")))
            continue
        else:
            centre, edge_se = reference.mean, reference.se
            lo, hi = -band.threshold, band.threshold
            x_se = reference.relative_se(e.card, e.se) if math.isfinite(e.se) else math.nan
        drafts.append((e, _test(e, lo, hi, centre, edge_se, x_se, band, n_cards)))
    tested = [v.p_value for _, v in drafts]
    qs = _bh(tested)
    # Benjamini-Hochberg's cut-off, k alpha / m with k of the m tested cards decided: every
    # test of a decided card at or under it rejects too (which picks its most telling verdict)
    m = sum(not math.isnan(p) for p in tested)
    cut = sum(not math.isnan(q) and q <= a for q in qs) * a / max(m, 1)
    out = []
    for (e, v), q in zip(drafts, qs, strict=True):
        if v.verdict != UNDECIDED and math.isnan(v.p_value):  # decided by the bound
            out.append(v)
            continue
        if not math.isnan(q) and q <= a:
            verdict, near = _best(v.p, cut)
            out.append(_replace(v, verdict=verdict, q_value=q,
                                reason=_within_zone(verdict, band) if near else ""))
        else:
            out.append(_replace(v, q_value=q, **_undecided(e, v, band)))
    return out


def _bh(ps: Sequence[float]) -> list[float]:
    from pipeline.stats import benjamini_hochberg

    return benjamini_hochberg(list(ps))


def _replace(v: Verdict, **changes: object) -> Verdict:
    from dataclasses import replace

    return replace(v, **changes)


# the strict form of each side's test: the side itself, not within the zone of its edge
_STRICT = {ABOVE: "above_edge", BELOW: "below_edge", INSIDE: "inside_edges"}


def _best(p: dict[str, float], cut: float) -> tuple[str, bool]:
    """The most telling verdict whose test rejects at ``cut`` (the Benjamini-Hochberg cut-off
    among the cards): a strict side, else ``at_edge``, else a side within the zone of its
    edge; and whether it is the latter."""
    sides = [k for k in (ABOVE, BELOW, INSIDE) if not math.isnan(p[k])]
    strict = [k for k in sides if p[_STRICT[k]] <= cut]
    if strict:
        return min(strict, key=lambda k: p[_STRICT[k]]), False
    if p[AT_EDGE] <= cut:
        return AT_EDGE, False
    return min(sides, key=lambda k: p[k]), True


def _within_zone(verdict: str, band: BandSpec) -> str:
    """The reason of a side decided only to the zone's precision."""
    z = f"{band.zone:,.{band.digits}f} {band.unit}"
    return {ABOVE: f"above the band or less than {z} inside its upper edge, within the "
                   "indifference zone; not beyond the edge for sure",
            BELOW: f"below the band or less than {z} inside its lower edge, within the "
                   "indifference zone; not beyond the edge for sure",
            INSIDE: f"inside the band or less than {z} beyond an edge, within the "
                    "indifference zone; not within both edges for sure"}[verdict]


def _test(e: Evidence, lo: float, hi: float, centre: float, edge_se: float, x_se: float,
          band: BandSpec, n_cards: int) -> Verdict:
    x = e.value - centre
    base = Verdict(e.card, UNDECIDED, centre + lo, centre + hi, edge_se, x, x_se)
    if e.hands == 0:
        return _replace(base, reason="no hands measured yet")
    if e.changed < MIN_CHANGED:
        return _bounded(e, base, lo, hi, x_se, band, n_cards)
    if e.matches < MIN_MATCHES or not (x_se > 0):
        return _replace(base, reason=f"only {e.matches} matches: too few for an interval")
    df = max(e.matches - 1, 1)
    zone = band.zone
    looks, fraction, shape, grid = e.looks, e.fraction, e.shape, e.grid

    def p_up(edge: float) -> float:    # evidence that x > edge
        return one_sided_p((x - edge) / x_se, df, looks, fraction, shape, grid)

    def p_down(edge: float) -> float:  # evidence that x < edge
        return one_sided_p((edge - x) / x_se, df, looks, fraction, shape, grid)

    nearer = hi if abs(x - hi) <= abs(x - lo) else lo
    p = {ABOVE: p_up(hi - zone), BELOW: p_down(lo + zone),
         INSIDE: max(p_down(hi + zone), p_up(lo - zone)),
         AT_EDGE: max(p_up(nearer - zone), p_down(nearer + zone)),
         _STRICT[ABOVE]: p_up(hi), _STRICT[BELOW]: p_down(lo),
         _STRICT[INSIDE]: max(p_down(hi), p_up(lo))}
    return _replace(base, p=p, p_value=min(p[k] for k in (ABOVE, BELOW, INSIDE)))


def _bounded(e: Evidence, base: Verdict, lo: float, hi: float, x_se: float, band: BandSpec,
             n_cards: int) -> Verdict:
    """The few-changes argument: |value| <= upper share of changed hands x a changed hand's
    worth (the deck's 99th percentile), at level alpha / cards (a Bonferroni share, so it
    counts as one of Benjamini-Hochberg's smallest), with the looks counted too."""
    if not math.isfinite(e.magnitude) or e.replayed_hands == 0:
        return _replace(base, reason=f"its ability changed only {e.changed} of "
                        f"{e.replayed_hands:,} hands, and no deck trial tells what a changed "
                        "hand is worth")
    level = band.alpha / (n_cards * max(e.looks, 1))
    bound = poisson_upper(e.changed, level) / e.replayed_hands * e.magnitude
    # the band's edges are uncertain too: the deck's mean may be off by z of its errors
    slack = -_NORMAL.inv_cdf(level) * (base.edge_se if math.isfinite(base.edge_se) else 0.0)
    centre = e.value - base.x  # the deck's mean (0 for an absolute band)
    low, high = -bound - centre - slack, bound - centre + slack
    b = _replace(base, bound=bound)
    z = band.zone
    for verdict, holds in ((INSIDE, lo < low and high < hi), (ABOVE, low > hi),
                           (BELOW, high < lo)):
        if holds:
            return _replace(b, verdict=verdict, reason=_few(e, bound))
    for edge in (lo, hi):
        if edge - z < low and high < edge + z:
            return _replace(b, verdict=AT_EDGE, reason=_few(e, bound))
    # to the zone's precision, as the tests (the module's docstring)
    for verdict, holds in ((INSIDE, lo - z < low and high < hi + z), (ABOVE, low > hi - z),
                           (BELOW, high < lo + z)):
        if holds:
            return _replace(b, verdict=verdict,
                            reason=f"{_few(e, bound)}; {_within_zone(verdict, band)}")
    # settled once the bound leaves the nearer edge's zone on one side
    more = _hands_for_bound(e, level, min(abs(lo + centre), abs(hi + centre)) + z - slack)
    return _replace(b, reason=f"its ability changed only {e.changed} of "
                    f"{e.replayed_hands:,} hands; "
                    f"its value is bounded by +/-{bound:,.0f}, not yet inside the band or an "
                    "edge's zone", settle_hands=more)


def _few(e: Evidence, bound: float) -> str:
    return (f"its ability changed {e.changed} of {e.replayed_hands:,} hands: its value is "
            f"within +/-{bound:,.0f} points per hand (a changed hand counted at the deck's 99th "
            f"percentile, {e.magnitude:,.0f})")


def _hands_for_bound(e: Evidence, level: float, target: float) -> int | None:
    """Hands at which the bound would reach ``target`` if the ability kept changing hands at
    the rate seen (None when that rate alone is worth more than ``target``)."""
    if target <= 0 or not math.isfinite(e.magnitude):
        return None
    seen = e.replayed_hands  # a card with few changes keeps every hand replayed
    rate = e.changed / max(seen, 1)
    if rate * e.magnitude >= target:
        return None
    n = max(seen, 1)
    for _ in range(30):
        if poisson_upper(math.floor(rate * n), level) / n * e.magnitude <= target:
            return max(n - seen, 0)
        n *= 2
    return None


def _undecided(e: Evidence, v: Verdict, band: BandSpec) -> dict[str, object]:
    """Why a tested card is still undecided, and about how many more of its hands would settle
    it (the interval shrinks as 1 / sqrt(hands))."""
    if v.reason:
        return {"verdict": UNDECIDED}
    if not v.p:
        return {"verdict": UNDECIDED, "reason": "not tested"}
    edges = (-band.threshold, band.threshold) if not band.absolute else (band.lo, band.hi)
    gap = min(abs(v.x - edge) for edge in edges)
    # settled once the interval leaves the nearer edge's zone on one side
    room = gap + band.zone
    z = -_NORMAL.inv_cdf(band.alpha / 2 / max(e.looks, 1))
    need = (z * v.x_se / room) ** 2 if room > 0 else math.inf
    more = int(math.ceil(e.hands * (need - 1))) if math.isfinite(need) else None
    where = ("near an edge" if gap < band.zone else "its interval still crosses an edge")
    return {"verdict": UNDECIDED, "settle_hands": max(more, 0) if more is not None else None,
            "reason": f"{where} ({v.x_se * 1.96:,.{band.digits}f} {band.unit} either side)"}


__all__ = ["ABOVE", "ALPHA", "AT_EDGE", "BELOW", "DEFAULT_THRESHOLD", "DEFAULT_ZONE", "INSIDE",
           "DOUBLING_GRID", "LOOK_GRID", "LOOK_SHAPE", "MAX_LOOKS", "RACE_BUDGET_HANDS",
           "UNDECIDED", "VERDICTS",
           "BandSpec",
           "Evidence", "Reference", "Verdict", "crossing_probability", "decide", "one_sided_p",
           "poisson_upper", "t_quantile", "t_sf"]
