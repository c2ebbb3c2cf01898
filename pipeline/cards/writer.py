"""A catalog written back as a catalog file (TOML), for catalogs made in code: a tuning sweep
plays each value of a parameter from its own file, so the file a run records is the card set it
played and ``saki cards validate`` can check it.

Only what a designer would write is written: every parameter that differs from its default,
and the required ones. Strings are TOML basic strings (the JSON escapes are valid there).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pipeline.cards.catalog import Card, Catalog, CatalogError
from pipeline.datafiles import plain


def catalog_toml(catalog: Catalog) -> str:
    """The catalog as the text of a catalog file that loads back to the same content."""
    lines = [f"version = {_value(catalog.version)}", f"date = {_value(catalog.date)}",
             f"source = {_value(catalog.source)}"]
    for card in catalog:
        lines += ["", "[[card]]", f"id = {_value(card.id)}", f"name = {_value(card.name)}",
                  f"school = {_value(card.school)}", f"text = {_value(card.text_template)}"]
        if card.clarifications:
            lines.append(f"clarifications = {_value(list(card.clarifications))}")
        if card.flags:
            lines.append(f"flags = {_value(list(card.flags))}")
        for eff in card.effects:
            lines += ["[[card.effect]]", f"id = {_value(eff.id)}", f"kind = {_value(eff.kind)}"]
            for name, spec in eff.spec.params.items():
                value = eff.params[name]
                if spec.required or plain(value) != plain(spec.default):
                    lines.append(f"{name} = {_value(value)}")
    return "\n".join(lines) + "\n"


def with_card(catalog: Catalog, card: Card, version: str) -> Catalog:
    """The catalog with ``card`` in place of the card of the same id, as version
    ``version``."""
    if card.id not in catalog.ids:
        raise CatalogError(f"catalog {catalog.version}: no card {card.id!r} to replace")
    cards = tuple(card if c.id == card.id else c for c in catalog.cards)
    return replace(catalog, cards=cards, version=version)


def _value(value: Any) -> str:
    value = plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise CatalogError(f"cannot write {value!r} to a catalog file")  # pragma: no cover
