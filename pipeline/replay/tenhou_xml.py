"""Tenhou mjlog XML records into the neutral record model.

The XML is a flat stream of tags in play order with physical tile ids, so the events come out
in order directly; the work is decoding the 16-bit call codes and collecting each hand's result.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from pipeline.replay.record import (
    LIMIT_NAMES,
    TENHOU_YAKU,
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
    gunzip,
    tenhou_log_date,
    validate_hand,
)

_DRAW_TAG = re.compile(r"^([TUVW])(\d+)$")
_DISCARD_TAG = re.compile(r"^([DEFG])(\d+)$")
_ABORT_TYPES = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "reach4": "four_riichi",
    "kan4": "four_kans",
    "ron3": "triple_ron",
    "nm": "nagashi_mangan",
}
# GO type bits (Tenhou): room and rule flags.
_GO_NO_RED = 0x02
_GO_NO_KUITAN = 0x04
_GO_HANCHAN = 0x08
_GO_THREE_PLAYER = 0x10


def decode_meld(who: int, m: int) -> Call:
    """Decode Tenhou's 16-bit call code ``m`` made by seat ``who`` into a :class:`Call`."""
    source = m & 3
    from_seat = (who + source) % 4
    if m & 0x4:
        t = m >> 10
        called_index = t % 3
        t //= 3
        base = (t // 7) * 9 + t % 7
        tiles = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return Call(who, "chi", tuple(sorted(tiles)), tiles[called_index], from_seat)
    if m & 0x18:
        t = m >> 9
        called_index = t % 3
        kind = t // 3
        left_out = (m >> 5) & 3
        pon = [kind * 4 + k for k in range(4) if k != left_out]
        if m & 0x8:
            return Call(who, "pon", tuple(pon), pon[called_index], from_seat)
        added = kind * 4 + left_out
        return Call(who, "kakan", tuple(range(kind * 4, kind * 4 + 4)), added, None)
    tile = m >> 8
    if m & 0x20:  # three players: a North set aside (rule S-03)
        if tile // 4 != 30:
            raise ValueError(f"kita code {m} sets aside tile {tile}, not a North")
        return Call(who, "kita", (tile,), tile, None)
    kind = tile // 4
    tiles = tuple(range(kind * 4, kind * 4 + 4))
    if source == 0:
        return Call(who, "ankan", tiles, None, None)
    return Call(who, "minkan", tiles, tile, from_seat)


def _ints(text: str | None) -> list[int]:
    if not text:
        return []
    return [int(float(x)) for x in text.split(",")]


def _yaku(attrib: dict[str, str]) -> tuple[tuple[tuple[str, int], ...], bool]:
    def name(yaku_id: int) -> str:
        if not 0 <= yaku_id < len(TENHOU_YAKU):
            raise ValueError(f"unknown yaku id {yaku_id}")
        return TENHOU_YAKU[yaku_id][0]

    if attrib.get("yakuman"):
        return tuple((name(i), 13) for i in _ints(attrib["yakuman"])), True
    pairs = _ints(attrib.get("yaku"))
    if len(pairs) % 2:
        raise ValueError("yaku list has an odd number of values")
    return tuple((name(pairs[i]), pairs[i + 1]) for i in range(0, len(pairs), 2)), False


def _score_pairs(attrib: dict[str, str], seats: int) -> tuple[list[int], tuple[int, ...]]:
    """Scores before and deltas of a result; a three-player record writes a fourth pair of
    zeros for the empty seat."""
    sc = _ints(attrib.get("sc"))
    if len(sc) != 8:
        raise ValueError("sc does not hold four score/delta pairs")
    if seats == 3 and (sc[6] or sc[7]):
        raise ValueError("sc gives points to the empty fourth seat of a three-player record")
    return [v * 100 for v in sc[0:2 * seats:2]], tuple(v * 100 for v in sc[1:2 * seats:2])


@dataclass
class _HandBuilder:
    round_index: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    dora: list[int]
    events: list[Event] = field(default_factory=list)
    wins: list[RecordedWin] = field(default_factory=list)
    draw: RecordedDraw | None = None
    end_scores: tuple[int, ...] | None = None
    riichi_pending: set[int] = field(default_factory=set)
    last_draw: list[int | None] = field(default_factory=lambda: [None] * 4)

    def build(self) -> RecordedHand:
        return RecordedHand(
            round_wind=self.round_index // 4,
            hand_number=self.round_index % 4,
            honba=self.honba,
            sticks=self.sticks,
            dealer=self.dealer,
            scores=self.scores,
            hands=self.hands,
            dora_indicators=tuple(self.dora),
            events=tuple(self.events),
            wins=tuple(self.wins),
            draw=self.draw,
            end_scores=self.end_scores,
        )


def _init(attrib: dict[str, str], three_player: bool | None) -> _HandBuilder:
    """A hand's start; ``three_player`` is what the GO type says (None: no GO tag, so an empty
    ``hai3`` tells)."""
    seed = _ints(attrib.get("seed"))
    if len(seed) != 6:
        raise ValueError("INIT seed is not six values")
    scores = tuple(v * 100 for v in _ints(attrib.get("ten")))
    if len(scores) != 4:
        raise ValueError("INIT ten is not four scores")
    hands = tuple(tuple(_ints(attrib.get(f"hai{s}"))) for s in range(4))
    seats = 3 if not hands[3] else 4
    if three_player is not None and three_player != (seats == 3):
        raise ValueError(f"INIT deals {seats} hands but the GO type says "
                         f"{'three' if three_player else 'four'} players")
    if seats == 3 and scores[3]:
        raise ValueError("INIT ten gives points to the empty fourth seat")
    hands, scores = hands[:seats], scores[:seats]
    if any(len(h) != 13 for h in hands):
        raise ValueError("a starting hand is not 13 tiles")
    return _HandBuilder(
        round_index=seed[0],
        honba=seed[1],
        sticks=seed[2],
        dealer=int(attrib["oya"]),
        scores=scores,
        hands=hands,
        dora=[seed[5]],
    )


def _agari(attrib: dict[str, str], hand: _HandBuilder) -> RecordedWin:
    ten = _ints(attrib.get("ten"))
    if len(ten) != 3:
        raise ValueError("AGARI ten is not fu,points,limit")
    yaku, yakuman = _yaku(attrib)
    scores, deltas = _score_pairs(attrib, len(hand.hands))
    hand.end_scores = tuple(s + d for s, d in zip(scores, deltas, strict=True))
    pao = attrib.get("paoWho")
    limit = LIMIT_NAMES[ten[2]] if 0 <= ten[2] < len(LIMIT_NAMES) else f"limit{ten[2]}"
    return RecordedWin(
        seat=int(attrib["who"]),
        from_seat=int(attrib["fromWho"]),
        pao_seat=int(pao) if pao is not None else None,
        han=sum(h for _, h in yaku),
        fu=ten[0],
        points=ten[1],
        yakuman=yakuman,
        yaku=yaku,
        deltas=deltas,
        ura_indicators=tuple(_ints(attrib.get("doraHaiUra"))),
        limit=limit,
        hand=tuple(_ints(attrib.get("hai"))),
    )


def _ryuukyoku(attrib: dict[str, str], hand: _HandBuilder) -> RecordedDraw:
    kind_attr = attrib.get("type")
    if kind_attr is not None and kind_attr not in _ABORT_TYPES:
        raise ValueError(f"unknown RYUUKYOKU type {kind_attr!r}")
    kind = _ABORT_TYPES.get(kind_attr or "", "exhaustive")
    scores, deltas = _score_pairs(attrib, len(hand.hands))
    hand.end_scores = tuple(s + d for s, d in zip(scores, deltas, strict=True))
    shown = tuple(s for s in range(len(hand.hands)) if f"hai{s}" in attrib)
    tenpai = shown if kind in ("exhaustive", "nagashi_mangan") else ()
    return RecordedDraw(kind, deltas, tenpai)


def _rules(go_type: int | None) -> dict[str, Any]:
    if go_type is None:
        return {"red_fives": True, "kuitan": True, "length": "hanchan", "three_player": False}
    return {
        "red_fives": not go_type & _GO_NO_RED,
        "kuitan": not go_type & _GO_NO_KUITAN,
        "length": "hanchan" if go_type & _GO_HANCHAN else "tonpuusen",
        "three_player": bool(go_type & _GO_THREE_PLAYER),
    }


def parse_tenhou_xml(data: bytes | str, source: str = "<xml>") -> RecordedGame:
    """Parse a Tenhou mjlog (XML text, optionally gzip-compressed) into a RecordedGame."""
    if isinstance(data, bytes) and data[:2] == b"\x1f\x8b":
        data = gunzip(data, source)
    cut = False  # the file ended before </mjloggm>, e.g. an interrupted download
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        salvaged = _salvage(data)
        if salvaged is None:
            raise RecordError(f"{source}: not well-formed XML ({exc})") from None
        root = salvaged
        cut = True

    players: tuple[str, ...] = ()
    go_type: int | None = None
    hands: list[RecordedHand] = []
    current: _HandBuilder | None = None
    final_scores: tuple[int, ...] | None = None
    final_results: tuple[float, ...] | None = None

    def where() -> str:
        return f"hand {len(hands)}" + (f" ({_label(current)})" if current else "")

    def finish(last: bool = False) -> None:
        nonlocal current
        if current is None:
            return
        if not current.wins and current.draw is None and not last:
            # only the last hand may stop midway (a cut-off download); see RecordedHand.complete
            raise RecordError(f"{source}: {where()}: hand has no AGARI or RYUUKYOKU result "
                              "but another hand follows")
        built = current.build()
        problem = validate_hand(built)
        if problem:
            raise RecordError(f"{source}: {where()}: {problem}")
        hands.append(built)
        current = None

    for index, elem in enumerate(root):
        tag, attrib = elem.tag, elem.attrib
        try:
            if tag == "GO":
                go_type = int(attrib.get("type", "0"))
            elif tag == "UN":
                if "n3" in attrib and not players:
                    players = tuple(unquote(attrib.get(f"n{s}", "")) for s in range(4))
            elif tag == "INIT":
                finish()
                current = _init(attrib, None if go_type is None
                                else bool(go_type & _GO_THREE_PLAYER))
            elif tag in ("SHUFFLE", "TAIKYOKU", "BYE"):
                pass
            elif current is None:
                raise ValueError(f"<{tag}> outside a hand")
            elif current.wins and tag != "AGARI":
                raise ValueError(f"<{tag}> after the hand's AGARI")
            elif m := _DRAW_TAG.match(tag):
                seat, tile = "TUVW".index(m.group(1)), int(m.group(2))
                current.events.append(Draw(seat, tile))
                current.last_draw[seat] = tile
            elif m := _DISCARD_TAG.match(tag):
                seat, tile = "DEFG".index(m.group(1)), int(m.group(2))
                riichi = seat in current.riichi_pending
                current.riichi_pending.discard(seat)
                tsumogiri = current.last_draw[seat] == tile
                current.events.append(Discard(seat, tile, riichi, tsumogiri))
                current.last_draw[seat] = None
            elif tag == "N":
                call = decode_meld(int(attrib["who"]), int(attrib["m"]))
                current.events.append(call)
                current.last_draw[call.seat] = None
            elif tag == "REACH":
                if attrib.get("step") == "1":
                    current.riichi_pending.add(int(attrib["who"]))
            elif tag == "DORA":
                tile = int(attrib["hai"])
                current.events.append(DoraReveal(tile))
                current.dora.append(tile)
            elif tag == "AGARI":
                win = _agari(attrib, current)
                if not 0 <= win.seat < len(current.hands) or \
                        not 0 <= win.from_seat < len(current.hands):
                    raise ValueError(f"AGARI names a seat beyond the {len(current.hands)} "
                                     "players")
                current.wins.append(win)
            elif tag == "RYUUKYOKU":
                current.draw = _ryuukyoku(attrib, current)
            else:
                raise ValueError(f"unknown tag <{tag}>")
            if "owari" in attrib:
                owari = attrib["owari"].split(",")
                final_scores = tuple(int(float(v)) * 100 for v in owari[0::2])
                final_results = tuple(float(v) for v in owari[1::2])
        except RecordError:
            raise
        except (ValueError, KeyError, IndexError) as exc:
            detail = f"missing attribute {exc}" if isinstance(exc, KeyError) else str(exc)
            raise RecordError(f"{source}: {where()}, tag {index} <{tag}>: {detail}") from None
    if cut and final_scores is None and current is not None and current.wins and \
            not current.wins[-1].tsumo:
        current.wins.clear()  # cut after a ron: a second ron on the discard may be missing
        current.end_scores = None
    finish(last=True)
    if not hands:
        raise RecordError(f"{source}: no hands (INIT tags) in the record")
    seats = len(hands[0].hands)
    if any(len(h.hands) != seats for h in hands):
        raise RecordError(f"{source}: hands deal both three and four players")
    players = players[:seats] if players else ("",) * seats
    if final_scores is not None and final_results is not None:
        if seats == 3 and (final_scores[3:] != (0,) or final_results[3:] != (0.0,)):
            raise RecordError(f"{source}: owari gives a result to the empty fourth seat")
        final_scores, final_results = final_scores[:seats], final_results[:seats]
    rules = _rules(go_type) | {"three_player": seats == 3}
    played_on = tenhou_log_date(source)
    if played_on is not None:
        rules["date"] = played_on
    return RecordedGame(
        source=source,
        players=players,
        rules=rules,
        hands=tuple(hands),
        final_scores=final_scores,
        final_results=final_results,
        cut=cut and final_scores is None,
    )


def _label(hand: _HandBuilder) -> str:
    return f"{'ESWN'[hand.round_index // 4 % 4]}{hand.round_index % 4 + 1}-{hand.honba}"


def _salvage(data: bytes | str) -> ET.Element | None:
    """The tags of an mjlog cut off before its closing ``</mjloggm>`` (an interrupted download),
    up to the last complete tag; None when the text is not such a record."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    if "<mjloggm" not in text or "</mjloggm>" in text:
        return None
    end = text.rfind("/>")
    if end < 0:
        return None
    try:
        return ET.fromstring(text[:end + 2] + "</mjloggm>")
    except ET.ParseError:
        return None
