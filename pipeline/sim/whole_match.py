"""A card trial's match played to its end with the holder's ability off for the whole match.

The paired replay (:mod:`pipeline.sim.paired`) compares one hand with and without the ability;
what the ability changes after the hand ends (stakes and sticks collected in a later hand, a
floor that keeps the match alive, match-end duties, the score situation the next hands are
played in) is on both sides of the next pair, so no pair counts it. The whole-match arm plays
the trial's match again from the same seed (the same walls in the same order, the same bot
streams, the same teams for the other seats) with the holder still holding its card but never
using it: the holder's final score, rank and result in the two matches differ by everything
the ability did, however late it was paid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pipeline.sim.paired import without_ability

if TYPE_CHECKING:
    from pipeline.cards.table import CardTable
    from pipeline.rules.hooks import AbilityHooks
    from pipeline.rules.records import HandRecord, HandStart


class AbilityOffTable:
    """A trial's card table whose holder keeps its pick every hand but plays without the
    ability, as a seat with no character (the paired replay's "without" side, match-long)."""

    def __init__(self, table: CardTable, seat: int) -> None:
        self.table = table
        self.seat = seat

    def abilities_for(self, start: HandStart) -> list[AbilityHooks | None]:
        abilities: list[Any] = list(self.table.abilities_for(start))
        without_ability(self.table.agents[self.seat])  # after the pick, which sets it
        abilities[self.seat] = None
        # the hand's abilities heard at its end (memory) and at the match's end: not the holder's
        self.table.abilities = [a for s, a in enumerate(self.table.abilities) if s != self.seat]
        return abilities

    def hand_done(self, rec: HandRecord) -> None:
        self.table.hand_done(rec)

    def match_done(self, result: object) -> None:
        self.table.match_done(result)


__all__ = ["AbilityOffTable"]
