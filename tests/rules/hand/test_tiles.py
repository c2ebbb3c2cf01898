"""Tiles: ids and types, the mpsz text form, red fives, dora from indicators."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.tiles import (
    NUM_TILES,
    NUM_TYPES,
    RED_FIVE_IDS,
    TileParseError,
    counts34,
    dora_from_indicator,
    format_tiles,
    format_types,
    is_red,
    parse_tiles,
    parse_types,
    tile_to_str,
    type_to_str,
)

CANONICAL = [
    "1m",
    "123m456p789s1234567z",
    "0m",
    "05m",
    "0555m",
    "406p",
    "11112222333344m",
    "0s",
    "1z",
    "19m19p19s1234567z",
    "067m0p05s77z",
    "99m99p99s",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_mpsz_round_trip(text: str) -> None:
    assert format_tiles(parse_tiles(text)) == text


def test_empty_text_is_no_tiles() -> None:
    assert parse_tiles("") == []
    assert format_tiles([]) == ""


def test_non_canonical_text_formats_sorted_and_grouped() -> None:
    assert format_tiles(parse_tiles("3m1m2m")) == "123m"
    assert format_tiles(parse_tiles("1z1m")) == "1m1z"
    assert format_tiles(parse_tiles("50m")) == "05m"
    assert format_tiles(parse_tiles("1 2 3m")) == "123m"


def test_every_tile_id_prints_and_parses_as_its_type() -> None:
    for tile in range(NUM_TILES):
        text = tile_to_str(tile)
        assert parse_types(text) == [tile // 4]
        assert type_to_str(tile // 4) == tile_to_str(tile, red_fives=False)


@given(st.lists(st.integers(0, NUM_TILES - 1), unique=True, max_size=40))
def test_round_trip_of_any_set_of_physical_tiles(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    again = parse_tiles(text)
    assert sorted(t // 4 for t in again) == sorted(t // 4 for t in tiles)
    assert sum(map(is_red, again)) == sum(map(is_red, tiles))
    assert format_tiles(again) == text


def test_h01_red_fives_are_zero_and_one_per_suit() -> None:
    assert RED_FIVE_IDS == (16, 52, 88)
    assert [tile_to_str(t) for t in RED_FIVE_IDS] == ["0m", "0p", "0s"]
    assert parse_tiles("0m0p0s") == [16, 52, 88]
    assert [t // 4 for t in RED_FIVE_IDS] == parse_types("5m5p5s")
    assert sum(is_red(t) for t in range(NUM_TILES)) == 3


def test_plain_five_takes_a_non_red_copy_first() -> None:
    tiles = parse_tiles("555m")
    assert len(tiles) == 3 and not any(map(is_red, tiles))
    four = parse_tiles("5555m")
    assert sorted(four) == [16, 17, 18, 19] and format_tiles(four) == "0555m"


def test_red_five_reads_as_a_five_type() -> None:
    assert parse_types("0m0p0s") == parse_types("5m5p5s") == [4, 13, 22]


def test_red_five_prints_as_plain_five_without_red_fives() -> None:
    assert format_tiles([16, 17], red_fives=False) == "55m"
    assert tile_to_str(88, red_fives=False) == "5s"


def test_parse_skips_taken_tiles() -> None:
    first = parse_tiles("111m")
    second = parse_tiles("1m", taken=first)
    assert set(first).isdisjoint(second)
    with pytest.raises(TileParseError, match="too many copies"):
        parse_tiles("11m", taken=first)
    with pytest.raises(TileParseError, match="red five"):
        parse_tiles("0p", taken=[52])


def test_format_types() -> None:
    assert format_types([0, 1, 2, 27, 33]) == "123m17z"
    assert format_types([4, 4]) == "55m"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123", "no suit letter"),
        ("m", "no digits before it"),
        ("12x", "unknown suit letter"),
        ("8z", "honors are 1z-7z"),
        ("0z", "honors are 1z-7z|no red honor"),
        ("11111m", "too many copies"),
        ("00m", "too many copies of red five"),
        ("1M", "unknown suit letter"),
        ("1m-", "unknown suit letter"),
    ],
)
def test_bad_text_raises_tile_parse_error(text: str, message: str) -> None:
    with pytest.raises(TileParseError, match=message) as info:
        parse_tiles(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@given(st.text(alphabet="0123456789mpsz xq", max_size=20))
def test_parse_either_succeeds_or_raises_tile_parse_error(text: str) -> None:
    try:
        tiles = parse_tiles(text)
    except TileParseError:
        return
    assert len(set(tiles)) == len(tiles)
    assert all(0 <= t < NUM_TILES for t in tiles)


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("8m", "9m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("9s", "1s"),
        ("5s", "6s"),
        ("1z", "2z"),  # East -> South
        ("3z", "4z"),  # West -> North
        ("4z", "1z"),  # North -> East
        ("5z", "6z"),  # White -> Green
        ("6z", "7z"),  # Green -> Red
        ("7z", "5z"),  # Red -> White
    ],
)
def test_dora_from_indicator(indicator: str, dora: str) -> None:
    assert dora_from_indicator(parse_types(indicator)[0]) == parse_types(dora)[0]


def test_dora_stays_in_its_suit_or_group() -> None:
    for t in range(NUM_TYPES):
        d = dora_from_indicator(t)
        if t < 27:
            assert d // 9 == t // 9 and d % 9 == (t % 9 + 1) % 9
        elif t < 31:
            assert 27 <= d < 31
        else:
            assert 31 <= d < 34
    assert sorted(dora_from_indicator(t) for t in range(NUM_TYPES)) == list(range(NUM_TYPES))


def test_counts34() -> None:
    counts = counts34(parse_tiles("0555m19p77z"))
    assert len(counts) == NUM_TYPES
    assert counts[4] == 4 and counts[9] == 1 and counts[17] == 1 and counts[33] == 2
    assert sum(counts) == 8
    assert counts34([]) == [0] * NUM_TYPES
    assert counts34(range(NUM_TILES)) == [4] * NUM_TYPES
