"""The Dask executor: the same shards played on a Dask cluster give the same run folder as the
local executor, and a wrong scheduler address is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
import pipeline.sim.executor as executor_module
from pipeline.sim import SimError
from pipeline.sim.executor import DaskExecutor, make_executor
from pipeline.sim.run import MANIFEST_DIR, load_table, read_run, simulate
from pipeline.sim.tables import ALL_TABLES
from tests.support.paired_runs import make_config

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local


def test_a_dask_cluster_writes_the_same_run_as_local_processes(cluster, tmp_path: Path) -> None:
    cfg = make_config(tmp_path, games=3)  # a paired card run: every table, pairs included
    simulate(cfg, tmp_path / "local", workers=1)
    runner = DaskExecutor(cluster.scheduler_address)
    try:
        assert runner.workers == 2
        summary = simulate(cfg, tmp_path / "dask", executor=runner)
    finally:
        runner.close()
    assert summary.shards_run == 3 and summary.hands_total > 0
    for name in ALL_TABLES:
        assert load_table(tmp_path / "dask", name).equals(load_table(tmp_path / "local", name))
    for manifest in sorted((tmp_path / "local" / MANIFEST_DIR).glob("*.json")):
        assert manifest.read_bytes() == (tmp_path / "dask" / MANIFEST_DIR /
                                         manifest.name).read_bytes()
    session = read_run(tmp_path / "dask")["sessions"][-1]
    assert session["executor"] == f"dask {cluster.scheduler_address}"
    assert read_run(tmp_path / "dask")["status"] == "complete"


def test_a_dask_run_resumes_what_is_missing(cluster, tmp_path: Path) -> None:
    cfg = make_config(tmp_path, games=2)
    out = tmp_path / "run"
    simulate(cfg, out, workers=1)
    (out / MANIFEST_DIR / "part-00000.json").unlink()
    reference = {name: load_table(tmp_path / "run", name) for name in ALL_TABLES}
    runner = DaskExecutor(cluster.scheduler_address)
    try:
        summary = simulate(cfg, out, executor=runner)
    finally:
        runner.close()
    assert summary.shards_run == 1 and summary.shards_skipped == 1
    for name in ALL_TABLES:
        table = load_table(out, name)
        assert table.height >= reference[name].height
        assert table.filter(table["match_id"] == 1).equals(reference[name])


def test_a_wrong_scheduler_address_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setattr(executor_module, "CONNECT_TIMEOUT", 0.5)
    result = CliRunner().invoke(cli.app, [
        "simulate", "--preset", "single-hand", "--games", "1", "--executor", "dask",
        "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1
    assert "tcp://127.0.0.1:9" in text and "dask scheduler" in text
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("kind, scheduler, workers, words", [
    ("dask", None, None, "--scheduler"),
    ("dask", "localhost", None, "tcp://HOST:PORT"),
    ("dask", "tcp://127.0.0.1:9", 2, "--workers"),
    ("local", "tcp://127.0.0.1:9", None, "--executor dask"),
    ("slurm", None, None, "local, dask"),
])
def test_executor_options_are_checked(kind: str, scheduler: str | None, workers: int | None,
                                      words: str) -> None:
    with pytest.raises(SimError, match=words.replace("-", r"\-")):
        make_executor(kind, workers=workers, scheduler=scheduler)
