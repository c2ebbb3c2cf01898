"""Playing a scripted hand with the duel cards (a seat that names a tile)."""

from __future__ import annotations

from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent

PRESET = load_preset("online-hanchan")

class Naming(ScriptAgent):
    """Names seat ``target`` when asked to name a player; otherwise plays its script."""

    def __init__(self, target: int, script=()) -> None:
        super().__init__(script)
        self.target = target

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        named = [a for a in legal if a.kind == ActionKind.ABILITY
                 and a.tag in (Move.DUEL, Move.BLOCK) and a.payload == self.target]
        if named:
            self.offers.append(legal)
            return named[0]
        return super().decide(obs, legal)


def play(start, agents, abilities):
    agents = [a if isinstance(a, ScriptAgent) else ScriptAgent(a) for a in agents]
    state = HandState(start, PRESET, agents, abilities)
    return state.play(), agents, state
