"""Reports of real run folders through pipeline.analytics: a synthetic run with planted strong
and weak characters must show them as nerf and buff candidates, and simulated card runs give a
report and a preset comparison from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.synthetic import SyntheticSpec, catalog_ids, write_synthetic_run
from pipeline.cards.catalog import load_catalog
from pipeline.report.build import build_report
from pipeline.rules.preset import load_preset
from pipeline.sim.run import RunConfig, simulate
from tests.support.report_pages import Page

CHARS = catalog_ids(8)
STRONG, WEAK = CHARS[0], CHARS[1]
CATALOG = load_catalog("1.2")


def small_preset(folder: Path, base: str) -> Path:
    """A card preset with teams of one (runs with the cards implemented so far)."""
    path = folder / f"{base}-solo.toml"
    path.write_text(f'extends = "{base}"\nname = "{base}-solo"\n[cards]\nteam_size = 1\n')
    return path


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Win weight 1.6 for STRONG and 0.6 for WEAK, everyone else 1: a planted swing of about
    +830 and -800 points per hand (SyntheticSpec.expected_swing)."""
    spec = SyntheticSpec(matches=1500, characters=CHARS, catalog="1.2", seed=3,
                         win_weight={STRONG: 1.6, WEAK: 0.6})
    assert spec.expected_swing(STRONG) > 800 and spec.expected_swing(WEAK) < -700
    return write_synthetic_run(tmp_path_factory.mktemp("planted") / "run", spec)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three hanchan and three East-only matches of four heuristic bots with cards."""
    base = tmp_path_factory.mktemp("sim")
    runs = {}
    for key, preset in (("hanchan", "cards-hanchan"), ("east", "cards-tonpuusen")):
        rules = load_preset(str(small_preset(base, preset)))
        config = RunConfig(preset=rules, catalog=CATALOG, seed=4, games=3)
        runs[key] = simulate(config, base / key, workers=1).out
    return runs


def test_planted_characters_are_the_reports_candidates(planted: Path) -> None:
    report = build_report(planted, min_hands=200)
    ctx = report.context
    assert [c["id"] for c in ctx["nerfs"]] == [STRONG]
    assert [c["id"] for c in ctx["buffs"]] == [WEAK]
    assert ctx["tiers"][0]["id"] == STRONG and ctx["tiers"][-1]["id"] == WEAK
    strong = next(c for c in report.cards if c.id == STRONG)
    assert strong.name == CATALOG.card(STRONG).name
    assert strong.text == CATALOG.card(STRONG).text      # as the catalog renders it
    assert strong.summary.startswith("Nerf candidate")
    html = report.html()
    assert CATALOG.card(STRONG).name in html and "buff candidate" in html
    assert set(ctx["unplayed"]) == {c.name for c in CATALOG if c.id not in CHARS}


def test_report_command_writes_a_file_and_a_site(planted: Path, tmp_path: Path) -> None:
    out, site = tmp_path / "reports" / "planted.html", tmp_path / "site"
    result = CliRunner().invoke(cli.app, ["report", str(planted), "--out", str(out),
                                          "--site", str(site)])
    assert result.exit_code == 0, result.output
    assert f"report written to {out}" in result.output
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert (site / "index.html").is_file()
    assert {p.stem for p in (site / "cards").glob("*.html")} == set(CHARS)


def test_report_command_errors_are_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.app, ["report", str(tmp_path / "nothing")])
    assert result.exit_code == 2
    assert "no such run folder" in result.output
    assert "Traceback" not in result.output


def test_preset_comparison_of_simulated_runs(simulated: dict[str, Path], tmp_path: Path
                                            ) -> None:
    out = tmp_path / "east-vs-hanchan.html"
    result = CliRunner().invoke(cli.app, [
        "report", str(simulated["hanchan"]), "--compare", str(simulated["east"]),
        "--out", str(out), "--min-hands", "10"])
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    assert {"comparison", "fig-shift", "fig-shift-scatter", "tiers", "cards"} <= page.ids()
    rules = page.table_after("Rules that differ")
    assert rules[0] == ["option", "cards-tonpuusen-solo-1.2-s4-n3 (A)",
                        "cards-hanchan-solo-1.2-s4-n3 (B)"]
    changed = {r[0]: (r[1], r[2]) for r in rules[1:]}
    assert changed["length"] == ("tonpuusen", "hanchan")
    assert changed["cards.exclude"] == ("kazue_nanpo, yuuki_kataoka", "(none)")  # rule C-10
    shifts = page.table_after("Per-character shift")
    assert shifts[0][:3] == ["character", "hands A / B", "point swing"]
    assert len(shifts) > 1, "characters of both runs are compared"
