"""Running a snippet of Python in a fresh process against a tree of the lab: how the tests of
the compiled modules compare the compiled and the pure-Python builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PURE_ENV = "SAKI_PURE_PYTHON"  # pipeline._compiled.PURE_ENV


def run(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by this Python in ``cwd`` (its ``pipeline`` package first on the path),
    with ``SAKI_PURE_PYTHON`` unset unless given."""
    environ = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    environ.update(env, PYTHONPATH=str(cwd))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd, env=environ, timeout=600)
