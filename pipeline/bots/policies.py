"""Simple alternative policies for a card's holder, to measure how far the shipped bot is from
them (``saki bots gap``, :mod:`pipeline.sim.policy_gap`).

Each policy is the heuristic bot with one rule changed, so that a difference in the card's
value on the same deals is that rule's:

- ``shipped``: the heuristic bot as shipped;
- ``no-incentives``: the card's tile incentives ignored (:mod:`pipeline.cards.incentives`): the
  hand built by the ordinary game's values, as before the card declared them;
- ``always`` / ``never``: every optional offer of the card (an ability action offered beside a
  plain alternative: an extra turn, a face-down discard, a swap, a draw...) taken, or declined;
  everything else as shipped;
- ``expert``: the expert style (:mod:`pipeline.bots.expert`): the card's choices and its
  incentive-laden discards weighed by rollouts; everything else as shipped.
- ``hindsight`` (:data:`HINDSIGHT`, no bot of its own): on each match, the best of the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.bots.expert import ExpertBot
from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hooks import PickView

SHIPPED = "shipped"
EXPERT_POLICY = "expert"
# Not a bot: the best of the played policies on each match, chosen knowing how it went (an
# upper bound, :func:`pipeline.sim.policy_gap.hindsight_matches`).
HINDSIGHT = "hindsight"


class NoIncentivesBot(HeuristicBot):
    """The heuristic bot that ignores what its card rewards or punishes in tile choices."""

    def pick(self, starting_hand: Sequence[int], team: Sequence[str],
             situation: PickView | None = None) -> str:
        choice = super().pick(starting_hand, team, situation)
        self.incentives = None
        self.sides = ()
        return choice


def _optional(legal: list[Action]) -> tuple[list[Action], list[Action]]:
    """A card's optional offer: its ability actions and the plain actions beside them (both
    empty when ``legal`` is no such choice: a forced card step, or a plain decision)."""
    offers = [a for a in legal if a.kind is ActionKind.ABILITY]
    plain = [a for a in legal if a.kind is not ActionKind.ABILITY]
    return (offers, plain) if offers and plain else ([], [])


def _same_tile(options: list[Action], choice: Action) -> Action:
    """The option on the tile of ``choice`` (a face-down or staked version of a discard, or
    the plain one), else the first."""
    for a in options:
        if a.tile is not None and a.tile == choice.tile:
            return a
    return options[0]


class AlwaysBot(HeuristicBot):
    """The heuristic bot that takes every optional offer of its card (on the tile it would
    play anyway where the offer names one)."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        choice = super().decide(obs, legal)
        offers, _ = _optional(legal)
        if not offers or choice.kind is ActionKind.ABILITY or choice.kind in (
                ActionKind.TSUMO, ActionKind.RON):
            return choice
        return _same_tile(offers, choice)


class NeverBot(HeuristicBot):
    """The heuristic bot that declines every optional offer of its card (the plain action on
    the same tile where there is one)."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        choice = super().decide(obs, legal)
        offers, plain = _optional(legal)
        if not offers or choice.kind is not ActionKind.ABILITY:
            return choice
        return _same_tile(plain, choice)


POLICIES: dict[str, type[HeuristicBot]] = {
    SHIPPED: HeuristicBot,
    "no-incentives": NoIncentivesBot,
    "always": AlwaysBot,
    "never": NeverBot,
    EXPERT_POLICY: ExpertBot,
}


class UnknownPolicyError(ValueError):
    """A policy name that is not one of :data:`POLICIES`."""


def check_policy(name: str) -> None:
    if name not in POLICIES:
        raise UnknownPolicyError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")


def holder_bot(policy: str, seed: int) -> HeuristicBot:
    """The holder's bot under ``policy``, with the stream the shipped bot would have."""
    check_policy(policy)
    return POLICIES[policy](seed)
