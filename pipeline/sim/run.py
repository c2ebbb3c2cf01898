"""A simulation run: its configuration, its folder, its shards, and resuming a killed run.

A run folder holds::

    run.json                      what was run and how far it got (see below)
    hands/part-00000.parquet      one file per shard and table; the tables are described in
    matches/part-00000.parquet    pipeline.sim.tables and docs/data-dictionary.md
    events/part-00000.parquet
    picks/part-00000.parquet
    pairs/part-00000.parquet      paired runs only: each character's hands replayed without it
    manifest/part-00000.json      the shard's commit record: rows, bytes and sha256 per file

A shard is a fixed block of consecutive match indices (``shard_size`` matches; the last block
may be shorter). Match ``i`` takes its walls from ``(seed, i)`` and seat ``s`` plays with
``make_agent(bot, derive_seed(seed, i, "agent", s))``, so a shard's files depend only on the
configuration and the block, never on the worker count or on which process played it. A
paired run (``paired``) also plays every hand with a character again without its ability
(:mod:`pipeline.sim.paired`) and writes the ``pairs`` table; its other tables are the same.

Shards are played by an executor (:mod:`pipeline.sim.executor`: local processes or a Dask
cluster) and come back to this process as encoded files, which this process writes: commits and
resuming are the same whatever played the shard.

Nothing is lost and nothing half-written is ever read (architecture decision 6): every file is
written to a temporary name and renamed into place, and a shard's manifest is written last, so a
shard counts as finished only when its manifest exists and every file it lists has the recorded
size and sha256. Starting the same command again skips finished shards, deletes damaged or
unfinished ones and plays them again; the tables end up identical to an uninterrupted run's.
``run.json`` (also replaced atomically) holds the schema version, the run id, the status
(``running`` or ``complete``), the fully resolved preset, the catalog version, content hash and
cards (every card's name, text and effects, so runs can be compared card by card even after the
catalog file was edited), the seed, the number of games, the bots, the shard size, whether the
run is paired, the code version, the row counts and the timings of every session that worked on
the run. A folder holding a run of another configuration, or one written with another table
schema, is refused unless ``force`` is given.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import polars as pl

import pipeline
from pipeline.bots.policies import holder_bot
from pipeline.bots.registry import check_kind, make_agent
from pipeline.cards.catalog import Catalog, load_catalog
from pipeline.cards.registry import playable
from pipeline.cards.table import CardTable, check_deck
from pipeline.datafiles import PROJECT_ROOT, RUNS_DIR, SHIPPED_DATA, plain
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import Preset
from pipeline.sim import SimError, schema_problem
from pipeline.sim.executor import DaskExecutor, LocalExecutor
from pipeline.sim.output_lock import LOCK_FILE, OutputLock
from pipeline.sim.paired import HandPair, PairedTable
from pipeline.sim.tables import PAIRS, SCHEMA_VERSION, TRIAL_TABLES, ShardRows, run_tables
from pipeline.sim.whole_match import AbilityOffTable, SharedStart
from pipeline.workers import settle_long_lived

DEFAULT_SHARD_SIZE = 25
# About 10 million hands, some 35 hours on 2 cores: more than any balance question needs, and a
# plan (one small task per shard) that stays a few megabytes. Bigger samples are several seeds.
MAX_GAMES = 1_000_000
MANIFEST_DIR = "manifest"
RUN_FILE = "run.json"
_OURS = frozenset((RUN_FILE, MANIFEST_DIR, *TRIAL_TABLES))  # the entries a run folder may hold
# What makes two runs the same run: a folder holding another configuration is refused.
_IDENTITY_KEYS = ("schema_version", "preset", "catalog", "seed", "games", "bots", "shard_size",
                  "paired")


def parse_bots(text: str) -> tuple[str, str, str, str]:
    """``"heuristic"`` (all four seats) or four comma-separated kinds, seat 0 first."""
    kinds = tuple(k.strip() for k in text.split(","))
    if len(kinds) == 1:
        kinds = kinds * 4
    if len(kinds) != 4:
        raise SimError(f"--bots takes one bot kind or four (one per seat), got {len(kinds)}: "
                       f"{text!r}")
    for kind in kinds:
        check_kind(kind)
    return kinds  # type: ignore[return-value]


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's tables."""

    preset: Preset
    catalog: Catalog
    seed: int
    games: int
    bots: tuple[str, str, str, str] = ("heuristic",) * 4
    shard_size: int = DEFAULT_SHARD_SIZE
    paired: bool = False  # replay each character's hands without its ability (pairs table)

    def __post_init__(self) -> None:
        if self.games < 1:
            raise SimError(f"games must be at least 1, got {self.games}")
        if self.games > MAX_GAMES:
            raise SimError(f"--games {self.games}: a run holds at most {MAX_GAMES:,} matches "
                           "(about 10 million hands, some 35 hours on 2 cores); for a bigger "
                           "sample play several runs with different --seed values")
        if self.shard_size < 1:
            raise SimError(f"shard size must be at least 1, got {self.shard_size}")
        if len(self.bots) != 4:
            raise SimError(f"four bots are needed (one per seat), got {len(self.bots)}")
        if self.paired and not self.preset.cards.enabled:
            raise SimError(f"--paired measures character abilities, and preset "
                           f"{self.preset.name!r} plays without cards; choose a card preset "
                           "(e.g. cards-hanchan) or drop --paired")

    def identity(self) -> dict[str, Any]:
        """The configuration as plain JSON values; equal identities write equal tables."""
        return json.loads(self._identity_json)

    @cached_property
    def _identity_json(self) -> str:
        return _canonical({
            "schema_version": SCHEMA_VERSION,
            "preset": self.preset.to_dict(),
            "catalog": {"version": self.catalog.version,
                        "content_hash": self.catalog.content_hash()},
            "seed": self.seed,
            "games": self.games,
            "bots": {"seats": list(self.bots),
                     "agent_seed": "derive_seed(seed, match_id, 'agent', seat)"},
            "shard_size": self.shard_size,
            "paired": self.paired,
        })

    @property
    def run_id(self) -> str:
        """Readable and content-addressed: the same configuration always has the same id."""
        digest = hashlib.sha256(self._identity_json.encode()).hexdigest()[:10]
        return f"{self.label}-{digest}"

    @property
    def label(self) -> str:
        paired = "-paired" if self.paired else ""
        return f"{self.preset.name}-{self.catalog.version}-s{self.seed}-n{self.games}{paired}"

    def default_out(self) -> Path:
        return RUNS_DIR / self.label

    def shards(self, out: Path) -> list[ShardTask]:
        """The run's shards in match order."""
        # the catalog travels with the tasks: workers on other machines need no copy of the
        # file, and an edit of the file during the run changes nothing
        content = self.catalog.path.read_bytes() if self.preset.cards.enabled else b""
        return [
            ShardTask(out=str(out), run_id=self.run_id, index=i, start=start,
                      stop=min(start + self.shard_size, self.games), seed=self.seed,
                      preset=self.preset, bots=self.bots,
                      catalog_path=str(self.catalog.path), catalog_toml=content,
                      paired=self.paired)
            for i, start in enumerate(range(0, self.games, self.shard_size))
        ]

    def catalog_cards(self) -> dict[str, dict[str, Any]]:
        """The catalog's content card by card, as stored in ``run.json``."""
        return {
            c.id: {"name": c.name, "school": c.school, "text": c.text,
                   "text_template": c.text_template,
                   "effects": [{"id": e.id, "kind": e.kind,
                                **{k: plain(v) for k, v in e.params.items()}}
                               for e in c.effects],
                   "flags": list(c.flags), "clarifications": list(c.clarifications),
                   "playable": playable(c)}
            for c in self.catalog.cards
        }


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

    @property
    def name(self) -> str:
        return shard_name(self.index)

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(run_tables(self.paired, self.whole))


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


