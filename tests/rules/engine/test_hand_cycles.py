"""The abilities keep the table controls of their hand, which reach its state: play_hand drops
the state's references to the abilities once the hand is over, so a hand whose abilities keep
nothing past it is freed when it is done instead of waiting, in a cycle, for the garbage
collector (an effect that keeps its controls until the next hand still holds that one)."""

from __future__ import annotations

import gc
import random

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import CardTable
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.wall import Wall


def test_released_state_holds_no_ability() -> None:
    preset = load_preset("cards-hanchan")
    catalog = load_catalog(preset.cards.catalog)
    agents = [HeuristicBot(derive_seed(3, 0, "agent", s)) for s in range(4)]
    table = CardTable(preset, agents, 3, 0, catalog)
    start = HandStart(wall=Wall.shuffled(random.Random(5)).order, dealer=0,
                      scores=(preset.start_points,) * 4)
    abilities = [a for a in table.abilities_for(start) if a is not None]
    state = HandState(start, preset, agents, abilities)
    state.play()
    assert state.abilities and state.__dict__.get("every_ability")
    state.release_abilities()
    assert state.abilities == []
    assert not {"every_ability", "_switchers"} & state.__dict__.keys()
    assert state._listeners is None


def test_played_card_hands_leave_no_state_to_the_garbage_collector() -> None:
    preset = load_preset("cards-hanchan")
    catalog = load_catalog(preset.cards.catalog)
    agents = [HeuristicBot(derive_seed(3, 0, "agent", s)) for s in range(4)]
    table = CardTable(preset, agents, 3, 0, catalog)
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        hands = play_match(preset, agents, 3, 0, table=table).hands
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, HandState)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    assert len(hands) >= 4
    assert any(e.kind == "ability" for h in hands for e in h.events)  # abilities did act
    assert left == []
