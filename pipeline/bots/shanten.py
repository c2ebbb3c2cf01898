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

Speed comes from per-suit tables: each suit's 9 counts map (memoised, up to 2**18 suits) to the
Pareto-optimal results of the package's search inside that suit, as ``(sets, partial sets,
pairs, isolated kind)`` rows. Honors need no search. A hand then combines a few rows per suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from pipeline.tiles import NUM_TYPES, TERMINAL_HONOR_TYPES

if TYPE_CHECKING:
    from pipeline.rules.agents import Observation

__all__ = [
    "best_discards",
    "shanten",
    "shanten_chiitoitsu",
    "shanten_kokushi",
    "shanten_regular",
    "ukeire",
    "visible_counts",
]

_orphans = itemgetter(*sorted(TERMINAL_HONOR_TYPES))  # the 13 counts thirteen orphans use
_ORPHAN_SET = frozenset(TERMINAL_HONOR_TYPES)
_honors = itemgetter(*range(27, 34))
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
        rank = _ISO_RANK[r[3]]
        if not any(k[0] >= r[0] and k[1] >= r[1] and k[2] >= r[2] and _ISO_RANK[k[3]] <= rank
                   for k in kept):
            kept.append(r)
    return tuple(kept)


# ---------------------------------------------------------------------------- shanten


def _regular(counts: Sequence[int], n: int) -> int:
    return _combine(_suit_rows(tuple(counts[0:9])), _suit_rows(tuple(counts[9:18])),
                    _suit_rows(tuple(counts[18:27])), _honors(counts), n)


def _combine(a: tuple[Row, ...], b: tuple[Row, ...], c3: tuple[Row, ...],
             honors: tuple[int, ...], n: int) -> int:
    """Regular shanten from the rows of the three suits and the 7 honor counts."""
    fours = honors.count(4)
    sets = (14 - n) // 3 + honors.count(3) + fours  # declared melds, honor triplets and quads
    pairs = honors.count(2)
    iso = _ISO_FREE if 1 in honors else (_ISO_FOUR if fours else 0)
    if fours and n % 3 == 2:
        fours -= 1
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
    _check_size(n, melds)
    best = _regular(counts, n)
    if melds == 0 and best > -1:
        best = min(best, shanten_chiitoitsu(counts), shanten_kokushi(counts))
    return best


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


def _improving(counts: Sequence[int], melds: int, base: int, seen: Sequence[int]
               ) -> dict[int, int]:
    """Types whose draw lowers the shanten below ``base``, with their unseen copies."""
    n = sum(counts) + 1
    suits = [tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])]
    rows = [_suit_rows(s) for s in suits]
    honors = _honors(counts)
    closed = melds == 0
    kinds = NUM_TYPES - counts.count(0)
    pairs = kinds - counts.count(1)
    orphans = _orphans(counts)
    orphan_kinds = 13 - orphans.count(0)
    orphan_pair = 1 if max(orphans) >= 2 else 0
    # A drawn type with no held tile within two steps in its suit (or a new honor) only adds an
    # isolated tile, so its regular shanten is the same for all such types: compute it once.
    lone: int | None = None
    out: dict[int, int] = {}
    for t in range(NUM_TYPES):
        c = counts[t]
        if c >= 4:
            continue
        if c == 0 and (t >= 27 or _lone(counts, t)):
            if lone is None:
                lone = _regular_after(suits, rows, honors, n, t)
            result = lone
        else:
            result = _regular_after(suits, rows, honors, n, t)
        if closed and result > -1:
            new_pairs = pairs + (c == 1)
            chiitoi = -1 if new_pairs == 7 else (
                6 - new_pairs + max(0, 7 - kinds - (c == 0)))
            if t in _ORPHAN_SET:
                kokushi = 13 - orphan_kinds - (c == 0) - (orphan_pair or c == 1)
            else:
                kokushi = 13 - orphan_kinds - orphan_pair
            result = min(result, chiitoi, kokushi)
        if result < base:
            out[t] = 4 - seen[t]
    return out


def _lone(counts: Sequence[int], t: int) -> bool:
    pos = t % 9
    lo = t - min(pos, 2)
    hi = t + min(8 - pos, 2)
    return not any(counts[lo:hi + 1])


def _regular_after(suits: list[tuple[int, ...]], rows: list[tuple[Row, ...]],
                   honors: tuple[int, ...], n: int, t: int) -> int:
    """Regular shanten once one tile of type ``t`` joins the hand (``n`` counts it)."""
    if t >= 27:
        h = t - 27
        return _combine(rows[0], rows[1], rows[2],
                        honors[:h] + (honors[h] + 1,) + honors[h + 1:], n)
    s, i = divmod(t, 9)
    suit = suits[s]
    new = _suit_rows(suit[:i] + (suit[i] + 1,) + suit[i + 1:])
    if s == 0:
        return _combine(new, rows[1], rows[2], honors, n)
    if s == 1:
        return _combine(rows[0], new, rows[2], honors, n)
    return _combine(rows[0], rows[1], new, honors, n)


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
    """Counts of every tile one seat can see: its hand, all melds, all discards, dora indicators.

    Tiles are gathered by id, so a called discard (in a river and in a meld) counts once.
    """
    ids = set(obs.concealed)
    for seat in range(_NUM_SEATS):
        for meld in obs.melds(seat):
            ids.update(meld.tiles)
        ids.update(obs.discards(seat))
    ids.update(obs.dora_indicators)
    counts = [0] * NUM_TYPES
    for tile in ids:
        counts[tile // 4] += 1
    return counts
