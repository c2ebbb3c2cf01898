"""Tests for pipeline.rules.agari, with differential checks against the `mahjong` package.

Differences with the package, found by these checks:
- ``mahjong.agari.Agari.is_agari`` agrees with ``is_complete`` on every closed part tried
  (random 14-tile hands, hands complete by construction, every one-suit hand of 2-14 tiles).
- ``mahjong.shanten.Shanten.calculate_shanten(...) == 0`` agrees with ``is_tenpai`` as well:
  the package also treats a wait only on a type held four times as not tenpai (its regular
  shanten counts such a hand as 1-shanten, and its seven-pairs count cannot reach tenpai with
  four of a kind in 13 tiles). The karaten rows below pin that down on both sides.
- The package's shanten rejects tile counts divisible by 3 and above 14; ``winning_types`` and
  ``tenpai_discards`` raise ``ValueError`` on the wrong size, ``is_complete`` returns False.
"""

from __future__ import annotations

import random

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from pipeline.rules.agari import (
    count_terminal_honor_kinds,
    decompositions,
    is_complete,
    is_tenpai,
    tenpai_discards,
    winning_types,
)
from pipeline.tiles import NUM_TYPES, format_types, parse_types


def h(text: str) -> list[int]:
    counts = [0] * NUM_TYPES
    for t in parse_types(text):
        counts[t] += 1
    return counts


def waits(text: str) -> str:
    return format_types(sorted(winning_types(h(text))))


def text_of(counts: list[int]) -> str:
    return format_types(t for t in range(NUM_TYPES) for _ in range(counts[t]))


# --- is_complete -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand",
    [
        "123m456p789s11122z",
        "111222333m44455p",
        "11122233344455m",
        "11112345678999m",
        "123m123m123m123m55z",
        "19m19p19s1234567z1m",
        "19m19p19s12345677z",
        "1133557799m1155z",
        "11m22p33s44z55z66z77z",
        # closed parts after melds
        "55z",
        "123m44p",
        "111z22z",
        "234m678p55s",
        "123456789m11z",
        "33345m",
    ],
)
def test_complete(hand: str) -> None:
    assert is_complete(h(hand))
    assert Agari.is_agari(h(hand))


@pytest.mark.parametrize(
    "hand",
    [
        "123m456p789s11123z",
        "1111223344556m7m",
        # four of a kind is not two pairs
        "1111m223344p5566s",
        "11m11m22p33s44z55z66z",
        # kokushi needs every terminal and honor, with one pair
        "19m19p19s1234566z1m",
        "119m19p19s123456z9m",
        # seven pairs only with 14 tiles: four pairs of an 8-tile closed part are not complete
        "11335577m",
        # wrong sizes
        "123m",
        "123m456p789s1z",
        "123m456p789s111z",
        "",
        # honors cannot form sequences, suits do not wrap
        "123z456p789s11m123s",
        "891m123p456s789s11z",
        "1234m",
    ],
)
def test_not_complete(hand: str) -> None:
    assert not is_complete(h(hand))


def test_four_honors_never_complete() -> None:
    assert not is_complete(h("1111z234m567m789m1m"))


