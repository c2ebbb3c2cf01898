"""Fast shanten and tile acceptance (ukeire) on 34-count lists.

``counts`` is a 34-long list of tile-type counts (each 0-4) for the closed part of a hand; with
``melds`` declared sets the closed part holds ``3k + 1`` or ``3k + 2`` tiles, ``k = 4 - melds``.
Shanten ``-1`` is a complete hand, ``0`` tenpai.

The results equal ``mahjong.shanten.Shanten.calculate_shanten`` (mahjong 2.x) on every hand,
quirks included:

- Regular shanten counts sets, partial sets and pairs with a cap of ``k`` set candidates beyond
  the pair. Tiles held four times are penalised the package's way: when no pair is formed and every
  isolated tile is of a type held four times (the honors count as one group for this), shanten is
  one higher, because no isolated tile can become the pair. Each honor held four times counts as a
  set plus an isolated tile, and the regular shanten is never below the number of such honors
  (one fewer for a ``3k + 2`` hand), except for a complete hand.
- The package searches suit decompositions with a fixed branch order that skips some splits (for
  example a single tile whose neighbour is also single is always taken into a run when the tile
  after them is held, unless the next one is a quad). The per-suit tables below reproduce that
  search exactly, so the totals match it and not a textbook optimum wherever the two differ.
- Seven pairs count a type held four times as one pair (and one kind); seven pairs and thirteen
  orphans are only tried on a closed hand (no melds).

Speed comes from per-suit tables: each suit's 9 counts map to the Pareto-optimal results of the
package's search inside that suit, as ``(sets, partial sets, pairs, isolated kind)`` rows. Every
suit of at most 14 tiles is precomputed in ``pipeline/data/bots/suit_table.bin`` (keyed by the
suit's base-5 code, see ``pipeline.bots.suit_table``), so a suit met for the first time costs one
look-up; without the file the search runs as needed, with the same results. Honors need no
search. A hand then combines a few rows per suit; that combination is memoised on the ids of the
suits' row sets, and a discard or a draw changes only the one suit (or the honors) it touches.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from array import array
from collections.abc import Iterable, Sequence
from functools import lru_cache, wraps
from operator import itemgetter
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from pipeline.bots.suit_table import NO_ENTRY, load_table, suit_code
from pipeline.tiles import NUM_TYPES, TERMINAL_HONOR_TYPES

if TYPE_CHECKING:
    from pipeline.rules.agents import Observation

__all__ = [
    "best_discards",
    "discard_lowering_draws",
    "discard_shanten",
    "lowering_draws",
    "near_lowering_draws",
    "shanten",
    "shanten_chiitoitsu",
    "shanten_kokushi",
    "shanten_regular",
    "ukeire",
    "visible_counts",
]

_orphans = itemgetter(*sorted(TERMINAL_HONOR_TYPES))  # the 13 counts thirteen orphans use
_ORPHAN_SET = frozenset(TERMINAL_HONOR_TYPES)
_NUM_SEATS = 4

# Isolated-tile kind of a suit row, as bit flags: 0 no isolated tile; _ISO_FOUR some isolated tiles,
# all of types held four times; _ISO_FREE at least one isolated tile of a type held fewer times.
# The flags of a whole hand are the OR of its parts; the four-copies penalty applies when the
# result is exactly _ISO_FOUR and there is no pair.
_ISO_FOUR = 1
_ISO_FREE = 2
# How bad each kind is for the hand (lower is better), for the Pareto filter.
_ISO_RANK = {_ISO_FREE: 0, 0: 1, _ISO_FOUR: 2}

Row = tuple[int, int, int, int]  # sets, partial sets, pairs, isolated kind


def _check_size(n: int, melds: int) -> None:
    if not 0 <= melds <= 4:
        raise ValueError(f"melds must be 0-4, got {melds}")
    k = 4 - melds
    if n not in (3 * k + 1, 3 * k + 2):
        raise ValueError(
            f"a closed part with {melds} melds holds {3 * k + 1} or {3 * k + 2} tiles, got {n}")


# ---------------------------------------------------------------------------- per-suit tables


@lru_cache(maxsize=1 << 18)
def _suit_rows(suit: tuple[int, ...]) -> tuple[Row, ...]:
    """Pareto-optimal results of the package's decomposition search within one suit."""
    tiles = list(suit)
    four = [c == 4 for c in suit]
    leaves: set[Row] = set()

    def run(d: int, m: int, t: int, p: int, iso: int) -> None:
        while d < 9 and not tiles[d]:
            d += 1
        if d >= 9:
            leaves.add((m, t, p, _ISO_FREE if iso & _ISO_FREE else iso))
            return
        c = tiles[d]
        if c == 4:
            tiles[d] = 1  # a set
            if d < 7 and tiles[d + 2]:
                if tiles[d + 1]:
                    _take_run(d)
                    run(d + 1, m + 2, t, p, iso)
                    _put_run(d)
                tiles[d] -= 1
                tiles[d + 2] -= 1
                run(d + 1, m + 1, t + 1, p, iso)
                tiles[d] += 1
                tiles[d + 2] += 1
            if d < 8 and tiles[d + 1]:
                tiles[d] -= 1
                tiles[d + 1] -= 1
                run(d + 1, m + 1, t + 1, p, iso)
                tiles[d] += 1
                tiles[d + 1] += 1
            tiles[d] = 0
            run(d + 1, m + 1, t, p, iso | _ISO_FOUR)
            tiles[d] = 2  # a pair
            if d < 7 and tiles[d + 2]:
                if tiles[d + 1]:
                    _take_run(d)
                    run(d, m + 1, t, p + 1, iso)
                    _put_run(d)
                tiles[d] -= 1
                tiles[d + 2] -= 1
                run(d + 1, m, t + 1, p + 1, iso)
                tiles[d] += 1
                tiles[d + 2] += 1
            if d < 8 and tiles[d + 1]:
                tiles[d] -= 1
                tiles[d + 1] -= 1
                run(d + 1, m, t + 1, p + 1, iso)
                tiles[d] += 1
                tiles[d + 1] += 1
            tiles[d] = 4
        elif c == 3:
            tiles[d] = 0
            run(d + 1, m + 1, t, p, iso)
            tiles[d] = 1  # a pair
            if d < 7 and tiles[d + 1] and tiles[d + 2]:
                _take_run(d)
                run(d + 1, m + 1, t, p + 1, iso)
                _put_run(d)
            else:
                if d < 7 and tiles[d + 2]:
                    tiles[d] -= 1
                    tiles[d + 2] -= 1
                    run(d + 1, m, t + 1, p + 1, iso)
                    tiles[d] += 1
                    tiles[d + 2] += 1
                if d < 8 and tiles[d + 1]:
                    tiles[d] -= 1
                    tiles[d + 1] -= 1
                    run(d + 1, m, t + 1, p + 1, iso)
                    tiles[d] += 1
                    tiles[d + 1] += 1
            tiles[d] = 3
            if d < 7 and tiles[d + 2] >= 2 and tiles[d + 1] >= 2:
                _take_run(d)
                _take_run(d)
                run(d, m + 2, t, p, iso)
                _put_run(d)
                _put_run(d)
        elif c == 2:
            tiles[d] = 0
            run(d + 1, m, t, p + 1, iso)
            tiles[d] = 2
            if d < 7 and tiles[d + 2] and tiles[d + 1]:
                _take_run(d)
                run(d, m + 1, t, p, iso)
                _put_run(d)
        elif c == 1:
            if d < 6 and tiles[d + 1] == 1 and tiles[d + 2] and tiles[d + 3] != 4:
                _take_run(d)
                run(d + 2, m + 1, t, p, iso)
                _put_run(d)
            else:
                tiles[d] = 0
                run(d + 1, m, t, p, iso | (_ISO_FOUR if four[d] else _ISO_FREE))
                tiles[d] = 1
                if d < 7 and tiles[d + 2]:
                    if tiles[d + 1]:
                        _take_run(d)
                        run(d + 1, m + 1, t, p, iso)
                        _put_run(d)
                    tiles[d] -= 1
                    tiles[d + 2] -= 1
                    run(d + 1, m, t + 1, p, iso)
                    tiles[d] += 1
                    tiles[d + 2] += 1
                if d < 8 and tiles[d + 1]:
                    tiles[d] -= 1
                    tiles[d + 1] -= 1
                    run(d + 1, m, t + 1, p, iso)
                    tiles[d] += 1
                    tiles[d + 1] += 1

    def _take_run(d: int) -> None:
        tiles[d] -= 1
        tiles[d + 1] -= 1
        tiles[d + 2] -= 1

    def _put_run(d: int) -> None:
        tiles[d] += 1
        tiles[d + 1] += 1
        tiles[d + 2] += 1

    run(0, 0, 0, 0, 0)
    return _pareto(leaves)


