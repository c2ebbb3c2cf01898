"""Play one match of a finished run again, from its ``run.json`` alone.

A run is a function of its seed and inputs: match ``i`` takes its walls from ``(seed, i)`` and
seat ``s`` plays with ``make_agent(bot, derive_seed(seed, i, "agent", s))`` (as in
:func:`pipeline.sim.run.play_shard`), so the resolved preset, the seed and the bots stored in
``run.json`` give back every hand with its full event log. The replay is checked against the
stored ``hands`` table; a difference means the code changed since the run was made. A card run
also needs its catalog: the catalog version recorded in ``run.json`` is loaded and must still
have the recorded content hash.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from pipeline.bots.registry import make_agent
from pipeline.cards.catalog import Catalog, CatalogError, load_catalog
from pipeline.cards.table import CardTable
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import Preset, preset_from_dict
from pipeline.sim import SimError
from pipeline.sim.run import load_table, read_run


def run_preset(run: dict[str, Any]) -> Preset:
    """The run's resolved preset, rebuilt from ``run.json``."""
    return preset_from_dict(run["preset"], "run.json")


def run_bots(run: dict[str, Any]) -> tuple[str, ...]:
    bots = run["bots"]
    seats = bots["seats"] if isinstance(bots, dict) else bots
    return tuple(seats)


def replay_match(run_dir: Path, match_id: int) -> MatchResult:
    """Play match ``match_id`` of the run in ``run_dir`` again and check it against the
    stored ``hands`` table (hand count and every seat's end score of every hand).

    Raises :class:`SimError` when the folder holds no run, the match is not in the run, or
    the replay differs from the stored result.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise SimError(f"{run_dir}: no such run folder")
    run = read_run(run_dir)
    run_id = run.get("run_id", run_dir.name)
    games = int(run["games"])
    if not 0 <= match_id < games:
        raise SimError(f"run {run_id} has no match {match_id} (matches 0-{games - 1})")
    stored = (load_table(run_dir, "hands")
              .filter(pl.col("match_id") == match_id)
              .sort("hand_index", "seat"))
    if stored.is_empty():
        raise SimError(f"run {run_id} match {match_id} is not in the stored tables "
                       "(unfinished run?)")
    preset = run_preset(run)
    seed = int(run["seed"])
    agents = [make_agent(kind, derive_seed(seed, match_id, "agent", s))
              for s, kind in enumerate(run_bots(run)[:preset.players])]  # 3 seats: S-01
    table = None
    if preset.cards.enabled:
        table = CardTable(preset, agents, seed, match_id, run_catalog(run))
    result = play_match(preset, agents, seed, match_id, table=table)

    expected: dict[int, list[int]] = {}
    for row in stored.iter_rows(named=True):
        expected.setdefault(row["hand_index"], [0] * preset.players)[row["seat"]] = \
            row["end_score"]
    replayed = {i: [s.end_score for s in rec.seats] for i, rec in enumerate(result.hands)}
    if replayed != expected:
        raise SimError(f"run {run_id} match {match_id} does not replay to the stored result: "
                       f"code changed since the run? ({_first_difference(expected, replayed)})")
    return result


def run_catalog(run: dict[str, Any]) -> Catalog:
    """The run's card catalog, loaded from its recorded version and checked against the
    recorded content hash."""
    info = run.get("catalog") or {}
    version = str(info.get("version"))
    try:
        catalog = load_catalog(version)
    except CatalogError as exc:
        raise SimError(f"run {run.get('run_id')}: its catalog cannot be loaded ({exc})") from None
    if info.get("content_hash") and catalog.content_hash() != info["content_hash"]:
        raise SimError(f"run {run.get('run_id')}: catalog {version} has changed since the run "
                       "was made, so its matches cannot be replayed; restore the catalog file "
                       "(run.json lists every card as it was under catalog -> cards)")
    return catalog


def _first_difference(expected: dict[int, list[int]], replayed: dict[int, list[int]]) -> str:
    if len(expected) != len(replayed):
        return f"{len(expected)} hands stored, {len(replayed)} replayed"
    for i in sorted(expected):
        if expected[i] != replayed.get(i):
            return f"hand {i}: end scores {expected[i]} stored, {replayed.get(i)} replayed"
    return "no difference"
