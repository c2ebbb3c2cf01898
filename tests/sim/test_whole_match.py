"""A card trial's whole-match arm: each match played to its end with the holder's ability and
again with it off throughout (the ``whole`` table), and the values read from it: the
whole-match value (points per hand), the placement value (result per match, rule M-07) and the
rank gain.

The trials use the test catalog of :mod:`tests.test_paired` (``plain_*`` cards change nothing,
``quad_*`` multiply their wins by 4) and greedy bots, which never look at scores: both arms
play every hand alike, so the answers are known.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from pipeline.analytics.trial import card_tables, trial_table, whole_columns
from pipeline.rules.match import final_results
from pipeline.rules.preset import load_preset
from pipeline.sim.run import _without_ability
from pipeline.sim.tables import ability_counts
from pipeline.sim.trial import run_trial
from tests.support.trial_runs import make_config

CARDS = ("plain_a", "quad_a")


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("whole")
    config = make_config(base, CARDS, budget=1, target=1e9)
    run_trial(config, base / "t", workers=1)
    return base / "t"


def _tables(trial: Path, card: str) -> dict[str, pl.DataFrame]:
    return card_tables(trial, card, 2, ("whole", "matches", "pairs"))


def test_the_with_side_is_the_trials_own_match(trial: Path) -> None:
    for card in CARDS:
        t = _tables(trial, card)
        m = t["matches"].filter(pl.col("seat") == pl.col("match_id") % 4)
        joined = t["whole"].join(m, on=["match_id", "seat"])
        assert joined.height == t["whole"].height == 8
        assert (joined["final_score_with"] == joined["final_score"]).all()
        assert (joined["rank_with"] == joined["rank"]).all()
        assert (joined["result_with"] == joined["result"]).all()
        assert (joined["hands_with"] == joined["hands_played"]).all()


def test_an_ability_that_changes_nothing_is_worth_nothing_over_the_match(trial: Path) -> None:
    row = trial_table(trial, ("plain_a",)).row(0, named=True)
    w = _tables(trial, "plain_a")["whole"]
    assert (w["final_score_with"] == w["final_score_without"]).all()
    assert row["whole_value"] == 0 and row["placement_value"] == 0 and row["rank_gain"] == 0


def test_without_any_carry_over_the_whole_match_value_is_the_sum_of_the_pairs(
        trial: Path) -> None:
    # greedy bots play every hand alike in both arms: a match of the same length differs by
    # exactly its hands' paired differences (nothing is paid in a later hand)
    t = _tables(trial, "quad_a")
    per_match = t["pairs"].group_by("match_id").agg(pl.col("delta_diff").sum().alias("pairs"))
    j = t["whole"].join(per_match, on="match_id").filter(
        pl.col("hands_with") == pl.col("hands_without"))
    assert j.height >= 2
    assert ((j["final_score_with"] - j["final_score_without"]) == j["pairs"]).all()
    assert (j["pairs"] != 0).any()


def test_the_placement_value_is_the_results_under_uma_and_oka(trial: Path) -> None:
    # rule M-07: each arm's result follows from its final scores; the placement value is their
    # mean difference per match, the rank gain the mean difference of the ranks
    preset = load_preset(str(trial.parent / "cards-one.toml"))
    t = _tables(trial, "quad_a")
    w = t["whole"]
    assert (w["result_with"] != w["result_without"]).any()
    row = trial_table(trial, ("quad_a",)).row(0, named=True)
    assert row["placement_value"] == pytest.approx(
        float((w["result_with"] - w["result_without"]).mean()))
    assert row["rank_gain"] == pytest.approx(float((w["rank_with"] - w["rank_without"]).mean()))
    assert row["whole_value"] == pytest.approx(
        float((w["final_score_with"] - w["final_score_without"]).sum() / w["hands_with"].sum()))
    matches = t["matches"]
    for m in w.iter_rows(named=True):
        scores = matches.filter(pl.col("match_id") == m["match_id"]).sort("seat")
        assert final_results(scores["final_score"].to_list(), preset)[m["seat"]] == \
            m["result_with"]


def test_intervals_clustered_by_match_on_a_known_case() -> None:
    # four matches, one cluster each: result differences 10, 20, 30, 40 -> mean 25, standard
    # error sd / sqrt(4); the whole value is a ratio: (4,000 + 2,000) / (10 + 10) = 300 a hand
    whole = pl.DataFrame({
        "match_id": [0, 1, 2, 3], "hands_with": [10, 10, 10, 10],
        "final_score_with": [30000, 26000, 25000, 25000],
        "final_score_without": [26000, 24000, 25000, 25000],
        "rank_with": [1, 2, 2, 3], "rank_without": [2, 2, 3, 3],
        "result_with": [50.0, 30.0, 40.0, 50.0], "result_without": [40.0, 10.0, 10.0, 10.0]})
    got = whole_columns(whole, "x")
    assert got["placement_value"] == pytest.approx(25.0)
    sd = math.sqrt(sum((d - 25) ** 2 for d in (10, 20, 30, 40)) / 3)
    assert got["placement_se"] == pytest.approx(sd / 2)
    assert got["placement_lo"] == pytest.approx(25 - 1.96 * sd / 2, rel=1e-3)
    assert got["whole_value"] == pytest.approx(150.0)
    assert got["rank_gain"] == pytest.approx(-0.5)
    assert got["whole_matches"] == 4
    assert whole_columns(None, "x")["placement_value"] is None


def test_the_arm_without_the_ability_never_uses_it(trial: Path) -> None:
    config = make_config(trial.parent, ("quad_a",), budget=1, target=1e9)
    task = config.task(trial, "quad_a", 0)
    for m in range(4):
        result = _without_ability(task, m, task.bots, config.catalog)
        assert all(ability_counts(rec)[m % 4]["ability_triggers"] == 0
                   for rec in result.hands)
        assert all(rec.picks[m % 4] == "quad_a" for rec in result.hands)


def test_the_verdict_is_asked_on_the_measure_chosen(trial: Path, tmp_path: Path) -> None:
    import json
    import shutil

    from typer.testing import CliRunner

    import cli

    shutil.copytree(trial, tmp_path / "copy")
    args = ["trial", "--preset", str(trial.parent / "cards-one.toml"), "--cards",
            str(trial.parent / "test-cards.toml"), "--only", ",".join(CARDS), "--seed", "3",
            "--target", "1e9", "--budget-hands", "1", "--bots", "greedy", "--out",
            str(tmp_path / "copy"), "--format", "json", "--band", "-5:5"]
    rows = {}
    for measure in ("points", "placement"):
        out = CliRunner().invoke(cli.app, [*args, "--measure", measure])
        assert out.exit_code == 0, out.output
        rows[measure] = {r["card"]: r for r in json.loads(out.stdout)["rows"]}
    points, placement = rows["points"]["quad_a"], rows["placement"]["quad_a"]
    assert points["measure"] == "points" and placement["measure"] == "placement"
    assert points["value"] == pytest.approx(points["whole_value"])
    assert placement["value"] == pytest.approx(placement["placement_value"])
    assert placement["value_lo"] == pytest.approx(placement["placement_lo"])
    assert placement["relative"] == pytest.approx(placement["placement_value"])  # --band
    out = CliRunner().invoke(cli.app, [*args, "--measure", "wins"])
    assert out.exit_code == 2 and "--measure 'wins' is not known" in out.output


def test_placement_needs_the_whole_match_arm() -> None:
    from pipeline.analytics.runs import AnalyticsError
    from pipeline.analytics.trial import in_measure

    table = pl.DataFrame({"card": ["old"], "value": [1.0], "placement_value": [None]},
                         schema_overrides={"placement_value": pl.Float64})
    with pytest.raises(AnalyticsError, match="no placement value for old"):
        in_measure(table, "placement")
    assert in_measure(table, "points")["measure"].to_list() == ["points"]


def test_a_comparison_reads_both_sides_in_the_measure_asked(trial: Path) -> None:
    # "did it work?" on placement: each side's value is its placement value, and a trial
    # compared with itself changes by exactly nothing in either measure
    from pipeline.analytics.verdict import compare_verdicts
    from pipeline.verdicts import BandSpec

    table = trial_table(trial).sort("card")
    both = compare_verdicts(trial, trial, BandSpec(lo=-5.0, hi=5.0), {"quad_a"},
                            measure="placement").sort("card")
    assert both["value"].to_list() == pytest.approx(table["placement_value"].to_list())
    assert both["value_b"].to_list() == pytest.approx(table["placement_value"].to_list())
    assert both["change"].to_list() == pytest.approx([0.0, 0.0])
    points = compare_verdicts(trial, trial, BandSpec(lo=-300.0, hi=300.0)).sort("card")
    assert points["value"].to_list() == pytest.approx(
        trial_table(trial).sort("card")["value"].to_list())


# --- the shared start: the match without the ability played on from the first hand it changed

def _both_ways(card: str, seed: int, matches: range) -> tuple[int, int]:
    """Each match of ``card``'s trial with the match without the ability played on from the
    first hand the ability changed, and again from the match's first hand: the real match,
    its pairs and the match without the ability must be the same, hand for hand. Returns how
    many matches the ability never changed and how many were played on from a later hand."""
    from pipeline.cards.catalog import load_catalog
    from pipeline.rules.match import MatchResult
    from pipeline.sim.shard import play_task_match
    from pipeline.sim.trial import TrialConfig
    from tests.support.hand_outcome import outcome

    def whole(r: MatchResult) -> tuple[object, ...]:
        return (r.final_scores, r.ranks, r.results, r.leftover_sticks, r.leftover_stakes,
                [outcome(h) for h in r.hands])

    config = TrialConfig(preset=load_preset("cards-hanchan"), catalog=load_catalog("1.2"),
                         seed=seed, cards=(card,))
    task = config.task(Path("unused"), card, 0)
    unchanged = later = 0
    for m in matches:
        shared, shared_pairs, shared_without = play_task_match(task, m, config.catalog)
        full, full_pairs, full_without = play_task_match(task, m, config.catalog,
                                                         share_start=False)
        assert shared_without is not None and full_without is not None
        assert whole(shared) == whole(full)
        assert [outcome(p.without) for p in shared_pairs] == \
            [outcome(p.without) for p in full_pairs]
        assert whole(shared_without) == whole(full_without), (card, seed, m)
        unchanged += shared_without is shared
        # played on from a later hand: the first hand is the real match's own record
        later += shared_without is not shared and shared_without.hands[0] is shared.hands[0]
    return unchanged, later


def test_every_card_s_match_without_it_is_that_of_a_replay_from_the_first_hand() -> None:
    """Every card of the deck, one match each on two seeds, the holder in another seat in
    each: both sharing paths (a match the ability never changed, a match played on from a
    later hand) are taken, and each gives what the replay from the first hand gives."""
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.trial import trial_deck

    cards = trial_deck(load_catalog("1.2"), load_preset("cards-hanchan"))
    unchanged = later = 0
    for seed, offset in ((3, 0), (7, 1)):
        for i, card in enumerate(cards):
            u, lt = _both_ways(card, seed, range((i + offset) % 4, (i + offset) % 4 + 1))
            unchanged, later = unchanged + u, later + lt
    assert unchanged > 0 and later > 5


@pytest.mark.slow
def test_more_matches_of_every_card_without_it_are_those_of_a_replay_from_the_first_hand(
) -> None:
    """Every card on two seeds, a block of four matches each (the holder in every seat)."""
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.trial import trial_deck

    for card in trial_deck(load_catalog("1.2"), load_preset("cards-hanchan")):
        for seed in (1, 5):
            _both_ways(card, seed, range(4))


def test_the_decision_benchmark_resamples_the_whole_match_values(trial: Path) -> None:
    """benchmarks/bench_decide.py draws each card's matches with the value the verdicts are
    asked on: per match, the holder's final score with minus without its ability over the
    match's hands, and the changed pairs."""
    from benchmarks.bench_decide import load_population

    pop, _magnitude, kind = load_population(trial)
    assert kind == "whole match"
    for card in CARDS:
        t = _tables(trial, card)
        w = t["whole"].sort("match_id")
        rows = pop[card]
        assert rows[:, 0].tolist() == (w["final_score_with"] - w["final_score_without"]
                                       ).cast(pl.Float64).to_list()
        assert rows[:, 1].tolist() == w["hands_with"].cast(pl.Float64).to_list()
    assert pop["plain_a"][:, 2].sum() == 0 and pop["quad_a"][:, 2].sum() > 0
    placement, _m, _k = load_population(trial, "placement")
    assert (placement["quad_a"][:, 1] == 1).all()
