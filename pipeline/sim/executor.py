"""Where shards are played: in this process, on a pool of local processes, or on a Dask cluster.

An executor takes a task function and a list of tasks. The function is called as
``fn(task, report)``, plays the task's matches and returns their output (the shard's encoded
files); the executor hands each output back to this process (``on_done``), which writes it, so
atomic commits and resuming live in one place whatever played the shard. ``report(hands)`` is
called once per finished match so the caller can show progress; on a Dask cluster it is not
(:attr:`live_progress` is False) and the caller counts a shard's matches when the shard returns.
The executor only decides which process runs which task: a task's output depends on the task
alone, never on the worker count, the machines or the order tasks finish in (architecture
decisions 5 and 8).

Workers are started with ``spawn``: a forked child of a process that already runs Polars' thread
pool can deadlock. Workers ignore Ctrl-C; the main process stops them when the run is interrupted
or a task fails, and a worker whose main process died (killed outright) ends within a second or
two on its own. A task killed half-way leaves no file behind (tasks write atomically), so its
work is simply redone by the next run.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from pipeline.sim import SimError
from pipeline.workers import watch_parent

Report = Callable[[int], None]
CONNECT_TIMEOUT = 10.0  # seconds to wait for a Dask scheduler, and for its first worker
TaskFn = Callable[[Any, Report], Any]


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not available on every platform
        return max(1, os.cpu_count() or 1)


T = TypeVar("T")


def with_own_pool(workers: int | None, call: Callable[[LocalExecutor], T]) -> T:
    """``call`` with a local pool of ``workers`` kept for the whole call (every round and
    trial of it) and stopped at its end: what a command given no executor plays on."""
    own = LocalExecutor(workers, reuse=True)
    try:
        return call(own)
    finally:
        own.close()


class LocalExecutor:
    """Runs tasks in this process (one worker) or on a pool of ``workers`` processes."""

    live_progress = True
    name = "local"

    def __init__(self, workers: int | None = None, *, reuse: bool = False) -> None:
        """``reuse``: keep the worker processes from one :meth:`run` to the next, until
        :meth:`close` (a trial runs one batch per round; starting the workers again each
        round costs their imports every time)."""
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        self.reuse = reuse
        self._pool: ProcessPoolExecutor | None = None
        self._ticks: Any = None
        self._before: set[Any] = set()

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

    def close(self) -> None:
        """Stop the kept worker processes (``reuse``); without it the pool lives only as long
        as one :meth:`run` and there is nothing to release."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _start_pool(self, size: int) -> ProcessPoolExecutor:
        ctx = mp.get_context("spawn")
        self._ticks = ctx.Queue()
        before = set(mp.active_children())
        pool = ProcessPoolExecutor(max_workers=size, mp_context=ctx, initializer=_init_worker,
                                   initargs=(self._ticks, os.getpid()))
        self._before = before  # the processes that are not this pool's workers
        return pool

    def _run_pool(self, fn: TaskFn, tasks: Sequence[Any], on_match: Report,
                  on_done: Callable[[Any], None]) -> None:
        pool = self._pool
        if pool is None:
            pool = self._start_pool(self.workers if self.reuse else min(self.workers, len(tasks)))
            if self.reuse:
                self._pool = pool
        ticks = self._ticks
        # A worker's match ticks travel on their own queue and may come in after its result;
        # each result says how many it sent, so every tick of this run is counted in this run
        # (a kept pool's next run must not see them).
        counted = [0, 0]  # ticks expected (from the results so far), ticks received
        try:
            with _HeldInterrupt() as interrupt:
                with _deaf_workers():  # the pool starts its processes on these submits
                    pending: set[Future[Any]] = {pool.submit(_call, fn, task) for task in tasks}
                while pending:
                    interrupt.check()
                    done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                    _drain(ticks, on_match, counted)
                    for future in done:
                        result, sent = future.result()
                        counted[0] += sent
                        on_done(result)
                while counted[1] < counted[0]:
                    interrupt.check()
                    _drain(ticks, on_match, counted, block=True)
                interrupt.check()
        except BaseException:
            for worker in set(mp.active_children()) - self._before:  # this pool's workers only
                worker.terminate()
            # the pool's manager thread sees its workers gone and closes its wake-up pipe; the
            # interpreter's exit wakes every manager thread through that pipe, so one still
            # closing it then fails with "Bad file descriptor": let it end first (bounded)
            manager = getattr(pool, "_executor_manager_thread", None)
            pool.shutdown(wait=False, cancel_futures=True)
            if manager is not None:
                manager.join(timeout=10)
            self._pool = None
            raise
        if not self.reuse:
            pool.shutdown(wait=True)


class _HeldInterrupt:
    """Holds Ctrl-C while the pool's futures are waited on, and raises it where the run can stop.

    A KeyboardInterrupt raised inside ``concurrent.futures.wait`` can land while it holds some
    futures' locks and never release them; the pool's manager thread then blocks on one of
    those locks for good, and the interpreter, which joins that thread at exit, never exits.
    Here the signal only records itself, and :meth:`check`, called between waits, raises the
    KeyboardInterrupt from the run's own loop. Outside the main thread (where no signal handler
    can be set) nothing is held."""

    def __init__(self) -> None:
        self.pending = False
        self._before: Any = None
        self._installed = False

    def __enter__(self) -> _HeldInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._before = signal.signal(signal.SIGINT, self._hold)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._before)

    def _hold(self, signum: int, frame: Any) -> None:
        self.pending = True

    def check(self) -> None:
        """Raise the Ctrl-C that came in since the last check, if any."""
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