def _pareto(rows: set[Row]) -> tuple[Row, ...]:
    """Rows not dominated by another (more or equal of every count, no worse isolated kind).

    The hand's shanten never gets worse when a part has more sets, partial sets or pairs, or a
    better isolated kind, so dominated rows can never give the minimum.
    """
    ranked = sorted(rows, key=lambda r: (-r[0], -r[1], -r[2], _ISO_RANK[r[3]]))
    kept: list[Row] = []
    for r in ranked:
        m, t, p, i = r
        rank = _ISO_RANK[i]
        for km, kt, kp, ki in kept:
            if km >= m and kt >= t and kp >= p and _ISO_RANK[ki] <= rank:
                break
        else:
            kept.append(r)
    return tuple(kept)


# ---------------------------------------------------------------------------- shanten

# A hand's regular shanten depends only on the row sets of its three suits and on a summary of
# its honors and size. Both are interned as small ids (many suits share one row set), and the
# combined result is memoised on one int key that packs the four ids, ``_ID_BITS`` bits each:
# honors, then the three suits in order. Two suits merged into one row set act as one suit
# beside an empty one, so a new combination is worked out from a memoised merge of two of its
# suits. The tables only ever hold pure function results, so they never change an answer.
_ID_BITS = 20
_ID_MASK = (1 << _ID_BITS) - 1
_MAN_SHIFT, _PIN_SHIFT, _SOU_SHIFT, _HONOR_SHIFT = 2 * _ID_BITS, _ID_BITS, 0, 3 * _ID_BITS
_SHIFTS = (_MAN_SHIFT, _PIN_SHIFT, _SOU_SHIFT, _HONOR_SHIFT)  # where each part's id sits
_ROW_SETS: dict[tuple[Row, ...], int] = {}
_SUIT_BY_ID: list[tuple[Row, ...]] = []
_HONOR_PARTS: list[tuple[int, int, int, int]] = []
_HONOR_IDS: dict[tuple[int, int, int, int], int] = {}
_REGULAR: dict[int, int] = {}
_MERGED: dict[int, int] = {}  # two row-set ids, packed -> the id of their merged row set
_BY_PARTS: dict[int, int] = {}  # honors' part, two suits merged, third suit (ids) -> shanten
_SUIT_IDS: dict[tuple[int, ...], int] = {}  # a suit's 9 counts -> its row-set id
# per closed size (tiles): the 7 honor counts -> the id of their part
_HONOR_IDS_BY_SIZE: list[dict[tuple[int, ...], int]] = [{} for _ in range(16)]
_REGULAR_LIMIT = 1 << 19  # entries kept before a memo starts over
# (tiles, melds) pairs a closed part may have
_SIZES = frozenset([(3 * (4 - m) + r, m) for m in range(5) for r in (1, 2)])


