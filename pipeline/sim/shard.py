"""One shard of a run: the block of matches it holds (:class:`ShardTask`, small, sent to
workers), playing it into encoded table files in any process (:func:`play_shard`), and writing
it into the run folder with its manifest last, the commit point (:func:`write_shard`,
:func:`read_manifest`). The folder's layout is described in :mod:`pipeline.sim.run`.
"""

from __future__ import annotations

import hashlib
import io
import json
import resource
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pipeline
from pipeline.bots.policies import holder_bot
from pipeline.bots.registry import make_agent
from pipeline.cards.catalog import Catalog, load_catalog
from pipeline.cards.table import CardTable
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import Preset
from pipeline.sim import SimError
from pipeline.sim.paired import HandPair, PairedTable
from pipeline.sim.run_folder import MANIFEST_DIR, atomic_write
from pipeline.sim.tables import ShardRows, run_tables
from pipeline.sim.whole_match import AbilityOffTable, SharedStart
from pipeline.workers import settle_long_lived


@dataclass(frozen=True)
class ShardTask:
    """One block of consecutive matches and where its files go (small, sent to workers)."""

    out: str
    run_id: str
    index: int
    start: int
    stop: int
    seed: int
    preset: Preset
    bots: tuple[str, ...]
    catalog_path: str = ""      # the catalog file, for card presets (for messages)
    catalog_toml: bytes = b""   # its content when the run started (what the workers load)
    paired: bool = False
    holder: str = ""            # a card trial's card: held by seat ``match % 4`` (trial.py)
    holder_policy: str = ""     # the holder's policy (pipeline/bots/policies.py); "": its bot
    whole: bool = False         # a trial's: each match also played with the ability off
    # ... from the first hand the ability changed (False: from the match's first hand, the
    # same tables, as the shared start is checked and timed against)
    share_start: bool = True
    # a paired task's hands replayed without the ability (False: watched only, for the match
    # without it; no pairs: a trial's blocks past its replayed ones, pipeline/sim/trial.py)
    replay: bool = True

    @property
    def name(self) -> str:
        return shard_name(self.index)

    @property
    def writes_pairs(self) -> bool:
        """Whether the shard has a ``pairs`` table (paired, and its hands replayed)."""
        return self.paired and self.replay

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(run_tables(self.writes_pairs, self.whole))


@dataclass(frozen=True)
class ShardOutput:
    """A played shard as it comes back from a worker: its encoded table files and figures."""

    index: int
    files: dict[str, bytes]      # table -> Parquet file content
    rows: dict[str, int]         # table -> rows in its file
    match_hands: list[int]       # hands of each match, in match order
    seconds: float
    peak_rss_kb: int             # peak resident memory of the process that played the shard
    version: str                 # the pipeline package version that played it


@dataclass(frozen=True)
class ShardResult:
    index: int
    matches: int
    hands: int
    rows: dict[str, int]
    seconds: float
    peak_rss_kb: int  # peak resident memory of the process that played the shard


def shard_name(index: int) -> str:
    return f"part-{index:05d}"


@lru_cache(maxsize=4)
def _catalog(path: str, content: bytes) -> Catalog:
    """The run's catalog, loaded once per worker process from the content the task carries
    (the file itself when it still holds that content, else a private copy of it)."""
    file = Path(path)
    try:
        if file.read_bytes() == content:
            return load_catalog(file)
    except OSError:
        pass  # another machine, or the file is gone: use the copy
    digest = hashlib.sha256(content).hexdigest()[:16]
    copy = Path(tempfile.gettempdir()) / f"saki-catalog-{digest}-{file.name or 'run.toml'}"
    if not copy.is_file() or copy.read_bytes() != content:
        atomic_write(copy, content)
    return load_catalog(copy)


def play_shard(task: ShardTask, report: Callable[[int], None] | None = None) -> ShardOutput:
    """Play the shard's matches and encode its tables as Parquet files (in memory).

    ``report(hands)`` is called after each match. Safe to run in any process or on any machine
    with this package, and to run twice: the files have the same content.
    """
    settle_long_lived()
    began = time.perf_counter()
    rows = ShardRows(task.run_id, red_fives=task.preset.red_fives,
                     paired=task.writes_pairs, whole=task.whole)
    match_hands: list[int] = []
    catalog = _catalog(task.catalog_path, task.catalog_toml) if task.catalog_toml else None
    seats = task.preset.players  # three players use the first three seats' bots (S-01)
    bots = task.bots[:seats]
    for m in range(task.start, task.stop):
        result, pairs, without = play_task_match(task, m, catalog,
                                                 share_start=task.share_start)
        rows.add_match(m, result, bots, pairs=pairs)
        if without is not None:
            rows.add_whole(m, m % seats, task.holder, result, without)
        match_hands.append(len(result.hands))
        if report is not None:
            report(len(result.hands))
    files, counts = {}, {}
    for name, frame in rows.frames().items():
        buf = io.BytesIO()
        frame.write_parquet(buf, compression="zstd", statistics=True)
        files[name], counts[name] = buf.getvalue(), frame.height
    return ShardOutput(index=task.index, files=files, rows=counts, match_hands=match_hands,
                       seconds=time.perf_counter() - began, peak_rss_kb=_peak_rss_kb(),
                       version=pipeline.__version__)


