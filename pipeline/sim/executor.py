"""Where shards are played: in this process, or on a pool of local processes.

An executor takes a task function and a list of tasks. The function is called as
``fn(task, report)``, plays the task's matches, writes its output and returns a small result;
``report(hands)`` is called once per finished match so the caller can show progress. The
executor only decides which process runs which task: a task's output depends on the task alone,
never on the worker count or the order tasks finish in (architecture decisions 5 and 8).

Workers are started with ``spawn``: a forked child of a process that already runs Polars' thread
pool can deadlock. Workers ignore Ctrl-C; the main process stops them when the run is interrupted
or a task fails. A task killed half-way leaves no file behind (tasks write atomically), so its
work is simply redone by the next run.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

Report = Callable[[int], None]
TaskFn = Callable[[Any, Report], Any]


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not available on every platform
        return max(1, os.cpu_count() or 1)


class LocalExecutor:
    """Runs tasks in this process (one worker) or on a pool of ``workers`` processes."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")

    def run(self, fn: TaskFn, tasks: Sequence[Any], *, on_match: Report,
            on_done: Callable[[Any], None]) -> None:
        """Run every task; ``on_match(hands)`` per finished match, ``on_done(result)`` per
        finished task (in completion order). The first failing task stops the run and its
        exception is raised here; tasks already finished keep their output."""
        if not tasks:
            return
        if self.workers == 1 or len(tasks) == 1:
            for task in tasks:
                on_done(fn(task, on_match))
            return
        self._run_pool(fn, tasks, on_match, on_done)

    def _run_pool(self, fn: TaskFn, tasks: Sequence[Any], on_match: Report,
                  on_done: Callable[[Any], None]) -> None:
        ctx = mp.get_context("spawn")
        ticks = ctx.Queue()
        before = set(mp.active_children())
        pool = ProcessPoolExecutor(max_workers=min(self.workers, len(tasks)), mp_context=ctx,
                                   initializer=_init_worker, initargs=(ticks,))
        try:
            pending: set[Future[Any]] = {pool.submit(_call, fn, task) for task in tasks}
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                _drain(ticks, on_match)
                for future in done:
                    on_done(future.result())
        except BaseException:
            for worker in set(mp.active_children()) - before:  # this pool's workers only
                worker.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        _drain(ticks, on_match)


_TICKS: Any = None


def _init_worker(ticks: Any) -> None:
    global _TICKS
    _TICKS = ticks
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _report(hands: int) -> None:
    _TICKS.put(hands)


def _call(fn: TaskFn, task: Any) -> Any:
    return fn(task, _report)


def _drain(ticks: Any, on_match: Report) -> None:
    while True:
        try:
            hands = ticks.get_nowait()
        except queue_mod.Empty:
            return
        on_match(hands)
