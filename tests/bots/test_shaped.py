"""Shanten with a character's extra sequences (pipeline/bots/shaped.py), and the bot using it.

The extra sequences are Kaori's honor sequences and Yuuko's wrap-around sequences
(``pipeline.rules.hand_shapes``, rule C-22). Without extra sequences the search must give the
standard shanten; with them it must agree with the engine's own shaped win and wait detection,
which is what decides whether she can win. Where the compiled kernel is built, its shaped
entry points must give the pure functions' answers.
"""

from __future__ import annotations

import random

import pytest

from pipeline.bots import shaped
from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.shanten import KERNEL, PURE_ENV, _pure_shanten, shanten
from pipeline.bots.shaped import (
    shaped_acceptance,
    shaped_discard_acceptance,
    shaped_discard_shanten,
    shaped_shanten,
)
from pipeline.rules.actions import ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand_shapes import (
    HandShapes,
    honor_sequences,
    shaped_is_complete,
    shaped_winning_types,
    wrap_sequences,
)
from pipeline.tiles import NUM_TYPES, parse_types
from tests.support.bot_moments import on_claim, own_turn, reach, tile_is
from tests.support.kernel_hands import mixed_hands
from tests.support.shanten_hands import GENERATORS, h, melds_for

HONORS, WRAPS = honor_sequences(), wrap_sequences()


