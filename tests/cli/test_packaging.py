"""The lab installed as a normal package: shipped data inside it, output in the working folder.

The fast checks run by default; the wheel test (build a wheel, install it without ``-e`` into a
fresh virtual environment, run ``saki balance`` from another folder) is ``slow``: it installs
every dependency, about a minute with a warm pip cache.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from pipeline.bots.style import STYLES_FILE, load_styles
from pipeline.bots.suit_table import TABLE_FILE
from pipeline.cards.catalog import CATALOG_DIR, load_catalog
from pipeline.datafiles import PACKAGE_ROOT, PROJECT_ROOT, SHIPPED_DATA
from pipeline.report.build import default_report_path
from pipeline.rules.preset import PRESET_DIR, list_presets, load_preset

PYPROJECT = PROJECT_ROOT / "pyproject.toml"


def test_every_shipped_data_file_is_in_the_wheel_patterns() -> None:
    """pyproject's package-data must carry every file under pipeline/data/ and every report
    template, or a normal install cannot find it ("unknown preset 'cards-hanchan'")."""
    patterns = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"]
    ours = patterns["pipeline"]
    shipped = [p.relative_to(PACKAGE_ROOT).as_posix() for p in SHIPPED_DATA.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts]
    assert len(shipped) >= 10  # presets, the catalog, the styles and the suit table
    missing = [f for f in shipped if not any(fnmatch.fnmatch(f, pat) for pat in ours)]
    assert missing == []
    for path in (PRESET_DIR, CATALOG_DIR, STYLES_FILE, TABLE_FILE):
        assert SHIPPED_DATA in path.parents
    templates = PACKAGE_ROOT / "report" / "templates"
    report_patterns = patterns["pipeline.report"]
    kept = [p.relative_to(templates.parent).as_posix() for p in templates.iterdir()]
    assert {"templates/tables.js", "templates/style.css", "templates/main.html"} <= set(kept)
    assert [f for f in kept if not any(fnmatch.fnmatch(f, pat) for pat in report_patterns)] \
        == []


def test_every_cython_declaration_file_is_in_the_wheel_patterns() -> None:
    """A compiled module's hash covers the ``.pxd`` beside its ``.py``: an install without the
    ``.pxd`` would take every such build for stale and run the pure module instead."""
    ours = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"]["pipeline"]
    declarations = [p.relative_to(PACKAGE_ROOT).as_posix() for p in PACKAGE_ROOT.rglob("*.pxd")]
    assert [f for f in declarations if not any(fnmatch.fnmatch(f, pat) for pat in ours)] == []


def test_shipped_data_loads_from_any_folder_and_output_goes_there(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """From a folder that is not the checkout, names still find the shipped files, and runs
    and reports are placed under that folder."""
    from pipeline.sim.run import RunConfig

    monkeypatch.chdir(tmp_path)
    assert "cards-hanchan" in list_presets()
    rules = load_preset("cards-hanchan")
    catalog = load_catalog(rules.cards.catalog)
    assert "default" in load_styles()
    cfg = RunConfig(preset=rules, catalog=catalog, seed=1, games=4)
    assert cfg.default_out().resolve().parent == tmp_path / "data" / "runs"
    assert default_report_path(cfg.default_out()).resolve().parent == tmp_path / "reports"


def test_no_module_finds_data_relative_to_the_checkout() -> None:
    """Paths like parents[2] / "data" work only in a checkout; data is found through
    pipeline.datafiles (importlib.resources) instead."""
    offenders = []
    for path in PACKAGE_ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "parents[" in text and '"data"' in text:
            offenders.append(path.name)
    assert offenders == []


@pytest.mark.slow
def test_wheel_installs_and_balance_runs_from_another_folder(tmp_path: Path) -> None:
    """pip install of the built wheel (not editable) into a fresh environment, then
    ``saki balance`` from an unrelated folder: the shipped presets and catalog are found, the
    run and the report land in that folder, nothing is written into the install."""
    dist = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(dist), str(PROJECT_ROOT)], capture_output=True, text=True,
                           timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next(dist.glob("saki_balance_lab-*.whl"))
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)],
                             capture_output=True, text=True, timeout=1200)
    if install.returncode != 0 and "No matching distribution" in install.stderr:
        pytest.skip(f"dependencies not reachable: {install.stderr.strip()[-300:]}")
    assert install.returncode == 0, install.stderr[-2000:]
    work = tmp_path / "designer"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # --no-trials: the default job races every card's trial to a verdict (minutes on one
    # worker); what is checked here is that the installed lab finds its shipped data
    result = subprocess.run([str(env_dir / "bin" / "saki"), "balance", "--games", "2",
                             "--workers", "1", "--no-trials"], cwd=work, capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-1000:] + result.stderr[-2000:]
    assert "report written to" in result.stdout
    assert list((work / "reports").glob("cards-hanchan-*.html"))
    assert (work / "data" / "runs").is_dir()
    where = subprocess.run([str(python), "-c", "import pipeline; print(pipeline.__file__)"],
                           capture_output=True, text=True, cwd=work, env=env, check=True)
    installed = Path(where.stdout.strip()).parent
    assert env_dir in installed.parents  # the wheel's copy, not this checkout
    assert not (installed / "data" / "runs").exists()
    assert not (installed.parent / "data").exists() and not (installed.parent / "reports").exists()
