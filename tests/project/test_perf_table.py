"""The README's performance table is the one generated from the benchmarks' JSON figures."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _perf_table() -> ModuleType:
    """The generator is a script, not a package module: load it from its file."""
    path = ROOT / "benchmarks" / "perf_table.py"
    spec = importlib.util.spec_from_file_location("perf_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_table_matches_the_figures() -> None:
    table = _perf_table()
    text = (ROOT / "README.md").read_text()
    assert table.render(text) == text, "run python benchmarks/perf_table.py"


def test_every_figures_file_has_a_row() -> None:
    table = _perf_table()
    known = {name for name, _ in table.FORMATS}
    present = {p.stem for p in (ROOT / "benchmarks" / "results").glob("*.json")}
    assert present, "no benchmark figures in benchmarks/results"
    assert present <= known, f"figures without a row format: {sorted(present - known)}"
    for name in present:
        doc = json.loads((ROOT / "benchmarks" / "results" / f"{name}.json").read_text())
        assert {"machine", "commit", "figures", "command"} <= doc.keys()


def test_a_new_figure_changes_the_table(tmp_path: Path) -> None:
    table = _perf_table()
    doc = {"benchmark": "shanten", "command": "python benchmarks/bench_shanten.py",
           "when": "2026-01-01 00:00 UTC", "commit": "abc", "dirty": False,
           "machine": {"cores": 2, "load_1min": 1.0},
           "figures": {"hands": 10, "package_per_s": 100, "kernel_per_s": 7000,
                       "pure_per_s": 900, "pure_again_per_s": 950, "mismatches": 0}}
    (tmp_path / "shanten.json").write_text(json.dumps(doc))
    readme = f"intro\n{table.START}\nold\n{table.END}\nafter\n"
    out = table.render(readme, tmp_path)
    assert "7,000 hands/s" in out and "old" not in out and out.endswith("after\n")
