"""Shanten and acceptance for a seat whose character may build extra sequences.

Kaori's honor sequences (East-South-West, South-West-North, the three dragons) and Yuuko's
wrap-around sequences (8-9-1, 9-1-2 of a suit) are sets for her (``pipeline.rules.hand_shapes``),
so a hand built with them is nearer to winning than the standard shanten says. This module counts
them, for the heuristic bot's discards and calls while it plays such a character.

A hand still splits into independent parts (each suit, the honors): the extra sequences stay
within one part. A part is searched for its Pareto-optimal ``(sets, partial sets, pairs,
isolated)`` rows with every sequence it allows (standard runs plus the extra ones; two tiles of
a sequence are a partial set), memoised per part; the parts combine as in
:mod:`pipeline.bots.shanten` (``8 - 2 sets - partials - pairs``, at most ``4 - melds`` set
candidates beyond the pair). Seven pairs and thirteen orphans are unchanged by the shapes. The
`mahjong` package's four-of-a-kind conventions are not reproduced here (no package knows these
sequences): a tile held four times is read like any other.

Only a seat playing such a character pays for this search; the compiled kernel
(``pipeline/bots/_kernel.c``) runs the same search when it is built, and these pure functions
stay as its fallback (``SAKI_PURE_PYTHON``), with the same answers (``tests/bots/test_shaped.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache, wraps

from pipeline.bots.shanten import (
    _ISO_FREE,
    _ORPHAN_SET,
    KERNEL,
    NUM_TYPES,
    _combine,
    _pareto,
    shanten_chiitoitsu,
    shanten_kokushi,
)
from pipeline.rules.hand_shapes import honor_sequences, wrap_sequences
from pipeline.tiles import HAND_MEMO, first_held

Group = tuple[int, int, int]
Row = tuple[int, int, int, int]
# Effect kinds of a character that give her extra sequences, and those sequences.
EXTRA_SEQUENCES = {"honor_sequences": honor_sequences, "wrap_sequences": wrap_sequences}
_PART_STARTS = (0, 9, 18, 27)
_PART_SIZES = (9, 9, 9, 7)


def extra_sequences(kinds: Iterable[str]) -> frozenset[Group]:
    """Every extra sequence the effect kinds of a character give her (none for most)."""
    return frozenset().union(*[EXTRA_SEQUENCES[k]() for k in kinds if k in EXTRA_SEQUENCES])


def _standard_runs(first: int, size: int) -> list[Group]:
    return [] if first == 27 else [(first + i, first + i + 1, first + i + 2)
                                   for i in range(size - 2)]


@lru_cache(maxsize=64)
def _part_groups(part: int, extra: frozenset[Group]
                 ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each index of the part, the sequences holding it, as indices within the part."""
    first, size = _PART_STARTS[part], _PART_SIZES[part]
    runs = _standard_runs(first, size) + sorted(g for g in extra
                                                if all(first <= t < first + size for t in g))
    table: list[list[tuple[int, ...]]] = [[] for _ in range(size)]
    for run in runs:
        local = tuple([t - first for t in run])
        for i in set(local):
            table[i].append(local)
    return tuple([tuple(sorted(set(x))) for x in table])


@lru_cache(maxsize=HAND_MEMO)
def _part_rows(counts: tuple[int, ...], part: int, extra: frozenset[Group]) -> tuple[Row, ...]:
    """Pareto-optimal (sets, partial sets, pairs, isolated kind) of one part (0-2 the suits,
    3 the honors), searched with every sequence the part allows. The first held index is taken
    into a triplet, a sequence, a pair, a partial set or left alone, and the rest is a smaller
    part (memoised too)."""
    i = first_held(counts)
    if i is None:
        return ((0, 0, 0, 0),)
    groups = _part_groups(part, extra)[i]
    rows: set[Row] = set()

    def rest(taken: dict[int, int], m: int, t: int, p: int, iso: int) -> None:
        left = list(counts)
        for k, n in taken.items():
            left[k] -= n
        for rm, rt, rp, ri in _part_rows(tuple(left), part, extra):
            rows.add((m + rm, t + rt, p + rp, iso | ri))

    if counts[i] >= 3:
        rest({i: 3}, 1, 0, 0, 0)
    for run in groups:
        if all(counts[k] for k in run):
            rest(dict.fromkeys(run, 1), 1, 0, 0, 0)
    if counts[i] >= 2:
        rest({i: 2}, 0, 0, 1, 0)
    for k in sorted({k for run in groups for k in run if k != i and counts[k]}):
        rest({i: 1, k: 1}, 0, 1, 0, 0)
    rest({i: 1}, 0, 0, 0, _ISO_FREE)  # the tile stays alone
    return _pareto(rows)


