"""Random-play invariants with the payment, stake and dora cards at the table.

Every seat plays one of those characters every hand (a seeded draw, the match's memory shared
as the card table shares it), with the same checks as ``test_invariants``: 136 tiles each in one
place (rule C-19 lets the dead wall grow by 2 per indicator past the fifth), only legal actions,
and points conserved at every decision and every hand end with sticks and stakes counted.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.memory import MatchMemory
from pipeline.cards.payments import match_duties
from pipeline.rules.actions import ActionKind
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.test_invariants import CheckingAgent, Checks, EagerAgent, check_hand_end, check_match

CARDS = ("kei_arakawa", "hitomi_ezaki", "nelly_virsaladze", "huiyu_hao", "kirame_hanada",
         "teru_miyanaga", "kana_ikeda", "kuro_matsumi")
CATALOG = load_catalog("1.2")


class PaymentCardsTable:
    """Deals one of the payment cards to every seat each hand (a test stand-in for CardTable)."""

    def __init__(self, seed: int, red_fives: bool = True) -> None:
        self.rng = random.Random(seed)
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


def run(preset: Preset, make_agent, count: int, offset: int) -> tuple[Checks, Counter[str]]:
    checks = Checks()
    seen: Counter[str] = Counter()
    for i in range(offset, offset + count):
        agents = [CheckingAgent(make_agent(derive_seed("cards", i, s)), preset, checks)
                  for s in range(4)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, prev: list[HandRecord] = prev) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)
            for e in rec.events:
                if e.kind == "ability":
                    seen[e.detail.split(":")[0]] += 1
                    seen["stake" if "stakes" in e.detail else "other"] += 1
            seen["dora_events"] = max(seen["dora_events"],
                                      sum(1 for e in rec.events if e.kind == "dora"))

        table = PaymentCardsTable(derive_seed("cards-table", i), preset.red_fives)
        result = play_match(preset, agents, seed=11, match_index=i, on_hand=on_hand, table=table)
        check_match(result, preset)
    return checks, seen


@pytest.mark.parametrize("offset", [0, 6])
def test_random_play_with_payment_cards_keeps_the_invariants(offset: int) -> None:
    checks, seen = run(load_preset("cards-tonpuusen"), RandomAgent, 6, offset)
    assert checks.decisions > 0 and seen["other"] > 0


def test_eager_play_with_payment_cards_keeps_the_invariants_and_stakes_happen() -> None:
    # a 9,000 start: under Kirame's 10,000, so her stake for extra dora is offered
    low = replace(load_preset("cards-tonpuusen"), start_points=9000, return_points=9000)
    checks, seen = run(low, StakingEagerAgent, 10, 1000)
    assert checks.kinds["ability"] > 0  # riichi declared with a stake
    assert seen["stake"] > 0 and seen["dora_events"] >= 4  # Kirame's three extra indicators


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
    for i in range(10):
        preset = normal if i % 2 else low
        agents = [RecordingBot(derive_seed("bots", i, s), log) for s in range(4)]
        play_match(preset, agents, seed=5, match_index=i,
                   table=PaymentCardsTable(derive_seed("bots-table", i)))
    for what in ("inazuma", "dora_stake"):
        assert log[f"{what} used"] > 0 and log[f"{what} declined"] > 0, dict(log)
