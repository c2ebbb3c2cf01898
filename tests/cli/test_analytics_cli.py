"""`saki stats` and `saki compare`: readable tables, CSV and JSON, and one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.synthetic import SyntheticSpec, write_synthetic_run

CHARS = tuple(f"char_{i:02d}" for i in range(8))
STAR = CHARS[0]


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def assert_one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("error:")
    for word in words:
        assert word in text


def table_rows(output: str) -> list[str]:
    """The body of a stats table: the lines after the header, up to the blank line."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#")) + 1
    end = lines.index("", start)
    return lines[start:end]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A: a strong character (win weight 1.8); B: the same run with it back to normal."""
    root = tmp_path_factory.mktemp("cli")
    a = write_synthetic_run(root / "a", SyntheticSpec(
        matches=1200, characters=CHARS, seed=1, win_weight={STAR: 1.8}))
    b = write_synthetic_run(root / "b", SyntheticSpec(matches=1200, characters=CHARS, seed=2))
    meta = json.loads((b / "run.json").read_text())
    meta["preset"]["uma"] = [20, 10, -10, -20]
    (b / "run.json").write_text(json.dumps(meta))
    return a, b


def test_stats_table_is_sorted_by_swing_with_intervals_flags_and_a_legend(runs) -> None:
    result = run("stats", str(runs[0]))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("run synthetic-s1-n1200")
    header = next(i for i, line in enumerate(lines) if line.startswith("#"))
    first = lines[header + 1]
    assert first.split()[:2] == ["1", STAR]
    assert "STRONG" in first
    assert "[" in first and "%" in first          # intervals and rates are shown
    assert sum("STRONG" in line for line in table_rows(result.output)) == 1
    assert lines[-1].startswith("swing = mean net points per hand")
    assert "q < 0.05 and |vs field| > 300" in lines[-1]


def test_stats_options_change_the_grouping_and_the_gates(runs) -> None:
    seats = run("stats", str(runs[0]), "--by", "seat")
    assert seats.exit_code == 0, seats.output
    rows = [line.split()[1] for line in table_rows(seats.output)]
    assert sorted(rows) == ["0", "1", "2", "3"]
    few = table_rows(run("stats", str(runs[0]), "--min-hands", "100000").output)
    assert len(few) == len(CHARS)
    assert all(line.endswith("(few hands)") and line.startswith("-") for line in few)
    high = table_rows(run("stats", str(runs[0]), "--threshold", "5000").output)
    assert not any("STRONG" in line for line in high)
    assert high[0].split()[:2] == ["1", STAR]


def test_stats_csv_and_json(runs) -> None:
    out = run("stats", str(runs[0]), "--format", "csv")
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert len(rows) == len(CHARS)
    assert rows[0]["group"] == STAR and rows[0]["flag"] == "strong"
    for column in ("win_lo", "win_hi", "swing_sd", "field_diff_lo", "q_value", "avg_place"):
        assert column in rows[0]
    js = run("stats", str(runs[0]), "--format", "json", "--min-hands", "50")
    data = json.loads(js.output)
    assert data["min_hands"] == 50 and data["by"] == "character"
    assert data["rows"][0]["group"] == STAR
    assert data["rows"][0]["paired_effect"] is None


def test_stats_against_a_baseline_run(runs) -> None:
    out = run("stats", str(runs[0]), "--baseline", str(runs[1]), "--format", "json")
    data = json.loads(out.output)
    assert data["baseline"].startswith("synthetic-s2-n1200")
    assert all(r["reference"].endswith("same group") for r in data["rows"])
    assert "minus baseline run" in run("stats", str(runs[0]), "--baseline",
                                      str(runs[1])).output


def test_compare_table_shows_changes_then_card_and_preset_changes(runs) -> None:
    result = run("compare", str(runs[0]), str(runs[1]))
    assert result.exit_code == 0, result.output
    text = result.output
    lines = text.splitlines()
    star = next(line for line in lines if line.startswith(STAR))
    assert "DOWN" in star
    assert "Card changes: none" in text
    assert "Preset changes:" in text
    assert "  uma: [15, 5, -5, -15] -> [20, 10, -10, -20]" in lines
    assert text.index("Card changes") > text.index(STAR)


def test_compare_csv_and_json(runs) -> None:
    out = run("compare", str(runs[0]), str(runs[1]), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert {r["group"] for r in rows} == set(CHARS)
    star = next(r for r in rows if r["group"] == STAR)
    assert star["flag"] == "down"
    assert float(star["swing_delta_hi"]) < 0
    data = json.loads(run("compare", str(runs[0]), str(runs[1]), "--format", "json").output)
    assert data["preset_changes"] == [{"option": "uma", "a": [15, 5, -5, -15],
                                       "b": [20, 10, -10, -20]}]
    assert data["card_changes"] == []


def test_a_wrong_folder_is_a_one_line_error(tmp_path: Path, runs) -> None:
    assert_one_line_error(run("stats", str(tmp_path / "nope")), "no such run folder")
    assert_one_line_error(run("stats", str(tmp_path)), "not a run folder")
    assert_one_line_error(run("compare", str(runs[0]), str(tmp_path / "nope")),
                          "no such run folder")
    assert_one_line_error(run("stats", str(runs[0]), "--by", "school"), "unknown grouping")
    assert_one_line_error(run("stats", str(runs[0]), "--format", "xml"), "unknown format")
    running = write_synthetic_run(tmp_path / "running", SyntheticSpec(
        matches=4, characters=CHARS), status="running")
    assert_one_line_error(run("stats", str(running)), "not complete")