def _capped(rows: tuple[Row, ...]) -> tuple[Row, ...]:
    """A suit's rows with the partial sets no hand can use cut off, so more suits share a row set.

    A hand of ``M`` sets has shanten ``8 - 2M - min(T, 4 - M)`` (plus the four-copies penalty)
    without a pair and ``8 - 2M - min(T + P, 5 - M)`` with one, ``T`` partial sets and ``P``
    pairs, so only ``T + P`` counts once a pair is there. A suit row with ``m`` sets never gains
    from more than ``4 - m`` partial sets without a pair, or ``5 - m`` partial sets and pairs
    with one: cutting it to that leaves every combination's shanten as it was (a closed part
    of at most 14 tiles has at most four sets, so the caps are never below zero). A row with a
    pair keeps one pair (the rest count as partial sets), and its isolated kind, which only
    matters for a hand without a pair, becomes the best one.
    """
    return _pareto({(m, min(t, 4 - m), 0, i) if not p else (m, min(t + p, 5 - m) - 1, 1, _ISO_FREE)
                    for m, t, p, i in rows})


def _intern(rows: tuple[Row, ...]) -> int:
    """The id of a row set (equal row sets share an id)."""
    found = _ROW_SETS.get(rows)
    if found is None:
        found = len(_SUIT_BY_ID)
        if found > _ID_MASK:  # a few thousand row sets occur; keys have room for 2**20
            raise OverflowError("too many row sets for the packed shanten keys")
        _ROW_SETS[rows] = found
        _SUIT_BY_ID.append(rows)
    return found


@lru_cache(maxsize=1 << 16)
def _block_id(suit: tuple[int, ...]) -> int:
    """The interned id of a suit's row set, partial sets capped."""
    return _intern(_capped(_suit_rows(suit)))


_EMPTY_ID = _block_id((0,) * 9)  # a suit with no tiles: the single row (0, 0, 0, 0)
_EMPTY_ROWS = _SUIT_BY_ID[_EMPTY_ID]


def _suit_id(suit: tuple[int, ...]) -> int:
    """The id of a suit's row set (partial sets capped): from the shipped table
    (``pipeline.bots.suit_table``), else from the search; memoised in ``_SUIT_IDS`` (hot callers
    look there first)."""
    found = _SUIT_IDS.get(suit)
    if found is not None:
        return found
    if len(_SUIT_IDS) >= _REGULAR_LIMIT:
        _SUIT_IDS.clear()
    ids, index = _TABLE if _TABLE is not None else _read_table()
    entry = NO_ENTRY
    if index and max(suit) <= 4:  # the table holds suits of 0-4 copies, at most 14 tiles
        code = 0
        for c in reversed(suit):
            code = code * 5 + c
        entry = index[code]
    found = _searched_id(suit) if entry == NO_ENTRY else ids[entry]
    _SUIT_IDS[suit] = found
    return found


# once read: the interned id of each row set of the shipped table, and the table's index
_TABLE: tuple[list[int], Sequence[int]] | None = None


def _read_table() -> tuple[list[int], Sequence[int]]:
    """Reads the shipped suit table once (empty when the file is absent: the search is used)."""
    global _TABLE
    loaded = load_table()
    _TABLE = ([], []) if loaded is None else ([_intern(rows) for rows in loaded[0]], loaded[1])
    return _TABLE


def suit_row_set(suit: tuple[int, ...]) -> tuple[Row, ...]:
    """A suit's row set (partial sets capped), worked out by the search (no table)."""
    return _SUIT_BY_ID[_searched_id(suit)]


def _searched_id(suit: tuple[int, ...]) -> int:
    """The id of a suit's row set, built from the blocks of the suit by the search.

    Held types with two or more empty types between them never meet in the package's search
    (it looks at most three types ahead, and only past held ones), so a suit splits into blocks
    whose results add up. A block is searched as a suit of its own, starting at the first type,
    or ending at the last type when it does in the suit (the search treats the end of the suit
    specially); so a block found in many suits is searched once.
    """
    found = _EMPTY_ID
    i = 0
    while i < 9:
        if not suit[i]:
            i += 1
            continue
        j = i  # the block's last held type
        while True:
            if j + 1 < 9 and suit[j + 1]:
                j += 1
            elif j + 2 < 9 and suit[j + 2]:
                j += 2
            else:
                break
        block = suit[i:j + 1]
        padding = (0,) * (9 - len(block))
        block_id = _block_id(padding + block if j == 8 else block + padding)
        found = block_id if found == _EMPTY_ID else _merged_id(found, block_id)
        i = j + 1
    return found


def _merged_id(a: int, b: int) -> int:
    """The id of the row set of two suits taken together (memoised)."""
    if a == _EMPTY_ID or b == _EMPTY_ID:
        return b if a == _EMPTY_ID else a
    key = a << _ID_BITS | b
    found = _MERGED.get(key)
    if found is None:
        if len(_MERGED) >= _REGULAR_LIMIT:
            _MERGED.clear()
        rows = {(ma + mb, ta + tb, pa + pb, _ISO_FREE if (ia | ib) & _ISO_FREE else ia | ib)
                for ma, ta, pa, ia in _SUIT_BY_ID[a] for mb, tb, pb, ib in _SUIT_BY_ID[b]}
        found = _MERGED[key] = _intern(_capped(tuple(rows)))
    return found


def _honor_id(honors: tuple[int, ...], n: int) -> int:
    """The interned id of what the 7 honor counts and the closed size ``n`` add to a hand:
    ``(sets, pairs, isolated kind, fours floor)``, sets counting the declared melds too;
    memoised in ``_HONOR_IDS_BY_SIZE[n]`` (hot callers look there first)."""
    table = _HONOR_IDS_BY_SIZE[n]
    found = table.get(honors)
    if found is not None:
        return found
    fours = honors.count(4)
    sets = (14 - n) // 3 + honors.count(3) + fours
    pairs = honors.count(2)
    iso = _ISO_FREE if 1 in honors else (_ISO_FOUR if fours else 0)
    if fours and n % 3 == 2:
        fours -= 1
    part = (sets, pairs, iso, fours)
    found = _HONOR_IDS.get(part)
    if found is None:
        found = _HONOR_IDS[part] = len(_HONOR_PARTS)
        _HONOR_PARTS.append(part)
    table[honors] = found
    return found


