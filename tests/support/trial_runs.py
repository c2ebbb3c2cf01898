"""A small card trial's configuration for the trial tests."""

from __future__ import annotations

from pathlib import Path

from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.trial import (
    TrialConfig,
)
from tests.support.paired_runs import write_catalog, write_preset

CARDS = ("plain_a", "quad_a")

def make_config(folder: Path, cards: tuple[str, ...] = CARDS, budget: int = 150,
                target: float = 1.0, bots: str = "greedy") -> TrialConfig:
    return TrialConfig(preset=load_preset(str(write_preset(folder))),
                       catalog=load_catalog(str(write_catalog(folder))), seed=3, cards=cards,
                       bots=(bots,) * 4, target=target, budget_hands=budget)
