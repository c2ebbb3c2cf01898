"""The reading options a catalog plays, as rows for the command line, reports and docs.

A reading is an effect parameter whose choices are ways of reading a card text
(:class:`pipeline.cards.effects.Choice`); this module only lists them.
"""

from __future__ import annotations

from typing import Any

from pipeline.cards.catalog import Catalog


def reading_rows(catalog: Catalog) -> list[dict[str, Any]]:
    """One row per reading option of every card: ``card``, ``effect``, ``option``, ``value``
    (the choice this catalog plays), ``default`` and ``choices`` (each with ``value``,
    ``meaning`` and ``why``), in catalog order."""
    rows = []
    for card in catalog:
        for eff in card.effects:
            for option, spec, choice in eff.readings():
                rows.append({
                    "card": card.id,
                    "effect": eff.id,
                    "kind": eff.kind,
                    "option": option,
                    "value": choice.value,
                    "default": spec.default,
                    "question": spec.doc,
                    "choices": [{"value": c.value, "meaning": c.meaning, "why": c.why}
                                for c in spec.readings],
                })
    return rows


def changed_readings(catalog: Catalog) -> list[dict[str, Any]]:
    """The rows whose choice is not the default: what a run of this catalog plays differently
    from the faithful readings (listed in the report's "What was simulated")."""
    return [row for row in reading_rows(catalog) if row["value"] != row["default"]]
