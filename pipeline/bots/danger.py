"""How dangerous a tile is to discard against one opponent: genbutsu, suji, kabe, honors.

The figures are deal-in chances per tile against a riichi, in the range published in studies of
online play (genbutsu 0%, suji terminals about 2%, non-suji middle tiles about 13-14%); they only
need to rank tiles sensibly and weigh folding against pushing.
"""

from __future__ import annotations

from collections.abc import Sequence

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
