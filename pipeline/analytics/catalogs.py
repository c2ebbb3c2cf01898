"""The card catalog a run was played with: card names for tables, card texts for comparisons.

A run records its catalog version and content hash in ``run.json``; a run may also carry a
snapshot of the cards themselves (``catalog`` -> ``cards``). The snapshot is the truth when
present. Otherwise the catalog is loaded by its version (shipped or ``data/cards/``) and its
content hash checked against the run's: a file edited since the run was made is used with a
warning, since the texts shown may then not be the ones played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.cards.catalog import Card, CatalogError, Effect, load_catalog


@dataclass
class RunCatalog:
    """The cards of a run's catalog by id (empty when none could be read) and any warnings."""

    version: str | None
    content_hash: str | None
    cards: dict[str, Card] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    from_snapshot: bool = False

    def name(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card.name if card is not None else card_id


def run_catalog(meta: dict[str, Any], label: str = "") -> RunCatalog:
    """The catalog of the run whose ``run.json`` is ``meta``."""
    info = meta.get("catalog") if isinstance(meta.get("catalog"), dict) else {}
    version = info.get("version")
    digest = info.get("content_hash")
    who = f"run {label}" if label else "the run"
    snapshot = info.get("cards")
    if snapshot:
        try:
            cards = _from_snapshot(snapshot)
            return RunCatalog(version, digest, cards, from_snapshot=True)
        except (KeyError, TypeError, ValueError) as exc:
            out = RunCatalog(version, digest)
            out.warnings.append(f"{who}: the catalog snapshot in run.json is unreadable ({exc})")
            return out
    out = RunCatalog(version, digest)
    if not version:
        return out
    try:
        catalog = load_catalog(str(version))
    except CatalogError as exc:
        out.warnings.append(f"{who}: catalog {version} cannot be loaded ({exc}); card texts "
                            "are not shown")
        return out
    out.cards = {c.id: c for c in catalog}
    if digest and catalog.content_hash() != digest:
        out.warnings.append(f"{who}: catalog {version}'s file has changed since the run was "
                            "made (content hash differs); card texts shown are today's file, "
                            "not necessarily the ones played")
    return out


def _from_snapshot(snapshot: Any) -> dict[str, Card]:
    """Cards from a snapshot: a list of card dicts (as the canonical catalog writes them) or a
    mapping of id to card dict."""
    items = list(snapshot.items()) if isinstance(snapshot, dict) else [
        (c["id"], c) for c in snapshot]
    cards: dict[str, Card] = {}
    for card_id, raw in items:
        effects = tuple(
            Effect(e["id"], e["kind"], {k: v for k, v in e.items() if k not in ("id", "kind")})
            for e in raw.get("effects", raw.get("effect", [])))
        cards[str(card_id)] = Card(
            id=str(card_id), name=str(raw.get("name", card_id)),
            school=str(raw.get("school", "")),
            text_template=str(raw.get("text_template", raw.get("text", ""))),
            clarifications=tuple(raw.get("clarifications", ())),
            flags=tuple(raw.get("flags", ())), effects=effects)
    return cards


def card_changes(a: RunCatalog, b: RunCatalog) -> list[dict[str, str]]:
    """What differs between the cards of two runs: one dict per change with ``card``,
    ``name``, ``change`` (``text``, ``parameters``, ``added`` or ``removed``), ``before`` and
    ``after``. ``text`` covers the template, name, school, clarifications and flags (before and
    after are the rendered texts); ``parameters`` lists the effects whose kind or values differ.
    """
    if a.content_hash and a.content_hash == b.content_hash:
        return []
    out: list[dict[str, str]] = []
    for card_id, old in a.cards.items():
        new = b.cards.get(card_id)
        if new is None:
            out.append(_change(old, "removed", _render(old), ""))
            continue
        if (old.text_template, old.name, old.school, old.clarifications, old.flags) != (
                new.text_template, new.name, new.school, new.clarifications, new.flags):
            out.append(_change(new, "text", _render(old), _render(new)))
        before, after = _effects(old), _effects(new)
        if before != after:
            changed = [i for i in dict.fromkeys([*before, *after])
                       if before.get(i) != after.get(i)]
            out.append(_change(new, "parameters",
                               "; ".join(f"{i}: {before.get(i, '(none)')}" for i in changed),
                               "; ".join(f"{i}: {after.get(i, '(none)')}" for i in changed)))
    for card_id, new in b.cards.items():
        if card_id not in a.cards:
            out.append(_change(new, "added", "", _render(new)))
    return out


def _change(card: Card, change: str, before: str, after: str) -> dict[str, str]:
    return {"card": card.id, "name": card.name, "change": change, "before": before,
            "after": after}


def _render(card: Card) -> str:
    try:
        text = card.text
    except (KeyError, ValueError, AttributeError, IndexError):
        text = card.text_template
    return f"{card.name}: {text}"


def _effects(card: Card) -> dict[str, str]:
    return {e.id: f"{e.kind}({e.describe()})" for e in card.effects}


__all__ = ["RunCatalog", "card_changes", "run_catalog"]
