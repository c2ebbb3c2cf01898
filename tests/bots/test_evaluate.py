"""Tests for pipeline.bots.evaluate (hand value) and pipeline.bots.danger (kabe), worked out by
hand from the rules the bots document."""

from __future__ import annotations

import pytest

from pipeline.bots.danger import tile_danger
from pipeline.bots.evaluate import estimate_han, value_types
from pipeline.tiles import NUM_TYPES, counts34, parse_tiles, parse_types


def test_closed_hand_han_counts_dora_red_fives_and_value_honors() -> None:
    tiles = parse_tiles("234m406p678s55z777z")
    dora = [parse_types("5p")[0]]  # indicator 4p
    values = value_types(0, 0)  # East seat, East round: the dragons and 1z
    # 1 dora (the red five is a 5p) + 1 red five + 1 closed + 1 (777z) + 0.4 (55z pair)
    assert estimate_han(counts34(tiles), (), tiles, dora, values, riichi=False) \
        == pytest.approx(4.4)
    assert estimate_han(counts34(tiles), (), tiles, dora, values, riichi=True) \
        == pytest.approx(4.4)  # closed already counts the riichi


def test_closed_all_simples_flush_han() -> None:
    tiles = parse_tiles("22334455667788m")
    values = value_types(1, 0)
    # 1 closed + 1 all simples + 2 closed flush, no dora
    assert estimate_han(counts34(tiles), (), tiles, [18], values, riichi=False) == 4.0


def test_kabe_caps_the_danger_of_a_walled_tile() -> None:
    """A two-sided wait on a tile needs its neighbour: with every such neighbour walled (all four
    copies visible) the danger is capped at 3%."""
    one_m, two_m, three_m, four_m, eight_m, nine_m = parse_types("123489m")
    visible = [0] * NUM_TYPES
    plain = tile_danger(three_m, set(), visible)
    assert plain > 0.03
    visible[four_m] = 4  # 3m still fits a 12m wait
    assert tile_danger(three_m, set(), visible) == plain
    visible[two_m] = 4  # and now neither 12m nor 45m can wait on 3m
    assert tile_danger(three_m, set(), visible) == pytest.approx(0.03)
    assert tile_danger(one_m, set(), visible) == pytest.approx(0.03)  # only 23m waits on 1m
    assert tile_danger(nine_m, set(), visible) > 0.03
    visible[eight_m] = 4  # only 78m waits on 9m
    assert tile_danger(nine_m, set(), visible) == pytest.approx(0.03)


def test_yaku_path_of_an_open_hand() -> None:
    """The yaku a call may count on: a value-honor set, tanyao or a flush with a few stray
    tiles to shed, and a value-honor pair only while a copy of it is left to get."""
    from pipeline.bots.evaluate import yaku_path
    from pipeline.rules.actions import Meld, MeldKind

    chi = (Meld(MeldKind.CHI, tuple(parse_tiles("234p")), parse_tiles("4p")[0]),)
    values = value_types(1, 0)  # South seat, East round: dragons, South, East

    def path(text: str, **options) -> bool:
        return yaku_path(counts34(parse_tiles(text)), chi, values, kuitan=True, **options)

    assert path("234m678p56s777z")                     # a red dragon set
    assert not path("123m678p56s9s77z")                # terminals, a pair that is no set yet
    unseen = [4] * NUM_TYPES
    unseen[parse_types("7z")[0]] = 1
    assert path("123m678p56s9s77z", unseen=unseen)     # one red dragon left to get
    unseen[parse_types("7z")[0]] = 0
    assert not path("123m678p56s9s77z", unseen=unseen)  # every other copy in sight
    assert not path("123m678p56s9s44z", unseen=[4] * NUM_TYPES)  # North: no value for South
    assert not path("234m678p6s19s55s")               # two stray terminals for tanyao
    assert path("234m678p6s19s55s", stray=2)
    assert path("1235679p199s", stray=3) and not path("1235679p199s", stray=2)  # flush
