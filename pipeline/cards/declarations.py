"""Ryuuka's declarations read as "any combination of yaku" (``declarations = "any_combination"``):
which yaku her hand and the tiles set aside put within reach, which of them can stand together
in one win, and what each combination is worth to her in expectation.

Everything here works on the 34-type counts of her hand plus the pool (23 tiles at the hand's
start) and stays cheap: one count per yaku, no search over hands.

- :func:`short_of` says how many tiles those counts lack for a yaku (riichi and menzen tsumo
  need none: any closed hand may make them). A yaku is within reach when it lacks at most
  :data:`SLACK` tiles: the wall draws after the pool, her calls and her discards may still
  bring them.
- :func:`clash` says which two yaku one win cannot hold (no chiitoitsu with pinfu, no tanyao
  with chanta, ...): the card's menu never offers both (``declared_pool``, one yaku a step).
- For the bots, :func:`expected_value` prices one combination: the chance that her win holds
  every declared yaku (a per-yaku chance from how many tiles it lacks, the chances multiplied)
  times the points a win with that many han pays; menzen tsumo declared means a tsumo only.
  :func:`best` compares the :func:`combinations` of the plausible yaku (a few: riichi and what
  is all but sure), so the search stays small.

The yaku a declaration may name are the ones a hand's tiles make (:data:`TILE_YAKU`), not the
ones made by the moment of the win (ippatsu, haitei, rinshan, chankan, double riichi): those
cannot be planned from the tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations as _pairs

from pipeline.tiles import counts34

SLACK = 3  # tiles a yaku may still lack at the hand's start and count as within her reach
# For the bots' planning: of her 23 tiles (hand and pool), how many a yaku made of one kind of
# tile (simples, one suit, ...) wants of that kind: a 14-tile hand, with room for the discards
# her play will not choose for the yaku's sake.
KEEP = 17

DRAGON_YAKU = {31: "Yakuhai (haku)", 32: "Yakuhai (hatsu)", 33: "Yakuhai (chun)"}
WIND_WORDS = ("east", "south", "west", "north")

# Closed han of every yaku a declaration may name (yakuhai added per seat and round wind).
TILE_YAKU: dict[str, int] = {
    "Riichi": 1, "Menzen Tsumo": 1, "Pinfu": 1, "Tanyao": 1, "Iipeiko": 1, "Chiitoitsu": 2,
    "Sanshoku Doujun": 2, "Ittsu": 2, "Honitsu": 3, "Chinitsu": 6, "Chantai": 2, "Junchan": 3,
    "Toitoi": 2, "San Ankou": 2,
}
# How likely a yaku that lacks no tile is made, at most: its shape asks more than the tiles
# (pinfu a two-sided wait; menzen tsumo a tsumo in the few draws left once the pool is drawn,
# with every ron given up), and her play builds the fastest hand rather than the declared one.
# Measured with the heuristic bot (Ryuuka at every hand, 60 matches): riichi + tanyao declared
# with tanyao lacking no tile won half as often as riichi alone, riichi + chanta never; a
# dragon triplet in hand or seven pairs' worth of pairs cost next to nothing.
CEILING: dict[str, float] = {
    "Riichi": 0.9, "Menzen Tsumo": 0.25, "Pinfu": 0.3, "Tanyao": 0.45, "Iipeiko": 0.25,
    "Chiitoitsu": 0.5, "Sanshoku Doujun": 0.25, "Ittsu": 0.25, "Honitsu": 0.1, "Chinitsu": 0.05,
    "Chantai": 0.05, "Junchan": 0.05, "Toitoi": 0.1, "San Ankou": 0.15,
}
YAKUHAI_CEILING = 0.95
# The chance a yaku is made, by how many tiles the hand and pool lack for it.
REACH_CHANCE = {0: 1.0, 1: 0.4, 2: 0.15, 3: 0.05}
PLAUSIBLE = 0.25  # the least chance of a yaku the bots plan a declaration around
# Declarable yaku that need a closed hand: a call would lose them.
CLOSED_ONLY = frozenset({"Riichi", "Menzen Tsumo", "Pinfu", "Iipeiko", "Chiitoitsu"})

# Yaku that one winning hand cannot hold together.
_YAKUHAI = "yakuhai"  # stands for every yakuhai in this table
_CLASHES: dict[str, tuple[str, ...]] = {
    "Chiitoitsu": ("Pinfu", "Iipeiko", "Sanshoku Doujun", "Ittsu", "Toitoi", "San Ankou",
                   "Chantai", "Junchan", _YAKUHAI),
    "Pinfu": ("Toitoi", "San Ankou", _YAKUHAI),
    "Toitoi": ("Iipeiko", "Sanshoku Doujun", "Ittsu", "Chantai", "Junchan"),
    "Tanyao": ("Chantai", "Junchan", "Ittsu", "Honitsu", _YAKUHAI),
    "Honitsu": ("Chinitsu", "Sanshoku Doujun", "Junchan"),
    "Chinitsu": ("Sanshoku Doujun", "Chantai", _YAKUHAI),
    "Chantai": ("Junchan", "Ittsu"),
    "Junchan": ("Ittsu", _YAKUHAI),
    "Sanshoku Doujun": ("Ittsu",),
}

POINTS_BY_HAN = (0, 1000, 2000, 3900, 7700, 8000, 12000, 12000, 16000, 16000, 16000, 24000,
                 24000, 32000)  # a non-dealer's ron at 30 fu (limits from 5 han)
DORA_HAN = 0.8       # han a win holds beside its yaku, on average (dora, red fives, ura)
TSUMO_SHARE = 0.4    # her wins that are tsumo (the card's +1 han) when a ron is allowed


def yakuhai_names(seat_wind: int, round_wind: int) -> dict[int, str]:
    """The value honors' yaku names by tile type (winds 0..3 = East..North)."""
    names = dict(DRAGON_YAKU)
    names[27 + seat_wind] = f"Yakuhai (seat wind {WIND_WORDS[seat_wind]})"
    if round_wind != seat_wind:
        names[27 + round_wind] = f"Yakuhai (round wind {WIND_WORDS[round_wind]})"
    return names


