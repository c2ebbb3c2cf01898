"""A seat's state in a hand and the tiles of its pond: the fields the rules keep for each seat,
with its type counts, waits and tenpai discards cached until its tiles change (the engine reads
them at every step of play, the bots through every observation).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

from pipeline.rules.actions import Meld, MeldKind
from pipeline.rules.agari import is_complete, tenpai_discards, winning_types
from pipeline.rules.hand_shapes import (
    NO_SHAPES,
    HandShapes,
    shaped_is_complete,
    shaped_tenpai_discards,
    shaped_winning_types,
)
from pipeline.tiles import counts34

_ANKAN_MELD = MeldKind.ANKAN

_DISCARD_FIELDS = ("tile", "tsumogiri", "riichi", "called", "order", "face_down")


@cython.cclass
class DiscardInfo:
    """One tile in a pond. ``order`` counts discards across the table, so a seat can tell which
    tiles went out after someone's riichi (safe against that player).

    One per discard, read at every decision: slots, and an extension type where compiled
    (``@cython.cclass``). Compared field by field."""

    __slots__ = _DISCARD_FIELDS

    def __init__(self, tile: int, tsumogiri: bool, riichi: bool, called: bool = False,
                 order: int = 0, face_down: bool = False) -> None:
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.riichi = riichi
        self.called = called
        self.order = order
        self.face_down = face_down   # rule C-13: no furiten, cannot be called or ronned

    def _fields(self) -> tuple[object, ...]:
        return self.tile, self.tsumogiri, self.riichi, self.called, self.order, self.face_down

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiscardInfo):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}"
                          for name, value in zip(_DISCARD_FIELDS, self._fields(), strict=True))
        return f"DiscardInfo({shown})"


_PLAYER_FIELDS = ("seat", "concealed", "melds", "discards", "drawn", "riichi", "riichi_accepted",
                  "double_riichi", "riichi_turn", "ippatsu", "temp_furiten", "riichi_furiten",
                  "kuikae", "turns", "calls", "kans", "kita", "last_call", "extra_turn_now",
                  "shapes")


@cython.cclass
class PlayerState:
    """One seat in a hand: its tiles, melds, pond and the flags the rules keep for it.

    Slots, and an extension type where compiled (``@cython.cclass``): the engine reads and writes
    these fields at every step of play, the bots read them through every observation."""

    __slots__ = (*_PLAYER_FIELDS, "_held_key", "_held", "_waits_key", "_waits", "_ready_key",
                 "_ready")

    def __init__(self, seat: int, concealed: list[int], melds: list[Meld] | None = None,
                 discards: list[DiscardInfo] | None = None, drawn: int | None = None,
                 riichi: bool = False, riichi_accepted: bool = False,
                 double_riichi: bool = False, riichi_turn: int | None = None,
                 ippatsu: bool = False, temp_furiten: bool = False,
                 riichi_furiten: bool = False, kuikae: frozenset[int] = frozenset(),
                 turns: int = 0, calls: int = 0, kans: int = 0, kita: list[int] | None = None,
                 last_call: tuple[str, int] | None = None, extra_turn_now: bool = False,
                 shapes: HandShapes = NO_SHAPES) -> None:
        self.seat = seat
        self.concealed = concealed
        self.melds = [] if melds is None else melds
        self.discards = [] if discards is None else discards
        self.drawn = drawn
        self.riichi = riichi
        self.riichi_accepted = riichi_accepted
        self.double_riichi = double_riichi
        self.riichi_turn = riichi_turn
        self.ippatsu = ippatsu
        self.temp_furiten = temp_furiten
        self.riichi_furiten = riichi_furiten
        self.kuikae = kuikae
        self.turns = turns
        self.calls = calls
        self.kans = kans
        self.kita = [] if kita is None else kita  # Norths set aside as nukidora (S-03)
        self.last_call = last_call  # (meld kind, called tile) until the next discard
        self.extra_turn_now = extra_turn_now  # this turn is an ability's extra turn
        self.shapes = shapes  # extra sequences an ability lets the seat build
        # Caches keyed on the concealed tiles in hand order (hot path): the type counts, the
        # waits of a 3k+1 hand and the tenpai discards of a 3k+2 hand, each kept until the
        # tiles change; forget() drops them when the seat's shapes change. The keys are copies
        # of the concealed list (never the list itself, never changed): comparing the list with
        # one builds nothing, where a tuple key would be built anew from the list on every
        # look-up.
        self._held_key: list[int] | None = None
        self._held: list[int] = []
        self._waits_key: list[int] | None = None
        self._waits: frozenset[int] = frozenset()
        self._ready_key: list[int] | None = None
        self._ready: dict[int, frozenset[int]] = {}

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _PLAYER_FIELDS)
        return f"PlayerState({shown})"

    @property
    def is_closed(self) -> bool:
        # Meld.is_open, without its lookups, in a loop rather than all() over a generator
        # (hot path: asked for every seat on every discard)
        for m in self.melds:
            if m.kind != _ANKAN_MELD:
                return False
        return True

    def counts(self) -> list[int]:
        return counts34(self.concealed)

    def forget(self) -> None:
        """Drop the cached counts, waits and tenpai discards (the seat's shapes changed)."""
        self._held_key = self._waits_key = self._ready_key = None

    @cython.ccall
    def held(self) -> list[int]:
        """Type counts of the concealed tiles, cached until the hand changes (hot path: read
        only, never modify the list)."""
        tiles = self.concealed
        before = self._held_key
        if tiles != before:
            key = list(tiles)
            if before is not None and key[:-1] == before:  # one tile drawn
                held = self._held.copy()
                held[key[-1] // 4] += 1
            else:
                held = counts34(key)
            self._held_key, self._held = key, held
        return self._held

    @cython.ccall
    def waits(self) -> frozenset[int]:
        """Winning tile types of a 3k+1 hand; cached until the hand changes (hot path). A hand
        that comes back (after a tsumogiri) finds its waits still cached."""
        if self.concealed != self._waits_key:
            held = self.held()
            self._waits = (shaped_winning_types(held, self.shapes) if self.shapes
                           else winning_types(held))
            self._waits_key = list(self.concealed)
        return self._waits

    @cython.ccall
    def ready(self) -> dict[int, frozenset[int]]:
        """For a 3k+2 hand: each discard type that leaves it tenpai, with its waits; cached
        until the hand changes."""
        if self.concealed != self._ready_key:
            held = self.held()
            self._ready = (shaped_tenpai_discards(held, self.shapes) if self.shapes
                           else tenpai_discards(held))
            self._ready_key = list(self.concealed)
        return self._ready

    def waits_before_draw(self) -> frozenset[int]:
        """The winning types of the hand without its drawn tile (whether it was ready before
        the draw): usually cached, as every discard checks the waits for a ron."""
        tiles = self.concealed
        if self.drawn is None:
            return frozenset()
        if tiles and tiles[-1] == self.drawn and self._waits_key == tiles[:-1]:
            return self._waits
        rest = list(tiles)
        rest.remove(self.drawn)
        held = counts34(rest)
        return shaped_winning_types(held, self.shapes) if self.shapes else winning_types(held)

    @cython.ccall
    def drawn_completes(self) -> bool:
        """Whether the hand with its drawn tile is complete. The waits of the hand before the
        draw are usually cached (every discard checks them for a ron), and the drawn tile
        completes the hand exactly when its type is one of them."""
        tiles = self.concealed
        if (self.drawn is not None and tiles and tiles[-1] == self.drawn
                and self._waits_key == tiles[:-1]):
            return self.drawn // 4 in self._waits
        held = self.held()
        return shaped_is_complete(held, self.shapes) if self.shapes else is_complete(held)

    @cython.ccall
    def remove_discard(self, tile: int) -> None:
        """Take a discarded tile out of the hand. When the tenpai discards of the hand were
        worked out (to offer riichi), they hold the waits left by this discard: an absent type
        leaves no wait."""
        before = list(self.concealed)
        held = self._held if self._held_key == before else None
        self.concealed.remove(tile)
        after = list(self.concealed)
        if held is not None:  # the counts follow without counting again
            held = held.copy()
            held[tile // 4] -= 1
            self._held_key, self._held = after, held
        if self._ready_key == before:
            self._waits_key = after
            self._waits = self._ready.get(tile // 4, frozenset())

    def discard_furiten(self, waits: frozenset[int]) -> bool:
        # rule C-13: tiles discarded face down do not count for furiten (a loop: no generator)
        for d in self.discards:
            if d.tile // 4 in waits and not d.face_down:
                return True
        return False

