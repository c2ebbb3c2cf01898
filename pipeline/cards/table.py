"""The card layer at the table for one match: deck, teams, picks, and each hand's abilities.

The match loop stays card-free: it asks a :class:`CardTable` for the seats' abilities before each
hand and tells it how the hand ended. Picks are made after the deal (rule C-03) by each seat's
agent, through its ``pick(starting_hand, options)`` hook when it has one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import Catalog, load_catalog
from pipeline.cards.teams import (
    TeamState,
    deck_for,
    end_of_hand,
    match_rng,
    new_match,
    options_for_hand,
    record_pick,
    start_hand,
)
from pipeline.rules.agents import Agent
from pipeline.rules.hooks import AbilityHooks
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandRecord, HandStart
from pipeline.rules.wall import Wall


class CardTable:
    """Deals the teams of one match and turns each hand's picks into abilities."""

    def __init__(self, preset: Preset, agents: Sequence[Agent], seed: int, match_index: int,
                 catalog: Catalog | None = None) -> None:
        self.preset = preset
        self.agents = agents
        self.catalog = catalog or load_catalog(preset.cards.catalog)
        deck = deck_for(self.catalog, preset.cards, east_only=preset.length == "tonpuusen")
        self.state: TeamState = new_match(preset.cards, deck, match_rng(seed, match_index))
        self.picks: list[str] = []

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]:
        """Each seat picks a character after seeing its starting hand (C-03, C-04)."""
        start_hand(self.state)
        hands = Wall(start.wall).deal(start.dealer)
        self.picks = []
        abilities: list[AbilityHooks] = []
        for seat, agent in enumerate(self.agents):
            options = options_for_hand(self.state, seat)
            chooser = getattr(agent, "pick", None)
            pick = chooser(tuple(hands[seat]), tuple(options)) if chooser else options[0]
            if pick not in options:
                pick = options[0]
            record_pick(self.state, seat, pick)
            self.picks.append(pick)
            abilities.append(CardAbility(self.catalog.card(pick), seat))
        return abilities

    def hand_done(self, rec: HandRecord) -> None:
        rec.picks = list(self.picks)
        rec.teams = self.state.to_dict()
        end_of_hand(self.state, winners=[w.seat for w in rec.wins],
                    tenpai=[s.tenpai_at_end for s in rec.seats])