def yakuhai_types(yaku: Iterable[str], seat_wind: int, round_wind: int) -> frozenset[int]:
    """The value honors whose yakuhai are among ``yaku``: the tiles a declaration needs kept."""
    wanted = set(yaku)
    return frozenset(t for t, name in yakuhai_names(seat_wind, round_wind).items()
                     if name in wanted)


def _suits(c: Sequence[int]) -> list[Sequence[int]]:
    return [c[9 * s:9 * s + 9] for s in range(3)]


def short_of(yaku: str, c: Sequence[int], values: dict[int, str], keep: int = 14) -> int:
    """How many tiles the counts ``c`` lack for ``yaku`` (0 for riichi and menzen tsumo), a yaku
    made of one kind of tile wanting ``keep`` tiles of that kind."""
    suits = _suits(c)
    honors = sum(c[27:])
    pairs = sum(1 for n in c if n >= 2)
    if yaku in ("Riichi", "Menzen Tsumo"):
        return 0
    if yaku == "Pinfu":
        return max(0, keep - sum(sum(s) for s in suits))
    if yaku == "Tanyao":
        return max(0, keep - sum(n for s in suits for n in s[1:8]))
    if yaku == "Honitsu":
        return min(max(0, keep - sum(s) - honors) for s in suits) + (honors == 0)
    if yaku == "Chinitsu":
        return min(max(0, keep - sum(s)) for s in suits)
    if yaku in ("Chantai", "Junchan"):
        # a 2 or 3 (7 or 8) counts only beside a 1 (9) it can form a group with
        edge = sum(s[0] + min(s[1] + s[2], 2 * s[0]) + s[8] + min(s[6] + s[7], 2 * s[8])
                   for s in suits)
        if yaku == "Junchan":
            return max(0, keep - edge)
        return max(0, keep - edge - honors) + (honors == 0)
    if yaku == "Chiitoitsu":
        return max(0, 7 - pairs)
    if yaku == "Toitoi":
        triplets = sum(1 for n in c if n >= 3)
        return max(0, 5 - pairs) + max(0, 2 - triplets)
    if yaku == "San Ankou":
        return sum(max(0, 3 - n) for n in sorted(c, reverse=True)[:3])
    if yaku == "Iipeiko":
        return min(sum(max(0, 2 - s[i + k]) for k in range(3)) for s in suits for i in range(7))
    if yaku == "Sanshoku Doujun":
        return min(sum(1 for s in suits for k in range(3) if not s[i + k]) for i in range(7))
    if yaku == "Ittsu":
        return min(sum(1 for n in s if not n) for s in suits)
    for t, name in values.items():
        if name == yaku:
            return max(0, 3 - c[t])
    raise KeyError(yaku)


