"""Tuning sweeps (``saki tune``): the addresses and values a designer types, the paired step
difference and the band logic on constructed numbers, common random numbers across values,
and (slow) the proof that a parameter with a known large effect is measured with the right
sign."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.tune import deck_band, in_band, paired_difference, tune_table
from pipeline.cards.catalog import load_catalog
from pipeline.cards.writer import catalog_toml
from pipeline.rules.preset import load_preset
from pipeline.sim import SimError
from pipeline.sim.run import load_shards
from pipeline.sim.tune import (
    Lever,
    TuneConfig,
    levers_of,
    parse_address,
    read_tune,
    run_tune,
    sweep_values,
)

CATALOG = load_catalog("1.2")


# ------------------------------------------------------------------ addresses and values


def test_an_address_names_card_effect_and_parameter() -> None:
    card, eff, param = parse_address(CATALOG, "kasumi_iwato.shown.han")
    assert (card.id, eff.id, param) == ("kasumi_iwato", "shown", "han")
    card, eff, param = parse_address(CATALOG, "komaki_jindai")
    assert card.id == "komaki_jindai" and eff is None and param is None


@pytest.mark.parametrize("address, words", [
    ("kasumi_iwato.shwn.han", ["no effect 'shwn'", "shown.han = 1"]),
    ("kasumi_iwato.shown.hann", ["no parameter 'hann'", "shown.han = 1"]),
    ("kasumi.shown.han", ["no card 'kasumi'", "kasumi_iwato"]),
    ("kasumi_iwato.shown", ["CARD or CARD.EFFECT.PARAM"]),
])
def test_a_wrong_address_lists_what_the_card_has(address: str, words: list[str]) -> None:
    with pytest.raises(SimError) as info:
        parse_address(CATALOG, address)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_values_are_parsed_and_checked_like_catalog_values() -> None:
    card, eff, param = parse_address(CATALOG, "kasumi_iwato.shown.han")
    assert sweep_values(card, eff, param, "1,2", None) == (1, 2)
    assert sweep_values(card, eff, param, None, "0:4:2") == (0, 2, 4)
    with pytest.raises(SimError, match="integer from 0 to 13"):
        sweep_values(card, eff, param, "1,20", None)
    with pytest.raises(SimError, match="not a value"):
        sweep_values(card, eff, param, "one", None)
    with pytest.raises(SimError, match="given twice"):
        sweep_values(card, eff, param, "1,1", None)
    koromo, last, option = parse_address(CATALOG, "koromo_amae.last_tile.always_winning")
    # a reading is swept over its choices when no values are given
    assert sweep_values(koromo, last, option, None, None) == ("wildcard", "shapeless")


def test_levers_step_every_number_of_a_card_down_and_up() -> None:
    levers = {lv.address: lv for lv in levers_of(CATALOG.card("kana_ikeda"))}
    assert levers["kana_ikeda.last_place.han"].values == (1, 2, 3)
    amount = levers["kana_ikeda.inazuma.amount"]
    assert amount.values == (4000, 5000, 6000) and amount.current == 5000


def test_every_lever_and_search_value_of_the_deck_writes_a_catalog_that_loads(
        tmp_path: Path) -> None:
    # a value saki tune or saki propose plays is a catalog file of its own: the catalog's own
    # checks (a number the text does not show is refused) must accept every one of them
    from pipeline.analytics.proposal import axes_of
    from pipeline.cards.writer import with_card
    from pipeline.datafiles import show_value

    ryuuka = CATALOG.card("ryuuka_shimizudani")
    assert "{tsumo.turn}" not in ryuuka.text_template
    assert not any(lv.param == "turn" for lv in levers_of(ryuuka))  # left at its default
    checked = 0
    for card in CATALOG:
        values = {(lv.effect, lv.param): lv.values for lv in levers_of(card)}
        for axis in axes_of(card, 3):
            values.setdefault((axis.effect, axis.param), ())
            values[(axis.effect, axis.param)] += axis.values
        for (effect, param), vs in values.items():
            for v in vs:
                v = list(v) if isinstance(v, tuple) else v  # a catalog list, as a file has it
                changed = card.with_param(effect, param, v)
                path = tmp_path / f"{card.id}-{effect}-{param}-{checked}.toml"
                path.write_text(catalog_toml(with_card(CATALOG, changed, "1.2-lever")))
                loaded = load_catalog(str(path)).card(card.id).effect(effect).params[param]
                assert show_value(loaded) == show_value(v)
                checked += 1
    assert checked > 100


# ------------------------------------------------------------------ the arithmetic


def _sums(rows: list[tuple[int, float, float]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"match_id": pl.Int64, "s": pl.Float64, "n": pl.Float64},
                        orient="row")


def test_a_paired_difference_cancels_the_shared_luck() -> None:
    # B = A + 100 per hand in every match, whatever the match's luck: the difference is
    # exactly 100 and (the spread being all shared) its interval has no width
    a = _sums([(0, 1000.0, 10), (1, -5000.0, 10), (2, 3000.0, 10), (3, 200.0, 10)])
    b = a.with_columns(s=pl.col("s") + 100.0 * pl.col("n"))
    d = paired_difference(a, b)
    assert math.isclose(d["diff"], 100.0) and d["diff_se"] is None
    # independent noise: the same arithmetic as the two variances added
    noise = b.with_columns(s=pl.col("s") + pl.Series([300.0, -300.0, 300.0, -300.0]))
    d = paired_difference(a, noise)
    assert math.isclose(d["diff"], 100.0)
    assert d["diff_lo"] < 100.0 < d["diff_hi"]
    # u_i = (+/-300) / 40 in every match: var = 4/3 * 4 * 7.5^2
    assert math.isclose(d["diff_se"], math.sqrt(4 / 3 * 4 * (300 / 40) ** 2))


def test_a_value_is_in_the_band_only_with_its_whole_interval() -> None:
    band = {"lo": -300.0, "hi": 300.0, "mean": 0.0, "threshold": 300.0}
    assert in_band(-100.0, 200.0, band)
    assert not in_band(-100.0, 400.0, band)
    assert not in_band(None, None, band)


def test_the_band_is_the_decks_average_card_plus_or_minus_the_threshold(tmp_path: Path,
                                                                          monkeypatch) -> None:
    import pipeline.analytics.tune as tune

    table = pl.DataFrame({"card": ["a", "b", "c"], "value": [100.0, 300.0, None],
                          "value_se": [30.0, 40.0, None]})
    monkeypatch.setattr(tune, "trial_table", lambda out, cards=None: table)
    band = deck_band(tmp_path, threshold=250.0)
    # the mean of two values measured to 30 and 40 is known to sqrt(30^2 + 40^2) / 2 = 25
    assert band == {"mean": 200.0, "lo": -50.0, "hi": 450.0, "threshold": 250.0, "cards": 2.0,
                    "se": 25.0}


def test_the_suggested_value_is_where_the_curve_meets_the_decks_average() -> None:
    """Values 1, 2, 3 worth 0, 400, 800 (intervals +/-100) against a deck average of 200: the
    line between 1 and 2 meets it at 1.5, its bounds at 1.25 and 1.75."""
    from pipeline.analytics.tune import suggest

    table = pl.DataFrame({"address": ["k.e.p"] * 3, "param_value": ["1", "2", "3"],
                          "value": [0.0, 400.0, 800.0], "value_lo": [-100.0, 300.0, 700.0],
                          "value_hi": [100.0, 500.0, 900.0]})
    got = suggest(table, {"mean": 200.0, "lo": -100.0, "hi": 500.0})["k.e.p"]
    assert got == {"value": 1.5, "lo": 1.25, "hi": 1.75, "between": (1.0, 2.0)}
    assert suggest(table, {"mean": 2000.0, "lo": 1700.0, "hi": 2300.0}) == {}
    words = table.with_columns(param_value=pl.Series(["a", "b", "c"]))
    assert suggest(words, {"mean": 200.0, "lo": -100.0, "hi": 500.0}) == {}


# ------------------------------------------------------------------ playing a sweep


@pytest.fixture(scope="module")
def small_sweep(tmp_path_factory) -> Path:
    """Kasumi's han per shown tiles at 1 and 2 on East-only matches, one round each."""
    out = tmp_path_factory.mktemp("tune")
    preset = load_preset("cards-tonpuusen")
    lever = Lever("kasumi_iwato", "shown", "han", (1, 2), 1)
    config = TuneConfig(preset=preset, catalog=CATALOG, seed=3, card="kasumi_iwato",
                        levers=(lever,), target=1e9, budget_hands=1)
    run_tune(config, out, band=(-300.0, 300.0), workers=1)
    return out


