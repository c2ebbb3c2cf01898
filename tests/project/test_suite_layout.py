"""The test suite's own shape: shared helpers come from ``tests/support/`` (or fixtures of
``conftest.py``), never from another test module, so a test file can move or be renamed
without breaking the files that would have borrowed from it."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def suite_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "fixtures" not in p.parts)


def is_test_module(dotted: str) -> bool:
    """Whether an imported module is a test module (``test_x``, ``tests.test_x``, ``conftest``)."""
    last = dotted.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def imported_test_modules(path: Path) -> list[str]:
    """The test modules ``path`` imports, at any depth of its code."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if is_test_module(node.module):
                found.append(node.module)
            elif node.module.split(".")[0] == "tests":
                found += [f"{node.module}.{a.name}" for a in node.names
                          if is_test_module(a.name)]
    return found


def test_no_test_module_imports_another_test_module() -> None:
    offenders = {p.relative_to(TESTS).as_posix(): mods for p in suite_modules()
                 if (mods := imported_test_modules(p))}
    assert not offenders, f"move the shared helpers to tests/support/: {offenders}"


def test_the_import_check_sees_every_form(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text("import tests.test_a\nfrom test_b import x\nfrom tests.test_c import y\n"
                      "from tests import test_d\nfrom tests.support.rule_checks import z\n"
                      "def f():\n    from tests.test_e import w\n")
    assert imported_test_modules(sample) == ["tests.test_a", "test_b", "tests.test_c",
                                             "tests.test_d", "tests.test_e"]


# ------------------------------------------------------------------ typed tags, not detail text

# Reads of ``.detail`` that take meaning from an event's or an action's text: none is left,
# as every event carries what a program needs in its typed fields (``drawn_from``, ``tag``,
# ``payload``, ``source``...). A read that checks the wording itself (the log or an export as
# people read it) says so with a ``# wording`` comment on its line or the line above, and is not
# counted.
UNTYPED_DETAIL_READS = 0


def detail_reads(path: Path) -> list[int]:
    """The lines of ``path`` that read an attribute ``detail`` without a ``# wording`` comment
    on the line or just above it."""
    lines = path.read_text().splitlines()

    def commented(line: int) -> bool:
        above = lines[line - 2].strip() if line >= 2 else ""
        return "# wording" in lines[line - 1] or above.startswith("# wording")

    tree = ast.parse("\n".join(lines), str(path))
    return sorted({n.lineno for n in ast.walk(tree)
                   if isinstance(n, ast.Attribute) and n.attr == "detail"
                   and isinstance(n.ctx, ast.Load) and not commented(n.lineno)})


def test_tests_assert_on_typed_tags_not_on_detail_text() -> None:
    reads = [f"{p.relative_to(TESTS).as_posix()}:{line}" for p in suite_modules()
             for line in detail_reads(p)]
    assert len(reads) <= UNTYPED_DETAIL_READS, (
        f"{len(reads)} reads of .detail (at most {UNTYPED_DETAIL_READS}): assert on the typed "
        f"fields (kind, tag, card, payload, source, drawn_from, tsumogiri, effect), or mark a "
        f"read of the wording itself with '# wording': {reads}")
    assert len(reads) == UNTYPED_DETAIL_READS, \
        f"only {len(reads)} untyped reads of .detail left: lower UNTYPED_DETAIL_READS to it"


def test_the_detail_check_sees_reads_and_their_comments(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text("a = e.detail\nb = e.detail  # wording: the log\n# wording: as printed\n"
                      "c = [x.detail for x in y]\ne.detail = 'set'\nd = e.tag\n")
    assert detail_reads(sample) == [1]
