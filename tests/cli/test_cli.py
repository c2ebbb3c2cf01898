"""The `saki` command line: listing and showing presets, playing a match, replaying records."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.rules.preset import OPTIONS, list_presets, load_preset
from tests.support.cli_errors import assert_one_line_error

SHIPPED = [
    "cards-hanchan",
    "cards-sanma",
    "cards-tonpuusen",
    "club-hanchan",
    "online-hanchan",
    "online-tonpuusen",
    "riichienv",
    "riichienv-sanma",
    "sanma-hanchan",
    "sanma-tonpuusen",
    "single-hand",
    "tenhou-sanma",
    "tournament-2022",
]


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def test_presets_list_lists_the_shipped_presets() -> None:
    result = run("presets", "list")
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.output.splitlines() if line.strip()]
    assert names == SHIPPED == list_presets()
    for name in SHIPPED:
        assert load_preset(name).description in result.output


def test_presets_show_prints_every_option() -> None:
    result = run("presets", "show", "online-hanchan")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("online-hanchan: ")
    for key in OPTIONS:
        if key not in ("name", "description"):
            assert key in out, key
    assert "M-06" in out  # the rule ids behind the options are shown


def test_presets_show_shows_the_preset_values() -> None:
    out = run("presets", "show", "single-hand").output
    line = next(x for x in out.splitlines() if x.startswith("length "))
    assert "single" in line
    line = next(x for x in out.splitlines() if x.startswith("kan_after_riichi "))
    assert "none" in line


def test_presets_show_accepts_a_toml_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "online-hanchan"\numa = [20, 10, -10, -20]\n')
    result = run("presets", "show", str(path))
    assert result.exit_code == 0, result.output
    assert "mine" in result.output.splitlines()[0]


def test_unknown_preset_is_a_one_line_error() -> None:
    result = run("presets", "show", "no-such-preset")
    assert_one_line_error(result, "no-such-preset", "online-hanchan")


def test_play_with_an_unknown_preset_is_a_one_line_error() -> None:
    assert_one_line_error(run("play", "--preset", "nope", "--seed", "1"), "nope")


def test_play_single_hand_prints_the_hand_and_the_standings() -> None:
    result = run("play", "--preset", "single-hand", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("East 1, honba 0")
    assert "Final standings" in out
    standings = out.split("Final standings")[1].strip().splitlines()[1:]
    assert [line.split()[0] for line in standings] == ["1.", "2.", "3.", "4."]
    assert sorted(line.split()[1] for line in standings) == ["P0", "P1", "P2", "P3"]
    assert "-0.0" not in out


def test_play_is_the_same_twice_for_the_same_seed() -> None:
    a = run("play", "--preset", "single-hand", "--seed", "3")
    b = run("play", "--preset", "single-hand", "--seed", "3")
    assert a.exit_code == b.exit_code == 0
    assert a.output == b.output


def test_play_differs_between_seeds() -> None:
    # Random players mostly draw with nobody tenpai, so compare the full logs.
    outputs = {run("play", "--preset", "single-hand", "--seed", str(s), "--log").output
               for s in (1, 2)}
    assert len(outputs) == 2


def test_play_with_log_prints_events() -> None:
    result = run("play", "--preset", "single-hand", "--seed", "3", "--log")
    assert result.exit_code == 0, result.output
    assert "P0 deal [" in result.output and " discard " in result.output


def test_replay_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here.xml"
    assert_one_line_error(run("replay", str(missing)), "nothing-here.xml")


def test_replay_corrupt_file_is_a_one_line_error(tmp_path: Path) -> None:
    pytest.importorskip("pipeline.replay.tenhou_xml", reason="Tenhou XML parser not written yet")
    pytest.importorskip("pipeline.replay.tenhou_json", reason="Tenhou JSON parser not written yet")
    bad = tmp_path / "broken.xml"
    bad.write_text('<mjloggm ver="2.3"><GO type="169" lobby="0"/><INIT seed="0,0,0')
    assert_one_line_error(run("replay", str(bad)), "broken.xml")


@pytest.mark.parametrize(
    "command",
    [(), ("presets",), ("presets", "list"), ("presets", "show"), ("play",), ("replay",)],
    ids=lambda c: " ".join(c) or "saki",
)
def test_every_command_has_help(command: tuple[str, ...]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_no_arguments_shows_help() -> None:
    result = run()
    assert "Usage" in result.output
    assert "presets" in result.output and "play" in result.output and "replay" in result.output


def test_replay_of_a_folder_without_records_is_an_error(tmp_path) -> None:
    result = CliRunner().invoke(cli.app, ["replay", str(tmp_path)])
    assert result.exit_code == 2
    assert "no game records" in result.output
    assert len(result.output.strip().splitlines()) == 1