def shard_name(index: int) -> str:
    return f"part-{index:05d}"


# --- playing one shard ----------------------------------------------------------------------


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
    rows = ShardRows(task.run_id, red_fives=task.preset.red_fives, paired=task.paired,
                     whole=task.whole)
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
                                seats=None if held is None else (held[0],))
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


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file next to ``path``, flush it to disk, then rename it over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    try:  # make the rename itself durable
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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


# --- the run --------------------------------------------------------------------------------


def simulate(config: RunConfig, out: Path | None = None, *, workers: int | None = None,
             force: bool = False, progress: Callable[[SimProgress], None] | None = None,
             executor: LocalExecutor | DaskExecutor | None = None) -> RunSummary:
    """Play the run into ``out`` (default :meth:`RunConfig.default_out`), resuming it if the
    folder holds an unfinished run of the same configuration.

    ``executor`` plays the shards (default: a :class:`LocalExecutor` of ``workers``
    processes); whichever it is, this process writes the files. Raises :class:`SimError` when
    ``out`` holds another run or something that is not a run, unless ``force``, which deletes
    the run's files there and starts again.
    """
    out = Path(out) if out is not None else config.default_out()
    if config.preset.cards.enabled:  # a deck too small for the teams fails before any file
        check_deck(config.catalog, config.preset)
    if executor is None:
        executor = LocalExecutor(workers)
    with RunLock(out, force=force):
        return _simulate(config, out, force, progress, executor)


