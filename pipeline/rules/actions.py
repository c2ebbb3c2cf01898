"""Typed actions and melds: what a seat may do, and what it has declared."""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

from enum import StrEnum

from pipeline.rules.frozen import FrozenFields
from pipeline.rules.records import Payload
from pipeline.tiles import format_tiles, tile_to_str


class ActionKind(StrEnum):
    """Every kind of decision a seat can make."""

    DISCARD = "discard"          # tile: the discarded tile
    RIICHI = "riichi"            # tile: the discard that declares riichi
    TSUMO = "tsumo"              # tile: the drawn winning tile
    ANKAN = "ankan"              # tiles: the four tiles
    KAKAN = "kakan"              # tile: the added tile
    NINE_TERMINALS = "nine_terminals"
    RON = "ron"                  # tile: the claimed tile
    CHI = "chi"                  # tile: claimed tile, tiles: the two tiles from hand
    PON = "pon"                  # tile: claimed tile, tiles: the two tiles from hand
    MINKAN = "minkan"            # tile: claimed tile, tiles: the three tiles from hand
    PASS = "pass"
    KITA = "kita"                # tile: the North set aside as nukidora (three players, S-03)
    # Card abilities add their own actions through hooks (later); they use this kind.
    ABILITY = "ability"


CLAIM_KINDS = frozenset({ActionKind.RON, ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN})


class AbilityTag(StrEnum):
    """What an ability's action or event is, where the engine must act on it (a card's own
    choices carry the card layer's tags, :class:`pipeline.cards.moves.Move`), and what each
    event of the table's controls is, with what its ``payload`` names. Nothing reads meaning
    out of an action's or an event's ``detail``, which is for people."""

    FACE_DOWN = "face_down"        # discard the tile face down (rule C-13)
    EXTRA_TURN = "extra_turn"      # take the extra turn offered (C-14..C-17); its event too
    REPEAT = "repeat"              # discard the tile again at once, nobody may take it
    PRIORITY = "priority"          # a call that beats every other claim, ron included
    CHOMBO = "chombo"              # a ron the ability turns into a chombo (rule C-20)
    LATE = "late"                  # a ron on an earlier discard of the seat's pond
    DRAW = "draw"                  # draw this tile (a pond's, beside the hand) instead
    DRAW_INSTEAD = "draw_instead"  # draw one of the tiles set aside face up; no wall draw
    RIICHI = "riichi"              # declare riichi on the tile, the ability acting on it
    SWAPPED = "swapped"            # an event: tiles or melds exchanged (rule C-22 Teru)
    FLOOR_AT_ZERO = "floor_at_zero"  # an event: a seat's payments stopped at zero points
    FROM_POND = "from_pond"        # an event: a tile drawn out of a pond (it left the pond)
    # events of the table's controls (``pipeline.rules.hooks``); the payload each names:
    SWITCHED_OFF = "switched_off"  # a seat's ability switched off (payload: that seat)
    SWITCHED_ON = "switched_on"    # a switched-off ability works again (payload: that seat)
    HAND_REVEALED = "hand_revealed"  # the seat plays face up
    HAND_HIDDEN = "hand_hidden"    # the seat's tiles hidden again
    TYPES_SHOWN = "types_shown"    # the seat keeps some tile types face up
    TILE_SHOWN = "tile_shown"      # a tile of the seat's hand shown to the table (tile)
    STAKED = "staked"              # points put on the table (payload: the points, rule C-18)
    PAID = "paid"                  # a payment during the hand (payload: the seat that paid)
    HONBA_ADDED = "honba_added"    # honba added to the table's count (payload: how many)
    DORA_REVEALED = "dora_revealed"  # more dora indicators revealed (payload: how many)
    WALL_DRAWN = "wall_drawn"      # extra live-wall tiles drawn into the hand (payload: how many)
    PUT_LIVE_END = "put_live_end"  # hand tiles put at the end of the live wall (payload: how many)
    PUT_DEAD_END = "put_dead_end"  # hand tiles put at the end of the dead wall (payload: how many)
    LIVE_TO_DEAD = "live_to_dead"  # the last live-wall tile moved to the dead wall
    DRAWS_TO_INDICATOR = "draws_to_indicator"  # draws go on up to the last dora indicator
    WALL_REVEALED = "wall_revealed"  # live-wall tiles revealed (tiles; payload: how many)
    REVEALED_TAKEN = "revealed_taken"  # a revealed wall tile taken (tile)
    SET_ASIDE = "set_aside"        # a live-wall tile kept beside the hand, seen by the seat alone
    SET_ASIDE_FACE_UP = "set_aside_face_up"  # live-wall tiles beside the hand face up (tiles)
    TURNED_FACE_DOWN = "turned_face_down"  # a pond tile turned face down (payload: its pond)
    CLOSED_KAN = "closed_kan"      # an open kan becomes a closed one
    SETTLED = "settled"            # points moved at a hand's end (payload: the payee's net gain)
    TABLE_TAKEN = "table_taken"    # sticks and stakes taken at a hand's end (payload: points)
    EXEMPT = "exempt"              # a seat out of a hand's end payments
    SCORED = "scored"              # a win's value changed (payload: the han it gained or lost)
    ALWAYS_WINNING = "always_winning"  # a win on an always-winning tile valued (payload: the
    #                                    tile type it counts as; None: whatever the shape)

    @property
    def bookkeeping(self) -> bool:
        """Whether an event tagged so only keeps a card's state (no engine tag does; a card's
        own tags may, :class:`pipeline.cards.moves.Move`): the tables count such events apart
        from the triggers."""
        return False



