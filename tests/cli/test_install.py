"""The README's two commands: install.sh makes a virtual environment, so they work with a
system Python that refuses `pip install` (Debian, Ubuntu), and CI runs the same test command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.datafiles import PROJECT_ROOT

README = PROJECT_ROOT / "README.md"
SCRIPT = PROJECT_ROOT / "install.sh"
BALANCE = "./install.sh && .venv/bin/saki balance"
TESTS = "./install.sh && .venv/bin/python -m pytest -q -n 2"
SYSTEM_PYTHON = Path("/usr/bin/python3")


def test_the_readme_shows_exactly_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Two commands on a fresh machine", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in section.splitlines() if line.startswith("    ")]
    assert commands == [BALANCE, TESTS]


def test_ci_runs_the_readme_test_command_and_a_pure_python_pass() -> None:
    ci = (PROJECT_ROOT / ".ci" / "run").read_text()
    assert "./install.sh\n" in ci
    assert '"$py" -m pytest -q -n 2\n' in ci  # $py is .venv/bin/python, as in the README
    pure = ci.split("SAKI_PURE_PYTHON=1", 1)[1]
    for name in ("test_shanten.py", "test_kernel.py", "test_bots.py"):
        assert name in pure


def fake_python(folder: Path, body: str) -> Path:
    path = folder / "python-fake"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def install(tmp_path: Path, python: Path | str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHON=str(python), SAKI_VENV=str(tmp_path / "venv"))
    return subprocess.run(["sh", str(SCRIPT)], capture_output=True, text=True, env=env,
                          timeout=60)


def test_an_old_python_is_a_one_line_error(tmp_path: Path) -> None:
    old = fake_python(tmp_path, 'case "$1" in -V) echo "Python 3.9.2";; *) exit 1;; esac')
    result = install(tmp_path, old)
    assert result.returncode == 2
    assert result.stderr.strip() == ("install.sh: Python 3.9.2 is too old: the lab needs "
                                     "Python 3.11 or newer; install one and run "
                                     "PYTHON=python3.11 ./install.sh")
    assert not (tmp_path / "venv").exists()


def test_a_python_without_venv_says_which_package_to_install(tmp_path: Path) -> None:
    # passes the version check, fails to make an environment (Debian without python3-venv)
    no_venv = fake_python(tmp_path, 'case "$1" in -c) exit 0;; *) exit 1;; esac')
    result = install(tmp_path, no_venv)
    assert result.returncode == 2
    assert "sudo apt install python3-venv" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_missing_python_is_named(tmp_path: Path) -> None:
    result = install(tmp_path, "python-that-does-not-exist")
    assert result.returncode == 2 and "no python-that-does-not-exist found" in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not list(Path("/usr/lib").glob("python3*/EXTERNALLY-MANAGED")),
                    reason="no externally managed system Python here")
def test_install_works_with_an_externally_managed_system_python(tmp_path: Path) -> None:
    """Debian's own Python refuses pip install; install.sh installs into a venv instead, a
    second run does nothing, and the lab runs from there."""
    refused = subprocess.run([str(SYSTEM_PYTHON), "-m", "pip", "install", "--dry-run", "six"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    first = subprocess.run(
        ["sh", str(SCRIPT)], capture_output=True, text=True, timeout=1200,
        env=dict(os.environ, PYTHON=str(SYSTEM_PYTHON), SAKI_VENV=str(tmp_path / "venv")))
    assert first.returncode == 0, first.stderr[-2000:]
    assert "installing the lab" in first.stderr
    second = install(tmp_path, SYSTEM_PYTHON)
    assert second.returncode == 0 and "installing the lab" not in second.stderr
    saki = tmp_path / "venv" / "bin" / "saki"
    shown = subprocess.run([str(saki), "presets", "list"], capture_output=True, text=True,
                           cwd=tmp_path, check=True)
    assert "cards-hanchan" in shown.stdout
    assert re.search(r"ready: .*venv \(Python 3\.\d+", second.stderr)


def test_a_folder_that_is_not_an_environment_is_never_cleared(tmp_path: Path) -> None:
    mine = tmp_path / "venv"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    result = install(tmp_path, sys.executable)
    assert result.returncode == 2 and "is not a virtual environment" in result.stderr
    assert (mine / "notes.txt").read_text() == "mine"
