"""The report's HTML: Jinja2 templates in ``templates/``, autoescape on for every one of them, so
every text that comes from a data file (card names and texts, preset values, run labels) is
escaped. Pages are self-contained: the CSS and the small table script (sorting and filtering,
``templates/tables.js``) are inlined, figures are ``data:`` PNG images, and no link leaves the
page except to a site's own card pages.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from pipeline.report import fmt

TEMPLATES = Path(__file__).parent / "templates"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """A Jinja2 environment with autoescape on for every template, and the formatters."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.globals.update(fmt=fmt, show=fmt.show, script=script)
    return env


def css() -> Markup:
    """The stylesheet, inlined in every page (our own file, never data)."""
    return Markup((TEMPLATES / "style.css").read_text(encoding="utf-8"))



def script() -> Markup:
    """The table script, inlined in every page (our own file, never data)."""
    return Markup((TEMPLATES / "tables.js").read_text(encoding="utf-8"))
