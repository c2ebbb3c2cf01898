"""Long work is visible and interruptible: progress lines without a terminal, Ctrl-C with a
way to resume, workers that do not outlive their parent, one writer per run folder."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from typer.testing import CliRunner

import cli
from pipeline.datafiles import PROJECT_ROOT
from pipeline.sim.run import MANIFEST_DIR, ProgressBar, RunLock, SimProgress, read_run


def test_progress_lines_without_a_terminal_come_every_interval() -> None:
    """A line every few seconds with matches done, the rate and the time left, computed from
    this session's pace (matches done before a resume do not count towards it)."""
    now = [0.0]
    out = io.StringIO()
    bar = ProgressBar(stream=out, interval=5.0, clock=lambda: now[0])
    assert not bar.enabled  # a StringIO is no terminal
    with bar:
        bar(SimProgress(100, 400, 0, 0.0))           # resumed: 100 matches already done
        for step in range(1, 13):                    # 25 matches (250 hands) per second
            now[0] = float(step)
            bar(SimProgress(100 + 25 * step, 400, 250 * step, float(step)))
    lines = out.getvalue().splitlines()
    assert lines == [
        "resuming: 100 of 400 matches already done",
        "simulating: 225/400 matches (56%), 1,250 hands at 250.0 hands/s, about 7 s left",
        "simulating: 350/400 matches (88%), 2,500 hands at 250.0 hands/s, about 2 s left",
        "simulating: 400/400 matches (100%), 3,000 hands at 250.0 hands/s, done",
    ]


def test_a_short_run_prints_no_progress_lines() -> None:
    out = io.StringIO()
    with ProgressBar(stream=out, interval=5.0, clock=lambda: 0.0) as bar:
        bar(SimProgress(0, 3, 0, 0.0))
        bar(SimProgress(3, 3, 30, 0.5))
    assert out.getvalue() == ""


def _start(out: Path, *extra: str) -> subprocess.Popen[str]:
    # far more matches than a test waits for (it stops the run after its first shard): a
    # run that could finish before the signal arrives would race it
    command = [sys.executable, "cli.py", "simulate", "--preset", "online-tonpuusen", "--games",
               "5000", "--seed", "3", "--bots", "greedy", "--shard-size", "1", "--out", str(out),
               *extra]
    return subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for_a_shard(proc: subprocess.Popen[str], out: Path) -> None:
    deadline = time.monotonic() + 120
    while not (out / MANIFEST_DIR / "part-00000.json").exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "no shard finished in time"
        time.sleep(0.05)


def _workers(pid: int) -> list[psutil.Process]:
    return [c for c in psutil.Process(pid).children()
            if "resource_tracker" not in " ".join(c.cmdline())]


def test_ctrl_c_says_how_to_resume_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(out, "--workers", "2")

    def after_a_shard(proc: subprocess.Popen[str]) -> list[psutil.Process]:
        _wait_for_a_shard(proc, out)
        return _workers(proc.pid)

    workers, stderr = _ctrl_c(proc, after_a_shard)
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == "interrupted: run the same command to resume"
    assert "Traceback" not in stderr
    assert read_run(out)["status"] == "running"
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == []


def test_ctrl_c_while_the_workers_start_exits_130_without_a_traceback(tmp_path: Path) -> None:
    """A Ctrl-C as the workers are still starting (importing, before they ignore it) reaches
    them too: they start with it blocked, so none prints a traceback or breaks the pool; the
    run stops as it does later on (tried three times: the moment varies)."""
    for attempt in range(3):
        proc = _start(tmp_path / f"run{attempt}", "--workers", "2")
        _, stderr = _ctrl_c(proc, _wait_for_workers)
        assert proc.returncode == 130, stderr
        assert "Traceback" not in stderr and "BrokenProcessPool" not in stderr, stderr


def _ctrl_c(proc: subprocess.Popen[str], ready: Callable[[subprocess.Popen[str]], Any]
            ) -> tuple[Any, str]:
    """Once ``ready(proc)`` returns, Ctrl-C as a terminal sends it (to the whole foreground
    group); ``ready``'s answer and the run's standard error. The run is killed if it outlives
    this."""
    try:
        got = ready(proc)
        os.killpg(proc.pid, signal.SIGINT)
        return got, proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_for_workers(proc: subprocess.Popen[str]) -> None:
    """Until both workers exist (still starting up, as a rule)."""
    deadline = time.monotonic() + 60
    while len(_started_workers(proc.pid)) < 2:
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the workers did not start in time"
        time.sleep(0.005)


def _started_workers(pid: int) -> list[psutil.Process]:
    try:
        return _workers(pid)
    except psutil.Error:  # a child that just ended (a zombie): read again
        return []


def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(out, "--workers", "2")
    workers: list[psutil.Process] = []
    try:
        _wait_for_a_shard(proc, out)
        workers = _workers(proc.pid)
        assert len(workers) == 2
        os.kill(proc.pid, signal.SIGKILL)  # the parent only: nothing tells the workers
        proc.wait()
        began = time.monotonic()
        _, alive = psutil.wait_procs(workers, timeout=15)
        assert alive == [], "workers outlived their parent"
        assert time.monotonic() - began < 10
    finally:
        if _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        for worker in workers:  # never leave a worker behind, even when the test fails
            if worker.is_running():
                worker.kill()
        proc.communicate()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_second_writer_of_one_run_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "--preset", "single-hand", "--games", "2", "--bots", "greedy",
            "--workers", "1", "--out", str(out)]
    with RunLock(out):
        result = CliRunner().invoke(cli.app, args)
        assert result.exit_code == 2, result.output
        text = result.output.strip()
        assert len(text.splitlines()) == 1
        assert f"another saki process (pid {os.getpid()}) is writing this run" in text
        assert not (out / "run.json").exists()  # the second writer touched nothing
    result = CliRunner().invoke(cli.app, args)  # the lock ends with its holder
    assert result.exit_code == 0, result.output
    assert read_run(out)["status"] == "complete"


def test_the_lock_is_never_left_in_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(Exception, match="is not empty and holds no run.json"):
        with RunLock(tmp_path):
            pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_calibration_workers_end_when_their_parent_is_killed() -> None:
    command = [sys.executable, "cli.py", "bots", "calibrate", "--games", "400", "--workers",
               "2", "--bot", "greedy"]
    proc = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    workers: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
            workers = _workers(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        _, alive = psutil.wait_procs(workers, timeout=15)
        assert alive == [], "calibration workers outlived their parent"
    finally:
        if _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        for worker in workers:
            if worker.is_running():
                worker.kill()
        proc.wait()


def test_ctrl_c_while_the_pool_is_waited_on_is_held_until_the_loop_checks() -> None:
    """A KeyboardInterrupt raised inside concurrent.futures.wait can leave futures' locks held
    and the pool's manager thread blocked for good (the process then never exits): the signal
    is recorded, raised at the loop's next check, and the old handler comes back after."""
    from pipeline.sim.executor import _HeldInterrupt

    before = signal.getsignal(signal.SIGINT)
    with _HeldInterrupt() as interrupt:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler runs; no KeyboardInterrupt here
        assert interrupt.pending
        with pytest.raises(KeyboardInterrupt):
            interrupt.check()
        interrupt.check()  # raised once: nothing left
    assert signal.getsignal(signal.SIGINT) is before
