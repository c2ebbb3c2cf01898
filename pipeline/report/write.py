"""Where a report goes and what it is called (:func:`default_report_path`,
:func:`comparison_names`), and writing it: one self-contained page or a static site, each
file written to a temporary name and renamed into place, a report of another configuration
never overwritten.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.datafiles import REPORTS_DIR
from pipeline.report import ReportError
from pipeline.sim.output_lock import OutputLock

if TYPE_CHECKING:
    from pipeline.report.build import Report


def default_report_path(run: Path, reference: Path | None = None) -> Path:
    """``reports/<run folder>.html``; for a comparison a name that says what differs, e.g.
    ``reports/cards-hanchan-1.2-vs-1.3-draft-s1-n400.html`` (the folders' names joined by
    ``-vs-`` when a run.json cannot be read)."""
    if reference is None:
        return REPORTS_DIR / f"{Path(run).name}.html"
    try:
        metas = [json.loads((Path(p) / "run.json").read_text()) for p in (reference, run)]
        name = comparison_names(metas[0], metas[1])[0]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        name = f"{Path(reference).name}-vs-{Path(run).name}"
    return REPORTS_DIR / f"{name}.html"


def comparison_names(a: dict[str, Any], b: dict[str, Any]) -> tuple[str, str]:
    """A file name and a phrase for the comparison of run A with run B, from their run.json
    (or :meth:`RunConfig.identity`) documents: what differs, in words, then what they share.
    ``("cards-hanchan-1.2-vs-1.3-draft-s1-n400", "catalog 1.2 → 1.3-draft (preset
    cards-hanchan, seed 1, 400 matches)")``."""
    pa, pb = a["preset"]["name"], b["preset"]["name"]
    ca, cb = a["catalog"]["version"], b["catalog"]["version"]
    edited = ca == cb and a["catalog"].get("content_hash") != b["catalog"].get("content_hash")
    cb_word = f"an edited {cb}" if edited else cb
    cb_name = f"edited-{cb}" if edited else cb
    differs, shared = [], []
    if pa != pb:
        differs.append(f"preset {pa} → {pb}")
    else:
        shared.append(f"preset {pa}")
    if ca != cb or edited:
        differs.append(f"catalog {ca} → {cb_word}")
    else:
        shared.append(f"catalog {ca}")
    for key, unit in (("seed", "seed {}"), ("games", "{:,} matches")):
        if a.get(key) != b.get(key):
            differs.append(f"{unit.format(a.get(key))} → {unit.format(b.get(key))}")
        else:
            shared.append(unit.format(a.get(key)))
    words = ", ".join(differs) or "the same configuration twice"
    words += f" ({', '.join(shared)})" if shared else ""
    if pa != pb and (ca != cb or edited):
        left, right = f"{pa}-{ca}", f"{pb}-{cb_name}"
        core = f"{left}-vs-{right}"
    elif pa != pb:
        core = f"{pa}-vs-{pb}-{ca}"
    else:
        core = f"{pa}-{ca}-vs-{cb_name}"
    sizes = {f"s{a.get('seed')}-n{a.get('games')}", f"s{b.get('seed')}-n{b.get('games')}"}
    name = f"{core}-{'-vs-'.join(sorted(sizes))}"
    return name, words


def write_report(report: Report, out: Path, *, apart: bool = False,
                 say: Callable[[str], None] | None = None) -> Path:
    """Write the single-file report (folders created as needed) and return where it went.

    A file there that holds the report of another configuration (the runs, the trial and
    its measure, the flag rule: :func:`set_config`) is never replaced silently: with
    ``apart`` (a default file name) this report goes beside it, its name ending in its
    configuration's digest (``<name>-<digest>.html``); a file the user named (``--out``) is
    replaced, and ``say`` hears which configuration it held."""
    out = Path(out)
    if out.is_dir():
        raise ReportError(f"{out} is a folder; give the report a file name such as "
                          f"{out / 'report.html'} (or use --site {out} for a site)")
    other = _other_configuration(out, report)
    if other is not None:
        if apart:
            named = out.with_name(f"{out.stem}-{report.context['config_digest']}{out.suffix}")
            note = (f"{out} holds the report of another configuration ({other}); this one "
                    f"({report.context['config_words']}) goes to {named}")
            out = named
        else:
            note = f"replacing {out}, the report of another configuration ({other})"
        if say is not None:
            say(note)
    _write(out, report.html())
    return out


def write_site(report: Report, folder: Path) -> Path:
    """Write ``index.html`` and ``cards/<id>.html`` into ``folder``, for any static host: one
    writer at a time, never over the site of another configuration."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"{folder} is a file; --site takes a folder to write index.html into")
    with OutputLock(folder, what="site", option="--site"):
        other = _other_configuration(folder / "index.html", report)
        if other is not None:
            raise ReportError(
                f"--site {folder} holds the site of another configuration ({other}); this "
                f"one is {report.context['config_words']}: choose another --site, or delete "
                f"{folder}")
        _write(folder / "index.html", report.html(site=True))
        for card in report.cards:
            _write(folder / "cards" / f"{card.slug}.html", report.card_html(card.id))
    return folder / "index.html"


_RECORDED = re.compile(r'<meta name="saki-config" content="([0-9a-f]+)">\s*'
                       r'<meta name="saki-config-words" content="([^"]*)">')


def _other_configuration(path: Path, report: Report) -> str | None:
    """The words of the configuration recorded in the page at ``path`` when it differs from
    ``report``'s; None when there is no page, it records none (an older report) or the same."""
    mine = report.context.get("config_digest")
    if mine is None or not path.is_file():
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    found = _RECORDED.search(head)
    if found is None or found.group(1) == mine:
        return None
    import html

    return html.unescape(found.group(2))


def _write(path: Path, text: str) -> None:
    """Write through a temporary file renamed into place: never a half-written page."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        if tmp.parent.is_dir():
            tmp.unlink(missing_ok=True)
        raise ReportError(f"{path}: cannot write the report ({exc.strerror or exc}); choose "
                          "another --out or --site") from None
