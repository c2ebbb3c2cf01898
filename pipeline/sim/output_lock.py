"""One writer per output folder, for every command that writes one.

A run, a trial, a tuning sweep and a report site are each written by one process at a time: an
exclusive ``flock`` on ``<folder>/.saki-lock``, taken before anything in the folder is read for
writing or deleted (so ``--force`` never breaks a running writer) and held until the command
is done with the folder. The operating system drops it when the process ends, however it ends,
so a killed command never leaves a stale lock; the file holds the writer's pid for the message
the second writer gets. Worker processes are started with ``spawn`` and do not inherit it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pipeline.sim import SimError

LOCK_FILE = ".saki-lock"


class OutputLock:
    """The lock of one output folder (created, with its parents, when missing).

    ``what`` names the folder's kind in the refusal ("run", "trial", "sweep", "site") and
    ``option`` the option that chooses another folder."""

    def __init__(self, folder: Path, *, what: str = "run", option: str = "--out") -> None:
        self.folder = Path(folder)
        self.what = what
        self.option = option
        self._fh: Any = None

    def __enter__(self) -> OutputLock:
        import fcntl

        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise SimError(f"{folder} is a file, not a {self.what} folder; choose another "
                           f"{self.option}")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fh = open(folder / LOCK_FILE, "a+")  # held for the whole command
        except OSError as exc:
            raise SimError(f"{folder}: cannot write the {self.what} folder "
                           f"({exc.strerror or exc}); choose another {self.option}") from None
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.seek(0)
            holder = fh.read().strip() or "unknown"
            fh.close()
            raise SimError(f"{folder}: another saki process (pid {holder}) is writing this "
                           f"{self.what} now; wait for it to finish (or stop it), then run the "
                           f"same command again, or choose another {self.option}") from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        self._fh = fh
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            self._fh.close()  # closing releases the lock
            self._fh = None


__all__ = ["LOCK_FILE", "OutputLock"]
