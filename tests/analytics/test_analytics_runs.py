"""Balance analytics on real simulated runs: every metric against its definition written out
independently over the tables, the calibration figures against ``saki bots calibrate``, an A/A
check (same configuration, other seed), and the paired ability effect."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from pipeline.analytics import calibration_table, character_table, compare_runs, open_run
from pipeline.analytics.table import COLUMNS
from pipeline.bots.calibrate import calibrate
from pipeline.cards import registry
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.run import RunConfig, load_table, simulate

SMALL_CARDS = """extends = "cards-tonpuusen"
name = "cards-small"
description = "East-only card games with one character per seat, for quick tests"

[cards]
team_size = 1
"""


def play(out: Path, preset: str, games: int, seed: int, paired: bool = False) -> Path:
    rules = load_preset(preset)
    config = RunConfig(preset=rules, catalog=load_catalog(rules.cards.catalog), seed=seed,
                       games=games, paired=paired)
    simulate(config, out, workers=1)
    return out


@pytest.fixture(scope="module")
def small_preset(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("preset") / "cards-small.toml"
    path.write_text(SMALL_CARDS)
    return str(path)


def test_every_metric_matches_its_definition_on_a_real_card_run(tmp_path: Path,
                                                                 small_preset: str) -> None:
    path = play(tmp_path / "cards", small_preset, 4, 1)
    df = character_table(open_run(path), min_hands=1)
    assert df.columns[:len(COLUMNS)] == list(COLUMNS)
    hands = load_table(path, "hands")
    events = load_table(path, "events")
    picks = load_table(path, "picks")
    assert df["hands"].sum() == hands.height
    # the value of a deal-in: every ron taken off the seat in that hand
    rons = (hands.filter(pl.col("outcome") == "ron_win")
            .group_by("match_id", "hand_index", pl.col("win_from").alias("seat"))
            .agg(paid=pl.col("win_points").sum()))
    dealt = hands.filter(pl.col("outcome") == "dealt_in").join(
        rons, on=["match_id", "hand_index", "seat"], how="left")
    assert dealt["paid"].null_count() == 0
    for row in df.iter_rows(named=True):
        mine = hands.filter(pl.col("character") == row["group"])
        n = mine.height
        wins = mine.filter(pl.col("outcome").is_in(["tsumo_win", "ron_win"]))
        draws = mine.filter(pl.col("draw_kind").is_in(["exhaustive", "nagashi_mangan"]))
        held = picks.filter(pl.col("team").list.contains(row["group"]))
        # an ability event counts for the seat whose card caused it; bookkeeping apart
        credited = events.filter(pl.col("kind") == "ability").with_columns(
            seat=pl.col("card_seat"))
        fired = credited.filter(pl.col("effect") != "bookkeeping").join(
            mine.select("match_id", "hand_index", "seat"), on=["match_id", "hand_index", "seat"])
        valued_rows = credited.join(
            mine.select("match_id", "hand_index", "seat"), on=["match_id", "hand_index", "seat"])
        valued = (valued_rows["detail"].str.extract(r"([+-]?\d+) points", 1).cast(pl.Int64)
                  .drop_nulls())
        assert row["hands"] == n
        assert row["matches"] == mine["match_id"].n_unique()
        assert row["win_rate"] == pytest.approx(wins.height / n)
        assert row["deal_in_rate"] == pytest.approx(
            mine.filter(pl.col("outcome") == "dealt_in").height / n)
        assert row["riichi_rate"] == pytest.approx(mine["riichi"].sum() / n)
        assert row["call_rate"] == pytest.approx((mine["calls"] > 0).sum() / n)
        assert row["swing"] == pytest.approx(mine["delta"].cast(pl.Int64).sum() / n)
        assert row["pick_rate"] == pytest.approx(
            (held["character"] == row["group"]).sum() / held.height)
        assert row["triggers_per_hand"] == pytest.approx(fired.height / n)
        assert fired.height == mine["ability_triggers"].sum()
        _same(row["tsumo_share"], (wins["outcome"] == "tsumo_win").sum() / wins.height
              if wins.height else None)
        _same(row["avg_win"], wins["win_points"].mean() if wins.height else None)
        _same(row["draw_tenpai_rate"], draws["tenpai_end"].sum() / draws.height
              if draws.height else None)
        mine_dealt = dealt.filter(pl.col("character") == row["group"])
        _same(row["avg_deal_in"], mine_dealt["paid"].mean() if mine_dealt.height else None)
        _same(row["trigger_value"], valued.mean() if valued.len() else None)
        assert row["win_lo"] <= row["win_rate"] <= row["win_hi"]
    assert set(df["name"]) <= {c.name for c in load_catalog("1.2")}


def _same(got: float | None, expected: float | None) -> None:
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected)


def test_a_a_runs_of_one_configuration_flag_nothing(tmp_path: Path) -> None:
    """Two seeds of one configuration (single hands, to be quick): no seat may come out
    changed (at most 5% of the groups tested may have q < 0.05; with four seats that is
    none)."""
    a, b = (open_run(play(tmp_path / str(seed), "single-hand", 16, seed)) for seed in (1, 2))
    cmp = compare_runs(a, b, by="seat", min_hands=10)
    tested = cmp.metrics.filter(pl.col("flag") != "not enough data")
    assert tested.height == 4
    assert (tested["q_value"] < 0.05).sum() == 0
    assert (tested["flag"] == "").all()
    assert cmp.card_changes == [] and cmp.preset_changes == []
    for r in tested.iter_rows(named=True):
        assert r["swing_delta_lo"] < r["swing_delta"] < r["swing_delta_hi"]


@pytest.fixture(scope="module")
def few_cards_preset(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The small preset with a deck of twelve characters (the rest excluded, C-10's option),
    so 60 matches give each character enough matches to be judged (10 or more)."""
    catalog = load_catalog("1.2")
    playable = [c.id for c in catalog.cards if registry.playable(c)]
    dropped = ", ".join(f'"{card}"' for card in playable[12:])
    path = tmp_path_factory.mktemp("preset") / "cards-few.toml"
    path.write_text(SMALL_CARDS.replace('name = "cards-small"', 'name = "cards-few"')
                    + f"exclude = [{dropped}]\n")
    return str(path)


