"""Presets: shipped files load, every option is described and validated, errors are precise."""

from __future__ import annotations

import inspect
import json
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from pipeline.rules.preset import (
    OPTIONS,
    PRESET_DIR,
    CardRules,
    OptionSpec,
    Preset,
    PresetError,
    describe_options,
    list_presets,
    load_preset,
    preset_from_dict,
)
from pipeline.rules.scoring import ScoringRules

SHIPPED = [
    "cards-hanchan",
    "cards-sanma",
    "cards-tonpuusen",
    "club-hanchan",
    "online-hanchan",
    "online-tonpuusen",
    "riichienv",
    "riichienv-sanma",
    "sanma-hanchan",
    "sanma-tonpuusen",
    "single-hand",
    "tenhou-sanma",
    "tournament-2022",
]


def toml_value(value: Any) -> str:
    """A Python value written as TOML (enough for the option types presets use)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def write_preset(path: Path, options: dict[str, Any], extends: str | None = None) -> Path:
    """Write a preset file; keys "cards.x" go to the [cards] table."""
    lines = [f"extends = {json.dumps(extends)}"] if extends else []
    cards = []
    for key, value in options.items():
        if key.startswith("cards."):
            cards.append(f"{key.removeprefix('cards.')} = {toml_value(value)}")
        else:
            lines.append(f"{key} = {toml_value(value)}")
    if cards:
        lines += ["[cards]", *cards]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load_error(tmp_path: Path, options: dict[str, Any]) -> str:
    path = write_preset(tmp_path / "bad.toml", options)
    with pytest.raises(PresetError) as info:
        load_preset(str(path))
    message = str(info.value)
    assert str(path) in message
    assert "\n" not in message
    return message


# --- shipped presets -----------------------------------------------------------------------


def test_the_shipped_presets_are_listed() -> None:
    assert list_presets() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_preset_loads(name: str) -> None:
    preset = load_preset(name)
    assert preset.name == name
    assert preset.description
    assert preset == load_preset(str(PRESET_DIR / f"{name}.toml"))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_preset_files_explain_their_choices(name: str) -> None:
    text = (PRESET_DIR / f"{name}.toml").read_text(encoding="utf-8")
    assert text.startswith("#")
    assert any(rule in text for rule in ("H-", "M-", "K-", "C-"))


def test_online_presets_use_m08_defaults() -> None:
    # rule M-08, M-06
    hanchan, east = load_preset("online-hanchan"), load_preset("online-tonpuusen")
    for p in (hanchan, east):
        assert (p.start_points, p.return_points, p.uma, p.oka) == (
            25000, 30000, (15, 5, -5, -15), True
        )
        assert p.red_fives and p.kuitan and p.ippatsu and p.ura_dora and p.kan_dora
        assert p.double_ron and p.triple_ron_abort and p.tobi and p.agari_yame
        assert not p.double_yakuman and not p.kiriage and p.kazoe_limit == "yakuman"
        assert p.abortive_draws and p.nagashi_mangan and p.pao
        assert p.west_extension and p.target_points == 30000
        assert not p.cards.enabled
    assert hanchan.length == "hanchan"
    assert east.length == "tonpuusen"  # rule M-01


def test_single_hand_returns_deposits_on_a_draw() -> None:
    # rule H-12
    p = load_preset("single-hand")
    assert p.return_deposits_on_draw
    assert p.noten_payment == 3000


def test_single_hand_forbids_kan_after_riichi() -> None:
    # rule H-08
    p = load_preset("single-hand")
    assert p.kan_after_riichi == "none"
    assert (p.riichi_min_points, p.riichi_min_wall) == (1000, 4)


def test_single_hand_is_one_hand_from_25000_with_red_fives_and_head_bump() -> None:
    # rule H-01, H-11
    p = load_preset("single-hand")
    assert p.length == "single"
    assert p.start_points == 25000
    assert p.red_fives
    assert not p.double_ron


def test_club_hanchan_follows_k_rules() -> None:
    p = load_preset("club-hanchan")
    assert p.kan_after_riichi == "concealed-unchanged-wait"  # rule K-09
    assert p.kokushi_robs_concealed_kan  # rule K-06
    assert p.pao_rinshan  # rule K-06
    assert p.kan_dora_open_after_discard  # rule K-05
    assert p.west_extension and p.target_points == 30000  # rule K-13
    assert p.tobi and p.agari_yame  # rule K-13
    assert p.leftover_sticks_to_first  # rule K-14


@pytest.mark.parametrize("name", ["cards-hanchan", "cards-tonpuusen"])
def test_cards_presets_start_at_30000(name: str) -> None:
    # rule C-01
    p = load_preset(name)
    assert p.start_points == 30000
    assert p.return_points == 30000
    assert not p.oka
    assert p.cards.enabled
    assert p.cards.team_mode == "standard"
    assert p.cards.team_size == 4  # rule C-02


def test_cards_tonpuusen_excludes_exactly_the_two_cards() -> None:
    # rule C-10
    east = load_preset("cards-tonpuusen")
    assert east.length == "tonpuusen"
    assert sorted(east.cards.exclude) == ["kazue_nanpo", "yuuki_kataoka"]
    assert load_preset("cards-hanchan").cards.exclude == ()


# --- the option table ----------------------------------------------------------------------


def dataclass_defaults() -> dict[str, Any]:
    top = {f.name: getattr(Preset(), f.name) for f in fields(Preset)
           if f.name not in ("cards", "source")}  # the source names a file: not an option
    cards = {f"cards.{f.name}": getattr(CardRules(), f.name) for f in fields(CardRules)}
    return top | cards


def test_option_table_covers_exactly_the_dataclass_fields() -> None:
    assert list(OPTIONS) == list(dataclass_defaults())


@pytest.mark.parametrize("key", list(OPTIONS))
def test_option_has_default_type_and_description(key: str) -> None:
    spec = OPTIONS[key]
    assert spec.default == dataclass_defaults()[key]
    assert spec.type_name
    assert spec.meaning.strip()
    assert spec.allowed()
    if key not in ("name", "description"):
        assert spec.rules, f"{key} cites no rule id"


@pytest.mark.parametrize("cls", [Preset, CardRules])
def test_every_dataclass_field_has_a_comment(cls: type) -> None:
    source = inspect.getsource(cls)
    for f in fields(cls):
        line = next(ln for ln in source.splitlines() if ln.strip().startswith(f"{f.name}:"))
        assert "  # " in line, f"{cls.__name__}.{f.name} has no comment"


@pytest.mark.parametrize("key", list(OPTIONS))
def test_option_default_passes_validation(key: str) -> None:
    assert preset_from_dict(_nest({key: OPTIONS[key].default}), "defaults") == Preset()


def _nest(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in flat.items():
        if key.startswith("cards."):
            out.setdefault("cards", {})[key.removeprefix("cards.")] = value
        else:
            out[key] = value
    return out


def test_empty_dict_gives_the_defaults() -> None:
    assert preset_from_dict({}, "defaults") == Preset()


def test_describe_options_lists_every_option() -> None:
    rows = describe_options()
    assert [r["key"] for r in rows] == list(OPTIONS)
    uma = next(r for r in rows if r["key"] == "uma")
    assert uma["default"] == "[15, 5, -5, -15]"
    assert "M-07" in uma["rules"]
    assert all(set(r) == {"key", "type", "default", "allowed", "meaning", "rules"} for r in rows)


# --- validation, per option ----------------------------------------------------------------


def wrong_type_value(spec: OptionSpec) -> Any:
    return {
        "bool": 1,  # an integer is not a boolean
        "int": True,  # a boolean is not an integer
        "str": 7,
        "uma": "15-5",
        "ids": "kazue_nanpo",  # a string, not a list
    }[spec.kind]


def out_of_range_values(spec: OptionSpec) -> list[Any]:
    """Values of the right type that the option must refuse."""
    if spec.kind == "uma":
        return [[10, 5], [15, 5, -5, -10], [-15, -5, 5, 15], [200, 0, 0, -200]]
    if spec.kind == "ids":
        return [["Kazue Nanpo"], ["kazue_nanpo", "kazue_nanpo"], [3]]
    if spec.choices:
        return [5] if spec.kind == "int" else ["bogus", spec.choices[0].upper()]
    if spec.kind == "int":
        bad = [spec.min - 1, spec.max + (spec.step or 1)]
        if spec.step and spec.step > 1:
            bad.append(spec.min + 1)
        return bad
    if spec.pattern:
        return ["", "has space"] if "A-Z" in spec.pattern else ["", "v1"]
    return []


RESTRICTED = [k for k, s in OPTIONS.items() if out_of_range_values(s)]


def test_every_restricted_option_is_exercised() -> None:
    for key, spec in OPTIONS.items():
        restricted = spec.choices or spec.min is not None or spec.pattern or spec.kind in (
            "uma",
            "ids",
        )
        assert bool(restricted) == (key in RESTRICTED), key


@pytest.mark.parametrize("key", list(OPTIONS))
def test_wrong_type_is_rejected(tmp_path: Path, key: str) -> None:
    spec = OPTIONS[key]
    value = wrong_type_value(spec)
    message = load_error(tmp_path, {key: value})
    assert f"key '{key}'" in message
    assert f"got {json.dumps(value)}" in message
    assert spec.allowed() in message


@pytest.mark.parametrize(
    ("key", "value"),
    [(k, v) for k in RESTRICTED for v in out_of_range_values(OPTIONS[k])],
)
def test_out_of_range_is_rejected(tmp_path: Path, key: str, value: Any) -> None:
    message = load_error(tmp_path, {key: value})
    assert f"key '{key}'" in message
    assert f"got {json.dumps(value)}" in message
    assert OPTIONS[key].allowed() in message


def test_bool_is_not_an_int_and_int_is_not_a_bool(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"start_points": True})
    assert "key 'start_points'" in message and "got true" in message and "an integer" in message
    message = load_error(tmp_path, {"red_fives": 1})
    assert "key 'red_fives'" in message and "got 1" in message and "true or false" in message


def test_float_is_not_an_int(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"start_points": 25000.0})
    assert "got 25000.0" in message


def test_uma_message_says_what_is_allowed(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"uma": [10, 5]})
    assert message.endswith(
        "bad.toml: key 'uma': expected 4 integers from -100 to 100, first to fourth place (3 "
        "with three players), non-increasing, summing to 0, got [10, 5]"
    )


def test_choice_message_lists_the_choices(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"length": "south-only"})
    assert message.endswith(
        "key 'length': expected one of \"single\", \"tonpuusen\", \"hanchan\", "
        "got \"south-only\""
    )


@pytest.mark.parametrize("players", [4, 3])
def test_riichi_min_wall_is_accepted_exactly_where_the_offer_check_holds(
        tmp_path: Path, players: int) -> None:
    # rule K-02: a riichi needs a draw of one's own still to come, one live tile a player; the
    # random-play offer check (tests/rules/engine/test_invariants.py) asserts riichi_min_wall >=
    # players for every riichi offered, so a preset the validator accepts never breaks it
    base = {"players": 3, "uma": [15, 0, -15], "noten_payment": 2000} if players == 3 else {}
    for wall in range(0, 8):
        path = write_preset(tmp_path / f"w{wall}.toml", {**base, "riichi_min_wall": wall})
        if wall >= players:
            assert load_preset(str(path)).riichi_min_wall == wall
            continue
        with pytest.raises(PresetError, match=rf"key 'riichi_min_wall': .*got {wall}$"):
            load_preset(str(path))


def test_oka_off_needs_equal_start_and_return(tmp_path: Path) -> None:
    # rule M-07: the four results sum to 0
    message = load_error(tmp_path, {"oka": False, "start_points": 25000})
    assert "key 'oka'" in message and "start_points 25000" in message and "30000" in message
    ok = write_preset(tmp_path / "ok.toml", {"oka": False, "start_points": 30000})
    assert not load_preset(str(ok)).oka


# --- file-level errors ---------------------------------------------------------------------


def test_unknown_top_level_key(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"red_five": True})
    assert "unknown key 'red_five'" in message
    assert "did you mean 'red_fives'?" in message
    assert "allowed keys:" in message and "kan_after_riichi" in message


def test_unknown_cards_key(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"cards.team": 4})
    assert "unknown [cards] key 'team'" in message
    assert "team_size" in message and "exclude" in message


def test_cards_must_be_a_table(tmp_path: Path) -> None:
    message = load_error(tmp_path, {"cards": True})
    assert "key 'cards': expected a table, got true" in message


def test_malformed_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("start_points = = 3\n", encoding="utf-8")
    with pytest.raises(PresetError, match=r"broken\.toml: not valid TOML: .*line 1"):
        load_preset(str(path))


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(PresetError, match=r"nowhere\.toml: no such preset file"):
        load_preset(str(path))


def test_unknown_preset_name_lists_the_known_ones() -> None:
    with pytest.raises(PresetError) as info:
        load_preset("foo")
    assert str(info.value) == (f"unknown preset 'foo' (known: {', '.join(SHIPPED)}; or give a "
                               "path ending in .toml)")


def test_error_names_shipped_files_relative_to_the_project() -> None:
    with pytest.raises(PresetError,
                       match=r"^pipeline/data/presets/x\.toml: no such preset file$"):
        load_preset(str(PRESET_DIR / "x.toml"))


def test_own_presets_are_found_by_name_in_the_working_directory(tmp_path: Path,
                                                                  monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "presets").mkdir(parents=True)
    (tmp_path / "data" / "presets" / "house.toml").write_text(
        'extends = "online-hanchan"\nkiriage = true\n')
    assert "house" in list_presets()
    house = load_preset("house")
    assert house.name == "house" and house.kiriage


# --- extends -------------------------------------------------------------------------------


def test_extends_a_shipped_preset_by_name(tmp_path: Path) -> None:
    path = write_preset(tmp_path / "mine.toml", {"kuitan": False}, extends="club-hanchan")
    mine = load_preset(str(path))
    club = load_preset("club-hanchan")
    # name and description are not inherited; the name comes from the file
    assert mine == replace(club, name="mine", description="", kuitan=False)


def test_extends_merges_the_cards_table_key_by_key(tmp_path: Path) -> None:
    path = write_preset(
        tmp_path / "rapid.toml", {"cards.team_mode": "rapid", "cards.team_size": 2},
        extends="cards-tonpuusen",
    )
    cards = load_preset(str(path)).cards
    assert (cards.enabled, cards.team_mode, cards.team_size) == (True, "rapid", 2)
    assert cards.exclude == ("kazue_nanpo", "yuuki_kataoka")  # rule C-10


def test_extends_a_relative_path(tmp_path: Path) -> None:
    write_preset(tmp_path / "base.toml", {"start_points": 40000, "oka": False,
                                          "return_points": 40000})
    (tmp_path / "sub").mkdir()
    child = write_preset(tmp_path / "sub" / "child.toml", {"tobi": False}, extends="../base.toml")
    p = load_preset(str(child))
    assert (p.start_points, p.tobi) == (40000, False)


def test_preset_from_dict_resolves_extends() -> None:
    p = preset_from_dict({"extends": "online-hanchan", "length": "tonpuusen"}, "inline")
    assert p == replace(load_preset("online-tonpuusen"), name="custom", description="")


def test_extends_cycle_fails(tmp_path: Path) -> None:
    write_preset(tmp_path / "a.toml", {}, extends="b.toml")
    write_preset(tmp_path / "b.toml", {}, extends="a.toml")
    cycle = r"b\.toml: key 'extends': cycle .*a\.toml -> .*b\.toml -> .*a\.toml"
    with pytest.raises(PresetError, match=cycle):
        load_preset(str(tmp_path / "a.toml"))


def test_extends_itself_fails(tmp_path: Path) -> None:
    write_preset(tmp_path / "self.toml", {}, extends="self.toml")
    with pytest.raises(PresetError, match="cycle"):
        load_preset(str(tmp_path / "self.toml"))


@pytest.mark.parametrize("target", ["nonesuch", "missing.toml", 3])
def test_extends_an_unknown_preset_fails(tmp_path: Path, target: Any) -> None:
    path = tmp_path / "child.toml"
    path.write_text(f"extends = {toml_value(target)}\n", encoding="utf-8")
    with pytest.raises(PresetError) as info:
        load_preset(str(path))
    message = str(info.value)
    assert "child.toml: key 'extends'" in message and json.dumps(target) in message


def test_error_in_a_base_names_the_base_file(tmp_path: Path) -> None:
    write_preset(tmp_path / "base.toml", {"uma": [10, 5]})
    child = write_preset(tmp_path / "child.toml", {"uma": [20, 10, -10, -20]}, extends="base.toml")
    with pytest.raises(PresetError, match=r"base\.toml: key 'uma'"):
        load_preset(str(child))


# --- derived views -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_scoring_rules_mirror_the_fields(name: str) -> None:
    preset = load_preset(name)
    rules = preset.scoring_rules()
    assert isinstance(rules, ScoringRules)
    for f in fields(ScoringRules):
        assert getattr(rules, f.name) == getattr(preset, f.name), f.name


def test_scoring_rules_follow_a_changed_option() -> None:
    p = preset_from_dict({"kazoe_limit": "sanbaiman", "renhou": "mangan", "kiriage": True}, "x")
    assert p.scoring_rules() == ScoringRules(kazoe_limit="sanbaiman", renhou="mangan", kiriage=True)


@pytest.mark.parametrize("name", SHIPPED)
def test_to_dict_round_trips(name: str) -> None:
    preset = load_preset(name)
    data = preset.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {k for k in OPTIONS if not k.startswith("cards.")} | {"cards"}
    assert preset_from_dict(data, "round-trip") == preset
    assert preset_from_dict(json.loads(json.dumps(data)), "round-trip") == preset
