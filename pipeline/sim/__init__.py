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


class SimError(ValueError):
    """A run that cannot start or continue as asked; the message is one line saying why."""
