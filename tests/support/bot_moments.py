"""Scripted moments for the bot tests: reach a situation, then ask a bot what it decides."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_types

PRESET = load_preset("online-hanchan")

# P1 is ready on 1z/2z and declares riichi with whatever it draws on its first turn.
RIICHI_HAND = "123m456p789s1122z"

Moment = Callable[[Observation, list[Action]], bool]

class Reached(Exception):
    """Raised by the probing seat when the moment of decision comes."""

    def __init__(self, legal: list[Action]) -> None:
        super().__init__("moment of decision")
        self.legal = legal


class Probe(ScriptAgent):
    """A scripted seat that stops the hand at the first decision where ``moment`` holds."""

    def __init__(self, script: Sequence[str], moment: Moment) -> None:
        super().__init__(script)
        self.moment = moment

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if self.moment(obs, legal):
            raise Reached(legal)
        return super().decide(obs, legal)


def own_turn(after_discards: int = 0) -> Moment:
    """The seat's turn once it has ``after_discards`` tiles in its pond."""
    return lambda obs, legal: (legal[-1].kind != ActionKind.PASS
                               and len(obs.pond(obs.seat)) == after_discards)


def on_claim(obs: Observation, legal: list[Action]) -> bool:
    return legal[-1].kind == ActionKind.PASS


def reach(hands: Sequence[str], draws: str, scripts: Sequence[Sequence[str]], seat: int,
          moment: Moment, *, dora: str = "1z") -> tuple[HandState, list[Action]]:
    """Play the scenario until ``seat`` meets ``moment``; the state and the legal list there."""
    scripts = [*scripts, *([()] * (4 - len(scripts)))]
    agents = [ScriptAgent(s) for s in scripts]
    agents[seat] = Probe(scripts[seat], moment)
    state = HandState(scenario_start(hands, draws, dora=dora), PRESET, agents)
    try:
        state.play()
    except Reached as stop:
        return state, stop.legal
    raise AssertionError(f"P{seat} never reached the moment of decision")


def engine_legal(state: HandState, seat: int) -> list[Action]:
    """The legal list the engine builds for ``seat`` right now (to check the one offered)."""
    last = next(e for e in reversed(state.events) if e.kind in ("discard", "draw", "chi", "pon"))
    if last.kind == "discard" and last.seat != seat:
        return [*state.claim_actions(seat, last.seat, last.tile), Action(ActionKind.PASS, seat)]
    p = state.players[seat]
    return state.self_actions(seat, drew=p.drawn is not None, rinshan=False)


def decide(state: HandState, seat: int, legal: list[Action], seed: int = 0) -> Action:
    assert legal == engine_legal(state, seat)
    choice = HeuristicBot(seed).decide(Observation(state, seat), legal)
    assert choice in legal
    return choice


def is_type(tile: int | None, text: str) -> bool:
    return tile is not None and tile // 4 == parse_types(text)[0]


def tile_is(action: Action, text: str) -> bool:
    return is_type(action.tile, text)


# P2 after P1's riichi on 6p: ready on 2s/5s with tanyao and dora 3 (555m, indicator 4m); the
# genbutsu 6p is half of the pair, the drawn 8m is neither safe nor useful.
BIG_TENPAI = "555m234p678s34s66p"


def offered(kind: ActionKind) -> Moment:
    return lambda obs, legal: any(a.kind == kind for a in legal)
