"""The wall: live tiles to draw, and the 14-tile dead wall with indicators and replacements.

A wall is built from one ordering of the 136 tiles (its starting state), so a hand can be
replayed from the same order with other agents. Layout of that order:

- ``[0:52]``   the deal: 13 tiles to each seat, starting with the dealer;
- ``[52:122]`` the live wall, drawn from the front (the dealer's first draw is its 14th tile);
- ``[122:126]`` the four replacement (rinshan) tiles, in draw order;
- ``[126:131]`` the dora indicators, in reveal order;
- ``[131:136]`` the ura-dora indicators matching them.

After each kan the last live tile joins the dead wall (rule K-07), so the live wall shrinks by one
and the dead wall keeps 14 tiles.

A three-player wall is an ordering of the 108 tiles without 2m-8m (rule S-01), laid out the same
way for three seats: ``[0:39]`` the deal, ``[39:94]`` the live wall, then the same 14-tile dead
wall. Its replacement draws (kans and kita, S-03) may outnumber the four rinshan tiles: past them
the tiles the live wall handed to the dead wall are drawn, oldest first.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

import random

from pipeline.tiles import NUM_TILES, SANMA_TILES

DEAL_SIZE = 52
LIVE_END = 122
RINSHAN = slice(122, 126)
INDICATORS = slice(126, 131)
URA = slice(131, 136)


class WallError(ValueError):
    """A wall ordering that is not a permutation of the 136 tiles, or an impossible draw."""


def shuffle(rng: random.Random, tiles: list[int]) -> None:
    """``rng.shuffle(tiles)``, step for step: the same draws from the stream and the same swaps,
    so the same order. Written out because compiled it runs several times faster than the
    library's interpreted loop (one shuffle per hand); a subclass of Random, or one whose
    ``_randbelow`` does not draw by bits, is left to its own ``shuffle``."""
    if type(rng) is not random.Random or not _RANDBELOW_BY_BITS:
        rng.shuffle(tiles)
        return
    getrandbits = rng.getrandbits
    for i in range(len(tiles) - 1, 0, -1):  # Random.shuffle with _randbelow_with_getrandbits
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]


_RANDBELOW_BY_BITS = getattr(random.Random, "_randbelow", None) is getattr(
    random.Random, "_randbelow_with_getrandbits", object())


# Orders already checked to be whole walls, with their seats: one order builds several walls
# (the match's shuffle, the hand, the card table's look at the deal), each checked otherwise.
_CHECKED: dict[tuple[int, ...], int] = {}
_CHECKED_KEPT = 8


def _seats(order: tuple[int, ...]) -> int:
    """The seats a wall ordering deals to: 4 for the 136 tiles, 3 for the 108 without 2m-8m
    (rule S-01); anything else is no wall."""
    size = len(order)
    if size == NUM_TILES:
        if sorted(order) != list(range(NUM_TILES)):
            raise WallError("a wall must hold each of the 136 tiles exactly once")
        return 4
    if size == len(SANMA_TILES) and sorted(order) == list(SANMA_TILES):
        return 3
    raise WallError("a wall must hold each of the 136 tiles exactly once (or, for three "
                    "players, each of the 108 tiles without 2m-8m)")


_WALL_FIELDS = ("order", "live", "rinshan", "indicators", "ura", "reserve", "revealed",
                "dead_end", "drawn", "to_indicator", "extension")


@cython.cclass
class Wall:
    """The tiles of one hand in their order: the live wall, the replacement tiles, the dora and
    ura indicators. Slots, and an extension type where compiled (``@cython.cclass``): the engine
    asks how many tiles are left at every step. Compared field by field."""

    __slots__ = (*_WALL_FIELDS, "seats")

    def __init__(self, order: tuple[int, ...]) -> None:
        self.order = order
        self.revealed = 1
        self.drawn = 0  # tiles drawn from the front of the live wall
        self.to_indicator = False  # draws go on into the dead wall
        self.extension: list[int] | None = None  # those dead-wall tiles
        self.reserve: list[int] = []  # tiles moved from the live wall to the dead wall
        self.dead_end: list[int] = []  # tiles an ability put at the end of the dead wall
        size = len(self.order)
        seats = _CHECKED.get(self.order) if type(self.order) is tuple else None
        if seats is None:
            seats = _seats(self.order)
            if type(self.order) is tuple:
                if len(_CHECKED) >= _CHECKED_KEPT:
                    _CHECKED.clear()
                _CHECKED[self.order] = seats
        self.seats = seats
        end = size - 14  # the live wall's end: the dead wall is the last 14 tiles
        self.live = list(self.order[13 * self.seats:end])
        self.live.reverse()  # pop() from the end is the next draw
        self.rinshan = list(self.order[end:end + 4])
        self.rinshan.reverse()
        self.indicators = list(self.order[end + 4:end + 9])
        self.ura = list(self.order[end + 9:end + 14])

    def _fields(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in _WALL_FIELDS])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Wall):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}"
                          for name, value in zip(_WALL_FIELDS, self._fields(), strict=True))
        return f"Wall({shown})"

    @classmethod
    def shuffled(cls, rng: random.Random, players: int = 4) -> Wall:
        tiles = list(range(NUM_TILES)) if players == 4 else list(SANMA_TILES)
        shuffle(rng, tiles)
        return cls(tuple(tiles))

    def deal(self, dealer: int) -> list[list[int]]:
        """The 13 starting tiles of each seat (seat order), taken in turn from the dealer."""
        n = self.seats
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(dealer + i) % n] = list(self.order[13 * i:13 * i + 13])
        return hands

    @property
    def live_left(self) -> int:
        return len(self.live)

    @property
    def rinshan_left(self) -> int:
        """Replacement draws still possible: the rinshan tiles, and with three players the
        tiles the live wall handed to the dead wall (rule S-03)."""
        if self.seats == 3:
            return len(self.rinshan) + len(self.reserve)
        return len(self.rinshan)

    def draw(self) -> int:
        if self.live:
            self.drawn += 1
            return self.live.pop()
        if self.to_indicator:
            self._open_extension()
            if self.extension:
                return self.extension.pop()
        raise WallError("the live wall is empty")

    # -- draws past the live wall, up to the last revealed dora indicator (an ability's rule)

    def draw_to_indicator(self) -> None:
        """From now on, once the live wall is empty, draws go on into the dead wall up to the
        last revealed dora indicator (the tiles between the live wall and it)."""
        self.to_indicator = True

    def _extension_tiles(self) -> list[int]:
        """The dead-wall tiles between the end of the live wall and the last revealed
        indicator, in draw order: the tiles kans moved there (the latest first), then each
        unrevealed indicator with its ura tile, from the fifth down. Nothing once an indicator
        came from the live wall (rule C-19): it lies at the very end of the live wall."""
        if self.revealed > 5:
            return []
        tiles = list(reversed(self.reserve))
        for i in range(min(len(self.indicators), 5) - 1, self.revealed - 1, -1):
            tiles += [self.indicators[i], self.ura[i]]
        return tiles

    def _open_extension(self) -> None:
        if self.extension is not None:
            return
        tiles = self._extension_tiles()
        self.reserve = []
        del self.indicators[self.revealed:]  # drawn tiles are no longer indicators
        del self.ura[self.revealed:]
        self.extension = list(reversed(tiles))  # pop() is the next draw

    @property
    def in_play_left(self) -> int:
        """Tiles still to draw: the live wall, and the dead-wall tiles draws may reach."""
        if not self.to_indicator:
            return len(self.live)
        more = len(self.extension) if self.extension is not None else len(self._extension_tiles())
        return len(self.live) + more

    @property
    def at_last_tile(self) -> bool:
        """Whether the latest draw was a last tile (haitei; its discard is houtei): the last
        live tile, or the last tile in play when draws go on into the dead wall. The one
        notion of the last tile, for the engine and every hook view alike."""
        if self.live:
            return False
        return self.extension is None or not self.extension

    @property
    def last_discard(self) -> bool:
        """Whether a discard now is a last discard: the discard of a last tile
        (:attr:`at_last_tile`). It may win as houtei and no open call may take it (rule K-03);
        when draws go on into the dead wall there are two, and the discards between them are
        ordinary ones. The one notion of the last discard, for the engine and every hook
        view alike."""
        return self.at_last_tile

    def draw_rinshan(self) -> int:
        """A replacement tile after a kan; the last live tile moves to the dead wall (K-07)."""
        if self.rinshan:
            tile = self.rinshan.pop()
        elif self.seats == 3 and self.reserve:  # rule S-03: the dead wall was refilled
            tile = self.reserve.pop(0)
        else:
            raise WallError("no replacement tile left")
        if self.live:
            self.reserve.append(self.live.pop(0))
        return tile

    def reveal_indicator(self) -> int:
        """Reveal the next dora indicator and return it (past the fifth, see C-19 below)."""
        if self.revealed >= len(self.indicators) and not self.extend_dead_wall():
            raise WallError("no dora indicator left to reveal")
        self.revealed += 1
        return self.indicators[self.revealed - 1]

    def can_reveal(self) -> bool:
        """Whether another dora indicator can be revealed (rule C-19)."""
        if self.extension is not None:  # its indicators were drawn
            return False
        return self.revealed < len(self.indicators) or len(self.live) >= 2

    def extend_dead_wall(self) -> bool:
        """Rule C-19: when an extra indicator is needed beyond the fifth, the last 2 tiles of the
        live wall join the dead wall as an indicator and its ura indicator, if the live wall
        still has them. Returns whether it did."""
        if len(self.live) < 2:
            return False
        self.indicators.append(self.live.pop(0))  # live[0] is the end of the live wall
        self.ura.append(self.live.pop(0))
        return True

    # -- abilities that move tiles (reached through pipeline.rules.hooks.WallControls)

    def put_live_end(self, tiles: list[int]) -> None:
        """Put tiles at the end of the live wall, in order: the last one given is drawn last."""
        self.live[0:0] = reversed(tiles)

    def put_dead_end(self, tiles: list[int]) -> None:
        """Put tiles at the end of the dead wall: out of play, never drawn or revealed."""
        self.dead_end.extend(tiles)

    def move_last_live_to_dead(self) -> int | None:
        """The last tile of the live wall joins the dead wall (as :meth:`put_dead_end`);
        returns it, or None when the live wall is empty."""
        if not self.live:
            return None
        tile = self.live.pop(0)
        self.dead_end.append(tile)
        return tile

    def peek(self) -> int | None:
        """The next live tile, left in place (None when the live wall is empty)."""
        return self.live[-1] if self.live else None

    def replace_next(self, tile: int) -> int:
        """Put ``tile`` in the next live tile's place; returns the tile it replaced."""
        if not self.live:
            raise ValueError("the live wall is empty: no next tile to swap")
        taken, self.live[-1] = self.live[-1], tile
        return taken

    @property
    def dora_indicators(self) -> tuple[int, ...]:
        return tuple(self.indicators[: self.revealed])

    @property
    def ura_indicators(self) -> tuple[int, ...]:
        return tuple(self.ura[: self.revealed])

    def spare_ura(self, count: int) -> tuple[int, ...]:
        """The next ``count`` ura indicators an ability may reveal on a win: those under the
        unrevealed dora indicators, then, as :meth:`extend_dead_wall` would lay them out, the
        second of each further pair of tiles from the end of the live wall (rule C-19). Read
        only: the hand ends with the win that reveals them."""
        shown = len(self.ura_indicators)
        pool = [*self.ura[shown:], *self.live[1:2 * count:2]]
        return tuple(pool[:count])

    def spare_dora(self, count: int) -> tuple[int, ...]:
        """The next ``count`` dora indicators an ability may reveal on a win, laid out as
        :meth:`spare_ura` (their ura tiles are its answer). Read only, as there."""
        if self.extension is not None:  # the dead wall's indicators were drawn
            return ()
        pool = [*self.indicators[self.revealed:], *self.live[0:2 * count:2]]
        return tuple(pool[:count])
