"""Clustered intervals for many groups at once, computed from per-group cluster moments.

These are the vectorised forms of :mod:`pipeline.stats` (which works on Python lists and is the
reference the tests hold them to). The cluster is always the match: hands of one match share the
table, the players and the score situation, so they are not independent trials.

Every estimate needs, per group, only a few sums over its clusters ``i`` (``y_i`` successes or
a sum of values, ``m_i`` trials or values): ``Y = sum y``, ``M = sum m``, ``k`` (clusters with
``m > 0``), ``yy = sum y^2``, ``ym = sum y m``, ``mm = sum m^2``. The spread between clusters
is then ``sum (y_i - p m_i)^2 = yy - 2 p ym + p^2 mm`` with ``p = Y / M``. The queries of
:mod:`pipeline.analytics.metrics` compute these moments inside DuckDB, so only one row per group
leaves the database, however large the run. A frame holding them as ``<name>_Y``, ``<name>_M``,
``<name>_k``, ``<name>_yy``, ``<name>_ym``, ``<name>_mm`` is turned into estimates by:

- :func:`rate_exprs`: successes / trials with a 95% Wilson interval on the effective sample size
  n / deff (design effect from the between-cluster variance), as
  :func:`pipeline.stats.clustered_rate`, and the standard error ``sqrt(deff p (1 - p) / n)``
  used to compare two runs;
- :func:`mean_exprs`: a pooled mean with the CR1 cluster-robust standard error, as
  :func:`pipeline.stats.clustered_mean`;
- :func:`field_diff_exprs`: a group's mean minus the field's mean (all groups pooled) with a
  cluster-robust standard error that counts the group being part of the field and the other
  seats of the same matches (the linearised difference of two ratio estimators).

:func:`rate_by_group`, :func:`mean_by_group` and :func:`diff_from_field` do the same from a
frame of clusters (one row per group and cluster), for data already in Polars. Undefined values
(no data, one cluster) are null.
"""

from __future__ import annotations

import polars as pl

from pipeline.stats import Z95

MOMENT_SUFFIXES = ("Y", "M", "k", "yy", "ym", "mm")


def _finite(expr: pl.Expr) -> pl.Expr:
    return pl.when(expr.is_finite()).then(expr).otherwise(None)


def _c(name: str, part: str) -> pl.Expr:
    return pl.col(f"{name}_{part}").cast(pl.Float64)


def _spread(name: str, p: pl.Expr) -> pl.Expr:
    """sum over clusters of (y - p m)^2, from the moments (never below 0)."""
    return (_c(name, "yy") - 2 * p * _c(name, "ym") + p * p * _c(name, "mm")).clip(0.0, None)


def rate_exprs(name: str, z: float = Z95) -> dict[str, pl.Expr]:
    """``rate``, ``lo``, ``hi``, ``se``, ``deff`` of the rate ``<name>_Y / <name>_M``."""
    y, m, k = _c(name, "Y"), _c(name, "M"), _c(name, "k")
    p = pl.when(m > 0).then(y / m)
    mbar = m / k
    var_cluster = k / (k - 1) * _spread(name, p) / (m * m)
    var_simple = p * (1 - p) / m
    icc = ((var_cluster / var_simple - 1) / (mbar - 1)).clip(0.0, 1.0)
    estimable = (k >= 2) & (p > 0) & (p < 1) & (mbar > 1)
    deff = pl.when(estimable).then(1 + (mbar - 1) * icc).otherwise(1.0)
    n_eff = m / deff
    z2 = z * z
    denom = 1 + z2 / n_eff
    centre = (p + z2 / (2 * n_eff)) / denom
    half = z / denom * (p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)).sqrt()
    return {
        "rate": p,
        "lo": pl.when(m <= 0).then(None).when(y == 0).then(0.0)
        .otherwise((centre - half).clip(0.0, None)),
        "hi": pl.when(m <= 0).then(None).when(y == m).then(1.0)
        .otherwise((centre + half).clip(None, 1.0)),
        "se": pl.when(m > 0).then((deff * p * (1 - p) / m).sqrt()),
        "deff": pl.when(m > 0).then(deff),
    }


def mean_exprs(name: str, z: float = Z95) -> dict[str, pl.Expr]:
    """``mean``, ``lo``, ``hi``, ``se`` of the pooled mean ``<name>_Y / <name>_M``; the
    interval is null with fewer than two clusters."""
    y, m, k = _c(name, "Y"), _c(name, "M"), _c(name, "k")
    mean = pl.when(m > 0).then(y / m)
    se = pl.when(k >= 2).then(_finite((k / (k - 1) * _spread(name, mean)).sqrt() / m))
    return {"mean": mean, "lo": mean - z * se, "hi": mean + z * se, "se": se}


def field_diff_exprs(name: str, field: dict[str, float]) -> dict[str, pl.Expr]:
    """``diff`` = group mean - field mean and its standard error ``se``.

    Linearised, the difference contributes per match ``u_i = a_i - b_i`` with
    ``a_i = (S_gi - mean_g m_gi) / N_g`` (zero where the group is absent) and
    ``b_i = (S_fi - mean_f m_fi) / N_f``; its variance is ``K / (K - 1) * sum(u_i^2)`` over
    the K matches of the field. Needs, besides the group's moments, the cross moments
    ``<name>_yF = sum y S_f``, ``<name>_yN = sum y N_f``, ``<name>_mF = sum m S_f``,
    ``<name>_mN = sum m N_f`` over the group's clusters, and ``field``: ``K``, ``N`` (values),
    ``S`` (their sum), ``bb`` (``sum b_i^2``). A group seen in one match only has no interval.
    """
    big_k, n_f, s_f, bb = field["K"], field["N"], field["S"], field["bb"]
    mean_f = s_f / n_f if n_f else float("nan")
    y, m, k = _c(name, "Y"), _c(name, "M"), _c(name, "k")
    mean_g = y / m
    aa = _spread(name, mean_g) / (m * m)
    ab = (_c(name, "yF") - mean_f * _c(name, "yN") - mean_g * _c(name, "mF")
          + mean_g * mean_f * _c(name, "mN")) / (m * n_f)
    var = big_k / (big_k - 1) * (bb + aa - 2 * ab) if big_k >= 2 else pl.lit(None, pl.Float64)
    se = pl.when(k >= 2).then(_finite(var.clip(0.0, None).sqrt()))
    return {"diff": mean_g - mean_f, "se": se}