def _hand_key(counts: Sequence[int], n: int) -> int:
    """The packed part ids of a closed part of ``n`` tiles."""
    return (_honor_id(tuple(counts[27:34]), n) << _HONOR_SHIFT
            | _suit_id(tuple(counts[0:9])) << _MAN_SHIFT
            | _suit_id(tuple(counts[9:18])) << _PIN_SHIFT
            | _suit_id(tuple(counts[18:27])))


def _regular_of_key(key: int) -> int:
    """Regular shanten of a packed key, computed and memoised (callers try the memo first).

    The three suits play the same part, so their ids are put in ascending order, the first two
    merged into one row set (memoised), and the result memoised on the honors' part, that merged
    set and the third suit: many keys share it."""
    found = _REGULAR.get(key)
    if found is None:
        if len(_REGULAR) >= _REGULAR_LIMIT:
            _REGULAR.clear()
        a, b, c = sorted((key >> _MAN_SHIFT & _ID_MASK, key >> _PIN_SHIFT & _ID_MASK,
                          key & _ID_MASK))
        ab = _merged_id(a, b)
        part_key = ((key >> _HONOR_SHIFT) << _ID_BITS | ab) << _ID_BITS | c
        found = _BY_PARTS.get(part_key)
        if found is None:
            if len(_BY_PARTS) >= _REGULAR_LIMIT:
                _BY_PARTS.clear()
            found = _BY_PARTS[part_key] = _combine(_SUIT_BY_ID[ab], _EMPTY_ROWS, _SUIT_BY_ID[c],
                                                   _HONOR_PARTS[key >> _HONOR_SHIFT])
        _REGULAR[key] = found
    return found


def _regular(counts: Sequence[int], n: int) -> int:
    return _regular_of_key(_hand_key(counts, n))


def _combine(a: tuple[Row, ...], b: tuple[Row, ...], c3: tuple[Row, ...],
             honor_part: tuple[int, int, int, int]) -> int:
    """Regular shanten from the rows of the three suits and the honors' part."""
    sets, pairs, iso, fours = honor_part
    best = 8
    for ma, ta, pa, ia in a:
        ma += sets
        pa += pairs
        ia |= iso
        for mb, tb, pb, ib in b:
            mb += ma
            tb += ta
            pb += pa
            ib |= ia
            for m, t, p, i in c3:
                m += mb
                t += tb
                p += pb
                ret = 8 - 2 * m - t - p
                if p:
                    cand = m + t + p - 1
                else:
                    cand = m + t
                    if (i | ib) == _ISO_FOUR:
                        ret += 1
                if cand > 4:
                    ret += cand - 4
                if ret != -1 and ret < fours:
                    ret = fours
                if ret < best:
                    best = ret
                    if best == -1:
                        return -1
    return best


def shanten_regular(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten towards ``4 - melds`` sets and a pair from the closed part (-1: complete)."""
    n = sum(counts)
    _check_size(n, melds)
    return _regular(counts, n)


def shanten_chiitoitsu(counts: Sequence[int]) -> int:
    """Seven-pairs shanten of a 13- or 14-tile closed hand (a type held four times is one pair)."""
    kinds = NUM_TYPES - counts.count(0)
    pairs = kinds - counts.count(1)
    if pairs == 7:
        return -1
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def shanten_kokushi(counts: Sequence[int]) -> int:
    """Thirteen-orphans shanten of a 13- or 14-tile closed hand."""
    orphans = _orphans(counts)
    return orphans.count(0) - (1 if max(orphans) >= 2 else 0)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of a closed part: the least of regular, seven pairs and thirteen orphans.

    Seven pairs and thirteen orphans count only with no melds. Raises ``ValueError`` when the
    tile count does not fit ``melds``.
    """
    n = sum(counts)
    if (n, melds) not in _SIZES:
        _check_size(n, melds)
    # _hand_key, inline, with the memo tables tried first
    suit_ids = _SUIT_IDS
    man, pin, sou = tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])
    a = suit_ids.get(man)
    if a is None:
        a = _suit_id(man)
    b = suit_ids.get(pin)
    if b is None:
        b = _suit_id(pin)
    c = suit_ids.get(sou)
    if c is None:
        c = _suit_id(sou)
    honors = tuple(counts[27:34])
    h = _HONOR_IDS_BY_SIZE[n].get(honors)
    if h is None:
        h = _honor_id(honors, n)
    key = h << _HONOR_SHIFT | a << _MAN_SHIFT | b << _PIN_SHIFT | c
    best = _REGULAR.get(key)
    if best is None:
        best = _regular_of_key(key)
    if melds == 0 and best > -1:
        # shanten_chiitoitsu and shanten_kokushi, inline
        kinds = NUM_TYPES - counts.count(0)
        pairs = kinds - counts.count(1)
        if pairs == 7:
            return -1
        chiitoi = 6 - pairs + (7 - kinds if kinds < 7 else 0)
        orphans = _orphans(counts)
        kokushi = orphans.count(0) - (1 if max(orphans) >= 2 else 0)
        best = min(best, chiitoi, kokushi)
    return best


