"""The parts that make long runs cheaper keep their results: the bots' snapshot for the paired
replay, a worker pool kept across batches, and memos of bounded size."""

from __future__ import annotations

import copy
import importlib
import os
import random
from collections.abc import Callable

from pipeline.bots.registry import make_agent
from pipeline.sim.executor import LocalExecutor
from pipeline.sim.paired import snapshot_agents
from pipeline.tiles import HAND_MEMO, RECENT_MEMO


def test_a_snapshot_plays_on_as_a_deep_copy_would() -> None:
    agents = [make_agent("heuristic", seed) for seed in range(4)]
    for a in agents:
        a.rng.random()  # a stream part-way through
    fast, slow = snapshot_agents(agents), copy.deepcopy(agents)
    for f, s, a in zip(fast, slow, agents, strict=True):
        assert f is not a and f.rng is not a.rng
        # the same fields, those in the object where compiled included (its copy state)
        assert f.__getstate__().keys() == s.__getstate__().keys() == a.__getstate__().keys()
        assert f.playing == a.playing and f.style == a.style
        assert [f.rng.random() for _ in range(5)] == [s.rng.random() for _ in range(5)]
    before = agents[0].rng.getstate()
    fast[0].rng.random()
    assert agents[0].rng.getstate() == before  # the original stream is untouched


def _pid(task: int, report: object) -> tuple[int, int]:
    return task, os.getpid()


def test_a_kept_pool_serves_every_batch_with_the_same_workers() -> None:
    executor = LocalExecutor(2, reuse=True)
    try:
        first: list[tuple[int, int]] = []
        second: list[tuple[int, int]] = []
        executor.run(_pid, list(range(6)), on_match=lambda n: None, on_done=first.append)
        pool = executor._pool
        workers = set(pool._processes)  # the kept pool's worker processes, by pid
        executor.run(_pid, list(range(6)), on_match=lambda n: None, on_done=second.append)
        assert executor._pool is pool and set(pool._processes) == workers
    finally:
        executor.close()
    assert sorted(t for t, _ in first) == sorted(t for t, _ in second) == list(range(6))
    # every task of both batches ran in the kept workers (which one is the scheduler's choice:
    # a fast batch may be served by one worker alone)
    assert {p for _, p in first} | {p for _, p in second} <= workers
    assert os.getpid() not in workers
    assert executor._pool is None


def _ticking(task: int, report: Callable[[int], None]) -> int:
    for _ in range(task):
        report(1)
    return task


def test_every_tick_is_counted_in_its_own_run() -> None:
    executor = LocalExecutor(2, reuse=True)
    try:
        for _ in range(3):
            ticks: list[int] = []
            executor.run(_ticking, [5, 7, 0, 3], on_match=ticks.append, on_done=lambda r: None)
            assert len(ticks) == 15
    finally:
        executor.close()


def test_memos_keyed_by_hands_are_bounded() -> None:
    """A worker meets new hands all run long: these memos must stop at a size limit."""
    recent = {"pipeline.bots.danger": {"winning_types"},
              "pipeline.bots.evaluate": {"improving_types"},
              "pipeline.bots.pick": {"features", "_shaped_start"},
              "pipeline.rules.hand_shapes": {"_alias_waits_cached"}}
    for name in ("pipeline.rules.agari", "pipeline.rules.hand_shapes", "pipeline.bots.shaped",
                 "pipeline.bots.evaluate", "pipeline.bots.danger", "pipeline.bots.pick",
                 "pipeline.rules.hand"):
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            info = getattr(fn, "cache_info", None)
            if info is None or getattr(fn, "__module__", None) != name:
                continue
            keyed_by_hands = attr in {"_suit_is_sets", "_suit_kind", "_suit_waits",
                                      "_suit_kinds_after", "_regular", "_unit_kind",
                                      "_honor_readings", "_alias_complete_cached",
                                      "_alias_waits_cached", "_part_rows", "_merged",
                                      "_combined", "_near", "improving_types",
                                      "winning_types", "_family_can_finish", "_family_cleared",
                                      "features", "_shaped_start", "_offer"}
            if keyed_by_hands:
                limit = RECENT_MEMO if attr in recent.get(name, ()) else HAND_MEMO
                assert info().maxsize == limit, f"{name}.{attr}"


def _hands(n: int, seed: int) -> list[tuple[int, ...]]:
    """``n`` different 13-tile hands (34 counts): a winning hand less one tile (ready), every
    other one then one tile swapped (mostly not ready)."""
    rng = random.Random(seed)
    found: dict[tuple[int, ...], None] = {}
    while len(found) < n:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.7:
                low = 9 * rng.randrange(3) + rng.randrange(7)
                group = (low, low + 1, low + 2)
            else:
                group = (rng.randrange(34),) * 3
            for t in group:
                counts[t] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        if len(found) % 2:
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
            counts[rng.choice([t for t in range(34) if counts[t] < 4])] += 1
        found[tuple(counts)] = None
    return list(found)


def test_small_memos_answer_as_the_functions_they_keep() -> None:
    """The memos kept small (a few hundred entries) forget hands and still answer as the
    functions themselves, for hands met again after they were forgotten."""
    from pipeline.bots import danger, evaluate, pick
    from pipeline.rules.actions import ActionKind
    from pipeline.rules.legal_actions import _offer

    hands = _hands(3 * RECENT_MEMO, seed=17)
    again = hands[:RECENT_MEMO // 2] + hands[-RECENT_MEMO // 2:]
    ready = 0
    for counts in hands + again:
        waits = danger.winning_types(counts, 0)
        assert waits == danger.winning_types.__wrapped__(counts, 0)
        ready += bool(waits)
        assert (evaluate.improving_types(counts, 0)
                == evaluate.improving_types.__wrapped__(counts, 0))
        tiles = tuple(sorted(4 * t + k for t in range(34) for k in range(counts[t])))
        assert pick.features(tiles) == pick.features.__wrapped__(tiles)
    assert ready > RECENT_MEMO
    assert danger.winning_types.cache_info().currsize <= RECENT_MEMO
    assert pick.features.cache_info().currsize <= RECENT_MEMO
    # an action offered again while kept is the same object; forgotten, an equal one
    first = _offer(ActionKind.PON, 1, 40, (41, 42))
    assert _offer(ActionKind.PON, 1, 40, (41, 42)) is first
    for tile in range(HAND_MEMO + 1):
        _offer(ActionKind.RON, 2, tile % 136, (tile,))
    assert _offer(ActionKind.PON, 1, 40, (41, 42)) == first
