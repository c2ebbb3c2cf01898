"""How dangerous a tile is to discard against one opponent: genbutsu, suji, kabe, honors.

The figures are deal-in chances per tile against a riichi, in the range published in studies of
online play (genbutsu 0%, suji terminals about 2%, non-suji middle tiles about 13-14%); they only
need to rank tiles sensibly and weigh folding against pushing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pipeline.bots.shanten import shanten
from pipeline.tiles import HAND_MEMO, RECENT_MEMO, first_held

# deal-in chance by tile number (1-9) against a riichi
_NON_SUJI = (0.095, 0.12, 0.13, 0.14, 0.14, 0.14, 0.13, 0.12, 0.095)
_SUJI = (0.018, 0.038, 0.055, 0.045, 0.045, 0.045, 0.055, 0.038, 0.018)  # 4-6: both sides
_HALF_SUJI_MIDDLE = 0.08
_HONOR_BY_VISIBLE = (0.065, 0.045, 0.02, 0.002)  # copies of it already visible: 0, 1, 2, 3


def safe_types(discards: Sequence[int], later_by_others: Sequence[int]) -> set[int]:
    """Genbutsu: the opponent's own discards, and every tile passed after their riichi."""
    return set(discards) | set(later_by_others)


def tile_danger(t: int, safe: set[int], visible: Sequence[int]) -> float:
    """Chance that discarding type ``t`` deals in to an opponent whose safe types are ``safe``."""
    if t in safe:
        return 0.0
    if t >= 27:
        return _HONOR_BY_VISIBLE[min(visible[t], 3)]
    n = t % 9  # 0-based number
    base = t - n
    low = n - 3 >= 0 and (base + n - 3) in safe
    high = n + 3 <= 8 and (base + n + 3) in safe
    if n < 3:
        danger = _SUJI[n] if high else _NON_SUJI[n]
    elif n > 5:
        danger = _SUJI[n] if low else _NON_SUJI[n]
    else:
        danger = _SUJI[n] if (low and high) else (_HALF_SUJI_MIDDLE if (low or high)
                                                   else _NON_SUJI[n])
    if _no_chance(n, base, visible):
        danger = min(danger, 0.03)
    if visible[t] >= 3:
        danger *= 0.5  # only a single wait or a pair wait on the last copy remains
    return danger


def _no_chance(n: int, base: int, visible: Sequence[int]) -> bool:
    """Kabe: every two-sided wait on this tile needs a tile whose four copies are all visible."""
    # waits (n-2, n-1) on n are blocked if n-1 is walled; waits (n+1, n+2) if n+1 is
    if n >= 2 and visible[base + n - 1] < 4:
        return False
    return n > 6 or visible[base + n + 1] >= 4


# ---------------------------------------------------------------- tiles lying face up
# A card may make a seat show its whole hand (Komaki's reveal, Mihoko's open hands) or every tile
# of one family (Kasumi's). What is shown is exact, so it turns the guesses above into facts.

FAMILIES = (tuple(range(0, 9)), tuple(range(9, 18)), tuple(range(18, 27)), tuple(range(27, 34)))


@lru_cache(maxsize=RECENT_MEMO)
def winning_types(counts: tuple[int, ...], melds: int) -> frozenset[int]:
    """The tile types that complete a hand whose every concealed tile is known (a face-up hand):
    empty when it is not ready. A type the hand holds four of cannot be drawn or claimed."""
    if shanten(counts, melds) != 0:
        return frozenset()
    waits = []
    for t in range(34):
        if counts[t] < 4:
            after = list(counts)
            after[t] += 1
            if shanten(after, melds) == -1:
                waits.append(t)
    return frozenset(waits)


def _groups_only(suit: tuple[int, ...], honors: bool) -> bool:
    """The tiles split into triplets and runs (runs only in a suit), nothing left over."""
    i = first_held(suit)
    if i is None:
        return True
    c = list(suit)
    if c[i] >= 3:
        c[i] -= 3
        if _groups_only(tuple(c), honors):
            return True
        c[i] += 3
    if not honors and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return _groups_only(tuple(c), honors)
    return False


@lru_cache(maxsize=HAND_MEMO)
def _family_can_finish(part: tuple[int, ...], honors: bool) -> bool:
    """Whether a family's tiles of a winning hand may be exactly these: groups with at most one
    pair (a standard hand), or pairs only (seven pairs)."""
    if all(c in (0, 2) for c in part):
        return True
    n = sum(part)
    if n % 3 == 0:
        return _groups_only(part, honors)
    if n % 3 == 2:
        for p, c in enumerate(part):
            if c >= 2:
                rest = list(part)
                rest[p] -= 2
                if _groups_only(tuple(rest), honors):
                    return True
    return False


def cleared_types(shown: Sequence[int], families: Sequence[Sequence[int]]) -> frozenset[int]:
    """Types of the families a seat must show that it cannot be waiting on: with ``shown`` its
    face-up tile counts (34 types) and ``families`` the families shown in full, a type ``t`` is
    a possible winning tile only if the family's shown tiles plus ``t`` can end a winning hand
    (kokushi and cards' always-winning tiles aside)."""
    cleared = []
    for family in families:
        cleared.extend([family[k] for k in _family_cleared(
            tuple([shown[t] for t in family]), family[0] >= 27)])
    return frozenset(cleared)


@lru_cache(maxsize=HAND_MEMO)
def _family_cleared(part: tuple[int, ...], honors: bool) -> tuple[int, ...]:
    """The places in one family shown in full (its tile counts ``part``) that cannot be a
    winning tile: what :func:`cleared_types` asks of every threat at every decision, while a
    shown family changes only when its seat draws or discards."""
    cleared = []
    counts = list(part)
    for k in range(len(counts)):
        if counts[k] >= 4:
            cleared.append(k)
            continue
        counts[k] += 1
        if not _family_can_finish(tuple(counts), honors):
            cleared.append(k)
        counts[k] -= 1
    return tuple(cleared)


def shown_families(types: frozenset[int]) -> tuple[tuple[int, ...], ...]:
    """The families whose every type lies in ``types`` (a family shown in full)."""
    return tuple([f for f in FAMILIES if types.issuperset(f)])
