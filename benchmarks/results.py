"""Benchmark figures kept as JSON beside the printout, so the README table is generated.

Each benchmark prints its figures and, only when run with ``--save`` (:func:`add_save_option`),
writes them with :func:`save_if`: the file ``benchmarks/results/<name>.json`` then holds the
machine it ran on, the commit it measured (and whether the tree had uncommitted changes), the
command line and the figures. Without ``--save`` a benchmark changes no tracked file, so a user
who measures does not alter the checkout.
``benchmarks/perf_table.py`` renders the README's performance table from these files.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def commit() -> dict[str, Any]:
    """The measured commit, and whether tracked files differed from it (a dirty tree)."""
    head = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {"commit": head, "dirty": dirty}


def machine() -> dict[str, Any]:
    """What the figures depend on besides the code: processor, core count, load, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "cores": os.cpu_count(), "load_1min": load,
            "python": sys.version.split()[0], "platform": platform.platform(terse=True)}


SAVE_FLAG = "--save"


def add_save_option(parser: argparse.ArgumentParser) -> None:
    """The one switch every benchmark shares: record its figures for the README's table."""
    parser.add_argument(SAVE_FLAG, action="store_true",
                        help="write the figures to benchmarks/results/ (the README's table is "
                             "generated from those files); without it no tracked file changes")


def save_if(wanted: bool, name: str, figures: dict[str, Any]) -> Path | None:
    """Save the figures when ``--save`` was given; otherwise say how to keep them."""
    if wanted:
        return save(name, figures)
    print(f"figures not written (run again with {SAVE_FLAG} to keep them in "
          f"benchmarks/results/{name}.json for the README's table)")
    return None


def save(name: str, figures: dict[str, Any], *, out: Path | None = None) -> Path:
    """Write ``figures`` with the machine and commit to ``benchmarks/results/<name>.json``.

    The command is recorded as a reader would rerun it to measure, without ``--save``.
    """
    path = (out or RESULTS) / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    argv = [arg for arg in sys.argv if arg != SAVE_FLAG]
    doc = {"benchmark": name, "command": " ".join(["python", *argv]),
           "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
           "machine": machine(), **commit(), "figures": figures}
    path.write_text(json.dumps(doc, indent=2, sort_keys=False) + "\n")
    print(f"figures written to {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return path
