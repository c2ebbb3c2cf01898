"""A designer's draft catalog: a copy of a catalog under a new version, in ``data/cards/``.

A copy made by hand keeps its source's ``version`` line, so the draft's runs and reports carry
the old version's name and cannot be told apart from the original's. :func:`new_draft` writes
the copy with its version set, comments and layout kept, and checks it loads.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from pipeline.cards.catalog import CatalogError, load_catalog
from pipeline.datafiles import display_path, shipped_dir, user_dir

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_VERSION_LINE = re.compile(r'^version\s*=\s*"[^"\n]*"[ \t]*$', re.MULTILINE)


def new_draft(name: str, source: str = "1.2", folder: Path | None = None) -> Path:
    """Write ``data/cards/<name>.toml`` (or into ``folder``): catalog ``source`` (a version or
    a ``.toml`` path) with ``version = "<name>"``. Refuses a bad or shipped name and never
    overwrites a file; nothing is left behind when the copy does not load."""
    if not _NAME.fullmatch(name) or name.endswith(".toml"):
        raise CatalogError(f"draft name {name!r}: use letters, digits, '.', '_' or '-' (e.g. "
                           "1.3-draft), without .toml")
    if (shipped_dir("cards") / f"{name}.toml").is_file():
        raise CatalogError(f"{name!r} is a shipped catalog's version; give the draft a new "
                           f"name, e.g. {name}-draft")
    target = (folder if folder is not None else user_dir("cards")) / f"{name}.toml"
    if target.exists():
        raise CatalogError(f"{display_path(target)} already exists; edit it, or choose another "
                           "name")
    original = load_catalog(source)  # a broken source is reported as itself
    text = original.path.read_text(encoding="utf-8")
    lines = _VERSION_LINE.findall(text)
    if len(lines) != 1:
        raise CatalogError(f"{display_path(original.path)}: expected one line 'version = "
                           f"\"...\"' to rewrite, found {len(lines)}")
    text = _VERSION_LINE.sub(f'version = "{name}"', text, count=1)
    tmp = target.with_name(f".{name}.{os.getpid()}.tmp.toml")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        load_catalog(tmp)
        os.link(tmp, target)  # fails rather than overwrite a file made meanwhile
    except OSError as exc:
        raise CatalogError(f"{display_path(target)}: cannot write the draft "
                           f"({exc.strerror or exc}); run 'saki cards new' in a folder where "
                           f"{display_path(target.parent)} can be written") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    return target
