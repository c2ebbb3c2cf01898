"""Opening a finished run for analysis: its ``run.json`` and DuckDB views of its tables.

Metrics are only as good as the rows under them, so a run is opened only when it is complete
and intact: ``run.json`` says ``complete``, every shard has its manifest, and every file a
manifest lists has the recorded size and sha256 (the same commit rule as
:func:`pipeline.sim.run.load_table`). The views read exactly the files the manifests list, never
a glob, so a stray or half-written file in the folder cannot leak into a figure.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl

from pipeline.sim import SimError, schema_problem

# The run folder layout (docs/data-dictionary.md); kept here so that reading a run does not
# load the simulator and the engine.
RUN_FILE = "run.json"
MANIFEST_DIR = "manifest"
REQUIRED_TABLES = ("hands", "matches", "events", "picks")


def shard_name(index: int) -> str:
    return f"part-{index:05d}"


class AnalyticsError(SimError):
    """A run that cannot be analysed as asked; the message is one line saying what to do."""


@dataclass
class RunData:
    """A complete run opened for analysis.

    ``con`` holds one view per table (``hands``, ``matches``, ``events``, ``picks``, and
    ``pairs`` when the run has it) over the run's finished shards.
    """

    path: Path
    meta: dict[str, Any]
    con: duckdb.DuckDBPyConnection
    files: dict[str, list[Path]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The run id (the folder name when run.json holds none)."""
        return str(self.meta.get("run_id") or self.path.name)

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(self.files)

    def has(self, table: str) -> bool:
        """Whether the run holds this table (``pairs`` exists only in paired runs)."""
        return table in self.files

    @property
    def preset_name(self) -> str:
        preset = self.meta.get("preset")
        return str(preset.get("name", "?")) if isinstance(preset, dict) else "?"

    def sql(self, query: str, params: list[Any] | None = None) -> pl.DataFrame:
        """Run a query on the run's views and return it as a polars DataFrame."""
        return to_polars(self.con.sql(query, params=params))

    def sql_grouped(self, query: str) -> pl.DataFrame:
        """Like :meth:`sql` for a query with a text column ``group`` and many rows: the rows
        cross over as numbers and the group names are filled in by Polars (moving millions
        of strings one by one out of DuckDB costs more than the query itself)."""
        self.con.execute(f"CREATE OR REPLACE TEMP TABLE _q AS {query}")
        self.con.execute(
            'CREATE OR REPLACE TEMP TABLE _g AS SELECT "group", CAST(row_number() OVER '
            '(ORDER BY "group") - 1 AS INTEGER) AS _gid FROM (SELECT DISTINCT "group" FROM _q)')
        names = [r[0] for r in self.con.execute('SELECT "group" FROM _g ORDER BY _gid')
                 .fetchall()]
        frame = to_polars(self.con.sql(
            'SELECT _g._gid, _q.* EXCLUDE ("group") FROM _q JOIN _g USING ("group")'))
        self.con.execute("DROP TABLE _q; DROP TABLE _g")
        if frame.is_empty():
            return frame.drop("_gid").with_columns(pl.lit(None, pl.String).alias("group"))
        group = pl.Series("group", names, dtype=pl.String).gather(frame["_gid"])
        return frame.drop("_gid").insert_column(0, group)

    def close(self) -> None:
        self.con.close()


