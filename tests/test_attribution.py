"""Honest attribution: an ability event counts for the card that caused it, whichever seat it
lands on; bookkeeping is counted apart; offers (taken or declined) are on record."""

from __future__ import annotations

import pytest

from pipeline.rules.records import Event, HandRecord, SeatRecord
from pipeline.sim.tables import ability_counts, attribute, notable_events

PICKS = ["koromo_amae", "kasumi_iwato", "nodoka_haramura", "haru_takimi"]


@pytest.mark.parametrize(("detail", "seat", "card", "card_seat", "effect"), [
    ("koromo_amae: moves the last live-wall tile to the dead wall", 0, "koromo_amae", 0,
     "bookkeeping"),
    # Kasumi's family is kept face up in another seat's hand: hers, not that seat's
    ("kasumi_iwato: tiles 1m 2m 3m kept face up", 2, "kasumi_iwato", 1, "bookkeeping"),
    ("scoring: +2 han, +3900 points (nodoka_haramura)", 2, "nodoka_haramura", 2, "points"),
    ("scoring: -1 han, -1000 points (kasumi_iwato)", 3, "kasumi_iwato", 1, "points"),
    ("always-winning tile: the hand wins whatever its shape", 3, "haru_takimi", 3, "points"),
    ("haru_takimi: extra turn", 3, "haru_takimi", 3, "play"),
    ("jun_inoue: call payment: P1 pays 1000, +1000 points", 2, "jun_inoue", 2, "points"),
    ("haru_takimi: offered extra_turn; declined", 3, "haru_takimi", 3, "offer"),
])
def test_each_event_is_credited_to_its_card(detail: str, seat: int, card: str, card_seat: int,
                                           effect: str) -> None:
    assert attribute(detail, seat, PICKS) == (card, card_seat, effect)


def record(events: list[Event]) -> HandRecord:
    rec = HandRecord(round_wind=0, hand_number=0, honba=0, sticks_start=0, dealer=0,
                     seats=[SeatRecord(seat=s, start_score=30000) for s in range(4)],
                     events=events)
    rec.picks = list(PICKS)
    return rec


def test_counts_follow_the_card_and_keep_bookkeeping_and_offers_apart() -> None:
    rec = record([
        Event("ability", 0, detail="koromo_amae: moves the last live-wall tile to the dead wall"),
        Event("ability", 0, detail="koromo_amae: moves the last live-wall tile to the dead wall"),
        Event("ability", 2, detail="kasumi_iwato: tiles 1m 2m kept face up"),
        Event("ability", 0, detail="scoring: -1 han, -1000 points (kasumi_iwato)"),
        Event("offer", 2, detail="nodoka_haramura: offered face_down; took face_down"),
        Event("discard", 2, 40, detail="face down (nodoka_haramura)"),
        Event("offer", 3, detail="haru_takimi: offered extra_turn; declined"),
        Event("offer", 3, detail="haru_takimi: offered extra_turn; took extra_turn"),
        Event("ability", 3, detail="haru_takimi: extra turn"),
    ])
    counts = ability_counts(rec)
    assert counts[0] == {"ability_triggers": 0, "ability_bookkeeping": 2, "offers": 0,
                         "offers_taken": 0}
    # Kasumi's events landed on seats 0 and 2; they are hers
    assert counts[1] == {"ability_triggers": 1, "ability_bookkeeping": 1, "offers": 0,
                         "offers_taken": 0}
    assert counts[2] == {"ability_triggers": 1, "ability_bookkeeping": 0, "offers": 1,
                         "offers_taken": 1}
    assert counts[3] == {"ability_triggers": 1, "ability_bookkeeping": 0, "offers": 2,
                         "offers_taken": 1}
    rows = notable_events(rec)
    assert (2, "ability", "2p", "nodoka_haramura: face-down discard") in rows
    assert sum(1 for r in rows if r[1] == "offer") == 3