def reachable(hand: Sequence[int], pool: Sequence[int], seat_wind: int, round_wind: int,
              keep: int = 14) -> dict[str, int]:
    """The yaku within her reach and how many tiles each still lacks (a yaku of one kind of
    tile wanting ``keep`` of them: 14, a whole hand, for what she may declare; :data:`KEEP`
    for the bots' planning)."""
    c = counts34([*hand, *pool])
    values = yakuhai_names(seat_wind, round_wind)
    names = [*TILE_YAKU, *values.values()]
    short = {y: short_of(y, c, values, keep) for y in names}
    return {y: n for y, n in short.items() if n <= SLACK}


def clash(a: str, b: str) -> bool:
    """Whether one winning hand cannot hold both yaku."""
    def key(y: str) -> str:
        return _YAKUHAI if y.startswith("Yakuhai") else y
    ka, kb = key(a), key(b)
    return kb in _CLASHES.get(ka, ()) or ka in _CLASHES.get(kb, ())


def combinations(yaku: Sequence[str]) -> list[frozenset[str]]:
    """Every non-empty combination of these yaku that one win can hold (no two that clash)."""
    names = sorted(yaku)
    clashing = {frozenset(p) for p in _pairs(names, 2) if clash(*p)}
    out: list[frozenset[str]] = []

    def grow(start: int, chosen: tuple[str, ...]) -> None:
        for i in range(start, len(names)):
            y = names[i]
            if any(frozenset((y, x)) in clashing for x in chosen):
                continue
            combo = (*chosen, y)
            out.append(frozenset(combo))
            grow(i + 1, combo)

    grow(0, ())
    return out


def han_of(yaku: str) -> int:
    """A declarable yaku's closed han (a yakuhai is 1)."""
    return TILE_YAKU.get(yaku, 1)


def chance_of(yaku: str, short: int) -> float:
    """The chance her win holds ``yaku`` when the hand and pool lack ``short`` tiles for it."""
    ceiling = YAKUHAI_CEILING if yaku.startswith("Yakuhai") else CEILING[yaku]
    return ceiling * REACH_CHANCE.get(short, 0.0)


def points_for_han(han: float) -> float:
    """A win's points for ``han`` (fractional han interpolated; 13 han and more: yakuman)."""
    if han >= len(POINTS_BY_HAN) - 1:
        return float(POINTS_BY_HAN[-1])
    low = int(han)
    return POINTS_BY_HAN[low] + (han - low) * (POINTS_BY_HAN[low + 1] - POINTS_BY_HAN[low])


def expected_value(combo: frozenset[str], short: dict[str, int]) -> float:
    """The points a declaration is worth when she wins: the chance the win holds every declared
    yaku times what such a win pays (its yaku, the usual dora, the tsumo bonus as often as she
    wins by tsumo: always with menzen tsumo declared, since a ron would be a chombo)."""
    chance = 1.0
    for y in combo:
        chance *= chance_of(y, short[y])
    tsumo = 1.0 if "Menzen Tsumo" in combo else TSUMO_SHARE
    han = sum(han_of(y) for y in combo) + DORA_HAN + tsumo
    return chance * points_for_han(han)


def plausible(short: dict[str, int]) -> list[str]:
    """The reachable yaku worth planning for: those made at least :data:`PLAUSIBLE` of the
    time (riichi always is), so that the combinations compared stay few."""
    return [y for y, n in short.items() if chance_of(y, n) >= PLAUSIBLE]


def ranked(short: dict[str, int]) -> list[frozenset[str]]:
    """The combinations of the plausible yaku, the highest expected value first (ties: the
    fewer yaku, then by name, so the order is deterministic)."""
    return sorted(combinations(plausible(short)),
                  key=lambda d: (-expected_value(d, short), len(d), sorted(d)))


def best(short: dict[str, int]) -> frozenset[str]:
    """The combination of highest expected value (riichi alone when nothing else is)."""
    options = ranked(short)
    return options[0] if options else frozenset({"Riichi"})
