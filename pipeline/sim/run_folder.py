"""A run folder's lifecycle: checking that a folder may hold a run (or resuming the one it
holds), ``run.json`` written and read, one writer at a time (:class:`RunLock`), killed sessions'
leftovers cleared, tables read back from intact shards only, and the code hash that keeps a run
from being resumed or reused by code that plays differently. The layout is described in
:mod:`pipeline.sim.run`; every file is written atomically (:func:`atomic_write`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

import pipeline
from pipeline.datafiles import PROJECT_ROOT, SHIPPED_DATA
from pipeline.sim import SimError, schema_problem
from pipeline.sim.output_lock import LOCK_FILE, OutputLock
from pipeline.sim.tables import PAIRS, SCHEMA_VERSION, TRIAL_TABLES, run_tables

if TYPE_CHECKING:
    from pipeline.sim.run import RunConfig


MANIFEST_DIR = "manifest"
RUN_FILE = "run.json"
_OURS = frozenset((RUN_FILE, MANIFEST_DIR, *TRIAL_TABLES))  # the entries a run folder may hold
# What makes two runs the same run: a folder holding another configuration is refused.
_IDENTITY_KEYS = ("schema_version", "preset", "catalog", "seed", "games", "bots", "shard_size",
                  "paired")


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
    return _load(out, table, sorted((out / MANIFEST_DIR).glob("part-*.json")))


def load_blocks(out: Path, table: str, indices: Iterable[int]) -> pl.DataFrame:
    """One table from the shards ``indices`` of a folder (those finished and holding it), in
    that order: what a trial's round adds, read once instead of the whole folder again."""
    out = Path(out)
    return _load(out, table, [out / MANIFEST_DIR / f"part-{i:05d}.json" for i in indices])


def _load(out: Path, table: str, manifests: Sequence[Path]) -> pl.DataFrame:
    frames = []
    for path in manifests:
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
