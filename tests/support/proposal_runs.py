"""A small proposal on a planted card, for the slow propose tests and the notebook test."""

from __future__ import annotations

from pathlib import Path

from pipeline.cards.catalog import load_catalog
from pipeline.report.propose import ProposeConfig
from pipeline.rules.preset import load_preset
from pipeline.verdicts import BandSpec
from tests.support.paired_runs import write_catalog


def east_one(folder: Path) -> Path:
    path = folder / "east-one.toml"
    path.write_text('extends = "cards-hanchan"\nname = "east-one"\nlength = "tonpuusen"\n'
                    "[cards]\nteam_size = 1\n")
    return path


def config(folder: Path, **kw) -> ProposeConfig:
    base = dict(preset=load_preset(str(east_one(folder))),
                catalog=load_catalog(str(write_catalog(folder))), seed=3,
                cards=("quad_a",), band=BandSpec(lo=2300.0, hi=3900.0),
                whole_deck=False, bots=("greedy",) * 4, verdict_budget=8000,
                probe_budget=300, max_step=1)
    return ProposeConfig(**{**base, **kw})