def _simulate(config: RunConfig, out: Path, force: bool,
              progress: Callable[[SimProgress], None] | None,
              executor: LocalExecutor | DaskExecutor) -> RunSummary:
    previous = _prepare(out, config, force)
    tasks = config.shards(out)
    _remove_temp_files(out)
    finished: dict[int, dict[str, Any]] = {}
    for task in tasks:
        manifest = read_manifest(out, task)
        if manifest is not None:
            finished[task.index] = manifest
        else:
            _remove_shard(out, task.name)
    todo = [t for t in tasks if t.index not in finished]

    session: dict[str, Any] = {
        "started": _now(), "finished": None, "executor": executor.name,
        "workers": executor.workers,
        "shards_skipped": len(finished), "shards_run": 0, "hands": 0, "seconds": None,
        "peak_worker_rss_mb": None, "code": code_version(),
    }
    doc = _run_doc(config, previous, session, len(tasks), len(finished))
    _write_run_json(out, doc)

    matches_done = sum(t.stop - t.start for t in tasks if t.index in finished)
    hands = 0
    peak = 0
    began = time.perf_counter()

    def on_match(n: int) -> None:
        nonlocal matches_done, hands
        matches_done += 1
        hands += n
        if progress is not None:
            progress(SimProgress(matches_done, config.games, hands,
                                 time.perf_counter() - began))

    task_of = {t.index: t for t in todo}

    def on_done(output: ShardOutput) -> None:
        nonlocal peak
        result = write_shard(out, task_of[output.index], output)
        peak = max(peak, result.peak_rss_kb)
        session["shards_run"] += 1
        if not executor.live_progress:  # the shard's matches count when it comes back
            for n in output.match_hands:
                on_match(n)

    if progress is not None:
        progress(SimProgress(matches_done, config.games, 0, 0.0))
    executor.run(play_shard, todo, on_match=on_match, on_done=on_done)
    seconds = time.perf_counter() - began

    manifests = [read_manifest(out, t) for t in tasks]
    missing = [t.name for t, m in zip(tasks, manifests, strict=True) if m is None]
    if missing:
        raise SimError(f"{out}: shards {', '.join(missing[:3])} did not finish intact; "
                       "run the same command again")
    rows = {table: sum(m["tables"][table]["rows"] for m in manifests if m)
            for table in run_tables(config.paired)}
    session.update(finished=_now(), hands=hands, seconds=round(seconds, 3),
                   peak_worker_rss_mb=round(peak / 1024, 1) if peak else None)
    doc["status"] = "complete"
    doc["shards"]["done"] = len(tasks)
    doc["rows"] = rows
    hands_total = rows["hands"] // config.preset.players  # the hands table has a row a seat
    doc["timings"] = _timings(doc["sessions"], hands_total)
    _write_run_json(out, doc)
    return RunSummary(
        run_id=config.run_id, out=out, status="complete", matches=config.games,
        shards_total=len(tasks), shards_skipped=len(finished), shards_run=len(todo),
        hands=hands, hands_total=hands_total, seconds=seconds,
        workers=executor.workers, peak_rss_kb=peak, rows=rows,
    )


