"""Cards at the table: teams dealt from the playable deck, picks after the deal, abilities."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.bots.registry import make_agent
from pipeline.cards import registry
from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import CardTable
from pipeline.cards.teams import TeamError
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset


def small_team_preset():
    """Few cards are playable yet: one-card teams fit the deck (4 seats x 1)."""
    base = load_preset("cards-tonpuusen")
    return replace(base, cards=replace(base.cards, team_size=1))


def play(seed: int):
    preset = small_team_preset()
    agents = [make_agent("heuristic", derive_seed(seed, 0, "agent", s)) for s in range(4)]
    return play_match(preset, agents, seed, 0, table=CardTable(preset, agents, seed, 0))


def test_c03_every_hand_records_a_pick_per_seat_from_the_team() -> None:
    # rules C-02, C-03: teams dealt from the deck, a character picked every hand
    playable = {c.id for c in load_catalog("1.2").cards if c.in_deck and registry.playable(c)}
    result = play(3)
    for rec in result.hands:
        assert rec.picks is not None and len(rec.picks) == 4
        assert set(rec.picks) <= playable
        assert len(set(rec.picks)) == 4          # no card is held by two seats
        assert rec.teams is not None and rec.teams["mode"] == "standard"
        assert "picks:" in rec.summary()


def test_abilities_of_the_picked_characters_act_in_play() -> None:
    fired = [e for seed in (1, 2, 3) for rec in play(seed).hands for e in rec.events
             if e.kind == "ability"]
    assert fired, "no picked character's ability fired in three matches"


def test_card_matches_are_deterministic() -> None:
    a, b = play(5), play(5)
    assert [r.picks for r in a.hands] == [r.picks for r in b.hands]
    assert [r.log_text() for r in a.hands] == [r.log_text() for r in b.hands]


def test_too_small_a_deck_is_a_clear_error() -> None:
    base = load_preset("cards-hanchan")  # teams of 14: more cards than the deck holds
    preset = replace(base, cards=replace(base.cards, team_size=14))
    agents = [make_agent("random", s) for s in range(4)]
    with pytest.raises(TeamError, match="needs 56"):
        CardTable(preset, agents, 1, 0)
