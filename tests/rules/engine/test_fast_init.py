"""The values made at every step of play (events, actions, melds, the hooks' views, the
effects' contexts: frozen slotted values, extension types where compiled) take, keep and show
exactly their fields and stay frozen, as the dataclasses they were; a pond's entries and the
wall keep their fields by position and name; the walls' check of their ordering stays a check,
and their shuffle is the library's, draw for draw."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest

from pipeline.cards.effects import base as effects_base
from pipeline.rules import actions, hooks, records
from pipeline.rules.frozen import FrozenFields
from pipeline.rules.hand import DiscardInfo
from pipeline.rules.wall import Wall, WallError, shuffle
from pipeline.tiles import NUM_TILES, SANMA_TILES


def test_frozen_values_stay_frozen_and_compare_by_value() -> None:
    event = records.Event("discard", 1, 12, detail="tsumogiri", tsumogiri=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.tile = 13  # type: ignore[misc]
    assert event == records.Event("discard", 1, 12, (), "tsumogiri", None, "", None, None, True)
    assert hash(event) == hash(records.Event("discard", 1, 12, detail="tsumogiri", tsumogiri=True))
    assert repr(event) == "Event(kind='discard', seat=1, tile=12, tiles=(), detail='tsumogiri')"
    assert event.replace(tile=13).tile == 13


def test_a_wall_ordering_is_checked_every_time_it_is_used() -> None:
    order = list(range(NUM_TILES))
    random.Random(5).shuffle(order)
    assert Wall(tuple(order)).seats == Wall(tuple(order)).seats == 4
    assert Wall(tuple(SANMA_TILES)).seats == 3
    bad = (order[0], *order[:-1])  # a tile twice, one missing
    for _ in range(2):  # not remembered as a wall
        with pytest.raises(WallError):
            Wall(bad)
    assert Wall(order).seats == 4  # a list is checked too (and not kept)


def test_a_wall_starts_as_the_dataclass_did_and_compares_by_value() -> None:
    """Wall is a slotted class (an extension type compiled): its split of the order, its
    starting counters, equality field by field and a repr naming every field."""
    order = tuple(range(NUM_TILES))
    wall = Wall(order)
    assert wall.live[-1] == 52 and len(wall.live) == NUM_TILES - 52 - 14  # pop() draws next
    assert wall.rinshan == [125, 124, 123, 122] and wall.indicators == [126, 127, 128, 129, 130]
    assert wall.ura == [131, 132, 133, 134, 135]
    assert (wall.revealed, wall.drawn, wall.to_indicator, wall.extension) == (1, 0, False, None)
    assert wall.reserve == [] and wall.dead_end == []
    assert wall == Wall(order)
    wall.draw()
    assert wall != Wall(order)  # a draw changes it
    assert repr(Wall(order)).startswith("Wall(order=(0, 1, 2,")
    assert "to_indicator=False, extension=None)" in repr(Wall(order))
    with pytest.raises(AttributeError):
        wall.unknown = 1  # type: ignore[attr-defined]  # slots: no stray fields


@pytest.mark.parametrize("tiles", [list(range(NUM_TILES)), list(SANMA_TILES), [7], []],
                         ids=["four", "three", "one", "none"])
def test_the_walls_shuffle_is_randoms_shuffle(tiles: list[int]) -> None:
    for seed in range(20):
        ours, theirs = list(tiles), list(tiles)
        rng, ref = random.Random(seed), random.Random(seed)
        shuffle(rng, ours)
        ref.shuffle(theirs)
        assert ours == theirs
        assert rng.random() == ref.random()  # the stream is left where shuffle leaves it


def test_a_pond_entry_keeps_its_fields_by_position_and_by_name_and_compares_by_value() -> None:
    """DiscardInfo is a slotted class (an extension type compiled): its fields in order, the
    defaults, equality and repr as the dataclass it replaced gave them."""
    names = ("tile", "tsumogiri", "riichi", "called", "order", "face_down")
    values = [object() for _ in names]
    by_position = DiscardInfo(*values)
    by_name = DiscardInfo(**dict(zip(names, values, strict=True)))
    for name, value in zip(names, values, strict=True):
        assert getattr(by_position, name) is value and getattr(by_name, name) is value
    assert by_position == by_name
    plain = DiscardInfo(12, True, False)
    assert (plain.called, plain.order, plain.face_down) == (False, 0, False)
    assert plain == DiscardInfo(12, True, False) and plain != DiscardInfo(13, True, False)
    assert repr(plain) == ("DiscardInfo(tile=12, tsumogiri=True, riichi=False, called=False, "
                           "order=0, face_down=False)")
    plain.called = True  # a pond entry changes in place (a call, a swap, a face-down turn)
    assert plain.called
    with pytest.raises(TypeError):
        DiscardInfo(12)  # tsumogiri and riichi are required
    with pytest.raises(TypeError):
        hash(plain)  # compared by value, so not hashable


FROZEN_VALUES = tuple(cls for module in (effects_base, hooks, actions, records)
                      for cls in vars(module).values()
                      if isinstance(cls, type) and issubclass(cls, FrozenFields)
                      and cls is not FrozenFields and cls.__module__ == module.__name__)


def test_the_views_and_contexts_are_the_frozen_values() -> None:
    assert {c.__name__ for c in FROZEN_VALUES} >= {
        "TurnContext", "ClaimContext", "DiscardContext", "ScoringContext", "OwnTurnView",
        "DiscardView", "ClaimView", "DrawView", "WinTileView", "WinView", "CallView", "PickView",
        "Action", "Meld", "Event"}


@pytest.mark.parametrize("cls", FROZEN_VALUES, ids=lambda c: c.__name__)
def test_a_frozen_value_takes_keeps_and_shows_exactly_its_fields(cls: type) -> None:
    """The hooks' views and the contexts handed to the effects (slots, an extension type where
    compiled) take their fields by position (in the order of their slots) and by name, keep
    them, refuse to change, compare and hash by value and show every field, as the frozen
    dataclasses they replace did."""
    names = cls.__slots__
    values = [object() for _ in names]
    made = cls(*values)
    assert [getattr(made, n) for n in names] == values
    assert made == cls(**dict(zip(names, values, strict=True)))
    assert hash(made) == hash(cls(*values))
    assert made != cls(*values[:-1], object())
    for name in names:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, name, None)
    if cls.__repr__ is FrozenFields.__repr__:  # Event shows its first five (see its test)
        assert repr(made) == f"{cls.__name__}(" + ", ".join(
            f"{n}={v!r}" for n, v in zip(names, values, strict=True)) + ")"
    with pytest.raises(TypeError):
        cls(*values, object())  # no more arguments than fields


@pytest.mark.parametrize("cls", FROZEN_VALUES, ids=lambda c: c.__name__)
def test_a_frozen_value_left_out_fields_take_their_defaults(cls: type) -> None:
    """Its ``__init__`` names exactly its slots, the required first; a field left out takes
    its default. (Read from the signature, which only the pure-Python class shows: CI runs
    this file without the compiled modules too.)"""
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except ValueError:
        pytest.skip("an extension type shows no signature: checked with SAKI_PURE_PYTHON=1")
    assert [p.name for p in parameters] == list(cls.__slots__)
    required = [p for p in parameters if p.default is inspect.Parameter.empty]
    assert parameters[:len(required)] == required  # the required fields come first
    short = cls(*[object() for _ in required])
    for p in parameters[len(required):]:
        assert getattr(short, p.name) == p.default


def test_a_frozen_value_is_copied_with_some_fields_changed() -> None:
    view = hooks.DrawView(1, 40, ((), (), (), ()), 12, "rinshan", True)
    changed = view.replace(tile=13, ippatsu=False)
    assert (changed.tile, changed.ippatsu, view.tile, view.ippatsu) == (13, False, 12, True)
    assert changed.replace(tile=12, ippatsu=True) == view
    with pytest.raises(TypeError):
        view.replace(colour="red")


class _PlainValue(FrozenFields):
    """A value class of plain Python over the base as imported (compiled where built), as an
    edited card module's contexts run while their build is stale."""

    __slots__ = ("view", "table")

    def __init__(self, view: object, table: object) -> None:
        self.view = view
        self.table = table


def test_a_plain_python_value_over_the_compiled_base_sets_its_fields_once() -> None:
    value = _PlainValue(1, None)
    assert (value.view, value.table) == (1, None)
    assert value == _PlainValue(1, None) and value.replace(table=2) == _PlainValue(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.view = 2
    with pytest.raises(AttributeError, match="no attribute 'other'"):
        value.other = 3
