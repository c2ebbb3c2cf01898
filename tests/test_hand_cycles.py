"""A card hand, once played, leaves no reference cycle through its state: the abilities keep
the table controls of their hand, and play_hand drops the state's references to them, so the
hand is freed when it is done instead of waiting for the garbage collector."""

from __future__ import annotations

import gc

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import CardTable
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset


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
