"""A small catalog, preset and run configuration written into a test's folder for paired runs."""

from __future__ import annotations

from pathlib import Path

from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.run import RunConfig, parse_bots

CARD = """
[[card]]
id = "{id}"
name = "{name}"
school = "Test"
text = "Her wins are worth {{mult.factor}} times their value."

[[card.effect]]
id = "mult"
kind = "win_multiplier"
factor = {factor}
when = "always"
"""

def write_catalog(folder: Path) -> Path:
    cards = [("plain_a", "Plain A", 1), ("plain_b", "Plain B", 1), ("quad_a", "Quad A", 4),
             ("quad_b", "Quad B", 4)]
    text = 'version = "test"\ndate = "2026"\nsource = "test cards"\n' + "".join(
        CARD.format(id=i, name=n, factor=f) for i, n, f in cards)
    path = folder / "test-cards.toml"
    path.write_text(text)
    return path


def write_preset(folder: Path) -> Path:
    # the full card-hanchan rules with teams of one card (few cards are playable yet)
    path = folder / "cards-one.toml"
    path.write_text('extends = "cards-hanchan"\nname = "cards-one"\n'
                    "[cards]\nteam_size = 1\n")
    return path


def make_config(folder: Path, paired: bool = True, games: int = 3, seed: int = 2,
                bots: str = "greedy") -> RunConfig:
    return RunConfig(preset=load_preset(str(write_preset(folder))),
                     catalog=load_catalog(str(write_catalog(folder))), seed=seed, games=games,
                     bots=parse_bots(bots), shard_size=1, paired=paired)
