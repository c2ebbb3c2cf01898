"""The compiled waits (pipeline/rules/_waits.c) answer exactly as the pure-Python functions.

``pipeline.rules.agari.winning_types`` and ``tenpai_discards`` use the compiled waits when they
are built and current, so ``tests/rules/hand/test_agari.py`` (constructed hands, the `mahjong`
package) checks them as the engine sees them; here each is compared with the pure function it
stands in for on mixed samples of every size (wall hands, near-tenpai hands, one-suit hands, hands
with four of a kind), key order included, and the ways the build is refused (a stale build,
``SAKI_PURE_PYTHON``) and the input it leaves to the pure functions are checked. Comparisons
are skipped where it was not built (no C compiler at install time).
"""

from __future__ import annotations

import random

import pytest

from pipeline.rules import agari
from tests.support.shanten_hands import GENERATORS, h

needs_waits = pytest.mark.skipif(
    agari.WAITS is None, reason="the compiled waits are not built (no C compiler at install?) "
    f"or {agari.PURE_ENV} is set: the rules use the pure-Python functions")

WAIT_SIZES = (13, 10, 7, 4, 1)
DISCARD_SIZES = (14, 11, 8, 5, 2)


def hands(seed: int, count: int, sizes: tuple[int, ...]) -> list[list[int]]:
    rng = random.Random(seed)
    kinds = sorted(GENERATORS)
    out: list[list[int]] = []
    while len(out) < count:
        kind = kinds[len(out) % len(kinds)]
        counts = GENERATORS[kind](rng, rng.choice([n for n in sizes if kind != "quads" or n >= 5]))
        if max(counts) <= 4:
            out.append(counts)
    return out


@needs_waits
def test_winning_types_are_the_pure_ones() -> None:
    for counts in hands(1, 6000, WAIT_SIZES):
        assert agari.WAITS.winning_types(counts) == agari._pure_winning_types(counts), counts


@needs_waits
def test_tenpai_discards_are_the_pure_ones_in_the_same_order() -> None:
    tenpai = 0
    for counts in hands(2, 6000, DISCARD_SIZES):
        got, want = agari.WAITS.tenpai_discards(counts), agari._pure_tenpai_discards(counts)
        assert got == want, counts
        assert list(got) == list(want), counts  # callers iterate the dict
        tenpai += bool(want)
    assert tenpai > 1000  # the sample reaches many ready hands, not only the easy refusals


@needs_waits
@pytest.mark.parametrize(("hand", "waits"), [
    ("1122334455667z", "7z"),           # seven pairs: the single
    ("1122m3344p5555s7z", ""),          # four of a kind is not two pairs
    ("19m19p19s1234567z", "19m19p19s1234567z"),  # thirteen orphans, thirteen-sided
    ("19m19p19s1123456z", "7z"),        # thirteen orphans, the missing one
    ("1112345678999m", "123456789m"),   # nine gates
    ("1111m234p567s789s", ""),          # tanki on a suit type held four times
    ("123m456p789s1111z", ""),          # tanki on a type held four times: never a wait
])
def test_constructed_waits(hand: str, waits: str) -> None:
    counts = h(hand)
    want = frozenset(t for t, c in enumerate(h(waits) if waits else [0] * 34) if c)
    assert agari.WAITS.winning_types(counts) == want
    assert agari._pure_winning_types(counts) == want


@needs_waits
@pytest.mark.parametrize(("hand", "ready"), [
    ("1133m5577p99s11z34z", {"3z": "4z", "4z": "3z"}),  # seven pairs with four bad units
    ("159m19p19s1234567z", {"5m": "19m19p19s1234567z"}),  # thirteen orphans, many bad units
    ("1133m5577p99s1z345z", {}),        # five pairs, four bad units: no discard is ready
    ("147m258p369s12345z", {}),         # far from ready, every unit bad
    ("123m456p789s11z5z67s", {"5z": "58s"}),  # two bad units: the waits are worked out
])
def test_a_hand_far_from_ready_is_refused_at_once_unless_a_special_hand_may_be(
        hand: str, ready: dict[str, str]) -> None:
    """The compiled tenpai discards give up on a hand with three or more bad units at once
    (no single discard leaves a regular wait), but not while seven pairs (six pairs held) or
    thirteen orphans (thirteen terminal and honor tiles) may still be one discard away."""
    counts = h(hand)
    want = {t: frozenset(x for x, c in enumerate(h(waits)) if c)
            for discard, waits in ready.items() for t, c in enumerate(h(discard)) if c}
    assert agari.WAITS.tenpai_discards(counts) == want
    assert agari._pure_tenpai_discards(counts) == want


@needs_waits
def test_input_it_does_not_handle_goes_to_the_pure_functions() -> None:
    """Not 34 counts, a count over four, a size of the wrong kind: None from the compiled
    function, so the public one raises the pure function's error."""
    ready = h("123m456p789s1122z")
    assert agari.WAITS.winning_types(ready[:33]) is None
    assert agari.WAITS.winning_types([5] + ready[1:]) is None
    assert agari.WAITS.winning_types(h("123m456p789s112z")) is None   # 3k+2 tiles
    assert agari.WAITS.tenpai_discards(ready) is None                 # 3k+1 tiles
    with pytest.raises(ValueError, match="3k\\+1"):
        agari.winning_types(h("123m456p789s112z"))
    with pytest.raises(ValueError, match="3k\\+2"):
        agari.tenpai_discards(ready)


def test_stale_build_and_pure_setting_are_not_used(monkeypatch, tmp_path) -> None:
    """A build from another version of its source is ignored with a warning that says how to
    rebuild; SAKI_PURE_PYTHON turns it off."""
    monkeypatch.setenv(agari.PURE_ENV, "1")
    assert agari._load_waits() is None
    monkeypatch.setenv(agari.PURE_ENV, "0")
    if agari.WAITS is None:
        pytest.skip("the compiled waits are not built")
    assert agari._load_waits() is agari.WAITS
    edited = tmp_path / "_waits.c"
    edited.write_text(agari._WAITS_SOURCE.read_text() + "\n/* edited */\n")
    monkeypatch.setattr(agari, "_WAITS_SOURCE", edited)
    with pytest.warns(RuntimeWarning, match="install.sh"):
        assert agari._load_waits() is None