def test_every_value_plays_the_same_matches(small_sweep: Path) -> None:
    # common random numbers: match i of each value is dealt alike, so the other seats' teams
    # and their first picks (made from the dealt tiles, before the holder can change a thing)
    # are the same for both values
    def first_picks(slug: str) -> pl.DataFrame:
        picks = load_shards(small_sweep / "values" / slug / "cards" / "kasumi_iwato", "picks")
        return (picks.filter((pl.col("hand_index") == 0)
                             & (pl.col("seat") != pl.col("match_id") % 4))
                .select("match_id", "seat", "team", "character").sort("match_id", "seat"))

    one, two = first_picks("current"), first_picks("shown.han=2")
    assert one.height == two.height >= 8 * 3
    assert one.equals(two)


def test_each_value_is_a_catalog_file_of_its_own(small_sweep: Path) -> None:
    doc = read_tune(small_sweep)
    assert [v["slug"] for v in doc["variants"]] == ["current", "shown.han=2"]
    two = load_catalog(str(small_sweep / "catalogs" / "shown.han=2.toml"))
    assert two.card("kasumi_iwato").effect("shown").params["han"] == 2
    assert "2 han per 3 such tiles" in two.card("kasumi_iwato").text
    assert catalog_toml(load_catalog(str(small_sweep / "catalogs" / "current.toml"))) == \
        catalog_toml(CATALOG)


