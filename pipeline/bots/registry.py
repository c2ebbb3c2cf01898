"""Bot kinds by name, so commands and simulations can say which players sit at the table.

A kind is a name from ``BOT_KINDS``; the heuristic bot also takes a playing style from
``pipeline/data/bots/styles.toml`` after a colon (``heuristic:careful``,
``heuristic:caller``), so a table of different player types is one ``--bots`` option away;
``heuristic:expert`` weighs its card's choices by rollouts (:mod:`pipeline.bots.expert`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from pipeline.errors import LabError
from pipeline.rules.agents import Agent, RandomAgent

STYLED_KIND = "heuristic"  # the one kind whose play has style knobs


class CalibrationError(LabError):
    """A calibration request that cannot be played as asked (one line for the CLI)."""


class UnknownBotError(LabError):
    """A bot kind that does not exist."""


def _random(seed: int) -> Agent:
    return RandomAgent(seed)


def _greedy(seed: int) -> Agent:
    from pipeline.bots.greedy import GreedyBot

    return GreedyBot(seed)


def _heuristic(seed: int, style_name: str = "default") -> Agent:
    """The heuristic bot in that style; a style with lookahead (``heuristic:expert``) is
    the expert bot, which plays its card's choices out (:mod:`pipeline.bots.expert`)."""
    from pipeline.bots.heuristic import HeuristicBot
    from pipeline.bots.style import style

    if style(style_name).lookahead > 0:
        from pipeline.bots.expert import ExpertBot

        return ExpertBot(seed, style_name)
    return HeuristicBot(seed, style_name)


BOT_KINDS: dict[str, Callable[[int], Agent]] = {
    "heuristic": _heuristic,
    "greedy": _greedy,
    "random": _random,
}


@cache
def _style_names() -> tuple[str, ...]:
    """The styles of pipeline/data/bots/styles.toml, read once (every styled agent is checked)."""
    from pipeline.bots.style import load_styles

    return tuple(load_styles())


def check_kind(kind: str) -> None:
    """Raises ``UnknownBotError`` saying what is known when ``kind`` names no bot or style."""
    base, _, style_name = kind.partition(":")
    if base not in BOT_KINDS:
        known = ", ".join(BOT_KINDS)
        raise UnknownBotError(f"unknown bot kind {base!r} (known: {known}; the heuristic bot "
                              f"also takes a style, e.g. {STYLED_KIND}:careful)")
    if not style_name:
        if kind.endswith(":"):
            raise UnknownBotError(f"bot kind {kind!r}: name a style after the colon, "
                                  f"e.g. {STYLED_KIND}:careful")
        return
    if base != STYLED_KIND:
        raise UnknownBotError(f"bot kind {kind!r}: only {STYLED_KIND} takes a style")
    try:
        styles = _style_names()
    except ValueError as exc:  # the style file is missing or bad (StyleError)
        raise UnknownBotError(f"bot kind {kind!r}: {exc}") from None
    if style_name not in styles:
        raise UnknownBotError(f"bot kind {kind!r}: unknown style {style_name!r} (styles in "
                              f"pipeline/data/bots/styles.toml: {', '.join(styles)})")


def make_agent(kind: str, seed: int) -> Agent:
    """A fresh player of the given kind (``heuristic``, ``heuristic:careful``, ``greedy``,
    ``random``) with its own seeded random stream."""
    if kind in BOT_KINDS:
        return BOT_KINDS[kind](seed)
    check_kind(kind)
    return _heuristic(seed, kind.partition(":")[2])