def open_run(path: str | Path, *, verify: bool = True) -> RunData:
    """Open the complete run in ``path`` (a run folder).

    Raises :class:`AnalyticsError` (one line) when the folder does not exist, holds no
    ``run.json``, the run is not complete, a shard has no manifest, or a file no longer matches
    its manifest. ``verify=False`` skips the sha256 of every file (sizes are still checked).
    """
    path = Path(path)
    if not path.is_dir():
        raise AnalyticsError(f"{path}: no such run folder (give the folder saki simulate wrote, "
                             "e.g. data/runs/<name>)")
    meta = _read_meta(path)
    label = meta.get("run_id") or path.name
    status = meta.get("status")
    shards = meta.get("shards") or {}
    if status != "complete":
        done, total = shards.get("done", "?"), shards.get("total", "?")
        raise AnalyticsError(f"{path}: run {label} is not complete (status {status!r}, "
                             f"{done} of {total} shards done); run the same saki simulate "
                             "command again to finish it")
    total = shards.get("total")
    if not isinstance(total, int) or total < 1:
        raise AnalyticsError(f"{path / RUN_FILE}: damaged (no shard count under 'shards'); "
                             "run the simulate command again with --force")
    files: dict[str, list[Path]] = {}
    for index in range(total):
        manifest = _read_manifest(path, index, str(label))
        for table, entry in manifest["tables"].items():
            files.setdefault(table, []).append(_checked_file(path, entry, verify))
    for table in REQUIRED_TABLES:
        if table not in files:
            raise AnalyticsError(f"{path}: damaged (the manifests list no {table!r} table); "
                                 "run the simulate command again with --force")
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")  # library calls print nothing
    # One thread: a parallel aggregate adds its partial float sums in whatever order the
    # threads finish, so the same run could print figures that differ in the last bits; with
    # one the sums run in file order and every table and JSON output is bit-reproducible.
    con.execute("SET threads = 1")
    for table, paths in files.items():
        listing = ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths)
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{listing}])")
    return RunData(path=path, meta=meta, con=con, files=files)


def to_polars(rel: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """A DuckDB result as a polars DataFrame, through NumPy (no pyarrow needed); SQL NULLs
    become nulls."""
    columns = []
    text = {n for n, t in zip(rel.columns, rel.types, strict=True) if str(t) == "VARCHAR"}
    for name, arr in rel.fetchnumpy().items():
        dtype = pl.String if name in text else None
        if isinstance(arr, np.ma.MaskedArray):
            mask = np.ma.getmaskarray(arr)
            values = arr.data
            if values.dtype == object:
                values = np.where(mask, None, values)
                columns.append(pl.Series(name, values.tolist(), dtype=dtype))
                continue
            series = pl.Series(name, values)
            if mask.any():
                series = pl.select(pl.when(pl.Series(mask)).then(None)
                                   .otherwise(series).alias(name)).to_series()
            columns.append(series)
        elif arr.dtype == object:
            columns.append(pl.Series(name, arr.tolist(), dtype=dtype))
        else:
            columns.append(pl.Series(name, arr))
    return pl.DataFrame(columns)


def _read_meta(path: Path) -> dict[str, Any]:
    run_file = path / RUN_FILE
    if not run_file.is_file():
        raise AnalyticsError(f"{path}: not a run folder (no {RUN_FILE}); give the folder "
                             "saki simulate wrote, e.g. data/runs/<name>")
    try:
        meta = json.loads(run_file.read_text())
    except (OSError, ValueError) as exc:
        raise AnalyticsError(f"{run_file}: unreadable ({exc}); run the simulate command "
                             "again with --force") from None
    if not isinstance(meta, dict):
        raise AnalyticsError(f"{run_file}: damaged (not a JSON object); run the simulate "
                             "command again with --force")
    problem = schema_problem(meta, run_file)
    if problem is not None:
        raise AnalyticsError(problem)
    return meta


def _read_manifest(path: Path, index: int, label: str) -> dict[str, Any]:
    name = shard_name(index)
    file = path / MANIFEST_DIR / f"{name}.json"
    try:
        manifest = json.loads(file.read_text())
        ok = (manifest.get("run_id") == label and manifest.get("shard") == index
              and isinstance(manifest.get("tables"), dict))
    except (OSError, ValueError, AttributeError):
        ok = False
    if not ok:
        raise AnalyticsError(f"{path}: damaged (shard {name} has no valid manifest); run the "
                             "same saki simulate command again to redo it")
    return manifest


def _checked_file(path: Path, entry: dict[str, Any], verify: bool) -> Path:
    try:
        file = path / entry["file"]
        size, digest = int(entry["bytes"]), str(entry["sha256"])
    except (KeyError, TypeError, ValueError):
        raise AnalyticsError(f"{path}: damaged (a manifest entry lacks file, bytes or "
                             "sha256); run the simulate command again with --force") from None
    try:
        actual = file.stat().st_size
    except OSError:
        actual = -1
    if actual != size or (verify and _sha256(file) != digest):
        raise AnalyticsError(f"{file}: damaged (does not match its manifest); run the same "
                             "saki simulate command again to redo it")
    return file


def _sha256(file: Path) -> str:
    h = hashlib.sha256()
    with open(file, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


__all__ = ["AnalyticsError", "RunData", "open_run", "to_polars"]
