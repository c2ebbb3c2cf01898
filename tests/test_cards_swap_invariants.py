"""Random-play invariants with the swap cards at the table: Hajime Kunihiro, Ako Atarashi and
Myeonghwa Choe (tiles swapped with ponds), Satoha Tsujigaito (with the next wall tile), Yumi
Kajiki (melds swapped, discards turned face down), with Teru Miyanaga (honba counted for swaps)
and Nodoka Haramura and Tomoe Karijuku (face-down discards and extra turns, which Satoha
watches).

Every seat plays one of those characters every hand (a seeded draw), in hanchan matches. At
every decision the table is checked (see tests/test_cards_wall_invariants.py): all 136 tiles in
exactly one place, the answer one of the legal actions, none offered twice, points conserved,
13 tiles held (14 on the seat's own turn, a kan counting three; while a swap is offered, one
seat, whose turn it is, may hold 14).
"""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from tests.test_cards_wall_invariants import OWN_TURN, RandomCardTable, check_table
from tests.test_invariants import EagerAgent, check_hand_end, check_match

CARDS = ("hajime_kunihiro", "ako_atarashi", "myeonghwa_choe", "satoha_tsujigaito",
         "yumi_kajiki", "teru_miyanaga", "nodoka_haramura", "tomoe_karijuku")
SWAP_STEPS = ("swap_pond", "swap_wall", "swap_meld", "turn_down")
CATALOG = load_catalog("1.2")


class SwapCheckingAgent:
    """Checks the table at every decision, then lets the wrapped agent answer."""

    def __init__(self, inner: Agent, preset: Preset, seen: Counter[str]) -> None:
        self.inner = inner
        self.preset = preset
        self.seen = seen

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state: HandState = obs._state
        assert legal and all(a.seat == obs.seat for a in legal)
        assert len(set(legal)) == len(legal), "an action is offered twice"
        check_table(state, {a.tile for a in legal if a.kind == ActionKind.RON})
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        own = any(a.kind in OWN_TURN for a in legal)
        swap = any(a.kind == ActionKind.ABILITY and a.detail.split(":")[1] in SWAP_STEPS
                   for a in legal)
        sizes = [len(p.concealed) + 3 * len(p.melds) for p in state.players]
        if swap:  # between draw (or call) and discard, the seat whose turn it is holds 14
            assert all(n in (13, 14) for n in sizes) and sizes.count(14) <= 1, sizes
        else:
            for p, size in zip(state.players, sizes, strict=True):
                expected = 14 if own and p.seat == obs.seat else 13
                assert size == expected, f"P{p.seat} holds {size} tiles, expected {expected}"
        for a in legal:  # a swap names a hand tile and a tile lying face up in a pond
            if a.kind == ActionKind.ABILITY and a.detail.endswith(":swap_pond"):
                assert a.tile in state.players[obs.seat].concealed
                assert any(a.tiles[0] in pond for pond in state._pond_tiles())
        choice = self.inner.decide(obs, legal)
        assert choice in legal, f"{choice} is not among the legal actions"
        if choice.kind == ActionKind.ABILITY:
            self.seen[choice.detail.split(":")[1]] += 1
        return choice


def run(make_agent, count: int, offset: int) -> Counter[str]:
    preset = load_preset("cards-hanchan")
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [SwapCheckingAgent(make_agent(derive_seed("swap", i, s)), preset, seen)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            seen["swaps logged"] += sum(1 for e in rec.events
                                        if e.kind == "ability" and "swaps" in e.detail)

        table = RandomCardTable(CARDS, derive_seed("swap-table", i))
        result = play_match(preset, agents, seed=23, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
    return seen


@pytest.mark.parametrize("offset", [0, 2])
def test_random_play_with_swap_cards_keeps_the_invariants(offset: int) -> None:
    seen = run(RandomAgent, 2, offset)
    assert seen["swap_pond"] and seen["swap_wall"] and seen["turn_down"]
    assert seen["swaps logged"] == seen["swap_pond"] + seen["swap_wall"] + seen["swap_meld"]


def test_eager_play_with_swap_cards_keeps_the_invariants() -> None:
    seen = run(EagerAgent, 1, 100)
    assert seen["swap_pond"] and seen["swap_meld"]


def test_heuristic_play_with_swap_cards_keeps_the_invariants() -> None:
    seen = run(HeuristicBot, 1, 200)
    assert seen["swaps logged"] == seen["swap_pond"] + seen["swap_wall"] + seen["swap_meld"]
