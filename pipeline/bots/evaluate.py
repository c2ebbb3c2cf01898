"""Cheap hand judgments the bots make many times a turn: acceptance, value, yaku directions.

Everything works on 34-count lists. Acceptance here only tries the draws that can possibly help
(neighbours of held suit tiles, held honors, and terminals for thirteen orphans), which gives the
same count as trying all 34 types at a fraction of the cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter

from pipeline.bots.shanten import KERNEL, discard_lowering_draws, near_lowering_draws
from pipeline.rules.actions import Meld, MeldKind
from pipeline.tiles import (
    DRAGON_TYPES,
    HAND_MEMO,
    RECENT_MEMO,
    RED_FIVE_SET,
    TERMINAL_HONOR_TYPES,
    dora_from_indicator,
    is_terminal_or_honor_type,
)

_orphan_counts = itemgetter(*sorted(TERMINAL_HONOR_TYPES))  # counts of the 13 orphan types

# Typical value of a hand by han (30-40 fu, non-dealer), for weighing push against fold.
_POINTS_BY_HAN = (1000, 1500, 2600, 5200, 8000, 8000, 12000, 12000, 16000, 16000, 16000,
                  24000, 24000, 32000)


@lru_cache(maxsize=HAND_MEMO)
def _near(suit: tuple[int, ...], first: int) -> tuple[int, ...]:
    """Types of a suit (``first`` is its first type) within two steps of a held tile."""
    return tuple([first + i for i in range(9) if any(suit[max(0, i - 2):i + 3])])


def helpful_draws(counts: Sequence[int], closed: bool) -> list[int]:
    """Tile types that could lower the shanten of this hand if drawn."""
    types = [*_near(tuple(counts[0:9]), 0), *_near(tuple(counts[9:18]), 9),
             *_near(tuple(counts[18:27]), 18), *(t for t in range(27, 34) if counts[t])]
    if closed:
        kinds = 13 - _orphan_counts(counts).count(0)
        if kinds >= 8:
            return sorted(TERMINAL_HONOR_TYPES.union(types))
    return types


def acceptance(counts: list[int], melds: int, unseen: Sequence[int]) -> int:
    """How many unseen tiles lower the shanten of a 3k+1 hand (ukeire)."""
    improving = improving_types(tuple(counts), melds)
    return sum(unseen[t] for t in improving if unseen[t] > 0)


def discard_acceptance(counts: Sequence[int], melds: int, discards: Sequence[int],
                       unseen: Sequence[int]) -> dict[int, int]:
    """The acceptance left after each of ``discards`` from a 3k+2 hand: for each type ``t``,
    ``acceptance(counts - t, melds, unseen)``, with the hand's parts looked up once."""
    if not discards:
        return {}
    if KERNEL is not None:
        found = KERNEL.discard_acceptance(counts, melds, discards, unseen)
        if found is not None:
            return found
    return {t: sum([unseen[u] for u in draws if unseen[u] > 0])
            for t, draws in discard_lowering_draws(counts, melds, discards).items()}


@lru_cache(maxsize=RECENT_MEMO)
def improving_types(counts: tuple[int, ...], melds: int) -> tuple[int, ...]:
    """The tile types whose draw lowers this hand's shanten (cached: hands recur turn to turn)."""
    # near_lowering_draws tries exactly the types helpful_draws lists
    return tuple(near_lowering_draws(counts, melds))


def winning_outs(counts: list[int], melds: int, unseen: Sequence[int]) -> int:
    """Unseen copies of the tiles that complete a tenpai hand."""
    return acceptance(counts, melds, unseen)


def dora_types(indicators: Sequence[int], sanma: bool = False) -> tuple[int, ...]:
    """The dora tile types the indicator tiles (ids) point at (asked on every decision);
    ``sanma``: with three players a 1m indicator points to 9m (rule S-05)."""
    return _dora_types(tuple(indicators), sanma)


