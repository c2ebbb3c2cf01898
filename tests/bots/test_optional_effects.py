"""The bots use every optional effect of the playable cards, and also decline it.

An optional effect is offered as an ``ABILITY`` action (tagged ``<what>``) next to a plain
alternative, and registered by ``<what>`` in ``abilities.OPTIONAL_EFFECTS``. The survey
plays hands with every playable card (all four seats holding it, so each card's effect meets
the others' play) and records, for every optional decision a heuristic bot made, whether it
took the effect. Cards added later are surveyed automatically: a new playable card is played, and
a new optional choice is either registered (then it must be both used and declined) or flagged
as unregistered.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards import registry
from pipeline.cards.abilities import OPTIONAL_EFFECTS, CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import play_hand
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.wall import Wall
from tests.support.card_scripts import optional_name

PRESET = load_preset("cards-hanchan")
CATALOG = load_catalog("1.2")
# Scores vary so that effects tied to a situation (low points, last place) come up too.
SCORES = ((30000, 30000, 30000, 30000), (8000, 46000, 36000, 30000),
          (46000, 8000, 30000, 36000), (36000, 30000, 8000, 46000),
          (30000, 36000, 46000, 8000))


class Surveying(HeuristicBot):
    """A heuristic bot that notes each optional decision: the effect, and whether it took it."""

    def __init__(self, seed: int, tally: dict[str, Counter]) -> None:
        super().__init__(seed)
        self.tally = tally

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        choice = super().decide(obs, legal)
        offered = {optional_name(a) for a in legal if a.kind == ActionKind.ABILITY}
        plain = [a for a in legal if a.kind != ActionKind.ABILITY]
        if offered and plain:                    # a choice, not a forced step
            taken = optional_name(choice) if choice.kind == ActionKind.ABILITY else None
            for what in offered:
                self.tally["used" if what == taken else "declined"][what] += 1
        return choice


def _playable(kinds: frozenset[str] | None) -> list:
    cards = [c for c in CATALOG if registry.playable(c) and c.in_deck
             and (kinds is None or set(c.kinds) & kinds)]
    assert cards, "no playable card to survey"
    return cards


def _play(card, hands: int, rng: random.Random, seed: int, tally: dict[str, Counter],
          first: int) -> None:
    """``hands`` hands with the card at all four seats, scores cycling through SCORES."""
    for k in range(first, first + hands):
        start = HandStart(wall=Wall.shuffled(rng).order, dealer=k % 4,
                          scores=SCORES[k % len(SCORES)])
        agents = [Surveying(seed * 1000 + 4 * k + s, tally) for s in range(4)]
        play_hand(start, PRESET, agents, abilities=[CardAbility(card, s) for s in range(4)])


def survey(hands_per_card: int, seed: int, kinds: frozenset[str] | None = None
           ) -> dict[str, Counter]:
    """Play ``hands_per_card`` hands with each playable card (only cards with an effect of
    ``kinds``, when given) at all four seats."""
    tally: dict[str, Counter] = {"used": Counter(), "declined": Counter()}
    rng = random.Random(seed)
    for card in _playable(kinds):
        _play(card, hands_per_card, rng, seed, tally, 0)
    return tally


def survey_until_settled(seed: int, hands: int = 4, max_rounds: int = 12
                         ) -> dict[str, Counter]:
    """Rounds of ``hands`` hands per card. After the first round only the cards that may still
    settle an open question play on: cards whose choice was not yet both used and declined,
    and cards that offered no choice yet (a rare situation may still come)."""
    tally: dict[str, Counter] = {"used": Counter(), "declined": Counter()}
    rng = random.Random(seed)
    offered_by: dict[str, set[str]] = {}
    cards = _playable(None)
    for round_no in range(max_rounds):
        for card in cards:
            mine: dict[str, Counter] = {"used": Counter(), "declined": Counter()}
            _play(card, hands, rng, seed, mine, round_no * hands)
            offered_by.setdefault(card.id, set()).update(mine["used"], mine["declined"])
            for key in tally:
                tally[key].update(mine[key])
        open_whats = {w for w in OPTIONAL_EFFECTS if not (tally["used"][w] and
                                                          tally["declined"][w])}
        if not open_whats:
            break
        cards = [c for c in cards if not offered_by[c.id] or offered_by[c.id] & open_whats]
    return tally


def check(tally: dict[str, Counter], required: set[str]) -> None:
    seen = set(tally["used"]) | set(tally["declined"])
    unregistered = sorted(seen - OPTIONAL_EFFECTS)
    assert not unregistered, (
        f"optional ability choices offered but not registered in "
        f"abilities.OPTIONAL_EFFECTS: {unregistered}")
    never_used = sorted(w for w in required if not tally["used"][w])
    never_declined = sorted(w for w in required if not tally["declined"][w])
    assert not never_used and not never_declined, (
        f"bots never used {never_used}, never declined {never_declined} "
        f"(used {dict(tally['used'])}, declined {dict(tally['declined'])})")


def test_bots_use_and_decline_the_basic_optional_effects() -> None:
    """The fast survey: four hands per playable card with face-down discards or extra turns;
    each must be both used and declined."""
    tally = survey(hands_per_card=4, seed=1,
                   kinds=frozenset(("face_down_discard", "extra_turn")))
    check(tally, {"face_down", "extra_turn"})


@pytest.mark.slow
def test_bots_use_and_decline_every_registered_optional_effect() -> None:
    """The full survey: every registered optional effect of the playable cards, playing on
    (up to 48 hands per card) with the cards that may still settle one."""
    tally = survey_until_settled(seed=2)
    offered_by_playable = OPTIONAL_EFFECTS & (set(tally["used"]) | set(tally["declined"]))
    missing = sorted(OPTIONAL_EFFECTS - offered_by_playable)
    check(tally, OPTIONAL_EFFECTS - set(missing) if missing else OPTIONAL_EFFECTS)
    assert not missing, f"registered optional effects never offered in play: {missing}"
