"""Shared wording for errors about the project's data files (presets, card catalogs)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def plain(value: Any) -> Any:
    """A tuple as the list it was written as in the file."""
    return list(value) if isinstance(value, tuple) else value


def show_value(value: Any) -> str:
    """A value as it would be written in TOML/JSON (true, "x", [1, 2])."""
    try:
        return json.dumps(plain(value), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def display_path(path: Path) -> str:
    """A path relative to the project root when inside it (short, stable in messages)."""
    try:
        return path.resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return str(path)


def read_toml(path: Path, error: type[ValueError]) -> dict[str, Any]:
    """A data file's TOML, or ``error`` with a one-line message naming the file."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{display_path(path)}: not valid TOML: {err}") from None
    except OSError as err:
        raise error(f"{display_path(path)}: cannot read: {err.strerror}") from None
