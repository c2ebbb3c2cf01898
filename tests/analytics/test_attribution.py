"""Honest attribution: an ability event counts for the card that caused it, whichever seat it
lands on; bookkeeping is counted apart; offers (taken or declined) are on record."""

from __future__ import annotations

import pytest

from pipeline.rules.actions import AbilityTag
from pipeline.rules.records import AbilityEffect, Event, HandRecord, SeatRecord
from pipeline.sim.tables import ability_counts, attribute, notable_events

PICKS = ["koromo_amae", "kasumi_iwato", "nodoka_haramura", "haru_takimi"]


B, P, G = AbilityEffect.BOOKKEEPING, AbilityEffect.POINTS, AbilityEffect.PLAY


# the events as the engine logs them: the fields decide, the text is for people
@pytest.mark.parametrize(("event", "card", "card_seat", "effect"), [
    (Event("ability", 0, detail="koromo_amae: moves the last live-wall tile to the dead wall",
           card="koromo_amae", effect=B), "koromo_amae", 0, "bookkeeping"),
    # Kasumi's family is kept face up in another seat's hand: hers, not that seat's
    (Event("ability", 2, detail="kasumi_iwato: tiles 1m 2m 3m kept face up",
           card="kasumi_iwato", effect=B), "kasumi_iwato", 1, "bookkeeping"),
    (Event("ability", 2, detail="scoring: +2 han, +3900 points (nodoka_haramura)",
           card="nodoka_haramura", effect=P), "nodoka_haramura", 2, "points"),
    (Event("ability", 3, detail="scoring: -1 han, -1000 points (kasumi_iwato)",
           card="kasumi_iwato", effect=P), "kasumi_iwato", 1, "points"),
    # an always-winning tile's value names no card: the landing seat's
    (Event("ability", 3, detail="always-winning tile: the hand wins whatever its shape",
           effect=P), "haru_takimi", 3, "points"),
    (Event("ability", 3, detail="haru_takimi: extra turn", tag=AbilityTag.EXTRA_TURN,
           card="haru_takimi", effect=G), "haru_takimi", 3, "play"),
    # a card no seat picked (a copy): the landing seat
    (Event("ability", 2, detail="jun_inoue: call payment: P1 pays 1000, +1000 points",
           card="jun_inoue", effect=P), "jun_inoue", 2, "points"),
    (Event("offer", 3, detail="haru_takimi: offered extra_turn; declined", card="haru_takimi"),
     "haru_takimi", 3, "offer"),
])
def test_each_event_is_credited_to_its_card(event: Event, card: str, card_seat: int,
                                           effect: str) -> None:
    assert attribute(event, PICKS) == (card, card_seat, effect)


def record(events: list[Event]) -> HandRecord:
    rec = HandRecord(round_wind=0, hand_number=0, honba=0, sticks_start=0, dealer=0,
                     seats=[SeatRecord(seat=s, start_score=30000) for s in range(4)],
                     events=events)
    rec.picks = list(PICKS)
    return rec


def test_counts_follow_the_card_and_keep_bookkeeping_and_offers_apart() -> None:
    rec = record([
        Event("ability", 0, detail="koromo_amae: moves the last live-wall tile to the dead wall",
              card="koromo_amae", effect=B),
        Event("ability", 0, detail="koromo_amae: moves the last live-wall tile to the dead wall",
              card="koromo_amae", effect=B),
        Event("ability", 2, detail="kasumi_iwato: tiles 1m 2m kept face up",
              card="kasumi_iwato", effect=B),
        Event("ability", 0, detail="scoring: -1 han, -1000 points (kasumi_iwato)",
              card="kasumi_iwato", effect=P),
        Event("offer", 2, detail="nodoka_haramura: offered face_down; took face_down",
              tag=AbilityTag.FACE_DOWN, card="nodoka_haramura"),
        Event("discard", 2, 40, detail="face down (nodoka_haramura)", tag=AbilityTag.FACE_DOWN,
              card="nodoka_haramura"),
        Event("offer", 3, detail="haru_takimi: offered extra_turn; declined",
              card="haru_takimi"),
        Event("offer", 3, detail="haru_takimi: offered extra_turn; took extra_turn",
              tag=AbilityTag.EXTRA_TURN, card="haru_takimi"),
        Event("ability", 3, detail="haru_takimi: extra turn", tag=AbilityTag.EXTRA_TURN,
              card="haru_takimi", effect=G),
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
    rows = [row[:4] for row in notable_events(rec)]
    assert (2, "ability", "2p", "nodoka_haramura: face-down discard") in rows
    assert sum(1 for r in rows if r[1] == "offer") == 3
