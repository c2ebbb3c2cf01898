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


def test_a_preset_excluding_every_card_names_its_file_not_its_name(tmp_path: Path) -> None:
    # rule C-10: [cards] exclude empties the deck; every command that deals says which file
    ids = [c.id for c in load_catalog("1.2").deck()]
    path = tmp_path / "house-rules.toml"
    path.write_text('extends = "cards-hanchan"\nname = "house"\n[cards]\nexclude = '
                    + json.dumps(ids) + "\n")
    words = (str(path), "the deck has 0 cards", "needs 16", "exclude fewer cards")
    assert_one_line_error(run("simulate", "--preset", str(path), "--games", "1", "--out",
                              str(tmp_path / "run")), *words)
    assert_one_line_error(run("balance", "--preset", str(path), "--games", "1", "--runs",
                              str(tmp_path / "runs")), *words)
    assert_one_line_error(run("play", "--preset", str(path), "--seed", "1"), *words)
    assert_one_line_error(run("trial", "--preset", str(path), "--out", str(tmp_path / "t")),
                          str(path), "no cards to try", "exclude fewer cards")
    assert files_under(tmp_path) == ["house-rules.toml"]


def test_a_preset_may_name_a_draft_catalog(tmp_path: Path, monkeypatch) -> None:
    # a draft made by 'saki cards new' is a catalog a preset can play
    monkeypatch.chdir(tmp_path)
    assert run("cards", "new", "1.3-draft").exit_code == 0
    path = tmp_path / "draft-rules.toml"
    path.write_text('extends = "cards-hanchan"\n[cards]\ncatalog = "1.3-draft"\n')
    assert load_preset(str(path)).cards.catalog == "1.3-draft"
    result = run("play", "--preset", str(path), "--seed", "1")
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad-name.toml"
    bad.write_text('extends = "cards-hanchan"\n[cards]\ncatalog = "my draft"\n')
    assert_one_line_error(run("presets", "show", str(bad)), "bad-name.toml", "catalog",
                          "letters, digits")
    missing = tmp_path / "missing.toml"
    missing.write_text('extends = "cards-hanchan"\n[cards]\ncatalog = "1.4-draft"\n')
    assert_one_line_error(run("presets", "show", str(missing)), "missing.toml",
                          "no catalog '1.4-draft'", "1.3-draft")


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


# --- trial, tune and drafts: the newer commands -------------------------------------------

def trial_args(folder: Path, *extra: str) -> list[str]:
    """A small trial of the test deck (two cards, greedy bots, a budget of 150 hands)."""
    from tests.support.paired_runs import write_catalog, write_preset

    return ["trial", "--preset", str(write_preset(folder)), "--cards",
            str(write_catalog(folder)), "--only", "plain_a,quad_a", "--seed", "3",
            "--target", "1", "--budget-hands", "150", "--bots", "greedy", "--workers", "1",
            *extra]


def tune_args(folder: Path, *extra: str) -> list[str]:
    from tests.support.paired_runs import write_preset

    return ["tune", "nodoka_haramura", "--preset", str(write_preset(folder)), "--band",
            "-100:100", "--budget-hands", "40", "--bots", "greedy", "--workers", "1",
            *extra]


@pytest.mark.parametrize("target", ["nan", "inf", "-inf"])
def test_a_target_that_is_no_number_is_refused_before_any_shard(tmp_path: Path,
                                                                target: str) -> None:
    assert_one_line_error(run(*trial_args(tmp_path, "--target", target, "--out",
                                          str(tmp_path / "t"))), "--target", "above 0")
    assert_one_line_error(run(*tune_args(tmp_path, "--target", target, "--out",
                                         str(tmp_path / "s"))), "--target", "above 0")
    assert files_under(tmp_path) == ["cards-one.toml", "test-cards.toml"]


def test_an_empty_only_names_no_card_and_is_refused(tmp_path: Path) -> None:
    for only in ("", ",", " , "):
        assert_one_line_error(run("trial", "--only", only, "--out", str(tmp_path / "t")),
                              "no cards to try", "--only")
    assert files_under(tmp_path) == []