def read_run(out: Path) -> dict[str, Any]:
    """The run's ``run.json``."""
    path = Path(out) / RUN_FILE
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise SimError(f"{out}: no run here (no {RUN_FILE})") from None
    except (OSError, ValueError) as exc:
        raise SimError(f"{path}: unreadable ({exc})") from None
    if not isinstance(doc, dict):
        raise SimError(f"{path}: damaged (not a JSON object); play the run again with --force")
    problem = schema_problem(doc, path)
    if problem is not None:
        raise SimError(problem)
    return doc


def load_table(out: Path, table: str) -> pl.DataFrame:
    """One table of a run, from its finished and intact shards only, in match order.

    A shard whose manifest is missing (unfinished) is left out; a listed file that no longer
    matches its manifest is an error, never read as data.
    """
    if table not in TRIAL_TABLES:
        raise SimError(f"unknown table {table!r} (known: {', '.join(TRIAL_TABLES)})")
    out = Path(out)
    if table == PAIRS and not read_run(out).get("paired"):
        raise SimError(f"{out}: this run has no {PAIRS} table; it was made without --paired "
                       "(run the simulate command with --paired into another --out)")
    return load_shards(out, table)


def load_shards(out: Path, table: str) -> pl.DataFrame:
    """One table from the finished, intact shards of a folder (a run's, or one card's folder
    of a trial), in shard order; a file that no longer matches its manifest is an error."""
    out = Path(out)
    frames = []
    for path in sorted((out / MANIFEST_DIR).glob("part-*.json")):
        try:
            entry = json.loads(path.read_text())["tables"][table]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        redo = ("run the command that wrote the folder again (saki simulate or saki trial, "
                "with the same options): it plays that shard again")
        try:
            data = (out / entry["file"]).read_bytes()
        except OSError as exc:
            raise SimError(f"{out / entry['file']}: listed in {path.name} but cannot be read "
                           f"({exc.strerror or exc}); {redo}") from None
        if len(data) != entry["bytes"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise SimError(f"{out / entry['file']}: damaged (does not match its manifest); "
                           f"{redo}")
        frames.append(pl.read_parquet(io.BytesIO(data)))
    if not frames:
        return pl.DataFrame(schema=TRIAL_TABLES[table])
    return pl.concat(frames, how="vertical")


@lru_cache(maxsize=1)
def source_hash() -> str:
    """sha256 (16 hex digits) of the code and bot data that decide how matches are played:
    every ``pipeline/**/*.py`` and ``pipeline/**/*.c`` source (the compiled kernel's too: it
    answers as the pure functions, but a change to it should not pass unseen) and
    ``pipeline/data/bots/*``. Unlike the git commit it also sees uncommitted edits, so a run is
    never resumed or reused by code that plays differently."""
    digest = hashlib.sha256()
    package = Path(pipeline.__file__).resolve().parent
    files = (sorted(package.rglob("*.py")) + sorted(package.rglob("*.c"))
             + sorted((SHIPPED_DATA / "bots").glob("*")))
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(package.parent).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def code_version() -> dict[str, str | None]:
    """The package version, the hash of the playing code and, in a git checkout, its commit."""
    commit = None
    try:
        proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=PROJECT_ROOT, text=True,
                              capture_output=True, timeout=5, check=False)
        if proc.returncode == 0:
            commit = proc.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        pass
    return {"version": pipeline.__version__, "source_hash": source_hash(), "git_commit": commit}


