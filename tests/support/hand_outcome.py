"""A hand's outcome as the pairs table reads it, to compare two ways of playing the same hand."""

from __future__ import annotations

from typing import Any

from pipeline.rules.records import HandRecord


def outcome(rec: HandRecord) -> tuple[Any, ...]:
    """Everything of a hand the pairs table reads, and its whole log."""
    # wording: the whole log, its text included
    return ([(e.kind, e.seat, e.tile, e.tiles, e.detail, e.card) for e in rec.events],
            [(s.delta, s.outcome) for s in rec.seats],
            [(w.seat, w.han, w.points) for w in rec.wins],
            rec.draw_kind, rec.sticks_end, rec.stakes_end)
