"""Random-play invariants with the swap cards at the table: Hajime Kunihiro, Ako Atarashi and
Myeonghwa Choe (tiles swapped with ponds), Satoha Tsujigaito (with the next wall tile), Yumi
Kajiki (melds swapped, discards turned face down), with Teru Miyanaga (honba counted for swaps)
and Nodoka Haramura and Tomoe Karijuku (face-down discards and extra turns, which Satoha
watches).

Every seat plays one of those characters every hand (a seeded draw), in hanchan matches. At
every decision the table is checked (see ``tests/invariant_checks.py``): all 136 tiles in
exactly one place, the answer one of the legal actions, none offered twice, points conserved,
kans counted alike when melds change seats, 13 tiles held (14 on the seat's own turn, a kan
counting three; while a swap is offered, one seat, whose turn it is, may hold 14), and a pond
swap names a hand tile and a tile lying face up in a pond.
"""

from __future__ import annotations

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation, RandomAgent
from pipeline.rules.match import derive_seed
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord
from tests.invariant_checks import RandomCardTable, TableChecker, Tally, play_checked
from tests.support.rule_checks import EagerAgent

CARDS = ("hajime_kunihiro", "ako_atarashi", "myeonghwa_choe", "satoha_tsujigaito",
         "yumi_kajiki", "teru_miyanaga", "nodoka_haramura", "tomoe_karijuku")
SWAP_STEPS = ("swap_pond", "swap_wall", "swap_meld", "turn_down")


class SwapChecker(TableChecker):
    """The table checks (a swap is offered during a turn: the seat on turn may hold 14); a
    pond swap names a hand tile and a tile lying face up in a pond."""

    turn_steps = frozenset(SWAP_STEPS)

    def check_cards(self, obs: Observation, legal: list[Action]) -> None:
        state = obs._state
        for a in legal:
            if a.kind == ActionKind.ABILITY and a.detail.endswith(":swap_pond"):
                assert a.tile in state.players[obs.seat].concealed
                assert any(a.tiles[0] in pond for pond in state._pond_tiles())


def run(make_agent, count: int, offset: int) -> Tally:
    preset = load_preset("cards-hanchan")
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        tally.seen["swaps logged"] += sum(1 for e in rec.events
                                          if e.kind == "ability" and "swaps" in e.detail)

    for i in range(offset, offset + count):
        agents = SwapChecker.seats(make_agent, "swap", i, preset, tally)
        play_checked(preset, agents, RandomCardTable(CARDS, derive_seed("swap-table", i)),
                     seed=23, match_index=i, on_hand=on_hand)
    return tally


@pytest.mark.parametrize("offset", [0, 2])
def test_random_play_with_swap_cards_keeps_the_invariants(offset: int) -> None:
    t = run(RandomAgent, 2, offset)
    assert t.steps["swap_pond"] and t.steps["swap_wall"] and t.steps["turn_down"]
    assert t.seen["swaps logged"] == \
        t.steps["swap_pond"] + t.steps["swap_wall"] + t.steps["swap_meld"]


def test_eager_play_with_swap_cards_keeps_the_invariants() -> None:
    t = run(EagerAgent, 1, 100)
    assert t.steps["swap_pond"] and t.steps["swap_meld"]


def test_heuristic_play_with_swap_cards_keeps_the_invariants() -> None:
    t = run(HeuristicBot, 1, 200)
    assert t.seen["swaps logged"] == \
        t.steps["swap_pond"] + t.steps["swap_wall"] + t.steps["swap_meld"]
