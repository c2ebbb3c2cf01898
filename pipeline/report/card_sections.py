"""One section per card in a report (:class:`CardView`): its text and clarifications, its
in-deck metrics or its trial figures first, the one-line summary, and in a comparison what
changed and how its numbers moved. Layout only: the figures come computed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pipeline.cards.catalog import Card
from pipeline.report import fmt
from pipeline.report.diffs import card_diffs, word_diff
from pipeline.report.trial_rows import _trial_rows

if TYPE_CHECKING:
    from pipeline.report.build import ReportInputs

DELTA_METRICS = (  # Comparison.metrics prefixes, their label and how they are shown
    ("swing", "point swing per hand", "pts"),
    ("win_rate", "win rate", "pct"),
    ("deal_in_rate", "deal-in rate", "pct"),
    ("avg_place", "average placement", "num"),
)


@dataclass
class CardView:
    """One card's section: text, metrics and, in a comparison, what changed."""

    id: str
    name: str
    slug: str
    school: str = ""
    text: str = ""
    text_note: str = ""
    clarifications: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    metrics: list[dict[str, str]] = field(default_factory=list)
    summary: str = ""
    headline: str = ""
    changes: list[dict[str, Any]] = field(default_factory=list)
    diff_rows: list[dict[str, Any]] = field(default_factory=list)  # old/new side by side
    deltas: list[dict[str, str]] = field(default_factory=list)
    delta_flag: str = ""


def slug(card_id: str) -> str:
    """A card id as a safe anchor and file name."""
    return re.sub(r"[^a-z0-9_-]+", "-", card_id.lower()).strip("-") or "none"


def _card_views(inputs: ReportInputs, rows: list[dict[str, Any]]) -> list[CardView]:
    by_id = inputs.cards or {}
    cmp = inputs.comparison
    changes: dict[str, list[dict[str, Any]]] = {}
    deltas: dict[str, dict[str, Any]] = {}
    if cmp is not None:
        for ch in cmp.card_changes:
            changes.setdefault(str(ch.get("card")), []).append(ch)
        deltas = {str(r["group"]): r for r in cmp.metrics.to_dicts()}
    diffs = {d["card"]: d["rows"] for d in card_diffs(inputs)}
    ids = [str(r["group"]) for r in rows if r.get("group") != "(none)"]
    ids += [cid for cid in changes if cid not in ids]
    table_rows = {str(r["group"]): r for r in rows}
    trial = {str(r["card"]): r for r in _trial_rows(inputs)}
    if trial:  # the sections follow the verdicts, then the cards the trial did not try
        ids = list(trial) + [cid for cid in ids if cid not in trial]
    views = []
    for cid in ids:
        card = by_id.get(cid)
        row = table_rows.get(cid)
        view = _card_view(cid, card, row, inputs)
        if cid in trial:
            view.metrics = [*trial_metrics(trial[cid]), *view.metrics]
            in_deck = in_deck_summary(row) if row is not None else ""
            view.summary = f"{trial_summary(trial[cid])} {in_deck}".strip()
            view.headline = trial_summary(trial[cid])
        view.changes = _changes(cid, card, inputs.reference_cards, changes.get(cid, []))
        view.diff_rows = diffs.get(cid, [])
        if cid in deltas:
            view.deltas, view.delta_flag = _deltas(deltas[cid])
        views.append(view)
    return views


