"""The bots' ranking of their choices (C-03): the pick is the first of the ranking, the team
trial's replay takes the next, and ``play_as`` leaves a bot as its pick of that card would."""

from __future__ import annotations

import random

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.pick import choose, ranking
from pipeline.cards import registry
from pipeline.cards.catalog import load_catalog
from pipeline.rules.hooks import PickView

CATALOG = load_catalog("1.2")
DECK = [c.id for c in CATALOG if registry.playable(c)]


def _hands(n: int, seed: int = 5) -> list[tuple[list[int], tuple[str, ...], PickView]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hand = sorted(rng.sample(range(136), 13))
        team = tuple(rng.sample(DECK, 4))
        scores = tuple(rng.choice((15000, 25000, 30000, 40000)) for _ in range(4))
        out.append((hand, team, PickView(seat=rng.randrange(4), dealer=rng.randrange(4),
                                         scores=scores, catalog=CATALOG)))
    return out


def test_the_pick_is_the_first_of_the_ranking_and_the_ranking_orders_every_option() -> None:
    # rule C-03: one character of the team picked after the deal; the ranking says which next
    for hand, team, view in _hands(200):
        ranked = ranking(hand, team, view)
        assert sorted(ranked) == sorted(team)
        assert ranked[0] == choose(hand, team, view)
        bot = HeuristicBot()
        assert bot.rank_picks(hand, team, view)[0] == bot.pick(hand, team, view)


def test_equal_options_keep_the_team_order() -> None:
    nothing = ("no_such_card_a", "no_such_card_b", "no_such_card_c")  # all worth 0
    assert ranking(list(range(13)), nothing) == list(nothing)
    assert ranking(list(range(13)), nothing[::-1]) == list(nothing[::-1])


def _state(bot: HeuristicBot) -> tuple:
    return bot.playing, bot.extra, bot.declared, bot.keep


def test_ranking_changes_nothing_of_the_bot_and_play_as_equals_the_pick() -> None:
    # play_as(card) leaves the bot as pick() does when it chooses that card
    for hand, team, view in _hands(60, seed=11):
        picked = HeuristicBot()
        picked.play_as("kaori_senoo")  # something to keep
        before = _state(picked)
        ranked = picked.rank_picks(hand, team, view)
        assert _state(picked) == before
        choice = picked.pick(hand, team, view)
        assert choice == ranked[0]
        other = HeuristicBot()
        other.play_as(choice, view)
        assert _state(other) == _state(picked)


def test_play_as_another_card_plays_for_that_card() -> None:
    # Kaori's extra sequences are counted only when the bot plays for her
    bot = HeuristicBot()
    bot.play_as("kaori_senoo")
    kaori = bot.extra
    bot.play_as("nodoka_haramura")
    assert kaori and not bot.extra
