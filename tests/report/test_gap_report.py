"""The report names the cards whose value is limited by the bots, read from the results of
``saki bots gap --format json`` (:mod:`pipeline.sim.policy_gap`) of the run's preset and
catalog; a file of another deck or no gap file at all is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.analytics import open_run
from pipeline.report import ReportError
from pipeline.report.build import build_report
from pipeline.sim.policy_gap import PolicyGap, PolicyRow, load_gaps
from pipeline.sim.run import simulate
from tests.support.paired_runs import make_config as run_config
from tests.support.paired_runs import write_catalog, write_preset


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("gap-report")
    write_preset(base)
    write_catalog(base)
    simulate(run_config(base), base / "run", workers=1)
    return base / "run"


def gap(card: str, policy_gap: float, lo: float, hi: float, run: Path) -> PolicyGap:
    meta = open_run(run).meta
    shipped = PolicyRow("shipped", 700, 64, 100.0, 0.0, 200.0, 0.0, 0.0, 0.0)
    other = PolicyRow("always", 700, 64, 100.0 + policy_gap, 0.0, 400.0, policy_gap, lo, hi)
    upper = PolicyRow("hindsight", 700, 64, 500.0, 400.0, 600.0, 400.0, 300.0, 500.0)
    return PolicyGap(card, 1, (shipped, other, upper), meta["preset"]["name"],
                     meta["catalog"]["version"])


def write(path: Path, gaps: list[PolicyGap]) -> Path:
    path.write_text(json.dumps([g.as_dict() for g in gaps]), encoding="utf-8")
    return path


def test_the_report_names_the_cards_a_simple_policy_beats(run: Path, tmp_path: Path) -> None:
    # quad_a: "always" beats the shipped policy by +215 [+46, +433]; plain_a: +30 [-90, +150],
    # within the noise; hindsight beats both but is no policy a bot plays
    file = write(tmp_path / "gap.json", [gap("quad_a", 215.0, 46.0, 433.0, run),
                                         gap("plain_a", 30.0, -90.0, 150.0, run)])
    assert [g.card for g in load_gaps(file)] == ["quad_a", "plain_a"]
    report = build_report(run, gap=file)
    limited = report.context["bots_limited"]
    assert [(c["id"], c["policy"]) for c in limited] == [("quad_a", "always")]
    assert limited[0]["gap"] == 215.0 and limited[0]["gap_lo"] == 46.0
    html = report.html()
    assert "This card's value is limited by the bots" in html and "always by +215" in html
    plain = build_report(run)
    assert "limited by the bots" not in plain.html()
    assert plain.context["config"] != report.context["config"]


def test_no_limited_card_is_said_so(run: Path, tmp_path: Path) -> None:
    file = write(tmp_path / "gap.json", [gap("plain_a", 30.0, -90.0, 150.0, run)])
    html = build_report(run, gap=file).html()
    assert "No card's value is limited by the bots" in html and "of the 1 card measured" in html


def test_a_gap_file_of_another_deck_or_no_gap_file_is_refused(run: Path,
                                                              tmp_path: Path) -> None:
    other = gap("quad_a", 215.0, 46.0, 433.0, run)
    other = PolicyGap(other.card, other.seed, other.rows, "cards-hanchan", other.catalog)
    with pytest.raises(ReportError, match="--gap .*measured with preset 'cards-hanchan'"):
        build_report(run, gap=write(tmp_path / "other.json", [other]))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ReportError, match=r"--gap .*bad.json: not a readable JSON file"):
        build_report(run, gap=bad)
    bad.write_text(json.dumps({"card": "quad_a"}), encoding="utf-8")
    with pytest.raises(ReportError, match="not the policy gap of a card"):
        build_report(run, gap=bad)
