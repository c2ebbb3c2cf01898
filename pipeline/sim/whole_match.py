"""A card trial's match played to its end with the holder's ability off for the whole match.

The paired replay (:mod:`pipeline.sim.paired`) compares one hand with and without the ability;
what the ability changes after the hand ends (stakes and sticks collected in a later hand, a
floor that keeps the match alive, match-end duties, the score situation the next hands are
played in) is on both sides of the next pair, so no pair counts it. The whole-match arm plays
the trial's match again from the same seed (the same walls in the same order, the same bot
streams, the same teams for the other seats) with the holder still holding its card but never
using it: the holder's final score, rank and result in the two matches differ by everything
the ability did, however late it was paid.

Until the hand in which the ability first made a difference (the paired replay's watch,
:mod:`pipeline.sim.prefix`, finds it in every hand; what the holder's ability leaves in the
match's memory for later hands counts too), both matches are the same game. So the real match
is watched (:class:`SharedStart`): the match, its agents and its card table are copied at the
start of each hand until then, and the match without the ability is played on from the start
of that hand; a match in which the ability never made a difference is its own match without
it. Both give what a replay from the match's first hand gives (``tests/sim/test_whole_match.py``
plays every card both ways).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pipeline.rules.match import MatchResult, MatchState, play_match
from pipeline.sim.paired import PairedTable, stream_memo, without_ability

if TYPE_CHECKING:
    from pipeline.cards.memory import MatchMemory
    from pipeline.cards.table import CardTable
    from pipeline.rules.hooks import AbilityHooks
    from pipeline.rules.preset import Preset
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


class SharedStart:
    """A card trial's real match (its paired table), watched for the first hand in which the
    holder's ability made a difference, so that the match without the ability
    (:meth:`without`) need not play again the hands both matches share."""

    def __init__(self, paired: PairedTable, seat: int) -> None:
        self.paired = paired
        self.seat = seat
        self.first: int | None = None  # the first hand the ability made a difference in
        self._hand = 0
        self._saved: tuple[MatchState, list[Any], CardTable] | None = None
        self._memory: MatchMemory | None = None

    @property
    def pairs(self) -> list[Any]:
        return self.paired.pairs

    def before_hand(self, state: MatchState) -> None:
        """Copy the match as it stands, while no hand has differed yet (the first hand's
        start needs no copy: it is the match's own)."""
        if self.first is None and self._hand:
            agents, table = _copy_table(self.paired.table)
            self._saved = (state.copy(), agents, table)

    def abilities_for(self, start: HandStart) -> list[Any]:
        if self.first is None:  # read only during the hand; end_of_hand rewrites it
            self._memory = copy.deepcopy(self.paired.table.memory)
        return self.paired.abilities_for(start)

    def seated(self, agents: list[Any]) -> list[Any]:
        return self.paired.seated(agents)

    def hand_done(self, rec: HandRecord) -> None:
        differed = self.first is None and self.paired.differed(self.seat)
        self.paired.hand_done(rec)
        if self.first is not None:
            return
        if not differed and self._memory is not None:
            # what the hand leaves for later hands, without the holder's ability's part
            table = self.paired.table
            self._memory.end_of_hand(rec, [a for s, a in enumerate(table.abilities)
                                           if s != self.seat])
            differed = self._memory != table.memory
        if differed:
            self.first = self._hand
        self._hand += 1

    def match_done(self, result: object) -> None:
        self.paired.match_done(result)

    def without(self, preset: Preset, seed: int, match_index: int, result: MatchResult
                ) -> MatchResult | None:
        """The match without the holder's ability: the real one when the ability changed no
        hand, else played on from the start of the first hand it changed; None when that is
        the first hand (play the match again from its start)."""
        if self.first is None:
            return result
        if self._saved is None:
            return None
        state, agents, table = self._saved
        self._saved = None
        return play_match(preset, agents, seed, match_index, state=state,
                          table=AbilityOffTable(table, self.seat))


def _copy_table(table: CardTable) -> tuple[list[Any], CardTable]:
    """The card table and its agents copied between two hands (one copy, so the table's
    agents are the copied agents); the catalog and preset are shared, and the last hand's
    abilities left behind (the next hand's picks make new ones)."""
    memo = stream_memo(list(table.agents))
    for shared in (table.catalog, table.preset):
        memo[id(shared)] = shared
    memo[id(table.abilities)] = []
    agents, twin = copy.deepcopy((table.agents, table), memo)
    return agents, twin


__all__ = ["AbilityOffTable", "SharedStart"]
