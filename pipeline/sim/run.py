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
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from pipeline.bots.registry import check_kind
from pipeline.cards.catalog import Catalog
from pipeline.cards.registry import playable
from pipeline.cards.table import check_deck
from pipeline.datafiles import RUNS_DIR, plain
from pipeline.rules.preset import Preset
from pipeline.sim import SimError
from pipeline.sim.executor import DaskExecutor, LocalExecutor

# The run's parts by job: the progress it reports (progress.py), its folder (run_folder.py) and
# its shards (shard.py). Their names are read from here by the rest of the lab, as before the
# run was cut by job (``__all__`` below; a private one as ``name as name``).
from pipeline.sim.progress import PROGRESS_SECONDS, ProgressBar, RunSummary, SimProgress
from pipeline.sim.run_folder import (
    MANIFEST_DIR,
    RUN_FILE,
    RunLock,
    StaleRunError,
    _canonical,
    _now,
    _prepare,
    _remove_shard,
    _remove_temp_files,
    _run_doc,
    _timings,
    _write_run_json,
    atomic_write,
    code_version,
    load_shards,
    load_table,
    played_by_other_code,
    read_run,
    reusable_run,
    run_folders,
    source_hash,
)
from pipeline.sim.shard import (
    ShardOutput,
    ShardResult,
    ShardTask,
    files_intact,
    play_shard,
    read_manifest,
    shard_name,
    write_shard,
)
from pipeline.sim.shard import _catalog as _catalog
from pipeline.sim.shard import _peak_rss_kb as _peak_rss_kb
from pipeline.sim.shard import _without_ability as _without_ability
from pipeline.sim.tables import SCHEMA_VERSION, run_tables

DEFAULT_SHARD_SIZE = 25
# About 10 million hands, some 35 hours on 2 cores: more than any balance question needs, and a
# plan (one small task per shard) that stays a few megabytes. Bigger samples are several seeds.
MAX_GAMES = 1_000_000


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


__all__ = [
    "DEFAULT_SHARD_SIZE", "MANIFEST_DIR", "MAX_GAMES", "PROGRESS_SECONDS", "RUNS_DIR", "RUN_FILE",
    "ProgressBar", "RunConfig", "RunLock", "RunSummary", "ShardOutput", "ShardResult",
    "ShardTask", "SimProgress", "StaleRunError", "atomic_write", "code_version", "files_intact",
    "load_shards", "load_table", "parse_bots", "play_shard", "played_by_other_code",
    "read_manifest", "read_run", "reusable_run", "run_folders", "shard_name", "simulate",
    "source_hash", "write_shard",
]
