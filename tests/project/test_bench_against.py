"""benchmarks/bench_against.py: the side-by-side speed-up of this tree over an older commit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import bench_against

ROOT = Path(__file__).resolve().parents[2]


def test_speedups_are_the_older_times_over_the_newer_by_fastest_and_median_round() -> None:
    got = bench_against.summarise([4.0, 2.0, 3.0], [1.0, 2.0, 1.5])
    assert got["old_min_s"] == 2.0 and got["new_min_s"] == 1.0
    assert got["speedup_min"] == 2.0          # 2.0 s against 1.0 s
    assert got["speedup_median"] == 2.0       # 3.0 s against 1.5 s
    slower = bench_against.summarise([1.0, 1.0], [2.0, 4.0])
    assert slower["speedup_min"] == 0.5 and slower["speedup_median"] == pytest.approx(0.33)


def test_no_rounds_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one round"):
        bench_against.summarise([], [1.0])


def test_an_unknown_commit_is_a_one_line_error_and_checks_nothing_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_against.main(["--old", "no-such-commit-0000", "--worktrees",
                               str(tmp_path / "trees")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "--old no-such-commit-0000: no such commit" in err
    assert not (tmp_path / "trees").exists()


@pytest.mark.slow
def test_the_same_commit_decides_the_same(tmp_path: Path) -> None:
    trees = tmp_path / "trees"
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_against.py"), "--old", "HEAD",
         "--no-build", "--rounds", "1", "--matches", "1",
         "--preset", "online-hanchan", "--worktrees", str(trees)],
        capture_output=True, text=True, cwd=ROOT)
    try:
        # HEAD as checked out plays its pure-Python modules; this tree may play compiled ones:
        # the decisions are the same either way
        assert out.returncode == 0, out.stderr
        assert "log digests the same" in out.stdout
        assert "speed-up" in out.stdout
    finally:
        for tree in trees.glob("*"):
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           capture_output=True)


def test_a_child_reports_its_trees_figures_as_json() -> None:
    """The child process plays with the package of the tree it is given (here this one)."""
    got = bench_against.play_tree(ROOT, "online-hanchan", 1, 1)
    assert got["hands"] > 0 and got["decisions"] > got["hands"]
    assert len(got["digest"]) == 16
    assert json.loads(json.dumps(got)) == got
