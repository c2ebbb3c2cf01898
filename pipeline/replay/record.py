"""A neutral model of a recorded game, shared by every record format.

Parsers (Tenhou mjlog XML, Tenhou JSON) turn a file into a :class:`RecordedGame`; the replayer
drives the rules engine from it and compares the engine's results with the recorded ones. Tiles
are physical ids 0-135 as in :mod:`pipeline.tiles`, so one physical tile keeps one id for the
whole hand (a discard that is later called, a pon later extended to a kan).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from pipeline.errors import LabError

CALL_KINDS = ("chi", "pon", "minkan", "kakan", "ankan", "kita")  # kita: three players, S-03
DRAW_KINDS = (
    "exhaustive",
    "nine_terminals",
    "four_winds",
    "four_riichi",
    "four_kans",
    "triple_ron",
    "nagashi_mangan",
)
LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")

# Tenhou yaku ids 0-54 as (English name, Tenhou's Japanese name). XML records give ids, JSON
# records give the Japanese names; the table lets the two be compared.
TENHOU_YAKU: tuple[tuple[str, str], ...] = (
    ("Menzen Tsumo", "門前清自摸和"),
    ("Riichi", "立直"),
    ("Ippatsu", "一発"),
    ("Chankan", "槍槓"),
    ("Rinshan Kaihou", "嶺上開花"),
    ("Haitei Raoyue", "海底摸月"),
    ("Houtei Raoyui", "河底撈魚"),
    ("Pinfu", "平和"),
    ("Tanyao", "断幺九"),
    ("Iipeikou", "一盃口"),
    ("Seat Wind East", "自風 東"),
    ("Seat Wind South", "自風 南"),
    ("Seat Wind West", "自風 西"),
    ("Seat Wind North", "自風 北"),
    ("Round Wind East", "場風 東"),
    ("Round Wind South", "場風 南"),
    ("Round Wind West", "場風 西"),
    ("Round Wind North", "場風 北"),
    ("Haku", "役牌 白"),
    ("Hatsu", "役牌 發"),
    ("Chun", "役牌 中"),
    ("Double Riichi", "両立直"),
    ("Chiitoitsu", "七対子"),
    ("Chanta", "混全帯幺九"),
    ("Ittsu", "一気通貫"),
    ("Sanshoku Doujun", "三色同順"),
    ("Sanshoku Doukou", "三色同刻"),
    ("Sankantsu", "三槓子"),
    ("Toitoi", "対々和"),
    ("Sanankou", "三暗刻"),
    ("Shousangen", "小三元"),
    ("Honroutou", "混老頭"),
    ("Ryanpeikou", "二盃口"),
    ("Junchan", "純全帯幺九"),
    ("Honitsu", "混一色"),
    ("Chinitsu", "清一色"),
    ("Renhou", "人和"),
    ("Tenhou", "天和"),
    ("Chiihou", "地和"),
    ("Daisangen", "大三元"),
    ("Suuankou", "四暗刻"),
    ("Suuankou Tanki", "四暗刻単騎"),
    ("Tsuuiisou", "字一色"),
    ("Ryuuiisou", "緑一色"),
    ("Chinroutou", "清老頭"),
    ("Chuuren Poutou", "九蓮宝燈"),
    ("Junsei Chuuren Poutou", "純正九蓮宝燈"),
    ("Kokushi Musou", "国士無双"),
    ("Kokushi Musou 13-wait", "国士無双１３面"),
    ("Daisuushii", "大四喜"),
    ("Shousuushii", "小四喜"),
    ("Suukantsu", "四槓子"),
    ("Dora", "ドラ"),
    ("Ura Dora", "裏ドラ"),
    ("Aka Dora", "赤ドラ"),
)
YAKU_JAPANESE: dict[str, str] = dict(TENHOU_YAKU)
YAKU_ENGLISH: dict[str, str] = {ja: en for en, ja in TENHOU_YAKU}


class RecordError(LabError):
    """A record that is corrupt or in an unsupported form; the message names file and place."""


@dataclass(frozen=True)
class Draw:
    seat: int
    tile: int


@dataclass(frozen=True)
class Discard:
    seat: int
    tile: int
    riichi: bool = False
    tsumogiri: bool | None = None


@dataclass(frozen=True)
class Call:
    """A meld. ``called`` is the claimed tile (chi/pon/minkan) or the added tile (kakan)."""

    seat: int
    kind: str
    tiles: tuple[int, ...]
    called: int | None
    from_seat: int | None


@dataclass(frozen=True)
class DoraReveal:
    indicator: int


Event = Draw | Discard | Call | DoraReveal


@dataclass(frozen=True)
class RecordedWin:
    """One win as recorded; ``points`` excludes honba and sticks, ``deltas`` include them."""

    seat: int
    from_seat: int
    pao_seat: int | None
    han: int
    fu: int
    points: int
    yakuman: bool
    yaku: tuple[tuple[str, int], ...]
    deltas: tuple[int, int, int, int]
    ura_indicators: tuple[int, ...]
    limit: str
    hand: tuple[int, ...] = ()
    scored: bool = True  # False: han, fu, yaku and points not recorded (mjai), only deltas

    @property
    def tsumo(self) -> bool:
        return self.seat == self.from_seat


@dataclass(frozen=True)
class RecordedDraw:
    kind: str
    deltas: tuple[int, int, int, int]
    tenpai: tuple[int, ...]


@dataclass(frozen=True)
class RecordedHand:
    round_wind: int
    hand_number: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    dora_indicators: tuple[int, ...]
    events: tuple[Event, ...]
    wins: tuple[RecordedWin, ...]
    draw: RecordedDraw | None
    end_scores: tuple[int, ...] | None

    @property
    def complete(self) -> bool:
        """False for a hand the record stops in the middle of (no win or draw recorded)."""
        return bool(self.wins) or self.draw is not None

    @property
    def label(self) -> str:
        """Short round name such as ``E1-0`` (East 1, no honba), for messages."""
        return f"{'ESWN'[self.round_wind % 4]}{self.hand_number + 1}-{self.honba}"

    def riichi_sticks_paid(self) -> tuple[int, ...]:
        """Seats whose riichi stick was put down (a riichi discard that was not won on)."""
        paid: list[int] = []
        last = len(self.events) - 1
        ron_ended = bool(self.wins) and not self.wins[0].tsumo
        ron_ended = ron_ended or (self.draw is not None and self.draw.kind == "triple_ron")
        for i, event in enumerate(self.events):
            if isinstance(event, Discard) and event.riichi:
                if i == last and ron_ended:
                    continue
                paid.append(event.seat)
        return tuple(paid)


@dataclass(frozen=True)
class RecordedGame:
    source: str
    players: tuple[str, ...]
    rules: dict[str, Any]
    hands: tuple[RecordedHand, ...]
    final_scores: tuple[int, ...] | None
    final_results: tuple[float, ...] | None
    ended: bool = False  # the record says the match ended after its last hand
    cut: bool = False  # the file was cut off (an interrupted download) before the match ended

    @property
    def seats(self) -> int:
        """Players at the table: 4, or 3 for a three-player (sanma) record."""
        return len(self.hands[0].hands) if self.hands else 4

    @property
    def match_over(self) -> bool:
        """The record marks the end of the match (final scores, or an mjai end_game)."""
        return self.ended or self.final_scores is not None


_TENHOU_LOG_ID = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})\d{2}gm-[0-9a-f]{4}-")


def tenhou_log_date(name: str) -> date | None:
    """The day a Tenhou game was played, from its log id (``2009082014gm-00a9-0000-...``, the
    JSON's ``ref`` or a record's file name), or None when the name holds no such id."""
    found = _TENHOU_LOG_ID.search(Path(name).name if "/" in name else name)
    if found is None:
        return None
    try:
        return date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return None


def validate_hand(hand: RecordedHand) -> str | None:
    """First inconsistency in a hand's events, or None.

    Follows every physical tile through the hands so that a replay can trust the record: tiles
    are unique, a seat only discards or melds tiles it holds, a call takes the discard just made,
    and each revealed indicator is the next one of ``dora_indicators``.
    """
    seats = len(hand.hands)
    if seats not in (3, 4) or any(len(h) != 13 for h in hand.hands):
        return "starting hands are not four (or three) hands of 13 tiles"
    seen: set[int] = set()

    def fresh(tile: int) -> bool:
        if not 0 <= tile < 136 or tile in seen:
            return False
        seen.add(tile)
        return True

    for tile in (t for h in hand.hands for t in h):
        if not fresh(tile):
            return f"starting tile {tile} is out of range or repeated"
    if not hand.dora_indicators or not fresh(hand.dora_indicators[0]):
        return "missing or repeated first dora indicator"
    closed = [Counter(h) for h in hand.hands]
    melds: list[list[Call]] = [[] for _ in range(seats)]
    revealed = 1
    previous: Event | None = None
    for index, event in enumerate(hand.events):
        where = f"event {index} ({event})"
        if not isinstance(event, DoraReveal) and not 0 <= event.seat < seats:
            return f"{where}: seat out of range"
        if isinstance(event, Call) and not all(0 <= t < 136 for t in event.tiles):
            return f"{where}: meld tile out of range"
        if isinstance(event, Draw):
            if not fresh(event.tile):
                return f"{where}: drawn tile is out of range or already in play"
            closed[event.seat][event.tile] += 1
        elif isinstance(event, Discard):
            if closed[event.seat][event.tile] <= 0:
                return f"{where}: seat {event.seat} does not hold tile {event.tile}"
            closed[event.seat][event.tile] -= 1
            size = sum(closed[event.seat].values()) + 3 * len(melds[event.seat])
            if size != 13:
                return f"{where}: seat {event.seat} holds {size} tiles after discarding"
        elif isinstance(event, DoraReveal):
            if revealed >= len(hand.dora_indicators):
                return f"{where}: more reveals than dora indicators"
            if hand.dora_indicators[revealed] != event.indicator or not fresh(event.indicator):
                return f"{where}: indicator is not the next recorded one or is in play"
            revealed += 1
        elif isinstance(event, Call) and event.kind == "kita":
            if len(event.tiles) != 1 or event.tiles[0] // 4 != 30:
                return f"{where}: kita sets aside something else than one North"
            if closed[event.seat][event.tiles[0]] <= 0:
                return f"{where}: seat {event.seat} does not hold tile {event.tiles[0]}"
            closed[event.seat][event.tiles[0]] -= 1  # set aside: the next draw replaces it
        else:
            problem = _check_call(event, closed[event.seat], melds[event.seat], previous)
            if problem:
                return f"{where}: {problem}"
        previous = event
    if revealed != len(hand.dora_indicators):
        return f"{len(hand.dora_indicators) - revealed} dora indicators never revealed"
    return None


def _check_call(call: Call, closed: Counter[int], melds: list[Call], previous: Event | None) -> str:
    if call.kind not in CALL_KINDS:
        return f"unknown call kind {call.kind!r}"
    if list(call.tiles) != sorted(call.tiles) or len(set(call.tiles)) != len(call.tiles):
        return "meld tiles are not sorted distinct ids"
    if len({t // 4 for t in call.tiles}) != 1 and call.kind != "chi":
        return "meld mixes tile types"
    if call.kind in ("chi", "pon", "minkan"):
        size = 4 if call.kind == "minkan" else 3
        if len(call.tiles) != size or call.called not in call.tiles:
            return "meld size or called tile is wrong"
        if not isinstance(previous, Discard) or previous.tile != call.called:
            return "the called tile is not the discard just made"
        if previous.seat != call.from_seat or previous.seat == call.seat:
            return "from_seat is not the discarder"
        if call.kind == "chi":
            if (call.seat - previous.seat) % 4 != 1:
                return "chi not from the previous seat"
            types = sorted(t // 4 for t in call.tiles)
            if types[0] >= 27 or types != list(range(types[0], types[0] + 3)):
                return "chi is not a run"
            if types[0] // 9 != types[2] // 9:
                return "chi crosses suits"
        taken = [t for t in call.tiles if t != call.called]
    elif call.kind == "kakan":
        pons = [m for m in melds if m.kind == "pon" and set(m.tiles) < set(call.tiles)]
        if len(call.tiles) != 4 or not pons or call.called not in call.tiles:
            return "added kan does not extend a pon of the seat"
        melds.remove(pons[0])
        taken = [call.called]
    else:
        if len(call.tiles) != 4:
            return "concealed kan is not four tiles"
        taken = list(call.tiles)
    for tile in taken:
        if closed[tile] <= 0:
            return f"seat {call.seat} does not hold tile {tile}"
        closed[tile] -= 1
    melds.append(call)
    return ""


RECORD_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".xml.gz", ".mjlog.gz", ".json.gz",
                   ".jsonl.gz")


def load_record(path: str | Path) -> RecordedGame:
    """Parse a game record: Tenhou mjlog XML (``.xml``, ``.mjlog``), Tenhou JSON or an mjai log
    (``.json``, told apart by their content, and ``.jsonl``), each also gzipped (``.gz``)."""
    from pipeline.replay.mjai_log import parse_mjai, parse_mjai_json
    from pipeline.replay.tenhou_json import parse_tenhou_json
    from pipeline.replay.tenhou_xml import parse_tenhou_xml

    p = Path(path)
    name = p.name.lower()
    suffix = next((s for s in sorted(RECORD_SUFFIXES, key=len, reverse=True)
                   if name.endswith(s)), None)
    if suffix is None:
        raise RecordError(f"{p}: unknown record format {p.suffix or '(no extension)'!r} "
                          f"(known: {', '.join(RECORD_SUFFIXES)})")
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{p}: file not found") from None
    except OSError as exc:
        raise RecordError(f"{p}: cannot read file ({exc.strerror})") from None
    kind = suffix.removesuffix(".gz")
    if kind in (".xml", ".mjlog"):
        return parse_tenhou_xml(data, source=str(p))  # gzip is recognised by its magic bytes
    if data[:2] == b"\x1f\x8b":
        data = gunzip(data, str(p))
    if kind == ".jsonl":
        return parse_mjai(data, source=str(p))
    start = data.lstrip()[:1]
    if start == b"[" or (start == b"{" and b"\n" in data.strip() and
                          data.lstrip().startswith(b'{"type"')):
        return parse_mjai_json(data, source=str(p))
    return parse_tenhou_json(data, source=str(p))


def gunzip(data: bytes, source: str) -> bytes:
    """Gzip data decompressed; a file cut off mid-stream gives what it holds so far (its last
    hand is then read as one the record stops in the middle of)."""
    import gzip
    import zlib

    try:
        return gzip.decompress(data)
    except EOFError:  # truncated: keep the part that decompresses
        try:
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
        except zlib.error as exc:
            raise RecordError(f"{source}: corrupt gzip data ({exc})") from None
    except (OSError, zlib.error) as exc:
        raise RecordError(f"{source}: corrupt gzip data ({exc})") from None
