"""Card trials (``saki trial``): one seat holds a card alone and plays it every hand, and every
hand of that seat is replayed without the ability; the card's value is the mean paired
difference with an interval clustered by match.

The trials use the test catalog of :mod:`tests.test_paired` (``plain_*`` cards multiply their
wins by 1, an ability that changes nothing; ``quad_*`` by 4) with teams of one card, and greedy
bots, which never look at scores, so a quad card's pairs differ exactly by its wins' extra value.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.intervals import mean_by_group
from pipeline.analytics.trial import COLUMNS, card_tables, trial_table
from pipeline.cards.catalog import load_catalog
from pipeline.sim import SimError
from pipeline.sim.run import load_shards
from pipeline.sim.trial import (
    BLOCK,
    FIRST_BLOCKS,
    MIN_BLOCKS,
    CardProgress,
    card_folder,
    measure,
    plan_round,
    read_trial,
    run_trial,
)
from tests.support.trial_runs import CARDS, make_config


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("trial")
    run_trial(make_config(base), base / "t1", workers=1)
    return base / "t1"


def test_the_holder_plays_its_card_every_hand_from_a_rotating_seat(trial: Path) -> None:
    for card in CARDS:
        hands = load_shards(card_folder(trial, card), "hands")
        held = hands.filter(pl.col("seat") == pl.col("match_id") % BLOCK)
        others = hands.filter(pl.col("seat") != pl.col("match_id") % BLOCK)
        assert held.height > 0 and (held["character"] == card).all()
        assert card not in others["character"].to_list()
        assert set(held["seat"].to_list()) == {0, 1, 2, 3}
        pairs = load_shards(card_folder(trial, card), "pairs")
        # only the holder's hands are replayed, each once
        assert pairs.height == held.height
        assert (pairs["seat"] == pairs["match_id"] % BLOCK).all()


def test_an_ability_that_does_nothing_is_degenerate_never_a_certain_zero(
        trial: Path, tmp_path: Path) -> None:
    row = trial_table(trial).filter(pl.col("card") == "plain_a").row(0, named=True)
    assert row["value"] == 0 and row["changed"] == 0 and row["degenerate"]
    assert row["value_lo"] is None and row["value_hi"] is None and row["half_width"] is None
    shutil.copytree(trial, tmp_path / "copy")
    out = CliRunner().invoke(cli.app, ["trial", "--preset", str(trial.parent / "cards-one.toml"),
                                       "--cards", str(trial.parent / "test-cards.toml"),
                                       "--only", "plain_a", "--seed", "3", "--target", "1",
                                       "--budget-hands", "150", "--bots", "greedy",
                                       "--out", str(tmp_path / "copy"), "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert "+0 [no pair differed]" in out.output


def test_a_planted_multiplier_is_measured_with_its_sign(trial: Path) -> None:
    """Quad's value is the mean extra value of its own wins (3 times each win), and its
    interval excludes zero."""
    row = trial_table(trial).filter(pl.col("card") == "quad_a").row(0, named=True)
    pairs = card_tables(trial, "quad_a", read_trial(trial)["blocks"]["quad_a"],
                        ("pairs",))["pairs"]
    won = pairs.filter(pl.col("outcome_with").is_in(["tsumo_win", "ron_win"]))
    assert won.height > 0 and (won["win_points_with"] == 4 * won["win_points_without"]).all()
    assert row["pair_value"] == pytest.approx(pairs["delta_diff"].mean())
    assert row["pair_lo"] > 0 and row["value_lo"] > 0 and not row["degenerate"]
    assert row["win_rate"] == pytest.approx(row["win_rate_without"])  # same play


def test_the_stopping_rule_and_the_table_compute_the_same_interval(trial: Path) -> None:
    blocks = read_trial(trial)["blocks"]["quad_a"]
    pairs = load_shards(card_folder(trial, "quad_a"), "pairs")
    p = measure(pairs, "quad_a", blocks)  # a folder without the whole-match arm: the pairs
    clusters = (pairs.filter(pl.col("match_id") < blocks * BLOCK).group_by("match_id")
                .agg(s=pl.col("delta_diff").sum(), n=pl.len()).with_columns(g=pl.lit(1)))
    ref = mean_by_group(clusters, "g", "s", "n").row(0, named=True)
    row = trial_table(trial).filter(pl.col("card") == "quad_a").row(0, named=True)
    assert p.value == pytest.approx(ref["mean"]) == pytest.approx(row["pair_value"])
    assert p.lo == pytest.approx(row["pair_lo"]) and p.hi == pytest.approx(row["pair_hi"])
    # the value the rounds and the table read: over whole matches
    whole = load_shards(card_folder(trial, "quad_a"), "whole")
    w = measure(pairs, "quad_a", blocks, whole=whole)
    assert w.value == pytest.approx(row["value"]) == pytest.approx(row["whole_value"])
    assert w.lo == pytest.approx(row["value_lo"]) and w.hi == pytest.approx(row["value_hi"])
    assert w.hands == row["hands"] and w.matches == row["matches"]
    pl_ = measure(pairs, "quad_a", blocks, whole=whole, measure_="placement")
    assert pl_.value == pytest.approx(row["placement_value"])
    assert pl_.lo == pytest.approx(row["placement_lo"])


def test_rounds_stop_at_the_budget(trial: Path) -> None:
    doc = read_trial(trial)
    assert doc["status"] == "complete"
    assert doc["rounds"][0]["added"] == {c: FIRST_BLOCKS for c in CARDS}
    hands = sum(trial_table(trial)["hands"])
    # the plan never asks for more than the budget left (a block costs its expected hands)
    assert hands <= 150 + 2 * BLOCK * 15


def test_a_json_row_per_card(trial: Path, tmp_path: Path) -> None:
    shutil.copytree(trial, tmp_path / "copy")
    out = CliRunner().invoke(cli.app, ["trial", "--preset", str(trial.parent / "cards-one.toml"),
                                       "--cards", str(trial.parent / "test-cards.toml"),
                                       "--only", ",".join(CARDS), "--seed", "3", "--target",
                                       "1", "--budget-hands", "150", "--bots", "greedy",
                                       "--out", str(tmp_path / "copy"), "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)["rows"]
    assert [r["card"] for r in rows] == list(CARDS)
    assert set(COLUMNS) <= set(rows[0])
    assert all(isinstance(r["hands"], int) and r["matches"] % BLOCK == 0 for r in rows)


def test_a_killed_trial_resumes_to_the_same_table(trial: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(trial, copy)
    (card_folder(copy, "quad_a") / "manifest" / "part-00001.json").unlink()
    (card_folder(copy, "plain_a") / "pairs" / "part-00000.parquet").write_bytes(b"damaged")
    summary = run_trial(make_config(trial.parent), copy, workers=1)
    assert 0 < summary.hands_played < summary.hands  # only the two lost shards again
    assert trial_table(copy).equals(trial_table(trial))


def test_a_larger_target_reuses_the_matches_played(trial: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(trial, copy)
    summary = run_trial(make_config(trial.parent, target=1e9), copy, workers=1)
    assert summary.hands_played == 0  # quad meets it at once; plain's next blocks are there
    assert 0 < summary.hands <= sum(trial_table(trial)["hands"])


@pytest.mark.slow
def test_the_result_does_not_depend_on_the_worker_count(trial: Path, tmp_path: Path) -> None:
    run_trial(make_config(trial.parent), tmp_path / "w2", workers=2)
    assert trial_table(tmp_path / "w2").equals(trial_table(trial))


def progress(card: str, blocks: int, half: float, changed: int = 20) -> CardProgress:
    value = 100.0
    return CardProgress(card, blocks, blocks * BLOCK, blocks * BLOCK * 10, value,
                        value - half, value + half, changed)


def test_plan_round_asks_what_the_spread_needs_within_the_budget() -> None:
    cards = [progress("a", 4, 50.0), progress("b", 2, 200.0), progress("c", 4, 150.0)]
    # a meets the target; b needs 4 times its matches but at most doubles; c needs 2.25x
    assert plan_round(cards, 100.0, 1e9) == {"b": 2, "c": 4}
    # narrow enough on too few matches: up to the minimum
    assert plan_round([progress("e", 2, 50.0)], 100.0, 1e9) == {"e": MIN_BLOCKS - 2}
    # a budget for half of that: both asks halved
    assert plan_round(cards, 100.0, 0.5 * (2 + 4) * BLOCK * 10) == {"b": 1, "c": 2}
    # not even one block each: one block, widest first
    assert plan_round(cards, 100.0, 1.2 * BLOCK * 10) == {"b": 1}
    assert plan_round(cards, 100.0, 0) == {}
    # no interval yet (all pairs equal, or one match): doubles
    assert plan_round([progress("d", 3, math.nan, changed=0)], 100.0, 1e9) == {"d": 3}


def test_bad_input_is_one_line_naming_the_option(tmp_path: Path) -> None:
    with pytest.raises(SimError, match="--only: 'nobody' is not a card"):
        make_config(tmp_path, cards=("nobody",))
    with pytest.raises(SimError, match="--target must be above 0"):
        make_config(tmp_path, target=0)
    out = CliRunner().invoke(cli.app, ["trial", "--only", "nobody", "--out",
                                       str(tmp_path / "x")])
    assert out.exit_code == 2 and "--only: 'nobody'" in out.output
    out = CliRunner().invoke(cli.app, ["trial", "--preset", "online-hanchan"])
    assert out.exit_code == 2 and "plays without cards" in out.output


def frame(values: list[float], se: float = 50.0, matches: int = 16,
          degenerate: tuple[int, ...] = ()) -> pl.DataFrame:
    return pl.DataFrame({
        "card": [f"c{i}" for i in range(len(values))], "value": values,
        "value_se": [None if i in degenerate else se for i in range(len(values))],
        "matches": [matches] * len(values), "changed": [0 if i in degenerate else 30
                                                         for i in range(len(values))],
        "degenerate": [i in degenerate for i in range(len(values))]})


def test_trial_flags_judge_against_the_deck_average() -> None:
    from pipeline.analytics.trial import trial_flags

    flagged = trial_flags(frame([0.0] * 10 + [1000.0, -900.0], degenerate=(0,)))
    flags = dict(zip(flagged["card"], flagged["flag"], strict=True))
    assert flags["c10"] == "strong" and flags["c11"] == "weak"
    assert flags["c0"] == "not enough data"
    assert {flags[f"c{i}"] for i in range(1, 10)} == {""}
    mean = (1000 - 900) / 12
    assert flagged.filter(pl.col("card") == "c10")["relative"].item() == pytest.approx(1000 - mean)
    # too few matches: never judged; values within noise of each other: nothing flagged
    assert set(trial_flags(frame([0.0, 2000.0], matches=8))["flag"]) == {"not enough data"}
    noise = trial_flags(frame([(-1) ** i * 40.0 for i in range(20)]))
    assert set(noise["flag"]) == {""}


def test_fit_picks_turns_a_trial_into_offsets(trial: Path, tmp_path: Path) -> None:
    # issue 15: pick estimates fitted from trials. plain_a's ability changes nothing, so its
    # value is an exact zero (degenerate) and its fitted estimate must be exactly zero too
    from pipeline.bots.pick_offsets import estimate_means, load_offsets

    out = tmp_path / "offsets.toml"
    catalog_path = trial.parent / "test-cards.toml"
    result = CliRunner().invoke(cli.app, ["bots", "fit-picks", str(trial), "--catalog",
                                          str(catalog_path), "--hands", "50", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Rank correlation" in result.output and "offsets written" in result.output
    offsets = load_offsets(out)
    assert set(offsets) == set(CARDS)
    means = estimate_means(load_catalog(str(catalog_path)), CARDS, 50)
    assert offsets["plain_a"] == pytest.approx(-means["plain_a"], abs=0.05)
    quad = trial_table(trial).filter(pl.col("card") == "quad_a").row(0, named=True)
    assert quad["value"] > 0 and offsets["quad_a"] + means["quad_a"] > 0


def test_fit_picks_names_a_folder_that_is_no_trial(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.app, ["bots", "fit-picks", str(tmp_path)])
    assert result.exit_code == 2
    assert "no trial here" in result.output and "saki trial" in result.output


def test_blocks_past_the_replayed_ones_play_the_match_twice_but_replay_no_hand(
        tmp_path: Path) -> None:
    """A card's later blocks play its matches with the ability and without it (what the value
    reads) but replay no hand: those matches and the value are the same as when every hand is
    replayed; a card whose replays changed too few hands (plain: none) keeps replaying."""
    import dataclasses

    base = make_config(tmp_path, budget=400)
    runs = {}
    for name, replayed in (("few", FIRST_BLOCKS), ("every", None)):
        run_trial(dataclasses.replace(base, replayed_blocks=replayed), tmp_path / name,
                  workers=1)
        runs[name] = tmp_path / name
    blocks = {name: read_trial(folder)["blocks"] for name, folder in runs.items()}
    quad = min(blocks["few"]["quad_a"], blocks["every"]["quad_a"])
    assert quad > FIRST_BLOCKS
    tables = {name: card_tables(folder, "quad_a", quad, ("hands", "whole", "pairs"))
              for name, folder in runs.items()}
    for table in ("hands", "whole"):
        assert tables["few"][table].drop("run_id").equals(tables["every"][table].drop("run_id"))
    few_pairs, every_pairs = tables["few"]["pairs"], tables["every"]["pairs"]
    assert every_pairs.height == tables["every"]["whole"]["hands_with"].sum()
    assert 0 < few_pairs.height < every_pairs.height
    assert few_pairs.drop("run_id").equals(
        every_pairs.filter(pl.col("match_id").is_in(few_pairs["match_id"].unique().to_list()))
        .drop("run_id"))
    measured = {name: measure(t["pairs"], "quad_a", quad, BLOCK, t["whole"])
                for name, t in tables.items()}
    assert measured["few"].value == measured["every"].value
    assert measured["few"].hands == measured["every"].hands
    assert measured["few"].replayed == few_pairs.height < measured["few"].hands
    # plain_a never changed a hand: every block of it replayed
    plain = card_tables(runs["few"], "plain_a", blocks["few"]["plain_a"], ("hands", "pairs"))
    held = plain["hands"].filter(pl.col("seat") == pl.col("match_id") % BLOCK)
    assert plain["pairs"].height == held.height
    row = trial_table(runs["few"]).filter(pl.col("card") == "quad_a").row(0, named=True)
    assert row["replayed"] == few_pairs.height and row["hands"] > row["replayed"]


def test_a_rounds_new_blocks_are_read_once_and_give_the_folders_tables(trial: Path) -> None:
    """The rounds read each block once (CardFrames): two steps give what reading the card's
    whole folder gives, in the same order."""
    from pipeline.sim.trial import CardFrames

    blocks = read_trial(trial)["blocks"]
    frames = CardFrames(trial)
    for card in CARDS:
        frames.add(card, 1)
        frames.add(card, int(blocks[card]))
        frames.add(card, 1)  # nothing new
        folder = card_folder(trial, card)
        assert frames.pairs[card].equals(load_shards(folder, "pairs"))
        assert frames.whole(card) is not None
        assert frames.whole(card).equals(load_shards(folder, "whole"))


def test_the_trial_table_is_read_again_when_a_shard_changes(trial: Path, tmp_path: Path
                                                           ) -> None:
    """The table is kept while a card's shards stay as they are: a damaged file is still
    refused the next time it is read."""
    from pipeline.analytics.runs import AnalyticsError

    copy = tmp_path / "copy"
    shutil.copytree(trial, copy)
    assert trial_table(copy).equals(trial_table(trial))
    (card_folder(copy, "quad_a") / "whole" / "part-00000.parquet").write_bytes(b"damaged")
    with pytest.raises(AnalyticsError, match="damaged"):
        trial_table(copy)
