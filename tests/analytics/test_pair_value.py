"""A pair's value counts the points a hand leaves on the table at a quarter for each seat."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from pipeline.analytics.paired import TABLE_SHARE, _pair_value_sql, pair_value_expr

PAIRS = pl.DataFrame({
    # a riichi left on the table after a draw (the ability made her declare): -1,000 + 250;
    # the others staked 3,000 for a later winner (Hitomi's stake): 0 + 750; a plain win
    # difference with nothing left on either side; a stick she took back by winning
    "delta_diff": [-1000, 0, 2600, 5000],
    "sticks_end_with": [1, 0, 0, 0], "sticks_end_without": [0, 0, 0, 1],
    "stakes_end_with": [0, 3000, 0, 0], "stakes_end_without": [0, 0, 0, 0],
}, schema_overrides={"sticks_end_with": pl.Int16, "sticks_end_without": pl.Int16,
                     "delta_diff": pl.Int32})


def test_points_left_on_the_table_count_a_quarter() -> None:
    assert TABLE_SHARE == 0.25
    values = PAIRS.select(pair_value_expr(PAIRS.columns)).to_series().to_list()
    assert values == [-750.0, 750.0, 2600.0, 4750.0]


def test_the_sql_form_gives_the_same_values() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE pairs (delta_diff INTEGER, sticks_end_with SMALLINT, "
                "sticks_end_without SMALLINT, stakes_end_with INTEGER, "
                "stakes_end_without INTEGER)")
    con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?, ?)", PAIRS.rows())
    sql = _pair_value_sql(set(PAIRS.columns), "delta_diff")
    values = [v for (v,) in con.execute(f"SELECT {sql} FROM pairs").fetchall()]
    assert values == pytest.approx([-750.0, 750.0, 2600.0, 4750.0])


def test_tables_without_the_table_columns_use_the_plain_difference() -> None:
    old = PAIRS.select("delta_diff")
    assert old.select(pair_value_expr(old.columns)).to_series().to_list() == \
        [-1000.0, 0.0, 2600.0, 5000.0]
    assert _pair_value_sql({"delta_diff"}, "delta_diff") == "delta_diff"


def test_the_trial_stops_on_the_value_it_reports() -> None:
    # a card whose pairs differ only in what they leave on the table (Hitomi's stakes): the
    # trial's stopping rule sees the same value as its table, so it has an interval
    from pipeline.sim.trial import measure

    rows = pl.DataFrame({
        "match_id": [0, 0, 1, 1, 2, 2, 3, 3],
        "delta_diff": [0] * 8,
        "sticks_end_with": [0] * 8, "sticks_end_without": [0] * 8,
        "stakes_end_with": [3000, 0, 1500, 0, 0, 3000, 0, 0],
        "stakes_end_without": [0] * 8,
    })
    progress = measure(rows, "hitomi_ezaki", blocks=1, block=4)
    assert progress.changed == 3 and progress.hands == 8
    assert progress.value == pytest.approx(TABLE_SHARE * 7500 / 8)
    assert progress.lo < progress.value < progress.hi