def _changes(cid: str, card: Card | None, reference: dict[str, Card] | None,
             changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The card's changes from the reference run: first the rendered card text, word by word
    (a changed parameter changes the text a player reads), then the comparison's entries."""
    out = []
    old = (reference or {}).get(cid)
    if old is not None and card is not None and old.text != card.text:
        out.append({"change": "card text", "before": old.text, "after": card.text,
                    "diff": word_diff(old.text, card.text)})
    for ch in changes:
        if ch.get("change") == "text" and out:
            continue  # the same change, already shown as the card text
        out.append(dict(ch, diff=word_diff(ch.get("before") or "", ch.get("after") or "")))
    return out


def _card_view(cid: str, card: Card | None, row: dict[str, Any] | None,
               inputs: ReportInputs) -> CardView:
    name = card.name if card is not None else str((row or {}).get("name") or cid)
    view = CardView(id=cid, name=name, slug=slug(cid))
    if card is not None:
        view.school, view.text = card.school, card.text
        view.clarifications, view.flags = card.clarifications, card.flags
    else:
        view.text_note = "this card is not in the catalog the run used, or that catalog was " \
                         "not found"
    if row is not None:
        view.metrics = card_metrics(row)
        view.summary = card_summary(row, inputs.min_hands)
        view.headline = view.summary
    else:
        view.headline = "not played in this run"
    return view


def trial_metrics(row: dict[str, Any]) -> list[dict[str, str]]:
    """The card's trial figures, shown first in its section."""
    degenerate = bool(row.get("degenerate"))
    placement = row.get("measure") == "placement"
    kind = "result" if placement else "pts"
    value = {"label": "placement value (trial, result points per match)" if placement else
             "ability value (trial, points per hand)",
             "value": fmt.show(row.get("value"), kind, True),
             "span": "no hand changed" if degenerate else
             fmt.interval(row.get("value_lo"), row.get("value_hi"), kind, True)}
    relative = {"label": "against the deck's average card",
                "value": fmt.show(row.get("relative"), kind, True),
                "span": "" if degenerate else
                fmt.interval(row.get("relative_lo"), row.get("relative_hi"), kind, True)}
    beside = [{"label": "the hands alone (points per hand)",
               "value": fmt.show(row.get("pair_value"), "pts", True),
               "span": fmt.interval(row.get("pair_lo"), row.get("pair_hi"), "pts", True)}]
    if not placement and fmt.value(row.get("placement_value")) is not None:
        beside.append({"label": "placement (result points per match)",
                       "value": fmt.show(row.get("placement_value"), "result", True),
                       "span": fmt.interval(row.get("placement_lo"), row.get("placement_hi"),
                                            "result", True)})
    if placement:
        beside.append({"label": "over the match (points per hand)",
                       "value": fmt.show(row.get("whole_value"), "pts", True),
                       "span": fmt.interval(row.get("whole_lo"), row.get("whole_hi"), "pts",
                                            True)})
    if fmt.value(row.get("rank_gain")) is not None:
        beside.append({"label": "rank gain (places per match)",
                       "value": fmt.show(row.get("rank_gain"), "num", True),
                       "span": fmt.interval(row.get("rank_lo"), row.get("rank_hi"), "num",
                                            True)})
    return [value, relative, *beside,
            {"label": "trial hands (matches)",
             "value": f"{fmt.count(row.get('hands'))} ({fmt.count(row.get('matches'))})",
             "span": ""},
            {"label": "trial win rate, with / without the ability",
             "value": f"{fmt.show(row.get('win_rate'), 'pct')} / "
                      f"{fmt.show(row.get('win_rate_without'), 'pct')}", "span": ""}]


def trial_summary(row: dict[str, Any]) -> str:
    """One sentence on the card's ability value that says what its number shows: the verdict
    against the band, and where it stands against the deck's average card."""
    verdict = row.get("verdict") or "undecided"
    if row.get("degenerate") and verdict == "undecided":
        return (f"In its trial no hand came out differently with the ability "
                f"({fmt.count(row.get('hands'))} hands): {row.get('reason') or 'not measured'}.")
    lo, hi = fmt.value(row.get("relative_lo")), fmt.value(row.get("relative_hi"))
    side = (", above the deck's average card" if lo is not None and lo > 0 else
            ", below the deck's average card" if hi is not None and hi < 0 else
            ", not told apart from the deck's average card")
    edge = ("upper" if (fmt.value(row.get("relative")) or 0) > 0 else "lower")
    where = {
        "above": "above the balance band: a nerf candidate",
        "below": "below the balance band: a buff candidate",
        "inside": f"inside the balance band{side}",
        "at_edge": f"at the band's {edge} edge (within its indifference zone: more hands "
                   "would not tell a difference that matters)",
    }.get(verdict)
    if where is None:
        more = (f"; about {fmt.count(row['settle_hands'])} more of its hands would settle it"
                if row.get("settle_hands") is not None else "")
        where = f"undecided ({row.get('reason')}{more})"
    if row.get("reason") and verdict != "undecided":  # a bound, or a side within the zone
        where += f" ({row.get('reason')})"
    span = "" if row.get("degenerate") else \
        fmt.interval(row.get("value_lo"), row.get("value_hi"), "pts", True)
    return (f"Its ability is worth {fmt.pts(row.get('value'), True)} points per hand {span} "
            f"to the seat that plays it: {where}.").replace("  ", " ")


def in_deck_summary(row: dict[str, Any]) -> str:
    """The in-deck figures in a sentence that flags nothing (the verdict is the trial's)."""
    diff = fmt.with_interval(row.get("field_diff"), row.get("field_diff_lo"),
                             row.get("field_diff_hi"), "pts", True)
    return (f"In the natural run, on the hands the bots chose it for: {diff} points per hand "
            f"against the field over {fmt.count(row.get('hands'))} hands.")


def card_metrics(row: dict[str, Any]) -> list[dict[str, str]]:
    """A ``character_table`` row as labelled, formatted values with their intervals."""
    def m(label: str, v: Any, lo: Any = None, hi: Any = None, kind: str = "pts",
          signed: bool = False) -> dict[str, str]:
        shown = fmt.count(v) if kind == "count" else fmt.show(v, kind, signed)
        span = fmt.interval(lo, hi, kind, signed) if kind in ("pct", "num", "pts") else ""
        return {"label": label, "value": shown, "span": span}

    r = row
    return [
        m("hands played", r.get("hands"), kind="count"),
        m("matches", r.get("matches"), kind="count"),
        m("pick rate", r.get("pick_rate"), r.get("pick_lo"), r.get("pick_hi"), "pct"),
        m("point swing per hand", r.get("swing"), r.get("swing_lo"), r.get("swing_hi"),
          signed=True),
        m("against the field", r.get("field_diff"), r.get("field_diff_lo"),
          r.get("field_diff_hi"), signed=True),
        m("q-value (chance of a false alarm)", r.get("q_value"), kind="prob"),
        m("spread of swing (sd)", r.get("swing_sd")),
        m("win rate", r.get("win_rate"), r.get("win_lo"), r.get("win_hi"), "pct"),
        m("deal-in rate", r.get("deal_in_rate"), r.get("deal_in_lo"), r.get("deal_in_hi"),
          "pct"),
        m("tsumo share of wins", r.get("tsumo_share"), kind="pct"),
        m("riichi rate", r.get("riichi_rate"), kind="pct"),
        m("call rate", r.get("call_rate"), kind="pct"),
        m("tenpai at exhaustive draw", r.get("draw_tenpai_rate"), kind="pct"),
        m("average win", r.get("avg_win")),
        m("average deal-in", r.get("avg_deal_in")),
        m("average placement", r.get("avg_place"), r.get("avg_place_lo"),
          r.get("avg_place_hi"), "num"),
        m("first place", r.get("top_rate"), kind="pct"),
        m("second place", r.get("second_rate"), kind="pct"),
        m("third place", r.get("third_rate"), kind="pct"),
        m("last place", r.get("last_rate"), kind="pct"),
        m("average final result (thousands)", r.get("avg_result"), kind="num", signed=True),
        m("ability triggers per hand", r.get("triggers_per_hand"), kind="num"),
        m("value of a trigger (han or points)", r.get("trigger_value"), kind="auto"),
        (m("with minus without ability", r.get("paired_effect"), r.get("paired_lo"),
           r.get("paired_hi"), signed=True) if r.get("paired_changed") != 0 else
         {**m("with minus without ability", r.get("paired_effect"), signed=True),
          "span": "no pair differed"}),
    ]


def card_summary(row: dict[str, Any], min_hands: int) -> str:
    """One sentence on where the character stands, from its flag and field difference."""
    flag = row.get("flag") or ""
    hands = fmt.count(row.get("hands"))
    diff = fmt.with_interval(row.get("field_diff"), row.get("field_diff_lo"),
                             row.get("field_diff_hi"), "pts", True)
    if flag == "not enough data":
        return f"Only {hands} hands: too few to judge (at least {min_hands} are needed)."
    lo, hi = fmt.value(row.get("field_diff_lo")), fmt.value(row.get("field_diff_hi"))
    if flag == "strong":
        return f"Nerf candidate: {diff} points per hand against the field over {hands} hands."
    if flag == "weak":
        return f"Buff candidate: {diff} points per hand against the field over {hands} hands."
    if lo is not None and hi is not None and lo <= 0 <= hi:
        return (f"Within the field: {diff} points per hand against the field over {hands} "
                "hands; the interval includes zero.")
    return f"{diff} points per hand against the field over {hands} hands; not flagged."


def _deltas(r: dict[str, Any]) -> tuple[list[dict[str, str]], str]:
    """A ``Comparison.metrics`` row as labelled values in A and B and the change with its
    interval (shares change in percentage points)."""
    out = []
    for key, label, kind in DELTA_METRICS:
        change = "pp" if kind == "pct" else kind
        out.append({
            "label": label,
            "a": fmt.show(r.get(f"{key}_a"), kind, kind == "pts"),
            "b": fmt.show(r.get(f"{key}_b"), kind, kind == "pts"),
            "delta": fmt.show(r.get(f"{key}_delta"), change, True),
            "span": fmt.interval(r.get(f"{key}_delta_lo"), r.get(f"{key}_delta_hi"), change,
                                 True),
        })
    return out, str(r.get("flag") or "")


def _unplayed(inputs: ReportInputs, rows: list[dict[str, Any]]) -> list[str]:
    played = {str(r.get("group")) for r in rows}
    return [c.name for c in (inputs.cards or {}).values() if c.id not in played]
