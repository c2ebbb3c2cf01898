"""A card trial's table: each card's ability value and how its holder played.

The trial (``saki trial``, :mod:`pipeline.sim.trial`) leaves, per card, a run's tables for the
matches in which one seat (``match % 4``) held that card alone, and a ``pairs`` table with each
of that seat's hands played again without the ability. Per card:

- ``value``: the card's worth in points per hand over whole matches (the holder's final score
  with the ability minus with it off for the whole match, per hand: :mod:`pipeline.sim.card_value`,
  the one definition), with a 95% interval clustered by match (``value_lo``, ``value_hi``,
  ``value_se``, ``half_width``); a folder written before the whole-match arm gives the pairs'
  value there. When no pair differs at all the spread is zero, which says nothing about the
  ability (it never acted, or never moved points): ``degenerate`` is true, the interval is
  null, never a certain zero, and ``changed`` (pairs that differ) is 0;
- ``replayed``: the hands replayed without the ability, which ``changed``, the pair value and
  the rates without the ability are read from (a card's first matches,
  :data:`pipeline.sim.trial.REPLAYED_BLOCKS` blocks, or every hand of a card whose replays
  changed few hands; ``hands`` counts every hand the holder played);
- ``pair_value`` (``pair_lo``, ``pair_hi``, ``pair_se``): the mean of the pairs' values, the
  hand's ability value (points per hand with the ability minus without, same deal, with a
  quarter of the points it left on the table: :mod:`pipeline.analytics.paired`);
- from the whole-match arm (:func:`whole_columns`): ``whole_value`` (= ``value``),
  ``placement_value`` and ``rank_gain``, each with its interval;
- the holder's rates with the ability (the real hands): ``win_rate``, ``deal_in_rate``,
  ``call_rate`` (hands with at least one call), ``riichi_rate``, and ``win_rate_without``,
  ``deal_in_rate_without`` from the replays;
- ``placement`` (mean rank, 1 = first) and ``result`` (mean final result with uma) of the
  holder in those matches, ``points_per_hand`` (its mean delta with the ability);
- ``triggers_per_hand``: the holder's card's events that changed play or points, per hand
  (wherever they landed); ``bookkeeping_per_hand``, ``offers_per_hand`` and
  ``offers_taken_per_hand``: its bookkeeping events, the optional choices it was offered and
  those it took.

Only the blocks the trial measured (``trial.json``) are read, through the shards' manifests,
each file checked against its size and sha256 as for a run.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from functools import lru_cache
from pathlib import Path

import polars as pl

from pipeline.analytics.intervals import mean_by_group
from pipeline.analytics.paired import pair_value_expr
from pipeline.analytics.runs import MANIFEST_DIR, AnalyticsError
from pipeline.sim import SimError
from pipeline.sim.card_value import check_measure, pair_clusters, value_clusters
from pipeline.sim.provenance import MismatchError, of_folder

TRIAL_FILE = "trial.json"
CARDS_DIR = "cards"
BLOCK = 4
_WINS = ("tsumo_win", "ron_win")

# A measure's columns: its estimate, 95% interval and standard error (see :func:`_measured`).
WHOLE_MEASURES = {"whole": "whole_value", "placement": "placement_value", "rank": "rank_gain"}
_MEASURED = tuple(f"{prefix}{suffix}" for prefix in ("whole", "placement", "rank")
                  for suffix in (("_value" if prefix != "rank" else "_gain"), "_lo", "_hi", "_se"))
WHOLE_COLUMNS = (*_MEASURED, "whole_matches")  # read from the whole-match arm

PAIR_COLUMNS = ("pair_value", "pair_lo", "pair_hi", "pair_se")

COLUMNS = ("card", "name", "hands", "matches", "value", "value_lo", "value_hi", "value_se",
           "half_width", "changed", "replayed", "degenerate", *PAIR_COLUMNS, *WHOLE_COLUMNS,
           "win_rate", "win_rate_without",
           "deal_in_rate", "deal_in_rate_without", "call_rate", "riichi_rate", "placement",
           "result", "points_per_hand", "triggers_per_hand", "bookkeeping_per_hand",
           "offers_per_hand", "offers_taken_per_hand")


def read_trial_doc(out: Path) -> dict:
    path = Path(out) / TRIAL_FILE
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise AnalyticsError(f"{out}: no trial here (no {TRIAL_FILE}); run 'saki trial' "
                             "first") from None
    except (OSError, ValueError) as exc:
        raise AnalyticsError(f"{path}: unreadable ({exc})") from None


def card_tables(out: Path, card: str, blocks: int, tables: tuple[str, ...]
                ) -> dict[str, pl.DataFrame]:
    """The card's tables over its first ``blocks`` blocks, from intact shards only."""
    folder = Path(out) / CARDS_DIR / card
    frames: dict[str, list[pl.DataFrame]] = {t: [] for t in tables}
    for block in range(blocks):
        manifest_path = folder / MANIFEST_DIR / f"part-{block:05d}.json"
        try:
            manifest = json.loads(manifest_path.read_text())
        except (OSError, ValueError):
            raise AnalyticsError(f"{manifest_path}: missing or unreadable; run the trial "
                                 "command again to finish it") from None
        for table in tables:
            entry = manifest["tables"].get(table)
            if entry is None:  # a table this folder's shards were written without
                continue
            try:
                data = (folder / entry["file"]).read_bytes()
            except OSError as exc:
                raise AnalyticsError(f"{folder / entry['file']}: listed in {manifest_path.name} "
                                     f"but cannot be read ({exc.strerror or exc}); run the "
                                     "trial command again to play it again") from None
            if len(data) != entry["bytes"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
                raise AnalyticsError(f"{folder / entry['file']}: damaged (does not match its "
                                     "manifest); run the trial command again to redo it")
            frames[table].append(pl.read_parquet(io.BytesIO(data)))
    return {t: pl.concat(f, how="vertical") for t, f in frames.items() if f}


def trial_table(out: Path, cards: tuple[str, ...] | None = None) -> pl.DataFrame:
    """One row per card (``cards``, default every card measured in the folder), the columns
    of :data:`COLUMNS`."""
    doc = read_trial_doc(out)
    if doc.get("kind") == "team":  # its shards hold team pairs (pipeline.analytics.team)
        raise AnalyticsError(f"{out}: a team trial (saki trial --kind team), which holds "
                             "worth in a team, not ability values; give a card trial's folder")
    blocks = doc.get("blocks", {})
    names = doc.get("names", {})
    cards = tuple(cards) if cards is not None else tuple(blocks)  # every card measured here
    rows = []
    for card in cards:
        if card not in blocks:
            raise AnalyticsError(f"{out}: card {card!r} was not tried here; run "
                                 f"'saki trial --only {card}' with this --out")
        rows.append({**_measured_row(Path(out), card, int(blocks[card]),
                                     int(doc.get("block", BLOCK))),
                     "name": names.get(card, card)})
    return pl.DataFrame(rows, schema=_schema(), orient="row")


def _measured_row(out: Path, card: str, blocks: int, block: int) -> dict:
    """A card's row, kept while its shards stay as they are (a report and the job that wrote
    it read the same trial more than once; reading a deck's shards costs seconds)."""
    return dict(_row_of(str(out.resolve()), card, blocks, block, _stamp(out / CARDS_DIR / card)))


def _stamp(folder: Path) -> tuple[int, int, int]:
    """The card folder's files as they are (count, latest change, total size): a shard
    written, replaced or damaged changes it."""
    count = latest = size = 0
    for path in folder.glob("*/part-*"):
        try:
            st = path.stat()
        except OSError:
            continue
        count, latest, size = count + 1, max(latest, st.st_mtime_ns), size + st.st_size
    return count, latest, size


@lru_cache(maxsize=512)
def _row_of(out: str, card: str, blocks: int, block: int, stamp: tuple[int, int, int]
            ) -> tuple:
    t = card_tables(Path(out), card, blocks, ("pairs", "hands", "matches", "whole"))
    return tuple(_card_row(card, t, block).items())


def in_measure(table: pl.DataFrame, measure: str = "points") -> pl.DataFrame:
    """The trial table with ``value``, ``value_lo``, ``value_hi``, ``value_se`` and
    ``half_width`` in ``measure`` (:data:`pipeline.sim.card_value.MEASURES`): ``points`` as
    read, ``placement`` the placement value's (result points per match), and ``measure``
    naming it. A table without placement values (an older folder) is an error."""
    try:
        check_measure(measure)
    except SimError as exc:
        raise AnalyticsError(str(exc)) from None
    if measure == "placement":
        missing = table.filter(pl.col("placement_value").is_null())["card"].to_list()
        if missing:
            raise AnalyticsError(f"no placement value for {', '.join(missing)}: the trial was "
                                 "written before its matches were played to the end without "
                                 "the ability; play it again with 'saki trial' and the same "
                                 "--out, or use --measure points")
        table = table.with_columns(
            value=pl.col("placement_value"), value_lo=pl.col("placement_lo"),
            value_hi=pl.col("placement_hi"), value_se=pl.col("placement_se"),
            half_width=(pl.col("placement_hi") - pl.col("placement_lo")) / 2)
    return table.with_columns(measure=pl.lit(measure))


def _schema() -> dict[str, pl.DataType]:
    ints = {"hands", "matches", "changed", "replayed", "whole_matches"}
    schema: dict[str, pl.DataType] = {}
    for c in COLUMNS:
        schema[c] = (pl.String if c in ("card", "name") else pl.Boolean if c == "degenerate"
                     else pl.Int64 if c in ints else pl.Float64)
    return schema


def _card_row(card: str, t: dict[str, pl.DataFrame], block: int = BLOCK) -> dict:
    """The holder's seat is the match index modulo the block (one match a seat: 4, or 3)."""
    pairs = t["pairs"]
    whole = t.get("whole")
    hands = t["hands"].filter(pl.col("seat") == pl.col("match_id") % block)
    matches = t["matches"].filter(pl.col("seat") == pl.col("match_id") % block)
    value = pair_value_expr(pairs.columns)
    pair = _estimate(pair_clusters(pairs), card)
    est = _estimate(value_clusters(pairs, whole), card)
    changed = int(pairs.select((value != 0).sum()).item())
    degenerate = changed == 0
    lo, hi = (None, None) if degenerate else (est["lo"], est["hi"])
    se = None if degenerate else est["se"]
    n = hands.height

    def share(frame: pl.DataFrame, expr: pl.Expr) -> float | None:
        return float(frame.select(expr.cast(pl.Float64).mean()).item()) if frame.height \
            else None

    half = (hi - lo) / 2 if lo is not None and hi is not None else None
    return {
        "card": card, "name": card, "hands": n, "matches": matches.height,
        "value": est["mean"], "value_lo": lo, "value_hi": hi, "value_se": se,
        "half_width": half if half is None or math.isfinite(half) else None,
        "changed": changed, "replayed": pairs.height, "degenerate": degenerate,
        "pair_value": pair["mean"], "pair_lo": None if degenerate else pair["lo"],
        "pair_hi": None if degenerate else pair["hi"], "pair_se": None if degenerate
        else pair["se"],
        **whole_columns(whole, card),
        "win_rate": share(hands, pl.col("outcome").is_in(_WINS)),
        "win_rate_without": share(pairs, pl.col("outcome_without").is_in(_WINS)),
        "deal_in_rate": share(hands, pl.col("outcome") == "dealt_in"),
        "deal_in_rate_without": share(pairs, pl.col("outcome_without") == "dealt_in"),
        "call_rate": share(hands, pl.col("calls") > 0),
        "riichi_rate": share(hands, pl.col("riichi")),
        "placement": share(matches, pl.col("rank")),
        "result": share(matches, pl.col("result")),
        "points_per_hand": share(hands, pl.col("delta")),
        **{f"{name}_per_hand": (float(hands[column].sum()) / n) if n and column in
           hands.columns else None
           for name, column in (("triggers", "ability_triggers"),
                                ("bookkeeping", "ability_bookkeeping"),
                                ("offers", "offers"), ("offers_taken", "offers_taken"))},
    }


def _estimate(clusters: pl.DataFrame, card: str) -> dict:
    """``mean``, ``lo``, ``hi``, ``se`` of a card's value from its match clusters."""
    return mean_by_group(clusters.with_columns(card=pl.lit(card)), "card", "s", "n").row(
        0, named=True)


def whole_columns(whole: pl.DataFrame | None, card: str) -> dict[str, float | int | None]:
    """The card's worth over whole matches, each match played to its end with the ability and
    again with it off throughout (the ``whole`` table), paired by match (one cluster each):

    - ``whole_value``: the holder's final score with minus without, per hand of the match with
      the ability (points per hand, like ``value``, but counting what the ability changed after
      each hand: stakes and sticks collected later, floors, match-end duties);
    - ``placement_value``: the holder's final result (the preset's uma and oka) with minus
      without, per match;
    - ``rank_gain``: the holder's final rank with minus without, per match (negative: places
      gained).

    Each with its 95% interval (``_lo``, ``_hi``) and standard error (``_se``); null without a
    ``whole`` table (a trial folder written before it) or with fewer than two matches."""
    out: dict[str, float | int | None] = {c: None for c in _MEASURED}
    out["whole_matches"] = 0 if whole is None else whole.height
    if whole is None or not whole.height:
        return out
    diff = {"whole": ("final_score", "hands_with"), "placement": ("result", None),
            "rank": ("rank", None)}
    for prefix, (column, weight) in diff.items():
        clusters = whole.select(
            "match_id", card=pl.lit(card),
            s=(pl.col(f"{column}_with").cast(pl.Float64)
               - pl.col(f"{column}_without").cast(pl.Float64)),
            n=(pl.col(weight).cast(pl.Float64) if weight else pl.lit(1.0))).sort("match_id")
        est = mean_by_group(clusters, "card", "s", "n").row(0, named=True)
        name = WHOLE_MEASURES[prefix]
        out[name] = est["mean"]
        for key in ("lo", "hi", "se"):
            value = est[key]
            out[f"{prefix}_{key}"] = value if value is not None and math.isfinite(value) \
                else None
    return out


MIN_TRIAL_MATCHES = 16  # fewer clusters: the clustered interval itself is unreliable
MIN_CHANGED = 10        # fewer pairs that differ: an interval too narrow to trust
DEFAULT_THRESHOLD = 300.0


def trial_flags(df: pl.DataFrame, threshold: float = DEFAULT_THRESHOLD) -> pl.DataFrame:
    """Add each card's value relative to the deck's average card (``relative``,
    ``relative_lo``, ``relative_hi``, ``relative_se``), ``p_value``, ``q_value``
    (Benjamini-Hochberg across the cards judged) and ``flag``: ``strong`` / ``weak`` when
    q < 0.05 and the relative value is beyond ``threshold`` points per hand, ``not enough
    data`` for a card with fewer than 16 matches or fewer than 10 pairs that differed.

    The deck's average is the plain mean of the cards' values, the card included; its
    variance treats the cards' values as independent (they share deals, which makes the
    relative value's interval, if anything, a little wide)."""
    from pipeline.analytics.multitest import add_tests, flag_expr

    c = max(df.height, 1)
    se2 = df["value_se"].fill_null(0.0) ** 2
    mean = float(df["value"].mean()) if df.height else math.nan
    total = float(se2.sum())
    rel_se = ((1 - 1 / c) ** 2 * se2 + (total - se2) / (c * c)).sqrt()
    out = df.with_columns(
        relative=pl.col("value") - mean,
        relative_se=pl.when(pl.col("value_se").is_not_null()).then(rel_se),
        eligible=(pl.col("matches") >= MIN_TRIAL_MATCHES) & ~pl.col("degenerate")
        & (pl.col("changed") >= MIN_CHANGED) & pl.col("value_se").is_not_null())
    out = out.with_columns(relative_lo=pl.col("relative") - 1.96 * pl.col("relative_se"),
                           relative_hi=pl.col("relative") + 1.96 * pl.col("relative_se"))
    out = add_tests(out, "relative", "relative_se", "eligible")
    return out.with_columns(flag_expr("relative", "eligible", threshold, "strong", "weak"))


def card_clusters(out: Path, card: str, measure: str = "points") -> pl.DataFrame:
    """Per match of the card's measured blocks: ``s`` (the match's sum of the card's value in
    ``measure``, :mod:`pipeline.sim.card_value`) and ``n`` (its weight)."""
    blocks = int(read_trial_doc(out).get("blocks", {}).get(card, 0))
    if not blocks:
        raise AnalyticsError(f"{out}: card {card!r} was not tried here")
    t = card_tables(out, card, blocks, ("pairs", "whole"))
    try:
        return value_clusters(t["pairs"], t.get("whole"), measure)
    except SimError as exc:
        raise AnalyticsError(f"{out}: {exc}") from None


def value_difference(out_a: Path, out_b: Path, card: str, *, paired: bool,
                     measure: str = "points") -> dict:
    """The card's value in ``measure`` in trial B minus trial A: ``diff``, ``se``, ``lo``,
    ``hi``.

    ``paired`` (both trials of one seed: match ``i`` is dealt alike in both): the standard
    error of the linearised difference of the two means over match indices, ``u_i = (S_Bi -
    v_B n_Bi) / N_B - (S_Ai - v_A n_Ai) / N_A``, which counts the covariance of the two; else
    the two standard errors added in quadrature. Paired trials of another seed or player
    count (whose matches are not dealt alike) are refused."""
    if paired:
        one, two = of_folder(out_a, "trial"), of_folder(out_b, "trial")
        if (one.seed, one.players) != (two.seed, two.players):
            raise MismatchError(f"a paired difference needs two trials of one seed and player "
                                f"count: {one.describe()}; {two.describe()}")
    a, b = card_clusters(out_a, card, measure), card_clusters(out_b, card, measure)
    va, vb = a["s"].sum() / a["n"].sum(), b["s"].sum() / b["n"].sum()
    if paired:
        j = (a.join(b, on="match_id", how="full", coalesce=True, suffix="_b").fill_null(0.0)
             .sort("match_id"))
        u = ((j["s_b"] - vb * j["n_b"]) / b["n"].sum() - (j["s"] - va * j["n"]) / a["n"].sum())
        k = j.height
        se = math.sqrt(k / (k - 1) * float((u * u).sum())) if k > 1 else math.nan
    else:
        se = math.hypot(*(_se(c, v) for c, v in ((a, va), (b, vb))))
    diff = vb - va
    return {"diff": diff, "se": se, "lo": diff - 1.96 * se, "hi": diff + 1.96 * se}


def _se(c: pl.DataFrame, mean: float) -> float:
    k, n = c.height, c["n"].sum()
    if k < 2:
        return math.nan
    return math.sqrt(k / (k - 1) * float(((c["s"] - mean * c["n"]) ** 2).sum())) / n


__all__ = ["COLUMNS", "PAIR_COLUMNS", "WHOLE_COLUMNS", "WHOLE_MEASURES", "card_clusters",
           "card_tables", "in_measure", "read_trial_doc", "trial_flags", "trial_table",
           "value_difference", "whole_columns"]
