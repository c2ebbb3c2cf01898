"""Worker processes that do not outlive their parent, and settle once warm.

A pool worker whose main process is killed outright (``kill -9``, a closed terminal, an
out-of-memory kill) is re-parented and would otherwise play on for hours, holding cores nobody
asked for. :func:`watch_parent` starts a daemon thread that ends the worker soon after. Every
layer that starts pools (the bots' calibration, the simulator's executor) uses it, so this
module depends on nothing in the package. :func:`settle_long_lived` keeps the garbage
collector from walking, again and again, what a warm process holds for good.
"""

from __future__ import annotations

import gc
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


_pieces_begun = 0  # pieces of play this process has begun (see settle_long_lived)


def settle_long_lived() -> None:
    """Call before each piece of play (a shard): before the second, collect, then freeze
    what is left.

    What a process still holds once it has played a shard lives as long as the process
    (modules, the catalog, the rules' and bots' warm memos: some 50,000 objects). Frozen
    (``gc.freeze``), they are no longer walked every time the collector's oldest generation
    runs: on card trials about a third of the collector's time, some 3% of play. They are
    still freed by reference counting when they go, and the collection just before makes sure
    no garbage is frozen with them. Decisions do not depend on it."""
    global _pieces_begun
    _pieces_begun += 1
    if _pieces_begun == 2:
        gc.collect()
        gc.freeze()
