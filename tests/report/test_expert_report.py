"""The report's "value for an expert player" beside the ability value: a trial of the run's
catalog and preset whose holder played the expert style (``saki trial --holder-policy
expert``), read next to its card trial (rule-free: a report feature, docs/trials.md "Skill
ceiling")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.analytics.verdict import verdict_table
from pipeline.cards.catalog import load_catalog
from pipeline.report import ReportError
from pipeline.report.build import build_report
from pipeline.rules.preset import load_preset
from pipeline.sim.run import simulate
from pipeline.sim.trial import TrialConfig, run_trial
from pipeline.verdicts import BandSpec
from tests.support.paired_runs import make_config as run_config
from tests.support.paired_runs import write_catalog, write_preset

CARDS = ("plain_a", "quad_a")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("expert-report")
    preset = load_preset(str(write_preset(base)))
    catalog = load_catalog(str(write_catalog(base)))
    simulate(run_config(base), base / "run", workers=1)
    for folder, policy, seed in (("trial", "", 3), ("expert", "expert", 4)):
        run_trial(TrialConfig(preset=preset, catalog=catalog, seed=seed, cards=CARDS,
                              bots=("heuristic",) * 4, target=1.0, budget_hands=60,
                              holder_policy=policy), base / folder, workers=1)
    return {"run": base / "run", "trial": base / "trial", "expert": base / "expert"}


def test_the_report_shows_the_value_for_an_expert_player_next_to_the_ability_value(played
                                                                                  ) -> None:
    report = build_report(played["run"], trial=played["trial"], expert_trial=played["expert"])
    rows = {r["card"]: r for r in report.context["trial"]}
    # the column is the expert trial's own value and interval, card by card
    expert = {r["card"]: r for r in verdict_table(played["expert"], BandSpec()).to_dicts()}
    for card in CARDS:
        assert rows[card]["expert_value"] == pytest.approx(expert[card]["value"])
        assert rows[card]["expert_lo"] == pytest.approx(expert[card]["value_lo"])
        assert rows[card]["expert_hi"] == pytest.approx(expert[card]["value_hi"])
    # ... beside the shipped bot's value, which stays the trial's
    shipped = {r["card"]: r["value"] for r in verdict_table(played["trial"], BandSpec()
                                                            ).to_dicts()}
    assert {c: rows[c]["value"] for c in CARDS} == pytest.approx(shipped)
    assert report.context["trial_expert"]
    assert "<th>for an expert player (skill ceiling)</th>" in report.html()
    plain = build_report(played["run"], trial=played["trial"])
    assert "skill ceiling" not in plain.html()
    assert plain.context["config"] != report.context["config"]


def test_an_expert_trial_needs_the_card_trial_and_the_expert_holder(played) -> None:
    with pytest.raises(ReportError, match="--expert-trial goes beside --trial"):
        build_report(played["run"], expert_trial=played["expert"])
    with pytest.raises(ReportError, match="did not play the expert style"):
        build_report(played["run"], trial=played["trial"], expert_trial=played["trial"])
