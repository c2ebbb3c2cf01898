"""The team pair of a hand (``pipeline.sim.team_pair``): a card placed in an ordinary team
(C-02), and each hand its bot picks it (C-03) played again with the seat's next choice, same
deal, same bot states. Replayed with the same pick, the pair differs by nothing; replayed with
another pick, it is the hand a seat that picked that card would have played."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.registry import make_agent
from pipeline.cards.catalog import load_catalog
from pipeline.cards.placement import place_card
from pipeline.cards.table import CardTable
from pipeline.cards.teams import TeamError, match_rng, new_match
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord
from pipeline.sim.team_pair import TeamPairTable, second_choice
from pipeline.sim.trial import trial_deck

PRESET = load_preset("cards-hanchan")
CATALOG = load_catalog(PRESET.cards.catalog)


def outcome(rec: HandRecord) -> tuple[Any, ...]:
    """Everything of a hand a pair reads, and its whole log."""
    # wording: the whole log, its text included
    return ([(e.kind, e.seat, e.tile, e.tiles, e.detail, e.card) for e in rec.events],
            [(s.delta, s.outcome) for s in rec.seats],
            [(w.seat, w.han, w.points) for w in rec.wins],
            rec.draw_kind, rec.sticks_end, rec.stakes_end)


def agents_for(match: int, seed: int = 3) -> list[Any]:
    return [make_agent("heuristic", derive_seed(seed, match, "agent", s)) for s in range(4)]


def play(match: int, card: str, **kw: Any) -> tuple[MatchResult, TeamPairTable]:
    agents = agents_for(match)
    table = TeamPairTable(CardTable(PRESET, agents, 3, match, CATALOG), PRESET, match % 4,
                          card, **kw)
    return play_match(PRESET, agents, 3, match, table=table), table


def test_the_card_is_placed_in_an_ordinary_team_and_every_card_stays_in_one_place() -> None:
    # rule C-02: a standard team of four dealt before the match; the card replaces the last
    deck = trial_deck(CATALOG, PRESET)
    for match in range(6):
        state = new_match(PRESET.cards, deck, match_rng(3, match))
        before = sorted(state.all_cards())
        kept = state.teams[1][:-1]
        place_card(state, 1, "kana_ikeda")
        assert state.teams[1] == [*kept, "kana_ikeda"]
        assert sorted(state.all_cards()) == before
        assert all(len(t) == PRESET.cards.team_size for t in state.teams)


def test_a_mode_that_deals_no_team_is_refused() -> None:
    rapid = dataclasses.replace(PRESET.cards, team_mode="rapid", team_size=2)
    state = new_match(rapid, trial_deck(CATALOG, PRESET), match_rng(3, 0))
    with pytest.raises(TeamError, match="rapid"):
        place_card(state, 0, "kana_ikeda")


@pytest.mark.parametrize("card", ["nelly_virsaladze", "maho_yumeno", "mairu_shirouzu",
                                  "kana_ikeda", "kasumi_iwato"])
def test_replayed_with_the_same_pick_the_pair_differs_by_nothing(card: str) -> None:
    # rule C-03: the pick is made after the deal; the replay starts from the same deal, the
    # same bot states and (for Maho's copy, C-22) the same copied card
    replays = 0
    for match in range(3):
        result, table = play(match, card, alternative=lambda ranked, c: c)
        for pair in table.pairs:
            real = result.hands[pair.hand_index]
            assert pair.picked == real.picks[pair.seat]
            if pair.picked != card:
                assert pair.other is None
                continue
            replays += 1
            assert outcome(pair.other) == outcome(real)
    assert replays > 0


class FirstHandDone(Exception):
    """Stops a match after its first hand."""


class Forced:
    """A bot's pick made ``card`` whenever the team holds it."""

    def __init__(self, bot: HeuristicBot, card: str) -> None:
        self.bot, self.card = bot, card

    def pick(self, starting_hand: Any, team: Any, situation: Any = None) -> str:
        if self.card not in team:
            return self.bot.pick(starting_hand, team, situation)
        self.bot.play_as(self.card, situation)
        return self.card


def test_the_replay_with_another_pick_is_the_hand_a_seat_picking_it_plays() -> None:
    # the known answer: a seat whose bot picks the second choice from the start plays, on the
    # match's first hand, exactly the team pair's replay
    card = "nelly_virsaladze"
    checked = 0
    for match in range(8):
        result, table = play(match, card)
        first = table.pairs[0]
        if first.picked != card or first.alternative is None:
            continue
        other = first.alternative
        assert other != card

        agents = agents_for(match)
        seat = match % 4
        pickers = list(agents)
        pickers[seat] = Forced(agents[seat], other)  # the table asks it for the pick only
        cards = CardTable(PRESET, pickers, 3, match, CATALOG)
        place_card(cards.state, seat, card)
        hands: list[HandRecord] = []

        def first_hand_only(rec: HandRecord, hands: list[HandRecord] = hands) -> None:
            hands.append(rec)
            raise FirstHandDone

        with pytest.raises(FirstHandDone):
            play_match(PRESET, agents, 3, match, table=cards, on_hand=first_hand_only)
        assert hands[0].picks[seat] == other
        assert outcome(hands[0]) == outcome(first.other)
        checked += 1
    assert checked > 0


def test_second_choice_is_the_best_other_option() -> None:
    assert second_choice(["a", "b", "c"], "a") == "b"
    assert second_choice(["b", "a", "c"], "a") == "b"
    assert second_choice(["a"], "a") is None


def test_a_copying_alternative_copies_in_the_replay_and_leaves_the_real_match_alone() -> None:
    # C-22 Maho: picked, she draws two cards and copies one; in the replay she draws from a
    # copy of the match's cards, so the real match (its hands, teams and deck) is unchanged
    card = "nelly_virsaladze"
    for match in range(2):
        same, _ = play(match, card, alternative=lambda ranked, c: c)
        maho, table = play(match, card, alternative=lambda ranked, c: "maho_yumeno")
        assert [outcome(h) for h in maho.hands] == [outcome(h) for h in same.hands]
        assert [h.teams for h in maho.hands] == [h.teams for h in same.hands]
        replays = [p.other for p in table.pairs if p.other is not None]
        assert replays
        assert all(p.alternative == "maho_yumeno" for p in table.pairs if p.other is not None)
        assert all(any(e.card == "maho_yumeno" for e in r.events) for r in replays)


def test_an_agent_without_a_pick_plays_its_first_option_and_ranks_it_first() -> None:
    # rule C-03 for agents that never pick: the table's default, the first option
    from pipeline.rules.agents import FirstAgent

    agents = [FirstAgent() for _ in range(4)]
    table = TeamPairTable(CardTable(PRESET, agents, 3, 0, CATALOG), PRESET, 0,
                          "nelly_virsaladze")
    result = play_match(PRESET, agents, 3, 0, table=table)
    first = result.hands[0].teams["teams"][0][0]
    assert all(p.picked == first for p in table.pairs)
    assert all((p.other is None) == (p.picked != "nelly_virsaladze") for p in table.pairs)
