"""What the match owes from the last hand, paid at the start of the next one: the stakes a card
imposed for "the next hand" (Hitomi's ``stake_rule`` ``tsumo_below_her_value``), kept in the
match's :class:`~pipeline.cards.memory.MatchMemory`."""

from __future__ import annotations

from pipeline.cards.memory import MatchMemory
from pipeline.rules.hooks import AbilityHooks, TableControls


class MatchDuties(AbilityHooks):
    """What the match owes from the last hand, paid at the start of this one whatever the
    seats picked: the stakes a card imposed for "the next hand" (Hitomi)."""

    name = "match"
    seat = -1

    def __init__(self, memory: MatchMemory) -> None:
        self.memory = memory

    def hand_start(self, table: TableControls) -> None:
        for seat, owed in sorted(self.memory.pending_stakes.items()):
            for points, by, why in owed:
                table.stake(seat, points, by, why)


def match_duties(memory: MatchMemory) -> list[AbilityHooks]:
    """The duties object to add to a hand's abilities, when the match owes something."""
    return [MatchDuties(memory)] if memory.pending_stakes else []
