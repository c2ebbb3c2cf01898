"""Random-play invariants with the claim, win, block and duel cards at the table: Sumire, Yukiko,
Hiroe, Sae, Megan and Aislinn.

Every seat plays one of those characters every hand (a seeded draw), with the table checks of
``tests/invariant_checks.py``: 136 tiles each in one place, only legal actions (the engine
refuses any other), the offers the rules allow, and points conserved at every decision and every
hand end (Aislinn's stakes counted with the sticks). Yukiko's priority chi may come from any
player, so the "only the next player may chi" check is replaced for it by a priority call's
(not in riichi, on another seat's discard) and its own: the tile is the discard on offer. A
player named for a duel or a block is one of the other three.
"""

from __future__ import annotations

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation, RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from tests.invariant_checks import (
    RandomCardTable,
    TableChecker,
    Tally,
    last_discard,
    play_checked,
)
from tests.support.rule_checks import EagerAgent

CARDS = ("sumire_hirose", "yukiko_maya", "hiroe_atago", "sae_usuzawa", "megan_davin",
         "aislinn_wishart")
NAMING = (":duel:P", ":block:P")


class DuelChecker(TableChecker):
    """The table checks; a player named (duel, block) is one of the other three, each offered
    once, on the seat's turn; Yukiko's priority chi (checked as a priority call) takes the
    discard on offer."""

    turn_steps = frozenset({"duel", "block"})

    def check_cards(self, obs: Observation, legal: list[Action]) -> None:
        chi = [a for a in legal if a.kind == ActionKind.CHI and a.detail.endswith(":priority")]
        assert all(a.tile == last_discard(obs._state).tile for a in chi)
        if all(any(n in a.detail for n in NAMING) for a in legal):
            assert {int(a.detail.rsplit("P", 1)[1]) for a in legal} == \
                set(range(4)) - {obs.seat}


def run(preset: Preset, make_agent, count: int, offset: int) -> Tally:
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        for e in rec.events:
            if e.kind == "ability":
                what = e.detail.split(": ")[1] if ": " in e.detail else e.detail
                tally.seen[what.split(" ")[0] if what.startswith(("duel", "block")) else what] \
                    += 1

    for i in range(offset, offset + count):
        agents = DuelChecker.seats(make_agent, "duel", i, preset, tally)
        play_checked(preset, agents, RandomCardTable(CARDS, derive_seed("duel-table", i)),
                     seed=17, match_index=i, on_hand=on_hand)
    return tally


@pytest.mark.parametrize("offset", [0, 4])
def test_random_play_with_duel_cards_keeps_the_invariants(offset: int) -> None:
    t = run(load_preset("cards-tonpuusen"), RandomAgent, 4, offset)
    assert t.decisions > 0
    assert t.seen["duel"] > 0 and t.seen["priority chi"] > 0


def test_eager_play_with_duel_cards_keeps_the_invariants() -> None:
    t = run(load_preset("cards-tonpuusen"), EagerAgent, 4, 100)
    assert t.kinds["ron"] > 0 and t.seen["stake"] > 0
    assert any("previous discard" in what for what in t.seen)  # a late ron was checked too


def test_heuristic_play_with_duel_cards_keeps_the_invariants() -> None:
    t = run(load_preset("cards-tonpuusen"), HeuristicBot, 2, 200)
    assert t.decisions > 0 and t.seen["duel"] > 0