@lru_cache(maxsize=1 << 16)
def _suit_drops(suit: tuple[int, ...], part: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For a suit that is part ``part`` (0-2) of a hand: its held types (as hand types), and the
    id of the suit after letting one of each go, already shifted to the part's place in a key."""
    shift = _SHIFTS[part]
    held = [i for i, c in enumerate(suit) if c]
    if max(suit) > 4:  # no base-5 code
        ids = [_suit_id(suit[:i] + (suit[i] - 1,) + suit[i + 1:]) for i in held]
    else:
        code = suit_code(suit)
        ids = [_code_id(code - _POW5[i]) for i in held]
    return tuple([9 * part + i for i in held]), tuple([found << shift for found in ids])


_POW5 = tuple([5 ** i for i in range(9)])  # the weight of each type in a suit's base-5 code


def _code_id(code: int) -> int:
    """The id of the suit with this base-5 code: one look in the shipped table."""
    ids, index = _TABLE if _TABLE is not None else _read_table()
    if index:
        entry = index[code]
        if entry != NO_ENTRY:
            return ids[entry]
    return _suit_id(tuple([code // w % 5 for w in _POW5]))


@lru_cache(maxsize=1 << 12)
def _honor_drops(honors: tuple[int, ...], n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """As ``_suit_drops`` for the honors of a part of ``n`` tiles."""
    held = [i for i, c in enumerate(honors) if c]
    return (tuple([27 + i for i in held]),
            tuple([_honor_id(honors[:i] + (honors[i] - 1,) + honors[i + 1:], n - 1)
                  << _HONOR_SHIFT for i in held]))


def discard_shanten(counts: Sequence[int], melds: int = 0) -> dict[int, int]:
    """The shanten after each possible discard of a closed part of ``3k + 2`` tiles, as
    ``{type: shanten}`` for every held type (in type order).

    Equal to ``shanten(counts - t, melds)`` for each held ``t``, but a discard only changes the
    id of the one part (a suit or the honors) it comes from, so each discard costs one memo
    lookup.
    """
    n = sum(counts)
    if (n, melds) not in _SIZES or n % 3 != 2:
        _check_size(n - 1, melds)  # raises: a discard would not fit the melds
    suit_ids = _SUIT_IDS
    parts = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    ids = []
    for suit in parts:
        found = suit_ids.get(suit)
        ids.append(_suit_id(suit) if found is None else found)
    honors = tuple(counts[27:34])
    h = _HONOR_IDS_BY_SIZE[n - 1].get(honors)
    if h is None:
        h = _honor_id(honors, n - 1)
    after = h << _HONOR_SHIFT | ids[0] << _MAN_SHIFT | ids[1] << _PIN_SHIFT | ids[2]
    get = _REGULAR.get
    out: dict[int, int] = {}
    for (types, shifted), shift in ((_suit_drops(parts[0], 0), _MAN_SHIFT),
                                    (_suit_drops(parts[1], 1), _PIN_SHIFT),
                                    (_suit_drops(parts[2], 2), _SOU_SHIFT),
                                    (_honor_drops(honors, n), _HONOR_SHIFT)):
        blank = after & ~(_ID_MASK << shift)
        found = [get(blank | new) for new in shifted]
        if None in found:
            found = [_regular_of_key(blank | new) if value is None else value
                     for value, new in zip(found, shifted, strict=True)]
        out.update(zip(types, found, strict=True))
    if melds == 0:
        # seven pairs and thirteen orphans, from the whole hand's figures less the discard
        kinds = NUM_TYPES - counts.count(0)
        pairs = kinds - counts.count(1)
        orphans = _orphans(counts)
        orphan_missing = orphans.count(0)
        # a discard never adds a pair, a kind or an orphan: neither shanten gets below these
        floor = min(-1 if pairs >= 7 else 6 - pairs + max(0, 7 - kinds),
                    orphan_missing - (1 if max(orphans) >= 2 else 0))
        if floor >= max(out.values()):
            return out
        orphan_pairs = sum(1 for c in orphans if c >= 2)
        for t, best in out.items():
            if best == -1:
                continue
            c = counts[t]
            p = pairs - (c == 2)
            chiitoi = -1 if p == 7 else 6 - p + max(0, 7 - kinds + (c == 1))
            if t in _ORPHAN_SET:
                kokushi = (orphan_missing + (c == 1)
                           - (1 if orphan_pairs - (c == 2) > 0 else 0))
            else:
                kokushi = orphan_missing - (1 if orphan_pairs else 0)
            out[t] = min(best, chiitoi, kokushi)
    return out


# ---------------------------------------------------------------------------- acceptance


def _seen(counts: Sequence[int], visible: Sequence[int] | None) -> Sequence[int]:
    if visible is None:
        return counts
    if len(visible) != NUM_TYPES:
        raise ValueError(f"visible must hold {NUM_TYPES} counts, got {len(visible)}")
    for t in range(NUM_TYPES):
        if not counts[t] <= visible[t] <= 4:
            raise ValueError(
                f"visible[{t}] = {visible[t]} must be 0-4 and include the "
                f"{counts[t]} held in hand")
    return visible


@lru_cache(maxsize=1 << 16)
def _suit_near(suit: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...], int]:
    """The suit's id; ``(index, id after drawing it)`` for each of its types held fewer than
    four times and within two steps of a held tile of the suit; and its ``_part_code``."""
    code = _part_code(suit)
    if max(suit) > 4:  # no base-5 code
        near = tuple([(i, _suit_id(suit[:i] + (c + 1,) + suit[i + 1:]))
                     for i, c in enumerate(suit) if c < 4 and any(suit[max(0, i - 2):i + 3])])
    else:
        near = tuple([(i, _code_id(code + _POW5[i])) for i, c in enumerate(suit)
                     if c < 4 and any(suit[max(0, i - 2):i + 3])])
    return _suit_id(suit), near, code


@lru_cache(maxsize=1 << 12)
def _honor_near(honors: tuple[int, ...], n: int
                ) -> tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...], int]:
    """For honors in a part of ``n`` tiles: their id; their id once a tile of another type
    joins; ``(index, id after drawing it)`` for each type held one to three times; the id
    after drawing each of the 7 types (-1 where four are held); and their ``_part_code``."""
    drawn = tuple([_honor_id(honors[:i] + (c + 1,) + honors[i + 1:], n + 1) if c < 4 else -1
                  for i, c in enumerate(honors)])
    held = tuple([(i, drawn[i]) for i, c in enumerate(honors) if 0 < c < 4])
    return _honor_id(honors, n), _honor_id(honors, n + 1), held, drawn, _part_code(honors)


def _specials_after(counts: Sequence[int], base: int
                    ) -> tuple[int, int, int, int] | None:
    """What the seven pairs and thirteen orphans shanten after a draw depend on (kinds, pairs,
    missing orphan kinds, orphan pair), or None when no draw can take either below ``base``."""
    kinds = NUM_TYPES - counts.count(0)
    pairs = kinds - counts.count(1)
    orphans = _orphans(counts)
    orphan_missing = orphans.count(0)
    orphan_pair = 1 if max(orphans) >= 2 else 0
    chiitoi_floor = -1 if pairs >= 6 else 5 - pairs + max(0, 6 - kinds)
    if chiitoi_floor < base or orphan_missing - 1 - orphan_pair < base:
        return kinds, pairs, orphan_missing, orphan_pair
    return None


def _special_lowers(specials: tuple[int, int, int, int], t: int, c: int, base: int) -> bool:
    """Whether drawing type ``t`` (held ``c`` times) takes seven pairs or thirteen orphans below
    ``base``."""
    kinds, pairs, orphan_missing, orphan_pair = specials
    new_pairs = pairs + (c == 1)
    chiitoi = -1 if new_pairs == 7 else 6 - new_pairs + max(0, 7 - kinds - (c == 0))
    if t in _ORPHAN_SET:
        kokushi = orphan_missing - (c == 0) - (orphan_pair or c == 1)
    else:
        kokushi = orphan_missing - orphan_pair
    return chiitoi < base or kokushi < base


def lowering_draws(counts: Sequence[int], melds: int, base: int, types: Iterable[int]
                   ) -> list[int]:
    """The types among ``types`` (in their order) whose draw takes the shanten of this closed
    part below ``base``; types held four times are skipped.

    Equal to testing ``shanten(counts + t, melds) < base`` for each type, but a draw only
    changes the id of the one part (a suit or the honors) it falls in.
    """
    n = sum(counts)
    parts = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    honor_drawn = _honor_near(tuple(counts[27:34]), n)[3]
    key = _hand_key(counts, n + 1)
    # the hand's key with the id of each part (suits, then honors) cleared
    blank = tuple([key & ~(_ID_MASK << shift) for shift in _SHIFTS])
    specials = _specials_after(counts, base) if melds == 0 else None
    out: list[int] = []
    for t in types:
        c = counts[t]
        if c >= 4:
            continue
        if specials is not None and _special_lowers(specials, t, c, base):
            out.append(t)
            continue
        part = t // 9  # 3 for the honors
        if part == 3:
            new = honor_drawn[t - 27]
        else:
            suit = parts[part]
            i = t - 9 * part
            new = _suit_id(suit[:i] + (c + 1,) + suit[i + 1:])
        key = blank[part] | new << _SHIFTS[part]
        regular = _REGULAR.get(key)
        if regular is None:
            regular = _regular_of_key(key)
        if regular < base:
            out.append(t)
    return out


def near_lowering_draws(counts: Sequence[int], melds: int = 0) -> list[int]:
    """The draws that lower the shanten of a closed part of ``3k + 1`` tiles, in type order,
    tried among the types that can: those within two steps of a held tile of their suit, the
    held honors and, with no melds and eight or more kinds of terminals and honors held, every
    terminal and honor type. Types held four times are left out.

    Equal to ``lowering_draws(counts, melds, shanten(counts, melds), those types)``; each suit's
    candidate draws are looked up once per suit, and each draw costs one memo lookup.
    """
    n = sum(counts)
    if (n, melds) not in _SIZES:
        _check_size(n, melds)
    if n % 3 != 1:
        _check_size(n + 1, melds)  # a draw would not fit the melds: raises
    return _near_lowering(counts, melds, n, _suit_near(tuple(counts[0:9])),
                          _suit_near(tuple(counts[9:18])), _suit_near(tuple(counts[18:27])),
                          _honor_near(tuple(counts[27:34]), n))


def discard_lowering_draws(counts: Sequence[int], melds: int, discards: Iterable[int]
                           ) -> dict[int, tuple[int, ...]]:
    """For each type in ``discards`` (held types of a closed part of ``3k + 2`` tiles), the
    draws that lower the shanten of the part left after letting it go: equal to
    ``near_lowering_draws(counts - t, melds)`` for each ``t``, as a tuple.

    A discard changes one part (a suit or the honors), so the other parts are looked up once;
    and the part left is memoised (a seat keeps meeting the same hands turn after turn).
    """
    n = sum(counts)
    if (n, melds) not in _SIZES or n % 3 != 2:
        _check_size(n - 1, melds)  # raises: a discard would not fit the melds
    work = list(counts)
    suits = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    honors = tuple(counts[27:34])
    parts = [_suit_near(suit) for suit in suits]
    parts.append(_honor_near(honors, n - 1))
    dropped: list[tuple | None] = [None] * 4  # per part: its near lookups after each discard
    memo = _DRAWS
    out: dict[int, tuple[int, ...]] = {}
    for t in discards:
        c = work[t]
        if not c:
            raise ValueError(f"type {t} is not held, so it cannot be discarded")
        work[t] = c - 1
        hand = (*work, melds)
        draws = memo.get(hand)
        if draws is None:
            part = t // 9  # 3 for the honors
            found = dropped[part]
            if found is None:
                found = dropped[part] = (_suit_discard_near(suits[part]) if part < 3
                                         else _honor_discard_near(honors, n - 1))
            after = parts.copy()
            after[part] = found[t - 9 * part]
            if len(memo) >= _DRAWS_LIMIT:
                memo.clear()
            draws = memo[hand] = tuple(_near_lowering(work, melds, n - 1, *after))
        out[t] = draws
        work[t] = c
    return out


_DRAWS: dict[tuple[int, ...], tuple[int, ...]] = {}  # 34 counts and melds -> lowering draws
_DRAWS_LIMIT = 1 << 16


@lru_cache(maxsize=1 << 14)
def _suit_discard_near(suit: tuple[int, ...]) -> tuple:
    """``_suit_near`` of the suit less one tile of each type (None where none is held)."""
    return tuple([_suit_near(suit[:i] + (c - 1,) + suit[i + 1:]) if c else None
                 for i, c in enumerate(suit)])


@lru_cache(maxsize=1 << 12)
def _honor_discard_near(honors: tuple[int, ...], n: int) -> tuple:
    """``_honor_near`` of the honors less one tile of each type, in a part of ``n`` tiles then."""
    return tuple([_honor_near(honors[:i] + (c - 1,) + honors[i + 1:], n) if c else None
                 for i, c in enumerate(honors)])


def _near_lowering(counts: Sequence[int], melds: int, n: int,
                   man: tuple[int, tuple[tuple[int, int], ...], int],
                   pin: tuple[int, tuple[tuple[int, int], ...], int],
                   sou: tuple[int, tuple[tuple[int, int], ...], int],
                   honors: tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...], int]
                   ) -> list[int]:
    """near_lowering_draws of a checked part of ``n`` tiles, from its parts' near lookups."""
    a, near_a, code_a = man
    b, near_b, code_b = pin
    c3, near_c, code_c = sou
    h, h_after, near_h, _, code_h = honors
    key = h << _HONOR_SHIFT | a << _MAN_SHIFT | b << _PIN_SHIFT | c3
    base = regular_base = _REGULAR.get(key)
    if base is None:
        base = regular_base = _regular_of_key(key)
    specials = None
    if melds == 0:
        orphans = _orphans(counts)
        orphan_missing = orphans.count(0)
        if 13 - orphan_missing >= 8:  # every terminal and honor is a candidate
            types = set(_ORPHAN_SET)
            for first, near in ((0, near_a), (9, near_b), (18, near_c)):
                types.update(first + i for i, _ in near)
            types.update(27 + i for i, _ in near_h)
            return lowering_draws(counts, melds, shanten(counts, melds), sorted(types))
        kinds = NUM_TYPES - counts.count(0)
        pairs = kinds - counts.count(1)
        orphan_pair = 1 if max(orphans) >= 2 else 0
        if base > -1:
            chiitoi = 6 - pairs + (7 - kinds if kinds < 7 else 0)
            base = min(base, chiitoi, orphan_missing - orphan_pair)
        # _specials_after, inline
        chiitoi_floor = -1 if pairs >= 6 else 5 - pairs + max(0, 6 - kinds)
        if chiitoi_floor < base or orphan_missing - 1 - orphan_pair < base:
            specials = kinds, pairs, orphan_missing, orphan_pair
    # the key of the hand with the draw, less the id of the part the draw falls in
    after = h_after << _HONOR_SHIFT | a << _MAN_SHIFT | b << _PIN_SHIFT | c3
    parts = ((0, near_a, _MAN_SHIFT, code_a), (9, near_b, _PIN_SHIFT, code_b),
             (18, near_c, _SOU_SHIFT, code_c), (27, near_h, _HONOR_SHIFT, code_h))
    out: list[int] = []
    if specials is None and base == regular_base:
        # only the regular shanten can drop: each part's draws that lower it are memoised on
        # the hand's key and the part's code (together they fix every key after a draw)
        memo = _LOWERING
        key <<= _CODE_BITS + 2
        for part, (first, near, shift, code) in enumerate(parts):
            if not near:
                continue
            part_key = key | code << 2 | part
            found = memo.get(part_key)
            if found is None:
                if len(memo) >= _LOWERING_LIMIT:
                    memo.clear()
                found = memo[part_key] = _part_lowering(after, first, near, shift, base)
            out += found
        return out
    for first, near, shift, _ in parts:
        blank = after & ~(_ID_MASK << shift)
        for i, new in near:
            t = first + i
            if specials is not None and _special_lowers(specials, t, counts[t], base):
                out.append(t)
                continue
            regular = _REGULAR.get(blank | new << shift)
            if regular is None:
                regular = _regular_of_key(blank | new << shift)
            if regular < base:
                out.append(t)
    return out


