"""Reading the table: how many seats it has, and what the public log says of calls, kans and
extra turns, and so of another player's ippatsu chance. Shared by effects of several kinds."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.rules.actions import AbilityTag
from pipeline.rules.records import Event

CALL_EVENTS = frozenset(("chi", "pon", "minkan"))
KAN_EVENTS = frozenset(("ankan", "kakan"))
# Ability events that are an extra turn: the turn taken, logged once. A two-sided card's flip
# back after an extra turn (offered and declined, or over) is no extra turn of its own.
EXTRA_TURN_EVENTS = frozenset((AbilityTag.EXTRA_TURN,))


def table_seats(table: object) -> int:
    """Seats at the table (4, or 3: S-01); a table that does not say has four."""
    seats = getattr(table, "seats", None)
    return seats() if seats is not None else 4


def ippatsu_alive(events: Sequence[Event], seat: int) -> bool:
    """Whether the seat's riichi still had its ippatsu chance at the end of these events: no
    call or kan since the riichi, and no discard of its own after the declaration except in an
    extra turn (rule C-16)."""
    declared = max([i for i, e in enumerate(events) if e.kind == "riichi" and e.seat == seat],
                   default=None)
    if declared is None:
        return False
    discards = 0
    extra = False
    for e in events[declared + 1:]:
        if e.kind in CALL_EVENTS or e.kind in KAN_EVENTS:
            return False
        if e.kind == "ability" and e.seat == seat and e.tag in EXTRA_TURN_EVENTS:
            extra = True
        elif e.kind == "discard" and e.seat == seat:
            discards += 1
            if discards > 1 and not extra:
                return False
            extra = False
    return True