@pytest.mark.slow
def test_a_a_by_character_on_larger_runs(tmp_path: Path, few_cards_preset: str) -> None:
    runs = [open_run(play(tmp_path / f"s{seed}", few_cards_preset, 60, seed))
            for seed in (3, 4)]
    cmp = compare_runs(*runs, min_hands=50)
    tested = cmp.metrics.filter(pl.col("flag") != "not enough data")
    assert tested.height >= 5
    assert (tested["q_value"] < 0.05).sum() <= math.floor(0.05 * tested.height)


def test_calibration_table_equals_bots_calibrate_on_the_same_matches(tmp_path: Path) -> None:
    """A run of plain bots and ``calibrate`` with the same preset, seed and games play the
    same matches, so every figure and interval must agree."""
    path = play(tmp_path / "cal", "online-tonpuusen", 3, 4)
    cal = calibration_table(open_run(path))
    report = calibrate(load_preset("online-tonpuusen"), 3, 4)
    for r in cal.iter_rows(named=True):
        est = report.metrics[r["metric"]]
        assert r["value"] == pytest.approx(est.value, rel=1e-12)
        if math.isnan(est.low):
            assert r["lo"] is None
        else:
            assert r["lo"] == pytest.approx(est.low, rel=1e-9)
            assert r["hi"] == pytest.approx(est.high, rel=1e-9)
    assert set(cal["metric"]) == set(report.metrics)


def test_paired_effect_is_the_mean_difference_from_the_pairs_table(tmp_path: Path,
                                                                  small_preset: str) -> None:
    path = play(tmp_path / "paired", small_preset, 1, 5, paired=True)
    run = open_run(path)
    assert run.has("pairs")
    df = character_table(run, min_hands=1)
    pairs = pl.concat([pl.read_parquet(p) for p in sorted((path / "pairs").glob("*.parquet"))])
    expected = pairs.group_by("character").agg(pl.col("delta_diff").cast(pl.Int64).mean())
    for row in expected.iter_rows(named=True):
        got = df.filter(pl.col("group") == row["character"])["paired_effect"][0]
        assert got == pytest.approx(row["delta_diff"])
    assert expected.height == df.filter(pl.col("paired_effect").is_not_null()).height
