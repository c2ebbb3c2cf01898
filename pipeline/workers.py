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
# Allocations between two collections of the youngest generation once play begins (the
# interpreter's default is 700; see settle_long_lived).
YOUNG_COLLECTION_EVERY = 20_000


def settle_long_lived() -> None:
    """Call before each piece of play (a shard): before the first, collect the youngest
    generation less often; before the second, collect, then freeze what is left.

    Play makes and drops objects by the thousand at every decision (observations, actions,
    views), nearly all freed by reference counting within the decision; at the default
    threshold the collector walks the young ones every 700 allocations, and those it finds
    alive (the hand's state) climb into the older generations, which are then walked more
    often too. Collected every 20,000 allocations, card play runs some 7% faster (its
    measured share: benchmarks/bench_bots.py, median of alternating runs), and at most that
    many young objects wait for the collector (a few MiB).

    What a process still holds once it has played a shard lives as long as the process
    (modules, the catalog, the rules' and bots' warm memos: some 50,000 objects). Frozen
    (``gc.freeze``), they are no longer walked every time the collector's oldest generation
    runs: on card trials about a third of the collector's time, some 3% of play. They are
    still freed by reference counting when they go, and the collection just before makes sure
    no garbage is frozen with them. Decisions do not depend on it."""
    global _pieces_begun
    _pieces_begun += 1
    if _pieces_begun == 1:
        young, middle, old = gc.get_threshold()
        if young:  # 0: the collector's automatic runs were turned off; left so
            gc.set_threshold(max(young, YOUNG_COLLECTION_EVERY), middle, old)
    elif _pieces_begun == 2:
        gc.collect()
        gc.freeze()