_CODE_BITS = 40  # a part's code (see _part_code) in the keys of _LOWERING


def _part_code(counts: tuple[int, ...]) -> int:
    """A number that tells apart the counts of a suit or of the honors: the base-5 code, or for
    counts over four (hands no game deals, which the shanten still accepts) a base-16 code
    above every base-5 one."""
    if max(counts) <= 4:
        return suit_code(counts)
    return 1 << 21 | sum(c << 4 * i for i, c in enumerate(counts))


# (hand key, part's code, part) packed -> the draws in that part that lower the regular shanten
_LOWERING: dict[int, tuple[int, ...]] = {}
_LOWERING_LIMIT = 1 << 18  # its entries are bigger than the other memos'


def _part_lowering(after: int, first: int, near: tuple[tuple[int, int], ...], shift: int,
                   base: int) -> tuple[int, ...]:
    """The types among one part's ``near`` draws whose regular shanten is below ``base``;
    ``after`` is the key of the hand once drawn, less that part's id."""
    blank = after & ~(_ID_MASK << shift)
    out = []
    for i, new in near:
        key = blank | new << shift
        regular = _REGULAR.get(key)
        if regular is None:
            regular = _regular_of_key(key)
        if regular < base:
            out.append(first + i)
    return tuple(out)


def _improving(counts: Sequence[int], melds: int, base: int, seen: Sequence[int]
               ) -> dict[int, int]:
    """Types whose draw lowers the shanten below ``base``, with their unseen copies."""
    return {t: 4 - seen[t] for t in lowering_draws(counts, melds, base, range(NUM_TYPES))}


