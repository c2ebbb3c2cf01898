"""Complete hands and waits for a seat that may build extra kinds of sequence.

Some abilities let a seat build sequences the rules do not know: wrap-around sequences (8-9-1,
9-1-2) or sequences of honors (East-South-West, haku-hatsu-chun). :class:`HandShapes` names the
extra sequences as tile-type triples, in sequence order; the checks here accept them next to the
usual sets. It may also name aliases: concealed tiles of one type that may be read as another
(each copy either way), for which completeness and waits are tried on every reading. A seat
without extra shapes never comes here: the fast per-unit checks of
:mod:`pipeline.rules.agari` serve it.

The checks follow the same conventions as :mod:`pipeline.rules.agari`: ``counts`` is a 34-long
list of type counts of the closed part, seven pairs and thirteen orphans still count, and a type
of which the hand holds all four copies is never a wait.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from pipeline.rules.agari import (
    is_complete,
    regular_winning_types,
    tenpai_discards,
    unit_pairs,
    winning_types,
)
from pipeline.tiles import HAND_MEMO, NUM_TYPES, RECENT_MEMO, TERMINAL_HONOR_TYPES, first_held

Group = tuple[int, ...]


@dataclass(frozen=True)
class HandShapes:
    """Sequences a seat may build beyond the rules' own (each a triple of types, in order)."""

    extra_sequences: frozenset[Group] = frozenset()
    # (type, read as): concealed tiles of a type the seat may read as another type, each copy
    # either way (all winds as West, for example); melds keep their own tiles
    alias: tuple[tuple[int, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.extra_sequences or self.alias)

    def merged(self, other: HandShapes | None) -> HandShapes:
        if not other:
            return self
        return HandShapes(self.extra_sequences | other.extra_sequences,
                          tuple(sorted(set(self.alias) | set(other.alias))))


def alias_readings(counts: Sequence[int], alias: Sequence[tuple[int, int]]
                   ) -> list[tuple[int, ...]]:
    """Every reading of the counts with some copies of each aliased type read as its target
    (the counts as they are first)."""
    readings = [tuple(counts)]
    for source, target in alias:
        grown = []
        for r in readings:
            for k in range(r[source] + 1):
                w = list(r)
                w[source] -= k
                w[target] += k
                grown.append(tuple(w))
        readings = grown
    return list(dict.fromkeys(readings))


def _alias_complete(counts: Sequence[int], shapes: HandShapes) -> bool:
    return _alias_complete_cached(tuple(counts), shapes)


@lru_cache(maxsize=HAND_MEMO)
def _alias_complete_cached(counts: Group, shapes: HandShapes) -> bool:
    extra = shapes.extra_sequences
    if sum(counts) % 3 != 2:
        return False
    if _honors_only(shapes):
        return _honor_alias_complete(counts, shapes.alias)
    for r in alias_readings(counts, shapes.alias):
        if max(r) > 4:  # more copies than a tile has: sets and a pair only
            if _regular(r, extra, True):
                return True
        elif is_complete(r) or (extra and _shaped_regular(r, extra)):
            return True
    return False


def _alias_waits(counts: Sequence[int], shapes: HandShapes) -> frozenset[int]:
    return _alias_waits_cached(tuple(counts), shapes)


@lru_cache(maxsize=RECENT_MEMO)
def _alias_waits_cached(counts: Group, shapes: HandShapes) -> frozenset[int]:
    """Types completing the hand in some reading (a type held four times never waits). A type
    no alias names completes a reading as it would any hand (the fast check); the aliased
    types are tried one by one."""
    if _honors_only(shapes):
        return _honor_alias_waits(counts, shapes.alias)
    aliased = {t for pair in shapes.alias for t in pair}
    waits: set[int] = set()
    tried: set[int] = set(aliased)
    for r in alias_readings(counts, shapes.alias):
        if max(r) <= 4 and not shapes.extra_sequences:
            waits |= {t for t in winning_types(r) if t not in aliased}
        else:
            tried = set(range(NUM_TYPES))
    work = list(counts)
    for t in sorted(tried):
        work[t] += 1
        if _alias_complete(work, shapes):
            waits.add(t)
        work[t] -= 1
    return frozenset([t for t in waits if counts[t] < 4])


def _honors_only(shapes: HandShapes) -> bool:
    """Aliases among honors and no extra sequences: each honor is a unit of its own, so the
    readings change only the aliased honors, which can be weighed apart from the rest."""
    return not shapes.extra_sequences and all(t >= 27 for pair in shapes.alias for t in pair)


@lru_cache(maxsize=HAND_MEMO)
def _honor_readings(alias: tuple[tuple[int, int], ...], held: tuple[int, ...]
                    ) -> tuple[frozenset[int], bool, frozenset[int]]:
    """What the aliased honors (``held``: their counts, types in order) may be read as: the pair
    counts of the readings where each is sets or sets and a pair; whether a reading leaves each
    at none or two (seven pairs); the pair counts of the readings where each holds one or two
    (thirteen orphans). An honor of ``c`` tiles is sets when ``c % 3 == 0`` and sets and a pair
    when ``c % 3 == 2`` (more than four once read as another type)."""
    types = _aliased_types(alias)
    counts = [0] * NUM_TYPES
    for t, c in zip(types, held, strict=True):
        counts[t] = c
    regular: set[int] = set()
    kokushi: set[int] = set()
    seven = False
    for r in alias_readings(counts, alias):
        part = [r[t] for t in types]
        if all(c % 3 != 1 for c in part):
            regular.add(sum(c % 3 == 2 for c in part))
        seven = seven or all(c in (0, 2) for c in part)
        if all(c in (1, 2) for c in part):
            kokushi.add(part.count(2))
    return frozenset(regular), seven, frozenset(kokushi)


@cache
def _aliased_types(alias: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    return tuple(sorted({t for pair in alias for t in pair}))


def _honor_alias_complete(counts: Sequence[int], alias: tuple[tuple[int, int], ...]) -> bool:
    """:func:`_alias_complete` for aliases among honors: the rest of the hand as it is, the
    aliased honors in whichever reading fits (regular hands, seven pairs, thirteen orphans)."""
    types = _aliased_types(alias)
    regular, seven, kokushi = _honor_readings(alias, tuple([counts[t] for t in types]))
    pairs = unit_pairs(counts, types)
    if pairs is not None and 1 - pairs in regular:
        return True
    if sum(counts) != 14:
        return False
    rest = [t for t in range(NUM_TYPES) if t not in types]
    if seven and all(counts[t] in (0, 2) for t in rest):
        return True
    if kokushi and all((counts[t] in (1, 2)) if t in TERMINAL_HONOR_TYPES else not counts[t]
                       for t in rest):
        return 1 - sum(counts[t] == 2 for t in rest) in kokushi
    return False


def _honor_alias_waits(counts: Sequence[int], alias: tuple[tuple[int, int], ...]
                       ) -> frozenset[int]:
    """:func:`_alias_waits` for aliases among honors: every type held fewer than four times
    that completes the hand. A tile outside the aliased honors leaves their readings as they
    are: for each number of pairs they may hold (none or one), the rest of the hand, with
    that many plain pairs in their place, is a hand with plain waits. The aliased types are
    tried one by one; seven pairs and thirteen orphans are looked for apart."""
    types = _aliased_types(alias)
    regular, seven, kokushi = _honor_readings(alias, tuple([counts[t] for t in types]))
    rest = [t for t in range(NUM_TYPES) if t not in types]
    waits: set[int] = set()
    for pairs in regular & {0, 1}:
        proxy = [0 if t in types else c for t, c in enumerate(counts)]
        proxy[types[0]] = 2 * pairs
        if sum(proxy) % 3 == 1:
            waits.update(t for t in regular_winning_types(proxy) if t not in types)
    if sum(counts) == 13:
        odd = [t for t in rest if counts[t] not in (0, 2)]
        if seven and len(odd) == 1 and counts[odd[0]] == 1:
            waits.add(odd[0])  # seven pairs
        if kokushi and not any(counts[t] for t in rest if t not in TERMINAL_HONOR_TYPES):
            orphans = [t for t in rest if t in TERMINAL_HONOR_TYPES]
            missing = [t for t in orphans if not counts[t]]
            if all(counts[t] <= 2 for t in orphans) and len(missing) <= 1:
                pairs_now = sum(counts[t] == 2 for t in orphans)
                for t in missing or [t for t in orphans if counts[t] == 1]:
                    if 1 - pairs_now - (counts[t] == 1) in kokushi:
                        waits.add(t)  # thirteen orphans
    work = list(counts)
    for t in types:
        if work[t] < 4:
            work[t] += 1
            if _honor_alias_complete(work, alias):
                waits.add(t)
            work[t] -= 1
    return frozenset([t for t in waits if counts[t] < 4])


NO_SHAPES = HandShapes()

# The rules' own sequences, lowest type first.
STANDARD_SEQUENCES: tuple[Group, ...] = tuple([
    (b + i, b + i + 1, b + i + 2) for b in (0, 9, 18) for i in range(7)])


def wrap_sequences() -> frozenset[Group]:
    """8-9-1 and 9-1-2 in each suit."""
    return frozenset([seq for b in (0, 9, 18) for seq in ((b + 7, b + 8, b), (b + 8, b, b + 1))])


def honor_sequences() -> frozenset[Group]:
    """East-South-West, South-West-North (no wrap-around) and haku-hatsu-chun."""
    return frozenset({(27, 28, 29), (28, 29, 30), (31, 32, 33)})


@cache
def _sequences_with(extra: frozenset[Group]) -> tuple[tuple[Group, ...], ...]:
    """For each type, every sequence (standard or extra) holding it."""
    table: list[list[Group]] = [[] for _ in range(NUM_TYPES)]
    for seq in (*STANDARD_SEQUENCES, *sorted(extra)):
        for t in set(seq):
            table[t].append(seq)
    return tuple([tuple(x) for x in table])


@lru_cache(maxsize=HAND_MEMO)
def _regular(counts: Group, extra: frozenset[Group], need_pair: bool) -> bool:
    """Whether ``counts`` splits into sets (and one pair when ``need_pair``)."""
    first = first_held(counts)
    if first is None:
        return not need_pair
    work = list(counts)
    if need_pair and work[first] >= 2:
        work[first] -= 2
        if _regular(tuple(work), extra, False):
            return True
        work[first] += 2
    if work[first] >= 3:
        work[first] -= 3
        if _regular(tuple(work), extra, need_pair):
            return True
        work[first] += 3
    for seq in _sequences_with(extra)[first]:
        if all(work[t] for t in seq):
            for t in seq:
                work[t] -= 1
            if _regular(tuple(work), extra, need_pair):
                return True
            for t in seq:
                work[t] += 1
    return False


_BAD, _SETS, _PAIR = -1, 0, 2


@cache
def _units(extra: frozenset[Group]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The hand's units: types linked by some sequence (each suit, each honor alone, and the
    honors an extra sequence joins). Returns the units and each type's unit index."""
    parent = list(range(NUM_TYPES))

    def root(t: int) -> int:
        while parent[t] != t:
            t = parent[t]
        return t

    for seq in (*STANDARD_SEQUENCES, *extra):
        for t in seq[1:]:
            parent[root(t)] = root(seq[0])
    groups: dict[int, list[int]] = {}
    for t in range(NUM_TYPES):
        groups.setdefault(root(t), []).append(t)
    units = tuple([tuple(g) for g in groups.values()])
    unit_of = [0] * NUM_TYPES
    for i, unit in enumerate(units):
        for t in unit:
            unit_of[t] = i
    return units, tuple(unit_of)


@lru_cache(maxsize=HAND_MEMO)
def _unit_kind(types: tuple[int, ...], counts: tuple[int, ...], extra: frozenset[Group]) -> int:
    """Whether one unit's tiles are sets only, sets and the pair, or neither."""
    n = sum(counts)
    if n % 3 == 1:
        return _BAD
    full = [0] * NUM_TYPES
    for t, c in zip(types, counts, strict=True):
        full[t] = c
    if n % 3 == 0:
        return _SETS if _regular(tuple(full), extra, False) else _BAD
    return _PAIR if _regular(tuple(full), extra, True) else _BAD


def _kinds(counts: Sequence[int], extra: frozenset[Group]) -> list[int]:
    units, _ = _units(extra)
    return [_unit_kind(u, tuple([counts[t] for t in u]), extra) for u in units]


def _shaped_regular(counts: Sequence[int], extra: frozenset[Group]) -> bool:
    kinds = _kinds(counts, extra)
    return _BAD not in kinds and kinds.count(_PAIR) == 1


def shaped_is_complete(counts: Sequence[int], shapes: HandShapes) -> bool:
    """:func:`pipeline.rules.agari.is_complete` with the extra sequences allowed."""
    if is_complete(counts):
        return True
    if not shapes or sum(counts) % 3 != 2:
        return False
    if shapes.alias:
        return _alias_complete(counts, shapes)
    return _shaped_regular(counts, shapes.extra_sequences)


def _regular_waits(counts: Sequence[int], extra: frozenset[Group], kinds: list[int]
                   ) -> set[int]:
    """Types completing a regular hand of 3k+1 tiles whose unit kinds are ``kinds``."""
    units, _ = _units(extra)
    bad = [i for i, k in enumerate(kinds) if k == _BAD]
    if len(bad) > 1:
        return set()
    pairs = kinds.count(_PAIR)
    waits: set[int] = set()
    # the winning tile changes one unit: a bad one if there is one, else one holding a pair
    for u in (bad if bad else [i for i, k in enumerate(kinds) if k == _PAIR]):
        other_pairs = pairs - (kinds[u] == _PAIR)
        if other_pairs > 1:
            continue
        want = _PAIR if other_pairs == 0 else _SETS
        types = units[u]
        for t in types:
            if counts[t] >= 4:
                continue
            grown = tuple([counts[x] + (x == t) for x in types])
            if _unit_kind(types, grown, extra) == want:
                waits.add(t)
    return waits


def shaped_winning_types(counts: Sequence[int], shapes: HandShapes) -> frozenset[int]:
    """:func:`pipeline.rules.agari.winning_types` with the extra sequences allowed."""
    waits = winning_types(counts)
    if not shapes:
        return waits
    if shapes.alias:
        return waits | _alias_waits(counts, shapes)
    extra = shapes.extra_sequences
    return waits | _regular_waits(counts, extra, _kinds(counts, extra))


def shaped_tenpai_discards(counts: Sequence[int], shapes: HandShapes
                           ) -> dict[int, frozenset[int]]:
    """For a closed part of 3k+2 tiles: each discard type that leaves it tenpai, with its waits.
    A discard changes one unit: only that unit's kind is worked out again."""
    result = dict(tenpai_discards(counts))
    if not shapes:
        return result
    if shapes.alias:
        work = list(counts)
        for t in range(NUM_TYPES):
            if work[t]:
                work[t] -= 1
                waits = _alias_waits(work, shapes)
                if waits:
                    result[t] = result.get(t, frozenset()) | waits
                work[t] += 1
        return result
    extra = shapes.extra_sequences
    units, unit_of = _units(extra)
    kinds = _kinds(counts, extra)
    bad = kinds.count(_BAD)
    work = list(counts)
    for t in range(NUM_TYPES):
        if not work[t]:
            continue
        u = unit_of[t]
        if bad - (kinds[u] == _BAD) > 1:
            continue  # two bad units besides this one: the winning tile cannot mend both
        work[t] -= 1
        after = list(kinds)
        after[u] = _unit_kind(units[u], tuple([work[x] for x in units[u]]), extra)
        waits = _regular_waits(work, extra, after)
        if waits:
            result[t] = result.get(t, frozenset()) | waits
        work[t] += 1
    return result


def _splits(counts: Group, extra: frozenset[Group]) -> set[tuple[Group, ...]]:
    first = first_held(counts)
    if first is None:
        return {()}
    found: set[tuple[Group, ...]] = set()
    work = list(counts)
    options: list[Group] = [(first,) * 3] if work[first] >= 3 else []
    options.extend([s for s in _sequences_with(extra)[first] if all(work[t] for t in s)])
    for group in options:
        for t in group:
            work[t] -= 1
        for rest in _splits(tuple(work), extra):
            found.add(tuple(sorted((group, *rest))))
        for t in group:
            work[t] += 1
    return found


def shaped_decompositions(counts: Sequence[int], shapes: HandShapes
                          ) -> list[tuple[int | None, list[Group]]]:
    """Every split of a closed part into sets (each a type tuple, sequences in their own order)
    and, for 3k+2 tiles, a pair: ``(pair_type or None, sets)``. Seven pairs are not listed."""
    n = sum(counts)
    if n % 3 == 0:
        return [(None, list(s)) for s in sorted(_splits(tuple(counts), shapes.extra_sequences))]
    result: list[tuple[int | None, list[Group]]] = []
    if n % 3 == 2:
        for pair in range(NUM_TYPES):
            if counts[pair] >= 2:
                work = list(counts)
                work[pair] -= 2
                for sets in sorted(_splits(tuple(work), shapes.extra_sequences)):
                    result.append((pair, list(sets)))
    return result


def sequence_order(types: Iterable[int], shapes: HandShapes) -> Group | None:
    """The extra sequence these three types form (in its own order), or None."""
    key = sorted(types)
    for seq in shapes.extra_sequences:
        if sorted(seq) == key:
            return seq
    return None


def chi_partners(t: int, shapes: HandShapes) -> list[tuple[int, int]]:
    """Pairs of other types that make an extra sequence with a claimed type ``t``."""
    return [tuple([x for x in seq if x != t]) for seq in sorted(shapes.extra_sequences)
            if t in seq]
