"""mjai logs (the event stream of the mjai bot protocol) into the neutral record model.

The dialect is the one riichienv and Mortal write: ``start_game``, then per hand
``start_kyoku`` (``bakaze``, ``kyoku`` 1-4, ``honba``, ``kyotaku``, ``oya``, ``scores``,
``dora_marker``, ``tehais``), ``tsumo``, ``dahai`` (with ``tsumogiri``), ``chi`` / ``pon`` /
``daiminkan`` (``target``, ``pai``, ``consumed``), ``ankan`` and ``kakan``, ``dora``, ``reach``
and ``reach_accepted``, ``hora`` (``actor``, ``target``, ``deltas``, ``ura_markers``) and
``ryukyoku`` (``deltas``, optionally riichienv's ``reason``), ``end_kyoku``, ``end_game``; with
three players ``kita`` (riichienv) or ``nukidora`` (Mortal's converter) sets a North aside.

mjai names tiles by kind only (``"5m"``, ``"5mr"`` for a red five, ``"E"``, ``"P"``), so each tile
gets a physical id when it first appears (starting hands, draws, indicators) and keeps it as it
moves through hands, discards and melds; a red five takes id 16, 52 or 88. mjai records no han,
fu or yaku, so a replay checks each win by its deltas (:attr:`RecordedWin.scored` is False).
The rules are not in the log: they come from the preset the replay is given.

A log may end in the middle of a hand (or of a line, when a download was cut off): that hand is
read as far as it goes and replayed up to its last action.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pipeline.replay.record import (
    Call,
    Discard,
    DoraReveal,
    Draw,
    Event,
    RecordedDraw,
    RecordedGame,
    RecordedHand,
    RecordedWin,
    RecordError,
    validate_hand,
)
from pipeline.tiles import RED_FIVE_IDS

_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_WINDS = ("E", "S", "W", "N")
# riichienv's ryukyoku reasons (standard mjai gives none)
_REASONS = {
    "exhaustive_draw": "exhaustive",
    "kyushu_kyuhai": "nine_terminals",
    "sufuurenta": "four_winds",
    "suucha_riichi": "four_riichi",
    "suukansansen": "four_kans",
    "suukaikan": "four_kans",
    "sanchaho": "triple_ron",
    "nagashi_mangan": "nagashi_mangan",
    "nagashimangan": "nagashi_mangan",
}


class _Bad(ValueError):
    """A problem in one event, reported with the file and line."""


def tile_kind(text: Any) -> tuple[int, bool]:
    """(tile type 0-33, red) of an mjai tile name such as ``"5mr"`` or ``"P"``."""
    known = _KINDS.get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    if not isinstance(text, str):
        raise _Bad(f"tile {text!r} is not an mjai tile name")
    if text in _HONORS:
        return 27 + _HONORS.index(text), False
    red = text.endswith("r")
    body = text[:-1] if red else text
    if len(body) != 2 or body[1] not in "mps" or not body[0].isdigit() or body[0] == "0":
        raise _Bad(f"tile {text!r} is not an mjai tile name")
    number = int(body[0])
    if red and number != 5:
        raise _Bad(f"tile {text!r}: only fives are red")
    return "mps".index(body[1]) * 9 + number - 1, red


_KINDS: dict[str, tuple[int, bool]] = {
    **{f"{n}{suit}": (i * 9 + n - 1, False) for i, suit in enumerate("mps") for n in range(1, 10)},
    **{f"5{suit}r": (i * 9 + 4, True) for i, suit in enumerate("mps")},
    **{h: (27 + i, False) for i, h in enumerate(_HONORS)},
}


class _Tiles:
    """Physical ids for mjai tile names, allocated as tiles leave the wall."""

    def __init__(self, seats: int = 4) -> None:
        sanma = seats == 3  # rule S-01: no 2m-8m with three players
        self.free = {t: [] if sanma and 1 <= t <= 7 else [4 * t + k for k in range(4)]
                     for t in range(34)}

    def alloc(self, text: Any) -> int:
        kind, red = tile_kind(text)
        free = self.free[kind]
        reds = [x for x in free if x in RED_FIVE_IDS]
        plain = [x for x in free if x not in RED_FIVE_IDS]
        if red:
            if not reds:
                raise _Bad(f"a second red {text!r} in one hand")
            tile = reds[0]
        elif plain:
            tile = plain[0]
        elif reds:  # a fourth plain five: the set has no red fives
            tile = reds[0]
        else:
            raise _Bad(f"a fifth copy of {text!r} in one hand")
        free.remove(tile)
        return tile


def _matches(tile: int, text: str) -> bool:
    kind, red = tile_kind(text)
    return tile // 4 == kind and (tile in RED_FIVE_IDS) == red


@dataclass
class _Hand:
    """One hand being read: the record so far and each seat's tiles in hand, as ids."""

    start: dict[str, Any]
    round_wind: int
    hand_number: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, ...]
    tiles: _Tiles
    holding: list[list[int]]
    hands: tuple[tuple[int, ...], ...]
    dora: list[int]
    events: list[Event] = field(default_factory=list)
    wins: list[RecordedWin] = field(default_factory=list)
    draw: RecordedDraw | None = None
    pons: list[list[Call]] = field(default_factory=lambda: [[], [], [], []])
    riichi_pending: set[int] = field(default_factory=set)
    drawn: list[int | None] = field(default_factory=lambda: [None] * 4)

    @property
    def seats(self) -> int:
        return len(self.hands)
    last_discard: Discard | None = None
    accepted: list[int] = field(default_factory=list)  # riichi sticks paid (card games)
    picks: tuple[str, ...] = ()  # the characters played (card games)

    def take(self, seat: int, text: str, prefer: int | None = None) -> int:
        """Remove a tile named ``text`` from the seat's hand (``prefer`` that id if it fits)."""
        held = self.holding[seat]
        if prefer is not None and prefer in held and _matches(prefer, text):
            held.remove(prefer)
            return prefer
        for tile in held:
            if _matches(tile, text) and tile != self.drawn[seat]:
                held.remove(tile)
                return tile
        for tile in held:
            if _matches(tile, text):
                held.remove(tile)
                return tile
        raise _Bad(f"P{seat} does not hold {text!r}")

    def build(self) -> RecordedHand:
        return RecordedHand(
            round_wind=self.round_wind, hand_number=self.hand_number, honba=self.honba,
            sticks=self.sticks, dealer=self.dealer, scores=self.scores, hands=self.hands,
            dora_indicators=tuple(self.dora), events=tuple(self.events), wins=tuple(self.wins),
            draw=self.draw, end_scores=self._end_scores())

    def _end_scores(self) -> tuple[int, ...] | None:
        if not self.wins and self.draw is None:
            return None
        deltas = [sum(w.deltas[s] for w in self.wins) + (self.draw.deltas[s] if self.draw
                                                          else 0) for s in range(self.seats)]
        built = RecordedHand(self.round_wind, self.hand_number, self.honba, self.sticks,
                             self.dealer, self.scores, self.hands, tuple(self.dora),
                             tuple(self.events), tuple(self.wins), self.draw, None)
        paid = built.riichi_sticks_paid() if not self.accepted else tuple(self.accepted)
        return tuple(self.scores[s] + deltas[s] - 1000 * paid.count(s)
                     for s in range(self.seats))


