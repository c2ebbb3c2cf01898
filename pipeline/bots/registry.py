"""Bot kinds by name, so commands and simulations can say which players sit at the table."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.rules.agents import Agent, RandomAgent


class UnknownBotError(ValueError):
    """A bot kind that does not exist."""


def _random(seed: int) -> Agent:
    return RandomAgent(seed)


def _greedy(seed: int) -> Agent:
    from pipeline.bots.greedy import GreedyBot

    return GreedyBot(seed)


def _heuristic(seed: int) -> Agent:
    from pipeline.bots.heuristic import HeuristicBot

    return HeuristicBot(seed)


BOT_KINDS: dict[str, Callable[[int], Agent]] = {
    "heuristic": _heuristic,
    "greedy": _greedy,
    "random": _random,
}


def make_agent(kind: str, seed: int) -> Agent:
    """A fresh player of the given kind with its own seeded random stream."""
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        known = ", ".join(BOT_KINDS)
        raise UnknownBotError(f"unknown bot kind {kind!r} (known: {known})") from None
    return factory(seed)
