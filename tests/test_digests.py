"""Behaviour unchanged, proven: the event-log digests of the benchmarks' plays and of the
whole-deck run in every team mode (``tests/digests.py`` says what each plays) are the ones
recorded before the card layer was rebuilt. A digest that moves means a change played some
decision, tile or payment differently; ``python -m tests.digests`` prints them all."""

from __future__ import annotations

import pytest

from tests import digests

RECORDED = {
    "bench_bots online-hanchan heuristic": "db9b196c6ebd9421",
    "bench_bots cards-hanchan heuristic": "a0402539183c5ac6",
    "bench_bots cards-hanchan greedy": "e39162e5248cd2ea",
    "bench_bots cards-hanchan random": "fd0caf239562f9fe",
    "bench_sim cards-hanchan": "68375d1315a89ccc",
    "bench_paired cards-hanchan": "d46a3737fa3689f1",
    "bench_trials three cards": "9b3619cc61e6d2b3",
    "bench_pick_vs_trial estimates": "d2096a05829c3d30",
    "whole deck standard": "d58b96ec9b478719",
    "whole deck winner-rotation": "16bc9a853c5e57c4",
    "whole deck tenpai-replacement": "e11a86aa4339bb70",
    "whole deck rapid": "6374adefb8647748",
    "whole deck draft": "f73234cb8e024557",
}
EVERY_CARD_TRIAL = "e24ef704acce1a55"


def test_every_entry_has_a_recorded_digest() -> None:
    assert set(RECORDED) == set(digests.DIGESTS)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_digest_unchanged(name: str) -> None:
    assert digests.DIGESTS[name]() == RECORDED[name]


def test_the_whole_deck_runs_play_every_card() -> None:
    for mode in digests.MODES:
        digests.whole_deck(mode)
    assert not digests.never_played()


@pytest.mark.slow
def test_trial_of_every_card_unchanged() -> None:
    assert digests.trial_tables(digests.every_card()) == EVERY_CARD_TRIAL
