"""Complete-hand and tenpai checks on 34-count lists.

``counts`` is always a 34-long list of tile-type counts for the closed part of a hand (meld tiles
left out). A closed part of ``3k + 2`` tiles is complete when it splits into ``k`` sets and a pair;
with exactly 14 closed tiles, seven distinct pairs and thirteen orphans also count.

Waits follow Tenhou: a tile type of which the hand already holds all four copies is never a wait,
and a hand whose only waits are such types is not tenpai. Seven pairs need seven distinct types,
so four of a kind is not two pairs.

The regular check works per unit (each suit as a whole, each honor type alone): a unit must be
either sets only or sets plus the one pair of the hand. Suit results are cached on the suit's
9 counts, so repeated checks on similar hands are cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import itemgetter

from pipeline.tiles import NUM_TYPES, TERMINAL_HONOR_TYPES

_KOKUSHI_TYPES = tuple(sorted(TERMINAL_HONOR_TYPES))
_kokushi_counts = itemgetter(*_KOKUSHI_TYPES)
_HONOR_TYPES = tuple(range(27, 34))

# Unit kinds: what a suit or an honor type can be split into.
_BAD = -1  # neither sets only nor sets plus one pair
_SETS = 0  # sets only (possibly empty)
_PAIR = 2  # one pair plus sets

_HONOR_KIND = (_SETS, _BAD, _PAIR, _SETS, _BAD)

Decomposition = tuple[int | None, list[tuple[str, int]]]


@cache
def _suit_is_sets(suit: tuple[int, ...]) -> bool:
    """Whether 9 counts of one suit split into sets only."""
    for i in range(9):
        c = suit[i]
        if c == 0:
            continue
        if c >= 3 and _suit_is_sets(suit[:i] + (c - 3,) + suit[i + 1:]):
            return True
        if i <= 6 and suit[i + 1] and suit[i + 2]:
            return _suit_is_sets(
                suit[:i] + (c - 1, suit[i + 1] - 1, suit[i + 2] - 1) + suit[i + 3:]
            )
        return False
    return True


@cache
def _suit_kind(suit: tuple[int, ...]) -> int:
    """The unit kind of 9 counts of one suit."""
    rest = sum(suit) % 3
    if rest == 0:
        return _SETS if _suit_is_sets(suit) else _BAD
    if rest == 2:
        for i in range(9):
            if suit[i] >= 2 and _suit_is_sets(suit[:i] + (suit[i] - 2,) + suit[i + 1:]):
                return _PAIR
    return _BAD


def _honor_kind(c: int) -> int:
    return _HONOR_KIND[c] if c < 5 else _BAD


def _is_regular(counts: Sequence[int]) -> bool:
    pairs = 0
    for t in _HONOR_TYPES:
        kind = _honor_kind(counts[t])
        if kind == _BAD:
            return False
        pairs += kind == _PAIR
    if pairs > 1:
        return False
    for base in (0, 9, 18):
        kind = _suit_kind(tuple(counts[base:base + 9]))
        if kind == _BAD:
            return False
        pairs += kind == _PAIR
    return pairs == 1


def _is_seven_pairs(counts: Sequence[int]) -> bool:
    return all(c in (0, 2) for c in counts) and sum(counts) == 14


def _is_kokushi(counts: Sequence[int]) -> bool:
    if sum(counts) != 14:
        return False
    has_pair = False
    for t in _KOKUSHI_TYPES:
        c = counts[t]
        if c == 2 and not has_pair:
            has_pair = True
        elif c != 1:
            return False
    return has_pair


def is_complete(counts: Sequence[int]) -> bool:
    """Whether a closed part of 3k+2 tiles is a complete hand (regular, seven pairs, kokushi)."""
    n = sum(counts)
    if n % 3 != 2:
        return False
    if _is_regular(counts):
        return True
    return n == 14 and (_is_seven_pairs(counts) or _is_kokushi(counts))


def _unit_of(t: int) -> int:
    """Index of the unit holding type ``t``: 0-2 the suits, 3-9 the honor types."""
    return t // 9 if t < 27 else t - 24


def _unit_kinds(counts: Sequence[int]) -> list[int]:
    return [_suit_kind(tuple(counts[0:9])), _suit_kind(tuple(counts[9:18])),
            _suit_kind(tuple(counts[18:27])), *map(_honor_kind, counts[27:34])]


def _regular_waits(counts: Sequence[int]) -> set[int]:
    kinds = _unit_kinds(counts)
    bad = [u for u, k in enumerate(kinds) if k == _BAD]
    if len(bad) > 1:
        return set()
    pairs = sum(k == _PAIR for k in kinds)
    # With no bad unit, 3k+1 tiles force at least two pair units, and the winning tile must turn
    # one of them into sets.
    units = bad if bad else [u for u, k in enumerate(kinds) if k == _PAIR]
    waits: set[int] = set()
    work = list(counts)
    for u in units:
        other_pairs = pairs - (kinds[u] == _PAIR)
        if other_pairs > 1:
            continue
        want = _PAIR if other_pairs == 0 else _SETS
        if u >= 3:
            t = u + 24
            if counts[t] < 4 and _honor_kind(counts[t] + 1) == want:
                waits.add(t)
            continue
        base = u * 9
        for t in range(base, base + 9):
            if counts[t] >= 4:
                continue
            # A winning tile in a suit must touch a held tile of that suit (or make a pair).
            if not (counts[t] or (t > base and counts[t - 1]) or (t < base + 8 and counts[t + 1])
                    or (t > base + 1 and counts[t - 2]) or (t < base + 7 and counts[t + 2])):
                continue
            work[t] += 1
            if _suit_kind(tuple(work[base:base + 9])) == want:
                waits.add(t)
            work[t] -= 1
    return waits


def winning_types(counts: Sequence[int]) -> frozenset[int]:
    """Every tile type that completes a closed part of 3k+1 tiles.

    Types of which the hand holds all four copies are never reported.
    """
    n = sum(counts)
    if n % 3 != 1:
        raise ValueError(f"winning_types needs 3k+1 tiles, got {n}")
    waits = _regular_waits(counts)
    if n == 13:
        if max(counts) <= 2 and counts.count(1) == 1 and counts.count(2) == 6:
            waits.add(counts.index(1))
        if sum(_kokushi_counts(counts)) == 13:
            missing = [t for t in _KOKUSHI_TYPES if counts[t] == 0]
            if not missing and all(counts[t] == 1 for t in _KOKUSHI_TYPES):
                waits.update(_KOKUSHI_TYPES)
            elif len(missing) == 1 and max(counts[t] for t in _KOKUSHI_TYPES) == 2:
                waits.add(missing[0])
    return frozenset(waits)


def is_tenpai(counts: Sequence[int]) -> bool:
    """Whether a closed part of 3k+1 tiles has at least one possible winning type."""
    return bool(winning_types(counts))


def tenpai_discards(counts: Sequence[int]) -> dict[int, frozenset[int]]:
    """For a closed part of 3k+2 tiles: each discard type that leaves it tenpai, with its waits."""
    n = sum(counts)
    if n % 3 != 2:
        raise ValueError(f"tenpai_discards needs 3k+2 tiles, got {n}")
    # A discard changes one unit and the winning tile one more, so at most two units may be bad
    # for a regular wait; with two bad units the discard must come from one of them. Seven pairs
    # and thirteen orphans need six pairs or thirteen orphan tiles already.
    bad_units = [u for u, k in enumerate(_unit_kinds(counts)) if k == _BAD]
    special = n == 14 and (
        NUM_TYPES - counts.count(0) - counts.count(1) >= 6 or sum(_kokushi_counts(counts)) >= 13
    )
    if len(bad_units) > 2 and not special:
        return {}
    candidates: Sequence[int] = range(NUM_TYPES)
    if len(bad_units) == 2 and not special:
        candidates = [t for t in range(NUM_TYPES) if _unit_of(t) in bad_units]
    result: dict[int, frozenset[int]] = {}
    work = list(counts)
    for t in candidates:
        if not work[t]:
            continue
        work[t] -= 1
        # Without a special hand, a discard that leaves two bad units has no regular wait.
        if special or _bad_after(work, t, len(bad_units) - (_unit_of(t) in bad_units)) <= 1:
            waits = winning_types(work)
            if waits:
                result[t] = waits
        work[t] += 1
    return result


def _bad_after(counts: Sequence[int], t: int, other_bad: int) -> int:
    """Bad units of ``counts``, given the bad units other than the one holding ``t``."""
    if t >= 27:
        return other_bad + (_honor_kind(counts[t]) == _BAD)
    base = t - t % 9
    return other_bad + (_suit_kind(tuple(counts[base:base + 9])) == _BAD)


def count_terminal_honor_kinds(counts: Sequence[int]) -> int:
    """Number of distinct terminal and honor types held (for the nine-terminals abort)."""
    return sum(1 for t in _KOKUSHI_TYPES if counts[t])


def _set_splits(counts: tuple[int, ...]) -> set[tuple[tuple[str, int], ...]]:
    first = next((t for t in range(NUM_TYPES) if counts[t]), None)
    if first is None:
        return {()}
    found: set[tuple[tuple[str, int], ...]] = set()
    work = list(counts)
    if work[first] >= 3:
        work[first] -= 3
        for rest in _set_splits(tuple(work)):
            found.add(tuple(sorted((("trip", first), *rest))))
        work[first] += 3
    if first < 27 and first % 9 <= 6 and work[first + 1] and work[first + 2]:
        for k in range(3):
            work[first + k] -= 1
        for rest in _set_splits(tuple(work)):
            found.add(tuple(sorted((("seq", first), *rest))))
    return found


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every split of a regular closed part into a pair and sets.

    Sets are ``("seq", start_type)`` or ``("trip", type)``, sorted. A part of 3k+2 tiles gives
    ``(pair_type, sets)`` entries; a part of 3k tiles gives ``(None, sets)`` entries. An empty
    list means no regular split exists (seven pairs and kokushi are not listed here).
    """
    n = sum(counts)
    result: list[Decomposition] = []
    if n % 3 == 0:
        for sets in sorted(_set_splits(tuple(counts))):
            result.append((None, list(sets)))
    elif n % 3 == 2:
        for pair in range(NUM_TYPES):
            if counts[pair] < 2:
                continue
            work = list(counts)
            work[pair] -= 2
            for sets in sorted(_set_splits(tuple(work))):
                result.append((pair, list(sets)))
    return result
