"""A scripted agent that also answers a card's ability steps, and the name an optional ability
action is registered by."""

from __future__ import annotations

from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.scenario import ScriptAgent
from pipeline.tiles import parse_types


def optional_name(action: Action) -> str:
    """The name ``abilities.OPTIONAL_EFFECTS`` registers an ability action by: its tag, and
    after a colon the way it names (a riichi's ``"riichi:inazuma"``), from the typed fields."""
    return f"{action.tag}:{action.payload}" if isinstance(action.payload, str) \
        else str(action.tag)


class CardScript(ScriptAgent):
    """A script with card steps too: ``"extra"`` takes an offered extra turn, ``"fd 3m"``
    discards 3m face down, ``"family sou"`` names a family. Offers of ability actions are noted
    (``ability_offers``) with the seat's discard count at the time."""

    def __init__(self, script=()) -> None:
        super().__init__(script)
        self.ability_offers: list[tuple[int, str]] = []
        self.seen: list[tuple[bool, ...]] = []   # per decision: whose hands it could see
        self.scores: list[tuple[int, ...]] = []  # per decision: the scores it saw

    def decide(self, obs, legal):
        self.seen.append(tuple(obs.shown_hand(s) is not None for s in range(4)))
        self.scores.append(obs.scores)
        turns = len(obs._state.players[obs.seat].discards)
        for a in legal:
            if a.kind == ActionKind.ABILITY:
                self.ability_offers.append((turns, str(a.tag)))
        if self.script:
            step = self.script[0].split()
            chosen = None
            if step[0] == "extra":
                chosen = next((a for a in legal if a.tag is AbilityTag.EXTRA_TURN), None)
            elif step[0] == "fd":
                t = parse_types(step[1])[0]
                chosen = next((a for a in legal if a.tag is AbilityTag.FACE_DOWN
                               and a.tile // 4 == t), None)
            elif step[0] == "family":
                chosen = next((a for a in legal if (a.tag is Move.FAMILY and a.payload == step[1])),
                              None)
            if chosen is not None:
                self.script.pop(0)
                self.offers.append(legal)
                return chosen
            if step[0] in ("extra", "fd", "family"):  # not offered now: play on by default
                script, self.script = self.script, []
                try:
                    return self._default(obs, legal)
                finally:
                    self.script = script
        return self._default(obs, legal)

    def _default(self, obs, legal):
        if legal[0].tag is AbilityTag.EXTRA_TURN:  # declined unless scripted
            return legal[-1]
        return super().decide(obs, legal)

    def offered(self, what: str, upto: int = 2) -> list[int]:
        """The discard counts (up to ``upto``: later turns are filler) at which ``what`` was
        offered."""
        return sorted({turns for turns, w in self.ability_offers if w == what and turns <= upto})
