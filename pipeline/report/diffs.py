"""What changed between two catalogs, for a comparison report: texts diffed word by word
(:func:`word_diff`, :func:`side_by_side`), every card's changes with its effects' parameters
side by side (:func:`card_diffs`), and the reading options played differently
(:func:`reading_diffs`). Layout only: nothing here computes a metric.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from pipeline.cards.catalog import Card

if TYPE_CHECKING:
    from pipeline.report.build import ReportInputs


def word_diff(before: str, after: str) -> list[tuple[str, str]]:
    """``(op, text)`` pieces turning ``before`` into ``after`` word by word; op is ``same``,
    ``del`` or ``ins``. Texts are kept as they are; the template escapes them."""
    a, b = re.findall(r"\S+|\s+", before or ""), re.findall(r"\S+|\s+", after or "")
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("del", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(("ins", "".join(b[j1:j2])))
    return out


def side_by_side(before: str, after: str) -> dict[str, list[tuple[str, str]]]:
    """The two sides of a word diff: ``a`` holds the old text with removed words marked
    (``del``), ``b`` the new text with added words marked (``ins``)."""
    pieces = word_diff(before, after)
    return {"a": [(op, t) for op, t in pieces if op != "ins"],
            "b": [(op, t) for op, t in pieces if op != "del"]}


def reading_diffs(inputs: ReportInputs) -> list[dict[str, Any]]:
    """Every reading option played differently by the reference run (A) and this run (B):
    card, option and the two choices with their meanings, side by side."""
    old_cards, new_cards = inputs.reference_cards or {}, inputs.cards or {}
    out = []
    for cid, new in new_cards.items():
        old = old_cards.get(cid)
        if old is None:
            continue
        before = {(e.id, name): c for e, name, _, c in old.readings()}
        for eff, name, _, choice in new.readings():
            was = before.get((eff.id, name))
            if was is not None and was.value != choice.value:
                out.append({"what": f"{new.name}: {eff.id}.{name}", **side_by_side(
                    f"{was.value}: {was.meaning}", f"{choice.value}: {choice.meaning}")})
    return out


def card_diffs(inputs: ReportInputs) -> list[dict[str, Any]]:
    """Every card that differs between the reference run (A) and this run (B), with its old
    and new text and each changed effect's parameters side by side, changed words marked."""
    cmp = inputs.comparison
    if cmp is None:
        return []
    old_cards, new_cards = inputs.reference_cards or {}, inputs.cards or {}
    out: dict[str, dict[str, Any]] = {}
    for ch in cmp.card_changes:
        cid = str(ch.get("card"))
        entry = out.setdefault(cid, {"card": cid, "name": ch.get("name") or cid,
                                     "changes": [], "rows": []})
        entry["changes"].append(str(ch.get("change")))
    for cid, entry in out.items():
        old, new = old_cards.get(cid), new_cards.get(cid)
        if old is None or new is None:  # added, removed, or a catalog that was not found
            ch = next(c for c in cmp.card_changes if str(c.get("card")) == cid)
            entry["rows"].append({"what": str(ch.get("change")),
                                  **side_by_side(ch.get("before") or "", ch.get("after") or "")})
            continue
        for what, a, b in (("name", old.name, new.name), ("school", old.school, new.school),
                           ("card text", _text(old), _text(new))):
            if a != b:
                entry["rows"].append({"what": what, **side_by_side(a, b)})
        before, after = _effect_texts(old), _effect_texts(new)
        for eid in dict.fromkeys([*before, *after]):
            if before.get(eid) != after.get(eid):
                entry["rows"].append({"what": f"effect {eid}", **side_by_side(
                    before.get(eid, "(none)"), after.get(eid, "(none)"))})
        for what, a, b in (("clarifications", " / ".join(old.clarifications),
                            " / ".join(new.clarifications)),
                           ("flags", ", ".join(old.flags), ", ".join(new.flags))):
            if a != b:
                entry["rows"].append({"what": what, **side_by_side(a, b)})
        if not any(r["what"].startswith("effect ") for r in entry["rows"]):
            for ch in cmp.card_changes:  # cards without their effects (an older snapshot)
                if str(ch.get("card")) == cid and ch.get("change") == "parameters":
                    entry["rows"].append({"what": "parameters", **side_by_side(
                        ch.get("before") or "", ch.get("after") or "")})
    return list(out.values())


def _text(card: Card) -> str:
    try:
        return card.text
    except (KeyError, ValueError, AttributeError, IndexError):  # a template it cannot fill
        return card.text_template


def _effect_texts(card: Card) -> dict[str, str]:
    """Each effect as ``kind: param value, ...`` (what a designer edits in the file)."""
    out = {}
    for e in card.effects:
        params = ", ".join(f"{k} {_plain(v)}" for k, v in sorted(e.params.items()))
        out[e.id] = f"{e.kind}: {params}" if params else e.kind
    return out


def _plain(v: Any) -> str:
    if isinstance(v, list | tuple):
        return ", ".join(str(x) for x in v) or "(none)"
    if isinstance(v, bool):
        return "true" if v else "false"
    return "(not set)" if v is None else str(v)