# --- winning_types ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s1122z", "12z"),  # shanpon
        ("123m456p789s23s11z", "14s"),  # ryanmen after a complete block
        ("123m456p789s1z", "1z"),  # tanki on an honor
        ("123m456p999s13s11z", "2s"),  # kanchan
        ("123m456p999s12s11z", "3s"),  # penchan
        ("123m456p999s89s11z", "7s"),  # penchan from the top
        ("123m456p789s5678s", "58s"),  # nobetan
        ("123m456p777z3456s", "36s"),
        ("123m456p111s3456s", "236s"),
        ("123m456p11z34567s", "258s"),  # sanmenchan
        ("123m456p777s5678s", "5689s"),
        ("123m456p77s34567s", "23568s"),
        ("1112345678999m", "123456789m"),  # nine gates
        ("2223444m123p456s", "12345m"),
        ("1122334455667z", "7z"),  # seven pairs
        ("19m19p19s1234567z", "19m19p19s1234567z"),  # kokushi 13-sided
        ("19m19p19s1234566z", "7z"),  # kokushi single wait
        ("119m19p19s123456z", "7z"),
        ("111123m456p78s99s", "69s"),  # four of a kind as a set plus a sequence
        # closed parts after melds
        ("5z", "5z"),
        ("2345m", "25m"),
        ("1122m", "12m"),
        ("1m456p", "1m"),
        ("13m678p22s", "2m"),
        ("3456m456p", "36m"),
        ("2345678m", "258m"),
    ],
)
def test_winning_types(hand: str, expected: str) -> None:
    assert waits(hand) == expected
    assert is_tenpai(h(hand))


@pytest.mark.parametrize(
    "hand",
    [
        # every wait is on a type held four times (karaten)
        "1111m234p567p789s",
        "5555m234p",
        "123m1111p",
        "1111m",
        "1111z234m567p789s",
        # six pairs where one is four of a kind: seven pairs needs distinct pairs
        "1111m22p33p44s55s6z",
        # plain noten
        "123m456p789s1234z",
        "19m19p19s123456z5m",
    ],
)
def test_not_tenpai(hand: str) -> None:
    assert winning_types(h(hand)) == frozenset()
    assert not is_tenpai(h(hand))


def test_karaten_type_excluded_but_other_waits_kept() -> None:
    # 1m, 2m and 3m would each complete the shape, but all their copies are in the hand
    counts = h("1111m2222m3333m4m")
    assert reference_waits(counts, allow_held_four=True) == frozenset(parse_types("12345m"))
    assert waits("1111m2222m3333m4m") == "45m"
    assert Shanten.calculate_shanten(counts) == 0


def test_karaten_package_agrees() -> None:
    for hand in ("1111m234p567p789s", "5555m234p", "123m1111p", "1111z234m567p789s"):
        assert Shanten.calculate_shanten(h(hand)) > 0


@pytest.mark.parametrize("hand", ["123m", "123m456p789s11z", "12m"])
def test_winning_types_wrong_size(hand: str) -> None:
    with pytest.raises(ValueError):
        winning_types(h(hand))


# --- tenpai_discards -------------------------------------------------------------------------


def discards(text: str) -> dict[str, str]:
    return {
        format_types([d]): format_types(sorted(w)) for d, w in tenpai_discards(h(text)).items()
    }


def test_tenpai_discards_fourteen() -> None:
    assert discards("123m456p789s23s117z") == {"7z": "14s"}
    assert discards("123m456p789s2345s7z") == {"2s": "7z", "5s": "7z", "7z": "25s"}
    assert discards("2345678m123p4456s") == {"2m": "47s", "5m": "47s", "8m": "47s", "4s": "258m"}


def test_tenpai_discards_complete_hand() -> None:
    got = discards("123m456p789s11122z")
    assert got["1z"] == "12z"
    assert got["2z"] == "2z"
    assert got["1m"] == "14m"
    assert got["9s"] == "69s"
    assert len(got) == 11


def test_tenpai_discards_kokushi_and_seven_pairs() -> None:
    assert discards("19m19p19s1234567z5m") == {"5m": "19m19p19s1234567z"}
    assert discards("1122334455667z5m") == {"5m": "7z", "7z": "5m"}
    # four of a kind cannot be kept as two pairs
    assert discards("1111m22p33p44s55s66z") == {}


def test_tenpai_discards_after_melds_and_noten() -> None:
    assert discards("34555m") == {"3m": "346m", "4m": "34m", "5m": "25m"}
    assert discards("23m55p8s") == {"8s": "14m"}
    assert discards("159m159p159s12357z") == {}
    with pytest.raises(ValueError):
        tenpai_discards(h("123m456p789s1z"))


