"""Team trials (``saki trial --kind team``): the card placed in the holder's ordinary team
(C-02), each hand its bot picks it (C-03) replayed with the next choice; the team value is the
mean gain over every hand of the holder, the pick share times the gain when picked. The trial
has a card trial's machinery: shards with manifests, rounds, resume, any worker count or a
Dask cluster, the same tables."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.runs import AnalyticsError
from pipeline.analytics.team import COLUMNS, team_band_table, team_table
from pipeline.analytics.trial import trial_table
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim import SimError
from pipeline.sim.team_trial import (
    TEAM_PAIRS_SCHEMA,
    TeamTrialConfig,
    as_pairs,
    load_team_pairs,
    run_team_trial,
)
from pipeline.sim.trial import FIRST_BLOCKS, TrialConfig, card_folder, measure, run_trial
from pipeline.verdicts import BandSpec

PRESET = load_preset("cards-hanchan")
CATALOG = load_catalog("1.2")
CARD = "kana_ikeda"
CARDS = (CARD, "nelly_virsaladze")  # a situational card and an everywhere card


def make_config(cards: tuple[str, ...] = (CARD,), budget: int = 50,
                target: float = 150.0) -> TeamTrialConfig:
    return TeamTrialConfig(preset=PRESET, catalog=CATALOG, seed=9, cards=cards,
                           target=target, budget_hands=budget)


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("team") / "t1"
    run_team_trial(make_config(CARDS), out, workers=1)  # one round: the first blocks
    return out


def test_every_hand_of_the_holder_is_a_row_and_only_picked_hands_differ(team: Path) -> None:
    # rule C-03: a pick each hand; the card's gain is counted only where it was picked
    pairs = load_team_pairs(team, CARD)
    assert dict(pairs.schema) == TEAM_PAIRS_SCHEMA
    assert pairs["match_id"].n_unique() == FIRST_BLOCKS * 4
    assert (pairs["seat"] == pairs["match_id"] % 4).all()
    assert pairs["held"].all()  # standard mode: the team keeps the card all match
    others = pairs.filter(~pl.col("picked_card"))
    assert others["alternative"].is_null().all() and (others["delta_diff"] == 0).all()
    picked = pairs.filter(pl.col("picked_card"))
    assert picked.height > 0 and (picked["alternative"] != CARD).all()
    assert (picked["delta_diff"] == picked["delta_with"] - picked["delta_other"]).all()


def test_the_team_value_is_the_pick_share_times_the_gain_when_picked(team: Path) -> None:
    row = team_table(team, (CARD,)).row(0, named=True)
    assert set(COLUMNS) <= set(row)
    assert 0 < row["pick_share"] < 1
    assert math.isclose(row["team_value"], row["pick_share"] * row["pick_gain"],
                        rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(row["hold_to_pick"], row["pick_share"], rel_tol=1e-9)


def test_the_stopping_rule_and_the_table_compute_the_same_interval(team: Path) -> None:
    progress = measure(as_pairs(load_team_pairs(team, CARD)), CARD, FIRST_BLOCKS)
    row = team_table(team, (CARD,)).row(0, named=True)
    assert math.isclose(progress.value, row["team_value"], rel_tol=1e-9)
    if not row["degenerate"]:
        assert math.isclose(progress.lo, row["team_lo"], rel_tol=1e-6)
        assert math.isclose(progress.hi, row["team_hi"], rel_tol=1e-6)


def test_a_killed_team_trial_resumes_to_the_same_table(team: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(team, copy)
    (card_folder(copy, CARD) / "manifest" / "part-00001.json").unlink()
    summary = run_team_trial(make_config(CARDS), copy, workers=1)
    assert 0 < summary.hands_played < summary.hands
    assert team_table(copy).equals(team_table(team))
    assert load_team_pairs(copy, CARD).equals(load_team_pairs(team, CARD))


def test_the_result_does_not_depend_on_the_worker_count(team: Path, tmp_path: Path) -> None:
    run_team_trial(make_config(), tmp_path / "w2", workers=2)
    assert load_team_pairs(tmp_path / "w2", CARD).equals(load_team_pairs(team, CARD))


def test_a_dask_cluster_plays_the_same_team_trial(team: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from pipeline.sim.executor import DaskExecutor

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        runner = DaskExecutor(local.scheduler_address)
        try:
            run_team_trial(make_config(), tmp_path / "dask", executor=runner)
        finally:
            runner.close()
    assert load_team_pairs(tmp_path / "dask", CARD).equals(load_team_pairs(team, CARD))


def test_a_team_trial_and_a_card_trial_never_share_a_folder(team: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(team, copy)
    card = TrialConfig(preset=PRESET, catalog=CATALOG, seed=9, cards=(CARD,), target=150.0,
                       budget_hands=50)
    with pytest.raises(SimError, match="another configuration \\(kind differs\\)"):
        run_trial(card, copy, workers=1)
    with pytest.raises(AnalyticsError, match="a team trial"):
        trial_table(copy)
    doc = json.loads((copy / "trial.json").read_text())
    doc["kind"] = "trial"
    (copy / "trial.json").write_text(json.dumps(doc))
    with pytest.raises(AnalyticsError, match="not a team trial"):
        team_table(copy)


def test_bad_input_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    import dataclasses

    rapid = dataclasses.replace(PRESET, cards=dataclasses.replace(PRESET.cards,
                                                                  team_mode="rapid",
                                                                  team_size=2))
    with pytest.raises(SimError, match="team mode 'rapid'"):
        TeamTrialConfig(preset=rapid, catalog=CATALOG, seed=9, cards=(CARD,))
    with pytest.raises(SimError, match="--only: 'nobody' is not a card"):
        make_config(cards=("nobody",))
    out = CliRunner().invoke(cli.app, ["trial", "--kind", "teams", "--out",
                                       str(tmp_path / "x")])
    assert out.exit_code == 2 and "--kind" in out.output


def test_the_command_prints_a_json_row_per_card(team: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(team, copy)
    out = CliRunner().invoke(cli.app, ["trial", "--kind", "team", "--only", CARD, "--seed", "9",
                                       "--target", "150", "--budget-hands", "50", "--workers",
                                       "1", "--out", str(copy), "--format", "json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["kind"] == "team"
    row = doc["rows"][0]
    assert row["card"] == CARD
    assert {"team_value", "team_lo", "team_hi", "pick_share", "hold_to_pick"} <= set(row)
    assert row["team_value"] == pytest.approx(team_table(team, (CARD,))["team_value"][0])
    assert row["team_lo"] < row["team_value"] < row["team_hi"]
    table = CliRunner().invoke(cli.app, ["trial", "--kind", "team", "--only", CARD, "--seed",
                                         "9", "--target", "150", "--budget-hands", "50",
                                         "--workers", "1", "--out", str(copy)])
    assert table.exit_code == 0 and "worth in a team" in table.stdout
    assert row["verdict"] == "undecided" and "whole deck" in row["reason"]
    band = CliRunner().invoke(cli.app, ["trial", "--kind", "team", "--only", CARD, "--seed",
                                        "9", "--target", "150", "--budget-hands", "50",
                                        "--workers", "1", "--out", str(copy), "--band",
                                        "-5000:5000", "--format", "json"])
    assert band.exit_code == 0, band.output
    judged = json.loads(band.stdout)["rows"][0]
    assert (judged["band_lo"], judged["band_hi"]) == (-5000, 5000)
    assert judged["verdict"] in ("inside", "undecided")


def test_the_team_band_is_made_of_the_decks_team_values(team: Path, tmp_path: Path) -> None:
    # a deck of the two cards measured: its band is their mean team value +/- the threshold
    copy = tmp_path / "copy"
    shutil.copytree(team, copy)
    doc = json.loads((copy / "trial.json").read_text())
    doc["deck"] = list(CARDS)
    (copy / "trial.json").write_text(json.dumps(doc))
    judged = team_band_table(copy, BandSpec(threshold=300.0))
    values = team_table(copy, CARDS)["team_value"]
    mean = float(values.mean())
    assert judged["band_lo"].to_list() == pytest.approx([mean - 300.0] * 2)
    assert judged["band_hi"].to_list() == pytest.approx([mean + 300.0] * 2)
    assert judged["relative"].to_list() == pytest.approx((values - mean).to_list())
    assert set(judged["reference"]) == {"this team trial's 2 cards"}
    assert set(judged["verdict"]) <= {"above", "inside", "below", "at_edge", "undecided"}


def test_the_command_says_how_far_it_got_while_a_round_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a progress line at the ticker's interval while the matches of a round play (made 0
    # here, so every finished match says it)
    import pipeline.sim.trial as trial_module

    class EveryMatch(trial_module.TrialTicker):
        def __init__(self, write, **_: object) -> None:
            super().__init__(write, interval=0.0)

    monkeypatch.setattr(trial_module, "TrialTicker", EveryMatch)
    out = CliRunner().invoke(cli.app, ["trial", "--kind", "team", "--only", CARD, "--seed", "9",
                                       "--target", "150", "--budget-hands", "50", "--workers",
                                       "1", "--out", str(tmp_path / "t")])
    assert out.exit_code == 0, out.output
    assert "trial round 1:" in out.stderr and "hands played" in out.stderr
