"""The compiled kernel (pipeline/bots/_kernel.c) answers exactly as the pure-Python functions.

The public functions of ``pipeline.bots.shanten`` use the kernel when it is built and current,
so ``tests/bots/test_shanten.py`` checks the kernel against the `mahjong` package; here every kernel
entry point is compared with the pure function it stands in for, on the same mixed samples
(wall hands, near-tenpai hands, one-suit hands, hands with four-of-a-kinds, every size), and the
ways the kernel is refused (a stale build, ``SAKI_PURE_PYTHON``, a damaged table) are checked.
Comparisons are skipped where the kernel was not built (no C compiler at install time).
"""

from __future__ import annotations

import random

import pytest

from pipeline.bots import evaluate
from pipeline.bots import shanten as sh
from pipeline.tiles import NUM_TYPES
from tests.support.kernel_hands import mixed_hands
from tests.support.shanten_hands import h, near_tenpai_sample

needs_kernel = pytest.mark.skipif(
    sh.KERNEL is None, reason="the compiled kernel is not built (no C compiler at install?) "
    f"or {sh.PURE_ENV} is set: the bots use the pure-Python functions")


@needs_kernel
def test_shanten_equals_pure() -> None:
    for counts, melds in mixed_hands(1, 4000):
        assert sh.KERNEL.shanten(counts, melds) == sh._pure_shanten(counts, melds), counts


@needs_kernel
def test_discard_shanten_equals_pure() -> None:
    for counts, melds in mixed_hands(2, 6000):
        if sum(counts) % 3 != 2:
            continue
        got = sh.KERNEL.discard_shanten(counts, melds)
        assert got == sh._pure_discard_shanten(counts, melds), counts
        assert list(got) == [t for t in range(NUM_TYPES) if counts[t]]  # type order


@needs_kernel
def test_lowering_draws_equal_pure() -> None:
    """The draws tried are the helpful ones, as in the pure function: a hand whose only isolated
    tiles are a four-of-a-kind improves with any draw, but only nearby draws are listed."""
    hands = mixed_hands(3, 6000) + near_tenpai_sample(31, 600)
    for counts, melds in hands:
        if sum(counts) % 3 == 1:
            assert (sh.KERNEL.lowering_draws(counts, melds)
                    == sh._pure_near_lowering_draws(counts, melds)), counts
    assert sh.KERNEL.lowering_draws(h("1111m"), 3) == [1, 2] == \
        sh._pure_near_lowering_draws(h("1111m"), 3)


@needs_kernel
def test_discard_lowering_draws_and_acceptance_equal_pure() -> None:
    rng = random.Random(4)
    for counts, melds in mixed_hands(5, 5000):
        if sum(counts) % 3 != 2:
            continue
        held = [t for t in range(NUM_TYPES) if counts[t]]
        rng.shuffle(held)
        some = held[:rng.randint(1, len(held))]
        got = sh.KERNEL.discard_lowering_draws(counts, melds, some)
        assert got == sh._pure_discard_lowering_draws(counts, melds, some), counts
        assert list(got) == some  # in the order asked
        unseen = [rng.randint(0, 4 - c) for c in counts]
        accepts = sh.KERNEL.discard_acceptance(counts, melds, some, unseen)
        assert accepts == {t: sum(unseen[u] for u in draws) for t, draws in got.items()}


@needs_kernel
def test_public_functions_use_the_kernel_and_fall_back_on_bad_input() -> None:
    """Input the kernel does not handle gets None from it, and the public function then answers
    as the pure function does (with its error where it gives one, which says what is wrong)."""
    assert sh.shanten is not sh._pure_shanten
    # without 3z: a wait on 1z and 2z, four unseen copies of each (as given)
    assert evaluate.discard_acceptance(h("123m456p789s11223z"), 0, [29], [4] * NUM_TYPES) == \
        {29: 8}

    def outcome(function, counts, melds):
        try:
            return function(counts, melds)
        except ValueError as error:
            return str(error)

    bad = [
        (h("123m456p789s1122z"), 1),       # 13 tiles do not fit one meld
        (h("123m456p789s1122z") + [0], 0),  # 35 counts
        ([5] + [0] * 33, 3),               # five copies of a type
        ([-1] + [1] * 14 + [0] * 19, 0),   # a negative count
    ]
    for counts, melds in bad:
        assert sh.KERNEL.shanten(counts, melds) is None
        assert outcome(sh.shanten, counts, melds) == outcome(sh._pure_shanten, counts, melds)
    with pytest.raises(ValueError, match="holds 10 or 11 tiles"):
        sh.shanten(h("123m456p789s1122z"), 1)
    assert sh.KERNEL.discard_shanten(h("123m456p789s1122z"), 0) is None  # 13 tiles
    assert sh.KERNEL.discard_lowering_draws(h("123m456p789s11222z"), 0, [8]) is None
    with pytest.raises(ValueError, match="not held"):
        sh.discard_lowering_draws(h("123m456p789s11222z"), 0, [0, 8])
    with pytest.raises(TypeError):
        sh.KERNEL.shanten(["1"] * NUM_TYPES, 0)


