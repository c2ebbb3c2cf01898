"""Paired measurement: every hand played with a character is played again without its ability.

The card layer decides each hand's picks and abilities; :class:`PairedTable` sits between it and
the match loop. After the real hand, for each seat that played a character, the same deal (the
same :class:`~pipeline.rules.records.HandStart`: wall, dealer, scores, honba, sticks) is played
again with that seat's ability switched off. The seat still holds its pick, the other seats keep
their picks and abilities, and the bots start from a copy of the state they were in when the
real hand started, random streams included; the seat's own bot also forgets the ability
(:func:`without_ability`), so on that side it plays exactly as a seat with no character. Both
sides of a pair therefore share everything but the one ability: the difference of the seat's
two deltas measures the ability on that deal, without the luck of the deal in it.

That starting state is a function of the run's seed, the match, the hand and the seat (the
bots' streams are derived from ``(seed, match, seat)`` and advanced by the hands before), so
the replays, like the main tables, depend on the seed alone and not on the worker count. The
replays run on copies: the real bots, the card table and the match go on from the real outcome,
and the main tables are the same with or without the paired measurement.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pipeline.rules.hand import play_hand
from pipeline.rules.records import HandRecord, HandStart

if TYPE_CHECKING:
    from pipeline.cards.table import CardTable
    from pipeline.rules.hooks import AbilityHooks
    from pipeline.rules.preset import Preset


@dataclass(frozen=True)
class HandPair:
    """One seat's replay of one hand without its ability (the real hand is the match's)."""

    hand_index: int
    seat: int
    character: str
    without: HandRecord


def snapshot_agents(agents: list[Any]) -> list[Any]:
    """A deep copy of the agents, made cheaply: it is taken once or twice per hand.

    ``copy.deepcopy`` copies a ``random.Random`` through its state tuple element by element
    (625 ints per stream, most of the cost of copying a bot); here each stream an agent holds
    directly is copied through ``getstate``/``setstate``, and frozensets (immutable, of
    hashable values) are shared. Everything else is deep-copied as before, so the copy plays
    exactly as ``copy.deepcopy(agents)`` would."""
    memo: dict[int, Any] = {}
    for agent in agents:
        for value in getattr(agent, "__dict__", {}).values():
            if type(value) is random.Random:
                twin = random.Random()
                twin.setstate(value.getstate())
                memo[id(value)] = twin
            elif type(value) is frozenset:
                memo[id(value)] = value
    return copy.deepcopy(agents, memo)


def without_ability(agent: Any) -> None:
    """Make a bot play the replay as a seat with no character: what it knows of the ability
    (extra sequences, winning without a yaku, dama preferences, any policy state) goes too, so
    the "without" side is an ordinary seat, not a seat playing for an ability it lacks. An
    agent without ``play_without_ability`` holds no such knowledge."""
    forget = getattr(agent, "play_without_ability", None)
    if forget is not None:
        forget()


class PairedTable:
    """A card table for the match loop that also plays each hand's paired replays.

    Use in place of the :class:`~pipeline.cards.table.CardTable` it wraps; :attr:`pairs`
    collects the match's replays in play order (hand, then seat).
    """

    def __init__(self, table: CardTable, preset: Preset,
                 seats: Collection[int] | None = None) -> None:
        """``seats``: the seats whose hands are replayed (default every seat with a pick; a card
        trial replays its holder's only)."""
        self.table = table
        self.preset = preset
        self.seats = None if seats is None else frozenset(seats)
        self.pairs: list[HandPair] = []
        self._hand_index = 0
        self._start: HandStart | None = None
        self._agents: Any = None

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]:
        abilities = self.table.abilities_for(start)
        self._start = start
        # after the picks (a bot's pick may use its stream), before the first action
        self._agents = snapshot_agents(list(self.table.agents))
        return abilities

    def hand_done(self, rec: HandRecord) -> None:
        assert self._start is not None, "hand_done before abilities_for"
        seats = [seat for seat, pick in enumerate(self.table.picks)
                 if pick and (self.seats is None or seat in self.seats)]
        for seat in seats:
            pick = self.table.picks[seat]
            # the last replay may use the snapshot itself: nothing reads it afterwards
            agents = self._agents if seat == seats[-1] else snapshot_agents(self._agents)
            without_ability(agents[seat])
            replay = play_hand(self._start, self.preset, agents,
                               self.table.replay_abilities(without=seat))
            self.pairs.append(HandPair(self._hand_index, seat, pick, replay))
        self.table.hand_done(rec)
        self._hand_index += 1
        self._start = self._agents = None

    def __getattr__(self, name: str) -> Any:
        """Everything else the match loop asks of a card table (``match_done``, ...) is the
        wrapped table's: pairing changes nothing of the real match."""
        if name == "table":  # not set yet (copying): no recursion
            raise AttributeError(name)
        return getattr(self.table, name)
