"""The bots and the riichis the payment cards offer with a stake (``inazuma``, ``dora_stake``):
the heuristic policy uses each one when it pays and declines it otherwise, with the payment
cards dealt every hand, the match's memory shared."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.match_duties import match_duties
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import AbilityTag, ActionKind
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord, HandStart
from tests.support.invariant_checks import CATALOG, SeededTable

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


class RecordingBot(HeuristicBot):
    """The heuristic bot, noting each stake riichi it was offered and whether it took one."""

    def __init__(self, seed: int, log: Counter[str]) -> None:
        super().__init__(seed=seed)
        self.log = log

    def decide(self, obs, legal):
        choice = super().decide(obs, legal)
        offered = {a.payload for a in legal if a.kind == ActionKind.ABILITY
                   and a.tag is AbilityTag.RIICHI and a.payload is not None}
        if offered and choice.kind in (ActionKind.RIICHI, ActionKind.ABILITY):
            for what in offered:
                taken = choice.kind == ActionKind.ABILITY and choice.payload == what
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