@lru_cache(maxsize=1 << 10)
def _dora_types(indicators: tuple[int, ...], sanma: bool = False) -> tuple[int, ...]:
    return tuple([dora_from_indicator(i // 4, sanma) for i in indicators])


@lru_cache(maxsize=16)
def value_types(seat_wind: int, round_wind: int) -> frozenset[int]:
    """Honor types whose triplet is a yaku for this seat (dragons, seat and round wind)."""
    return frozenset((*DRAGON_TYPES, 27 + seat_wind, 27 + round_wind))


def estimate_han(counts: Sequence[int], melds: Sequence[Meld], tiles: Sequence[int],
                 dora: Sequence[int], values: set[int], *, riichi: bool) -> float:
    """A rough han count for the finished hand: dora, red fives, likely yaku."""
    if not melds:
        return _closed_han(counts, tiles, dora, values)
    meld_tiles = [x for m in melds for x in m.tiles]
    han = float(sum(counts[d] for d in dora) + sum(1 for m in meld_tiles if m // 4 in dora))
    red = RED_FIVE_SET.__contains__
    han += sum(map(red, tiles)) + sum(map(red, meld_tiles))
    closed = all(not m.is_open for m in melds)
    if riichi or closed:
        han += 1
    for v in values:
        if counts[v] >= 3 or any(m.tile_type == v and m.kind != MeldKind.CHI for m in melds):
            han += 1
        elif counts[v] == 2:
            han += 0.4
    if all_simples(counts, melds):
        han += 1
    flush = flush_suit(counts, melds)
    if flush is not None:
        han += 2 if closed else 1
    return han


def _closed_han(counts: Sequence[int], tiles: Sequence[int], dora: Sequence[int],
                values: set[int]) -> float:
    """estimate_han of a hand with no melds, the same sums in the same order."""
    han = float(sum([counts[d] for d in dora]))
    han += sum(map(RED_FIVE_SET.__contains__, tiles))
    han += 1
    for v in values:
        c = counts[v]
        if c >= 3:
            han += 1
        elif c == 2:
            han += 0.4
    if not any(_orphan_counts(counts)):
        han += 1
    per_suit = [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]
    top = max(per_suit)
    if top and sum(per_suit) == top:  # flush_suit: every suited tile in one suit
        han += 2
    return han


def points_for(han: float, dealer: bool) -> int:
    idx = max(0, min(len(_POINTS_BY_HAN) - 1, int(round(han)) - 1))
    points = _POINTS_BY_HAN[idx]
    return int(points * 1.5) if dealer else points


def all_simples(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    return (not any(_orphan_counts(counts))
            and all(not is_terminal_or_honor_type(x // 4) for m in melds for x in m.tiles))


def flush_suit(counts: Sequence[int], melds: Sequence[Meld], slack: int = 0) -> int | None:
    """The suit of a (half) flush the hand is already in, allowing ``slack`` stray tiles."""
    per_suit = [sum(counts[s * 9:(s + 1) * 9]) for s in range(3)]
    for m in melds:
        t = m.tile_type
        if t < 27:
            per_suit[t // 9] += 3
    main = per_suit.index(max(per_suit))  # the first suit among equals
    stray = sum(per_suit) - per_suit[main]
    return main if stray <= slack and per_suit[main] else None


def yaku_path(counts: Sequence[int], melds: Sequence[Meld], values: set[int], *,
              kuitan: bool, unseen: Sequence[int] | None = None, stray: int = 1) -> bool:
    """Whether an open hand still has a realistic yaku: a value-honor set, tanyao or a flush
    with at most ``stray`` tiles still to shed, or all pons. With ``unseen`` (copies the seat
    cannot see), a value-honor pair with a copy left counts too: a call made while holding it
    (the yaku comes when the pair becomes a set)."""
    for m in melds:
        if m.kind != MeldKind.CHI and m.tile_type in values:
            return True
    if any(counts[v] >= 3 for v in values):
        return True
    if unseen is not None and any(counts[v] == 2 and unseen[v] > 0 for v in values):
        return True
    stray_non_simple = sum(_orphan_counts(counts))
    if kuitan and stray_non_simple <= stray and all(
            not is_terminal_or_honor_type(x // 4) for m in melds for x in m.tiles):
        return True
    if flush_suit(counts, melds, slack=stray) is not None:
        return True
    if melds and all(m.kind != MeldKind.CHI for m in melds):
        pairs = sum(1 for c in counts if c >= 2)
        if pairs >= 4 - len(melds):  # one short of the sets and pair toitoi needs
            return True
    return False


def open_direction(counts: Sequence[int], melds: Sequence[Meld], values: set[int],
                   kuitan: bool) -> str | None:
    """What an open hand is playing for, so discards keep that yaku."""
    if any(m.kind != MeldKind.CHI and m.tile_type in values for m in melds):
        return "yakuhai"
    if any(counts[v] >= 2 for v in values):
        return "yakuhai"
    if kuitan and all(not is_terminal_or_honor_type(x // 4) for m in melds for x in m.tiles):
        return "tanyao"
    if flush_suit(counts, melds, slack=4) is not None:
        return "flush"
    return None
