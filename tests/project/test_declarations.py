"""The compiled modules' declarations come from their .py (pipeline/_pxd.py): a class's fields are
declared once, in its ``__slots__``; no tracked ``.pxd`` repeats them; the ``.py`` files run
without Cython installed."""

from __future__ import annotations

import json
import re
import runpy
from pathlib import Path

import pytest

from pipeline import _compiled
from pipeline.datafiles import PROJECT_ROOT
from tests.support.python_run import run

PXD = runpy.run_path(str(PROJECT_ROOT / "pipeline" / "_pxd.py"))
declarations, DeclarationError = PXD["declarations"], PXD["DeclarationError"]

SOURCE = '''
from __future__ import annotations

import cython

from pipeline.rules.actions import Action
from pipeline.rules.frozen import FrozenFields

_FIELDS = ("tile", "seat")


@cython.cclass
class Seen(FrozenFields):
    __slots__ = (*_FIELDS, "actions", "__dict__")
    actions: list[Action]
    seat: int | None
    tile: Action  # an extension type in an annotation: documentation, the field takes any value

    @cython.ccall
    @cython.locals(first=Action, n=cython.int, best=cython.double)
    @cython.returns(cython.bint)
    def has(self, first, n, order=None):
        return True

    def plain(self):
        return None


@cython.ccall
@cython.returns(list)
def counts(tiles):
    return []
'''


def write(tmp_path: Path, text: str, pxd: str | None = None) -> Path:
    source = tmp_path / "seen.py"
    source.write_text(text)
    if pxd is not None:
        source.with_suffix(".pxd").write_text(pxd)
    return source


KNOWN = {"pipeline.rules.actions": {"Action", "Meld"}, "pipeline.rules.frozen": {"FrozenFields"}}


def test_the_declarations_are_the_classes_slots_and_decorated_signatures(tmp_path: Path) -> None:
    text = declarations("pipeline.seen", write(tmp_path, SOURCE), KNOWN)
    body = [line for line in text.splitlines()[1:] if line]
    assert body == [
        "cimport cython",
        "from pipeline.rules.actions cimport Action",
        "from pipeline.rules.frozen cimport FrozenFields",
        "cdef class Seen(FrozenFields):",
        "    cdef public object tile",
        "    cdef public object seat",
        "    cdef public list actions",
        "    cdef dict __dict__",
        "    @cython.locals(best=cython.double)",
        "    cpdef bint has(self, Action first, int n, object order=*)",
        "cpdef list counts(object tiles)",
    ]


def test_a_module_without_extension_types_has_no_declarations(tmp_path: Path) -> None:
    assert declarations("pipeline.seen", write(tmp_path, "def f():\n    pass\n"), KNOWN) is None


@pytest.mark.parametrize(("text", "pxd", "says"), [
    (SOURCE.replace('    __slots__ = (*_FIELDS, "actions", "__dict__")\n', ""), None,
     "Seen is a @cython.cclass without __slots__"),
    (SOURCE.replace("(*_FIELDS,", "(*OTHER,"), None, "Seen.__slots__: write it as a tuple"),
    (SOURCE.replace("def has(self, first, n, order=None)", "def has(self, first, *, n)"), None,
     "has: a @cython.ccall function takes plain positional-or-keyword arguments"),
    (SOURCE.replace("class Seen(FrozenFields)", "class Seen(dict)"), None,
     "its base dict is no extension type"),
    (SOURCE, "cdef class Seen:\n    pass\n", "delete the hand-written one"),
])
def test_declarations_that_cannot_be_written_say_what_to_fix(tmp_path: Path, text: str,
                                                              pxd: str | None, says: str) -> None:
    with pytest.raises(DeclarationError, match=re.escape(says)):
        declarations("pipeline.seen", write(tmp_path, text, pxd), KNOWN)


def test_no_tracked_declarations_file_repeats_a_field() -> None:
    """A hand-written ``.pxd`` holds cimports and ``cpdef`` methods; fields (``cdef`` attribute
    lines in a class) are the ``.py``'s alone."""
    written = sorted((PROJECT_ROOT / "pipeline").rglob("*.pxd"))
    assert written, "the hand-written declarations of the hand's chain are expected"
    field = re.compile(r"^\s+cdef\s+(public\s+|readonly\s+)?[\w.]+\s+\w+\s*(,|$)", re.MULTILINE)
    assert {p.name: field.findall(p.read_text()) for p in written} == {p.name: [] for p in written}


def test_every_compiled_modules_declarations_are_written_from_its_source(tmp_path: Path) -> None:
    """What setup.py gives Cython: the nine modules whose classes hold fields, each extension
    type's fields exactly its slots."""
    written = PXD["write_all"](_compiled.COMPILED, PROJECT_ROOT, tmp_path)
    names = {str(p.relative_to(tmp_path).with_suffix("")).replace("/", ".") for p in written}
    assert names == {"pipeline.rules.seats", "pipeline.rules.hooks", "pipeline.rules.hook_points",
                     "pipeline.rules.actions", "pipeline.rules.records", "pipeline.rules.agents",
                     "pipeline.rules.wall", "pipeline.bots.heuristic",
                     "pipeline.cards.effects.base"}
    hooks = (tmp_path / "pipeline" / "rules" / "hook_points.pxd").read_text()
    assert "cdef class HookPoints:\n    cdef dict __dict__\n" in hooks
    assert "    cdef public list players\n" in hooks and "    cdef public set revealed\n" in hooks
    from pipeline.rules.hook_points import HookPoints

    declared = re.findall(r"^    cdef (?:public \w+|dict) (\w+)$", hooks, re.MULTILINE)
    assert declared == list(HookPoints.__slots__)


WITHOUT_CYTHON = """
import json, sys
from importlib.abc import MetaPathFinder

class NoCython(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "cython" or name.startswith("Cython"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, NoCython())
from tests.support.digests import bots_matches
import pipeline.bots.heuristic as heuristic
print(json.dumps({"digest": bots_matches("cards-hanchan", "heuristic", 1),
                  "shim": heuristic.cython.__name__}))
"""


def test_the_modules_run_without_cython_installed() -> None:
    result = run(WITHOUT_CYTHON, PROJECT_ROOT, SAKI_PURE_PYTHON="1")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["shim"] == "pipeline._cython"
    plain = run("from tests.support.digests import bots_matches; "
                "print(bots_matches('cards-hanchan', 'heuristic', 1))", PROJECT_ROOT,
                SAKI_PURE_PYTHON="1")
    assert got["digest"] == plain.stdout.strip()