def _seat(event: dict[str, Any], key: str = "actor") -> int:
    value = event.get(key)
    if not isinstance(value, int) or not 0 <= value < 4:
        raise _Bad(f"{key} {value!r} is not a seat 0-3")
    return value


def _four_ints(value: Any, what: str, seats: int = 4) -> tuple[int, ...]:
    """One integer per seat (four, or three in a three-player log)."""
    if not isinstance(value, list) or len(value) != seats or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _Bad(f"{what} {value!r} are not {'four' if seats == 4 else 'three'} integers")
    return tuple(value)


def _start(event: dict[str, Any]) -> _Hand:
    bakaze = event.get("bakaze")
    if bakaze not in _WINDS:
        raise _Bad(f"bakaze {bakaze!r} is not E, S, W or N")
    kyoku = event.get("kyoku")
    if not isinstance(kyoku, int) or not 1 <= kyoku <= 4:
        raise _Bad(f"kyoku {kyoku!r} is not 1-4")
    honba, sticks = event.get("honba", 0), event.get("kyotaku", 0)
    if not isinstance(honba, int) or not isinstance(sticks, int) or honba < 0 or sticks < 0:
        raise _Bad("honba or kyotaku is not a count")
    dealer = _seat(event, "oya")
    tehais = event.get("tehais")
    if not isinstance(tehais, list) or len(tehais) not in (3, 4) or any(
            not isinstance(h, list) or len(h) != 13 for h in tehais):
        raise _Bad("tehais is not four (or three) hands of 13 tiles")
    seats = len(tehais)
    scores = _four_ints(event.get("scores"), "scores", seats)
    if any(t == "?" for h in tehais for t in h):
        raise _Bad("tehais hide some tiles ('?'): only logs that show every hand can be replayed")
    if (kyoku - 1) != (dealer - 0) % 4:
        raise _Bad(f"kyoku {kyoku} does not match oya {dealer}")
    tiles = _Tiles(seats)
    holding = [[tiles.alloc(t) for t in h] for h in tehais]
    dora = [tiles.alloc(event.get("dora_marker"))]
    return _Hand(event, _WINDS.index(bakaze), kyoku - 1, honba, sticks, dealer, scores, tiles,
                 holding, tuple(tuple(h) for h in holding), dora)