@needs_kernel
def test_damaged_table_buffers_are_refused_and_the_loaded_table_kept() -> None:
    kernel = sh.KERNEL
    with pytest.raises(ValueError, match="expected sizes"):
        kernel.load(b"\x00" * 4, b"\x00" * 8, b"\x00" * 10)
    index = bytes(2 * 5 ** 9)  # every suit code names row set 0
    with pytest.raises(ValueError, match="cover its rows"):
        kernel.load(b"\x00" * 8, (0).to_bytes(4, "little") + (1).to_bytes(4, "little"), index)
    assert kernel.shanten(h("123m456p789s1122z"), 0) == 0  # the shipped table still answers


def test_stale_build_and_pure_setting_are_not_used(monkeypatch, tmp_path) -> None:
    """A kernel built from another version of its source is ignored with a warning that says how
    to rebuild it; SAKI_PURE_PYTHON turns the kernel off; neither changes any answer."""
    monkeypatch.setenv(sh.PURE_ENV, "1")
    assert sh._load_kernel() is None
    monkeypatch.setenv(sh.PURE_ENV, "0")
    if sh.KERNEL is None:
        pytest.skip("the compiled kernel is not built")
    edited = tmp_path / "_kernel.c"
    edited.write_text(sh._KERNEL_SOURCE.read_text() + "\n/* edited */\n")
    monkeypatch.setattr(sh, "_KERNEL_SOURCE", edited)
    with pytest.warns(RuntimeWarning, match="pip install -e"):
        assert sh._load_kernel() is None
    monkeypatch.setattr(sh, "load_table", lambda: None)  # no shipped table: pure functions
    monkeypatch.setattr(sh, "_KERNEL_SOURCE", tmp_path / "absent.c")
    assert sh._load_kernel() is None


@needs_kernel
def test_distinct_type_counts_count_each_tile_id_once() -> None:
    """visible_counts gathers tile ids from the hand, ponds, melds and indicators; a called
    discard is both in a pond and in a meld and must count once."""
    rng = random.Random(6)
    for _ in range(2000):
        groups = [tuple(rng.sample(range(136), rng.randint(0, 20)))
                  for _ in range(rng.randint(0, 9))]
        expected = [0] * NUM_TYPES
        for tile in set().union(*groups):
            expected[tile // 4] += 1
        assert sh.KERNEL.distinct_type_counts(groups) == expected
    assert sh.KERNEL.distinct_type_counts([(0, 1), (1, 2, 135)]) == [3] + [0] * 32 + [1]
    assert sh.KERNEL.distinct_type_counts([(0,), (136,)]) is None  # not a tile id
    with pytest.raises(TypeError):
        sh.KERNEL.distinct_type_counts([(0,), 5])


def test_visible_counts_same_with_and_without_kernel(monkeypatch) -> None:
    """The same counts from the kernel and from the pure path, on the observations of a
    played hand (calls included)."""
    from pipeline.bots.registry import make_agent
    from pipeline.rules.match import play_match
    from pipeline.rules.preset import load_preset

    seen: list[tuple[object, list[int]]] = []

    class Watching:
        def __init__(self, seed: int) -> None:
            self.agent = make_agent("heuristic", seed)

        def decide(self, obs, legal):
            with_kernel = sh.visible_counts(obs)
            monkeypatch.setattr(sh, "KERNEL", None)
            seen.append((with_kernel, sh.visible_counts(obs)))
            monkeypatch.undo()
            return self.agent.decide(obs, legal)

    play_match(load_preset("online-tonpuusen"), [Watching(s) for s in range(4)], 3, 0)
    assert len(seen) > 100
    assert all(a == b for a, b in seen)
    assert any(sum(a) > 40 for a, _ in seen)  # late in hands, with ponds full
