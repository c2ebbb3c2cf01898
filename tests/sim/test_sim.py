"""Batch simulation: table contents, determinism across workers, conservation of points, atomic
shards, resuming a killed run, refusing a folder of another run, and the command line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import cli
import pipeline
from pipeline.cards import registry
from pipeline.cards.catalog import load_catalog
from pipeline.datafiles import PROJECT_ROOT
from pipeline.rules.preset import load_preset
from pipeline.sim import SimError
from pipeline.sim.run import (
    MANIFEST_DIR,
    RunConfig,
    load_table,
    parse_bots,
    read_run,
    simulate,
)
from pipeline.sim.tables import SCHEMA_VERSION, TABLES

KEYS = {
    "hands": ["match_id", "hand_index", "seat"],
    "matches": ["match_id", "seat"],
    "events": ["match_id", "hand_index", "seq"],
    "picks": ["match_id", "hand_index", "seat"],
}
EVENT_KINDS = {"win", "abortive_draw", "riichi", "call", "kan"}
MIXED = "heuristic,greedy,heuristic,random"  # wins, riichi, calls and draws all occur


def config(preset: str = "online-tonpuusen", games: int = 6, seed: int = 5,
           bots: str = "random", shard_size: int = 2) -> RunConfig:
    return RunConfig(preset=load_preset(preset), catalog=load_catalog("1.2"), seed=seed,
                     games=games, bots=parse_bots(bots), shard_size=shard_size)


def contents(out: Path) -> dict[str, pl.DataFrame]:
    """Every table of a run, sorted by its key, so runs can be compared whatever wrote them."""
    return {name: load_table(out, name).sort(KEYS[name]) for name in TABLES}


def assert_same_tables(a: Path, b: Path) -> None:
    ta, tb = contents(a), contents(b)
    for name in TABLES:
        assert ta[name].height > 0 or name == "events", name
        assert ta[name].schema == tb[name].schema, name
        assert ta[name].equals(tb[name]), name


def run_cli(*args: str):
    return CliRunner().invoke(cli.app, ["simulate", *args])


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same tonpuusen run, mixed bots, played by one worker and by two."""
    base = tmp_path_factory.mktemp("runs")
    cfg = config(games=6, bots=MIXED, shard_size=2)
    simulate(cfg, base / "w1", workers=1)
    simulate(cfg, base / "w2", workers=2)
    return {"w1": base / "w1", "w2": base / "w2"}


# --- tables ---------------------------------------------------------------------------------


