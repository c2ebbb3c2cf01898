"""Tiles as integers, with mpsz text forms at the edges.

A physical tile is an id 0-135; its type is ``id // 4`` (0-8 man 1-9, 9-17 pin, 18-26 sou,
27-33 east, south, west, north, white, green, red). When red fives are used, the copy with
id ``type * 4`` of each five (ids 16, 52, 88) is the red one, as on Tenhou.

Text form (mpsz): digits followed by their suit letter, ``0`` for a red five:
``"123m406p777z"``. Every list of tiles prints and parses in this form.
"""

from __future__ import annotations

from collections.abc import Iterable

NUM_TILES = 136
# Three-player mahjong plays without 2m-8m (rule S-01): 108 tiles, ids kept as in the full set.
SANMA_TILES = tuple([t for t in range(NUM_TILES) if not 1 <= t // 4 <= 7])
NORTH_TYPE = 30
NUM_TYPES = 34
RED_FIVE_IDS = (16, 52, 88)
RED_FIVE_SET = frozenset(RED_FIVE_IDS)  # the same, to ask whether a tile is one
SUITS = "mpsz"

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WIND_TYPES = (EAST, SOUTH, WEST, NORTH)
DRAGON_TYPES = (WHITE, GREEN, RED)
TERMINAL_HONOR_TYPES = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
WIND_NAMES = ("East", "South", "West", "North")
# Entries per memo keyed by hand contents (suits, parts, whole hands): a worker meets new hands
# for as long as it plays, so an unbounded memo, or one of hundreds of thousands of entries,
# makes its memory grow all run long; a few thousand keep nearly every hit.
HAND_MEMO = 1 << 12
# Entries per memo whose hits are the same question asked again within a few decisions (a
# face-up hand's waits, a hand's improving draws, a starting hand's features): over a run of
# cards-hanchan a few hundred keep every hit a memo of thousands keeps, at a small part of the
# memory.
RECENT_MEMO = 1 << 8


class TileParseError(ValueError):
    """A tile string that is not valid mpsz text."""


def first_held(counts: Iterable[int]) -> int | None:
    """The first index of ``counts`` that is not zero (None when all are): where the splitting
    searches start. A loop rather than ``next()`` over a generator, which costs more compiled."""
    for t, count in enumerate(counts):
        if count:
            return t
    return None


def tile_type(tile: int) -> int:
    return tile // 4


def is_red(tile: int) -> bool:
    return tile in RED_FIVE_IDS


def is_honor_type(t: int) -> bool:
    return t >= 27


def is_terminal_or_honor_type(t: int) -> bool:
    return t in TERMINAL_HONOR_TYPES


def suit_of_type(t: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honors."""
    return t // 9 if t < 27 else 3


def dora_from_indicator(indicator_type: int, sanma: bool = False) -> int:
    """The dora type an indicator type points to (9 wraps to 1, North to East, Red to White).
    With three players (``sanma``) 2m-8m are out of the set, so a 1m indicator points to 9m
    (rule S-05)."""
    if sanma and indicator_type == 0:
        return 8
    if indicator_type < 27:
        return (indicator_type // 9) * 9 + (indicator_type % 9 + 1) % 9
    if indicator_type < 31:
        return 27 + (indicator_type - 27 + 1) % 4
    return 31 + (indicator_type - 31 + 1) % 3


def type_to_str(t: int) -> str:
    if t < 27:
        return f"{t % 9 + 1}{SUITS[t // 9]}"
    return f"{t - 26}z"


def tile_to_str(tile: int, red_fives: bool = True) -> str:
    t = tile // 4
    if red_fives and tile in RED_FIVE_IDS:
        return f"0{SUITS[t // 9]}"
    return type_to_str(t)


def format_tiles(tiles: Iterable[int], red_fives: bool = True) -> str:
    """Compact mpsz text of physical tiles, sorted: ``"406p77z"``."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for tile in sorted(tiles, key=lambda x: (x // 4, 0 if x in RED_FIVE_IDS else 1, x)):
        text = tile_to_str(tile, red_fives)
        groups[text[1]].append(text[0])
    return "".join(["".join(digits) + suit for suit, digits in groups.items() if digits])


def format_types(types: Iterable[int]) -> str:
    """Compact mpsz text of tile types (no red fives)."""
    return format_tiles((t * 4 + 1 for t in types), red_fives=False)


def parse_types(text: str) -> list[int]:
    """Tile types of an mpsz string; a red five ``0`` reads as a five."""
    return [t // 4 for t in parse_tiles(text)]


def parse_tiles(text: str, taken: Iterable[int] = ()) -> list[int]:
    """Physical tile ids for an mpsz string.

    ``0`` is the red five of its suit; a plain ``5`` takes a non-red copy first. Copies of the
    same type get distinct ids, skipping any id in ``taken`` (so several strings can describe one
    table without reusing a physical tile).
    """
    used = set(taken)
    result: list[int] = []
    pending: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            pending.append(ch)
            continue
        if ch not in SUITS:
            raise TileParseError(
                f"bad tile text {text!r}: unknown suit letter {ch!r} (use m, p, s, z)")
        if not pending:
            raise TileParseError(
                f"bad tile text {text!r}: suit letter {ch!r} has no digits before it")
        suit = SUITS.index(ch)
        for digit in pending:
            n = int(digit)
            if suit == 3 and not 1 <= n <= 7:
                raise TileParseError(f"bad tile text {text!r}: honors are 1z-7z, not {n}z")
            red = n == 0
            if red and suit == 3:
                raise TileParseError(f"bad tile text {text!r}: there is no red honor (0z)")
            t = suit * 9 + (4 if red else n - 1)
            candidates = [t * 4] if red else ([t * 4 + 1, t * 4 + 2, t * 4 + 3, t * 4] if n == 5
                                               else [t * 4 + k for k in range(4)])
            for tile in candidates:
                if tile not in used:
                    used.add(tile)
                    result.append(tile)
                    break
            else:
                what = "red five" if red else f"{n}{ch}"
                raise TileParseError(f"bad tile text {text!r}: too many copies of {what}")
        pending = []
    if pending:
        raise TileParseError(
            f"bad tile text {text!r}: digits {''.join(pending)!r} have no suit letter")
    return result


def counts34(tiles: Iterable[int]) -> list[int]:
    """Count of each tile type (a 34-long list)."""
    counts = [0] * NUM_TYPES
    for tile in tiles:
        t = tile // 4
        counts[t] += 1
    return counts
