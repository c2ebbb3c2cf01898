"""The team pair of a hand: the card the holder picked against the pick it would have made next.

A card trial asks what an ability is worth when it is played on every hand; a team holds four
cards and picks one after the deal (C-02, C-03), so what holding a card is worth is what the
team gains on the hands its bot picks it, over the character it would have picked otherwise.
:class:`TeamPairTable` sits where :class:`~pipeline.sim.paired.PairedTable` does: one seat
(the holder) has the card placed in its ordinary team (:func:`pipeline.cards.placement.place_card`),
and every hand in which its bot picks the card is played again from the same deal with the
seat picking its best *other* character: the next of the bot's ranking
(``rank_picks``), with the bot playing for that card (``play_as``) and every other seat as in
the real hand; the bots start from a copy of the state they were in after the picks, random
streams included. Two different cards may part at the first draw, so the replay is always
played from the deal (no shared start). Hands in which the card is not picked keep their pick on
both sides: their pair differs by nothing and no replay is played.

The replays run on copies: the real match goes on from the real outcome, so its tables are
those of a run with the card placed, whatever is replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pipeline.cards.placement import place_card
from pipeline.cards.table import _ask_pick
from pipeline.rules.hand import play_hand
from pipeline.rules.records import HandRecord, HandStart
from pipeline.sim.paired import snapshot_agents

if TYPE_CHECKING:
    from pipeline.cards.table import CardTable
    from pipeline.rules.hooks import AbilityHooks, PickView
    from pipeline.rules.preset import Preset

# Which character the replay plays: from the bot's ranking of the options and the card held.
Alternative = Callable[[Sequence[str], str], "str | None"]


def second_choice(ranked: Sequence[str], card: str) -> str | None:
    """The best option other than the card (None when the team offers no other)."""
    return next((c for c in ranked if c != card), None)


@dataclass(frozen=True)
class TeamPair:
    """One hand of the holder: what it picked and, when it picked the card, the same hand
    played with ``alternative`` instead (``other`` is None on the other hands)."""

    hand_index: int
    seat: int
    card: str
    held: bool                 # the card was among the seat's options this hand
    picked: str                # the seat's pick in the real hand
    alternative: str | None    # the replay's pick (None: no replay)
    other: HandRecord | None


class _PickTap:
    """Stands in for the holder's agent at the card table: passes the pick on and keeps the
    agent's ranking of the options and the situation of the hand's first pick (a copying card
    asks again, for the copy)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.ranked: list[str] | None = None
        self.options: tuple[str, ...] = ()
        self.hand: tuple[int, ...] = ()
        self.situation: PickView | None = None

    def pick(self, starting_hand: Sequence[int], options: Sequence[str],
             situation: PickView | None = None) -> str:
        chooser = getattr(self.agent, "pick", None)  # an agent without one: the first
        choice = (options[0] if chooser is None else
                  _ask_pick(chooser, tuple(starting_hand), tuple(options), situation)
                  if situation is not None else chooser(starting_hand, options))
        if self.ranked is None:
            rank = getattr(self.agent, "rank_picks", None)
            ranked = list(rank(starting_hand, options, situation)) if rank is not None else \
                [choice, *(c for c in options if c != choice)]
            if ranked[0] != choice:  # a ranking that disagrees with the pick: the pick first
                ranked = [choice, *(c for c in ranked if c != choice)]
            self.ranked, self.options, self.situation = ranked, tuple(options), situation
            self.hand = tuple(starting_hand)
        return choice


class TeamPairTable:
    """A card table for the match loop that places ``card`` in seat ``seat``'s team and
    plays each hand the seat picks it again with its next choice (:attr:`pairs`, in play
    order, one per hand of the holder)."""

    def __init__(self, table: CardTable, preset: Preset, seat: int, card: str, *,
                 alternative: Alternative = second_choice) -> None:
        """``alternative``: the replay's pick from the ranking (the test of the replay itself
        passes the card again)."""
        place_card(table.state, seat, card)
        self.table = table
        self.preset = preset
        self.seat = seat
        self.card = card
        self.alternative = alternative
        self.pairs: list[TeamPair] = []
        self._tap = _PickTap(table.agents[seat])
        agents = list(table.agents)
        agents[seat] = self._tap
        table.agents = agents
        self._hand_index = 0
        self._start: HandStart | None = None
        self._agents: list[Any] | None = None

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]:
        self._tap.ranked = None
        abilities = self.table.abilities_for(start)
        self._start = start
        if self.table.picks[self.seat] == self.card:  # after the picks, before the first action
            self._agents = snapshot_agents([self._tap.agent if i == self.seat else a
                                            for i, a in enumerate(self.table.agents)])
        return abilities

    def hand_done(self, rec: HandRecord) -> None:
        assert self._start is not None, "hand_done before abilities_for"
        picked = self.table.picks[self.seat]
        held = self.card in self._tap.options
        alternative, other = None, None
        if picked == self.card and self._tap.ranked is not None:
            alternative = self.alternative(self._tap.ranked, self.card)
            if alternative is not None:
                other = self._replay(alternative)
        self.pairs.append(TeamPair(self._hand_index, self.seat, self.card, held, picked,
                                   alternative, other))
        self.table.hand_done(rec)
        self._hand_index += 1
        self._start = self._agents = None

    def _replay(self, alternative: str) -> HandRecord:
        """The hand from the deal with the holder picking ``alternative``."""
        assert self._start is not None and self._agents is not None
        agents = self._agents  # nothing reads the snapshot afterwards
        play_as = getattr(agents[self.seat], "play_as", None)
        if play_as is not None:
            play_as(alternative, self._tap.situation)
        tap = self._tap

        def choose(cards: Sequence[str]) -> str:  # a copying alternative's copy, as picked
            chooser = agents[self.seat].pick
            return (_ask_pick(chooser, tap.hand, tuple(cards), tap.situation)
                    if tap.situation is not None else chooser(tap.hand, cards))

        abilities = self.table.abilities_as(self.seat, alternative, choose)
        return play_hand(self._start, self.preset, agents, abilities)

    def match_done(self, result: object) -> None:
        self.table.match_done(result)

    def __getattr__(self, name: str) -> Any:
        """Everything else the match loop asks of a card table is the wrapped table's."""
        if name == "table":
            raise AttributeError(name)
        return getattr(self.table, name)
