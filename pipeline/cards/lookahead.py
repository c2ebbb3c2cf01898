"""What the card table gives a player that looks ahead: the means to play its hand again.

A player that weighs an option by playing the hand out (the expert style,
:mod:`pipeline.bots.expert`) needs to replay the deal from its start with every choice made so
far fed back, under the same rules and with fresh abilities for the same picks. The engine keeps
none of that for its agents, so the card table hands it over: at each hand's start it calls
``begin_hand(context)`` on every agent that has that method, and while such an agent sits at
the table it seats each agent behind a :class:`ChoiceLog` that writes every choice down (the
paired replay's :class:`~pipeline.sim.prefix.DecisionTap` does the same for its own use).

The context holds the hand's real wall; a player must hide from itself what its seat cannot
see (:func:`pipeline.bots.rollout.determinize` redraws those tiles before any replay).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.rules.actions import Action
from pipeline.rules.agents import Observation
from pipeline.rules.hooks import AbilityHooks
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandStart


@dataclass
class HandContext:
    """One hand as a lookahead may replay it: its start, the rules, fresh abilities for its
    picks (a new set at every call; the match's memory is only read during a hand), the
    match's agents as they are, and every choice of the hand so far, in order, once
    ``recording`` (the table seated the agents behind a :class:`ChoiceLog`)."""

    start: HandStart
    preset: Preset
    abilities: Callable[[], list[AbilityHooks | None]]
    agents: Sequence[Any]
    choices: list[tuple[int, Action]] = field(default_factory=list)
    recording: bool = False


class ChoiceLog:
    """A seat's agent whose every choice is written into the hand's context."""

    def __init__(self, agent: Any, seat: int, context: HandContext) -> None:
        self.agent = agent
        self.seat = seat
        self._choices = context.choices

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        choice = self.agent.decide(obs, legal)
        self._choices.append((self.seat, choice))
        return choice

    def __getattr__(self, name: str) -> Any:
        if name == "agent":  # not set yet (copying): no recursion
            raise AttributeError(name)
        return getattr(self.agent, name)


def looks_ahead(agents: Sequence[Any]) -> bool:
    """Whether any agent asks for its hands' contexts (``begin_hand``)."""
    return any(hasattr(a, "begin_hand") for a in agents)
