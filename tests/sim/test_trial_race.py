"""Racing trials (``saki trial`` without ``--target``): hands go only to the cards still
undecided against the band, the verdicts read the whole deck's average card (the trial's own,
or a stored deck trial's), and the result is the same for any worker count and after a kill.

The test catalog of :mod:`tests.test_paired`: ``quad_*`` cards multiply their wins by 4 (worth
thousands of points per hand), ``plain_*`` by 1 (an ability that never changes a hand)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.verdict import verdict_table
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.trial import (
    FIRST_BLOCKS,
    REPLAYED_BLOCKS,
    CardProgress,
    TrialConfig,
    TrialRound,
    TrialTicker,
    look_grid,
    next_look,
    plan_race,
    read_trial,
    run_trial,
)
from pipeline.verdicts import (
    ABOVE,
    DOUBLING_GRID,
    INSIDE,
    LOOK_GRID,
    MAX_LOOKS,
    UNDECIDED,
    BandSpec,
    Verdict,
)
from tests.support.paired_runs import write_catalog, write_preset

CARDS = ("plain_a", "plain_b", "quad_a", "quad_b")
BAND = BandSpec(lo=-100.0, hi=100.0)


def config(folder: Path, cards: tuple[str, ...] = CARDS, budget: int = 1400,
           band: BandSpec | None = BAND) -> TrialConfig:
    return TrialConfig(preset=load_preset(str(write_preset(folder))),
                       catalog=load_catalog(str(write_catalog(folder))), seed=3, cards=cards,
                       bots=("greedy",) * 4, budget_hands=budget, band=band)


@pytest.fixture(scope="module")
def raced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("race")
    run_trial(config(base), base / "r1", workers=1)
    return base / "r1"


def test_decided_cards_stop_and_undecided_ones_get_the_hands(raced: Path) -> None:
    doc = read_trial(raced)
    table = verdict_table(raced, BAND)
    got = dict(zip(table["card"], table["verdict"], strict=True))
    assert got["quad_a"] == got["quad_b"] == ABOVE
    # an ability that never changes a hand cannot be bounded by a few hundred hands here
    assert got["plain_a"] == UNDECIDED and "changed only 0" in \
        table.filter(pl.col("card") == "plain_a")["reason"][0]
    blocks = doc["blocks"]
    assert blocks["plain_a"] > blocks["quad_a"] >= FIRST_BLOCKS
    assert doc["allocation"] == "racing" and doc["looks"] == MAX_LOOKS
    assert tuple(doc["look_grid"]) == LOOK_GRID == look_grid(doc)
    # a folder raced before the grid was recorded was raced on the doubling one
    older = {k: v for k, v in doc.items() if k != "look_grid"}
    assert look_grid({**older, "looks": 8}) == DOUBLING_GRID
    assert look_grid({**older, "looks": 1}) == LOOK_GRID
    assert doc["deck"] == list(CARDS)
    # every round takes the cards it plays to the grid's next look (the p-values count them)
    for before, after in zip(doc["rounds"], doc["rounds"][1:], strict=False):
        for card, n in after["added"].items():
            assert before["blocks"][card] + n == next_look(before["blocks"][card])
            assert before["blocks"][card] + n in LOOK_GRID


def test_the_same_verdicts_for_two_workers_and_after_a_kill(raced: Path,
                                                           tmp_path: Path) -> None:
    run_trial(config(tmp_path), tmp_path / "w2", workers=2)
    a, b = verdict_table(raced, BAND), verdict_table(tmp_path / "w2", BAND)
    assert a.drop("reference").equals(b.drop("reference"))
    killed = tmp_path / "killed"
    shutil.copytree(raced, killed)
    (killed / "trial.json").unlink()
    for part in (killed / "cards" / "plain_a" / "manifest").glob("part-0000[3-9].json"):
        part.unlink()  # as if killed in the middle of a round
    run_trial(config(tmp_path), killed, workers=1)
    assert verdict_table(killed, BAND).drop("reference").equals(a.drop("reference"))


def test_a_subset_uses_a_stored_deck_trial_or_says_why_not(raced: Path,
                                                           tmp_path: Path) -> None:
    beside = raced.parent / "only-quad"
    run_trial(config(raced.parent, ("quad_a",), budget=200, band=BandSpec()), beside,
              workers=1)
    row = verdict_table(beside, BandSpec()).row(0, named=True)
    assert "stored deck trial" in row["reference"] and str(raced) in row["reference"]
    assert row["band_lo"] is not None and row["edge_se"] > 0
    alone = tmp_path / "alone" / "t"
    alone.parent.mkdir()
    run_trial(config(tmp_path, ("quad_a",), budget=200, band=BandSpec()), alone, workers=1)
    row = verdict_table(alone, BandSpec()).row(0, named=True)
    assert row["verdict"] == UNDECIDED and "whole-deck reference" in row["reason"]
    # nothing could settle it, so only the first round was played
    assert len(read_trial(alone)["rounds"]) == 1


def test_a_subset_with_the_others_carried_is_judged_as_one_deck(raced: Path,
                                                               tmp_path: Path) -> None:
    """A proposal's joint round: quad_a played again alone, the deck's three other cards
    carried from the raced trial; with no stored deck trial beside it, the carried cards
    make the deck: the band is the four cards' average +/- 300, and quad_a is decided."""
    from pipeline.analytics.verdict import folder_evidence, joint_verdict_table

    others = ("plain_a", "plain_b", "quad_b")
    sub = tmp_path / "apart" / "quad-again"
    sub.parent.mkdir()
    run_trial(config(tmp_path, ("quad_a",), budget=800, band=BandSpec()), sub, workers=1,
              carried=folder_evidence(raced, others))
    joint = joint_verdict_table([(sub, ("quad_a",)), (raced, others)], BandSpec())
    assert sorted(joint["card"]) == sorted(CARDS)
    mean = joint["value"].mean()
    row = joint.filter(pl.col("card") == "quad_a").row(0, named=True)
    assert row["band_lo"] == pytest.approx(mean - 300) and row["edge_se"] > 0
    assert "from 2 trial(s)" in row["reference"] and row["verdict"] == ABOVE
    # the same trial without the carried cards has no deck to judge it against
    alone = tmp_path / "apart" / "alone"
    run_trial(config(tmp_path, ("quad_a",), budget=400, band=BandSpec()), alone, workers=1)
    assert verdict_table(alone, BandSpec())["verdict"][0] == UNDECIDED