# --- folder handling ------------------------------------------------------------------------

class RunLock(OutputLock):
    """One writer per run folder (:class:`~pipeline.sim.output_lock.OutputLock`), which is
    never put into a folder that holds something other than a run (unless ``force``)."""

    def __init__(self, out: Path, *, force: bool = False) -> None:
        super().__init__(out, what="run", option="--out")
        self.force = force

    def __enter__(self) -> RunLock:
        out = self.folder
        if out.exists() and not out.is_dir():
            raise SimError(f"{out} is a file, not a run folder; choose another --out")
        if out.is_dir() and not self.force and not (out / RUN_FILE).is_file():
            _check_no_strangers(out)  # never leave a lock file in someone else's folder
        super().__enter__()
        return self


def _check_no_strangers(out: Path) -> None:
    strangers = sorted(p.name for p in out.iterdir()
                       if p.name not in _OURS and p.name != LOCK_FILE)
    if strangers:
        raise SimError(f"{out} is not empty and holds no {RUN_FILE} (found {strangers[0]!r}); "
                       "choose another --out, or use --force to write the run there")


class StaleRunError(SimError):
    """The output folder holds this configuration's run, played by code that has changed since."""


def reusable_run(config: RunConfig, folders: Sequence[Path]) -> Path | None:
    """The first of ``folders`` that holds this configuration's complete run, played by this
    code: the same preset, catalog content, seed, size, bots and code make the same tables, so
    such a run is used as it is, whatever its folder is called."""
    identity = config.identity()
    for folder in folders:
        try:
            doc = json.loads((Path(folder) / RUN_FILE).read_text())
        except (OSError, ValueError):
            continue
        if (isinstance(doc, dict) and doc.get("status") == "complete"
                and doc.get("schema_version") == SCHEMA_VERSION
                and not _difference(doc, identity)
                and (doc.get("code") or {}).get("source_hash") == source_hash()):
            return Path(folder)
    return None


def run_folders(root: Path) -> list[Path]:
    """The run folders directly under ``root`` (``data/runs``), by name."""
    try:
        return sorted(p for p in Path(root).iterdir() if (p / RUN_FILE).is_file())
    except OSError:
        return []


def played_by_other_code(out: Path) -> bool:
    """Whether ``out`` holds a run whose ``run.json`` names code other than this code."""
    try:
        doc = json.loads((Path(out) / RUN_FILE).read_text())
    except (OSError, ValueError):
        return False
    there = (doc.get("code") or {}).get("source_hash") if isinstance(doc, dict) else None
    return there is not None and there != source_hash()


def _prepare(out: Path, config: RunConfig, force: bool) -> dict[str, Any] | None:
    """Check that ``out`` may hold this run; return its earlier ``run.json``, if any."""
    if out.exists() and not out.is_dir():
        raise SimError(f"{out} is a file, not a run folder; choose another --out")
    if force:
        _clear(out)
    if not out.exists():
        try:
            out.mkdir(parents=True)
        except OSError as exc:
            raise SimError(f"{out}: cannot create the run folder ({exc.strerror or exc}); "
                           "choose another --out") from None
        return None
    run_file = out / RUN_FILE
    if run_file.is_file():
        try:
            previous = json.loads(run_file.read_text())
        except (OSError, ValueError):
            raise SimError(f"{run_file} is unreadable; use --force to start the run again "
                           "or choose another --out") from None
        written = previous.get("schema_version") if isinstance(previous, dict) else None
        if written != SCHEMA_VERSION:
            raise SimError(f"{out} holds a run written with table schema {written} and this "
                           f"version writes schema {SCHEMA_VERSION}; its tables stay readable "
                           "but it cannot be resumed: choose another --out, or use --force to "
                           "play it again")
        difference = _difference(previous, config.identity())
        if difference:
            raise SimError(f"{out} holds a different run ({difference}); choose another --out, "
                           "or use --force to replace it")
        if played_by_other_code(out):
            there = (previous.get("code") or {}).get("source_hash")
            raise StaleRunError(
                f"{out} holds a run played by another version of the lab's code (code "
                f"{there} there, {source_hash()} here); resuming or reusing it would mix two "
                "versions: use --force to play it again, or choose another --out")
        return previous
    _check_no_strangers(out)
    return None


