"""Random-play invariants with Saki Miyanaga, Maho Yumeno and Mairu Shirouzu (Himeko Tsuruta on
the back of her card) at the table.

Matches are played by the real card table (standard teams, cards-hanchan) with Maho, Saki and
Mairu at the front of the teams of P0, P1 and P2: players without a pick policy pick the first
card, so all three play every hand, and Maho copies a card drawn from the deck each hand. At every
decision the table is checked as in ``tests/test_cards_wall_invariants.py``: all 136 tiles in
exactly one place, legal answers, points conserved, hand sizes.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.table import CardTable
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from tests.test_cards_wall_invariants import OWN_TURN, check_table
from tests.test_invariants import EagerAgent, check_hand_end, check_match

FRONT = {0: "maho_yumeno", 1: "saki_miyanaga", 2: "mairu_shirouzu"}
WITHOUT_YAKU = "kaori_senoo"  # her card lets a hand without yaku win


class CheckingAgent:
    """Checks the table at every decision, then lets the wrapped agent answer. A choice a card
    asks for before the seat acts (a family named, a card step) is made with the drawn tile in
    hand: only the hand sizes of the other decisions are checked."""

    def __init__(self, inner: Agent, preset: Preset) -> None:
        self.inner = inner
        self.preset = preset

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state = obs._state
        assert legal and all(a.seat == obs.seat for a in legal)
        assert len(set(legal)) == len(legal), "an action is offered twice"
        check_table(state, {a.tile for a in legal if a.kind == ActionKind.RON})
        total = sum(state.scores) + 1000 * state.sticks + state.stakes
        assert total == 4 * self.preset.start_points, f"points not conserved: {total}"
        own = any(a.kind in OWN_TURN for a in legal)
        step = any(a.kind == ActionKind.ABILITY for a in legal) and not own
        if not step and not any(a.kind == ActionKind.ABILITY and a.detail.split(":")[1] in
                                ("put_live", "put_dead", "swap") for a in legal):
            for p in state.players:
                size = len(p.concealed) + 3 * len(p.melds)
                expected = 14 if own and p.seat == obs.seat else 13
                assert size == expected, f"P{p.seat} holds {size} tiles, expected {expected}"
        choice = self.inner.decide(obs, legal)
        assert choice in legal, f"{choice} is not among the legal actions"
        return choice


def yaku_or_allowed(rec: HandRecord) -> HandRecord:
    """The record for the generic hand-end checks: a win without yaku is legal only with a
    card that allows it (Kaori Senoo, picked or copied), then it stands as such a win."""
    free = [w for w in rec.wins if not w.yaku]
    if not free:
        return rec
    copied = " ".join(e.detail for e in rec.events if e.kind == "ability" and "copies" in e.detail)
    allowed = {s for s, c in enumerate(rec.picks or ()) if c == WITHOUT_YAKU}
    allowed |= {0} if f"copies {WITHOUT_YAKU}" in copied else set()
    assert all(w.seat in allowed for w in free), "a win without yaku (rule H-03)"
    out = copy.copy(rec)
    out.wins = [w if w.yaku else replace(w, yaku=(("win_without_yaku", 1),)) for w in rec.wins]
    return out


class MetaTable(CardTable):
    """The card table with Maho and Saki moved to the front of two teams."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        s = self.state
        for seat, card in FRONT.items():
            places = [s.deck, s.out_of_play, *s.teams]
            where = next(p for p in places if card in p)
            i = where.index(card)
            where[i], s.teams[seat][0] = s.teams[seat][0], card


def run(make_agent, count: int, offset: int) -> tuple[Counter[str], Counter[str]]:
    preset = load_preset("cards-hanchan")
    seen: Counter[str] = Counter()
    picks: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [CheckingAgent(make_agent(derive_seed("meta", i, s)), preset) for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(yaku_or_allowed(rec), preset, prev[-1] if prev else None)
            prev.append(rec)
            picks.update(rec.picks or ())
            for e in rec.events:
                if e.kind == "ability" and ("copies" in e.detail or "always-winning" in e.detail):
                    seen["copies" if "copies" in e.detail else "always"] += 1

        table = MetaTable(preset, agents, 23, i)
        result = play_match(preset, agents, seed=23, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
        for card in FRONT.values():  # Maho kept every card she drew; nothing lost or doubled
            assert sorted(table.state.all_cards()) == sorted(set(table.state.all_cards()))
            assert card in table.state.all_cards()
    return seen, picks


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_random_play_with_saki_and_maho_keeps_the_invariants(offset: int) -> None:
    seen, picks = run(RandomAgent, 1, offset)
    assert picks["maho_yumeno"] and picks["saki_miyanaga"]
    assert seen["copies"]


def test_eager_play_with_saki_and_maho_keeps_the_invariants() -> None:
    seen, picks = run(EagerAgent, 2, 100)
    assert seen["copies"] and picks["saki_miyanaga"]


@pytest.mark.slow
def test_heuristic_play_with_saki_and_maho_keeps_the_invariants() -> None:
    run(HeuristicBot, 1, 200)
