"""Rates and means with intervals: Wilson, clustered rate (design effect), clustered mean."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.stats import Estimate, clustered_mean, clustered_rate, design_effect, wilson_interval


def wilson_reference(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The textbook Wilson score interval, written out independently."""
    p = k / n
    a = p + z * z / (2 * n)
    b = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    c = 1 + z * z / n
    return ((a - b) / c, (a + b) / c)


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (50, 100, 0.4038, 0.5962),
    (10, 10, 0.7225, 1.0),
    (1, 20, 0.0089, 0.2361),
])
def test_wilson_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)
    ref = wilson_reference(k, n)
    assert lo == pytest.approx(max(0.0, ref[0]), abs=1e-12)
    assert hi == pytest.approx(min(1.0, ref[1]), abs=1e-12)


def test_wilson_edges_and_errors() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    assert wilson_interval(5, 10, z=2.576)[0] < wilson_interval(5, 10)[0]  # 99% is wider
    for bad in [(-1, 10), (11, 10), (1, -1)]:
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def test_clustered_rate_is_plain_wilson_with_one_item_per_cluster() -> None:
    outcomes = [1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    est = clustered_rate(outcomes, [1] * len(outcomes))
    low, high = wilson_interval(sum(outcomes), len(outcomes))
    assert est == Estimate(sum(outcomes) / len(outcomes), low, high, len(outcomes), 20)


def test_clustered_rate_is_plain_wilson_when_clusters_do_not_differ() -> None:
    est = clustered_rate([5] * 8, [10] * 8)  # every cluster exactly at the pooled rate
    assert design_effect([5] * 8, [10] * 8) == 1.0
    assert (est.low, est.high) == wilson_interval(40, 80)


def test_strongly_clustered_data_gives_a_wider_interval() -> None:
    # 20 matches of 10 hands each: a match is all wins or no wins, so it is one trial, not ten
    succ = [10, 0] * 10
    sizes = [10] * 20
    est = clustered_rate(succ, sizes)
    plain = wilson_interval(100, 200)
    assert est.value == 0.5
    assert est.n == 200 and est.clusters == 20
    assert est.low < plain[0] and est.high > plain[1]
    assert design_effect(succ, sizes) == pytest.approx(10.0)  # ICC 1: deff = cluster size
    assert (est.low, est.high) == pytest.approx(wilson_interval(10, 20))


def test_moderately_clustered_data_has_a_design_effect_between_one_and_m() -> None:
    succ = [3, 7, 4, 6, 2, 8, 5, 5]
    deff = design_effect(succ, [10] * 8)
    assert 1 < deff < 10
    # recompute: ratio-estimator variance over the simple variance
    p, k, total = 0.5, 8, 80
    var_c = k / (k - 1) * sum((y - p * 10) ** 2 for y in succ) / total**2
    assert deff == pytest.approx(var_c / (p * (1 - p) / total))


def test_clustered_rate_edges() -> None:
    empty = clustered_rate([], [])
    assert math.isnan(empty.value) and empty.n == 0 and empty.clusters == 0
    est = clustered_rate([0, 2, 0], [0, 5, 0])  # empty clusters are ignored
    assert est.clusters == 1 and est.n == 5
    assert (est.low, est.high) == wilson_interval(2, 5)
    zero = clustered_rate([0, 0, 0], [4, 4, 4])
    assert zero.value == 0.0 and zero.low == 0.0 and zero.high > 0
    with pytest.raises(ValueError):
        clustered_rate([3], [2])
    with pytest.raises(ValueError):
        clustered_rate([1, 2], [3])


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=30))
def test_clustered_interval_contains_the_plain_wilson_interval(pairs) -> None:
    sizes = [max(a, b) for a, b in pairs]
    succ = [min(a, b) for a, b in pairs]
    if sum(sizes) == 0:
        return
    est = clustered_rate(succ, sizes)
    low, high = wilson_interval(sum(succ), sum(sizes))
    assert est.low <= low + 1e-12
    assert est.high >= high - 1e-12
    assert est.low <= est.value <= est.high
    assert 1 <= design_effect(succ, sizes) <= max(1.0, sum(sizes) / est.clusters) + 1e-9


def test_clustered_mean_known_standard_error() -> None:
    # cluster sums 2 and 6, mean 2: residuals -2 and +2, se^2 = 2/1 * 8 / 4^2 = 1
    est = clustered_mean([[1, 1], [3, 3]])
    assert est.value == 2.0
    assert est.low == pytest.approx(2 - 1.96)
    assert est.high == pytest.approx(2 + 1.96)
    assert (est.n, est.clusters) == (4, 2)


def test_clustered_mean_with_singletons_is_the_usual_standard_error() -> None:
    values = [1.0, 2.0, 3.0, 4.0, 10.0]
    est = clustered_mean([[v] for v in values])
    mean = sum(values) / 5
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / 4) / math.sqrt(5)
    assert est.value == pytest.approx(mean)
    assert est.high - est.value == pytest.approx(1.96 * se)


def test_clustered_mean_is_wider_when_clusters_move_together() -> None:
    flat = [1, 2, 3, 4, 5, 6, 7, 8]
    mixed = clustered_mean([flat[0::4] + flat[2::4], flat[1::4] + flat[3::4]])
    together = clustered_mean([flat[:4], flat[4:]])
    assert mixed.value == together.value
    assert together.high - together.low > mixed.high - mixed.low


def test_clustered_mean_edges() -> None:
    empty = clustered_mean([[], []])
    assert math.isnan(empty.value) and empty.n == 0
    one = clustered_mean([[], [2, 4]])
    assert one.value == 3 and one.clusters == 1 and math.isnan(one.low)
    assert one.as_dict() == {"value": 3.0, "low": None, "high": None, "n": 2, "clusters": 1}
    assert not one.contains(3) and one.defined
