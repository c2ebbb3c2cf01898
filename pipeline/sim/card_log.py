"""A card game's mjai log (docs/mjai-extension.md) checked by playing its match again.

Abilities act through the engine's hooks with the bots' answers to every choice, so a log of a
card game cannot be replayed action by action the way a plain one is. But our export names the
run's seed and match (``start_game``'s ``seed``) and the bots (``names``): with the preset and
its catalog, the match plays again exactly, and every event of every logged hand (picks, ability
triggers, draws, discards, calls, deltas) must be what the engine writes for it now.
"""

from __future__ import annotations

import json
from typing import Any

from pipeline.bots.registry import UnknownBotError, check_kind, make_agent
from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import CardTable
from pipeline.replay.record import RecordedGame
from pipeline.replay.replayer import Mismatch, ReplayReport, check_card_game, hand_name
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset
from pipeline.sim.mjai import hand_events


def _text(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def check_card_log(game: RecordedGame, preset: Preset) -> ReplayReport:
    """Every logged hand compared with the same hand played again (see the module docstring);
    a log that does not name a seed and bots falls back to the chain of scores."""
    seed = game.rules.get("seed")
    try:
        for kind in game.players:
            check_kind(kind)
    except UnknownBotError:
        seed = None
    if not preset.cards.enabled or not seed or len(seed) != 2:
        return check_card_game(game)
    agents = [make_agent(kind, derive_seed(seed[0], seed[1], "agent", s))
              for s, kind in enumerate(game.players[:preset.players])]  # 3 seats: S-01
    table = CardTable(preset, agents, seed[0], seed[1], load_catalog(preset.cards.catalog))
    result = play_match(preset, agents, seed[0], seed[1], table=table)
    ours = {}
    for rec in result.hands:
        events = hand_events(rec, preset.red_fives, preset)
        ours.setdefault(_text(events[0]), events)
    report = ReplayReport(files=1)
    for h, logged in zip(game.hands, game.rules.get("mjai_hands", ()), strict=False):
        report.hands += 1
        report.actions += sum(e["type"] not in ("start_kyoku", "end_kyoku") for e in logged)
        mine = ours.get(_text(logged[0]))
        if mine is None:
            report.mismatches.append(Mismatch(game.source, hand_name(h), (
                f"no hand of match {seed[1]} (seed {seed[0]}, preset {preset.name}) played "
                "again starts like this one")))
            continue
        diff = next((i for i, (a, b) in enumerate(zip(logged, mine, strict=False))
                     if _text(a) != _text(b)), None)
        if diff is None and not h.complete and len(logged) <= len(mine):
            # the log stops mid-hand (an interrupted write): what it holds agrees
            report.incomplete.append(Mismatch(game.source, hand_name(h), (
                f"the log stops mid-hand after {len(logged)} events, which agree with the "
                "match played again")))
            continue
        if diff is None and len(logged) != len(mine):
            diff = min(len(logged), len(mine))
        if diff is None:
            report.passed += 1
            continue
        got = mine[diff] if diff < len(mine) else "nothing"
        want = logged[diff] if diff < len(logged) else "nothing"
        report.mismatches.append(Mismatch(game.source, f"{hand_name(h)}, event {diff}",
                                          f"the match played again gives {got} (log {want})"))
    return report