# --- small helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("19m19p19s1234567z1m", 13),
        ("111m999p234s55z", 3),
        ("1199m2233445566p", 2),
        ("2345678m2345678p", 0),
        ("", 0),
    ],
)
def test_count_terminal_honor_kinds(hand: str, expected: int) -> None:
    assert count_terminal_honor_kinds(h(hand)) == expected


def test_decompositions() -> None:
    m = parse_types("123456789m")
    got = decompositions(h("11122233344455m"))
    assert (m[4], [("seq", m[0]), ("seq", m[0]), ("seq", m[0]), ("trip", m[3])]) in got
    assert (m[4], [("trip", m[0]), ("trip", m[1]), ("trip", m[2]), ("trip", m[3])]) in got
    assert (m[1], [("seq", m[1]), ("seq", m[2]), ("seq", m[2]), ("trip", m[0])]) in got
    assert len(got) == len({(p, tuple(s)) for p, s in got}) == 4
    assert decompositions(h("123m456p789s1z")) == []  # 3k+1 tiles
    assert decompositions(h("1122334455667z5m")) == []  # 14 tiles, no regular split
    assert decompositions(h("11223344556677z")) == []  # seven pairs only
    assert decompositions(h("55z")) == [(parse_types("5z")[0], [])]
    assert decompositions(h("123m")) == [(None, [("seq", 0)])]
    assert decompositions(h("111222333m")) == [
        (None, [("seq", 0), ("seq", 0), ("seq", 0)]),
        (None, [("trip", 0), ("trip", 1), ("trip", 2)]),
    ]


# --- generators and differential checks ------------------------------------------------------

_SEQ_STARTS = [s * 9 + i for s in range(3) for i in range(7)]