def play_task_match(task: ShardTask, m: int, catalog: Catalog | None, *,
                    share_start: bool = True
                    ) -> tuple[MatchResult, Sequence[HandPair], MatchResult | None]:
    """Match ``m`` of the task: its result, its paired replays, and for a trial's whole-match
    arm the match without the holder's ability (else None). ``share_start``: the match without
    the ability plays on from the first hand the ability changed
    (:class:`~pipeline.sim.whole_match.SharedStart`); False plays it again from its first hand,
    as the shared start is checked against."""
    seats = task.preset.players  # three players use the first three seats' bots (S-01)
    bots = task.bots[:seats]
    agents = [make_agent(kind, derive_seed(task.seed, m, "agent", s))
              for s, kind in enumerate(bots)]
    if task.holder and task.holder_policy:  # the holder plays an alternative policy
        agents[m % seats] = holder_bot(task.holder_policy,
                                       derive_seed(task.seed, m, "agent", m % seats))
    table: CardTable | PairedTable | SharedStart | None = None
    whole = task.whole and bool(task.holder)
    if task.preset.cards.enabled:  # deal teams and picks; abilities act through hooks
        held = (m % seats, task.holder) if task.holder else None
        table = CardTable(task.preset, agents, task.seed, m, catalog, holder=held)
        if task.paired:
            table = PairedTable(table, task.preset,
                                seats=None if held is None else (held[0],),
                                replay=task.replay)
            if whole and share_start:
                table = SharedStart(table, m % seats)
    try:
        result = play_match(task.preset, agents, task.seed, m, table=table)
    except Exception as exc:
        raise RuntimeError(f"match {m} of seed {task.seed} failed: {exc!r}") from exc
    pairs = table.pairs if isinstance(table, PairedTable | SharedStart) else ()
    if not whole:
        return result, pairs, None
    without = None
    if isinstance(table, SharedStart):
        try:
            without = table.without(task.preset, task.seed, m, result)
        except Exception as exc:
            raise RuntimeError(f"match {m} of seed {task.seed} without {task.holder}'s "
                               f"ability failed: {exc!r}") from exc
    if without is None:
        without = _without_ability(task, m, bots, catalog)
    return result, pairs, without


def _without_ability(task: ShardTask, m: int, bots: Sequence[str],
                     catalog: Catalog | None) -> MatchResult:
    """Match ``m`` played again from the same seed with the holder's ability off throughout."""
    agents = [make_agent(kind, derive_seed(task.seed, m, "agent", s))
              for s, kind in enumerate(bots)]
    seat = m % task.preset.players
    table = AbilityOffTable(CardTable(task.preset, agents, task.seed, m, catalog,
                                      holder=(seat, task.holder)), seat)
    try:
        return play_match(task.preset, agents, task.seed, m, table=table)
    except Exception as exc:
        raise RuntimeError(f"match {m} of seed {task.seed} without {task.holder}'s ability "
                           f"failed: {exc!r}") from exc


def write_shard(out: Path, task: ShardTask, output: ShardOutput) -> ShardResult:
    """Write the shard's table files atomically, then its manifest (the commit point)."""
    if output.version != pipeline.__version__:
        raise SimError(f"shard {task.name} was played by version {output.version} of the "
                       f"package and this is {pipeline.__version__}; install the same version "
                       "on every machine of the cluster")
    entries: dict[str, dict[str, Any]] = {}
    for table, data in output.files.items():
        rel = f"{table}/{task.name}.parquet"
        atomic_write(out / rel, data)
        entries[table] = {"file": rel, "rows": output.rows[table], "bytes": len(data),
                          "sha256": hashlib.sha256(data).hexdigest()}
    manifest = {"run_id": task.run_id, "shard": task.index, "matches": [task.start, task.stop],
                "tables": entries}
    atomic_write(out / MANIFEST_DIR / f"{task.name}.json",
                 (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return ShardResult(index=task.index, matches=task.stop - task.start,
                       hands=sum(output.match_hands),
                       rows={table: e["rows"] for table, e in entries.items()},
                       seconds=output.seconds, peak_rss_kb=output.peak_rss_kb)


def read_manifest(out: Path, task: ShardTask) -> dict[str, Any] | None:
    """The shard's manifest when the shard is finished and intact, else None.

    Intact means: the manifest parses, names this run and block, and every table file exists
    with the recorded size and sha256 (a truncated or overwritten file fails the check).
    """
    try:
        manifest = json.loads((out / MANIFEST_DIR / f"{task.name}.json").read_text())
        if (manifest["run_id"] != task.run_id or manifest["shard"] != task.index
                or manifest["matches"] != [task.start, task.stop]
                or set(manifest["tables"]) != set(task.tables)):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return manifest if files_intact(out, manifest) else None


def files_intact(out: Path, manifest: Any) -> bool:
    """Whether every table file a shard's manifest lists exists with its recorded size and
    sha256 (a deleted, truncated or overwritten file fails)."""
    try:
        for entry in manifest["tables"].values():
            path = out / entry["file"]
            if path.stat().st_size != entry["bytes"]:
                return False
            if hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
                return False
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    return True


def _peak_rss_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
