"""A team trial's table: what holding each card is worth to a team of the preset's mode.

The team trial (``saki trial --kind team``, :mod:`pipeline.sim.team_trial`) leaves, per card,
a ``team_pairs`` table: every hand of the seat whose team held the card, and on the hands its
bot picked the card, the same hand played with the bot's next choice. Per card:

- ``team_value``: the mean over all the holder's hands of the card's gain over the next choice
  (0 on the hands it was not picked), in points per hand by the pairs' value rule (with the
  quarter share of what a hand left on the table, :mod:`pipeline.sim.pair_value`), with a 95%
  interval clustered by match (``team_lo``, ``team_hi``, ``team_se``, ``half_width``); null
  interval and ``degenerate`` when no pair differed;
- ``pick_share``: the share of the holder's hands in which the card was picked
  (``held_share``: ... in which the team held it, 1 in the standard mode);
- ``pick_gain``: the mean gain over the next choice on the hands it was picked, with its
  interval (``pick_gain_lo``, ``pick_gain_hi``), clustered by match;
- ``hold_to_pick``: ``team_value / pick_gain``, the share of the gain when picked that holding
  the card keeps (the pick share when the card stays in the team all match; a card picked
  where the next choice would have done as well keeps less than its pick share says);
- ``second_choice``: the character most often picked in its place.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.analytics.intervals import mean_by_group
from pipeline.analytics.paired import pair_value_expr
from pipeline.analytics.render import _clean, _pct, _pts, _span
from pipeline.analytics.runs import AnalyticsError
from pipeline.analytics.trial import card_tables, read_trial_doc
from pipeline.analytics.verdict import with_verdicts
from pipeline.sim.team_trial import KIND, TEAM_PAIRS, as_pairs
from pipeline.sim.trial import changed_magnitude
from pipeline.verdicts import BandSpec, Evidence, Reference, decide

COLUMNS = ("card", "name", "hands", "matches", "team_value", "team_lo", "team_hi", "team_se",
           "half_width", "changed", "degenerate", "pick_share", "held_share", "picked_hands",
           "pick_gain", "pick_gain_lo", "pick_gain_hi", "hold_to_pick", "second_choice")


def team_table(out: Path, cards: tuple[str, ...] | None = None) -> pl.DataFrame:
    """One row per card (``cards``, default every card measured in the folder), the columns
    of :data:`COLUMNS`, from the blocks the team trial measured."""
    doc = read_trial_doc(out)
    if doc.get("kind") != KIND:
        raise AnalyticsError(f"{out}: a card trial, not a team trial; team values come from "
                             "'saki trial --kind team' (into another --out)")
    blocks = doc.get("blocks", {})
    names = doc.get("names", {})
    block = int(doc.get("block", 4))
    cards = tuple(cards) if cards is not None else tuple(blocks)
    rows = []
    for card in cards:
        if card not in blocks:
            raise AnalyticsError(f"{out}: card {card!r} was not tried here; run "
                                 f"'saki trial --kind team --only {card}' with this --out")
        pairs = card_tables(out, card, int(blocks[card]), (TEAM_PAIRS,)).get(TEAM_PAIRS)
        row = team_row(card, pairs if pairs is not None else pl.DataFrame(), block)
        rows.append({**row, "name": names.get(card, card)})
    return pl.DataFrame(rows, schema=_schema(), orient="row")


def _schema() -> dict[str, pl.DataType]:
    text = {"card", "name", "second_choice"}
    ints = {"hands", "matches", "changed", "picked_hands"}
    return {c: (pl.String if c in text else pl.Boolean if c == "degenerate"
                else pl.Int64 if c in ints else pl.Float64) for c in COLUMNS}


def team_row(card: str, team_pairs: pl.DataFrame, block: int = 4) -> dict:
    """One card's row from its ``team_pairs`` (every hand of its holder)."""
    if not team_pairs.height:
        return {c: None for c in COLUMNS} | {"card": card, "hands": 0, "matches": 0,
                                             "changed": 0, "degenerate": True,
                                             "picked_hands": 0}
    pairs = as_pairs(team_pairs)
    value = pair_value_expr(pairs.columns)
    picked = pl.col("picked_card")
    clusters = (pairs.group_by("match_id")
                .agg(s=value.sum(), n=pl.len(), sp=(value * picked.cast(pl.Float64)).sum(),
                     n_p=picked.sum())
                .sort("match_id").with_columns(card=pl.lit(card)))
    team = mean_by_group(clusters, "card", "s", "n").row(0, named=True)
    changed = int(pairs.select((value != 0).sum()).item())
    degenerate = changed == 0
    picked_hands = int(pairs["picked_card"].sum())
    gain = (mean_by_group(clusters.filter(pl.col("n_p") > 0), "card", "sp", "n_p")
            .row(0, named=True) if picked_hands else None)
    gain_value = gain["mean"] if gain else None
    lo, hi = (None, None) if degenerate else (team["lo"], team["hi"])
    half = (hi - lo) / 2 if lo is not None and hi is not None else None
    alternatives = pairs.filter(pl.col("alternative").is_not_null())["alternative"]
    second = (alternatives.value_counts(sort=True).sort(["count", "alternative"],
                                                        descending=[True, False])
              ["alternative"][0] if alternatives.len() else None)
    return {
        "card": card, "name": card, "hands": pairs.height,
        "matches": int(pairs["match_id"].n_unique()),
        "team_value": team["mean"], "team_lo": lo, "team_hi": hi,
        "team_se": None if degenerate else team["se"],
        "half_width": half if half is None or math.isfinite(half) else None,
        "changed": changed, "degenerate": degenerate,
        "pick_share": picked_hands / pairs.height,
        "held_share": float(pairs["held"].cast(pl.Float64).mean()),
        "picked_hands": picked_hands,
        "pick_gain": gain_value,
        "pick_gain_lo": gain["lo"] if gain and not degenerate else None,
        "pick_gain_hi": gain["hi"] if gain and not degenerate else None,
        "hold_to_pick": (team["mean"] / gain_value if gain_value else None),
        "second_choice": second,
    }


