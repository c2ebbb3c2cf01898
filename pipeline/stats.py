"""Small-sample statistics for simulation figures: rates and means with honest intervals.

Simulated mahjong data is clustered. The hands of one match share a table, the same four
players and the score situation that drove their choices, so two hands from one match are more
alike than two hands from different matches; the seat-hands within one hand (four players facing
the same wall) are even more so. Treating every hand as an independent trial understates the
uncertainty. The functions here therefore take the data grouped by cluster (normally: one match)
and widen their intervals by what the spread between clusters shows.

* :func:`wilson_interval` -- the Wilson score interval for a binomial proportion; well behaved
  near 0 and 1 and for small n, unlike the plain normal ("Wald") interval.
* :func:`clustered_rate` -- a proportion pooled over clusters (successes / trials), with a
  Wilson interval computed on the *effective* sample size n / deff, where deff is the design
  effect estimated from the between-cluster variance.
* :func:`clustered_mean` -- a mean pooled over clusters, with a cluster-robust standard error
  and a normal 95% interval.

Everything is plain Python (``math``); undefined values (no data, or a spread that cannot be
estimated) are ``nan``, never an exception, so a report can show them as missing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.96  # two-sided 95% quantile of the standard normal distribution, as usually rounded


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a 95% interval.

    ``n`` is the number of observations (trials for a rate, values for a mean) and ``clusters``
    the number of non-empty clusters they came from. ``value``, ``low`` and ``high`` are ``nan``
    when they cannot be computed (for example no observations at all).
    """

    value: float
    low: float
    high: float
    n: int
    clusters: int

    @property
    def defined(self) -> bool:
        """True when the point estimate exists (there was at least one observation)."""
        return not math.isnan(self.value)

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies inside the interval (False when the interval is undefined)."""
        return self.low <= x <= self.high

    def as_dict(self) -> dict[str, float | int | None]:
        """JSON-friendly form: ``nan`` becomes ``None``."""
        return {
            "value": _clean(self.value),
            "low": _clean(self.low),
            "high": _clean(self.high),
            "n": self.n,
            "clusters": self.clusters,
        }


def _clean(x: float) -> float | None:
    return None if math.isnan(x) or math.isinf(x) else x


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n`` trials.

    With p = successes / n::

        centre    = (p + z^2 / 2n) / (1 + z^2 / n)
        halfwidth = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)

    ``successes`` and ``n`` may be fractional (an effective sample size). Returns
    ``(nan, nan)`` when ``n`` is 0; raises ``ValueError`` for negative counts or
    ``successes > n``.
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # without rounding noise, 0 successes give a lower bound of exactly 0 and n an upper of 1
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def design_effect(successes_per_cluster: Sequence[float], n_per_cluster: Sequence[float]
                  ) -> float:
    """The design effect of a clustered proportion, ``deff = 1 + (m - 1) * ICC``.

    ``m`` is the mean number of trials per non-empty cluster. The intra-cluster correlation is
    estimated from the variance of the ratio estimator p = sum(y) / sum(n) over ``k`` clusters
    (the linearisation, or "ultimate cluster", variance)::

        var_cluster = k / (k - 1) * sum((y_i - p n_i)^2) / (sum n_i)^2
        var_simple  = p (1 - p) / sum(n_i)
        ICC         = (var_cluster / var_simple - 1) / (m - 1),   clamped to [0, 1]

    so that ``deff`` is the variance ratio, kept between 1 and ``m``: never narrower than
    treating every trial as independent, never wider than treating every cluster as a single
    trial. ``deff`` is 1 when it cannot be estimated: one cluster only, one trial per cluster
    (independent by construction), or p equal to 0 or 1 (no variance at all).
    """
    pairs = [(float(y), float(m)) for y, m in zip(successes_per_cluster, n_per_cluster,
                                                  strict=True) if m > 0]
    k = len(pairs)
    total = sum(m for _, m in pairs)
    if k < 2 or total == 0:
        return 1.0
    p = sum(y for y, _ in pairs) / total
    mean_size = total / k
    if p <= 0 or p >= 1 or mean_size <= 1:
        return 1.0
    var_cluster = k / (k - 1) * sum((y - p * m) ** 2 for y, m in pairs) / (total * total)
    var_simple = p * (1 - p) / total
    icc = (var_cluster / var_simple - 1) / (mean_size - 1)
    icc = min(1.0, max(0.0, icc))
    return 1 + (mean_size - 1) * icc


def clustered_rate(successes_per_cluster: Sequence[float], n_per_cluster: Sequence[float],
                   z: float = Z95) -> Estimate:
    """A proportion pooled over clusters, with a 95% Wilson interval widened for clustering.

    The rate is sum(successes) / sum(trials) over all clusters (each trial weighs the same,
    so a long match counts for more hands than a short one). The interval is the Wilson
    interval at the same rate on the effective sample size ``n / deff`` (see
    :func:`design_effect`): when hands within one match resemble each other, a thousand hands
    from ten matches carry less information than a thousand independent hands, and the
    interval says so. With one trial per cluster the result is exactly
    ``wilson_interval(successes, n)``.

    Clusters with no trials are ignored (they carry no information about the rate).
    """
    if len(successes_per_cluster) != len(n_per_cluster):
        raise ValueError("successes_per_cluster and n_per_cluster differ in length")
    for y, m in zip(successes_per_cluster, n_per_cluster, strict=True):
        if m < 0 or y < 0 or y > m:
            raise ValueError(f"need 0 <= successes <= n in every cluster, got {y} of {m}")
    n = sum(n_per_cluster)
    clusters = sum(1 for m in n_per_cluster if m > 0)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, 0)
    successes = sum(successes_per_cluster)
    rate = successes / n
    deff = design_effect(successes_per_cluster, n_per_cluster)
    n_eff = n / deff
    low, high = wilson_interval(rate * n_eff, n_eff, z)
    return Estimate(rate, low, high, int(n), clusters)


def clustered_mean(values_per_cluster: Sequence[Sequence[float]], z: float = Z95) -> Estimate:
    """The mean of all values, with a cluster-robust standard error and a normal interval.

    The mean pools every value (mean = sum of all values / N). Its standard error treats the
    clusters, not the values, as the independent units (the CR1 "sandwich" estimator for a
    mean, with the small-sample factor k / (k - 1))::

        se^2 = k / (k - 1) * sum_i (S_i - mean * m_i)^2 / N^2

    where S_i and m_i are the sum and the count of cluster i and k the number of non-empty
    clusters. The interval is mean +- z * se. With one value per cluster this is the usual
    standard error s / sqrt(N); when values inside a cluster move together it is larger.

    With one non-empty cluster the spread between clusters cannot be estimated: the interval
    is ``nan``. Empty clusters are ignored; no values at all gives a ``nan`` estimate.
    """
    groups = [[float(v) for v in vals] for vals in values_per_cluster if len(vals) > 0]
    n = sum(len(g) for g in groups)
    k = len(groups)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, 0)
    mean = sum(sum(g) for g in groups) / n
    if k < 2:
        return Estimate(mean, math.nan, math.nan, n, k)
    se = math.sqrt(k / (k - 1) * sum((sum(g) - mean * len(g)) ** 2 for g in groups)) / n
    return Estimate(mean, mean - z * se, mean + z * se, n, k)


def clustered_ratio(sums: Sequence[float], weights: Sequence[float], z: float = Z95
                    ) -> Estimate:
    """:func:`clustered_mean` from each cluster's sum ``S_i`` and weight ``m_i`` (its count of
    values, or the hands a match's value is spread over): mean = sum S / sum m, the same
    cluster-robust standard error. Clusters of weight 0 are ignored."""
    pairs = [(float(s), float(m)) for s, m in zip(sums, weights, strict=True) if m > 0]
    n = sum(m for _, m in pairs)
    k = len(pairs)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, 0)
    mean = sum(s for s, _ in pairs) / n
    if k < 2:
        return Estimate(mean, math.nan, math.nan, int(n), k)
    se = math.sqrt(k / (k - 1) * sum((s - mean * m) ** 2 for s, m in pairs)) / n
    return Estimate(mean, mean - z * se, mean + z * se, int(n), k)


def two_sided_p(estimate: float, se: float) -> float:
    """Two-sided p-value of ``estimate = 0`` under a normal approximation (z = estimate / se).

    ``nan`` when the standard error is missing or not positive (the test cannot be made).
    """
    if math.isnan(estimate) or math.isnan(se) or se <= 0:
        return math.nan
    return math.erfc(abs(estimate / se) / math.sqrt(2))


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given.

    With the m defined p-values sorted ascending, ``q_(i) = min over j >= i of m p_(j) / j``,
    capped at 1: rejecting every hypothesis with q below a level keeps the expected share of
    false discoveries under that level. ``nan`` entries (groups not tested) stay ``nan`` and do
    not count in m.
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    m = len(tested)
    out = [math.nan] * len(p_values)
    running = 1.0
    for rank in range(m, 0, -1):
        p, i = tested[rank - 1]
        running = min(running, m * p / rank)
        out[i] = running
    return out


def ranks(values: Sequence[float]) -> list[float]:
    """0-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (NaN with fewer than two points or no spread)."""
    if len(x) != len(y):
        raise ValueError("spearman: the two sequences differ in length")
    if len(x) < 2:
        return math.nan
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else math.nan


__all__ = ["Estimate", "Z95", "benjamini_hochberg", "clustered_mean", "clustered_rate",
           "clustered_ratio",
           "design_effect", "ranks", "spearman", "two_sided_p", "wilson_interval"]
