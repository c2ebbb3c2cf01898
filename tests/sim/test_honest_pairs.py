"""Honest pairs: on the "without" side of a paired replay the seat plays exactly as a seat
with no character. The bot's knowledge of the ability (Kaori's honor sequences, her calls
without a yaku) goes with the ability, so the pair measures the ability, not the ability
plus a bot that plays for an ability it no longer has."""

from __future__ import annotations

import copy

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.registry import make_agent
from pipeline.cards.table import CardTable
from pipeline.rules.hand import play_hand
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord
from pipeline.sim.paired import PairedTable, snapshot_agents

KAORI = "kaori_senoo"


class Checking(PairedTable):
    """Also plays each hand, without the ability, with a seat-0 bot that never picked a card
    (a fresh bot on the same random stream), and with the old replay (the bot kept what its
    pick taught it)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.no_card: list[HandRecord] = []
        self.kept: list[HandRecord] = []
        self.at_start: list = []

    def abilities_for(self, start):
        abilities = super().abilities_for(start)
        self.at_start = snapshot_agents(list(self.table.agents))  # after the picks
        return abilities

    def hand_done(self, rec: HandRecord) -> None:
        fresh = HeuristicBot(0)
        fresh.rng.setstate(self.at_start[0].rng.getstate())
        assert fresh.playing == frozenset() and self.at_start[0].playing  # she knows Kaori
        self.no_card.append(play_hand(self._start, self.preset,
                                      [fresh, *copy.deepcopy(self.at_start[1:])],
                                      self.table.replay_abilities(without=0)))
        self.kept.append(play_hand(self._start, self.preset, copy.deepcopy(self.at_start),
                                   self.table.replay_abilities(without=0)))
        super().hand_done(rec)


def moves(rec: HandRecord) -> list[tuple]:
    return [(e.kind, e.seat, e.tile, e.tiles, e.detail) for e in rec.events]  # wording: all


@pytest.mark.parametrize("share", [True, False], ids=["shared-start", "from-the-deal"])
def test_without_kaori_the_bot_plays_as_a_seat_with_no_card(share: bool) -> None:
    preset = load_preset("cards-hanchan")
    same = differ_before = 0
    for m in range(2):
        agents = [make_agent("heuristic", derive_seed(5, m, "agent", s)) for s in range(4)]
        table = Checking(CardTable(preset, agents, 5, m, holder=(0, KAORI)), preset, seats=(0,),
                         share_prefix=share)
        play_match(preset, agents, 5, m, table=table)
        assert [p.seat for p in table.pairs] == [0] * len(table.pairs)
        for pair, no_card, kept in zip(table.pairs, table.no_card, table.kept, strict=True):
            assert moves(pair.without) == moves(no_card)
            assert [s.delta for s in pair.without.seats] == [s.delta for s in no_card.seats]
            same += 1
            differ_before += moves(kept) != moves(no_card)
    assert same > 10
    # the old replay, where the bot kept building honor sequences, played differently
    assert differ_before > 0