def test_trial_and_tune_out_under_a_file_are_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    assert_one_line_error(run(*trial_args(tmp_path, "--out", str(blocker / "t"))), "--out",
                          "notes.txt is a file")
    assert_one_line_error(run(*tune_args(tmp_path, "--out", str(blocker / "s"))), "--out",
                          "notes.txt is a file")
    assert_one_line_error(run(*tune_args(tmp_path, "--out", str(tmp_path / "s"), "--page",
                                         str(blocker / "p.html"))), "--page",
                          "notes.txt is a file")
    assert files_under(tmp_path) == ["cards-one.toml", "notes.txt", "test-cards.toml"]


def test_cards_new_where_data_is_a_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").write_text("not a folder")
    assert_one_line_error(run("cards", "new", "1.3-draft"), "data/cards/1.3-draft.toml",
                          "cannot write the draft")
    assert files_under(tmp_path) == ["data"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere: permissions not "
                    "enforced")
def test_the_newer_commands_in_a_read_only_folder(tmp_path: Path, monkeypatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    finished = tmp_path / "finished"
    assert run(*trial_args(tmp_path, "--out", str(finished))).exit_code == 0
    before = files_under(tmp_path)
    locked.chmod(0o555)
    finished.chmod(0o555)
    try:
        assert_one_line_error(run(*trial_args(tmp_path, "--out", str(locked / "t"))),
                              "--out", "no permission")
        assert_one_line_error(run(*trial_args(tmp_path, "--out", str(finished))),
                              "--out", "no permission")
        assert_one_line_error(run(*tune_args(tmp_path, "--out", str(locked / "s"))),
                              "--out", "no permission")
        assert_one_line_error(run(*tune_args(tmp_path, "--out", str(tmp_path / "s"),
                                             "--page", str(locked / "p.html"))),
                              "--page", "no permission")
        monkeypatch.chdir(locked)
        assert_one_line_error(run("cards", "new", "1.3-draft"), "cannot write the draft")
    finally:
        locked.chmod(0o755)
        finished.chmod(0o755)
    assert files_under(tmp_path) == before


def test_a_deleted_trial_shard_is_named_and_played_again(tmp_path: Path) -> None:
    from pipeline.analytics.runs import AnalyticsError
    from pipeline.analytics.trial import trial_table

    out = tmp_path / "t"
    assert run(*trial_args(tmp_path, "--out", str(out))).exit_code == 0
    table = trial_table(out)
    shards = sorted((out / "cards" / "plain_a" / "pairs").glob("part-*.parquet"))
    shards[-1].unlink()  # a shard of the last round
    with pytest.raises(AnalyticsError, match=rf"{shards[-1].name}: listed in part-\d+\.json "
                       r"but cannot be read \(No such file or directory\); run the trial "
                       r"command again"):
        trial_table(out)
    from tests.support.paired_runs import write_catalog

    assert_one_line_error(run("bots", "fit-picks", str(out), "--catalog",
                              str(write_catalog(tmp_path))),
                          shards[-1].name, "run the trial command again")
    result = run(*trial_args(tmp_path, "--out", str(out)))
    assert result.exit_code == 0, result.output
    assert trial_table(out).equals(table)


@pytest.mark.parametrize(("command", "module", "function"), [
    ("trial", "pipeline.sim.trial", "run_trial"), ("tune", "pipeline.sim.tune", "run_tune")])
def test_ctrl_c_on_trial_and_tune_says_how_to_resume(tmp_path: Path, monkeypatch,
                                                     command: str, module: str,
                                                     function: str) -> None:
    import importlib

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), function, interrupted)
    args = trial_args(tmp_path) if command == "trial" else tune_args(tmp_path)
    result = run(*args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 130
    assert result.output.strip() == "interrupted: run the same command to resume"


def test_a_draft_trial_counts_every_seats_pile(tmp_path: Path) -> None:
    # rule C-08: the draft deals team_size + 1 cards to all four seats, the trial's holder
    # included; 4 x 14 cannot come from the 52 cards left beside the card tried
    path = tmp_path / "draft13.toml"
    path.write_text('extends = "cards-hanchan"\nname = "draft13"\n[cards]\n'
                    'team_mode = "draft"\nteam_size = 13\n')
    assert_one_line_error(run("trial", "--preset", str(path), "--only", "nodoka_haramura",
                              "--out", str(tmp_path / "t")), str(path), "4 seats",
                          "needs 57", "team_size")
    assert files_under(tmp_path) == ["draft13.toml"]
