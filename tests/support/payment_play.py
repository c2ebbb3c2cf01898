"""Playing a scripted hand with the payment cards and reading its score changes."""

from __future__ import annotations

from dataclasses import replace

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.match_duties import match_duties
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import ActionKind
from pipeline.rules.hand import play_hand
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_tiles
from tests.support.card_scripts import optional_name

CATALOG = load_catalog("1.2")

# nagashi mangan off: filler discards must not turn a drawn hand into a nagashi
PRESET = replace(load_preset("cards-hanchan"), nagashi_mangan=False)

class ChoosingAgent(ScriptAgent):
    """A script that can also name an ability's action: ``"ability riichi:inazuma 6z"``."""

    def decide(self, obs, legal):
        if self.script and self.script[0].startswith("ability "):
            _, what, tile = self.script[0].split()
            t = parse_tiles(tile)[0] // 4
            for a in legal:
                if a.kind == ActionKind.ABILITY and optional_name(a) == what and a.tile // 4 == t:
                    self.script.pop(0)
                    self.offers.append(legal)
                    return a
            waiting, self.script = self.script, []  # not offered yet: play on by default
            try:
                return super().decide(obs, legal)
            finally:
                self.script = waiting
        return super().decide(obs, legal)


def play(hands, draws="", *, cards=None, scripts=(), memory=None, **start):
    """One hand with the named cards seated (``{seat: card id}``, or a card with a reading
    changed); every seat's agent back."""
    memory = memory if memory is not None else MatchMemory()
    cards = cards or {}
    abilities = [CardAbility(CATALOG.card(cards[s]) if isinstance(cards[s], str) else cards[s],
                             s, memory) if s in cards else None for s in range(4)]
    agents = [ChoosingAgent(s) for s in [*scripts, *([()] * (4 - len(scripts)))]]
    start = scenario_start(hands, draws, dora=start.pop("dora", "1z"), **start)
    rec = play_hand(start, PRESET, agents, [*abilities, *match_duties(memory)])
    return rec, agents, [a for a in abilities if a is not None]


def deltas(rec: HandRecord) -> list[int]:
    return [s.delta for s in rec.seats]