def ukeire(counts: Sequence[int], melds: int = 0, visible: Sequence[int] | None = None
           ) -> tuple[int, dict[int, int]]:
    """Tile acceptance of a closed part of ``3k + 1`` tiles.

    Returns ``(total, {type: copies})``: every type whose draw lowers the shanten, with the copies
    the seat cannot see. ``visible`` counts every tile the seat sees *including its own hand*
    (as :func:`visible_counts` gives); without it only the hand is seen. So a type's unseen copies
    are ``4 - in hand - seen elsewhere``. A type held four times cannot be drawn and is left out;
    a type whose every other copy is visible stays in with 0 copies.
    """
    n = sum(counts)
    _check_size(n, melds)
    if n % 3 != 1:
        raise ValueError(f"ukeire needs a closed part of 3k+1 tiles, got {n}")
    seen = _seen(counts, visible)
    waits = _improving(counts, melds, shanten(counts, melds), seen)
    return sum(waits.values()), waits


def best_discards(counts: Sequence[int], melds: int = 0, visible: Sequence[int] | None = None
                  ) -> list[tuple[int, int, int]]:
    """Each discard of a closed part of ``3k + 2`` tiles as ``(type, shanten, ukeire)``.

    Sorted best first: lowest shanten after the discard, then most unseen accepting copies, then
    the lower type. ``visible`` is as in :func:`ukeire`, taken before the discard (the discarded
    tile stays seen); without it the seat sees only its hand.
    """
    n = sum(counts)
    _check_size(n, melds)
    if n % 3 != 2:
        raise ValueError(f"best_discards needs a closed part of 3k+2 tiles, got {n}")
    seen = _seen(counts, visible)
    work = list(counts)
    out: list[tuple[int, int, int]] = []
    for t in range(NUM_TYPES):
        if not work[t]:
            continue
        work[t] -= 1
        after = shanten(work, melds)
        total = sum(_improving(work, melds, after, seen).values())
        out.append((t, after, total))
        work[t] += 1
    out.sort(key=lambda r: (r[1], -r[2], r[0]))
    return out


