"""Behaviour unchanged, proven: the event-log digests of the benchmarks' plays and of the
whole-deck run in every team mode (``tests/digests.py`` says what each plays) are the ones
recorded before the card layer was rebuilt (first on the commit the rebuild started from, then
again on main with the later rule, bot and sanma work, before the rebuild was merged into it:
both times the rebuilt code gave the same digests). Re-recorded since for rule and reading
fixes, each beside its digest with the fix that moved it. A digest that moves means a change played
some decision, tile or payment differently; ``python -m tests.digests`` prints them all."""

from __future__ import annotations

import pytest

from tests import digests

RECORDED = {
    "bench_bots online-hanchan heuristic": "db9b196c6ebd9421",
    "bench_bots cards-hanchan heuristic": "17595b6272008822",
    "bench_bots cards-hanchan greedy": "e39162e5248cd2ea",
    "bench_bots cards-hanchan random": "fd0caf239562f9fe",
    "bench_sim cards-hanchan": "167a05c5136174a0",
    "bench_paired cards-hanchan": "0841de5c2e9e7596",
    # re-recorded for Teru's honba: a two-sided card's flip back is no second extra turn
    "bench_trials three cards": "86502123b54bd471",
    # the matches played again with the ability off throughout (the trial's whole-match arm)
    "bench_trials three cards, whole match": "0b50bc9b4d06a4b6",
    "pick estimates": "d2096a05829c3d30",
    "whole deck standard": "148ac0af8c917354",
    "whole deck winner-rotation": "9862e847d17a1bb6",
    "whole deck tenpai-replacement": "71360372ace5b759",
    "whole deck rapid": "7299d670c5bb5620",
    "whole deck draft": "4db1265fc3c2f849",
}
# re-recorded for Teru's honba (a two-sided card's flip back is no second extra turn)
EVERY_CARD_TRIAL = "9cb4f3da7c5916af"


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