def field_moments(per_match: pl.DataFrame, s: str, m: str) -> dict[str, float]:
    """``K``, ``N``, ``S``, ``bb`` and the field's mean and standard error (``mean``, ``se``)
    from one row per match with the field's sum ``s`` and count ``m``."""
    f = per_match.filter(pl.col(m) > 0).select(pl.col(s).cast(pl.Float64).alias("s"),
                                                 pl.col(m).cast(pl.Float64).alias("m"))
    big_k = f.height
    n = float(f["m"].sum()) if big_k else 0.0
    total = float(f["s"].sum()) if big_k else 0.0
    if not n:
        return {"K": 0, "N": 0.0, "S": 0.0, "bb": float("nan"), "mean": float("nan"),
                "se": float("nan")}
    mean = total / n
    bb = float(((f["s"] - mean * f["m"]) ** 2).sum()) / (n * n)
    se = (big_k / (big_k - 1) * bb) ** 0.5 if big_k >= 2 else float("nan")
    return {"K": big_k, "N": n, "S": total, "bb": bb, "mean": mean, "se": se}


# --- the same from clusters held in Polars ----------------------------------------------------


def moments(clusters: pl.DataFrame, by: str, y: str, m: str, name: str = "x") -> pl.DataFrame:
    """Per group, the moments ``<name>_Y`` ... ``<name>_mm`` of clusters with ``m > 0``, in
    order of first appearance; each group's sums run in the clusters' order, so clusters in a
    fixed order (sorted by match) give bit-identical sums."""
    yy, mm = pl.col(y).cast(pl.Float64), pl.col(m).cast(pl.Float64)
    return (clusters.filter(mm > 0).group_by(by, maintain_order=True).agg(
        yy.sum().alias(f"{name}_Y"), mm.sum().alias(f"{name}_M"),
        pl.len().alias(f"{name}_k"), (yy * yy).sum().alias(f"{name}_yy"),
        (yy * mm).sum().alias(f"{name}_ym"), (mm * mm).sum().alias(f"{name}_mm")))


def rate_by_group(clusters: pl.DataFrame, by: str, y: str, m: str, z: float = Z95
                  ) -> pl.DataFrame:
    """Per group: ``n`` (trials), ``k`` (non-empty clusters), ``rate``, ``lo``, ``hi``, ``se``,
    ``deff``. Clusters with no trials are ignored."""
    e = rate_exprs("x", z)
    return moments(clusters, by, y, m).select(
        by, pl.col("x_M").cast(pl.Int64).alias("n"), pl.col("x_k").cast(pl.Int64).alias("k"),
        **{key: e[key] for key in ("rate", "lo", "hi", "se", "deff")})


def mean_by_group(clusters: pl.DataFrame, by: str, s: str, m: str, z: float = Z95
                  ) -> pl.DataFrame:
    """Per group: ``n`` (values), ``k`` (non-empty clusters), ``mean``, ``lo``, ``hi``, ``se``.

    ``s`` is each cluster's sum of values and ``m`` its number of values (or its total weight:
    a weighted mean works the same). With fewer than two clusters the interval is null.
    """
    e = mean_exprs("x", z)
    return moments(clusters, by, s, m).select(
        by, pl.col("x_M").alias("n"), pl.col("x_k").cast(pl.Int64).alias("k"),
        **{key: e[key] for key in ("mean", "lo", "hi", "se")})


def diff_from_field(clusters: pl.DataFrame, by: str, cluster: str, s: str, m: str
                    ) -> pl.DataFrame:
    """Per group: ``diff`` = group mean - field mean, and its standard error ``diff_se``
    (see :func:`field_diff_exprs`), from one row per group and cluster."""
    c = clusters.filter(pl.col(m) > 0)
    per_match = c.group_by(cluster).agg(sf=pl.col(s).sum(), nf=pl.col(m).sum()).sort(cluster)
    field = field_moments(per_match, "sf", "nf")
    c = c.join(per_match, on=cluster, how="left")
    yy, mm = pl.col(s).cast(pl.Float64), pl.col(m).cast(pl.Float64)
    sf, nf = pl.col("sf").cast(pl.Float64), pl.col("nf").cast(pl.Float64)
    mom = moments(c, by, s, m).join(c.group_by(by, maintain_order=True).agg(
        (yy * sf).sum().alias("x_yF"), (yy * nf).sum().alias("x_yN"),
        (mm * sf).sum().alias("x_mF"), (mm * nf).sum().alias("x_mN")), on=by).sort(by)
    e = field_diff_exprs("x", field)
    return mom.select(by, diff=e["diff"], diff_se=e["se"])


__all__ = ["MOMENT_SUFFIXES", "diff_from_field", "field_diff_exprs", "field_moments",
           "mean_by_group", "mean_exprs", "moments", "rate_by_group", "rate_exprs"]
