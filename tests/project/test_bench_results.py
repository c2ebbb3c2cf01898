"""Benchmarks change no tracked file unless asked: their figures are written only with --save."""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

import pytest

from benchmarks import results

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "benchmarks").glob("bench_*.py"))


def _calls(script: Path) -> set[str]:
    """The ``results.<name>`` functions a benchmark script calls."""
    tree = ast.parse(script.read_text())
    return {node.func.attr for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "results"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_benchmark_that_records_figures_does_so_only_through_the_save_switch(
        script: Path) -> None:
    calls = _calls(script)
    if not calls & {"save", "save_if"}:
        pytest.skip(f"{script.name} records no figures")
    assert "save" not in calls, f"{script.name} writes its figures unasked: use results.save_if"
    assert "add_save_option" in calls, f"{script.name} offers no --save"


def test_without_save_nothing_is_written_and_the_reader_is_told_how(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    parser = argparse.ArgumentParser()
    results.add_save_option(parser)
    args = parser.parse_args([])
    assert results.save_if(args.save, "shanten", {"hands": 1}) is None
    assert list(tmp_path.iterdir()) == []
    assert "--save" in capsys.readouterr().out


def test_with_save_the_figures_are_written_with_the_command_to_rerun(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    monkeypatch.setattr("sys.argv", ["benchmarks/bench_shanten.py", "--hands", "10", "--save"])
    parser = argparse.ArgumentParser()
    results.add_save_option(parser)
    path = results.save_if(parser.parse_args(["--save"]).save, "shanten", {"hands": 10})
    assert path == tmp_path / "shanten.json"
    doc = json.loads(path.read_text())
    assert doc["figures"] == {"hands": 10}
    assert doc["command"] == "python benchmarks/bench_shanten.py --hands 10"
