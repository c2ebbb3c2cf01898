"""Every benchmark script imports: a benchmark is run by hand, rarely, so a name moved in the
package would otherwise break it silently until somebody measures."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[2] / "benchmarks").glob("*.py"))


def test_the_benchmarks_are_found() -> None:
    assert len(BENCHMARKS) >= 10


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.stem)
def test_each_benchmark_script_imports(path: Path) -> None:
    spec = importlib.util.spec_from_file_location(f"benchmark_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would (its dataclasses look it up)
    try:
        spec.loader.exec_module(module)  # its work runs only under __main__
    finally:
        del sys.modules[spec.name]
    if path.stem != "results":  # the shared saving helpers, not a benchmark
        assert callable(getattr(module, "main", None))
