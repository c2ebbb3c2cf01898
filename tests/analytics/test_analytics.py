"""Balance analytics on synthetic runs whose true effects are known: planted effects are
recovered inside their intervals and flagged, null effects are not, and the intervals are as
wide as the clustering of hands in matches demands."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from pipeline.analytics import (
    AnalyticsError,
    calibration_table,
    character_table,
    compare_runs,
    open_run,
)
from pipeline.analytics.frames import basic_metrics
from pipeline.analytics.intervals import diff_from_field, mean_by_group, rate_by_group
from pipeline.analytics.synthetic import VALUES, SyntheticSpec, write_synthetic_run
from pipeline.sim.run import load_table
from pipeline.stats import benjamini_hochberg, clustered_mean, clustered_rate, two_sided_p

CHARS = tuple(f"char_{i:02d}" for i in range(12))
STAR = CHARS[0]


def synth(tmp_path: Path, name: str, **kw) -> Path:
    spec = SyntheticSpec(**{"matches": 1500, "characters": CHARS, **kw})
    return write_synthetic_run(tmp_path / name, spec)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[SyntheticSpec, Path]:
    """One strong character (win weight 1.6), picked 80% of the time it is held, triggering
    0.5 times per hand; teams of two, so picks vary within a match."""
    spec = SyntheticSpec(matches=3000, characters=CHARS, team_size=2, seed=11,
                         win_weight={STAR: 1.6}, pick_weight={STAR: 4.0},
                         trigger_rate={STAR: 0.5})
    return spec, write_synthetic_run(tmp_path_factory.mktemp("planted") / "run", spec)


# --- the planted effect ---------------------------------------------------------------------


def test_planted_swing_is_recovered_inside_its_interval_and_flagged(planted) -> None:
    spec, path = planted
    df = character_table(open_run(path))
    star = df.filter(pl.col("group") == STAR).row(0, named=True)
    # expected net points per hand, worked out from the model (see pipeline.analytics.synthetic)
    q = 1.6 / 4.6
    expected = 0.85 * (sum(VALUES) / len(VALUES)) * (q - (1 - q) / 3)
    assert expected == pytest.approx(spec.expected_swing(STAR))
    assert 700 < expected < 900
    assert star["field_diff_lo"] <= expected <= star["field_diff_hi"]
    assert star["swing_lo"] <= expected <= star["swing_hi"]
    assert star["flag"] == "strong"
    assert star["q_value"] < 0.05
    assert df.row(0, named=True)["group"] == STAR  # sorted by swing, strongest first
    # win rate: the star wins q of the hands that have a winner (85% of hands)
    assert star["win_lo"] <= 0.85 * q <= star["win_hi"]
    # deal-in: a ron (60% of wins) off one of the three non-winners -> 0.85 * 0.6 * (1 - q) / 3
    assert star["deal_in_lo"] <= 0.85 * 0.6 * (1 - q) / 3 <= star["deal_in_hi"]
    assert star["pick_lo"] <= 0.8 <= star["pick_hi"]
    assert star["triggers_per_hand"] == pytest.approx(0.5, abs=0.03)
    assert star["trigger_value"] == 2000.0  # every valued trigger states +2000 points
    assert star["tsumo_share"] == pytest.approx(0.4, abs=0.03)
    assert star["avg_win"] == pytest.approx(sum(VALUES) / len(VALUES), rel=0.05)
    # the others are not flagged strong; their share of the star's gains makes them slightly weak
    others = df.filter(pl.col("group") != STAR)
    assert (others["flag"] == "strong").sum() == 0
    assert (others["pick_rate"] < 0.55).all()


def test_a_planted_weak_character_is_flagged_weak(tmp_path: Path) -> None:
    df = character_table(open_run(synth(tmp_path, "weak", win_weight={STAR: 0.5}, seed=3)))
    star = df.filter(pl.col("group") == STAR).row(0, named=True)
    expected = SyntheticSpec(1, win_weight={STAR: 0.5}).expected_swing(STAR)
    assert expected < -700
    assert star["field_diff_lo"] <= expected <= star["field_diff_hi"]
    assert star["flag"] == "weak"
    assert df.row(df.height - 1, named=True)["group"] == STAR


def test_threshold_and_min_hands_gate_the_flags(planted) -> None:
    _, path = planted
    run = open_run(path)
    # a certain effect smaller than the practical threshold is not flagged
    big = character_table(run, threshold=5000)
    assert big.filter(pl.col("group") == STAR)["q_value"][0] < 0.05
    assert (big["flag"] == "").all()
    # below the minimum sample: "not enough data", no test, listed after the rest
    few = character_table(run, min_hands=20000)
    star = few.filter(pl.col("group") == STAR).row(0, named=True)
    assert 10000 < star["hands"] < 20000
    assert star["flag"] == "not enough data"
    assert star["p_value"] is None and star["q_value"] is None
    assert (few["flag"] == "not enough data").all()


def test_groups_below_min_hands_are_listed_last(tmp_path: Path) -> None:
    # about 800 hands per character: a minimum of 800 leaves some groups short
    path = synth(tmp_path, "rare", matches=300, win_weight={STAR: 1.6})
    df = character_table(open_run(path), min_hands=800)
    flags = df["flag"].to_list()
    enough = [f != "not enough data" for f in flags]
    assert enough == sorted(enough, reverse=True)  # every eligible group before the others
    assert any(enough) and not all(enough)


# --- null runs: no effect, no flags ---------------------------------------------------------


def test_null_run_flags_nothing_and_intervals_cover_zero(tmp_path: Path) -> None:
    """40 equal characters, three seeds: about 5% of the 120 intervals may miss 0, and
    Benjamini-Hochberg keeps every q above 0.05."""
    chars = tuple(f"c{i:02d}" for i in range(40))
    misses = flagged = tested = 0
    for seed in (1, 2, 3):
        spec = SyntheticSpec(matches=2000, characters=chars, seed=seed, seat_luck=0.5)
        df = character_table(open_run(write_synthetic_run(tmp_path / f"n{seed}", spec)),
                             min_hands=200)
        ok = df.filter(pl.col("flag") != "not enough data")
        tested += ok.height
        misses += ok.filter((pl.col("field_diff_lo") > 0) | (pl.col("field_diff_hi") < 0)).height
        flagged += ok.filter(pl.col("q_value") < 0.05).height
    assert tested == 120
    assert misses <= 15     # P(16 or more misses of 120 at a true 5%) < 0.3%
    assert flagged <= 6     # no more than 5% flagged at q < 0.05


def test_clustered_intervals_keep_their_coverage_where_naive_ones_do_not(tmp_path: Path
                                                                        ) -> None:
    """With a seat's form carried through a match, hands are not independent: the
    clustered win-rate interval keeps about 95% coverage of the true rate (1/4 for equal
    characters), the interval that ignores clustering covers far less."""
    chars = tuple(f"c{i:02d}" for i in range(40))
    spec = SyntheticSpec(matches=2000, characters=chars, seed=9, seat_luck=1.0,
                         hands_per_match=12)
    run = open_run(write_synthetic_run(tmp_path / "luck", spec))
    df = character_table(run)
    truth = 0.85 / 4
    clustered = df.filter((pl.col("win_lo") <= truth) & (truth <= pl.col("win_hi"))).height
    naive = 0
    for r in df.iter_rows(named=True):
        p, n = r["win_rate"], r["hands"]
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        naive += p - half <= truth <= p + half
    assert clustered >= 34                 # of 40, at 95% expect 38
    assert naive < clustered
    assert (df["win_se"] > 0).all()


def test_field_difference_error_agrees_with_a_bootstrap_over_matches(tmp_path: Path) -> None:
    """The linearised standard error of (group mean - field mean) against resampling whole
    matches with replacement."""
    path = synth(tmp_path, "boot", matches=400, seat_luck=0.7, win_weight={STAR: 1.4}, seed=5)
    hands = load_table(path, "hands")
    clusters = (hands.group_by("character", "match_id")
                .agg(s=pl.col("delta").cast(pl.Int64).sum(), n=pl.len()))
    se = diff_from_field(clusters, "character", "match_id", "s", "n").filter(
        pl.col("character") == STAR)["diff_se"][0]
    # bootstrap, written out independently with numpy
    wide = clusters.with_columns(star=pl.col("character") == STAR).group_by("match_id").agg(
        s_star=pl.col("s").filter(pl.col("star")).sum(),
        n_star=pl.col("n").filter(pl.col("star")).sum(),
        s_all=pl.col("s").sum(), n_all=pl.col("n").sum()).sort("match_id")
    arr = wide.select("s_star", "n_star", "s_all", "n_all").to_numpy().astype(float)
    rng = np.random.default_rng(0)
    diffs = []
    for _ in range(1000):
        pick = arr[rng.integers(0, len(arr), len(arr))]
        tot = pick.sum(axis=0)
        diffs.append(tot[0] / tot[1] - tot[2] / tot[3])
    boot = float(np.std(diffs, ddof=1))
    assert se == pytest.approx(boot, rel=0.15)
    # the table computes the same from moments summed inside DuckDB
    table = character_table(open_run(path)).filter(pl.col("group") == STAR)
    assert table["field_diff_se"][0] == pytest.approx(se, rel=1e-9)


# --- the interval code against the reference implementation --------------------------------


def test_vectorised_intervals_equal_pipeline_stats() -> None:
    rng = random.Random(4)
    rows = []
    for g in range(6):
        for c in range(rng.randint(1, 30)):
            m = rng.randint(0, 20)
            rows.append({"g": g, "c": c, "y": rng.randint(0, m) if g != 5 else 0, "m": m,
                         "s": rng.randint(-20000, 20000)})
    df = pl.DataFrame(rows)
    rates = rate_by_group(df, "g", "y", "m")
    means = mean_by_group(df, "g", "s", "m")
    for g in range(6):
        sub = df.filter(pl.col("g") == g)
        ref = clustered_rate(sub["y"].to_list(), sub["m"].to_list())
        got = rates.filter(pl.col("g") == g)
        if not ref.defined:
            assert got.is_empty()
            continue
        row = got.row(0, named=True)
        assert row["rate"] == pytest.approx(ref.value, abs=1e-12)
        assert row["lo"] == pytest.approx(ref.low, abs=1e-12)
        assert row["hi"] == pytest.approx(ref.high, abs=1e-12)
        # a mean of cluster sums over cluster sizes: each cluster holds m values summing to s
        values = [[r["s"] / r["m"]] * r["m"] if r["m"] else []
                  for r in sub.iter_rows(named=True)]
        ref_mean = clustered_mean(values)
        mrow = means.filter(pl.col("g") == g).row(0, named=True)
        assert mrow["mean"] == pytest.approx(ref_mean.value, rel=1e-9)
        if math.isnan(ref_mean.low):
            assert mrow["lo"] is None
        else:
            assert mrow["lo"] == pytest.approx(ref_mean.low, rel=1e-9)
            assert mrow["hi"] == pytest.approx(ref_mean.high, rel=1e-9)


def test_duckdb_and_polars_forms_agree_exactly(planted) -> None:
    _, path = planted
    run = open_run(path)
    sql = character_table(run).sort("group")
    frame = basic_metrics(load_table(path, "hands"))
    assert sql["group"].to_list() == frame["group"].to_list()
    assert sql["hands"].to_list() == frame["hands"].to_list()
    assert sql["win_rate"].to_list() == frame["win_rate"].to_list()
    assert sql["swing"].to_list() == frame["swing"].to_list()
    assert sql["win_lo"].to_list() == pytest.approx(frame["win_lo"].to_list(), abs=1e-12)
    assert sql["swing_hi"].to_list() == pytest.approx(frame["swing_hi"].to_list(), rel=1e-12)
    # and the seat grouping, against a plain count
    seats = character_table(run, by="seat").sort("group")
    hands = load_table(path, "hands")
    for r in seats.iter_rows(named=True):
        mine = hands.filter(pl.col("seat") == int(r["group"]))
        assert r["hands"] == mine.height
        assert r["swing"] == mine["delta"].cast(pl.Int64).sum() / mine.height


def test_placement_is_hands_weighted_per_match_and_seat(planted) -> None:
    _, path = planted
    df = character_table(open_run(path))
    hands, matches = load_table(path, "hands"), load_table(path, "matches")
    w = hands.group_by("character", "match_id", "seat").agg(w=pl.len()).join(
        matches, on=["match_id", "seat"])
    star = w.filter(pl.col("character") == STAR)
    expected = (star["w"] * star["rank"]).sum() / star["w"].sum()
    top = (star["w"] * (star["rank"] == 1)).sum() / star["w"].sum()
    row = df.filter(pl.col("group") == STAR).row(0, named=True)
    assert row["avg_place"] == pytest.approx(expected, rel=1e-12)
    assert row["top_rate"] == pytest.approx(top, rel=1e-12)
    assert row["avg_place"] < 2.4  # the strong character places better than 2.5
    # every place's share, weighted the same way; the four shares add up to one
    for place, column in ((2, "second_rate"), (3, "third_rate"), (4, "last_rate")):
        share = (star["w"] * (star["rank"] == place)).sum() / star["w"].sum()
        assert row[column] == pytest.approx(share, rel=1e-12)
    for r in df.iter_rows(named=True):
        total = r["top_rate"] + r["second_rate"] + r["third_rate"] + r["last_rate"]
        assert total == pytest.approx(1.0, rel=1e-12)


# --- Benjamini-Hochberg and p-values --------------------------------------------------------


def test_benjamini_hochberg_matches_a_hand_worked_example() -> None:
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216]
    # m p_(i) / i: .01 .04 .13 .1025 .084 .1 .10571 .25625 .23556 .216, then the running
    # minimum from the largest p down
    expected = [0.01, 0.04, 0.084, 0.084, 0.084, 0.1, 0.74 / 7, 0.216, 0.216, 0.216]
    assert benjamini_hochberg(p) == pytest.approx(expected)
    shuffled = [0.216, 0.001, 0.06, 0.008]
    # sorted .001 .008 .06 .216 -> 4p/i: .004 .016 .08 .216
    assert benjamini_hochberg(shuffled) == pytest.approx([0.216, 0.004, 0.08, 0.016])
    with_gap = benjamini_hochberg([0.01, math.nan, 0.04])   # m = 2: .02, .04
    assert with_gap[0] == pytest.approx(0.02) and with_gap[2] == pytest.approx(0.04)
    assert math.isnan(with_gap[1])
    assert benjamini_hochberg([0.9, 0.8]) == pytest.approx([0.9, 0.9])


def test_two_sided_p_values() -> None:
    assert two_sided_p(1.96, 1.0) == pytest.approx(0.05, abs=1e-4)
    assert two_sided_p(-2.5758, 1.0) == pytest.approx(0.01, abs=1e-4)
    assert two_sided_p(0.0, 3.0) == 1.0
    assert math.isnan(two_sided_p(1.0, 0.0))


# --- opening runs ---------------------------------------------------------------------------


def test_open_run_refuses_what_is_not_a_complete_intact_run(tmp_path: Path) -> None:
    with pytest.raises(AnalyticsError, match="no such run folder"):
        open_run(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(AnalyticsError, match="not a run folder"):
        open_run(tmp_path / "empty")
    spec = SyntheticSpec(matches=20, characters=CHARS, shard_matches=10)
    running = write_synthetic_run(tmp_path / "running", spec, status="running")
    with pytest.raises(AnalyticsError, match="not complete"):
        open_run(running)
    damaged = write_synthetic_run(tmp_path / "damaged", spec)
    part = damaged / "hands" / "part-00001.parquet"
    data = bytearray(part.read_bytes())
    data[100] ^= 0xFF
    part.write_bytes(bytes(data))
    with pytest.raises(AnalyticsError, match="part-00001.parquet: damaged"):
        open_run(damaged)
    lost = write_synthetic_run(tmp_path / "lost", spec)
    (lost / "manifest" / "part-00000.json").unlink()
    with pytest.raises(AnalyticsError, match="part-00000 has no valid manifest"):
        open_run(lost)


def test_open_run_reads_only_the_files_the_manifests_list(tmp_path: Path) -> None:
    spec = SyntheticSpec(matches=20, characters=CHARS, shard_matches=10)
    path = write_synthetic_run(tmp_path / "r", spec)
    # a stray shard file that no manifest lists must not be counted
    (path / "hands" / "part-00009.parquet").write_bytes(
        (path / "hands" / "part-00000.parquet").read_bytes())
    run = open_run(path)
    assert run.sql("SELECT count(*) AS n FROM hands")["n"][0] == 20 * 8 * 4
    assert run.label.startswith("synthetic-s1-n20")
    assert not run.has("pairs")
    assert character_table(run)["paired_effect"].is_null().all()


# --- baselines and comparisons --------------------------------------------------------------


def test_baseline_run_replaces_the_field(tmp_path: Path) -> None:
    run = open_run(synth(tmp_path, "cards", win_weight={STAR: 1.6}))
    base = open_run(synth(tmp_path, "base", seed=8, cards=False))
    df = character_table(run, baseline=base)
    star = df.filter(pl.col("group") == STAR).row(0, named=True)
    # the baseline has no characters (all "(none)"): the baseline's field is the reference
    assert star["reference"].endswith("field")
    field = base.sql("SELECT avg(delta) AS m FROM hands")["m"][0]
    assert star["field_diff"] == pytest.approx(star["swing"] - field, abs=1e-9)
    # every synthetic hand sums to zero, so the baseline's field mean is exactly 0 (and so is
    # its standard error); the variances of the two independent runs add
    assert field == 0
    assert star["field_diff_se"] == pytest.approx(star["swing_se"])
    assert star["flag"] == "strong"
    # by seat the baseline has the same groups
    seats = character_table(run, by="seat", baseline=base)
    assert seats["reference"].str.ends_with("same group").all()


def _with_snapshot(path: Path, cards: dict, uma: list[int] | None = None) -> Path:
    meta = json.loads((path / "run.json").read_text())
    meta["catalog"] = {"version": "test", "content_hash": json.dumps(cards, sort_keys=True),
                       "cards": cards}
    if uma:
        meta["preset"]["uma"] = uma
    (path / "run.json").write_text(json.dumps(meta))
    return path


def _card(name: str, han: int, text: str = "Pinfu is worth {p.han} han.") -> dict:
    return {"name": name, "school": "S", "text_template": text,
            "effects": [{"id": "p", "kind": "yaku_value", "yaku": "Pinfu", "han": han}],
            "flags": [], "clarifications": []}


def test_compare_runs_reports_changes_intervals_flags_and_what_changed(tmp_path: Path) -> None:
    a = synth(tmp_path, "a", seed=1)
    b = synth(tmp_path, "b", seed=2, win_weight={STAR: 1.8})
    _with_snapshot(a, {STAR: _card("Star", 1), CHARS[1]: _card("One", 2),
                       "gone": _card("Gone", 1)})
    _with_snapshot(b, {STAR: _card("Star", 3), CHARS[1]: _card("One", 2, "Pinfu: {p.han} han."),
                       "new": _card("New", 1)}, uma=[20, 10, -10, -20])
    cmp = compare_runs(open_run(a), open_run(b))
    m = cmp.metrics
    star = m.filter(pl.col("group") == STAR).row(0, named=True)
    assert star["name"] == "Star"
    assert star["flag"] == "up"
    expected = SyntheticSpec(1, win_weight={STAR: 1.8}).expected_swing(STAR)
    assert star["swing_delta_lo"] <= expected <= star["swing_delta_hi"]
    assert star["swing_delta"] == pytest.approx(star["swing_b"] - star["swing_a"])
    assert star["win_rate_delta_lo"] > 0
    assert m.row(0, named=True)["group"] == STAR
    for metric in ("win_rate", "deal_in_rate", "swing", "avg_place"):
        for suffix in ("_a", "_b", "_delta", "_delta_lo", "_delta_hi"):
            assert metric + suffix in m.columns
    changes = {(c["card"], c["change"]) for c in cmp.card_changes}
    assert changes == {(STAR, "parameters"), (CHARS[1], "text"), ("gone", "removed"),
                       ("new", "added")}
    param = next(c for c in cmp.card_changes if c["change"] == "parameters")
    assert "han = 1" in param["before"] and "han = 3" in param["after"]
    text = next(c for c in cmp.card_changes if c["change"] == "text")
    assert text["before"] == "One: Pinfu is worth 2 han." and text["after"] == "One: Pinfu: 2 han."
    assert {"option": "uma", "a": [15, 5, -5, -15], "b": [20, 10, -10, -20]} in cmp.preset_changes
    assert all(p["option"] != "description" for p in cmp.preset_changes)


def test_compare_of_two_null_runs_flags_nothing(tmp_path: Path) -> None:
    chars = tuple(f"c{i:02d}" for i in range(40))
    runs = [open_run(write_synthetic_run(tmp_path / f"s{seed}", SyntheticSpec(
        matches=1500, characters=chars, seed=seed, seat_luck=0.5))) for seed in (21, 22)]
    cmp = compare_runs(*runs)
    tested = cmp.metrics.filter(pl.col("flag") != "not enough data")
    assert tested.height == 40
    assert (tested["q_value"] < 0.05).sum() <= 2
    assert (tested["flag"] == "").all()
    assert cmp.card_changes == [] and cmp.preset_changes == []


def test_catalog_file_is_checked_against_the_run_hash(tmp_path: Path) -> None:
    ids = ("nodoka_haramura", "komaki_jindai", "arata_sagimori", "tomoki_sawamura")
    spec = SyntheticSpec(matches=10, characters=ids, catalog="1.2")
    path = write_synthetic_run(tmp_path / "r", spec)
    run = open_run(path)
    assert set(character_table(run, min_hands=1)["name"]) == {
        "Nodoka Haramura", "Komaki Jindai", "Arata Sagimori", "Tomoki Sawamura"}
    meta = json.loads((path / "run.json").read_text())
    meta["catalog"]["content_hash"] = "0" * 64
    (path / "run.json").write_text(json.dumps(meta))
    cmp = compare_runs(run, open_run(path))
    assert any("content hash differs" in w for w in cmp.warnings)


def test_calibration_table_has_every_figure_with_the_human_reference(planted) -> None:
    _, path = planted
    cal = calibration_table(open_run(path))
    assert cal["metric"].to_list()[:6] == ["win_rate", "deal_in_rate", "riichi_rate",
                                           "call_rate", "exhaustive_draw_rate", "average_win"]
    row = {r["metric"]: r for r in cal.iter_rows(named=True)}
    hands = load_table(path, "hands")
    draws = hands.filter(pl.col("draw_kind") == "exhaustive").height
    # one winner in every hand that is not a draw
    assert row["win_rate"]["value"] == pytest.approx((hands.height - draws) / 4 / hands.height)
    assert row["exhaustive_draw_rate"]["value"] == pytest.approx(draws / hands.height)
    assert row["exhaustive_draw_rate"]["lo"] <= 0.15 <= row["exhaustive_draw_rate"]["hi"]
    assert row["win_rate"]["human"] == 0.211 and row["win_rate"]["target_lo"] == 0.19
    assert row["riichi_rate"]["value"] == pytest.approx(0.2, abs=0.005)
    assert row["riichi_rate"]["lo"] < row["riichi_rate"]["value"] < row["riichi_rate"]["hi"]
