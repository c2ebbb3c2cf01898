"""Bad inputs that used to give a traceback, a silent default or gigabytes of memory: each is
now a one-line error naming the file or option and the fix, exit code 2, and writes nothing."""

from __future__ import annotations

import json
import os
import shutil
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.cards.catalog import CATALOG_DIR, CatalogError, load_catalog
from pipeline.rules.preset import PRESET_DIR, PresetError, load_preset
from pipeline.sim import READABLE_SCHEMAS, SimError
from pipeline.sim.tables import SCHEMA_VERSION


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def assert_one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("error:") and "Traceback" not in text
    for word in words:
        assert word in text, text


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# --- files that are not UTF-8 -----------------------------------------------------------------

def test_a_preset_saved_in_latin_1_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_bytes('extends = "online-hanchan"\ndescription = "café rules"\n'.encode("latin-1"))
    with pytest.raises(PresetError, match=r"house\.toml: line 2: not UTF-8 text \(byte 0xe9\); "
                                          r"save the file as UTF-8"):
        load_preset(str(path))
    assert_one_line_error(run("presets", "show", str(path)), "house.toml", "UTF-8")


def test_a_catalog_with_a_stray_byte_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "1.3-draft.toml"
    data = (CATALOG_DIR / "1.2.toml").read_bytes()
    path.write_bytes(b"# \xff\n" + data)
    with pytest.raises(CatalogError, match=r"1\.3-draft\.toml: line 1: not UTF-8 text"):
        load_catalog(path)
    assert_one_line_error(run("cards", "validate", str(path)), "1.3-draft.toml", "UTF-8")


# --- presets: empty files and [cards] entries ----------------------------------------------

def test_an_empty_preset_file_is_an_error_not_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "empty.toml"
    path.write_text("# nothing yet\n")
    assert_one_line_error(run("presets", "show", str(path)), "empty.toml", "empty", "extends")


def test_a_preset_naming_an_unknown_catalog_fails_when_it_loads(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('extends = "cards-hanchan"\n[cards]\ncatalog = "1.9"\n')
    with pytest.raises(PresetError, match=r"typo\.toml: \[cards\] key 'catalog': no catalog "
                                          r"'1\.9' \(known: 1\.2"):
        load_preset(str(path))
    assert_one_line_error(run("presets", "show", str(path)), "typo.toml", "'1.9'")


def test_a_preset_excluding_an_unknown_card_suggests_the_id(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('extends = "cards-hanchan"\n[cards]\nexclude = ["nodoka_haramur"]\n')
    with pytest.raises(PresetError, match=r"typo\.toml: \[cards\] key 'exclude': no card "
                                          r"'nodoka_haramur' in catalog 1\.2 \(did you mean "
                                          r"'nodoka_haramura'\?\)"):
        load_preset(str(path))
    good = tmp_path / "good.toml"
    good.write_text('extends = "cards-hanchan"\n[cards]\nexclude = ["nodoka_haramura"]\n')
    assert load_preset(str(good)).cards.exclude == ("nodoka_haramura",)
    assert_one_line_error(run("balance", "--preset", str(path), "--games", "1"), "typo.toml")


# --- output places ------------------------------------------------------------------------

def test_out_under_a_file_is_refused_before_anything_is_played(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    assert_one_line_error(run("simulate", "--games", "1", "--out", str(blocker / "run")),
                          "--out", "notes.txt is a file")
    assert_one_line_error(run("balance", "--games", "1", "--runs", str(tmp_path / "runs"),
                              "--out", str(blocker / "r.html")), "--out", "notes.txt is a file")
    assert files_under(tmp_path) == ["notes.txt"]  # no run was started for the report's sake


def test_out_that_is_a_folder_where_a_file_is_wanted(tmp_path: Path) -> None:
    assert_one_line_error(run("export", "data/runs/none", "--match", "0", "--out",
                              str(tmp_path)), "--out", "is a folder")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere: permissions not "
                    "enforced")
def test_out_in_a_folder_without_write_permission(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert_one_line_error(run("simulate", "--games", "1", "--out", str(locked / "run")),
                              "no permission")
    finally:
        locked.chmod(0o755)


def test_a_run_folder_that_cannot_be_created_is_one_line(tmp_path: Path) -> None:
    """Even root cannot make folders in /proc: the simulator's own mkdir failure is caught."""
    assert_one_line_error(run("simulate", "--games", "1", "--out", "/proc/saki-no-such/run"),
                          "/proc/saki-no-such/run", "choose another --out")


# --- the size of a run ----------------------------------------------------------------------

def test_a_billion_games_is_refused_at_once_with_little_memory() -> None:
    tracemalloc.start()
    try:
        result = run("simulate", "--preset", "online-hanchan", "--games", "1000000000",
                     "--out", "/tmp/never-written-saki-run")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert_one_line_error(result, "--games 1000000000", "at most 1,000,000", "--seed")
    assert peak < 50 * 2**20
    assert not Path("/tmp/never-written-saki-run").exists()
    assert_one_line_error(run("bots", "calibrate", "--games", "1000000000"), "at most")


def test_the_largest_allowed_plan_stays_small() -> None:
    """At the bound the plan is 40,000 small shard tasks, all sharing one catalog copy."""
    from pipeline.sim.run import MAX_GAMES, RunConfig

    rules = load_preset("cards-hanchan")
    cfg = RunConfig(preset=rules, catalog=load_catalog("1.2"), seed=1, games=MAX_GAMES)
    tracemalloc.start()
    try:
        tasks = cfg.shards(Path("/tmp/plan"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(tasks) == MAX_GAMES // 25
    assert peak < 100 * 2**20
    with pytest.raises(SimError, match="at most 1,000,000"):
        RunConfig(preset=rules, catalog=cfg.catalog, seed=1, games=MAX_GAMES + 1)


# --- run folders of an unknown schema ----------------------------------------------------

def test_schema_versions_in_step() -> None:
    assert READABLE_SCHEMAS[-1] == SCHEMA_VERSION


@pytest.mark.parametrize(("version", "words"), [
    (99, ("table schema 99", "newer", "update the lab")),
    ("three", ("unknown table schema version 'three'", "--force")),
    (None, ("unknown table schema version None",)),
])
def test_a_run_of_an_unknown_schema_is_refused_by_every_reader(tmp_path: Path, version,
                                                               words) -> None:
    from pipeline.analytics import open_run
    from pipeline.analytics.runs import AnalyticsError
    from pipeline.sim.run import read_run

    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps({"schema_version": version,
                                                 "status": "complete"}))
    with pytest.raises(AnalyticsError) as info:
        open_run(folder)
    for word in words:
        assert word in str(info.value)
    with pytest.raises(SimError, match="schema"):
        read_run(folder)
    assert_one_line_error(run("stats", str(folder)), "run.json", *words)
    assert_one_line_error(run("show", str(folder), "--match", "0", "--hand", "0"), "schema")


def test_a_shipped_name_copied_into_data_is_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "presets").mkdir(parents=True)
    shutil.copyfile(PRESET_DIR / "cards-hanchan.toml",
                    tmp_path / "data" / "presets" / "cards-hanchan.toml")
    assert_one_line_error(run("presets", "show", "cards-hanchan"),
                          "data/presets/cards-hanchan.toml", "rename your copy")
