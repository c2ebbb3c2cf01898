"""Worker processes that do not outlive their parent.

A pool worker whose main process is killed outright (``kill -9``, a closed terminal, an
out-of-memory kill) is re-parented and would otherwise play on for hours, holding cores nobody
asked for. :func:`watch_parent` starts a daemon thread that ends the worker soon after. Every
layer that starts pools (the bots' calibration, the simulator's executor) uses it, so this
module depends on nothing in the package.
"""

from __future__ import annotations

import os
import threading
import time

PARENT_CHECK_SECONDS = 1.0  # how often a worker checks that the process that started it lives


def watch_parent(parent: int, interval: float = PARENT_CHECK_SECONDS) -> None:
    """End this process within ``interval`` seconds of ``parent`` dying (a re-parented
    process has another parent pid)."""

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="saki-parent-watch", daemon=True).start()