def random_hand(rng: random.Random, n: int) -> list[int]:
    counts = [0] * NUM_TYPES
    for tile in rng.sample(range(136), n):
        counts[tile // 4] += 1
    return counts


def regular_hand(
    rng: random.Random, sets: int = 4
) -> tuple[list[int], int, list[tuple[str, int]]]:
    """A regular complete closed part built set by set: (counts, pair type, sorted sets)."""
    one_suit = rng.random() < 0.3
    while True:
        counts = [0] * NUM_TYPES
        built: list[tuple[str, int]] = []
        for _ in range(sets):
            if rng.random() < 0.55:
                start = rng.randrange(7) if one_suit else rng.choice(_SEQ_STARTS)
                built.append(("seq", start))
                for k in range(3):
                    counts[start + k] += 1
            else:
                t = rng.randrange(9) if one_suit else rng.randrange(NUM_TYPES)
                built.append(("trip", t))
                counts[t] += 3
        pair = rng.randrange(9) if one_suit else rng.randrange(NUM_TYPES)
        counts[pair] += 2
        if max(counts) <= 4:
            return counts, pair, sorted(built)


def complete_hand(rng: random.Random, sets: int = 4) -> list[int]:
    """A complete closed part: with 4 sets, sometimes seven pairs or kokushi instead."""
    roll = rng.random()
    if sets == 4 and roll < 0.1:
        counts = [0] * NUM_TYPES
        for t in rng.sample(range(NUM_TYPES), 7):
            counts[t] = 2
        return counts
    if sets == 4 and roll < 0.15:
        counts = h("19m19p19s1234567z")
        counts[rng.choice([t for t in range(NUM_TYPES) if counts[t]])] += 1
        return counts
    return regular_hand(rng, sets)[0]


def hand_13(rng: random.Random) -> list[int]:
    """A 13-tile closed part: often one tile away from complete, sometimes fully random."""
    if rng.random() < 0.6:
        counts = complete_hand(rng)
        counts[rng.choice([t for t in range(NUM_TYPES) if counts[t]])] -= 1
        return counts
    if rng.random() < 0.5:
        counts = [0] * NUM_TYPES
        for tile in rng.sample(range(36), 13):  # one suit, many waits and four-copies cases
            counts[tile // 4] += 1
        return counts
    return random_hand(rng, 13)


def hand_14(rng: random.Random) -> list[int]:
    if rng.random() < 0.5:
        return complete_hand(rng)
    counts = hand_13(rng)
    counts[rng.choice([t for t in range(NUM_TYPES) if counts[t] < 4])] += 1
    return counts


def reference_waits(counts: list[int], allow_held_four: bool = False) -> frozenset[int]:
    """Waits found by trying each type with the package's complete-hand check."""
    found = set()
    for t in range(NUM_TYPES):
        if counts[t] < 4 or allow_held_four:
            counts[t] += 1
            if Agari.is_agari(counts):
                found.add(t)
            counts[t] -= 1
    return frozenset(found)


def check_complete(rng: random.Random, n: int) -> int:
    hits = 0
    for _ in range(n):
        counts = hand_14(rng)
        ours = is_complete(counts)
        assert ours == Agari.is_agari(counts), text_of(counts)
        hits += ours
    return hits


def check_tenpai(rng: random.Random, n: int) -> int:
    hits = 0
    for _ in range(n):
        counts = hand_13(rng)
        ours = is_tenpai(counts)
        assert ours == (Shanten.calculate_shanten(counts) == 0), text_of(counts)
        hits += ours
    return hits


def test_complete_matches_package() -> None:
    assert check_complete(random.Random(20240611), 4000) > 1500


def test_complete_by_construction() -> None:
    rng = random.Random(5)
    for sets in range(5):
        for _ in range(300):
            counts, pair, built = regular_hand(rng, sets)
            assert is_complete(counts), text_of(counts)
            assert Agari.is_agari(counts)
            found = decompositions(counts)
            assert (pair, built) in found, text_of(counts)
            for found_pair, found_sets in found:
                again = [0] * NUM_TYPES
                again[found_pair] += 2
                for kind, t in found_sets:
                    for k in (0, 1, 2):
                        again[t if kind == "trip" else t + k] += 1
                assert again == counts
    for _ in range(300):
        assert is_complete(complete_hand(rng))


def test_tenpai_matches_package() -> None:
    assert check_tenpai(random.Random(1234), 4000) > 1500


def test_winning_types_match_reference() -> None:
    rng = random.Random(99)
    for _ in range(1500):
        counts = hand_13(rng)
        assert winning_types(counts) == reference_waits(counts), text_of(counts)


def test_smaller_closed_parts_match_package() -> None:
    rng = random.Random(7)
    for size in (1, 4, 7, 10):
        for _ in range(500):
            if rng.random() < 0.6:
                counts = complete_hand(rng, size // 3)
                counts[rng.choice([t for t in range(NUM_TYPES) if counts[t]])] -= 1
            else:
                counts = random_hand(rng, size)
            assert is_tenpai(counts) == (Shanten.calculate_shanten(counts) == 0), text_of(counts)
            assert winning_types(counts) == reference_waits(counts), text_of(counts)
            counts[rng.choice([t for t in range(NUM_TYPES) if counts[t] < 4])] += 1
            assert is_complete(counts) == Agari.is_agari(counts), text_of(counts)


def test_tenpai_discards_match_brute_force() -> None:
    rng = random.Random(42)
    for _ in range(600):
        counts = hand_14(rng)
        expected = {}
        for d in range(NUM_TYPES):
            if counts[d]:
                counts[d] -= 1
                found = reference_waits(counts)
                counts[d] += 1
                if found:
                    expected[d] = found
        assert tenpai_discards(counts) == expected, text_of(counts)


@pytest.mark.slow
def test_package_agreement_many_hands() -> None:
    assert check_complete(random.Random(1), 100_000) > 0
    assert check_tenpai(random.Random(2), 100_000) > 0
