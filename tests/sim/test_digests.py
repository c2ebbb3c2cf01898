"""Behaviour unchanged, proven: the event-log digests of the benchmarks' plays and of the
whole-deck run in every team mode (``tests/support/digests.py`` says what each plays) are the ones
recorded before the card layer was rebuilt (first on the commit the rebuild started from, then
again on main with the later rule, bot and sanma work, before the rebuild was merged into it:
both times the rebuilt code gave the same digests). Re-recorded since for rule and reading
fixes, each beside its digest with the fix that moved it. A digest that moves means a change played
some decision, tile or payment differently; ``python -m tests.support.digests`` prints them all.

Each digest hashes a golden text kept in ``tests/fixtures/golden/`` (one event, hand summary or
table a line): a moved digest names the first line that differs from it, expected and got.
After a digest moves on purpose, re-record its entry below and the texts with
``python -m tests.support.digests --golden`` (never run by the tests), and commit both."""

from __future__ import annotations

import pytest

from tests.support import digests

RECORDED = {
    "bench_bots online-hanchan heuristic": "db9b196c6ebd9421",
    "bench_bots cards-hanchan heuristic": "bf2c32c8bbcae847",  # re-recorded: card incentives, calls
    "bench_bots cards-hanchan greedy": "e39162e5248cd2ea",
    "bench_bots cards-hanchan random": "fd0caf239562f9fe",
    # re-recorded with the run id masked (it hashes every preset option and the catalog's
    # content, so a new option at its default moved it): the play is unchanged
    "bench_sim cards-hanchan": "01da4e652fc3d219",  # re-recorded: incentives in calls
    "bench_paired cards-hanchan": "007282164145c2b0",  # re-recorded: incentives in calls
    # re-recorded for the card incentives: Kuro's dora guard and doubled dora, Hao's dora worth
    # nothing, Ryuuka's riichi that would lock a declared yakuhai out, the tile worths of Haru,
    # Arata, Yuu, Yoshiko, Kurumi and Yuuko, Shiromi's dora before the indicators (opponents'
    # decisions), then for the call evaluation reading them (Shiromi's calls)
    "bench_trials three cards": "6a5e864da33e4c73",
    # the matches played again with the ability off throughout (the trial's whole-match arm),
    # recorded with the card incentives in play (discards, riichi and calls)
    "bench_trials three cards, whole match": "b5e67405a4fe9a95",
    "pick estimates": "d2096a05829c3d30",
    "whole deck standard": "fc96762beb422108",  # re-recorded: card incentives, calls
    "whole deck winner-rotation": "4e8119ce374fa66f",  # re-recorded: card incentives
    "whole deck tenpai-replacement": "c4e7113a8a186450",  # re-recorded: card incentives
    "whole deck rapid": "9a26d9b2f9bfc2e3",  # re-recorded for the card incentives
    "whole deck draft": "b049613fe595cb77",  # re-recorded: Mako's call incentives
}
# re-recorded for Teru's honba (a two-sided card's flip back is no second extra turn), then for
# the card incentives (Kuro's dora guard, Hao's dora, Ryuuka's locked riichi, the tile worths,
# Shiromi's dora before the indicators), then for the call evaluation reading the incentives,
# then for Satoha's swap handing on no dora or riichi winner
EVERY_CARD_TRIAL = "53ab858a26e17b01"


def test_every_entry_has_a_recorded_digest() -> None:
    assert set(RECORDED) == set(digests.DIGESTS)


def golden_lines(name: str) -> list[str]:
    path = digests.golden_path(name)
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_digest_unchanged(name: str) -> None:
    text = digests.golden_text(digests.PLAYS[name]())
    digest = digests.text_digest(text)
    if digest != RECORDED[name]:
        line, expected, got = digests.first_difference(golden_lines(name), text.splitlines())
        pytest.fail(f"{name}: digest {digest}, recorded {RECORDED[name]}; first difference at "
                    f"line {line} of tests/fixtures/golden/{digests.golden_path(name).name}:\n"
                    f"  expected: {expected}\n  got:      {got}", pytrace=False)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_each_golden_text_is_the_recorded_digests_text(name: str) -> None:
    # the golden text hashes to the recorded digest, so the line a moved digest names is the
    # line of the recorded play (re-record the texts: python -m tests.support.digests --golden)
    path = digests.golden_path(name)
    assert path.exists(), f"{path.name} missing: run python -m tests.support.digests --golden"
    assert digests.text_digest(path.read_text()) == RECORDED[name], \
        f"{path.name} is not the text of digest {RECORDED[name]}: re-record it"


def test_a_moved_digest_names_its_first_differing_line() -> None:
    assert digests.first_difference(["a", "b", "c"], ["a", "x", "c"]) == (2, "b", "x")
    assert digests.first_difference(["a", "b"], ["a", "b", "c"]) == (3, "<end>", "c")
    assert digests.first_difference(["a"], ["a"]) == (0, "", "")
    assert digests.text_digest(digests.golden_text(["a", "b"])) == digests._hash(["a", "b"])


def test_the_whole_deck_runs_play_every_card() -> None:
    for mode in digests.MODES:
        digests.whole_deck(mode)
    assert not digests.never_played()


@pytest.mark.slow
def test_trial_of_every_card_unchanged() -> None:
    assert digests.trial_tables(digests.every_card()) == EVERY_CARD_TRIAL
