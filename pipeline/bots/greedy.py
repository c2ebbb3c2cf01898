"""The shanten-greedy baseline: pure tile efficiency, always riichi, never calls, never folds.
It takes every win offered except one marked as a chombo (it is a weak player, not a careless
one)."""

from __future__ import annotations

import random

from pipeline.bots.evaluate import acceptance
from pipeline.bots.heuristic import CHOMBO
from pipeline.bots.shanten import shanten, visible_counts
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.tiles import RED_FIVE_IDS, counts34


class GreedyBot:
    """Lowest shanten, then widest acceptance; a baseline the heuristic bot must beat."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        for a in legal:
            if a.kind in (ActionKind.TSUMO, ActionKind.RON, ActionKind.NINE_TERMINALS) \
                    and a.tag is not CHOMBO:  # a win the engine would penalise
                return a
        if legal[-1].kind == ActionKind.PASS:
            return legal[-1]
        if not any(a.kind == ActionKind.DISCARD for a in legal):
            return legal[0]  # a choice a card forces before the discard (a family named, ...)
        if obs.in_riichi(obs.seat):
            return next(a for a in legal if a.kind == ActionKind.DISCARD)
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        unseen = [4 - v for v in visible_counts(obs)]
        best_key, best_type = None, None
        for t in sorted({a.tile // 4 for a in legal if a.kind == ActionKind.DISCARD}):
            counts[t] -= 1
            sh = shanten(counts, nm)
            key = (sh, -acceptance(counts, nm, unseen))
            counts[t] += 1
            if best_key is None or key < best_key:
                best_key, best_type = key, t
        for kind in (ActionKind.RIICHI, ActionKind.DISCARD):
            options = [a for a in legal if a.kind == kind and a.tile // 4 == best_type]
            if options:
                plain = [a for a in options if a.tile == obs.drawn] or \
                    [a for a in options if a.tile not in RED_FIVE_IDS] or options
                return plain[0]
        raise AssertionError("no discard offered")

    def pick(self, starting_hand, team):
        return team[0]