def test_the_sweep_table_has_a_row_per_value_with_the_step(small_sweep: Path) -> None:
    doc = read_tune(small_sweep)
    band = {"lo": -300.0, "hi": 300.0, "mean": 0.0, "threshold": 300.0, "cards": 0.0}
    table = tune_table(small_sweep, doc, band).to_dicts()
    assert [r["param_value"] for r in table] == ["1", "2"]
    assert table[0]["current"] and not table[1]["current"]
    assert table[0]["next_diff"] == pytest.approx(table[1]["value"] - table[0]["value"])
    assert table[1]["next_diff"] is None


def test_saki_tune_json_and_page(small_sweep: Path, tmp_path: Path) -> None:
    # the same sweep again: every trial is reused, nothing is played
    page = tmp_path / "tune.html"
    result = CliRunner().invoke(cli.app, [
        "tune", "kasumi_iwato.shown.han", "--values", "1,2", "--preset", "cards-tonpuusen",
        "--seed", "3", "--target", "1e9", "--budget-hands", "1", "--band", "-300:300",
        "--out", str(small_sweep), "--workers", "1", "--format", "json", "--page", str(page)])
    assert result.exit_code == 0, result.output
    body = result.stdout[result.stdout.index("{"):]
    doc = json.loads(body)
    assert [r["param_value"] for r in doc["rows"]] == ["1", "2"]
    assert {"value", "value_lo", "value_hi", "in_band", "next_diff"} <= set(doc["rows"][0])
    assert "balance band" in doc["verdict"]
    assert doc["config"]["kind"] == "sweep" and doc["config"]["cards"] == ["kasumi_iwato"]
    assert doc["config"]["preset"] == "cards-tonpuusen" and doc["config"]["seed"] == 3
    html = page.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "2 han per 3 such tiles" in html
    assert "http://" not in html and "https://" not in html


def test_saki_tune_errors_are_one_line() -> None:
    result = CliRunner().invoke(cli.app, ["tune", "kasumi_iwato.shown.han", "--values", "99"])
    assert result.exit_code == 2 and "integer from 0 to 13" in result.output
    result = CliRunner().invoke(cli.app, ["tune", "kasumi_iwato.shown.han"])
    assert result.exit_code == 2 and "--values 1,2" in result.output


@pytest.mark.slow
def test_a_known_large_effect_is_measured_with_the_right_sign(tmp_path: Path) -> None:
    # Kasumi's han per three shown tiles, 1 and 2: twice the han on every such win is worth
    # more, and the paired step's interval excludes zero
    shutil.rmtree(tmp_path, ignore_errors=True)
    preset = load_preset("cards-hanchan")
    lever = Lever("kasumi_iwato", "shown", "han", (1, 2), 1)
    config = TuneConfig(preset=preset, catalog=CATALOG, seed=1, card="kasumi_iwato",
                        levers=(lever,), target=400.0, budget_hands=6000)
    run_tune(config, tmp_path, band=(-300.0, 300.0))
    band = {"lo": -300.0, "hi": 300.0, "mean": 0.0, "threshold": 300.0, "cards": 0.0}
    rows = tune_table(tmp_path, read_tune(tmp_path), band).to_dicts()
    assert rows[1]["value"] > rows[0]["value"]
    assert rows[0]["next_lo"] > 0


def test_a_tuning_page_records_the_sweep_and_band_it_shows(small_sweep: Path) -> None:
    # every output records the configuration it belongs to: the page's head names the sweep
    # (card, catalog content, preset, seed) and the band, and another sweep or band differs
    from pipeline.analytics.tune import tune_table
    from pipeline.report.tuning import sweep_config, tuning_html
    from pipeline.sim.tune import read_tune

    doc = read_tune(small_sweep)
    band = {"mean": 0.0, "lo": -300.0, "hi": 300.0, "threshold": 300.0, "cards": 53.0}
    table = tune_table(small_sweep, doc, band)
    digest, words = sweep_config(doc, band)
    html = tuning_html(table, band, doc, "Kasumi Iwato")
    assert f'<meta name="saki-config" content="{digest}">' in html
    assert "sweep of kasumi_iwato" in words and "cards-tonpuusen" in words
    assert "seed 3" in words and doc["catalog_hash"][:8] in words
    assert sweep_config({**doc, "seed": 4}, band)[0] != digest
    assert sweep_config(doc, {**band, "hi": 200.0})[0] != digest
