"""Where the lab's data files live, and shared wording for errors about them.

Two places hold presets, card catalogs and bot styles:

- the shipped defaults, inside the package (``pipeline/data/<kind>/``, read with
  :mod:`importlib.resources`, so a normal ``pip install`` finds them wherever it puts them);
- the designer's own files, in ``data/<kind>/`` under the working directory (``saki cards new``
  writes drafts there), plus any file named by a path ending in ``.toml``.

A name (``cards-hanchan``, ``1.2``, ``1.3-draft``) is looked up among the shipped files first,
then in ``data/<kind>/``; a designer's file that reuses a shipped name is refused rather than
silently ignored. Everything a run writes goes under the working directory (``data/runs/``,
``reports/``) or where ``--out`` says, never into the install tree.
"""

from __future__ import annotations

import json
import os
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(str(files("pipeline"))).resolve()
PROJECT_ROOT = PACKAGE_ROOT.parent  # the checkout, when running from one (notebooks, tests)
SHIPPED_DATA = PACKAGE_ROOT / "data"
USER_DATA = Path("data")  # relative: the working directory's data folder
RUNS_DIR = USER_DATA / "runs"
REPORTS_DIR = Path("reports")


def shipped_dir(kind: str) -> Path:
    """The folder of shipped files of one kind (``presets``, ``cards``, ``bots``)."""
    return SHIPPED_DATA / kind


def user_dir(kind: str) -> Path:
    """The working directory's folder for the designer's own files of one kind."""
    return USER_DATA / kind


def data_names(kind: str) -> list[str]:
    """Names of the ``.toml`` files of one kind, shipped and the designer's, sorted."""
    names = {p.stem for p in shipped_dir(kind).glob("*.toml")}
    names.update(p.stem for p in user_dir(kind).glob("*.toml"))
    return sorted(names)


def find_data_file(kind: str, name: str, error: type[ValueError]) -> Path | None:
    """The file a name stands for (shipped first, then ``data/<kind>/``), or None.

    A designer's file under a shipped name would be silently shadowed, so it is an ``error``
    that says how to rename it."""
    shipped = shipped_dir(kind) / f"{name}.toml"
    own = user_dir(kind) / f"{name}.toml"
    if shipped.is_file():
        if own.is_file() and own.resolve() != shipped.resolve():
            raise error(f"{own.as_posix()}: has the name of a shipped file ({name!r}), which "
                        "always means the shipped one; rename your copy (e.g. "
                        f"{name}-draft.toml) and use that name")
        return shipped.resolve()
    if own.is_file():
        return own.resolve()
    return None


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
    """A short, stable path for messages: relative to the working directory when inside it,
    else relative to the package's parent for shipped files, else as given."""
    resolved = path.resolve()
    for base in (Path.cwd().resolve(), PROJECT_ROOT):
        try:
            return resolved.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def read_toml(path: Path, error: type[ValueError]) -> dict[str, Any]:
    """A data file's TOML, or ``error`` with a one-line message naming the file."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{display_path(path)}: not valid TOML: {err}") from None
    except UnicodeDecodeError as err:
        line = path.read_bytes()[:err.start].count(b"\n") + 1
        raise error(f"{display_path(path)}: line {line}: not UTF-8 text (byte "
                    f"0x{err.object[err.start]:02x}); save the file as UTF-8 in your "
                    "editor") from None
    except IsADirectoryError:
        raise error(f"{display_path(path)}: is a folder, not a file") from None
    except OSError as err:
        raise error(f"{display_path(path)}: cannot read: {err.strerror}") from None


def check_writable(path: Path, option: str, error: type[ValueError], *,
                   folder: bool) -> None:
    """Refuse, before any work starts, an output path that cannot be written: under a file,
    in a folder without write permission, or (``folder``) a file where a folder is wanted, or
    (not ``folder``) a folder where a file is wanted. ``option`` names it in the message."""
    path = Path(path)
    where = f"{option} {path}"
    if path.exists():
        if folder and not path.is_dir():
            raise error(f"{where}: is a file, not a folder; choose another {option}")
        if not folder and path.is_dir():
            raise error(f"{where}: is a folder; give a file name, e.g. {path / 'report.html'}")
    parent = path if path.is_dir() else path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise error(f"{where}: {parent} is a file, so nothing can be written under it; choose "
                    f"another {option}")
    target = path if path.is_dir() else parent
    if not os.access(target, os.W_OK | os.X_OK):
        raise error(f"{where}: no permission to write in {target}; choose a folder you own "
                    f"for {option}")
