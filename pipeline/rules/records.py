"""What a hand leaves behind: an event log that prints as text, and a structured result."""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

from dataclasses import dataclass, field
from enum import StrEnum

from pipeline.rules.frozen import FrozenFields
from pipeline.tiles import WIND_NAMES, format_tiles, tile_to_str


@dataclass(frozen=True)
class HandStart:
    """The state a hand starts from; replaying it with other agents replays the same deal."""

    wall: tuple[int, ...]
    dealer: int
    round_wind: int = 0
    hand_number: int = 0
    honba: int = 0
    sticks: int = 0
    scores: tuple[int, ...] = (25000, 25000, 25000, 25000)
    stakes: int = 0           # points staked by abilities, on the table like sticks (C-18)


class AbilityEffect(StrEnum):
    """What an ability's event did, as the tables count it: changed the play (an extra turn, a
    draw, a swap, a reveal), moved points, or only kept a card's state (a family named, a side
    flipped, a wall tile moved on every discard: counted apart, so that triggers per hand stay
    meaningful)."""

    PLAY = "play"
    POINTS = "points"
    BOOKKEEPING = "bookkeeping"


class DrawSource(StrEnum):
    """Where a ``draw`` event's tile came from, and by which rule. The first five are also what
    the engine tells the abilities' draw hooks (``DrawView.source``); the others are draws an
    ability or a repeated discard adds, which those hooks see as wall draws or not at all."""

    WALL = "wall"                # the turn's draw from the live wall
    RINSHAN = "rinshan"          # the replacement from the dead wall after a kan (rules H-06, K-07)
    KITA = "kita"                # the replacement from the dead wall after a North (rule S-03)
    POND = "pond"                # a tile taken out of a pond instead of the wall draw
    ASIDE = "aside"              # a tile from beside the hand instead of the wall or rinshan draw
    REPLACEMENT = "replacement"  # the live-wall tile after a repeated discard
    ABILITY = "ability"          # extra live-wall tiles an ability draws into the hand
    SET_ASIDE = "set_aside"      # a live-wall tile an ability puts beside the hand, not in it


# What an ability's action or event names beyond its tile and tiles, as its tag says: a seat,
# a count of points or tiles, a tile type, a family or a way of declaring riichi, the yaku
# labels of a declaration, a card copied (an action's ``payload``, and its event's).
Payload = int | str | tuple[str, ...] | None


@cython.cclass
class Event(FrozenFields):
    """One thing that happened at the table, in play order. ``detail`` is for people; what a
    program needs is in the typed fields. A frozen value (:mod:`pipeline.rules.frozen`): slots,
    an extension type where compiled (``@cython.cclass``), made for every event of every hand."""

    __slots__ = ("kind", "seat", "tile", "tiles", "detail", "tag", "card", "effect", "source",
                 "tsumogiri", "drawn_from", "payload")
    kind: str                 # deal, draw, discard, riichi, call, kan, dora, win, draw_end, ...
    seat: int | None
    tile: int | None
    tiles: tuple[int, ...]
    detail: str
    # an ability's event: what it is (an ``AbilityTag`` or a card's own tag) and whose; left
    # out of the repr, which prints (and hashes) a log as before they were kept
    tag: StrEnum | None
    card: str
    # what an ability's event did (``None`` for the other kinds)
    effect: AbilityEffect | None
    # the seat a call or a ron took its tile from
    source: int | None
    # a discard of the tile just drawn
    tsumogiri: bool
    # where a draw's tile came from (``None`` for the other kinds)
    drawn_from: DrawSource | None
    # what an ability's event names, as its tag says (``None`` where it names nothing)
    payload: Payload

    def __init__(self, kind: str, seat: int | None = None, tile: int | None = None,
                 tiles: tuple[int, ...] = (), detail: str = "", tag: StrEnum | None = None,
                 card: str = "", effect: AbilityEffect | None = None, source: int | None = None,
                 tsumogiri: bool = False, drawn_from: DrawSource | None = None,
                 payload: Payload = None) -> None:
        self.kind = kind
        self.seat = seat
        self.tile = tile
        self.tiles = tiles
        self.detail = detail
        self.tag = tag
        self.card = card
        self.effect = effect
        self.source = source
        self.tsumogiri = tsumogiri
        self.drawn_from = drawn_from
        self.payload = payload

    def __repr__(self) -> str:
        """The first five fields, as a log printed (and hashed) before the others were kept."""
        return (f"{type(self).__name__}(kind={self.kind!r}, seat={self.seat!r}, "
                f"tile={self.tile!r}, tiles={self.tiles!r}, detail={self.detail!r})")

    def __str__(self) -> str:
        who = f"P{self.seat} " if self.seat is not None else ""
        text = f"{who}{self.kind}"
        if self.tile is not None:
            text += f" {tile_to_str(self.tile)}"
        if self.tiles:
            text += f" [{format_tiles(self.tiles)}]"
        if self.detail:
            text += f" {self.detail}"
        return text


