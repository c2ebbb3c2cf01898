"""The contract between the engine and the players: observations in, one legal action out."""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

import random
from typing import TYPE_CHECKING, Protocol

from pipeline.rules.actions import Action, Meld
from pipeline.rules.seats import PlayerState

if TYPE_CHECKING:
    from pipeline.rules.hand import DiscardInfo, HandState


ALL_TYPES = frozenset(range(34))
_NO_TYPES: frozenset[int] = frozenset()


@cython.cclass
class Observation:
    """What one seat may see: its own tiles and everything public. Nothing else is reachable."""

    __slots__ = ("_state", "seat", "_concealed", "_melds", "_dora")

    def __init__(self, state: HandState, seat: int) -> None:
        self._state = state
        self.seat = seat
        # An observation serves one decision: the table does not move while the agent reads
        # it, so the tuples a bot asks for many times are built once (hot path).
        self._concealed: tuple[int, ...] | None = None
        self._melds: list[tuple[Meld, ...] | None] = [None, None, None, None]
        self._dora: tuple[int, ...] | None = None

    @property
    def concealed(self) -> tuple[int, ...]:
        if self._concealed is None:
            self._concealed = tuple(self._state.players[self.seat].concealed)
        return self._concealed

    @property
    def drawn(self) -> int | None:
        return self._state.players[self.seat].drawn

    @property
    def players(self) -> int:
        """Seats at the table: 4, or 3 (rule S-01)."""
        return len(self._state.players)

    @property
    def sanma(self) -> bool:
        """Three players: 2m-8m out of play, a 1m indicator points to 9m (S-01, S-05)."""
        return len(self._state.players) == 3

    def kita(self, seat: int) -> tuple[int, ...]:
        """The Norths a seat set aside (public; three players, S-03)."""
        return tuple(self._state.players[seat].kita)

    @cython.ccall
    @cython.locals(p=PlayerState)
    def melds(self, seat: int) -> tuple[Meld, ...]:
        melds = self._melds[seat]
        if melds is None:
            p = self._state.players[seat]
            melds = self._melds[seat] = tuple(p.melds)
        return melds

    @cython.ccall
    def discards(self, seat: int) -> tuple[int, ...]:
        """A seat's discarded tiles that this seat can see (others' face-down tiles are hidden)."""
        return self._state.pond_view(seat, seat == self.seat)[1]

    @cython.ccall
    def pond(self, seat: int) -> tuple[DiscardInfo, ...]:
        """A seat's discards with their public details (tsumogiri, riichi, called, order);
        another seat's face-down discards are left out, since their tiles are unknown."""
        return self._state.pond_view(seat, seat == self.seat)[0]

    def shown_hand(self, seat: int) -> tuple[int, ...] | None:
        """Another seat's concealed tiles when that seat plays face up (a card's effect)."""
        state = self._state
        if seat == self.seat or seat in state.revealed:
            return tuple(state.players[seat].concealed)
        return None

    @cython.ccall
    def shown_tiles(self, seat: int) -> tuple[int, ...]:
        """Another seat's concealed tiles that lie face up (a whole hand played face up, or the
        tiles of a family it must show); the seat's own tiles for itself."""
        if seat == self.seat:
            return tuple(self._state.players[seat].concealed)
        return self._state.shown_tiles(seat)

    @cython.ccall
    def shown_types(self, seat: int) -> frozenset[int]:
        """The tile types another seat must keep face up: every type while its whole hand is
        revealed. Public, and exact: a type in this set that the seat does not show, it does not
        hold (a face-up hand's waits can be read; a revealed family rules its tiles in or out)."""
        state = self._state
        if seat in state.revealed:
            return ALL_TYPES
        return state.shown_types.get(seat, _NO_TYPES)

    @property
    def aside(self) -> tuple[int, ...]:
        """Tiles this seat keeps beside its hand (an ability's), which only it can see."""
        return tuple(getattr(self._state, "aside", {}).get(self.seat, ()))

    @cython.ccall
    def face_up_aside(self, seat: int) -> tuple[int, ...]:
        """Tiles lying face up beside a seat's hand (an ability's pool): public."""
        state = self._state
        if seat not in getattr(state, "aside_face_up", ()):
            return ()
        return tuple(state.aside.get(seat, ()))

    @cython.ccall
    def others_face_up(self) -> tuple[int, ...]:
        """Every tile another seat shows face up outside its melds and pond: a hand or a family
        played face up, a revealed draw, a pool lying face up beside a hand (cards' doing).
        Empty at once when nothing is shown (hot path: every bot decision asks)."""
        state = self._state
        if not (state.revealed or state.shown_types or state.shown_ids or state.aside_face_up):
            return ()
        return tuple([x for s in range(len(state.players)) if s != self.seat
                     for x in (*state.shown_tiles(s), *self.face_up_aside(s))])

    def cards_up(self, seat: int) -> frozenset[str]:
        """The ids of the cards lying face up in front of a seat this hand (public: a
        two-sided card shows the side now up); empty for a seat playing none."""
        return frozenset([a.name for a in self._state.abilities if a.seat == seat])

    @property
    def pond_changes(self) -> int:
        """How many times a tile already in a pond changed this hand (called, taken, swapped,
        turned face down): ponds that only grew since a count keep every tile seen then."""
        return self._state.pond_changes

    @cython.ccall
    @cython.locals(p=PlayerState)
    def in_riichi(self, seat: int) -> bool:
        p = self._state.players[seat]
        return p.riichi

    @cython.ccall
    def riichi_order(self, seat: int) -> int | None:
        """Table-wide number of the discard that declared riichi, or None."""
        for d in self._state.players[seat].discards:
            if d.riichi:
                return d.order
        return None

    @property
    def turn_count(self) -> int:
        """Discards made so far at the table."""
        return self._state.discard_count

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._state.scores)

    @property
    def dora_indicators(self) -> tuple[int, ...]:
        if self._dora is None:
            self._dora = self._state.wall.dora_indicators
        return self._dora

    @property
    def tiles_left(self) -> int:
        return self._state.wall.live_left

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def round_wind(self) -> int:
        return self._state.round_wind

    @property
    def seat_wind(self) -> int:
        return (self.seat - self._state.dealer) % len(self._state.players)

    @property
    def honba(self) -> int:
        return self._state.honba

    @property
    def sticks(self) -> int:
        return self._state.sticks


class Agent(Protocol):
    """A player. ``decide`` gets the seat's view and the legal actions, and returns one of them."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action: ...


class RandomAgent:
    """Plays a uniformly random legal action, from its own seeded stream (for tests and fuzzing)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


class FirstAgent:
    """Always the first legal action: the discard of the first tile, or passing on claims."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        return legal[0]