@cython.cclass
class Action(FrozenFields):
    """One legal decision. Compare actions by value; agents return one of the offered ones.

    An ability's action says what it is by ``tag`` (an :class:`AbilityTag`, or a card's own
    tag), whose ability it is by ``card`` and what it names by ``payload``; ``detail`` is
    the text people read (``"<card>:<what>"``). A frozen value (:mod:`pipeline.rules.frozen`):
    slots, an extension type where compiled (``@cython.cclass``), read at every decision."""

    __slots__ = ("kind", "seat", "tile", "tiles", "detail", "tag", "card", "payload")
    kind: ActionKind
    seat: int
    tile: int | None
    tiles: tuple[int, ...]
    detail: str
    tag: StrEnum | None
    card: str
    payload: Payload

    def __init__(self, kind: ActionKind, seat: int, tile: int | None = None,
                 tiles: tuple[int, ...] = (), detail: str = "", tag: StrEnum | None = None,
                 card: str = "", payload: Payload = None) -> None:
        self.kind = kind
        self.seat = seat
        self.tile = tile
        self.tiles = tiles
        self.detail = detail
        self.tag = tag
        self.card = card
        self.payload = payload

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.tile is not None:
            parts.append(tile_to_str(self.tile))
        if self.tiles:
            parts.append("+" + format_tiles(self.tiles))
        if self.detail:
            parts.append(self.detail)
        return f"P{self.seat} " + " ".join(parts)


def ability_action(seat: int, card: str, tag: StrEnum, tile: int | None = None, *,
                   kind: ActionKind = ActionKind.ABILITY, tiles: tuple[int, ...] = (),
                   payload: Payload = None, detail: str | None = None) -> Action:
    """An ability's action, its detail ``"<card>:<tag>"`` unless given. Actions are immutable
    values, so one made before is given again (hot path: abilities offer the same actions on
    every turn); the key holds the types of the values that may be compared by identity."""
    try:
        key = (seat, card, tag, type(tag), tile, kind, type(kind), tiles, payload, type(payload),
               detail)
        act = _MADE.get(key)
    except TypeError:  # an unhashable payload: made anew
        key, act = None, None
    if act is None:
        act = Action(kind, seat, tile, tiles, f"{card}:{tag}" if detail is None else detail,
                     tag, card, payload)
        if key is not None:
            if len(_MADE) >= _MADE_KEPT:  # bounded: payloads may name anything
                _MADE.clear()
            _MADE[key] = act
    return act


# The ability actions made so far (see ability_action), up to _MADE_KEPT of them.
_MADE: dict[tuple, Action] = {}
# as many as the memos keyed by hands keep (pipeline.tiles.HAND_MEMO), so a worker stays small
_MADE_KEPT = 1 << 12


class MeldKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"   # open kan on a discard (daiminkan)
    KAKAN = "kakan"     # pon extended with the fourth tile (shouminkan)
    ANKAN = "ankan"     # concealed kan


@cython.cclass
class Meld(FrozenFields):
    """A declared set. ``tiles`` are sorted; ``called`` is the claimed tile (None for ankan);
    ``added`` the tile added to make a kakan. A frozen value, as :class:`Action`."""

    __slots__ = ("kind", "tiles", "called", "from_seat", "added")
    kind: MeldKind
    tiles: tuple[int, ...]
    called: int | None
    from_seat: int | None
    added: int | None

    def __init__(self, kind: MeldKind, tiles: tuple[int, ...], called: int | None = None,
                 from_seat: int | None = None, added: int | None = None) -> None:
        self.kind = kind
        self.tiles = tiles
        self.called = called
        self.from_seat = from_seat
        self.added = added

    # the kinds bound once (hot path: bots ask these of every meld at every decision)
    @property
    def is_kan(self) -> bool:
        return self.kind in _KAN_MELDS

    @property
    def is_open(self) -> bool:
        return self.kind != _ANKAN_MELD

    @property
    def tile_type(self) -> int:
        return self.tiles[0] // 4

    def __str__(self) -> str:
        return f"{self.kind.value}({format_tiles(self.tiles)})"


_KAN_MELDS = (MeldKind.MINKAN, MeldKind.KAKAN, MeldKind.ANKAN)
_ANKAN_MELD = MeldKind.ANKAN
