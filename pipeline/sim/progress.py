"""What a run says while and after it plays: where it stands after every match
(:class:`SimProgress`), the progress bar or plain progress lines on standard error
(:class:`ProgressBar`), and the summary line of a finished session (:class:`RunSummary`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class SimProgress:
    """Where a run stands, as reported after every finished match."""

    matches_done: int     # including matches of shards finished before this session
    matches_total: int
    hands: int            # hands played in this session
    seconds: float        # since this session started playing


@dataclass
class RunSummary:
    run_id: str
    out: Path
    status: str
    matches: int
    shards_total: int
    shards_skipped: int
    shards_run: int
    hands: int            # hands played in this session
    hands_total: int      # hands in the finished run's tables
    seconds: float        # this session, playing only
    workers: int
    peak_rss_kb: int      # largest peak resident memory of a process that played a shard
    rows: dict[str, int] = field(default_factory=dict)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        head = f"{self.status}: {self.matches} matches, {self.hands_total} hands; "
        where = f"run {self.run_id} in {self.out}"
        if not self.shards_run:
            return f"{head}all {self.shards_total} shards were already done; {where}"
        done = (f"{self.shards_skipped} of {self.shards_total} shards were already done; "
                if self.shards_skipped else "")
        workers = f"{self.workers} worker" + ("s" if self.workers != 1 else "")
        return (f"{head}{done}played {self.hands} hands in {self.seconds:.1f} s "
                f"({self.hands_per_second:.1f} hands/s, {workers}{_kernel_note()}); {where}")


def _kernel_note() -> str:
    """Why play may be slow: the bots' compiled kernel is not in use (same results)."""
    from pipeline.bots.shanten import KERNEL, PURE_ENV

    if KERNEL is not None:
        return ""
    return (f", pure-Python bots as {PURE_ENV} asks" if os.environ.get(PURE_ENV, "") not in
            ("", "0") else ", pure-Python bots: the compiled kernel is not built, so play runs "
            "at about half speed; with a C compiler, reinstall (README)")


PROGRESS_SECONDS = 5.0  # how often a progress line is printed when stderr is not a terminal


class ProgressBar:
    """Progress on standard error: a bar on a terminal (matches done, hands per second, time
    left); elsewhere (a log file, CI, ``nohup``) a plain line every ``interval`` seconds with
    the same figures, so a long run is visible wherever it runs. Use as a context manager and
    pass it as ``simulate(..., progress=bar)``."""

    def __init__(self, enabled: bool | None = None, *, interval: float = PROGRESS_SECONDS,
                 stream: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        import sys

        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.interval = interval
        self._clock = clock
        self._progress: Any = None
        self._task: Any = None
        self._last_line: float | None = None
        self._first_done: int | None = None  # matches already done when this session began
        self._lines = 0

    def __enter__(self) -> ProgressBar:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                TextColumn("matches"), TextColumn("{task.fields[rate]}"),
                TextColumn("left"), TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def __call__(self, p: SimProgress) -> None:
        if self._progress is None:
            self._line(p)
            return
        rate = f"{p.hands / p.seconds:,.1f} hands/s" if p.seconds > 0 else "- hands/s"
        if self._task is None:  # matches finished earlier do not count towards the speed
            self._task = self._progress.add_task("run", total=p.matches_total,
                                                 completed=p.matches_done, rate=rate)
        else:
            self._progress.update(self._task, completed=p.matches_done, rate=rate)

    def _line(self, p: SimProgress) -> None:
        """A plain progress line, at most one per interval (and, after any, one when the run is
    done)."""
        now = self._clock()
        if self._first_done is None:
            self._first_done = p.matches_done
            self._last_line = now
            if p.matches_done:
                self._write(f"resuming: {p.matches_done:,} of {p.matches_total:,} matches "
                            "already done")
            return
        finished = p.matches_done >= p.matches_total
        due = self._last_line is not None and now - self._last_line >= self.interval
        if not due and not (finished and self._lines):  # a short run needs no progress lines
            return
        self._last_line = now
        self._lines += 1
        self._write(progress_line(p, self._first_done))

    def _write(self, text: str) -> None:
        print(text, file=self.stream, flush=True)


def progress_line(p: SimProgress, first_done: int = 0) -> str:
    """``simulating: 120/400 matches (30%), 1,260 hands at 42.0 hands/s, about 1 min 6 s
    left``: done, rate and the time left at this session's pace."""
    share = 100 * p.matches_done / p.matches_total if p.matches_total else 100.0
    text = f"simulating: {p.matches_done:,}/{p.matches_total:,} matches ({share:.0f}%)"
    if p.seconds <= 0:
        return text
    text += f", {p.hands:,} hands at {p.hands / p.seconds:,.1f} hands/s"
    played = p.matches_done - first_done
    left = p.matches_total - p.matches_done
    if left <= 0:
        return text + ", done"
    if played > 0:
        text += f", about {_duration(left * p.seconds / played)} left"
    return text


def _duration(seconds: float) -> str:
    seconds = max(1, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s"
    return f"{secs} s"