@lru_cache(maxsize=HAND_MEMO)
def _merged(a: tuple[Row, ...], b: tuple[Row, ...]) -> tuple[Row, ...]:
    """Two parts' rows taken together."""
    return _pareto({(ma + mb, ta + tb, pa + pb, ia | ib)
                    for ma, ta, pa, ia in a for mb, tb, pb, ib in b})


@lru_cache(maxsize=HAND_MEMO)
def _combined(merged: tuple[Row, ...], third: tuple[Row, ...], honors: tuple[Row, ...],
              melds: int) -> int:
    """The regular shanten of the parts' rows (the same few combinations recur draw after
    draw)."""
    return _combine(merged, third, honors, (melds, 0, 0, 0))


def _parts(counts: Sequence[int]) -> list[tuple[int, ...]]:
    return [tuple(counts[s:s + n]) for s, n in zip(_PART_STARTS, _PART_SIZES, strict=True)]


def _shanten_of(rows: Sequence[tuple[Row, ...]], counts: Sequence[int], melds: int,
                merged: tuple[Row, ...] | None = None) -> int:
    """Shanten from the four parts' rows (``merged``: the two first parts' rows taken together,
    when already known)."""
    best = _combined(merged or _merged(rows[0], rows[1]), rows[2], rows[3], melds)
    if melds == 0 and best > -1:
        best = min(best, shanten_chiitoitsu(counts), shanten_kokushi(counts))
    return best


