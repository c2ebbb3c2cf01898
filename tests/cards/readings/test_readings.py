"""Reading options: where a card text leaves a case open, the catalog names the reading played
(issue "Card readings"). Checked here: the options load and validate like other parameters,
render in the card text, are listed by ``saki cards readings``, agree with docs/readings.md,
and a run's report says which readings differ from the defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.cards.catalog import CatalogError, load_catalog
from pipeline.cards.readings import changed_readings, reading_rows, readings_markdown
from pipeline.datafiles import PROJECT_ROOT
from pipeline.report.build import _readings_played
from tests.support.catalog_drafts import draft_copy, edit

CATALOG = load_catalog("1.2")

# the readings the issue settles, with their faithful defaults
SETTLED = {
    ("koromo_amae", "last_tile", "always_winning"): "wildcard",
    ("saki_miyanaga", "rinshan", "always_winning"): "wildcard",
    ("tomoe_karijuku", "white", "always_winning"): "wildcard",
    ("teru_miyanaga", "honba", "honba"): "total",
    ("hitomi_ezaki", "deal_in", "stake"): "tsumo_share",
    ("toyone_anetai", "sticks", "table_points"): "sticks_and_stakes",
    ("kana_ikeda", "last_place", "counts"): "in_hand",
    ("himeko_tsuruta", "flip", "flip_back"): "after_extra_turn",
    ("takami_shibuya", "draw", "taken_tile_tsumo"): "allowed",
    ("yuuko_mase", "wrap", "switched_off"): "restriction_lifts",
    ("ryuuka_shimizudani", "pool", "declarations"): "any_combination",
}


def test_every_settled_reading_is_an_option_with_its_faithful_default() -> None:
    rows = {(r["card"], r["effect"], r["option"]): r for r in reading_rows(CATALOG)}
    for key, default in SETTLED.items():
        assert key in rows, key
        assert rows[key]["default"] == default == rows[key]["value"], key
        values = [c["value"] for c in rows[key]["choices"]]
        assert values[0] == default and len(values) >= 2
        assert all(c["meaning"] and c["why"] for c in rows[key]["choices"])
    assert changed_readings(CATALOG) == []


def test_the_shipped_catalog_renders_the_roster_texts_unchanged() -> None:
    # a default reading adds nothing to the text; another choice says what it plays
    koromo = CATALOG.card("koromo_amae")
    assert "Read as" not in koromo.text
    shapeless = koromo.with_param("last_tile", "always_winning", "shapeless")
    assert shapeless.text.startswith(koromo.text)
    assert "(Read as: the tile wins even when the hand is not ready.)" in shapeless.text


def test_a_reading_is_validated_like_any_parameter(tmp_path: Path) -> None:
    path = draft_copy(tmp_path)
    edit(path, 'id = "last_tile"\nkind = "last_tile_mastery"',
         'id = "last_tile"\nkind = "last_tile_mastery"\nalways_winning = "literal"')
    with pytest.raises(CatalogError, match=r"koromo_amae.*last_tile.*always_winning.*"
                                           r'one of "wildcard", "shapeless"'):
        load_catalog(path)
    with pytest.raises(CatalogError, match="expected one of"):
        CATALOG.card("teru_miyanaga").with_param("honba", "honba", "double")


def test_a_reading_for_other_effects_of_its_kind_is_refused(tmp_path: Path) -> None:
    # Hitomi's stake reading concerns her deal-in stake, not Kana's Inazuma riichi stake
    path = draft_copy(tmp_path)
    edit(path, 'when = "inazuma_riichi"', 'when = "inazuma_riichi"\nstake = "whole_value"')
    with pytest.raises(CatalogError, match=r"kana_ikeda.*inazuma.*'stake' is a reading only "
                                           r'for when = "deal_in_while_tenpai"'):
        load_catalog(path)


def test_a_changed_reading_loads_from_a_designers_copy(tmp_path: Path) -> None:
    path = draft_copy(tmp_path)
    edit(path, 'id = "honba"\nkind = "honba_by_han"',
         'id = "honba"\nkind = "honba_by_han"\nhonba = "per_payer"')
    changed = changed_readings(load_catalog(path))
    assert [(r["card"], r["option"], r["value"]) for r in changed] == [
        ("teru_miyanaga", "honba", "per_payer")]


def test_saki_cards_readings_json_lists_every_option() -> None:
    result = CliRunner().invoke(cli.app, ["cards", "readings", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {(r["card"], r["effect"], r["option"]) for r in rows} >= set(SETTLED)
    for r in rows:
        assert {"card", "effect", "option", "value", "choices"} <= set(r)
    table = CliRunner().invoke(cli.app, ["cards", "readings"])
    assert table.exit_code == 0 and "koromo_amae.last_tile.always_winning = wildcard" in \
        table.output
    bad = CliRunner().invoke(cli.app, ["cards", "readings", "--format", "xml"])
    assert bad.exit_code == 2 and "unknown format" in bad.output


def test_docs_readings_agrees_with_the_catalog() -> None:
    # docs/readings.md holds the generated list: regenerate it with
    # `python -m pipeline.cards.readings` after changing an option
    doc = (Path(PROJECT_ROOT) / "docs" / "readings.md").read_text(encoding="utf-8")
    assert readings_markdown(CATALOG) in doc


def test_the_report_names_the_readings_that_differ_from_the_defaults() -> None:
    cards = list(CATALOG)
    assert _readings_played(cards).startswith("the default")
    koromo = CATALOG.card("koromo_amae").with_param("last_tile", "always_winning", "shapeless")
    line = _readings_played([koromo, CATALOG.card("teru_miyanaga")])
    assert line.startswith("not the default: Koromo Amae: always_winning = shapeless")
    assert "Teru" not in line


def test_a_comparison_lists_the_readings_that_differ() -> None:
    # the comparison report's "Readings that differ": card, option, the two choices side by
    # side with their meanings
    from types import SimpleNamespace

    from pipeline.report.build import reading_diffs

    koromo = CATALOG.card("koromo_amae")
    shapeless = koromo.with_param("last_tile", "always_winning", "shapeless")
    inputs = SimpleNamespace(reference_cards={"koromo_amae": koromo, "teru_miyanaga":
                                              CATALOG.card("teru_miyanaga")},
                             cards={"koromo_amae": shapeless,
                                    "teru_miyanaga": CATALOG.card("teru_miyanaga")})
    (row,) = reading_diffs(inputs)
    assert row["what"] == "Koromo Amae: last_tile.always_winning"
    old = "".join(t for _, t in row["a"])
    new = "".join(t for _, t in row["b"])
    assert old.startswith("wildcard: ") and new.startswith("shapeless: ")
    assert ("del", "wildcard:") in row["a"] and ("ins", "shapeless:") in row["b"]
