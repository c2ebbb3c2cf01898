"""Saki Mahjong Cards balance lab: rules engine, bots, simulation and analytics."""

__version__ = "0.1.0"