class Outcome:
    """Per-seat outcome names, as they appear in records and tables."""

    TSUMO_WIN = "tsumo_win"
    RON_WIN = "ron_win"
    DEALT_IN = "dealt_in"
    PAID_TSUMO = "paid_tsumo"
    PAO = "paid_pao"
    DRAW_TENPAI = "draw_tenpai"
    DRAW_NOTEN = "draw_noten"
    NAGASHI = "nagashi_mangan"
    ABORTIVE = "abortive_draw"
    NONE = "none"  # not involved in a win's payments


@dataclass(frozen=True)
class WinRecord:
    seat: int
    from_seat: int            # equal to seat for a tsumo
    han: int
    fu: int
    points: int               # hand value before honba and sticks
    yaku: tuple[tuple[str, int], ...]
    dora: int
    aka: int
    ura: int
    limit: str
    yakuman: int
    pao_seat: int | None = None

    @property
    def is_tsumo(self) -> bool:
        return self.seat == self.from_seat


@dataclass
class SeatRecord:
    seat: int
    start_score: int
    end_score: int = 0
    outcome: str = Outcome.NONE
    riichi: bool = False
    riichi_turn: int | None = None   # the seat's discard number (1-based) that declared riichi
    calls: int = 0                   # open calls made (chi, pon, open kan)
    kans: int = 0
    tenpai_at_end: bool = False
    turns: int = 0                   # discards made

    @property
    def delta(self) -> int:
        return self.end_score - self.start_score


@dataclass
class HandRecord:
    """Everything about one deal: the key for tables and for replaying it."""

    round_wind: int
    hand_number: int          # 0-3 within the round wind
    honba: int
    sticks_start: int
    dealer: int
    seats: list[SeatRecord]
    wins: list[WinRecord] = field(default_factory=list)
    draw_kind: str | None = None      # exhaustive, nine_terminals, four_winds, ...
    sticks_end: int = 0
    events: list[Event] = field(default_factory=list)
    stakes_start: int = 0     # points staked by abilities on the table (collected like sticks)
    stakes_end: int = 0
    dealer_continues: bool = False
    honba_added: int = 0      # honba an ability put on the table's count for the next hand
    start: HandStart | None = None   # replay the deal from here (other agents, one change)
    picks: list[str] | None = None   # the character each seat played (card games)
    teams: dict | None = None        # the card table after the picks (deck size, teams, ...)

    @property
    def name(self) -> str:
        return f"{WIND_NAMES[self.round_wind]} {self.hand_number + 1}"

    def log_text(self) -> str:
        return "\n".join([str(e) for e in self.events])

    def summary(self) -> str:
        head = f"{self.name}, honba {self.honba}, sticks {self.sticks_start}, dealer P{self.dealer}"
        if self.stakes_start or self.stakes_end:
            head += f", stakes {self.stakes_start} -> {self.stakes_end}"
        if self.wins:
            parts = []
            for w in self.wins:
                how = "tsumo" if w.is_tsumo else f"ron off P{w.from_seat}"
                yaku = ", ".join([f"{n} {h}" for n, h in w.yaku])
                extra = f", dora {w.dora + w.aka + w.ura}" if w.dora + w.aka + w.ura else ""
                value = f"{w.han} han {w.fu} fu" if not w.yakuman else f"yakuman x{w.yakuman}"
                parts.append(f"P{w.seat} {how}: {value}, {w.points} ({yaku}{extra})")
            result = "; ".join(parts)
        else:
            tenpai = [f"P{s.seat}" for s in self.seats if s.tenpai_at_end]
            result = f"draw ({self.draw_kind}); tenpai: {', '.join(tenpai) or 'nobody'}"
        deltas = "  ".join([f"P{s.seat} {s.delta:+d}" for s in self.seats])
        picks = ("\n  picks: " + ", ".join([f"P{i} {c}" for i, c in enumerate(self.picks)])
                 if self.picks else "")
        triggers = [e for e in self.events if e.kind == "ability"]
        fired = ("\n  abilities: " + "; ".join([f"P{e.seat} {e.detail}" for e in triggers])
                 if triggers else "")
        return f"{head}: {result}\n  {deltas}{picks}{fired}"