def built_hand(rng: random.Random, n: int, extra: frozenset) -> list[int]:
    """A hand of ``n`` tiles built from sets (extra sequences among them), a pair, then a tile
    or two swapped; no type four times (the package's four-copies conventions are not
    reproduced, and no winning tile exists for such waits)."""
    runs = sorted(extra) + [(b + i, b + i + 1, b + i + 2) for b in (0, 9, 18) for i in range(7)]
    while True:
        counts = [0] * NUM_TYPES
        for _ in range((n - 1) // 3):
            group = rng.choice(runs) if rng.random() < 0.7 else (rng.randrange(NUM_TYPES),) * 3
            for t in group:
                counts[t] += 1
        counts[rng.randrange(NUM_TYPES)] += 2
        for _ in range(rng.randint(0, 2)):
            counts[rng.choice([t for t in range(NUM_TYPES) if counts[t]])] -= 1
            counts[rng.randrange(NUM_TYPES)] += 1
        while sum(counts) > n:
            counts[rng.choice([t for t in range(NUM_TYPES) if counts[t]])] -= 1
        if max(counts) <= 3:
            return counts


def test_without_extra_sequences_it_is_the_standard_shanten() -> None:
    rng = random.Random(1)
    checked = 0
    for i in range(3000):
        kind = sorted(GENERATORS)[i % len(GENERATORS)]
        n = rng.choice((14, 13, 11, 10, 8, 7, 5))
        counts = GENERATORS[kind](rng, n)
        if max(counts) > 3:
            continue
        assert shaped_shanten(counts, melds_for(n), frozenset()) == _pure_shanten(
            counts, melds_for(n)), counts
        checked += 1
    assert checked > 2000


@pytest.mark.parametrize("extra", [HONORS, WRAPS], ids=["honor-sequences", "wrap-sequences"])
def test_agrees_with_the_engines_shaped_wins_and_waits(extra: frozenset) -> None:
    # rule C-22 (Kaori, Yuuko): complete exactly when the engine lets the hand win, ready
    # exactly when the engine finds a winning tile
    rng = random.Random(str(sorted(extra)))
    shapes = HandShapes(extra_sequences=extra)
    seen = {"complete": 0, "ready": 0}
    for _ in range(1500):
        n = rng.choice((14, 13, 11, 10, 8, 7))
        counts = built_hand(rng, n, extra)
        sh = shaped_shanten(counts, melds_for(n), extra)
        if n % 3 == 2:
            assert (sh == -1) == shaped_is_complete(counts, shapes), counts
            seen["complete"] += sh == -1
        else:
            assert (sh == 0) == bool(shaped_winning_types(counts, shapes)), counts
            seen["ready"] += sh == 0
    assert seen["complete"] > 50 and seen["ready"] > 50  # both answers met often


def test_an_honor_sequence_is_a_set_only_for_her() -> None:
    # C-22 Kaori: East-South-West is a set; West-North-East (a wrap of winds) is not
    hand = h("123m456p78s11s123z")  # 13 tiles: ready on 6s/9s with the wind sequence
    assert shaped_shanten(hand, 0, HONORS) == 0 and shanten(hand, 0) == 2
    assert shaped_shanten(h("123m456p789s11s123z"), 0, HONORS) == -1
    assert shaped_shanten(h("123m456p789s11s341z"), 0, HONORS) == 0  # West-North only a partial
    unseen = [4] * NUM_TYPES
    assert shaped_acceptance(hand, 0, unseen, HONORS) == 8  # 6s and 9s
    after = shaped_discard_shanten(h("123m456p78s11s123z9m"), 0, HONORS)
    assert after[parse_types("9m")[0]] == 0 and after[parse_types("1z")[0]] == 1
    accepts = shaped_discard_acceptance(h("123m456p78s11s123z9m"), 0, parse_types("9m"),
                                        unseen, HONORS)
    assert accepts == {parse_types("9m")[0]: 8}


def test_a_wrap_sequence_is_a_set_only_for_her() -> None:
    # C-22 Yuuko: 8-9-1 and 9-1-2 of one suit are sets; 9-1-2 across suits is not
    assert shaped_shanten(h("891m456p789s111s55z"), 0, WRAPS) == -1
    assert shaped_shanten(h("891m456p789s111s55z"), 0, frozenset()) == 0
    assert shaped_shanten(h("89m1p456p789s111s55z"), 0, WRAPS) == 0
    assert shaped_shanten(h("912m456p789s111s55z"), 0, WRAPS) == -1


def kaori_bot() -> HeuristicBot:
    bot = HeuristicBot(0)
    assert bot.pick(tuple(range(0, 52, 4)), ("kaori_senoo",)) == "kaori_senoo"
    assert bot.extra == HONORS
    return bot


def test_her_bot_keeps_her_honor_sequence() -> None:
    # C-22 Kaori: with East-South-West she is one discard from ready, so the lone 9m goes; the
    # same hand for anyone else has three lone honors to let go first
    state, legal = reach(["123m456p78s11s123z", "", "", ""], "9m", [], 0, own_turn())
    assert tile_is(kaori_bot().decide(Observation(state, 0), legal), "9m")
    assert not tile_is(HeuristicBot(0).decide(Observation(state, 0), legal), "9m")


def test_her_bot_calls_without_a_yaku() -> None:
    # C-22 Kaori wins without a yaku, so a chi that leaves none still serves her: the position
    # of test_chi_only_when_the_open_hand_keeps_a_yaku, where any other seat passes
    state, legal = reach(["4p", "123m23p678p56s9s44z", "", ""], "1z", [["4p"]], 1, on_claim,
                         dora="5p")
    assert HeuristicBot(0).decide(Observation(state, 1), legal).kind == ActionKind.PASS
    assert kaori_bot().decide(Observation(state, 1), legal).kind == ActionKind.CHI


needs_kernel = pytest.mark.skipif(
    KERNEL is None, reason="the compiled kernel is not built (no C compiler at install?) "
    f"or {PURE_ENV} is set: the bots use the pure-Python functions")

EXTRAS = {"none": frozenset(), "honors": HONORS, "wraps": WRAPS, "both": HONORS | WRAPS}


def kernel_sample(seed: int, extra: frozenset) -> list[tuple[list[int], int]]:
    """Hands built with the extra sequences (near a win), and mixed ones of every size (one-suit
    hands, four-of-a-kinds, wall hands), each with the melds its size implies."""
    rng = random.Random(seed)
    built = [built_hand(rng, n, extra) for n in rng.choices((14, 13, 11, 10, 8, 7, 5, 4, 2, 1),
                                                            k=1200)]
    return [(c, melds_for(sum(c))) for c in built] + mixed_hands(seed, 2500)


@needs_kernel
@pytest.mark.parametrize("name", sorted(EXTRAS))
def test_kernel_shaped_functions_equal_pure(name: str) -> None:
    extra = EXTRAS[name]
    rng = random.Random(name)
    for counts, melds in kernel_sample(len(name), extra):
        assert (KERNEL.shaped_shanten(counts, melds, extra)
                == shaped._pure_shaped_shanten(counts, melds, extra)), counts
        unseen = [rng.randint(0, 4 - x) for x in counts]
        if sum(counts) % 3 == 2:
            got = KERNEL.shaped_discard_shanten(counts, melds, extra)
            assert got == shaped._pure_shaped_discard_shanten(counts, melds, extra), counts
            assert list(got) == [t for t in range(NUM_TYPES) if counts[t]]  # type order
            some = [t for t in range(NUM_TYPES) if counts[t]]
            rng.shuffle(some)
            some = some[:rng.randint(1, len(some))]
            got = KERNEL.shaped_discard_acceptance(counts, melds, some, unseen, extra)
            assert got == shaped._pure_shaped_discard_acceptance(counts, melds, some, unseen,
                                                                 extra), counts
            assert list(got) == some  # in the order asked
        else:
            assert (KERNEL.shaped_acceptance(counts, melds, unseen, extra)
                    == shaped._pure_shaped_acceptance(counts, melds, unseen, extra)), counts


@needs_kernel
def test_kernel_shaped_constructed_hands() -> None:
    """The hands of the rule tests above, a one-suit hand with every wrap around, a hand of
    honors only, four-of-a-kinds, and input the kernel leaves to the pure functions."""
    both = HONORS | WRAPS
    hands = [h("123m456p78s11s123z"), h("123m456p78s11s123z9m"), h("891m456p789s111s55z"),
             h("89m1p456p789s111s55z"), h("11112345678999m"), h("1112223334567z"),
             h("11223344556677z"), h("19m19p19s1234567z"), h("1111m2222p3333s44z"),
             h("9m"), h("91m"), h("5z"), h("5677z")]
    unseen = [4] * NUM_TYPES
    for counts in hands:
        melds = melds_for(sum(counts))
        for extra in EXTRAS.values():
            assert (KERNEL.shaped_shanten(counts, melds, extra)
                    == shaped._pure_shaped_shanten(counts, melds, extra)), counts
            if sum(counts) % 3 == 2:
                held = [t for t in range(NUM_TYPES) if counts[t]]
                assert (KERNEL.shaped_discard_acceptance(counts, melds, held, unseen, extra)
                        == shaped._pure_shaped_discard_acceptance(counts, melds, held, unseen,
                                                                  extra)), counts
            else:
                assert (KERNEL.shaped_acceptance(counts, melds, unseen, extra)
                        == shaped._pure_shaped_acceptance(counts, melds, unseen, extra)), counts
    assert KERNEL.shaped_shanten(h("11112345678999m"), 0, both) == -1
    # sizes that do not fit the melds, counts above four, discards not held: left to the pure
    # functions, which explain the problem
    assert KERNEL.shaped_shanten(h("123m"), 0, both) is None
    assert KERNEL.shaped_shanten([5] + [0] * 33, 4, both) is None
    assert KERNEL.shaped_discard_acceptance(h("123m456p78s11s123z9m"), 0, [8 + 9], unseen,
                                            both) is None
    assert KERNEL.shaped_shanten(h("123m456p78s11s123z"), 0, [(27, 28)]) is None


def test_public_shaped_functions_answer_as_the_pure_ones() -> None:
    # with or without the kernel, the names the bot calls give the pure functions' answers
    hand, unseen = h("123m456p78s11s123z9m"), [4] * NUM_TYPES
    assert shaped_discard_shanten(hand, 0, HONORS) == shaped._pure_shaped_discard_shanten(
        hand, 0, HONORS)
    assert shaped_discard_acceptance(hand, 0, iter([8, 27]), unseen, HONORS) == \
        shaped._pure_shaped_discard_acceptance(hand, 0, [8, 27], unseen, HONORS)