def test_the_joint_round_plays_the_changed_cards_and_carries_the_others() -> None:
    """Only the changed card is played again; the others (decided or not) are carried, and
    judged again from their own data against the proposed deck's band."""
    from pipeline.analytics.proposal import Change
    from pipeline.report.propose import joint_cards

    def row(card: str, verdict: str = INSIDE) -> dict:
        return {"card": card, "verdict": verdict}

    before = [row("kasumi", ABOVE), row("far"), row("open", UNDECIDED), row("nelly", ABOVE)]
    change = Change("kasumi", "shown", "per", 3, 6, 3, 400.0, 300.0, 500.0, False)
    assert joint_cards(before, {"kasumi": change}) == ("kasumi",)
    assert joint_cards(before, {}) == ()


def test_json_rows_carry_the_verdict_and_the_band(raced: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(raced, copy)
    folder = raced.parent
    out = CliRunner().invoke(cli.app, [
        "trial", "--preset", str(folder / "cards-one.toml"), "--cards",
        str(folder / "test-cards.toml"), "--bots", "greedy", "--seed", "3", "--workers", "1",
        "--budget-hands", "700", "--band", "-100:100", "--out", str(copy), "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = {r["card"]: r for r in json.loads(out.stdout)["rows"]}
    assert rows["quad_a"]["verdict"] == "above"
    assert (rows["quad_a"]["band_lo"], rows["quad_a"]["band_hi"]) == (-100.0, 100.0)
    assert rows["plain_a"]["verdict"] == "undecided"


def test_bad_band_options_are_one_line(tmp_path: Path) -> None:
    for args, words in ((["--band", "5:1"], "LO must be below HI"),
                        (["--band", "x"], "not LO:HI"),
                        (["--zone", "-1"], "--zone")):
        out = CliRunner().invoke(cli.app, ["trial", *args, "--out", str(tmp_path / "t")])
        assert out.exit_code == 2 and words in out.output
        assert not (tmp_path / "t").exists()


def progress(card: str, blocks: int) -> CardProgress:
    return CardProgress(card, blocks, blocks * 4, blocks * 44, 0.0, -1.0, 1.0, 50)


def verdict(card: str, kind: str = UNDECIDED, settle: int | None = 100,
            band: float = 0.0) -> Verdict:
    return Verdict(card, kind, band, band + 600, 0.0, 0.0, 1.0, settle_hands=settle)


def test_plan_race_takes_the_undecided_closest_first_to_the_next_look_within_the_budget(
        ) -> None:
    cards = [progress("a", 2), progress("b", 4), progress("c", 8), progress("d", 2),
             progress("e", LOOK_GRID[-1])]
    verdicts = [verdict("a", settle=5000), verdict("b", settle=10), verdict("c", INSIDE),
                verdict("d", band=math.nan), verdict("e")]
    # c is decided, d has no band to be judged against, e reached the last look; the grid's
    # next looks: a 2 -> 3 blocks, b 4 -> 6
    assert plan_race(cards, verdicts, 1e9) == {"a": 1, "b": 2}
    # a block of a card costs 4 matches x 11 hands: b's step (88) fits, a's (44) after
    assert plan_race(cards, verdicts, 100) == {"b": 2}
    assert plan_race(cards, verdicts, 40) == {}
    assert FIRST_BLOCKS == LOOK_GRID[0] and REPLAYED_BLOCKS in LOOK_GRID


def test_the_ticker_speaks_every_five_seconds() -> None:
    now = [0.0]
    said: list[str] = []
    ticker = TrialTicker(said.append, clock=lambda: now[0])
    for _ in range(10):
        now[0] += 1.0
        ticker.match(10)
    assert len(said) == 2 and "100 hands" not in said[0] and "50 hands played" in said[0]
    ticker.round(TrialRound(0, {}, (), (verdict("a", ABOVE), verdict("b"))))
    now[0] += 6.0
    ticker.match(10)
    assert "round 2" in said[-1] and "1 of 2 cards decided" in said[-1]
    # another step of a longer command (a proposal's search) is not the last trial's round
    ticker.phase("playing")
    now[0] += 6.0
    ticker.match(10)
    assert said[-1].startswith("playing: 120 hands played") and "decided" not in said[-1]
    ticker.round(TrialRound(0, {}, (), (verdict("a", ABOVE), verdict("b"))))
    now[0] += 6.0
    ticker.match(10)
    assert said[-1].startswith("trial round 2:") and "1 of 2 cards decided" in said[-1]
