"""The report's "worth in a team" beside the ability value: a team trial
(``saki trial --kind team``) of the run's catalog and preset, read next to its card trial.

The test catalog of :mod:`tests.test_paired` deals teams of one card, so a team holds nothing
but the card: it is picked every hand with no other choice to replay, and its worth in a team
is a certain nothing beside its ability value (quad_a multiplies its wins by 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.analytics.team import team_table
from pipeline.cards.catalog import load_catalog
from pipeline.report import ReportError
from pipeline.report.build import build_report
from pipeline.rules.preset import load_preset
from pipeline.sim.run import simulate
from pipeline.sim.team_trial import TeamTrialConfig, run_team_trial
from pipeline.sim.trial import TrialConfig, run_trial
from tests.support.paired_runs import make_config as run_config
from tests.support.paired_runs import write_catalog, write_preset

CARDS = ("plain_a", "quad_a")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("team-report")
    preset = load_preset(str(write_preset(base)))
    catalog = load_catalog(str(write_catalog(base)))
    simulate(run_config(base), base / "run", workers=1)
    run_trial(TrialConfig(preset=preset, catalog=catalog, seed=3, cards=CARDS,
                          bots=("greedy",) * 4, target=1.0, budget_hands=60),
              base / "trial", workers=1)
    run_team_trial(TeamTrialConfig(preset=preset, catalog=catalog, seed=3, cards=CARDS,
                                   bots=("greedy",) * 4, target=1.0, budget_hands=60),
                   base / "team", workers=1)
    return {"run": base / "run", "trial": base / "trial", "team": base / "team"}


def test_a_team_of_one_card_picks_it_every_hand_with_nothing_to_replay(played) -> None:
    rows = team_table(played["team"]).to_dicts()
    assert [r["card"] for r in rows] == list(CARDS)
    assert all(r["pick_share"] == 1.0 and r["team_value"] == 0.0 and r["degenerate"]
               and r["second_choice"] is None for r in rows)


def test_the_report_shows_worth_in_a_team_next_to_the_ability_value(played) -> None:
    report = build_report(played["run"], trial=played["trial"], team_trial=played["team"])
    rows = report.context["trial"]
    assert report.context["trial_team"]
    assert {r["card"]: r["team_value"] for r in rows} == {"plain_a": 0.0, "quad_a": 0.0}
    assert ("<th>ability value over the match, points a hand</th>"
            "<th>worth in a team, points a hand</th>") in report.html()
    assert "picked 100" in report.html()
    plain = build_report(played["run"], trial=played["trial"])
    assert "worth in a team" not in plain.html()
    assert plain.context["config"] != report.context["config"]


def test_a_team_trial_needs_the_card_trial_and_must_be_one(played) -> None:
    with pytest.raises(ReportError, match="--team-trial goes beside --trial"):
        build_report(played["run"], team_trial=played["team"])
    with pytest.raises(ReportError, match="a card trial, not a team trial"):
        build_report(played["run"], trial=played["trial"], team_trial=played["trial"])
