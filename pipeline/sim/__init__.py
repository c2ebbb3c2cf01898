"""Batch simulation: many seeded matches written as Parquet tables in a run folder.

- :mod:`pipeline.sim.run`: the run (configuration, folder layout, ``run.json``, shards, resume)
  and :func:`~pipeline.sim.run.simulate`, the entry point;
- :mod:`pipeline.sim.tables`: table rows from finished matches and the Parquet schemas;
- :mod:`pipeline.sim.paired`: the paired measurement (each character's hands replayed without
  its ability);
- :mod:`pipeline.sim.trial`: card trials (one seat holds a card and plays it every hand, each
  hand replayed without the ability; sample sizes in rounds);
- :mod:`pipeline.sim.executor`: where shards are played (this process, a local process pool or a
  Dask cluster).

This package module stays light (no Polars import), so the command line can name
:class:`SimError` without loading the simulator.
"""

from __future__ import annotations

from pipeline.errors import LabError


class SimError(LabError):
    """A run that cannot start or continue as asked; the message is one line saying why."""


# The table schemas a run folder may have been written with and this code can read
# (pipeline.sim.tables.SCHEMA_VERSION is the newest; tests keep the two in step).
READABLE_SCHEMAS = (1, 2, 3, 4)


def schema_problem(meta: dict[str, object], run_file: object) -> str | None:
    """Why a run's ``run.json`` cannot be read by this code (a schema version it does not
    know), as a one-line message with what to do; None when it can be read."""
    version = meta.get("schema_version")
    if version in READABLE_SCHEMAS and not isinstance(version, bool):
        return None
    newest = READABLE_SCHEMAS[-1]
    if isinstance(version, int) and not isinstance(version, bool) and version > newest:
        return (f"{run_file}: written with table schema {version}, newer than this version of "
                f"the lab reads (up to {newest}); update the lab (pull and reinstall) to read "
                "this run")
    return (f"{run_file}: unknown table schema version {version!r} (this lab reads "
            f"{', '.join(map(str, READABLE_SCHEMAS))}); the file is damaged or not written by "
            "saki simulate: play the run again with --force")