def team_band_table(out: Path, band: BandSpec | None = None,
                    cards: tuple[str, ...] | None = None) -> pl.DataFrame:
    """:func:`team_table` with each card's verdict on its worth in a team (the columns of
    :data:`pipeline.analytics.verdict.VERDICT_COLUMNS`): against the team band, the deck's
    average team value +/- the threshold when the folder measured every card of the deck
    (its own band: team values are read against team values only), or an absolute band;
    without either, every card is undecided and says why. The statistics are the ability
    verdicts' (:func:`pipeline.verdicts.decide`), on ``team_value`` and ``team_se``."""
    band = band or BandSpec()
    doc = read_trial_doc(out)
    table = team_table(out, cards)
    measured = doc.get("blocks", {})
    deck = list(doc.get("deck") or [])
    reference, whole = None, bool(deck) and set(deck) <= set(measured)
    frames = {c: as_pairs(card_tables(out, c, int(measured[c]), (TEAM_PAIRS,))[TEAM_PAIRS])
              for c in (deck if whole else list(table["card"]))}
    if whole and not band.absolute:
        rows = table if set(deck) <= set(table["card"]) else team_table(out, tuple(deck))
        rows = rows.filter(pl.col("card").is_in(deck))
        reference = Reference.of({r["card"]: (r["team_value"], _num(r["team_se"]))
                                  for r in rows.iter_rows(named=True)},
                                 f"this team trial's {len(deck)} cards")
    magnitude = changed_magnitude(frames.values())
    evidence = [Evidence(r["card"], r["team_value"], _num(r["team_se"]), r["matches"],
                         r["hands"], r["changed"], 1, magnitude)
                for r in table.iter_rows(named=True)]
    verdicts = decide(evidence, band, reference)
    if reference is None and not band.absolute:  # say what would give the team band
        verdicts = [dataclasses.replace(v, reason="no team values of the whole deck to "
                                        "measure the team band from: run 'saki trial --kind "
                                        "team' on every card (or give --band LO:HI)")
                    for v in verdicts]
    return with_verdicts(table, verdicts, band, reference)


def _num(x: float | None) -> float:
    return math.nan if x is None else float(x)


def render_team(df: pl.DataFrame, fmt: str, config: dict[str, Any] | None = None) -> str:
    """``table`` (one line per card) or ``json`` (``kind: team``, the configuration the rows
    belong to, one row per card)."""
    if fmt == "json":
        import json

        return json.dumps({"kind": KIND, **({"config": config} if config else {}),
                           "rows": [_clean(r) for r in df.to_dicts()]}, indent=2)
    judged = "verdict" in df.columns
    head = ("card", "worth in a team", "95% interval", "picked", "gain when picked",
            "95% interval", "hold/pick", "next choice", "hands", *(("verdict",) if judged
                                                                   else ()))
    rows = [head]
    for r in df.sort("team_value", descending=True, nulls_last=True).to_dicts():
        interval = "no pair differed" if r["degenerate"] else _span(r["team_lo"], r["team_hi"])
        gain = "-" if r["pick_gain"] is None else _pts(r["pick_gain"])
        gain_span = "" if r["pick_gain_lo"] is None else _span(r["pick_gain_lo"],
                                                               r["pick_gain_hi"])
        ratio = "-" if r["hold_to_pick"] is None else f"{r['hold_to_pick']:.2f}"
        rows.append((r["name"], _pts(r["team_value"]), interval, _pct(r["pick_share"]), gain,
                     gain_span, ratio, r["second_choice"] or "-", f"{r['hands']:,}",
                     *((r["verdict"].replace("_", " "),) if judged else ())))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(head))]
    lines = ["Worth in a team: points per hand of the holder over its next choice of "
             "character (0 on hands the card is not picked)", ""]
    lines += ["  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip()
              for row in rows]
    if judged and df.height:
        first = df.row(0, named=True)
        if first["band_lo"] is not None:
            lines += ["", f"team band {_pts(first['band_lo'])} to {_pts(first['band_hi'])} "
                      f"({first['reference']})"]
        else:
            lines += ["", f"no verdicts: {first['reason']}"]
    return "\n".join(lines)


__all__ = ["COLUMNS", "render_team", "team_band_table", "team_row", "team_table"]
