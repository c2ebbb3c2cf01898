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

from pipeline.rules.actions import Action
from pipeline.rules.hand import play_hand
from pipeline.rules.records import HandRecord, HandStart
from pipeline.sim.prefix import (
    DecisionTap,
    PrefixBroken,
    PrefixWatch,
    WatchedAbility,
    plays_for_ability,
    prefix_agents,
)

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
    return copy.deepcopy(agents, stream_memo(agents))


def stream_memo(agents: list[Any]) -> dict[int, Any]:
    """A ``copy.deepcopy`` memo that copies each random stream the agents hold directly
    through its state and shares their frozensets (:func:`snapshot_agents`)."""
    memo: dict[int, Any] = {}
    for agent in agents:
        for value in _fields_of(agent).values():
            if type(value) is random.Random:
                twin = random.Random()
                twin.setstate(value.getstate())
                memo[id(value)] = twin
            elif type(value) is frozenset:
                memo[id(value)] = value
    return memo


def _fields_of(agent: Any) -> dict[str, Any]:
    """What the agent holds directly: its copy state where that is a dict (an extension
    type's fields included, the heuristic bot's), else its instance dict."""
    state = agent.__getstate__() if hasattr(agent, "__getstate__") else None
    return state if isinstance(state, dict) else getattr(agent, "__dict__", {})


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
    collects the match's replays in play order (hand, then seat). The real hand is watched
    (:mod:`pipeline.sim.prefix`): a replay starts from what both sides share, and a hand the
    ability never changed is its own replay. ``share_prefix=False`` replays every hand from
    the deal, as the watch is checked against (the same pairs, decision for decision).
    ``replay=False`` keeps the watch (where each hand's ability first made a difference, which
    a trial's match without the ability starts from: :mod:`pipeline.sim.whole_match`) but plays
    no replay and collects no pairs: the real match is the same either way.
    """

    def __init__(self, table: CardTable, preset: Preset,
                 seats: Collection[int] | None = None, *, share_prefix: bool = True,
                 replay: bool = True) -> None:
        """``seats``: the seats whose hands are replayed (default every seat with a pick; a card
        trial replays its holder's only)."""
        self.table = table
        self.preset = preset
        self.seats = None if seats is None else frozenset(seats)
        self.share_prefix = share_prefix
        self.replay = replay or not share_prefix  # without the watch there is nothing to keep
        self.pairs: list[HandPair] = []
        self.shared = 0   # replays that were the real hand itself (the ability changed nothing)
        self.resumed = 0  # replays played on from the first difference
        self._hand_index = 0
        self._start: HandStart | None = None
        self._agents: Any = None
        self._choices: list[tuple[int, Action]] = []
        self._watches: dict[int, PrefixWatch] = {}

    def _replayed(self) -> list[int]:
        return [seat for seat, pick in enumerate(self.table.picks)
                if pick and (self.seats is None or seat in self.seats)]

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]:
        abilities = self.table.abilities_for(start)
        self._start = start
        if not self.share_prefix:
            # after the picks (a bot's pick may use its stream), before the first action
            self._agents = snapshot_agents(list(self.table.agents))
            return abilities
        agents = list(self.table.agents)
        self._choices = []
        self._watches = {
            seat: PrefixWatch(seat, self._choices, lambda: snapshot_agents(agents),
                              plays_for_ability(agents[seat]))
            for seat in self._replayed()}
        return [WatchedAbility(a, self._watches[i])  # type: ignore[misc]
                if i in self._watches and a is not None else a
                for i, a in enumerate(abilities)]

    def seated(self, agents: list[Any]) -> list[Any]:
        """The agents of the real hand: each choice written down (the shared start)."""
        inner = getattr(self.table, "seated", None)  # the card table's own stand-ins
        if inner is not None:
            agents = inner(agents)
        if not self.share_prefix:
            return agents
        watches = list(self._watches.values())
        return [DecisionTap(agent, seat, self._choices, watches)
                for seat, agent in enumerate(agents)]

    def hand_done(self, rec: HandRecord) -> None:
        assert self._start is not None, "hand_done before abilities_for"
        seats = self._replayed() if self.replay else []
        for seat in seats:
            pick = self.table.picks[seat]
            replay = (self._replay_shared(rec, seat) if self.share_prefix
                      else self._replay_from_deal(seat, last=seat == seats[-1]))
            self.pairs.append(HandPair(self._hand_index, seat, pick, replay))
        self.table.hand_done(rec)
        self._hand_index += 1
        self._start = self._agents = None
        self._watches = {}

    def differed(self, seat: int) -> bool:
        """Whether the seat's ability made a difference in the hand under way (until its
        ``hand_done``); without the watch (``share_prefix=False``) every hand may have."""
        watch = self._watches.get(seat)
        return not self.share_prefix or watch is None or watch.at is not None

    def _replay_from_deal(self, seat: int, *, last: bool) -> HandRecord:
        assert self._start is not None
        # the last replay may use the snapshot itself: nothing reads it afterwards
        agents = self._agents if last else snapshot_agents(self._agents)
        without_ability(agents[seat])
        return play_hand(self._start, self.preset, agents,
                         self.table.replay_abilities(without=seat))

    def _replay_shared(self, rec: HandRecord, seat: int) -> HandRecord:
        """The hand without the seat's ability, from the first difference it made."""
        assert self._start is not None
        watch = self._watches[seat]
        if watch.at is None or watch.agents is None:
            self.shared += 1
            return rec
        agents = watch.agents
        without_ability(agents[seat])
        self.resumed += 1
        try:
            return play_hand(self._start, self.preset,
                             prefix_agents(self._choices[:watch.at], agents),
                             self.table.replay_abilities(without=seat))
        except PrefixBroken as exc:
            card = self.table.picks[seat]
            raise PrefixBroken(f"paired replay of {card} (seat {seat}, hand "
                               f"{self._hand_index}): {exc}; the hand without it parted "
                               "before its first watched difference") from exc

    def __getattr__(self, name: str) -> Any:
        """Everything else the match loop asks of a card table (``match_done``, ...) is the
        wrapped table's: pairing changes nothing of the real match."""
        if name == "table":  # not set yet (copying): no recursion
            raise AttributeError(name)
        return getattr(self.table, name)
