"""The danger model reads tiles that cards make face up (issue 15's reading of face-up hands).

A face-up hand (Komaki's reveal, the others under Mihoko's ability) has exact waits: a tile is
certain to deal in or certain not to; a face-up hand that is not ready threatens nothing. A
revealed family (Kasumi's) rules out every tile of that family its shown tiles cannot finish.
Positions are laid out tile by tile (see tests/bots/test_bot_judgment.py for the helpers).
"""

from __future__ import annotations

import random

import pytest

from pipeline.bots.danger import (
    FAMILIES,
    _family_can_finish,
    cleared_types,
    shown_families,
    winning_types,
)
from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.agents import Observation
from pipeline.tiles import counts34, parse_tiles, parse_types
from tests.support.bot_moments import BIG_TENPAI, decide, own_turn, reach, tile_is


def types(text: str) -> frozenset[int]:
    return frozenset(parse_types(text))


def test_winning_types_of_a_known_hand() -> None:
    assert winning_types(tuple(counts34(parse_tiles("79m456p789s123s11z"))), 0) == types("8m")
    assert winning_types(tuple(counts34(parse_tiles("234m678m222s34p88s"))), 0) == types("25p")
    assert winning_types(tuple(counts34(parse_tiles("1199m2288p3377s1z"))), 0) == types("1z")
    # one step from ready: no wait at all
    assert winning_types(tuple(counts34(parse_tiles("79m456p789s13s117z"))), 0) == frozenset()


def test_a_revealed_family_rules_out_the_tiles_it_cannot_finish() -> None:
    pinzu = shown_families(types("123456789p"))
    shown = counts34(parse_tiles("34p"))
    cleared = cleared_types(shown, pinzu)
    assert types("25p").isdisjoint(cleared)          # 234p, 345p
    assert types("1346789p") <= cleared              # 334p, 344p, 347p: no winning shape
    # no tile of the family at all: none of its tiles can be a winning tile
    assert cleared_types(counts34([]), pinzu) == types("123456789p")
    # honors: a shown pair waits on the third copy (shanpon) or finishes as a pair (seven pairs)
    honors = shown_families(types("1234567z"))
    assert cleared_types(counts34(parse_tiles("55z")), honors) == types("123467z")


# P1 riichi on 6p, ready on 8m only (kanchan); P2 holds BIG_TENPAI and draws 8m.
KANCHAN_8M = "79m456p789s123s11z"


@pytest.mark.parametrize("face_up", [False, True], ids=["face-down", "face-up"])
def test_a_face_up_riichi_hand_is_read_exactly(face_up: bool) -> None:
    state, legal = reach(["", KANCHAN_8M, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                         [(), ["riichi 6p"]], 2, own_turn(), dora="4m")
    assert state.players[1].riichi
    if face_up:
        state.reveal_hand(1, "test")
    choice = decide(state, 2, legal)
    if face_up:
        assert not tile_is(choice, "8m")   # its one winning tile, known: not given
    else:
        assert tile_is(choice, "8m")       # guessed at 12%: pushed to keep a big tenpai


def test_a_face_up_hand_threatens_only_when_ready() -> None:
    # P1 plays dama (no riichi, no melds): a face-down hand like this is no threat to read
    state, _ = reach(["", KANCHAN_8M, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                     [(), ["6p"]], 2, own_turn(), dora="4m")
    bot = HeuristicBot(0)
    assert bot._threats(Observation(state, 2)) == []
    state.reveal_hand(1, "test")
    (threat,) = bot._threats(Observation(state, 2))
    assert threat.seat == 1 and threat.waits == types("8m")
    assert bot._danger(parse_types("8m")[0], [threat], [0] * 34) == threat.value
    assert bot._danger(parse_types("9m")[0], [threat], [0] * 34) == 0.0


def test_a_face_up_hand_not_ready_or_furiten_is_no_threat() -> None:
    # P1 in riichi but its only wait 8m is in its own pond (furiten): it cannot ron
    state, _ = reach(["", "79m456p789s123s11z", BIG_TENPAI, ""], "1z" + "8m" + "9p",
                     [(), ["riichi 8m"]], 2, own_turn(), dora="4m")
    assert state.players[1].riichi
    state.reveal_hand(1, "test")
    threats = HeuristicBot(0)._threats(Observation(state, 2))
    assert threats == []


def test_a_revealed_family_clears_its_impossible_tiles_in_the_danger() -> None:
    # Kasumi's card makes P1 keep its manzu face up: 79m, so of all manzu only 8m can finish it
    state, _ = reach(["", KANCHAN_8M, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                     [(), ["riichi 6p"]], 2, own_turn(), dora="4m")
    state.show_types(1, types("123456789m"), "test")
    bot = HeuristicBot(0)
    (threat,) = bot._threats(Observation(state, 2))
    assert threat.waits is None
    assert threat.cleared == types("12345679m")
    visible = [0] * 34
    assert bot._danger(parse_types("1m")[0], [threat], visible) == 0.0
    assert bot._danger(parse_types("8m")[0], [threat], visible) > 0.0
    assert bot._danger(parse_types("1s")[0], [threat], visible) > 0.0  # souzu still guessed


def test_the_cleared_types_kept_per_family_are_those_worked_out_afresh() -> None:
    """``cleared_types`` keeps each family's answer by its counts: the same as asking every
    type of the family again, for random shown families (repeated, so the kept ones answer)."""
    rng = random.Random(7)
    for _ in range(2):
        rng.seed(7)
        for _ in range(300):
            shown = [0] * 34
            for t in rng.sample(range(34), rng.randrange(14)):
                shown[t] = rng.randrange(1, 5)
            families = tuple(f for f in FAMILIES if rng.random() < 0.5)
            fresh = set()
            for family in families:
                for t in family:
                    after = [shown[x] + (x == t) for x in family]
                    if shown[t] >= 4 or not _family_can_finish(tuple(after), family[0] >= 27):
                        fresh.add(t)
            assert cleared_types(shown, families) == frozenset(fresh)