def _consumed(event: dict[str, Any], size: int) -> list[str]:
    consumed = event.get("consumed")
    if not isinstance(consumed, list) or len(consumed) != size:
        raise _Bad(f"consumed {consumed!r} is not {size} tiles")
    return consumed


def _deltas(hand: _Hand, event: dict[str, Any]) -> tuple[int, int, int, int]:
    """A hora's or ryukyoku's ``deltas``; a log that gives only the ``scores`` after it has
    them worked out (from the hand's start, riichi sticks paid, and earlier wins)."""
    n = hand.seats
    if "deltas" in event or "scores" not in event:
        return _four_ints(event.get("deltas", [0] * n), "deltas", n)
    after = _four_ints(event["scores"], "scores", n)
    paid = [0] * n
    for e in hand.events:
        if isinstance(e, Discard) and e.riichi:
            paid[e.seat] += 1000
    before = [hand.scores[s] - paid[s] + sum(w.deltas[s] for w in hand.wins) for s in range(n)]
    return tuple(after[s] - before[s] for s in range(n))


def _apply(hand: _Hand, event: dict[str, Any]) -> None:
    """One event of a hand, from ``tsumo`` to ``ryukyoku``."""
    kind = event["type"]
    if hand.wins and kind != "hora":
        raise _Bad(f"{kind} after the hand's hora")
    if hand.draw is not None:
        raise _Bad(f"{kind} after the hand's ryukyoku")
    if kind == "tsumo":
        seat = _seat(event)
        tile = hand.tiles.alloc(event.get("pai"))
        hand.holding[seat].append(tile)
        hand.drawn[seat] = tile
        hand.events.append(Draw(seat, tile))
    elif kind == "dahai":
        seat = _seat(event)
        pai = event.get("pai")
        tsumogiri = event.get("tsumogiri")
        prefer = hand.drawn[seat] if tsumogiri else None
        tile = hand.take(seat, pai, prefer)
        riichi = seat in hand.riichi_pending
        hand.riichi_pending.discard(seat)
        discard = Discard(seat, tile, riichi, bool(tsumogiri) if tsumogiri is not None
                          else tile == hand.drawn[seat])
        hand.events.append(discard)
        hand.drawn[seat] = None
        hand.last_discard = discard
    elif kind == "reach":
        hand.riichi_pending.add(_seat(event))
    elif kind == "reach_accepted":
        _seat(event)
    elif kind in ("chi", "pon", "daiminkan"):
        seat, target = _seat(event), _seat(event, "target")
        last = hand.last_discard
        pai = event.get("pai")
        if last is None or last.seat != target or not _matches(last.tile, pai):
            raise _Bad(f"{kind} of {pai!r} from P{target} is not the discard just made")
        size = 3 if kind == "daiminkan" else 2
        taken = [hand.take(seat, t) for t in _consumed(event, size)]
        call = Call(seat, "minkan" if kind == "daiminkan" else kind,
                    tuple(sorted([*taken, last.tile])), last.tile, target)
        if kind == "pon":
            hand.pons[seat].append(call)
        hand.events.append(call)
        hand.drawn[seat] = None
        hand.last_discard = None
    elif kind == "ankan":
        seat = _seat(event)
        taken = [hand.take(seat, t) for t in _consumed(event, 4)]
        hand.events.append(Call(seat, "ankan", tuple(sorted(taken)), None, None))
        hand.drawn[seat] = None
    elif kind in ("kita", "nukidora"):  # three players: a North set aside (S-03); riichienv
        # writes kita, Mortal's three-player converter nukidora
        seat = _seat(event)
        tile = hand.take(seat, event.get("pai"), hand.drawn[seat])
        if tile // 4 != 30:
            raise _Bad(f"kita of {event.get('pai')!r}, not a North")
        hand.events.append(Call(seat, "kita", (tile,), tile, None))
        hand.drawn[seat] = None
    elif kind == "kakan":
        seat = _seat(event)
        pai = event.get("pai")
        kind_type = tile_kind(pai)[0]
        pon = next((m for m in hand.pons[seat] if m.tiles[0] // 4 == kind_type), None)
        if pon is None:
            raise _Bad(f"kakan of {pai!r} without a pon of it")
        added = hand.take(seat, pai, hand.drawn[seat])
        hand.pons[seat].remove(pon)
        hand.events.append(Call(seat, "kakan", tuple(sorted([*pon.tiles, added])), added, None))
        hand.drawn[seat] = None
    elif kind == "dora":
        tile = hand.tiles.alloc(event.get("dora_marker"))
        hand.dora.append(tile)
        if hand.events and isinstance(hand.events[-1], Discard):
            # an open or added kan's indicator, written after the kan player's discard: the
            # model puts it just before that discard, as Tenhou's XML does
            hand.events.insert(len(hand.events) - 1, DoraReveal(tile))
        else:
            hand.events.append(DoraReveal(tile))
    elif kind == "hora":
        seat, target = _seat(event), _seat(event, "target")
        markers = event.get("ura_markers") or []
        if not isinstance(markers, list):
            raise _Bad(f"ura_markers {markers!r} is not a list")
        known = next((w.ura_indicators for w in hand.wins if w.ura_indicators), ())
        ura = known if known and markers else tuple(hand.tiles.alloc(t) for t in markers)
        hand.wins.append(RecordedWin(
            seat=seat, from_seat=target, pao_seat=None, han=0, fu=0, points=0, yakuman=False,
            yaku=(), deltas=_deltas(hand, event), ura_indicators=ura,
            limit="", scored=False))
    elif kind == "ryukyoku":
        deltas = _deltas(hand, event)
        reason = event.get("reason")
        if reason in _REASONS:
            name = _REASONS[reason]
        elif hand.events and isinstance(hand.events[-1], Draw):
            name = "nine_terminals"  # ended on a draw: only nine terminals does that
        else:
            name = ""  # not said (or a reason we do not know): checked through the deltas
        tenpai = tuple(s for s in range(hand.seats) if deltas[s] > 0) \
            if name in ("", "exhaustive") \
            else ()
        hand.draw = RecordedDraw(name, deltas, tenpai)
    else:
        raise _Bad(f"unknown event type {kind!r}")


def _apply_card_game(hand: _Hand, event: dict[str, Any]) -> None:
    """One event of a card game's hand: only riichi sticks and results are kept."""
    kind = event["type"]
    if kind == "reach_accepted":
        hand.accepted.append(_seat(event))
    elif kind in ("hora", "ryukyoku"):
        _apply(hand, event)
    elif kind == "saki_picks":
        hand.picks = tuple(str(p) for p in event.get("picks", ()))


def _lines(data: bytes | str, source: str) -> tuple[list[tuple[int, dict[str, Any]]], bool]:
    """The events of a JSON-lines log with their line numbers, and whether its last line was
    cut off midway (an interrupted write; that line is dropped)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    out: list[tuple[int, dict[str, Any]]] = []
    for i, (n, line) in enumerate(rows):
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            if i == len(rows) - 1 and not text.endswith("\n"):
                return out, True  # the log was cut off in the middle of its last line
            raise RecordError(f"{source}: line {n}: not a JSON event ({exc.msg}); each line "
                              "of an mjai log holds one event") from None
        out.append((n, event))
    return out, False


def parse_mjai(data: bytes | str, source: str = "<mjai>") -> RecordedGame:
    """Parse an mjai JSON-lines log (one event per line) into a RecordedGame."""
    try:
        events, cut = _lines(data, source)
        return game_from_events(events, source, cut=cut)
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source}: not UTF-8 text ({exc.reason})") from None


def parse_mjai_json(data: bytes | str, source: str = "<mjai>") -> RecordedGame:
    """Parse an mjai log saved as one JSON array of events (or as JSON lines in a ``.json``)."""
    try:
        doc = json.loads(data)
    except json.JSONDecodeError:
        return parse_mjai(data, source)
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source}: not UTF-8 text ({exc.reason})") from None
    if not isinstance(doc, list):
        raise RecordError(f"{source}: neither a Tenhou JSON record nor a list of mjai events")
    return game_from_events(list(enumerate(doc, 1)), source, unit="event")


def game_from_events(events: Iterable[tuple[int, Any]], source: str = "<mjai>", *,
                     unit: str = "line", cut: bool = False) -> RecordedGame:
    """A RecordedGame from numbered mjai events (the numbers name the place in errors).

    A log of a card game (with the ``saki_picks`` / ``saki_ability`` events of
    docs/mjai-extension.md) is read for its hands' starting states and results only: abilities
    move tiles in ways plain mjai events do not say, so its tiles are not followed, and the
    game's ``rules`` say ``cards`` (the replayer then checks the chain of scores).
    """
    events = list(events)
    raw: list[list[dict[str, Any]]] = []  # a card game's hands as written, for re-playing
    cards = any(isinstance(e, dict) and str(e.get("type", "")).startswith("saki_")
                for _, e in events)
    players: tuple[str, ...] = ("", "", "", "")
    rules: dict[str, Any] = {"cards": True} if cards else {}
    hands: list[RecordedHand] = []
    current: _Hand | None = None
    ended = False
    final_scores: tuple[int, ...] | None = None
    where = ""

    def finish() -> None:
        nonlocal current
        if current is None:
            return
        built = current.build()
        problem = None if cards else validate_hand(built)
        if problem:
            raise RecordError(f"{source}: hand {len(hands)} ({built.label}): {problem}")
        hands.append(built)
        current = None

    for n, event in events:
        where = f"{unit} {n}"
        try:
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise _Bad("not an mjai event (an object with a 'type')")
            kind = event["type"]
            if ended:
                raise _Bad(f"{kind} after end_game")
            if cards:
                if kind == "start_kyoku":
                    raw.append([])
                if raw and kind not in ("start_game", "end_game"):
                    raw[-1].append(event)
            if kind == "start_game":
                names = event.get("names")
                if isinstance(names, list) and len(names) in (3, 4):
                    players = tuple(str(x) for x in names)
                if isinstance(event.get("aka_flag"), bool):  # Mortal's logs say it
                    rules["red_fives"] = event["aka_flag"]
                seed = event.get("seed")
                if isinstance(seed, list) and all(isinstance(v, int) for v in seed):
                    rules["seed"] = tuple(seed)  # our export: (run seed, match index)
            elif kind == "start_kyoku":
                if current is not None and current.wins == [] and current.draw is None:
                    raise _Bad("start_kyoku before the previous hand's hora or ryukyoku")
                finish()
                current = _start(event)
            elif kind == "end_kyoku":
                if current is None or (not current.wins and current.draw is None):
                    raise _Bad("end_kyoku without a hora or ryukyoku")
                finish()
            elif kind == "end_game":
                finish()
                ended = True
                scores = event.get("scores")
                if scores is not None:
                    final_scores = _four_ints(scores, "end_game scores",
                                              len(scores) if isinstance(scores, list)
                                              and len(scores) == 3 else 4)
            elif current is None:
                raise _Bad(f"{kind} outside a hand (no start_kyoku before it)")
            else:
                if cards:
                    _apply_card_game(current, event)
                else:
                    _apply(current, event)
        except RecordError:
            raise
        except _Bad as exc:
            raise RecordError(f"{source}: {where}: {exc}") from None
        except (TypeError, KeyError, ValueError) as exc:
            raise RecordError(f"{source}: {where}: malformed event ({exc})") from None
    if current is not None and current.wins and not current.wins[-1].tsumo:
        # the log stops after a ron but before end_kyoku: another ron on the same discard
        # may have been cut off, so the hand's result is not known
        current.wins = []
    finish()  # a hand the log stops in the middle of: read as far as it goes
    if not hands:
        raise RecordError(f"{source}: no hands (start_kyoku events) in the log")
    if cards:
        rules["mjai_hands"] = tuple(tuple(h) for h in raw)
    return RecordedGame(source=source, players=players, rules=rules, hands=tuple(hands),
                        final_scores=final_scores, final_results=None, ended=ended,
                        cut=cut and not ended)
