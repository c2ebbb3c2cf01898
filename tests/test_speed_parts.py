"""The parts that make long runs cheaper keep their results: the bots' snapshot for the paired
replay, a worker pool kept across batches, and memos of bounded size."""

from __future__ import annotations

import copy
import importlib
import os
from collections.abc import Callable

from pipeline.bots.registry import make_agent
from pipeline.sim.executor import LocalExecutor
from pipeline.sim.paired import snapshot_agents
from pipeline.tiles import HAND_MEMO


def test_a_snapshot_plays_on_as_a_deep_copy_would() -> None:
    agents = [make_agent("heuristic", seed) for seed in range(4)]
    for a in agents:
        a.rng.random()  # a stream part-way through
    fast, slow = snapshot_agents(agents), copy.deepcopy(agents)
    for f, s, a in zip(fast, slow, agents, strict=True):
        assert f is not a and f.rng is not a.rng
        assert vars(f).keys() == vars(s).keys()
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
        executor.run(_pid, list(range(6)), on_match=lambda n: None, on_done=second.append)
    finally:
        executor.close()
    assert sorted(t for t, _ in first) == sorted(t for t, _ in second) == list(range(6))
    assert {p for _, p in second} <= {p for _, p in first}
    assert os.getpid() not in {p for _, p in first}
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
    for name in ("pipeline.rules.agari", "pipeline.rules.hand_shapes", "pipeline.bots.shaped",
                 "pipeline.bots.evaluate"):
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            info = getattr(fn, "cache_info", None)
            if info is None or getattr(fn, "__module__", None) != name:
                continue
            keyed_by_hands = attr in {"_suit_is_sets", "_suit_kind", "_suit_waits",
                                      "_suit_kinds_after", "_regular", "_unit_kind",
                                      "_honor_readings", "_alias_complete_cached",
                                      "_alias_waits_cached", "_part_rows", "_merged",
                                      "_combined", "_near", "improving_types"}
            if keyed_by_hands:
                assert info().maxsize == HAND_MEMO, f"{name}.{attr}"
