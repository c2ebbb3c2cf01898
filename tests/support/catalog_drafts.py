"""A draft copy of a shipped catalog in a test's folder, edited in place."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipeline.cards.catalog import (
    CATALOG_DIR,
)


def draft_copy(tmp_path: Path, name: str = "1.3-draft") -> Path:
    """The shipped 1.2 file copied as a draft version, header updated."""
    path = tmp_path / f"{name}.toml"
    shutil.copyfile(CATALOG_DIR / "1.2.toml", path)
    text = path.read_text(encoding="utf-8")
    assert text.count('version = "1.2"') == 1
    path.write_text(text.replace('version = "1.2"', f'version = "{name}"'), encoding="utf-8")
    return path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