def visible_counts(obs: Observation) -> list[int]:
    """Counts of every tile one seat can see: its hand, all melds, all discards, dora
    indicators, and what cards make public (other hands or families played face up, revealed
    draws, face-up pools: ``Observation.others_face_up``).

    Tiles are gathered by id, so a called discard (in a river and in a meld) counts once.
    """
    groups = [obs.concealed, obs.dora_indicators, obs.others_face_up()]
    seats = getattr(obs, "players", _NUM_SEATS)
    for seat in range(seats):  # the observation's questions called from C (shanten.pxd)
        groups.append(obs.discards(seat))
        groups.extend([meld.tiles for meld in obs.melds(seat)])
    if seats == 3:  # three players: Norths set aside are public, 2m-8m out of play (S-01)
        groups.extend([obs.kita(seat) for seat in range(seats)])
    counts = None
    if KERNEL is not None:
        counts = KERNEL.distinct_type_counts(groups)
    if counts is None:
        counts = [0] * NUM_TYPES
        for tile in set().union(*groups):
            counts[tile >> 2] += 1
    if seats == 3:
        counts[1:8] = [4] * 7
    return counts


# ---------------------------------------------------------------------------- compiled kernel

PURE_ENV = "SAKI_PURE_PYTHON"  # set (to anything but "" or "0") to use the pure functions
_KERNEL_SOURCE = Path(__file__).with_name("_kernel.c")


def _load_kernel() -> ModuleType | None:
    """The compiled kernel (``pipeline/bots/_kernel.c``, built by ``pip install``) with the suit
    table loaded; None when it was not built, when the build is older than its source (a stale
    build is never trusted), when the shipped table is missing, or when ``SAKI_PURE_PYTHON``
    asks for the pure functions. It answers exactly as the functions above
    (``tests/bots/test_kernel.py``), several times faster."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        from pipeline.bots import _kernel  # type: ignore[attr-defined]
    except ImportError:
        return None
    if _KERNEL_SOURCE.exists():
        digest = hashlib.sha256(_KERNEL_SOURCE.read_bytes()).hexdigest()[:16]
        if digest != _kernel.SOURCE_HASH:
            warnings.warn(f"{_KERNEL_SOURCE} changed since it was built, so the bots use the "
                          "slower pure-Python functions; rebuild it with "
                          "`python -m pip install -e .`", RuntimeWarning, stacklevel=2)
            return None
    loaded = load_table()
    if loaded is None:
        return None
    row_sets, index = loaded
    rows, starts = array("b"), array("I", [0])
    if starts.itemsize != 4:
        return None
    for row_set in row_sets:
        for row in row_set:
            rows.extend(row)
        starts.append(len(rows) // 4)
    _kernel.load(rows.tobytes(), starts.tobytes(), index.tobytes())
    return _kernel


# The pure functions keep these names whether or not the kernel loads, so tests and callers
# can always compare against them.
_pure_shanten, _pure_discard_shanten = shanten, discard_shanten
_pure_discard_lowering_draws, _pure_near_lowering_draws = (discard_lowering_draws,
                                                           near_lowering_draws)
KERNEL = _load_kernel()
if KERNEL is not None:
    _k_shanten, _k_discard_shanten = KERNEL.shanten, KERNEL.discard_shanten
    _k_discard_lowering_draws, _k_lowering_draws = (KERNEL.discard_lowering_draws,
                                                    KERNEL.lowering_draws)

    @wraps(_pure_shanten)
    def shanten(counts: Sequence[int], melds: int = 0) -> int:
        found = _k_shanten(counts, melds)
        return _pure_shanten(counts, melds) if found is None else found

    @wraps(_pure_discard_shanten)
    def discard_shanten(counts: Sequence[int], melds: int = 0) -> dict[int, int]:
        found = _k_discard_shanten(counts, melds)
        return _pure_discard_shanten(counts, melds) if found is None else found

    @wraps(_pure_discard_lowering_draws)
    def discard_lowering_draws(counts: Sequence[int], melds: int, discards: Iterable[int]
                               ) -> dict[int, tuple[int, ...]]:
        discards = list(discards)
        found = _k_discard_lowering_draws(counts, melds, discards)
        return (_pure_discard_lowering_draws(counts, melds, discards) if found is None
                else found)

    @wraps(_pure_near_lowering_draws)
    def near_lowering_draws(counts: Sequence[int], melds: int = 0) -> list[int]:
        found = _k_lowering_draws(counts, melds)
        return _pure_near_lowering_draws(counts, melds) if found is None else found
