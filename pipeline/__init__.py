"""Saki Mahjong Cards balance lab: rules engine, bots, simulation and analytics."""

from pipeline import _compiled

__version__ = "0.1.0"

_compiled.install()  # the compiled engine, card and bot modules where built and current
