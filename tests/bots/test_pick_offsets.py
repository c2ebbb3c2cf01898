"""Pick estimates anchored on card trials (issue 15, item 3): offsets, their fit, their file."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from pipeline.analytics.pick_fit import fit_table, kind_summary, shrunk_offsets
from pipeline.bots.pick import choose, raw_value
from pipeline.bots.pick_offsets import (
    OFFSETS_FILE,
    PickOffsetsError,
    estimate_means,
    load_offsets,
    situations,
)
from pipeline.cards.catalog import load_catalog
from pipeline.rules.hooks import PickView
from pipeline.stats import spearman
from pipeline.tiles import parse_tiles

CATALOG = load_catalog("1.2")
EVEN = PickView(seat=1, dealer=0, scores=(30000,) * 4)
PINZU = parse_tiles("1234566789p23m5z")


def test_shrinkage_keeps_a_share_of_each_gap_by_its_noise() -> None:
    # gaps 0 and 200 with se 100 each: mean 100, spread 20,000, noise 10,000 -> tau^2 10,000,
    # each gap keeps half of its distance from the mean
    assert shrunk_offsets([0.0, 200.0], [100.0, 100.0]) == pytest.approx([50.0, 150.0])
    # gaps no wider than their noise: every card gets the mean gap
    assert shrunk_offsets([0.0, 200.0], [1000.0, 1000.0]) == pytest.approx([100.0, 100.0])
    # a degenerate card (no se: its value is an exact zero) keeps its whole gap
    assert shrunk_offsets([0.0, 200.0, -300.0], [None, 1000.0, 1000.0])[0] == 0.0


def test_fit_table_turns_estimates_into_trial_values() -> None:
    trial = pl.DataFrame({"card": ["a", "b"], "name": ["A", "B"], "value": [500.0, -100.0],
                          "value_se": [None, None], "half_width": [None, None]})
    table = fit_table(trial, {"a": 100.0, "b": 300.0}, {"a": ["extra_turn"], "b": ["duel"]})
    rows = {r["card"]: r for r in table.iter_rows(named=True)}
    assert rows["a"]["gap"] == 400.0 and rows["a"]["fitted"] == 500.0
    assert rows["b"]["offset"] == -400.0 and rows["b"]["fitted"] == -100.0
    kinds = {r["kind"]: r["gap"] for r in kind_summary(table).iter_rows(named=True)}
    assert kinds == {"extra_turn": 400.0, "duel": -400.0}


def test_an_offset_moves_the_pick_and_the_raw_estimate_stays_situational() -> None:
    options = ("hatsumi_usuzumi", "arata_sagimori")
    assert choose(PINZU, options, EVEN, offsets={}) == "arata_sagimori"
    gap = raw_value(CATALOG, "arata_sagimori", PINZU, EVEN) - raw_value(
        CATALOG, "hatsumi_usuzumi", PINZU, EVEN)
    planted = {"hatsumi_usuzumi": gap + 1.0}   # a measured level that outweighs the hand
    assert choose(PINZU, options, EVEN, offsets=planted) == "hatsumi_usuzumi"
    planted = {"hatsumi_usuzumi": gap - 1.0}
    assert choose(PINZU, options, EVEN, offsets=planted) == "arata_sagimori"


def test_situations_are_seeded_and_cover_seats_dealers_and_rounds() -> None:
    a, b = situations(200, seed=3), situations(200, seed=3)
    assert a == b
    assert {v.seat for _, v in a} == {0, 1, 2, 3} and {v.round_wind for _, v in a} == {0, 1}
    assert all(len(h) == (14 if v.seat == v.dealer else 13) for h, v in a)
    assert any(min(v.scores) < 8000 for _, v in a)   # a seat near zero (Kirame's floor)


def test_bad_offsets_file_names_the_entry(tmp_path: Path) -> None:
    bad = tmp_path / "offsets.toml"
    bad.write_text('[cards.kuro_matsumi]\noffset = "high"\n')
    with pytest.raises(PickOffsetsError, match=r"offsets.toml: \[cards.kuro_matsumi\]"):
        load_offsets(bad)
    bad.write_text("[cards\n")
    with pytest.raises(PickOffsetsError, match="unreadable"):
        load_offsets(bad)
    assert load_offsets(tmp_path / "absent.toml") == {}


def test_shipped_offsets_match_the_estimates_they_were_fitted_to() -> None:
    # the file records each card's estimate mean; if an estimate changed since, the offset
    # corrects the wrong level: regenerate with saki bots fit-picks (docs/trials.md)
    import tomllib

    doc = tomllib.loads(OFFSETS_FILE.read_text())
    cards = doc["cards"]
    assert set(cards) <= set(CATALOG.ids)
    assert len(cards) >= 50
    samples = int(doc["source"]["samples"])
    means = estimate_means(CATALOG, sorted(cards), samples)
    drifted = [c for c in cards if not math.isclose(means[c], cards[c]["estimate"],
                                                    abs_tol=0.1)]
    assert not drifted, f"pick estimates changed for {drifted}: regenerate the offsets"
    # the fitted estimates rank the cards as the trial did, far better than the raw ones
    fitted = [cards[c]["estimate"] + cards[c]["offset"] for c in cards]
    values = [cards[c]["value"] for c in cards]
    assert spearman(fitted, values) > spearman([cards[c]["estimate"] for c in cards], values)
    assert load_offsets() == {c: pytest.approx(e["offset"]) for c, e in cards.items()}
