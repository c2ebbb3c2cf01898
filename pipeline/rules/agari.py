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

import hashlib
import warnings
from collections.abc import Collection, Sequence
from functools import lru_cache, wraps
from operator import itemgetter
from pathlib import Path
from types import ModuleType

from pipeline._compiled import PURE_ENV, pure_python  # noqa: F401  (PURE_ENV: for tests)
from pipeline.tiles import HAND_MEMO, NUM_TYPES, TERMINAL_HONOR_TYPES, first_held

_KOKUSHI_TYPES = tuple(sorted(TERMINAL_HONOR_TYPES))
_kokushi_counts = itemgetter(*_KOKUSHI_TYPES)
_HONOR_TYPES = tuple(range(27, 34))

# Unit kinds: what a suit or an honor type can be split into.
_BAD = -1  # neither sets only nor sets plus one pair
_SETS = 0  # sets only (possibly empty)
_PAIR = 2  # one pair plus sets

_HONOR_KIND = (_SETS, _BAD, _PAIR, _SETS, _BAD)

Decomposition = tuple[int | None, list[tuple[str, int]]]


@lru_cache(maxsize=HAND_MEMO)
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


@lru_cache(maxsize=HAND_MEMO)
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


def _suits(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])


def _unit_kinds(counts: Sequence[int], suits: tuple[tuple[int, ...], ...]) -> list[int]:
    return [*map(_suit_kind, suits), *map(_honor_kind, counts[27:34])]


