"""Recorded games (Tenhou XML and JSON, mjai logs) in one neutral model, for replaying through
the engine."""

from pipeline.replay.mjai_log import parse_mjai, parse_mjai_json
from pipeline.replay.record import (
    CALL_KINDS,
    DRAW_KINDS,
    LIMIT_NAMES,
    TENHOU_YAKU,
    YAKU_ENGLISH,
    YAKU_JAPANESE,
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
    load_record,
    validate_hand,
)
from pipeline.replay.tenhou_json import parse_tenhou_json
from pipeline.replay.tenhou_xml import decode_meld, parse_tenhou_xml

__all__ = [
    "CALL_KINDS",
    "DRAW_KINDS",
    "LIMIT_NAMES",
    "TENHOU_YAKU",
    "YAKU_ENGLISH",
    "YAKU_JAPANESE",
    "Call",
    "Discard",
    "DoraReveal",
    "Draw",
    "Event",
    "RecordError",
    "RecordedDraw",
    "RecordedGame",
    "RecordedHand",
    "RecordedWin",
    "decode_meld",
    "load_record",
    "parse_mjai",
    "parse_mjai_json",
    "parse_tenhou_json",
    "parse_tenhou_xml",
    "validate_hand",
]