_TICKS: Any = None
_SENT = 0  # ticks the task being played has sent


@contextmanager
def _deaf_workers() -> Iterator[None]:
    """Ctrl-C blocked while the pool starts its worker processes: a worker inherits the blocked
    signal, so a Ctrl-C during its start-up (its imports, before :func:`_init_worker` ignores
    the signal) cannot print a traceback from it; here the signal waits, and is handled (by
    ``_HeldInterrupt``) as soon as the submits are made. Where signals cannot be blocked,
    nothing changes."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _init_worker(ticks: Any, parent: int | None = None) -> None:
    global _TICKS
    _TICKS = ticks
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # started with it blocked (_deaf_workers)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    watch_parent(parent if parent is not None else os.getppid())


def _report(hands: int) -> None:
    global _SENT
    _TICKS.put(hands)
    _SENT += 1


def _call(fn: TaskFn, task: Any) -> tuple[Any, int]:
    """Play one task in a worker: its result and the number of ticks it sent."""
    global _SENT
    _SENT = 0
    return fn(task, _report), _SENT


def _drain(ticks: Any, on_match: Report, counted: list[int], *, block: bool = False) -> None:
    """Pass on the ticks that have come in (``block``: wait up to a few seconds for one)."""
    while True:
        try:
            hands = ticks.get(timeout=5.0) if block else ticks.get_nowait()
        except queue_mod.Empty:
            if block:
                raise RuntimeError("a worker's progress reports did not arrive") from None
            return
        block = False
        counted[1] += 1
        on_match(hands)


class DaskExecutor:
    """Runs tasks on a Dask distributed cluster (``dask scheduler`` and ``dask worker``).

    Each task is one Dask task; its output comes back to this process, which writes it. Every
    machine needs the same version of this package installed (the task function is sent by
    reference); nothing else is shared: the tasks carry their preset and catalog.
    """

    live_progress = False

    def __init__(self, scheduler: str, timeout: float | None = None) -> None:
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            from distributed import Client
        except ImportError:
            raise SimError("the Dask executor needs the 'distributed' package: "
                           "pip install 'dask[distributed]'") from None
        self.scheduler = scheduler
        self.name = f"dask {scheduler}"
        how = ("start one with 'dask scheduler' (it prints its address) and its workers with "
               f"'dask worker {scheduler}', or check --scheduler")
        try:
            self.client = Client(scheduler, timeout=timeout)
        except ValueError as exc:
            raise SimError(f"--scheduler {scheduler!r} is not a Dask scheduler address ({exc}); "
                           "give it as tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786") from None
        except (OSError, TimeoutError):
            raise SimError(f"no Dask scheduler answers at {scheduler} within {timeout:g} s; "
                           f"{how}") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            self.close()
            raise SimError(f"the Dask scheduler at {scheduler} has no workers; start them with "
                           f"'dask worker {scheduler}' on each machine") from None

    @property
    def workers(self) -> int:
        """Worker threads on the cluster now (the cluster may grow or shrink during a run)."""
        return sum(self.client.nthreads().values())

    def run(self, fn: TaskFn, tasks: Sequence[Any], *, on_match: Report,
            on_done: Callable[[Any], None]) -> None:
        """Run every task on the cluster; ``on_done(output)`` per finished task in completion
        order, in this process. The first failing task stops the run and its exception is
        raised here; tasks already finished keep their output."""
        if not tasks:
            return
        from distributed import as_completed

        futures = [self.client.submit(fn, task, None, pure=False, key=f"saki-{_key(task)}")
                   for task in tasks]
        try:
            for future in as_completed(futures):
                on_done(future.result())
                future.release()
        except BaseException as exc:
            self.client.cancel(futures)
            missing = _import_error(exc)
            if missing is not None:
                raise SimError(f"the Dask cluster at {self.scheduler} cannot run this package "
                               f"({missing}); install the same version of saki-balance-lab on "
                               "every machine, the scheduler's included, and restart "
                               "'dask scheduler' and 'dask worker' (docs/cluster.md)") from None
            raise

    def close(self) -> None:
        self.client.close()


def _import_error(exc: BaseException) -> ImportError | None:
    """The import failure behind a Dask error, if any: the scheduler or a worker cannot load
    this package (not installed there, or in another version)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ImportError):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def _key(task: Any) -> str:
    """A readable, unique Dask key for one task (shown on the Dask dashboard)."""
    import uuid

    return f"{getattr(task, 'name', 'task')}-{uuid.uuid4().hex[:8]}"


def make_executor(kind: str = "local", *, workers: int | None = None,
                  scheduler: str | None = None) -> LocalExecutor | DaskExecutor:
    """The executor named on the command line: ``local`` (``workers`` processes, default all
    cores) or ``dask`` (the cluster whose scheduler is at ``scheduler``)."""
    if kind == "local":
        if scheduler:
            raise SimError("--scheduler goes with --executor dask; drop it, or add "
                           "--executor dask")
        return LocalExecutor(workers, reuse=True)  # the caller closes it
    if kind == "dask":
        if not scheduler:
            raise SimError("--executor dask needs the scheduler's address, e.g. "
                           "--scheduler tcp://10.0.0.5:8786 (see docs/cluster.md)")
        if workers is not None:
            raise SimError("--workers is for --executor local; a Dask cluster's size is set "
                           "by the 'dask worker' processes started on it")
        return DaskExecutor(scheduler)
    raise SimError(f"unknown executor {kind!r} (known: local, dask)")
