"""Paired measurement (``--paired``): every hand played with a character is played again from the
same start without that seat's ability, and both outcomes go to the ``pairs`` table.

The runs use a test catalog of four cards whose effect is a win multiplier: ``plain_*`` multiply
by 1 (an ability that changes nothing), ``quad_*`` by 4. With teams of one card, every seat
plays one of them in every hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import cli
from pipeline.sim import SimError
from pipeline.sim.run import MANIFEST_DIR, load_table, read_run, simulate
from pipeline.sim.tables import PAIRS_SCHEMA, SCHEMA_VERSION, TABLES
from tests.support.paired_runs import make_config, write_catalog, write_preset

KEY = ["match_id", "hand_index", "seat"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One paired run played by one worker and by two, and the same run unpaired."""
    base = tmp_path_factory.mktemp("paired")
    simulate(make_config(base), base / "w1", workers=1)
    simulate(make_config(base), base / "w2", workers=2)
    simulate(make_config(base, paired=False), base / "plain", workers=1)
    return {"w1": base / "w1", "w2": base / "w2", "plain": base / "plain"}


SORT = {"events": ["match_id", "hand_index", "seq"], "matches": ["match_id", "seat"]}


def table(out: Path, name: str) -> pl.DataFrame:
    return load_table(out, name).sort(SORT.get(name, KEY))


def test_a_paired_run_writes_one_pair_per_seat_hand_played_with_a_character(
        runs: dict[str, Path]) -> None:
    pairs, hands = table(runs["w1"], "pairs"), table(runs["w1"], "hands")
    assert dict(pairs.schema) == PAIRS_SCHEMA
    assert hands["character"].null_count() == 0 and pairs.height == hands.height > 0
    # the "with" side is the real hand of the main tables
    joined = hands.join(pairs, on=KEY, how="inner", validate="1:1")
    assert joined.height == hands.height
    assert (joined["character"] == joined["character_right"]).all()
    assert (joined["delta"] == joined["delta_with"]).all()
    assert (joined["outcome"] == joined["outcome_with"]).all()
    assert (joined["ability_triggers"] == joined["triggers_with"]).all()
    assert (joined["sticks_end"] == joined["sticks_end_with"]).all()
    assert (pairs["delta_diff"] == pairs["delta_with"] - pairs["delta_without"]).all()
    doc = read_run(runs["w1"])
    assert doc["paired"] is True and doc["schema_version"] == SCHEMA_VERSION
    assert doc["rows"]["pairs"] == pairs.height
    assert doc["run_id"].startswith("cards-one-test-s2-n3-paired-")


def test_an_ability_that_does_nothing_makes_no_difference(runs: dict[str, Path]) -> None:
    pairs = table(runs["w1"], "pairs")
    plain = pairs.filter(pl.col("character").str.starts_with("plain_"))
    assert plain.height > 10
    assert plain["delta_diff"].to_list() == [0] * plain.height
    assert plain["same_moves"].all()
    assert (plain["outcome_with"] == plain["outcome_without"]).all()


def test_a_win_multiplier_shows_in_the_pairs(runs: dict[str, Path]) -> None:
    """A quad card's own wins are worth 4 times as much with the ability (its card text); the
    play itself is the same, since the greedy bots never look at scores."""
    quad = table(runs["w1"], "pairs").filter(pl.col("character").str.starts_with("quad_"))
    won = quad.filter(pl.col("outcome_with").is_in(["tsumo_win", "ron_win"]))
    assert won.height > 0
    assert won["same_moves"].all()
    assert (won["win_points_with"] == 4 * won["win_points_without"]).all()
    assert (won["delta_diff"] > 0).all()
    assert (won["triggers_with"] > 0).all()


def test_the_without_side_conserves_points(runs: dict[str, Path]) -> None:
    pairs = table(runs["w1"], "pairs")
    for row in pairs.iter_rows(named=True):
        deltas = row["deltas_without"]
        assert len(deltas) == 4
        assert deltas[row["seat"]] == row["delta_without"]
        assert sum(deltas) == (1000 * (row["sticks_start"] - row["sticks_end_without"])
                               + row["stakes_start"] - row["stakes_end_without"]), row