def _changed(parts: list[tuple[int, ...]], rows: list[tuple[Row, ...]], t: int, step: int,
             extra: frozenset[Group]) -> tuple[list[tuple[Row, ...]], int]:
    """The parts' rows with one tile of type ``t`` added (``step`` 1) or taken (-1), and the
    part that changed: only that part's rows are looked up again."""
    q = min(t // 9, 3)
    part = list(parts[q])
    part[t - _PART_STARTS[q]] += step
    after = rows.copy()
    after[q] = _part_rows(tuple(part), q, extra)
    return after, q


def shaped_shanten(counts: Sequence[int], melds: int, extra: frozenset[Group]) -> int:
    """Shanten of a closed part of ``3k + 1`` or ``3k + 2`` tiles whose seat may build the
    sequences in ``extra`` as well as the standard ones."""
    rows = [_part_rows(part, i, extra) for i, part in enumerate(_parts(counts))]
    return _shanten_of(rows, counts, melds)


def shaped_discard_shanten(counts: Sequence[int], melds: int, extra: frozenset[Group]
                           ) -> dict[int, int]:
    """``{type: shanten after discarding it}`` for every held type of a ``3k + 2`` part."""
    work = list(counts)
    parts = _parts(work)
    rows = [_part_rows(part, i, extra) for i, part in enumerate(parts)]
    merged = _merged(rows[0], rows[1])
    out = {}
    for t in range(NUM_TYPES):
        if work[t]:
            after, q = _changed(parts, rows, t, -1, extra)
            work[t] -= 1
            out[t] = _shanten_of(after, work, melds, merged if q >= 2 else None)
            work[t] += 1
    return out


def _helpful(counts: Sequence[int], extra: frozenset[Group], closed: bool) -> list[int]:
    """Draws that can lower the shanten: neighbours of held tiles (in standard and extra
    sequences), held honors, and every terminal and honor when thirteen orphans is near."""
    near = set()
    for t in range(NUM_TYPES):
        if not counts[t]:
            continue
        near.add(t)
        if t < 27:
            first = t - t % 9
            near.update(x for x in range(t - 2, t + 3) if first <= x < first + 9)
    for group in extra:
        if any(counts[x] for x in group):
            near.update(group)
    if closed and sum(1 for t in _ORPHAN_SET if counts[t]) >= 8:
        near |= _ORPHAN_SET
    return sorted(near)


def shaped_acceptance(counts: Sequence[int], melds: int, unseen: Sequence[int],
                      extra: frozenset[Group]) -> int:
    """Unseen copies of the draws that lower the shanten of a ``3k + 1`` part (ukeire; for a
    tenpai hand its winning tiles)."""
    work = list(counts)
    parts = _parts(work)
    rows = [_part_rows(part, i, extra) for i, part in enumerate(parts)]
    merged = _merged(rows[0], rows[1])
    base = _shanten_of(rows, work, melds, merged)
    total = 0
    for x in _helpful(work, extra, melds == 0):
        if work[x] < 4 and unseen[x] > 0:
            after, q = _changed(parts, rows, x, 1, extra)
            work[x] += 1
            if _shanten_of(after, work, melds, merged if q >= 2 else None) < base:
                total += unseen[x]
            work[x] -= 1
    return total


def shaped_discard_acceptance(counts: Sequence[int], melds: int, discards: Iterable[int],
                              unseen: Sequence[int], extra: frozenset[Group]) -> dict[int, int]:
    """For each discard: the unseen copies of the draws that lower the shanten left."""
    work = list(counts)
    out = {}
    for t in discards:
        work[t] -= 1
        out[t] = shaped_acceptance(work, melds, unseen, extra)
        work[t] += 1
    return out


# The pure functions keep these names whether or not the kernel loads, so tests can always
# compare against them.
_pure_shaped_shanten, _pure_shaped_discard_shanten = shaped_shanten, shaped_discard_shanten
_pure_shaped_acceptance, _pure_shaped_discard_acceptance = (shaped_acceptance,
                                                            shaped_discard_acceptance)
if KERNEL is not None:
    _k_shanten, _k_discard_shanten = KERNEL.shaped_shanten, KERNEL.shaped_discard_shanten
    _k_acceptance, _k_discard_acceptance = (KERNEL.shaped_acceptance,
                                            KERNEL.shaped_discard_acceptance)

    @wraps(_pure_shaped_shanten)
    def shaped_shanten(counts: Sequence[int], melds: int, extra: frozenset[Group]) -> int:
        found = _k_shanten(counts, melds, extra)
        return _pure_shaped_shanten(counts, melds, extra) if found is None else found

    @wraps(_pure_shaped_discard_shanten)
    def shaped_discard_shanten(counts: Sequence[int], melds: int, extra: frozenset[Group]
                               ) -> dict[int, int]:
        found = _k_discard_shanten(counts, melds, extra)
        return _pure_shaped_discard_shanten(counts, melds, extra) if found is None else found

    @wraps(_pure_shaped_acceptance)
    def shaped_acceptance(counts: Sequence[int], melds: int, unseen: Sequence[int],
                          extra: frozenset[Group]) -> int:
        found = _k_acceptance(counts, melds, unseen, extra)
        return (_pure_shaped_acceptance(counts, melds, unseen, extra) if found is None
                else found)

    @wraps(_pure_shaped_discard_acceptance)
    def shaped_discard_acceptance(counts: Sequence[int], melds: int, discards: Iterable[int],
                                  unseen: Sequence[int], extra: frozenset[Group]
                                  ) -> dict[int, int]:
        discards = list(discards)
        found = _k_discard_acceptance(counts, melds, discards, unseen, extra)
        return (_pure_shaped_discard_acceptance(counts, melds, discards, unseen, extra)
                if found is None else found)
