"""A proposal's outputs: the proposed catalog (a draft a designer edits further, written
whole or not at all) and its patch notes, an HTML page and the same facts as JSON, beside it.

The patch notes say what changed (each changed card's old and new text side by side, the
project's word diff), what it did (the value before, the search's prediction, the value on
the fresh seeds, each with its interval, and the verdict there), what numbers could not do
(the cards that need a text rework, with what was tried) and what it cost. The JSON records
the proposed catalog's content hash, so a balance report of that catalog links the page
(:func:`patch_notes_for`) and a report of another catalog does not.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pipeline
from pipeline.cards.catalog import CatalogError, load_catalog
from pipeline.cards.writer import catalog_toml
from pipeline.datafiles import check_writable, display_path, shipped_dir, show_value, user_dir
from pipeline.report import ReportError
from pipeline.report.build import _write, side_by_side
from pipeline.report.pages import css, environment
from pipeline.report.propose import ProposeResult

NOTES_SUFFIX = ".patch-notes"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def notes_paths(catalog_file: Path) -> tuple[Path, Path]:
    """The patch notes of a proposed catalog file: ``<stem>.patch-notes.html`` and ``.json``
    beside it."""
    base = Path(catalog_file).with_suffix("")
    return (base.with_name(base.name + NOTES_SUFFIX + ".html"),
            base.with_name(base.name + NOTES_SUFFIX + ".json"))


def check_out(out: Path | None, version: str) -> Path:
    """Where the proposed catalog goes (default ``data/cards/<version>-proposal.toml``),
    refused before anything is played when it cannot be: not a ``.toml`` name a draft may
    have, a shipped catalog's name, or a file there that is not an earlier proposal's (a
    designer's own draft is never overwritten)."""
    target = Path(out) if out is not None else user_dir("cards") / f"{version}-proposal.toml"
    if target.suffix != ".toml" or not _NAME.fullmatch(target.stem):
        raise ReportError(f"--out {target}: name the proposed catalog NAME.toml with letters, "
                          "digits, '.', '_' or '-' (its version is NAME), e.g. --out "
                          "data/cards/1.3-proposal.toml")
    if (shipped_dir("cards") / target.name).is_file():
        raise ReportError(f"--out {target}: {target.stem!r} is a shipped catalog's version; "
                          f"choose another name, e.g. {target.stem}-proposal.toml")
    check_writable(target, "--out", ReportError, folder=False)
    if target.exists() and not notes_paths(target)[1].is_file():
        raise ReportError(f"--out {display_path(target)} exists and is not a proposal's "
                          "catalog (no patch notes beside it); choose another --out")
    return target


@dataclass(frozen=True)
class Written:
    """What a proposal wrote: the catalog, its patch notes, and their content."""

    catalog: Path
    html: Path
    json: Path
    notes: dict[str, Any]

    def printed(self) -> dict[str, Any]:
        return {"status": self.notes["status"], "catalog_file": str(self.catalog),
                "patch_notes": str(self.html), "patch_notes_json": str(self.json),
                **{k: self.notes[k] for k in ("seed", "confirm_seed", "band", "changes",
                                              "rework", "left_alone", "left_the_band",
                                              "missed", "undecided", "cards", "cost")}}

    def text(self) -> str:
        n = self.notes
        lines = [f"proposal: {n['status']}"]
        for c in n["changes"]:
            before, after = c.get("before") or {}, c.get("after") or {}
            also = "".join(f" and {a['effect']}.{a['param']} {a['from_text']} -> "
                           f"{a['to_text']}" for a in c.get("also", []))
            lines.append(f"  {c['name']}: {c['effect']}.{c['param']} {c['from_text']} -> "
                         f"{c['to_text']}{also}; value {_pts(before.get('value'))} "
                         f"({before.get('verdict')}) -> {_pts(after.get('value'))} "
                         f"{_span(after)} on the fresh seeds ({after.get('verdict')})")
            for a in c.get("alternatives", []):
                lines.append(f"    also predicted inside: {a['effect']}.{a['param']} "
                             f"{a['from_text']} -> {a['to_text']} ({_pts(a['predicted'])}"
                             f"{'; switches the ability off' if a['switches_off'] else ''})")
        for r in n["rework"]:
            lines.append(f"  needs a text rework: {r['name']} ({r['why']})")
        for r in n["left_alone"]:
            lines.append(f"  left alone: {r['name']} ({r['why']})")
        if n["undecided"]:
            lines.append(f"  undecided, not searched: {', '.join(n['undecided'])} (a larger "
                         "--budget-hands may settle them)")
        lines.append(f"proposed catalog: {self.catalog}")
        lines.append(f"patch notes: {self.html.resolve().as_uri()}")
        return "\n".join(lines)


def write_proposal(result: ProposeResult, target: Path) -> Written:
    """Write the proposed catalog to ``target`` (its version: the file's name; checked to
    load before it replaces anything) and its patch notes beside it."""
    from dataclasses import replace

    catalog = replace(result.catalog, version=target.stem)
    text = catalog_toml(catalog)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp.toml")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        written = load_catalog(tmp)
        os.replace(tmp, target)
    except (OSError, CatalogError) as exc:
        raise ReportError(f"--out {target}: cannot write the proposed catalog ({exc}); "
                          "choose another --out") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    notes = notes_doc(result, target, written.content_hash())
    html_path, json_path = notes_paths(target)
    _write(json_path, json.dumps(notes, indent=2, default=str) + "\n")
    _write(html_path, patch_notes_html(notes))
    return Written(target, html_path, json_path, notes)


def notes_doc(result: ProposeResult, target: Path, catalog_hash: str) -> dict[str, Any]:
    """The patch notes' facts (the JSON), each changed card with its word diff."""
    doc = dict(result.doc)
    doc["changes"] = [{**c, "from_text": show_value(c["from"]), "to_text": show_value(c["to"]),
                       "rows": [{"what": "card text",
                                 **side_by_side(c["old_text"], c["new_text"])}],
                       "alternatives": [{**a, "from_text": show_value(a["from"]),
                                         "to_text": show_value(a["to"])}
                                        for a in c.get("alternatives", [])],
                       "also": [{**a, "from_text": show_value(a["from"]),
                                 "to_text": show_value(a["to"])} for a in c.get("also", [])]}
                      for c in doc["changes"]]
    return {"kind": "patch_notes", **doc, "catalog_file": str(target),
            "catalog_hash": catalog_hash, "folder": str(result.out),
            "config": result.doc.get("config")}


def patch_notes_html(notes: dict[str, Any]) -> str:
    """The page (every text from a catalog escaped by the template engine)."""
    config = notes.get("config") or {}
    return environment().get_template("patch_notes.html").render(
        title=f"Patch notes: {Path(notes['catalog_file']).stem}", css=css(),
        generator=getattr(pipeline, "__version__", ""), doc=notes, config=config,
        preset=(config.get("preset") or {}).get("name", ""),
        catalog_file=notes["catalog_file"], folder=notes["folder"])


def patch_notes_for(catalog_file: Path | None, catalog_hash: str) -> Path | None:
    """The patch notes page of a proposed catalog, when the catalog played is the one they
    describe (its content hash), else None."""
    if catalog_file is None:
        return None
    html, js = notes_paths(Path(catalog_file))
    try:
        doc = json.loads(js.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return html if doc.get("catalog_hash") == catalog_hash and html.is_file() else None


def _pts(x: float | None) -> str:
    return "-" if x is None else f"{x:+,.0f}"


def _span(row: dict[str, Any]) -> str:
    lo, hi = row.get("value_lo"), row.get("value_hi")
    return "" if lo is None or hi is None else f"[{lo:+,.0f}, {hi:+,.0f}]"


__all__ = ["Written", "check_out", "notes_doc", "notes_paths", "patch_notes_for",
           "patch_notes_html", "write_proposal"]
