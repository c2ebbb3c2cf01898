"""Random-play invariants with the payment, stake and dora cards at the table.

Every seat plays one of those characters every hand (a seeded draw, the match's memory shared
as the card table shares it), with the table checks of ``tests/invariant_checks.py``: 136 tiles
each in one place (rule C-19 lets the dead wall grow by 2 per indicator past the fifth), only
legal actions, hand sizes, and points conserved at every decision and every hand end with sticks
and stakes counted. The bots' use of the stake riichis is checked too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.match_duties import match_duties
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import ActionKind
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.invariant_checks import CATALOG, SeededTable, TableChecker, Tally, play_checked
from tests.support.rule_checks import EagerAgent

CARDS = ("kei_arakawa", "hitomi_ezaki", "nelly_virsaladze", "huiyu_hao", "kirame_hanada",
         "teru_miyanaga", "kana_ikeda", "kuro_matsumi")


class PaymentCardsTable(SeededTable):
    """Deals one of the payment cards to every seat each hand, the match's memory shared."""

    def __init__(self, seed: int, red_fives: bool = True) -> None:
        super().__init__(seed)
        self.memory = MatchMemory(red_fives=red_fives)
        self.abilities: list[CardAbility] = []
        self.picked: Counter[str] = Counter()

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        self.abilities = [CardAbility(CATALOG.card(self.rng.choice(CARDS)), s, self.memory)
                          for s in range(4)]
        self.picked.update(a.name for a in self.abilities)
        return [*self.abilities, *match_duties(self.memory)]

    def hand_done(self, rec: HandRecord) -> None:
        self.memory.end_of_hand(rec, self.abilities)


class StakingEagerAgent(EagerAgent):
    """The eager player kept closed (so it reaches riichi often), which takes every riichi an
    ability offers with a stake."""

    def decide(self, obs, legal):
        staked = [a for a in legal if a.kind == ActionKind.ABILITY and ":riichi:" in a.detail]
        choice = super().decide(obs, legal)
        if staked and choice.kind == ActionKind.RIICHI:
            return self.rng.choice(staked)
        if choice.kind in (ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN):
            return next(a for a in legal if a.kind == ActionKind.PASS)
        return choice


def run(preset: Preset, make_agent, count: int, offset: int) -> Tally:
    tally = Tally()

    def on_hand(rec: HandRecord) -> None:
        for e in rec.events:
            if e.kind == "ability":
                tally.seen[e.detail.split(":")[0]] += 1
                tally.seen["stake" if "stakes" in e.detail else "other"] += 1
        tally.seen["dora_events"] = max(tally.seen["dora_events"],
                                        sum(1 for e in rec.events if e.kind == "dora"))

    for i in range(offset, offset + count):
        agents = TableChecker.seats(make_agent, "cards", i, preset, tally)
        table = PaymentCardsTable(derive_seed("cards-table", i), preset.red_fives)
        play_checked(preset, agents, table, seed=11, match_index=i, on_hand=on_hand)
    return tally


@pytest.mark.parametrize("offset", [0, 6])
def test_random_play_with_payment_cards_keeps_the_invariants(offset: int) -> None:
    t = run(load_preset("cards-tonpuusen"), RandomAgent, 6, offset)
    assert t.decisions > 0 and t.seen["other"] > 0


def test_eager_play_with_payment_cards_keeps_the_invariants_and_stakes_happen() -> None:
    # a 9,000 start: under Kirame's 10,000, so her stake for extra dora is offered
    low = replace(load_preset("cards-tonpuusen"), start_points=9000, return_points=9000)
    t = run(low, StakingEagerAgent, 10, 1000)
    assert t.kinds["ability"] > 0  # riichi declared with a stake
    assert t.seen["stake"] > 0 and t.seen["dora_events"] >= 4  # Kirame's three extra indicators


class RecordingBot(HeuristicBot):
    """The heuristic bot, noting each stake riichi it was offered and whether it took one."""

    def __init__(self, seed: int, log: Counter[str]) -> None:
        super().__init__(seed=seed)
        self.log = log

    def decide(self, obs, legal):
        choice = super().decide(obs, legal)
        offered = {a.detail.rsplit(":", 1)[1] for a in legal
                   if a.kind == ActionKind.ABILITY and ":riichi:" in a.detail}
        if offered and choice.kind in (ActionKind.RIICHI, ActionKind.ABILITY):
            for what in offered:
                taken = choice.kind == ActionKind.ABILITY and choice.detail.endswith(what)
                self.log[f"{what} {'used' if taken else 'declined'}"] += 1
        return choice


def test_bots_use_and_decline_every_stake_riichi() -> None:
    # the heuristic policy: a stake riichi early (and, for 5,000, with enough points), the
    # plain riichi otherwise
    normal = load_preset("cards-tonpuusen")
    low = replace(normal, start_points=9000, return_points=9000)  # Kirame under 10,000
    log: Counter[str] = Counter()
    wanted = [f"{what} {how}" for what in ("inazuma", "dora_stake") for how in ("used", "declined")]
    for i in range(40):  # until every outcome has come up (a late riichi is the rare one)
        preset = normal if i % 2 else low
        agents = [RecordingBot(derive_seed("bots", i, s), log) for s in range(4)]
        play_match(preset, agents, seed=2, match_index=i,
                   table=PaymentCardsTable(derive_seed("bots-table", i)))
        if all(log[key] for key in wanted):
            break
    for what in ("inazuma", "dora_stake"):
        assert log[f"{what} used"] > 0 and log[f"{what} declined"] > 0, dict(log)