def test_tables_have_their_schema_and_one_row_per_seat(runs: dict[str, Path]) -> None:
    t = contents(runs["w1"])
    for name, schema in TABLES.items():
        assert dict(t[name].schema) == schema, name
    hands, matches, picks = t["hands"], t["matches"], t["picks"]
    assert matches.height == 6 * 4
    assert hands.height == picks.height
    assert hands.height % 4 == 0
    assert set(hands["seat"].to_list()) == {0, 1, 2, 3}
    bots = dict(matches.select("seat", "bot").unique().iter_rows())
    assert bots == {0: "heuristic", 1: "greedy", 2: "heuristic", 3: "random"}
    per_hand = hands.group_by(["match_id", "hand_index"]).agg(pl.len().alias("n"))
    assert per_hand["n"].to_list() == [4] * per_hand.height
    # hands_played agrees with the hands table
    played = hands.group_by("match_id").agg((pl.len() // 4).alias("n")).sort("match_id")
    listed = matches.filter(pl.col("seat") == 0).sort("match_id")
    assert played["n"].to_list() == listed["hands_played"].to_list()
    # the card layer is not in play yet
    assert hands["character"].null_count() == hands.height
    assert picks["character"].null_count() == picks.height
    assert all(len(x) == 0 for x in picks["team"].to_list())
    assert all(len(x) == 0 for x in matches["character_team"].to_list())
    assert hands["ability_triggers"].to_list() == [0] * hands.height
    assert set(hands["run_id"].to_list()) == {read_run(runs["w1"])["run_id"]}


def test_win_columns_are_set_for_winners_only(runs: dict[str, Path]) -> None:
    hands = contents(runs["w1"])["hands"]
    won = hands["outcome"].is_in(["tsumo_win", "ron_win"])
    assert won.sum() >= 5
    for col in ("win_han", "win_fu", "win_points", "win_limit", "win_yakuman", "win_from",
                "dora"):
        assert hands.filter(won)[col].null_count() == 0, col
        assert hands.filter(~won)[col].null_count() == hands.filter(~won).height, col
    winners = hands.filter(won)
    assert all(len(y) > 0 for y in winners["yaku"].to_list())
    assert not any("Dora" in y for ys in winners["yaku"].to_list() for y in ys)
    assert (winners["win_points"] > 0).all()
    tsumo = winners.filter(pl.col("outcome") == "tsumo_win")
    assert (tsumo["win_from"] == tsumo["seat"]).all()


def test_events_agree_with_the_hands_table(runs: dict[str, Path]) -> None:
    t = contents(runs["w1"])
    hands, events = t["hands"], t["events"]
    assert set(events["kind"].to_list()) <= EVENT_KINDS
    count = dict(events.group_by("kind").agg(pl.len()).iter_rows())
    assert count["win"] and count["riichi"] and count["call"]
    wins = hands.filter(pl.col("outcome").is_in(["tsumo_win", "ron_win"])).height
    assert count.get("win", 0) == wins
    accepted = events.filter((pl.col("kind") == "riichi")
                             & ~pl.col("detail").str.contains("not_accepted")).height
    assert accepted == hands["riichi"].sum()
    assert count.get("kan", 0) == hands["kans"].sum()
    open_kans = events.filter(pl.col("detail").str.starts_with("minkan")).height
    assert count.get("call", 0) + open_kans == hands["calls"].sum()
    aborts = hands.filter(pl.col("draw_kind").is_in(
        ["nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron"])).height
    assert count.get("abortive_draw", 0) * 4 == aborts
    # seq numbers each hand's events 0, 1, 2, ...
    seqs = events.group_by(["match_id", "hand_index"]).agg(pl.col("seq").sort())
    assert all(s == list(range(len(s))) for s in seqs["seq"].to_list())
    tiles = events.filter(pl.col("kind").is_in(["win", "call", "kan"]))["tile"].to_list()
    assert all(t is not None and len(t) == 2 and t[1] in "mpsz" for t in tiles)


# --- determinism and conservation -----------------------------------------------------------


def test_worker_count_does_not_change_the_tables(runs: dict[str, Path]) -> None:
    assert read_run(runs["w1"])["run_id"] == read_run(runs["w2"])["run_id"]
    assert_same_tables(runs["w1"], runs["w2"])
    for name in TABLES:  # a shard holds the same block of matches whoever played it
        for part in sorted((runs["w1"] / name).glob("part-*.parquet")):
            a = pl.read_parquet(part)
            b = pl.read_parquet(runs["w2"] / name / part.name)
            assert a.sort(KEYS[name]).equals(b.sort(KEYS[name])), part.name


def test_a_different_seed_gives_different_tables(tmp_path: Path) -> None:
    simulate(config(games=2, seed=5, shard_size=2), tmp_path / "a", workers=1)
    simulate(config(games=2, seed=6, shard_size=2), tmp_path / "b", workers=1)
    a, b = contents(tmp_path / "a")["hands"], contents(tmp_path / "b")["hands"]
    assert not a.drop("run_id").equals(b.drop("run_id"))


@pytest.mark.parametrize("preset, bots", [("online-tonpuusen", MIXED),
                                          ("single-hand", "greedy")])
def test_points_are_conserved_in_every_hand_of_every_shard(
        tmp_path: Path, preset: str, bots: str) -> None:
    out = tmp_path / preset
    simulate(config(preset, games=8, bots=bots, shard_size=3), out, workers=1)
    parts = sorted((out / "hands").glob("part-*.parquet"))
    assert len(parts) == 3
    if preset != "single-hand":  # a single hand returns its deposits; here sticks do move
        everything = load_table(out, "hands")
        assert (everything["sticks_end"] != everything["sticks_start"]).any()
    for part in parts:
        hands = pl.read_parquet(part)
        per_hand = hands.group_by(["match_id", "hand_index"]).agg(
            pl.col("delta").sum().alias("deltas"),
            pl.col("sticks_start").first(), pl.col("sticks_end").first(),
            pl.col("sticks_start").n_unique().alias("n1"),
            pl.col("sticks_end").n_unique().alias("n2"))
        assert (per_hand["n1"] == 1).all() and (per_hand["n2"] == 1).all()
        bad = per_hand.filter(pl.col("deltas").cast(pl.Int64)
                              != 1000 * (pl.col("sticks_start").cast(pl.Int64)
                                         - pl.col("sticks_end").cast(pl.Int64)))
        assert bad.height == 0, f"{part.name}: {bad}"
        assert (hands["end_score"] - hands["start_score"] == hands["delta"]).all()


def test_scores_and_sticks_carry_from_hand_to_hand(runs: dict[str, Path]) -> None:
    t = contents(runs["w1"])
    hands = t["hands"].sort(["match_id", "seat", "hand_index"])
    nxt = hands.with_columns(
        pl.col("start_score").shift(-1).over(["match_id", "seat"]).alias("next_start"),
        pl.col("sticks_start").shift(-1).over(["match_id", "seat"]).alias("next_sticks"))
    inner = nxt.filter(pl.col("next_start").is_not_null())
    assert (inner["end_score"] == inner["next_start"]).all()
    assert (inner["sticks_end"] == inner["next_sticks"]).all()
    last = nxt.filter(pl.col("next_start").is_null()).sort(["match_id", "seat"])
    final = t["matches"].sort(["match_id", "seat"])
    bonus = final["final_score"] - last["end_score"]  # leftover sticks go to first place
    assert ((bonus == 0) | (final["rank"] == 1)).all()


# --- run folder, run.json, resume ------------------------------------------------------------


def test_run_json_describes_the_run(runs: dict[str, Path]) -> None:
    doc = read_run(runs["w2"])
    cfg = config(games=6, bots=MIXED, shard_size=2)
    assert doc["schema_version"] == SCHEMA_VERSION == 4
    assert doc["status"] == "complete"
    assert doc["run_id"] == cfg.run_id
    assert doc["preset"] == json.loads(json.dumps(cfg.preset.to_dict()))
    catalog = load_catalog("1.2")
    cards = doc["catalog"].pop("cards")
    assert doc["catalog"] == {"version": "1.2", "content_hash": catalog.content_hash()}
    assert doc["paired"] is False
    assert set(cards) == set(catalog.ids)  # the catalog's content, card by card
    nodoka = cards["nodoka_haramura"]  # as written in data/cards/1.2.toml
    assert nodoka["name"] == "Nodoka Haramura" and nodoka["school"] == "Kiyosumi"
    assert nodoka["text"].startswith("Closed tanyao is worth 2 han. Pinfu is worth 2 han.")
    assert nodoka["effects"][1] == {"id": "pinfu", "kind": "yaku_value", "yaku": "Pinfu",
                                    "han": 2, "closed_only": False, "condition": "always"}
    assert (doc["seed"], doc["games"], doc["shard_size"]) == (5, 6, 2)
    assert doc["bots"]["seats"] == ["heuristic", "greedy", "heuristic", "random"]
    assert doc["code"]["version"] == pipeline.__version__
    assert doc["shards"] == {"total": 3, "done": 3}
    assert doc["rows"]["matches"] == 24
    assert doc["rows"]["hands"] == load_table(runs["w2"], "hands").height
    assert doc["timings"]["created"] and doc["timings"]["finished"]
    assert doc["sessions"][-1]["workers"] == 2
    for name in TABLES:
        assert len(list((runs["w2"] / name).glob("part-*.parquet"))) == 3
    assert not list(runs["w2"].rglob("*.tmp"))


def test_a_finished_run_is_not_played_again(tmp_path: Path) -> None:
    cfg = config(games=3, shard_size=2)
    simulate(cfg, tmp_path, workers=1)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*.parquet")}
    again = simulate(cfg, tmp_path, workers=1)
    assert again.shards_run == 0 and again.shards_skipped == 2
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*.parquet")} == before
    assert len(read_run(tmp_path)["sessions"]) == 2


def test_damaged_and_unfinished_shards_are_redone(tmp_path: Path) -> None:
    cfg = config(games=8, shard_size=2)
    reference, out = tmp_path / "reference", tmp_path / "damaged"
    simulate(cfg, reference, workers=1)
    simulate(cfg, out, workers=1)
    hands1 = out / "hands" / "part-00001.parquet"
    hands1.write_bytes(hands1.read_bytes()[:100])                    # truncated
    (out / "events" / "part-00000.parquet").write_bytes(b"garbage")  # overwritten
    (out / MANIFEST_DIR / "part-00002.json").unlink()                # killed before its commit
    (out / "matches" / ".part-00003.parquet.999.tmp").write_bytes(b"half")  # a temp file
    with pytest.raises(SimError, match="damaged"):
        load_table(out, "hands")  # a damaged file is never read as data
    summary = simulate(cfg, out, workers=1)
    assert summary.shards_run == 3 and summary.shards_skipped == 1
    assert_same_tables(reference, out)
    assert not list(out.rglob("*.tmp"))
    assert read_run(out)["status"] == "complete"


def test_a_shard_without_manifest_is_not_read(tmp_path: Path) -> None:
    simulate(config(games=4, shard_size=2), tmp_path, workers=1)
    full = load_table(tmp_path, "matches").height
    (tmp_path / MANIFEST_DIR / "part-00001.json").unlink()
    assert load_table(tmp_path, "matches").height == full // 2


def test_killed_run_resumes_to_the_same_tables(tmp_path: Path) -> None:
    out, fresh = tmp_path / "killed", tmp_path / "fresh"
    args = ["--preset", "online-tonpuusen", "--games", "10", "--seed", "11", "--bots", "greedy",
            "--workers", "1", "--shard-size", "1", "--out", str(out)]
    command = [sys.executable, "cli.py", "simulate", *args]
    proc = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    first = out / MANIFEST_DIR / "part-00000.json"
    deadline = time.monotonic() + 120
    try:
        while not first.exists():
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "no shard finished in time"
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert read_run(out)["status"] == "running"
    finished = len(list((out / MANIFEST_DIR).glob("part-*.json")))
    assert 1 <= finished < 10

    again = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True,
                           timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert "shards were already done" in again.stdout
    assert "\x1b" not in again.stderr  # no progress bar when not on a terminal: plain lines
    assert again.stderr.startswith(f"resuming: {finished} of 10 matches already done")
    simulate(RunConfig(preset=load_preset("online-tonpuusen"), catalog=load_catalog("1.2"),
                       seed=11, games=10, bots=parse_bots("greedy"), shard_size=1),
             fresh, workers=1)
    assert_same_tables(out, fresh)
    doc = read_run(out)
    assert doc["status"] == "complete"
    assert [s["finished"] is None for s in doc["sessions"]] == [True, False]


# --- refusing a folder -----------------------------------------------------------------------


def assert_one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("error:")
    for word in words:
        assert word in text, text


def test_a_folder_of_another_run_is_refused_unless_forced(tmp_path: Path) -> None:
    base = ["--preset", "single-hand", "--games", "2", "--bots", "random", "--workers", "1",
            "--out", str(tmp_path)]
    first = run_cli(*base, "--seed", "1")
    assert first.exit_code == 0, first.output
    refused = run_cli(*base, "--seed", "2")
    assert_one_line_error(refused, "different run", "seed", "--force")
    assert read_run(tmp_path)["seed"] == 1
    other_bots = run_cli(*base[:-4], "--bots", "greedy", "--workers", "1", "--out",
                         str(tmp_path), "--seed", "1")
    assert_one_line_error(other_bots, "different run", "bots")
    forced = run_cli(*base, "--seed", "2", "--force")
    assert forced.exit_code == 0, forced.output
    doc = read_run(tmp_path)
    assert doc["seed"] == 2 and len(doc["sessions"]) == 1
    assert set(load_table(tmp_path, "hands")["run_id"].to_list()) == {doc["run_id"]}


def test_a_run_played_by_other_code_is_not_resumed_unless_forced(tmp_path: Path) -> None:
    """Resuming with changed code would mix two versions' tables in one run."""
    base = ["--preset", "single-hand", "--games", "2", "--bots", "random", "--workers", "1",
            "--out", str(tmp_path), "--seed", "1"]
    assert run_cli(*base).exit_code == 0
    doc = read_run(tmp_path)
    doc["code"]["source_hash"] = "f" * 16
    (tmp_path / "run.json").write_text(json.dumps(doc))
    refused = run_cli(*base)
    assert_one_line_error(refused, "another version of the lab's code", "--force")
    forced = run_cli(*base, "--force")
    assert forced.exit_code == 0, forced.output
    assert read_run(tmp_path)["code"]["source_hash"] != "f" * 16


def test_a_folder_that_is_not_a_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = run_cli("--preset", "single-hand", "--games", "1", "--bots", "random",
                     "--workers", "1", "--out", str(tmp_path))
    assert_one_line_error(result, "not empty", "--force")
    assert not (tmp_path / "run.json").exists()


@pytest.mark.parametrize("args, words", [
    (["--bots", "heuristic,greedy"], ["one bot kind or four"]),
    (["--bots", "wizard"], ["unknown bot kind"]),
    (["--preset", "no-such-preset"], ["no-such-preset"]),
    (["--cards", "9.9"], ["9.9"]),
])
def test_bad_options_give_one_line(tmp_path: Path, args: list[str], words: list[str]) -> None:
    result = run_cli("--games", "1", "--out", str(tmp_path / "x"), *args)
    assert_one_line_error(result, *words)


# --- command line ----------------------------------------------------------------------------


def test_simulate_command_writes_a_run(tmp_path: Path) -> None:
    result = run_cli("--preset", "single-hand", "--cards", "1.2", "--games", "3", "--seed",
                     "4", "--bots", "random", "--workers", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("complete: 3 matches, 3 hands;")
    doc = read_run(tmp_path)
    assert doc["preset"]["name"] == "single-hand" and doc["games"] == 3
    assert load_table(tmp_path, "matches").height == 12


def test_simulate_help_explains_every_option() -> None:
    result = CliRunner().invoke(cli.app, ["simulate", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for option in ("--preset", "--cards", "--games", "--seed", "--workers", "--out", "--bots",
                   "--force", "--shard-size", "--paired", "--executor", "--scheduler"):
        assert option in result.output, option
    assert "Example: saki simulate" in result.output
    assert "all cores" in result.output


def test_default_out_folder_names_the_configuration() -> None:
    cfg = config("online-tonpuusen", games=6, seed=5)
    assert cfg.default_out().name == "online-tonpuusen-1.2-s5-n6"
    assert cfg.default_out().parent == Path("data") / "runs"  # under the working directory
    assert cfg.run_id.startswith("online-tonpuusen-1.2-s5-n6-")
    assert config(bots="greedy").run_id != cfg.run_id  # the bots are part of the identity


def test_card_runs_record_characters_teams_and_triggers(tmp_path: Path) -> None:
    """With a card preset the tables say who played which character, and what it did."""
    from dataclasses import replace

    base = load_preset("cards-tonpuusen")
    preset = replace(base, cards=replace(base.cards, team_size=1))  # few cards are playable
    cfg = RunConfig(preset=preset, catalog=load_catalog("1.2"), seed=3, games=4,
                    bots=parse_bots("heuristic"), shard_size=2)
    out = tmp_path / "cards"
    simulate(cfg, out, workers=1)
    hands = load_table(out, "hands")
    picks = load_table(out, "picks")
    events = load_table(out, "events")
    playable = {c.id for c in load_catalog("1.2").cards if c.in_deck and registry.playable(c)}
    assert hands["character"].null_count() == 0
    assert set(hands["character"].unique().to_list()) <= playable
    assert picks["team"].list.len().unique().to_list() == [1]
    joined = hands.join(picks, on=["match_id", "hand_index", "seat"])
    assert (joined["character"] == joined["character_right"]).all()
    ability = events.filter(pl.col("kind") == "ability")
    triggers = ability.filter(pl.col("effect") != "bookkeeping")
    assert hands["ability_triggers"].sum() == triggers.height > 0
    assert hands["ability_bookkeeping"].sum() == ability.height - triggers.height
    assert ability["card"].null_count() == 0 and ability["card_seat"].null_count() == 0
    offers = events.filter(pl.col("kind") == "offer")
    assert hands["offers"].sum() == offers.height
    assert hands["offers_taken"].sum() == offers["detail"].str.contains("; took ").sum()
    # points abilities stake lie on the table like riichi sticks: a hand conserves both
    per_hand = hands.group_by(["match_id", "hand_index"]).agg(
        pl.col("delta").sum(), pl.col("sticks_start", "sticks_end", "stakes_start",
                                      "stakes_end").first())
    table_change = (1000 * (pl.col("sticks_start").cast(pl.Int64) - pl.col("sticks_end"))
                    + pl.col("stakes_start") - pl.col("stakes_end"))
    assert per_hand.filter(pl.col("delta") != table_change).height == 0
    # a card match replays from run.json (teams, picks, abilities) to the stored hands
    from pipeline.sim.replay_run import replay_match

    replayed = replay_match(out, 1)
    stored = hands.filter(pl.col("match_id") == 1).sort("hand_index", "seat")
    assert [p for rec in replayed.hands for p in rec.picks] == stored["character"].to_list()


def test_a_deck_too_small_for_the_teams_fails_before_writing(tmp_path: Path) -> None:
    # a draft of 13 needs 4 x 14 = 56 cards; catalog 1.2 has 53 deck cards in all
    preset = tmp_path / "huge-draft.toml"
    preset.write_text('extends = "cards-hanchan"\nname = "huge-draft"\n'
                      '[cards]\nteam_mode = "draft"\nteam_size = 13\n')
    out = tmp_path / "never"
    result = run_cli("--preset", str(preset), "--games", "2", "--workers", "1",
                     "--out", str(out))
    assert_one_line_error(result, "huge-draft", "needs 56")
    assert not out.exists()


def test_the_source_hash_covers_the_compiled_kernel_source(tmp_path: Path, monkeypatch) -> None:
    """The hash that decides whether a run may be resumed sees the Python files, the C kernel's
    source and the bot data: an edit to any of them changes it."""
    import types

    from pipeline.sim import run_folder as run_module

    root = tmp_path / "project"
    (root / "pipeline" / "bots").mkdir(parents=True)
    (root / "pipeline" / "data" / "bots").mkdir(parents=True)
    (root / "pipeline" / "__init__.py").write_text("")
    kernel = root / "pipeline" / "bots" / "_kernel.c"
    kernel.write_text("int x;\n")
    (root / "pipeline" / "data" / "bots" / "styles.toml").write_text("[default]\n")
    monkeypatch.setattr(run_module, "pipeline",
                        types.SimpleNamespace(__file__=str(root / "pipeline" / "__init__.py")))
    monkeypatch.setattr(run_module, "SHIPPED_DATA", root / "pipeline" / "data")

    def fresh() -> str:
        run_module.source_hash.cache_clear()
        return run_module.source_hash()

    first = fresh()
    kernel.write_text("int y;\n")
    second = fresh()
    (root / "pipeline" / "data" / "bots" / "styles.toml").write_text("[careful]\n")
    third = fresh()
    run_module.source_hash.cache_clear()
    assert len({first, second, third}) == 3


def test_a_run_summary_says_when_the_bots_played_without_their_kernel(monkeypatch) -> None:
    """Play without the compiled kernel gives the same tables at about half speed; the summary
    line says so, and why, so a slow run is not a mystery."""
    from pipeline.bots import shanten
    from pipeline.sim.run import RunSummary

    summary = RunSummary(run_id="r", out=Path("runs/r"), status="complete", matches=4,
                         shards_total=2, shards_skipped=0, shards_run=2, hands=40,
                         hands_total=40, seconds=2.0, workers=2, peak_rss_kb=1)
    monkeypatch.setattr(shanten, "KERNEL", object())
    assert "kernel" not in summary.describe() and "20.0 hands/s, 2 workers)" in summary.describe()
    monkeypatch.setattr(shanten, "KERNEL", None)
    monkeypatch.delenv(shanten.PURE_ENV, raising=False)
    assert "the compiled kernel is not built" in summary.describe()
    monkeypatch.setenv(shanten.PURE_ENV, "1")
    assert f"pure-Python bots as {shanten.PURE_ENV} asks" in summary.describe()


def test_a_three_player_card_run_is_the_same_for_any_worker_count(tmp_path: Path) -> None:
    # rule C-23, S-01: three seats a hand, whoever plays the shards
    cfg = config(preset="cards-sanma", games=4, bots="heuristic", shard_size=1)
    simulate(cfg, tmp_path / "w1", workers=1)
    simulate(cfg, tmp_path / "w2", workers=2)
    assert_same_tables(tmp_path / "w1", tmp_path / "w2")
    hands = contents(tmp_path / "w1")["hands"]
    assert sorted(hands["seat"].unique().to_list()) == [0, 1, 2]


def test_a_three_player_run_counts_its_hands_not_its_seat_rows(tmp_path: Path) -> None:
    # rule S-01: the hands table has three rows a hand; the summary and the rate count hands
    cfg = config(preset="sanma-tonpuusen", games=3, bots="random", shard_size=1)
    summary = simulate(cfg, tmp_path / "run", workers=1)
    hands = load_table(tmp_path / "run", "hands")
    played = hands.select("match_id", "hand_index").unique().height
    assert hands.height == 3 * played
    assert summary.hands == summary.hands_total == played
    assert f"{played} hands" in summary.describe()
    timings = read_run(tmp_path / "run")["timings"]
    assert timings["hands_per_second"] == round(played / timings["play_seconds"], 2)


def test_winner_rotation_with_twelve_card_teams_plays_to_the_end(tmp_path: Path) -> None:
    # rule C-05, C-22 Maho: she keeps the cards she draws, so 4 x 12-card teams grow towards
    # the whole deck (match 34 of seed 2 once failed there, when it ran out); a winner then
    # keeps the card (tests/cards/general/test_teams.py builds the empty deck exactly)
    preset = tmp_path / "rotation-12.toml"
    preset.write_text('extends = "cards-hanchan"\nname = "rotation-12"\n'
                      '[cards]\nteam_mode = "winner-rotation"\nteam_size = 12\n')
    cfg = RunConfig(preset=load_preset(str(preset)), catalog=load_catalog("1.2"), seed=2,
                    games=40)
    summary = simulate(cfg, tmp_path / "run", workers=2)
    assert summary.status == "complete" and summary.matches == 40
    matches = load_table(tmp_path / "run", "matches")
    held = matches.group_by("match_id").agg(pl.col("character_team").list.len().sum())
    assert held.height == 40
    deck = len(cfg.catalog.deck())
    assert held["character_team"].max() <= deck          # never more cards than the deck
    assert held["character_team"].max() > 4 * 12         # Maho's draws kept: the teams grew
