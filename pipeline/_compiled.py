"""The engine, card and bot modules that the install also compiles (with Cython, from these
same ``.py`` files), and the import hook that decides, module by module, which form is used.

A compiled module (``hand.cpython-311-x86_64-linux-gnu.so`` beside ``hand.py``) is several
times faster than its source and decides exactly as it does (``tests/project/test_compiled.py``).
It is used only when it was built from the source that is there now: the build compiles the source's
hash in, and a module whose ``.py`` (or ``.pxd``) changed since is imported from its ``.py``
instead, with one warning naming it, so an edit in an editable install is never hidden by an
old build. ``SAKI_PURE_PYTHON=1`` imports every module from its ``.py`` (and turns the bots' C
kernel off, see :mod:`pipeline.bots.shanten`).

Each module declares its types in its ``.py`` (Cython's pure-Python mode; ``setup.py`` writes
the ``.pxd`` from it: :mod:`pipeline._pxd`, docs/architecture.md). This file imports nothing
from the lab: ``setup.py`` reads :data:`COMPILED` and calls :func:`source_hash` from it before
the package exists.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from importlib.abc import MetaPathFinder
from importlib.machinery import ExtensionFileLoader, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path

PURE_ENV = "SAKI_PURE_PYTHON"  # set (to anything but "" or "0") to use the pure modules
STAMP_SYMBOL = "saki_source_hash"  # the C symbol holding the hash a module was built from

# the hot paths of play: the engine, the bots, and of the card layer only the three modules
# whose compiled form pays. Measured side by side against every card module compiled
# (benchmarks/bench_against.py, cards-hanchan, 4 rounds of 25 warm matches, digests identical):
# the whole card layer pure ran at 0.92x; with the abilities and the table compiled 0.93x;
# with the effects' contexts (effects/base.py, made for every effect at every draw and
# discard) compiled 0.97-0.99x; with all three 1.02x, within the noise of 2-3%. The other 28
# card modules (the effects, the catalog, the registries) stay plain Python.
COMPILED: tuple[str, ...] = (
    "pipeline.tiles",
    "pipeline.rules.actions",
    "pipeline.rules.agari",
    "pipeline.rules.agents",
    "pipeline.rules.frozen",
    "pipeline.rules.hand",
    "pipeline.rules.hand_table",
    "pipeline.rules.hand_end",
    "pipeline.rules.hand_controls",
    "pipeline.rules.legal_actions",
    "pipeline.rules.claims",
    "pipeline.rules.hand_shapes",
    "pipeline.rules.hook_points",
    "pipeline.rules.hooks",
    "pipeline.rules.match",
    "pipeline.rules.records",
    "pipeline.rules.scoring",
    "pipeline.rules.scoring_shapes",
    "pipeline.rules.seats",
    "pipeline.rules.settlement",
    "pipeline.rules.shapeless",
    "pipeline.rules.wall",
    "pipeline.bots.danger",
    "pipeline.bots.evaluate",
    "pipeline.bots.greedy",
    "pipeline.bots.heuristic",
    "pipeline.bots.pick",
    "pipeline.bots.shanten",
    "pipeline.bots.shaped",
    "pipeline.cards.abilities",
    "pipeline.cards.table",
    "pipeline.cards.effects.base",
)


def pure_python() -> bool:
    """Whether ``SAKI_PURE_PYTHON`` asks for the pure-Python modules."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_hash(source: Path) -> str:
    """The hash a compiled module carries: of its ``.py`` (which declares its extension types,
    their fields and ``cpdef`` functions: the ``.pxd`` written from it at build time,
    :mod:`pipeline._pxd`, follows from it) and of the hand-written ``.pxd`` beside it (cimports
    and ``cpdef`` methods only), if there is one."""
    digest = hashlib.sha256(source.read_bytes())
    declarations = source.with_suffix(".pxd")
    if declarations.exists():
        digest.update(declarations.read_bytes())
    return digest.hexdigest()[:16]


def built_hash(library: str) -> str | None:
    """The source hash compiled into an extension module, read without running its code (None
    when it has none, not built by this project's setup.py, or cannot be loaded at all)."""
    import ctypes

    try:
        stamp = ctypes.c_char_p.in_dll(ctypes.CDLL(library), STAMP_SYMBOL).value
    except (OSError, ValueError):
        return None
    return stamp.decode() if stamp else None


class CompiledFinder(MetaPathFinder):
    """Finds the modules of :data:`COMPILED`: the compiled form when it is there, current and
    wanted, else the ``.py``. What it decided is kept in :attr:`chosen` (name: "compiled",
    "pure", or "stale" for a build older than its source). A build of a lab module no longer
    listed (one left in an editable install) is never used either: "unlisted"."""

    def __init__(self) -> None:
        self.chosen: dict[str, str] = {}
        self._warned = False

    def find_spec(self, name: str, path: object = None, target: object = None
                  ) -> ModuleSpec | None:
        if name not in _NAMES and not name.startswith("pipeline."):
            return None
        spec = PathFinder.find_spec(name, path, target)  # type: ignore[arg-type]
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or not spec.origin:
            return spec
        source = Path(spec.origin).parent / (name.rpartition(".")[2] + ".py")
        if name not in _NAMES:  # a C kernel, or a build left from when the module was listed
            if not source.exists():
                return spec
            self.chosen[name] = "unlisted"
            return spec_from_file_location(name, source)
        if not source.exists():  # shipped compiled only: nothing else to use
            self.chosen[name] = "compiled"
            return spec
        if pure_python():
            self.chosen[name] = "pure"
        elif built_hash(spec.origin) != source_hash(source):
            self.chosen[name] = "stale"
            if not self._warned:
                self._warned = True
                warnings.warn(f"{source} changed since it was compiled (or its build cannot "
                              "be loaded), so it, and any other module like it, runs from its "
                              ".py, slower; rebuild with `python -m pip install -e .`",
                              RuntimeWarning, stacklevel=2)
        else:
            self.chosen[name] = "compiled"
            return spec
        return spec_from_file_location(name, source)


_NAMES = frozenset(COMPILED)
FINDER = CompiledFinder()


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if FINDER not in sys.meta_path:
        sys.meta_path.insert(0, FINDER)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` imported so far in their compiled form."""
    return sorted(name for name, how in FINDER.chosen.items() if how == "compiled")


def describe() -> str:
    """Which form of the modules of :data:`COMPILED` is in use (importing them all)."""
    import importlib

    for name in COMPILED:
        importlib.import_module(name)
    used = len(compiled_modules())
    if used == len(COMPILED):
        return f"compiled (all {used})"
    why = (f"{PURE_ENV} set" if pure_python() else
           "not built, or older than their source" if not used else "the rest not built, "
           "or older than their source")
    return f"{used} of {len(COMPILED)} compiled ({why})"