def _difference(previous: dict[str, Any], identity: dict[str, Any]) -> str:
    """The first configuration value that differs, in words; "" when none does."""
    mine = identity
    for key in _IDENTITY_KEYS:
        there, here = previous.get(key), mine[key]
        if there == here or (isinstance(there, dict) and isinstance(here, dict)
                             and all(there.get(k) == v for k, v in here.items())):
            continue
        if isinstance(there, dict) and isinstance(here, dict):
            for sub in sorted(here):  # run.json may hold more (the catalog's cards)
                if there.get(sub) != here.get(sub):
                    return (f"{key} {sub}: {_short(there.get(sub))} there, "
                            f"{_short(here.get(sub))} here")
        return f"{key}: {_short(there)} there, {_short(here)} here"
    return ""


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _clear(out: Path) -> None:
    if not out.is_dir():
        return
    for name in _OURS:
        path = out / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for path in out.glob(f".{RUN_FILE}.*.tmp"):
        path.unlink(missing_ok=True)


def _remove_temp_files(out: Path) -> None:
    """Temporary files a killed session left behind."""
    for folder in (out, out / MANIFEST_DIR, *(out / t for t in TRIAL_TABLES)):
        if folder.is_dir():
            for path in folder.glob(".*.tmp"):
                path.unlink(missing_ok=True)


def _remove_shard(out: Path, name: str) -> None:
    """Delete an unfinished or damaged shard: its manifest first, then its table files."""
    (out / MANIFEST_DIR / f"{name}.json").unlink(missing_ok=True)
    for table in TRIAL_TABLES:
        (out / table / f"{name}.parquet").unlink(missing_ok=True)


def _run_doc(config: RunConfig, previous: dict[str, Any] | None, session: dict[str, Any],
             total: int, done: int) -> dict[str, Any]:
    identity = config.identity()
    sessions = list(previous.get("sessions", [])) if previous else []
    sessions.append(session)
    return {
        "schema_version": identity["schema_version"],
        "run_id": config.run_id,
        "status": "running",
        "preset": identity["preset"],
        "catalog": {**identity["catalog"], "cards": config.catalog_cards()},
        "seed": config.seed,
        "games": config.games,
        "bots": identity["bots"],
        "shard_size": config.shard_size,
        "paired": config.paired,
        "code": session["code"],
        "tables": {t: f"{t}/part-*.parquet" for t in run_tables(config.paired)},
        "shards": {"total": total, "done": done},
        "rows": None,
        "timings": _timings(sessions, None),
        "sessions": sessions,
    }


def _timings(sessions: Sequence[dict[str, Any]], hands: int | None) -> dict[str, Any]:
    seconds = sum(s["seconds"] or 0 for s in sessions)
    return {
        "created": sessions[0]["started"] if sessions else None,
        "finished": sessions[-1]["finished"] if sessions else None,
        "play_seconds": round(seconds, 3),
        "hands_per_second": round(hands / seconds, 2) if hands and seconds else None,
    }


def _write_run_json(out: Path, doc: dict[str, Any]) -> None:
    atomic_write(out / RUN_FILE, (json.dumps(doc, indent=2) + "\n").encode())


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _peak_rss_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


# --- progress ---------------------------------------------------------------------------------


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