@lru_cache(maxsize=HAND_MEMO)
def _suit_waits(suit: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Positions (0-8) of the tiles that, added to 9 counts of one suit, leave sets only, and
    those that leave sets plus one pair; a position held four times is never one."""
    sets: list[int] = []
    pair: list[int] = []
    for i, c in enumerate(suit):
        if c < 4:
            kind = _suit_kind(suit[:i] + (c + 1,) + suit[i + 1:])
            if kind == _SETS:
                sets.append(i)
            elif kind == _PAIR:
                pair.append(i)
    return tuple(sets), tuple(pair)


def _regular_waits(counts: Sequence[int], suits: tuple[tuple[int, ...], ...],
                   kinds: list[int]) -> set[int]:
    """Types completing a regular hand of 3k+1 tiles, given its suits and unit kinds."""
    bad = [u for u, k in enumerate(kinds) if k == _BAD]
    if len(bad) > 1:
        return set()
    pairs = kinds.count(_PAIR)
    # With no bad unit, 3k+1 tiles force at least two pair units, and the winning tile must turn
    # one of them into sets.
    units = bad if bad else [u for u, k in enumerate(kinds) if k == _PAIR]
    waits: set[int] = set()
    for u in units:
        other_pairs = pairs - (kinds[u] == _PAIR)
        if other_pairs > 1:
            continue
        if u >= 3:
            t = u + 24
            want = _PAIR if other_pairs == 0 else _SETS
            if counts[t] < 4 and _honor_kind(counts[t] + 1) == want:
                waits.add(t)
            continue
        base = u * 9
        for i in _suit_waits(suits[u])[other_pairs == 0]:  # a loop: no generator (compiled)
            waits.add(base + i)
    return waits


def unit_pairs(counts: Sequence[int], skip: Collection[int] = ()) -> int | None:
    """How many units (each suit, each honor type outside ``skip``) hold sets and a pair; None
    when one of them is neither sets only nor sets and a pair. A caller that reads the honors
    in ``skip`` its own way weighs them itself."""
    pairs = 0
    for suit in _suits(counts):
        kind = _suit_kind(suit)
        if kind == _BAD:
            return None
        pairs += kind == _PAIR
    for t in _HONOR_TYPES:
        if t not in skip:
            kind = _honor_kind(counts[t])
            if kind == _BAD:
                return None
            pairs += kind == _PAIR
    return pairs


def _special_waits(counts: Sequence[int]) -> set[int]:
    """Waits of 13 closed tiles on seven pairs and thirteen orphans."""
    waits: set[int] = set()
    if max(counts) <= 2 and counts.count(1) == 1 and counts.count(2) == 6:
        waits.add(counts.index(1))
    if sum(_kokushi_counts(counts)) == 13:
        missing = [t for t in _KOKUSHI_TYPES if counts[t] == 0]
        if not missing and all(counts[t] == 1 for t in _KOKUSHI_TYPES):
            waits.update(_KOKUSHI_TYPES)
        elif len(missing) == 1 and max([counts[t] for t in _KOKUSHI_TYPES]) == 2:
            waits.add(missing[0])
    return waits


def regular_winning_types(counts: Sequence[int]) -> set[int]:
    """The types completing a closed part of 3k+1 tiles as sets and a pair (no seven pairs or
    thirteen orphans); a type held four times never."""
    suits = _suits(counts)
    return _regular_waits(counts, suits, _unit_kinds(counts, suits))


def winning_types(counts: Sequence[int]) -> frozenset[int]:
    """Every tile type that completes a closed part of 3k+1 tiles.

    Types of which the hand holds all four copies are never reported.
    """
    n = sum(counts)
    if n % 3 != 1:
        raise ValueError(f"winning_types needs 3k+1 tiles, got {n}")
    suits = _suits(counts)
    waits = _regular_waits(counts, suits, _unit_kinds(counts, suits))
    if n == 13:
        waits |= _special_waits(counts)
    return frozenset(waits)


def is_tenpai(counts: Sequence[int]) -> bool:
    """Whether a closed part of 3k+1 tiles has at least one possible winning type."""
    return bool(winning_types(counts))


@lru_cache(maxsize=HAND_MEMO)
def _suit_kinds_after(suit: tuple[int, ...]) -> tuple[int, ...]:
    """The unit kind of 9 counts of one suit once a tile of each type is taken out (``_BAD``
    where the suit holds none): a discard's effect on its suit, looked up once per suit."""
    return tuple([_suit_kind(suit[:i] + (c - 1,) + suit[i + 1:]) if c else _BAD
                 for i, c in enumerate(suit)])


def _near_special(counts: Sequence[int]) -> bool:
    """Whether 14 closed tiles may be one discard from seven pairs or thirteen orphans: six
    pairs, or thirteen orphan tiles, already held."""
    return (NUM_TYPES - counts.count(0) - counts.count(1) >= 6
            or sum(_kokushi_counts(counts)) >= 13)


def tenpai_discards(counts: Sequence[int]) -> dict[int, frozenset[int]]:
    """For a closed part of 3k+2 tiles: each discard type that leaves it tenpai, with its waits."""
    n = sum(counts)
    if n % 3 != 2:
        raise ValueError(f"tenpai_discards needs 3k+2 tiles, got {n}")
    # A discard changes one unit and the winning tile one more, so at most two units may be bad
    # for a regular wait; with two bad units the discard must come from one of them. Seven pairs
    # and thirteen orphans need six pairs or thirteen orphan tiles already. A discard changes
    # one unit: only that unit is looked up again. Most hands are far from tenpai: the bad
    # units are counted first, honors (one or four of a kind) before suits, and the hand is
    # left as soon as more than two are bad (hot path: asked on every turn of a closed hand).
    honors = counts[27:34]
    bad = honors.count(1) + honors.count(4)
    special = n == 14 and _near_special(counts)
    if bad > 2 and not special:
        return {}
    suits = _suits(counts)
    suit_kinds = [*map(_suit_kind, suits)]
    bad += suit_kinds.count(_BAD)
    if bad > 2 and not special:
        return {}
    kinds = [*suit_kinds, *map(_honor_kind, honors)]
    result: dict[int, frozenset[int]] = {}
    work = list(counts)
    for u, kind in enumerate(kinds):
        # Without a special hand, a discard that leaves two bad units has no regular wait.
        others_bad = bad - (kind == _BAD)
        if others_bad > 1 and not special:
            continue
        if u < 3:
            base = 9 * u
            suit = suits[u]
            options = [(base + i, k) for i, k in enumerate(_suit_kinds_after(suit)) if suit[i]]
        else:
            t = u + 24
            options = [(t, _honor_kind(counts[t] - 1))] if counts[t] else []
        for t, kind_after in options:
            if not special and others_bad + (kind_after == _BAD) > 1:
                continue
            work[t] -= 1
            after = list(kinds)
            after[u] = kind_after
            after_suits = suits
            if u < 3:
                after_suits = (*suits[:u], tuple(work[base:base + 9]), *suits[u + 1:])
            waits = _regular_waits(work, after_suits, after)
            if special:  # else no seven pairs or orphans wait (six pairs, 13 orphans needed)
                waits |= _special_waits(work)
            if waits:
                result[t] = frozenset(waits)
            work[t] += 1
    return result


def count_terminal_honor_kinds(counts: Sequence[int]) -> int:
    """Number of distinct terminal and honor types held (for the nine-terminals abort)."""
    return sum(1 for t in _KOKUSHI_TYPES if counts[t])


def _set_splits(counts: tuple[int, ...]) -> set[tuple[tuple[str, int], ...]]:
    first = first_held(counts)
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


# ---------------------------------------------------------------------------- compiled waits

_WAITS_SOURCE = Path(__file__).with_name("_waits.c")


def _load_waits() -> ModuleType | None:
    """The compiled waits (``pipeline/rules/_waits.c``, built by the install); None when it was
    not built, when the build is older than its source (a stale build is never trusted), or
    when ``SAKI_PURE_PYTHON`` asks for the pure functions. It answers exactly as the functions
    above (``tests/rules/engine/test_waits_kernel.py``), several times faster."""
    if pure_python():
        return None
    try:
        from pipeline.rules import _waits  # type: ignore[attr-defined]
    except ImportError:
        return None
    if _WAITS_SOURCE.exists():
        digest = hashlib.sha256(_WAITS_SOURCE.read_bytes()).hexdigest()[:16]
        if digest != _waits.SOURCE_HASH:
            warnings.warn(f"{_WAITS_SOURCE} changed since it was built, so the rules use the "
                          "slower pure-Python waits; rebuild it with ./install.sh",
                          RuntimeWarning, stacklevel=2)
            return None
    return _waits


# The pure functions keep these names whether or not the compiled waits load, so tests can
# always compare against them.
_pure_winning_types, _pure_tenpai_discards = winning_types, tenpai_discards
WAITS = _load_waits()
if WAITS is not None:
    _c_winning_types, _c_tenpai_discards = WAITS.winning_types, WAITS.tenpai_discards

    @wraps(_pure_winning_types)
    def winning_types(counts: Sequence[int]) -> frozenset[int]:
        found = _c_winning_types(counts)
        return _pure_winning_types(counts) if found is None else found

    @wraps(_pure_tenpai_discards)
    def tenpai_discards(counts: Sequence[int]) -> dict[int, frozenset[int]]:
        found = _c_tenpai_discards(counts)
        return _pure_tenpai_discards(counts) if found is None else found
