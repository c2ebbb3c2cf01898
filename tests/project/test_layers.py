"""Dependencies point one way: rules <- cards <- bots <- sim <- analytics <- report <- cli.

Every import of a ``pipeline`` module, at the top of a file or inside a function, is read from
the source; a layer may import only the layers before it (and the shared helpers). The card
catalog is pure data: it imports no card behaviour."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("rules", "cards", "bots", "sim", "analytics", "report")
DATA_ONLY = {"pipeline.cards.catalog": {"pipeline.cards.effects", "pipeline.datafiles",
                                         "pipeline.errors"}}


def imports(path: Path) -> set[str]:
    """The ``pipeline`` modules a file imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("pipeline.")}


def layer_of(module: str) -> str:
    return module.split(".")[1]


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_the_layers_before_it(layer: str) -> None:
    later = set(LAYERS[LAYERS.index(layer) + 1:])
    wrong = sorted(f"{path.relative_to(ROOT)}: {m}"
                   for path in (ROOT / "pipeline" / layer).rglob("*.py")
                   for m in imports(path) if layer_of(m) in later)
    assert not wrong


def test_nothing_under_cards_imports_the_bots() -> None:
    assert not [p for p in (ROOT / "pipeline" / "cards").rglob("*.py")
                if any(layer_of(m) == "bots" for m in imports(p))]


def test_the_catalog_is_pure_data() -> None:
    for module, allowed in DATA_ONLY.items():
        path = ROOT / (module.replace(".", "/") + ".py")
        assert {m for m in imports(path) if m.rsplit(".", 1)[0] not in allowed
                and m not in allowed} == set()
