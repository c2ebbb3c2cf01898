"""Tenhou JSON ("log" format of Tenhou's web viewer) records into the neutral record model.

The JSON keeps, per seat, a list of what the seat took (wall draws and calls) and a list of what
it let go (discards, kans), but not the global order, and it names tiles by type code only. Both
are rebuilt here:

* Order: the table is replayed turn by turn. After each discard the next actor is either a seat
  whose next take is a call on exactly that tile from exactly that discarder, or the next seat
  drawing. A seat can pass a tile and claim a later copy, so this choice is searched with
  backtracking (pon/kan before chi before no call) until every seat's lists are used up exactly
  and the hand ends the way its result says.
* Identity: each tile gets a physical id when it leaves the wall (starting hands, indicators,
  draws; red fives take ids 16, 52, 88) and then keeps it through hands, discards and melds.
* Kan dora: a concealed kan reveals its indicator at once; an open or added kan reveals it just
  before the kanning seat's next discard, or when the next kan is made, as in Tenhou's XML.

A three-player record keeps the four-seat layout with the fourth seat empty (its hand, draws
and discards are empty lists, its score and deltas 0); a North set aside is ``"f44"`` among
the seat's discards, followed by its replacement draw (rule S-03).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
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
    tenhou_log_date,
    validate_hand,
)

RED_CODES = {51: 4, 52: 13, 53: 22}
TSUMOGIRI = 60
NORTH = 44
_KAMICHA, _TOIMEN, _SHIMOCHA = 3, 2, 1  # seat offsets of the left, opposite, right players
# Position of the call letter in a call string -> offset of the source seat from the caller.
_SOURCE_BY_POSITION = {
    "c": {0: _KAMICHA},
    "p": {0: _KAMICHA, 2: _TOIMEN, 4: _SHIMOCHA},
    "m": {0: _KAMICHA, 2: _TOIMEN, 6: _SHIMOCHA},
}
_CALL_KINDS = {"c": "chi", "p": "pon", "m": "minkan"}
_DRAW_NAMES = {
    "流局": "exhaustive",
    "全員聴牌": "exhaustive",
    "全員不聴": "exhaustive",
    "流し満貫": "nagashi_mangan",
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四家立直": "four_riichi",
    "四槓散了": "four_kans",
    "三家和了": "triple_ron",
}
_LIMITS = {"満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman",
           "役満": "yakuman", "数え役満": "yakuman"}
_SCORE = re.compile(
    r"^(?:(?P<fu>\d+)符)?(?:(?P<han>\d+)飜)?(?P<limit>数え役満|三倍満|倍満|跳満|満貫|役満)?"
    r"(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?$"
)
_YAKU = re.compile(r"^(?P<name>.+?)\((?:(?P<han>\d+)飜|(?P<yakuman>役満))\)$")


class _Bad(Exception):
    """A problem inside one hand; turned into a RecordError naming file and hand."""


def code_type(code: Any) -> int:
    """Tile type 0-33 of a Tenhou JSON tile code (11-19, 21-29, 31-39, 41-47, 51-53)."""
    if isinstance(code, bool) or not isinstance(code, int):
        raise _Bad(f"tile code {code!r} is not a number")
    if code in RED_CODES:
        return RED_CODES[code]
    suit, number = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= number <= 9:
        return (suit - 1) * 9 + number - 1
    if suit == 4 and 1 <= number <= 7:
        return 27 + number - 1
    raise _Bad(f"bad tile code {code!r}")


def _codes(text: str) -> list[int]:
    if len(text) % 2 or (text and not text.isdigit()):
        raise _Bad(f"bad tile codes {text!r}")
    codes = [int(text[i:i + 2]) for i in range(0, len(text), 2)]
    for code in codes:
        code_type(code)
    return codes


@dataclass(frozen=True)
class _Take:
    kind: str  # "draw", "chi", "pon", "minkan"
    code: int  # the drawn or called tile
    others: tuple[int, ...] = ()  # codes taken from the caller's hand
    source: int = 0  # offset of the source seat from the caller


@dataclass(frozen=True)
class _Give:
    kind: str  # "discard", "skip" (placeholder after an open kan), "kakan", "ankan", "kita"
    code: int | None = None  # None for a tsumogiri discard; 44 (North) for a kita
    riichi: bool = False
    codes: tuple[int, ...] = ()  # kakan: the added tile first; ankan: all four


def _parse_take(entry: Any) -> _Take:
    if isinstance(entry, int) and not isinstance(entry, bool):
        code_type(entry)
        return _Take("draw", entry)
    if not isinstance(entry, str):
        raise _Bad(f"draw entry {entry!r} is neither a tile nor a call")
    letters = [(i, ch) for i, ch in enumerate(entry) if not ch.isdigit()]
    if len(letters) != 1 or letters[0][1] not in _CALL_KINDS:
        raise _Bad(f"bad call {entry!r}")
    pos, letter = letters[0]
    if pos not in _SOURCE_BY_POSITION[letter]:
        raise _Bad(f"call {entry!r}: letter {letter!r} at an unknown position {pos}")
    before, after = _codes(entry[:pos]), _codes(entry[pos + 1:])
    if not after:
        raise _Bad(f"call {entry!r} names no called tile")
    others = tuple(before + after[1:])
    if len(others) != (3 if letter == "m" else 2):
        raise _Bad(f"call {entry!r} has the wrong number of tiles")
    if letter != "c" and len({code_type(c) for c in (after[0], *others)}) != 1:
        raise _Bad(f"call {entry!r} mixes tile types")
    return _Take(_CALL_KINDS[letter], after[0], others, _SOURCE_BY_POSITION[letter][pos])


def _parse_give(entry: Any) -> _Give:
    if isinstance(entry, int) and not isinstance(entry, bool):
        if entry == 0:
            return _Give("skip")
        if entry == TSUMOGIRI:
            return _Give("discard")
        code_type(entry)
        return _Give("discard", entry)
    if not isinstance(entry, str) or not entry:
        raise _Bad(f"discard entry {entry!r} is neither a tile nor a kan")
    if entry[0] == "f":  # three players: a North set aside (S-03)
        if entry != f"f{NORTH}":
            raise _Bad(f"kita entry {entry!r} sets aside something else than a North (f44)")
        return _Give("kita", NORTH)
    if entry[0] == "r":
        code = int(entry[1:]) if entry[1:].isdigit() else -1
        if code == TSUMOGIRI:
            return _Give("discard", None, riichi=True)
        code_type(code if code >= 0 else entry)
        return _Give("discard", code, riichi=True)
    letters = [(i, ch) for i, ch in enumerate(entry) if not ch.isdigit()]
    if len(letters) != 1 or letters[0][1] not in "ka":
        raise _Bad(f"bad discard entry {entry!r}")
    pos, letter = letters[0]
    before, after = _codes(entry[:pos]), _codes(entry[pos + 1:])
    if len(before) + len(after) != 4 or not after:
        raise _Bad(f"kan {entry!r} is not four tiles")
    if len({code_type(c) for c in before + after}) != 1:
        raise _Bad(f"kan {entry!r} mixes tile types")
    if letter == "k":
        return _Give("kakan", codes=(after[0], *before, *after[1:]))
    return _Give("ankan", codes=tuple(before + after))


@dataclass(frozen=True)
class _Ending:
    """How the hand must end: "take" (tsumo, nine terminals), "discard" or "any"."""

    kind: str
    seat: int | None


def _order(
    takes: list[list[_Take]], gives: list[list[_Give]], dealer: int, ending: _Ending,
    seats: int = 4,
) -> list[tuple[str, int]]:
    """Global order of the seats' takes and gives, as ("take"|"give", seat) steps; the turn
    goes round ``seats`` players."""
    failed: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()

    def done(ti: list[int], di: list[int]) -> bool:
        return all(ti[s] == len(takes[s]) and di[s] == len(gives[s]) for s in range(seats))

    def ends_ok(kind: str, seat: int) -> bool:
        if ending.kind == "any":
            return True
        if ending.kind != kind:
            return False
        return ending.seat is None or ending.seat == seat

    def explore(
        actor: int, mode: str, ti_in: list[int], di_in: list[int]
    ) -> list[tuple[str, int]] | None:
        ti, di = list(ti_in), list(di_in)
        steps: list[tuple[str, int]] = []
        while True:
            if mode != "give":
                if ti[actor] >= len(takes[actor]):
                    if mode == "draw" and done(ti, di) and ends_ok(
                            "discard", (actor + seats - 1) % seats):
                        return steps
                    return None
                take = takes[actor][ti[actor]]
                if (take.kind == "draw") == (mode == "claim"):
                    return None
                ti[actor] += 1
                steps.append(("take", actor))
                mode = "give"
                continue
            last = takes[actor][ti[actor] - 1]
            if di[actor] >= len(gives[actor]):
                ok = last.kind != "minkan" and done(ti, di) and ends_ok("take", actor)
                return steps if ok else None
            give = gives[actor][di[actor]]
            if (give.kind == "skip") != (last.kind == "minkan"):
                return None
            di[actor] += 1
            steps.append(("give", actor))
            if give.kind in ("skip", "kakan", "ankan", "kita"):
                if give.kind != "skip" and ti[actor] >= len(takes[actor]):
                    return steps if done(ti, di) and ends_ok("discard", actor) else None
                mode = "rinshan"
                continue
            if give.code is None and last.kind != "draw":
                return None
            code = last.code if give.code is None else give.code
            callers = []
            for seat in range(seats):
                if seat == actor or ti[seat] >= len(takes[seat]):
                    continue
                claim = takes[seat][ti[seat]]
                if claim.kind == "draw" or claim.code != code:
                    continue
                if (seat + claim.source) % 4 == actor:
                    callers.append((claim.kind == "chi", seat))
            if not callers:
                actor, mode = (actor + 1) % seats, "draw"
                continue
            key = (actor, tuple(ti), tuple(di))
            if key in failed:
                return None
            for _, seat in sorted(callers):
                rest = explore(seat, "claim", ti, di)
                if rest is not None:
                    return steps + rest
            rest = explore((actor + 1) % seats, "draw", ti, di)
            if rest is not None:
                return steps + rest
            failed.add(key)
            return None

    result = explore(dealer, "draw", [0] * 4, [0] * 4)
    if result is None:
        raise _Bad("no order of draws and calls uses every seat's entries and ends as recorded")
    return result


class _Tiles:
    """Physical ids for tile codes: allocated once per hand and then followed through hands."""

    def __init__(self, red_fives: bool) -> None:
        self.red_fives = red_fives
        self.code_of: dict[int, int] = {}

    def alloc(self, code: int) -> int:
        t = code_type(code)
        if code in RED_CODES:
            candidates = [t * 4]
        elif t in RED_CODES.values():
            candidates = [t * 4 + 1, t * 4 + 2, t * 4 + 3] + ([] if self.red_fives else [t * 4])
        else:
            candidates = [t * 4 + k for k in range(4)]
        for tile in candidates:
            if tile not in self.code_of:
                self.code_of[tile] = code
                return tile
        raise _Bad(f"more copies of tile {code} than exist")

    def take(self, hand: list[int], code: int, avoid: int | None = None,
             prefer: int | None = None) -> int:
        """Remove a tile of ``code`` from ``hand``, preferring ``prefer`` if it is one, else
        one other than ``avoid``."""
        matches = [t for t in hand if self.code_of[t] == code]
        if not matches:
            raise _Bad(f"tile {code} is not in the hand")
        preferred = [prefer] if prefer in matches else \
            [t for t in matches if t != avoid] or matches
        hand.remove(preferred[0])
        return preferred[0]


def _build_events(
    takes: list[list[_Take]],
    gives: list[list[_Give]],
    steps: list[tuple[str, int]],
    tiles: _Tiles,
    hands: list[list[int]],
    indicators: list[int],
) -> list[Event]:
    events: list[Event] = []
    ti, di = [0] * 4, [0] * 4
    last_draw: list[int | None] = [None] * 4
    melds: list[list[Call]] = [[], [], [], []]
    revealed = 1
    pending = 0

    def reveal(count: int) -> None:
        nonlocal revealed
        for _ in range(count):
            if revealed >= len(indicators):
                raise _Bad("more kan dora reveals than recorded dora indicators")
            events.append(DoraReveal(indicators[revealed]))
            revealed += 1

    for step_index, (what, seat) in enumerate(steps):
        hand = hands[seat]
        try:
            if what == "take":
                take = takes[seat][ti[seat]]
                ti[seat] += 1
                if take.kind == "draw":
                    tile = tiles.alloc(take.code)
                    hand.append(tile)
                    last_draw[seat] = tile
                    events.append(Draw(seat, tile))
                    continue
                previous = events[-1] if events else None
                if not isinstance(previous, Discard):
                    raise _Bad("a call that does not follow a discard")
                used = [tiles.take(hand, code) for code in take.others]
                meld = tuple(sorted([previous.tile, *used]))
                call = Call(seat, take.kind, meld, previous.tile, previous.seat)
                melds[seat].append(call)
                events.append(call)
                last_draw[seat] = None
                if take.kind == "minkan":
                    reveal(pending)
                    pending = 1
                continue
            give = gives[seat][di[seat]]
            di[seat] += 1
            if give.kind == "skip":
                continue
            if give.kind == "kakan":
                pons = [m for m in melds[seat] if m.kind == "pon"
                        and m.tiles[0] // 4 == code_type(give.codes[0])]
                if not pons:
                    raise _Bad(f"added kan of {give.codes[0]} without a pon of it")
                added = tiles.take(hand, give.codes[0])
                melds[seat].remove(pons[0])
                call = Call(seat, "kakan", tuple(sorted([*pons[0].tiles, added])), added, None)
                melds[seat].append(call)
                events.append(call)
                if step_index + 1 < len(steps):
                    reveal(pending)
                    pending = 1
            elif give.kind == "kita":  # a North set aside: no indicator turns over (S-03)
                tile = tiles.take(hand, NORTH, prefer=last_draw[seat])
                events.append(Call(seat, "kita", (tile,), tile, None))
            elif give.kind == "ankan":
                used = [tiles.take(hand, code) for code in give.codes]
                call = Call(seat, "ankan", tuple(sorted(used)), None, None)
                melds[seat].append(call)
                events.append(call)
                if step_index + 1 < len(steps):
                    reveal(pending + 1)
                    pending = 0
            else:
                if give.code is None:
                    tile = last_draw[seat]
                    if tile is None or tile not in hand:
                        raise _Bad("tsumogiri without a drawn tile")
                    hand.remove(tile)
                else:
                    tile = tiles.take(hand, give.code, avoid=last_draw[seat])
                reveal(pending)
                pending = 0
                events.append(Discard(seat, tile, give.riichi, tile == last_draw[seat]))
            last_draw[seat] = None
        except _Bad as exc:
            raise _Bad(f"event {len(events)} (seat {seat} {what}): {exc}") from None
    if revealed != len(indicators):
        raise _Bad(f"{len(indicators)} dora indicators recorded but {revealed} revealed")
    return events


def _parse_score(text: str, han_from_yaku: int, seats: int = 4) -> tuple[int, int, int, str]:
    """(fu, han, points, limit) from a result string such as ``30符2飜500-1000点``; the points
    are what the winner collects before honba and sticks: a tsumo is paid by the other
    ``seats - 1`` players (with three, the missing seat's share is lost, rule S-06)."""
    m = _SCORE.match(text)
    if not m:
        raise _Bad(f"unreadable score {text!r}")
    fu = int(m["fu"] or 0)
    han = int(m["han"]) if m["han"] else han_from_yaku
    a = int(m["a"])
    if m["b"]:
        points = (seats - 2) * a + int(m["b"])
    elif m["all"]:
        points = (seats - 1) * a
    else:
        points = a
    return fu, han, points, _LIMITS.get(m["limit"] or "", "")


def _parse_yaku(entry: Any) -> tuple[str, int, bool]:
    m = _YAKU.match(entry) if isinstance(entry, str) else None
    if not m:
        raise _Bad(f"unreadable yaku {entry!r}")
    if m["yakuman"]:
        return m["name"], 13, True
    return m["name"], int(m["han"]), False


def _deltas(value: Any, seats: int) -> tuple[int, ...]:
    """A result's score changes, one per seat (a three-player record from Tenhou writes a 0 for
    the empty fourth seat; some converters write three)."""
    if not isinstance(value, list) or len(value) not in (4, seats) or \
            not all(isinstance(v, int) for v in value):
        raise _Bad(f"score changes {value!r} are not one integer a seat")
    if seats == 3 and len(value) == 4 and value[3]:
        raise _Bad(f"score changes {value!r} pay the empty fourth seat of a three-player game")
    return tuple(value[:seats])


def _result(
    result: Any, riichi_seats: set[int], ura: tuple[int, ...], seats: int
) -> tuple[list[RecordedWin], RecordedDraw | None, _Ending]:
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise _Bad(f"result {result!r} is not a named result")
    name = result[0]
    if name == "和了":
        if len(result) < 3 or len(result) % 2 == 0:
            raise _Bad("win result is not pairs of score changes and win details")
        wins = []
        for i in range(1, len(result), 2):
            deltas, info = _deltas(result[i], seats), result[i + 1]
            if not isinstance(info, list) or len(info) < 3:
                raise _Bad(f"win details {info!r} lack winner, source and pao")
            who, source, pao = info[0], info[1], info[2]
            if not all(isinstance(v, int) and 0 <= v < seats for v in (who, source, pao)):
                raise _Bad(f"win details {info!r} have bad seats")
            yaku_parsed = [_parse_yaku(y) for y in info[4:]]
            yaku = tuple((n, h) for n, h, _ in yaku_parsed)
            yakuman = any(y for _, _, y in yaku_parsed)
            han_sum = sum(h for _, h in yaku)
            if len(info) > 3:
                fu, han, points, limit = _parse_score(info[3], han_sum, seats)
            else:
                fu, han, points, limit = 0, han_sum, 0, ""
            wins.append(RecordedWin(
                seat=who,
                from_seat=source,
                pao_seat=None if pao == who else pao,
                han=han,
                fu=fu,
                points=points,
                yakuman=yakuman,
                yaku=yaku,
                deltas=deltas,
                ura_indicators=ura if who in riichi_seats else (),
                limit=limit,
            ))
        first = wins[0]
        if first.tsumo:
            return wins, None, _Ending("take", first.seat)
        return wins, None, _Ending("discard", first.from_seat)
    if name not in _DRAW_NAMES:
        raise _Bad(f"unknown result {name!r}")
    kind = _DRAW_NAMES[name]
    deltas = _deltas(result[1], seats) if len(result) > 1 else (0,) * seats
    if name == "全員聴牌":
        tenpai: tuple[int, ...] = tuple(range(seats))
    elif kind == "exhaustive":
        tenpai = tuple(s for s in range(seats) if deltas[s] > 0)
    else:
        tenpai = ()
    ending = _Ending("take" if kind == "nine_terminals" else "discard", None)
    return [], RecordedDraw(kind, deltas, tenpai), ending


def _riichi_seats(gives: list[list[_Give]]) -> set[int]:
    return {s for s, seat_gives in enumerate(gives) if any(g.riichi for g in seat_gives)}


def _parse_hand(entry: Any, red_fives: bool, last: bool = False, seats: int = 4
                ) -> RecordedHand:
    """One hand entry of a game of ``seats`` players; the last hand of a record may stop
    midway (16 items, or an empty result), and is then read as far as it goes
    (:attr:`RecordedHand.complete`)."""
    if isinstance(entry, list) and len(entry) == 16:
        entry = [*entry, []]
    if not isinstance(entry, list) or len(entry) != 17:
        raise _Bad("hand entry is not 17 items long")
    if entry[16] in ([], None) and not last:
        raise _Bad("hand has no result but another hand follows")
    meta, scores, dora, ura = entry[0], entry[1], entry[2], entry[3]
    if not (isinstance(meta, list) and len(meta) == 3 and all(isinstance(v, int) for v in meta)):
        raise _Bad(f"round info {meta!r} is not [round, honba, sticks]")
    if not (isinstance(scores, list) and len(scores) in (4, seats)):
        raise _Bad(f"scores {scores!r} are not one number a seat")
    if seats == 3 and (scores[3:] not in ([], [0]) or entry[13] or entry[14] or entry[15]):
        raise _Bad("the empty fourth seat of a three-player game has points or tiles")
    if not isinstance(dora, list) or not dora or not isinstance(ura, list):
        raise _Bad("dora or ura indicator lists are missing")
    round_index, honba, sticks = meta
    dealer = round_index % 4
    starting = [entry[4 + 3 * s] for s in range(seats)]
    if any(not isinstance(h, list) or len(h) != 13 for h in starting):
        raise _Bad("a starting hand is not 13 tiles")
    takes, gives = [], []
    for s in range(seats):
        t, g = entry[5 + 3 * s], entry[6 + 3 * s]
        if not isinstance(t, list) or not isinstance(g, list):
            raise _Bad(f"seat {s} draws or discards are not lists")
        takes.append([_parse_take(x) for x in t])
        gives.append([_parse_give(x) for x in g])

    riichi = _riichi_seats(gives)
    tiles = _Tiles(red_fives)
    hands = [[tiles.alloc(code) for code in starting[s]] for s in range(seats)]
    start_hands = tuple(tuple(h) for h in hands)
    indicators = [tiles.alloc(code) for code in dora]
    ura_ids = tuple(tiles.alloc(code) for code in ura)
    if entry[16] in ([], None):
        wins, draw, ending = [], None, _Ending("any", None)
    else:
        wins, draw, ending = _result(entry[16], riichi, ura_ids, seats)
    if dealer >= seats:
        raise _Bad(f"round {round_index} has dealer seat {dealer} in a {seats}-player game")
    steps = _order(takes, gives, dealer, ending, seats)
    events = _build_events(takes, gives, steps, tiles, hands, indicators)

    hand = RecordedHand(
        round_wind=round_index // 4,
        hand_number=round_index % 4,
        honba=honba,
        sticks=sticks,
        dealer=dealer,
        scores=tuple(int(v) for v in scores[:seats]),
        hands=start_hands,
        dora_indicators=tuple(indicators),
        events=tuple(events),
        wins=tuple(wins),
        draw=draw,
        end_scores=None,
    )
    deltas = [sum(w.deltas[s] for w in wins) + (draw.deltas[s] if draw else 0)
              for s in range(seats)]
    paid = hand.riichi_sticks_paid()
    end = tuple(hand.scores[s] + deltas[s] - 1000 * paid.count(s) for s in range(seats))
    return replace(hand, end_scores=end)


def _rules(rule: Any, names: Any) -> dict[str, Any]:
    rule = rule if isinstance(rule, dict) else {}
    disp = str(rule.get("disp", ""))
    aka_keys = [k for k in ("aka", "aka51", "aka52", "aka53") if k in rule]
    if aka_keys:
        red = any(bool(rule[k]) for k in aka_keys)
    else:
        red = "赤" in disp or not disp
    japanese = any(ch in disp for ch in "東南喰赤般上特鳳技若")
    if "南" in disp or "South" in disp:
        length = "hanchan"
    elif "東" in disp or "East" in disp:
        length = "tonpuusen"
    else:
        length = "hanchan"
    three = "三" in disp or (isinstance(names, list) and len(names) == 3)
    return {
        "red_fives": red,
        "kuitan": "喰" in disp if japanese else True,
        "length": length,
        "three_player": three,
        "disp": disp,
    }


def _shows_no_red_fives(log: list[Any]) -> bool:
    """True when some hand has four plain copies of a five and no hand has a red five.

    Such a record cannot come from a red-five set (only three plain fives per suit exist), so it
    is read as a game without red fives whatever its rule flags say.
    """
    any_red = False
    four_plain = False
    for entry in log:
        if not isinstance(entry, list) or len(entry) != 17:
            continue
        counts: dict[int, int] = {}
        lists = [entry[2], entry[3], *(entry[4 + 3 * s] for s in range(4))]
        lists += [entry[5 + 3 * s] for s in range(4)]
        for values in lists:
            for v in values if isinstance(values, list) else []:
                if isinstance(v, int):
                    counts[v] = counts.get(v, 0) + 1
        any_red = any_red or any(counts.get(code, 0) for code in RED_CODES)
        four_plain = four_plain or any(counts.get(code, 0) >= 4 for code in (15, 25, 35))
    return four_plain and not any_red


def parse_tenhou_json(data: bytes | str, source: str = "<json>") -> RecordedGame:
    """Parse a Tenhou JSON game record (four or three players) into a RecordedGame."""
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{source}: not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list) or not doc["log"]:
        raise RecordError(f"{source}: no 'log' list of hands")
    rules = _rules(doc.get("rule"), doc.get("name"))
    if rules["red_fives"] and _shows_no_red_fives(doc["log"]):
        rules["red_fives"] = False
    dealt = {3 if isinstance(entry, list) and len(entry) > 13 and entry[13] == [] else 4
             for entry in doc["log"]}
    if len(dealt) > 1:
        raise RecordError(f"{source}: some hands deal three players and some four")
    seats = dealt.pop()
    if rules["three_player"] and seats == 4:
        raise RecordError(f"{source}: the rule {rules['disp']!r} is a three-player one but the "
                          "hands deal four players")
    rules["three_player"] = seats == 3
    del rules["disp"]
    played_on = tenhou_log_date(str(doc.get("ref") or "")) or tenhou_log_date(source)
    if played_on is not None:
        rules["date"] = played_on
    hands = []
    for index, entry in enumerate(doc["log"]):
        try:
            hand = _parse_hand(entry, rules["red_fives"], last=index == len(doc["log"]) - 1,
                               seats=seats)
        except RecordError:
            raise
        except _Bad as exc:
            raise RecordError(f"{source}: hand {index}{_label(entry)}: {exc}") from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
            detail = f"malformed entry ({type(exc).__name__}: {exc})"
            raise RecordError(f"{source}: hand {index}{_label(entry)}: {detail}") from None
        problem = validate_hand(hand)
        if problem:
            raise RecordError(f"{source}: hand {index} ({hand.label}): {problem}")
        hands.append(hand)
    names = doc.get("name")
    players = tuple(str(n) for n in names)[:seats] if isinstance(names, list) else \
        ("",) * seats
    final_scores = final_results = None
    sc = doc.get("sc")
    if isinstance(sc, list) and len(sc) in (8, 2 * seats) and \
            all(isinstance(v, int | float) for v in sc):
        final_scores = tuple(int(v) for v in sc[0:2 * seats:2])
        final_results = tuple(float(v) for v in sc[1:2 * seats:2])
    return RecordedGame(
        source=source,
        players=players,
        rules=rules,
        hands=tuple(hands),
        final_scores=final_scores,
        final_results=final_results,
    )


def _label(entry: Any) -> str:
    try:
        round_index, honba = int(entry[0][0]), int(entry[0][1])
    except (TypeError, ValueError, IndexError, KeyError):
        return ""
    return f" ({'ESWN'[round_index // 4 % 4]}{round_index % 4 + 1}-{honba})"
