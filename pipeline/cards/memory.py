"""What the card layer remembers from hand to hand of one match (the engine forgets each hand).

Abilities read a :class:`MatchMemory` during a hand and never change it: the card table updates
it once per hand from the hand's record and its abilities (:meth:`MatchMemory.end_of_hand`), so
replaying a hand with fresh abilities (the paired measurement) leaves the match's memory alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.rules.records import HandRecord, Outcome


@dataclass
class MatchMemory:
    """Per-seat facts an ability needs from earlier hands."""

    red_fives: bool = True                          # the preset's red fives (dora for Kuro)
    dealt_in_last: frozenset[int] = frozenset()     # seats that dealt in during the last hand
    dora_lost: set[int] = field(default_factory=set)       # seats whose dora give 0 han (Kuro)
    floor_used: set[int] = field(default_factory=set)      # seats that used their 0 floor
    once_used: dict[int, set[str]] = field(default_factory=dict)  # once-per-match effects used
    pending_stakes: dict[int, list[tuple[int, str, str]]] = field(default_factory=dict)
    # seat -> (points, card, why) to stake at the start of the next hand

    def used(self, seat: int, effect: str) -> bool:
        return effect in self.once_used.get(seat, set())

    def spent(self, seat: int) -> frozenset[str]:
        """What the seat has used up for the rest of the match, as the pick policy reads it
        (``PickView.spent``): Kuro's dora once lost, Kirame's floor at 0, Kana's Inazuma
        riichi."""
        out = set()
        if seat in self.dora_lost:
            out.add("dora_multiplier")
        if seat in self.floor_used:
            out.add("floor_at_zero")
        if self.used(seat, "inazuma"):
            out.add("stake_rule:inazuma_riichi")
        return frozenset(out)

    def end_of_hand(self, rec: HandRecord, abilities: Sequence[object]) -> None:
        """Remember this hand: who dealt in, and what each ability's hand left for later."""
        self.dealt_in_last = frozenset([s.seat for s in rec.seats if s.outcome == Outcome.DEALT_IN])
        self.pending_stakes = {}
        for ability in abilities:
            remember = getattr(ability, "remember", None)
            if remember is not None:
                remember(self)
