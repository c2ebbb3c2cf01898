"""Random-play invariants with the shape, claim and draw cards at the table.

Four of Kaori, Yuuko, Yuu, Seiko, Kurumi and Yoshiko are seated in every hand, and every decision
goes through the table checks of ``tests/invariant_checks.py`` (136 tiles each exactly once, hand
sizes, offers the rules allow, Yuu's priority pon on a red dragon lying in the discarder's pond,
points conserved, the answer among the legal actions). At each hand's end: the card-free
hand-end checks (points conserved), every win has a yaku unless the winner may win without one,
and the ability-only shapes belong to the seats whose card allows them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.rules.actions import MeldKind
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hand import HandState
from pipeline.rules.hand_shapes import STANDARD_SEQUENCES
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from tests.invariant_checks import CATALOG, WITHOUT_YAKU, TableChecker, Tally, allow_yakuless
from tests.support.rule_checks import EagerAgent, check_hand_end

PRESET = load_preset("cards-hanchan")
CARDS = ("kaori_senoo", "yuuko_mase", "yuu_matsumi", "seiko_matano", "kurumi_kakura",
         "yoshiko_kainou")
PLAIN_SEQUENCES = {tuple(s) for s in STANDARD_SEQUENCES}


def play_hands(make_agent, count: int, seed: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    tally = Tally()
    for i in range(count):
        rng = random.Random(seed * 1000 + i)
        wall = list(range(136))
        rng.shuffle(wall)
        picks = rng.sample(CARDS, 4)
        abilities = [CardAbility(CATALOG.card(c), s) for s, c in enumerate(picks)]
        agents = [TableChecker(make_agent(rng.randrange(1 << 30)), PRESET, tally)
                  for _ in range(4)]
        start = HandStart(wall=tuple(wall), dealer=i % 4, round_wind=0, hand_number=i % 4,
                          scores=(PRESET.start_points,) * 4)
        state = HandState(start, PRESET, agents, abilities)
        rec = state.play()
        # rule H-03 but for her card
        kaori = {s for s, c in enumerate(picks) if c == WITHOUT_YAKU}
        check_hand_end(allow_yakuless(rec, kaori), PRESET, None)
        for w in rec.wins:
            seen["win"] += 1
            seen["yakuless"] += not w.yaku
        for seat, p in enumerate(state.players):
            for m in p.melds:
                if m.kind == MeldKind.CHI and tuple(t // 4 for t in m.tiles) not in \
                        PLAIN_SEQUENCES:
                    assert picks[seat] in ("kaori_senoo", "yuuko_mase")
                    seen["shaped_chi"] += 1
                if picks[seat] == "yuuko_mase":
                    assert m.kind == MeldKind.CHI  # she may not pon or kan
        for e in rec.events:
            if e.kind == "ability":
                seen[e.detail.split(":")[1].split()[0]] += 1
            if e.kind == "discard" and "unclaimable" in e.detail:
                seen["repeat"] += 1
    assert tally.decisions > 0
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_with_shape_and_claim_cards(seed: int) -> None:
    seen = play_hands(RandomAgent, 40, seed)
    assert seen["repeat"] > 0  # random players take the repeated discards offered


def test_eager_play_with_shape_and_claim_cards() -> None:
    seen = play_hands(EagerAgent, 50, 3)
    assert seen["win"] > 0 and seen["shaped_chi"] > 0


def test_heuristic_bots_with_shape_and_claim_cards() -> None:
    # the bots never declare an illegal win (the engine refuses any action not offered) and
    # play the extra choices
    seen = play_hands(lambda s: HeuristicBot(s), 8, 4)
    assert seen["win"] > 0