def test_pairs_do_not_change_the_main_tables(runs: dict[str, Path]) -> None:
    for name in TABLES:
        paired = table(runs["w1"], name).drop("run_id")
        plain = table(runs["plain"], name).drop("run_id")
        assert paired.equals(plain), name
    assert read_run(runs["w1"])["run_id"] != read_run(runs["plain"])["run_id"]


def test_pairs_do_not_depend_on_the_worker_count(runs: dict[str, Path]) -> None:
    for name in (*TABLES, "pairs"):
        assert table(runs["w1"], name).equals(table(runs["w2"], name)), name
    for part in sorted((runs["w1"] / "pairs").glob("part-*.parquet")):
        assert part.read_bytes() == (runs["w2"] / "pairs" / part.name).read_bytes()


def test_an_unpaired_run_has_no_pairs_table(runs: dict[str, Path]) -> None:
    assert not (runs["plain"] / "pairs").exists()
    with pytest.raises(SimError, match="without --paired"):
        load_table(runs["plain"], "pairs")


def test_a_paired_run_resumes_to_the_same_tables(runs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "resumed"
    simulate(make_config(tmp_path), out, workers=1)
    (out / MANIFEST_DIR / "part-00001.json").unlink()            # killed before its commit
    pairs2 = out / "pairs" / "part-00002.parquet"
    pairs2.write_bytes(pairs2.read_bytes()[:50])                  # a damaged pairs file
    summary = simulate(make_config(tmp_path), out, workers=1)
    assert summary.shards_run == 2 and summary.shards_skipped == 1
    for name in (*TABLES, "pairs"):
        assert table(out, name).equals(table(runs["w1"], name)), name
    assert read_run(out)["status"] == "complete"


def run_cli(*args: str):
    return CliRunner().invoke(cli.app, ["simulate", *args])


def test_paired_from_the_command_line(tmp_path: Path) -> None:
    preset, catalog = write_preset(tmp_path), write_catalog(tmp_path)
    args = ["--preset", str(preset), "--cards", str(catalog), "--games", "1", "--seed", "3",
            "--bots", "greedy", "--workers", "1", "--paired", "--out", str(tmp_path / "run")]
    first = run_cli(*args)
    assert first.exit_code == 0, first.output
    assert load_table(tmp_path / "run", "pairs").height == load_table(tmp_path / "run",
                                                                       "hands").height
    again = run_cli(*args)
    assert again.exit_code == 0 and "already done" in again.output
    unpaired = run_cli(*args[:-3], "--out", str(tmp_path / "run"))  # same folder, no --paired
    assert unpaired.exit_code == 2 and "paired" in unpaired.output


def test_paired_needs_a_card_preset(tmp_path: Path) -> None:
    result = run_cli("--preset", "single-hand", "--games", "1", "--paired", "--workers", "1",
                     "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert "--paired" in result.output and "card preset" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_run_of_an_older_schema_is_refused_clearly(tmp_path: Path) -> None:
    cfg = make_config(tmp_path, games=1)
    out = tmp_path / "old"
    simulate(cfg, out, workers=1)
    doc = json.loads((out / "run.json").read_text())
    doc["schema_version"] = 2
    (out / "run.json").write_text(json.dumps(doc))
    with pytest.raises(SimError, match="schema 2.*--force"):
        simulate(cfg, out, workers=1)
    assert load_table(out, "hands").height > 0  # its tables stay readable


def test_no_pair_differing_is_shown_as_such_not_as_a_certain_zero(runs: dict[str, Path]) -> None:
    """The plain cards' pairs are all equal: their spread is zero, which measures nothing, so
    the paired interval is null and the table says no pair differed."""
    from pipeline.analytics.render import stats_text
    from pipeline.analytics.runs import open_run
    from pipeline.analytics.table import character_table

    df = character_table(open_run(runs["w1"]), min_hands=1)
    plain = df.filter(pl.col("group").str.starts_with("plain_"))
    quad = df.filter(pl.col("group").str.starts_with("quad_"))
    assert plain.height == 2 and (plain["paired_changed"] == 0).all()
    assert plain["paired_effect"].to_list() == [0.0, 0.0]
    assert plain["paired_lo"].is_null().all() and plain["paired_hi"].is_null().all()
    assert (quad["paired_changed"] > 0).all() and quad["paired_lo"].is_not_null().all()
    text = stats_text(df, label="x", by="character", min_hands=1, threshold=300)
    assert text.count("+0 [no pair differed]") == 2
