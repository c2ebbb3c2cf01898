"""Random-play invariants with Saki Miyanaga, Maho Yumeno and Mairu Shirouzu (Himeko Tsuruta on
the back of her card) at the table.

Matches are played by the real card table (standard teams, cards-hanchan) with Maho, Saki and
Mairu at the front of the teams of P0, P1 and P2: players without a pick policy pick the first
card, so all three play every hand, and Maho copies a card drawn from the deck each hand. At every
decision the table is checked as in ``tests/invariant_checks.py`` (all 136 tiles in exactly one
place, legal answers, points conserved, hand sizes); after each match, the cards Maho kept are
all still in play, none twice.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.table import CardTable
from pipeline.rules.agents import RandomAgent
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord
from tests.invariant_checks import TableChecker, Tally, play_checked
from tests.support.rule_checks import EagerAgent

FRONT = {0: "maho_yumeno", 1: "saki_miyanaga", 2: "mairu_shirouzu"}


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


class MetaChecker(TableChecker):
    """The table checks; the fourth seat's card and the cards Maho copies come from the whole
    deck, so any card's choice may come amid another's steps."""

    turn_steps = None


def run(make_agent, count: int, offset: int) -> tuple[Counter[str], Counter[str]]:
    """Checked matches (a win without yaku only with Kaori Senoo's card, picked or copied:
    rule H-03); return the copies and always-winning tiles seen, and the picks."""
    preset = load_preset("cards-hanchan")
    tally = Tally()
    picks: Counter[str] = Counter()

    def on_hand(rec: HandRecord) -> None:
        picks.update(rec.picks or ())
        for e in rec.events:
            if e.kind == "ability" and ("copies" in e.detail or "always-winning" in e.detail):
                tally.seen["copies" if "copies" in e.detail else "always"] += 1

    for i in range(offset, offset + count):
        agents = MetaChecker.seats(make_agent, "meta", i, preset, tally)
        table = MetaTable(preset, agents, 23, i)
        play_checked(preset, agents, table, seed=23, match_index=i, on_hand=on_hand,
                     yakuless=True)
        for card in FRONT.values():  # Maho kept every card she drew; nothing lost or doubled
            assert sorted(table.state.all_cards()) == sorted(set(table.state.all_cards()))
            assert card in table.state.all_cards()
    return tally.seen, picks


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
