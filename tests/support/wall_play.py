"""Playing a scripted hand with the wall cards, stepping through their abilities."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import ScriptAgent
from pipeline.tiles import parse_types

PRESET = load_preset("online-hanchan")

CATALOG = load_catalog("1.2")

def ability(card: str, seat: int, *others: tuple[str, int]) -> list[CardAbility | None]:
    seats: list[CardAbility | None] = [None] * 4
    for c, s in ((card, seat), *others):
        seats[s] = CardAbility(CATALOG.card(c), s)
    return seats


class Steps(ScriptAgent):
    """A script for the usual decisions plus ability steps: ``(what, tile)`` picks the offered
    ability action ``"<card>:<what>"`` of that tile type (any tile when None); ``what`` may be a
    callable deciding an offer from the observation. Unscripted optional offers are passed; an
    unscripted required step fails the test. Notes the seat's hand at every decision."""

    def __init__(self, script: Sequence[str] = (), steps: Sequence[tuple] = (),
                 policy: dict[str, Callable[[Observation], bool]] | None = None) -> None:
        super().__init__(script)
        self.steps = list(steps)
        self.policy = policy or {}
        self.hands: list[tuple[list[Action], list[int], tuple[int, ...]]] = []
        self.chosen: list[Action] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.hands.append((legal, sorted(obs.concealed), obs.aside))
        ability = [a for a in legal if a.kind == ActionKind.ABILITY]
        if not ability:
            return super().decide(obs, legal)
        self.offers.append(legal)
        what = str(ability[0].tag)
        if what in self.policy:
            choice = ability[0] if self.policy[what](obs) else legal[-1]
            self.chosen.append(choice)
            return choice
        if self.steps and self.steps[0][0] == what:
            tile = self.steps[0][1]
            for a in ability:
                if tile is None or a.tile // 4 == parse_types(tile)[0]:
                    self.steps.pop(0)
                    self.chosen.append(a)
                    return a
        passing = [a for a in legal if a.kind == ActionKind.PASS]
        assert passing, f"unscripted required step: {ability[0].detail}"  # wording: a message
        if all(a.kind in (ActionKind.ABILITY, ActionKind.PASS) for a in legal):
            return passing[0]
        return super().decide(obs, legal)


def play(start: HandStart, agents: list, abilities: list, preset=PRESET):
    agents = [Steps(a) if isinstance(a, list) else a for a in agents]
    state = HandState(start, preset, agents, abilities)
    return state.play(), agents, state


def ability_events(rec, tag: StrEnum) -> list:
    """The hand's ability events tagged ``tag``."""
    return [e for e in rec.events if e.kind == "ability" and e.tag is tag]
