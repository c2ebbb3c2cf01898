"""Synthetic runs with planted effects of known size, for checking the statistics and timing.

A real run cannot say whether a figure is right: nobody knows the true strength of a character.
A synthetic run can. Its tables have the schema of :mod:`pipeline.sim.tables` and the folder
layout of a real run (``run.json``, shards, manifests), but the hands are drawn from a simple
model whose answers are known in closed form:

- each match deals every seat ``team_size`` distinct characters for the whole match; with two
  cards a seat picks each hand, preferring a card in proportion to its ``pick_weight``;
- a hand is an exhaustive draw with probability ``draw_rate`` (each seat tenpai with
  probability 0.4, noten payments of 3,000 in total), else exactly one seat wins, chosen in
  proportion to the ``win_weight`` of the characters picked; the win is a tsumo with
  probability ``tsumo_rate`` (the others pay a third each), else a ron off one of the three
  others, equally likely; its value is drawn from ``VALUES``; no honba, no sticks;
- with ``seat_luck``, each seat's win weight is also multiplied, for a whole match, by a
  log-normal factor: hands of one match are then alike, as in real play, and intervals that
  treat hands as independent come out too narrow.

With one character X of win weight ``w`` and three of weight 1 at the table, X wins a hand that
has a winner with probability ``q = w / (w + 3)`` and pays, on average, a third of every other
win, so its expected net points per hand are ``(1 - draw_rate) * mean(VALUES) * (q - (1 - q) / 3)``;
every hand sums to zero, so that is also its expected difference from the field.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.rules.preset import load_preset
from pipeline.sim.tables import SCHEMA_VERSION, TABLES

VALUES = (1500, 3000, 3900, 6000, 7800, 12000, 18000)  # all divisible by 3 (tsumo shares)
UMA = (15, 5, -5, -15)
OUTCOMES = ("tsumo_win", "ron_win", "dealt_in", "paid_tsumo", "none", "draw_tenpai",
            "draw_noten")
START = 25000
RETURN = 30000


@dataclass(frozen=True)
class SyntheticSpec:
    """What a synthetic run holds; see the module text for the model."""

    matches: int
    seed: int = 1
    hands_per_match: int = 8
    characters: tuple[str, ...] = tuple(f"char_{i:02d}" for i in range(12))
    team_size: int = 1
    win_weight: Mapping[str, float] = field(default_factory=dict)
    pick_weight: Mapping[str, float] = field(default_factory=dict)
    trigger_rate: Mapping[str, float] = field(default_factory=dict)  # per hand, values 0-2
    draw_rate: float = 0.15
    seat_luck: float = 0.0  # sd of a log win-weight factor per (match, seat): clustering
    tsumo_rate: float = 0.4
    shard_matches: int = 5000
    name: str = "synthetic"
    catalog: str = ""  # a catalog version whose card ids are used (names in tables), or ""
    cards: bool = True  # False: a run without cards (no character, empty teams, no triggers)

    def expected_swing(self, character: str) -> float:
        """Expected net points per hand of ``character`` when the other three weigh 1."""
        w = self.win_weight.get(character, 1.0)
        q = w / (w + 3)
        return (1 - self.draw_rate) * float(np.mean(VALUES)) * (q - (1 - q) / 3)


def write_synthetic_run(out: Path, spec: SyntheticSpec, *, status: str = "complete") -> Path:
    """Write a synthetic run folder (tables in shards of ``shard_matches`` matches, each with
    its manifest, then ``run.json``) and return its path. Memory stays bounded by one shard."""
    out = Path(out)
    if 4 * spec.team_size > len(spec.characters):
        raise ValueError(f"{len(spec.characters)} characters cannot fill 4 teams of "
                         f"{spec.team_size}")
    preset = load_preset("cards-hanchan").to_dict()
    preset["name"] = spec.name
    preset["cards"]["team_size"] = spec.team_size
    digest = hashlib.sha256(repr(spec).encode()).hexdigest()[:10]
    run_id = f"{spec.name}-s{spec.seed}-n{spec.matches}-{digest}"
    rng = np.random.default_rng(spec.seed)
    rows = dict.fromkeys(TABLES, 0)
    shards = 0
    for index, start in enumerate(range(0, spec.matches, spec.shard_matches)):
        stop = min(start + spec.shard_matches, spec.matches)
        frames = _shard(spec, run_id, start, stop, rng)
        _write_shard(out, run_id, index, start, stop, frames)
        for table, frame in frames.items():
            rows[table] += frame.height
        shards += 1
    meta = {
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id,
        "status": status,
        "preset": preset,
        "catalog": _catalog_info(spec.catalog, digest),
        "seed": spec.seed,
        "games": spec.matches,
        "bots": {"seats": ["synthetic"] * 4, "agent_seed": "numpy default_rng(seed)"},
        "shard_size": spec.shard_matches,
        "tables": {t: f"{t}/part-*.parquet" for t in TABLES},
        "shards": {"total": shards, "done": shards if status == "complete" else 0},
        "rows": rows,
    }
    (out / "run.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out


def _write_shard(out: Path, run_id: str, index: int, start: int, stop: int,
                 frames: dict[str, pl.DataFrame]) -> None:
    name = f"part-{index:05d}"
    entries = {}
    for table, frame in frames.items():
        buf = io.BytesIO()
        frame.write_parquet(buf, compression="zstd", statistics=True)
        data = buf.getvalue()
        rel = f"{table}/{name}.parquet"
        (out / table).mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
        entries[table] = {"file": rel, "rows": frame.height, "bytes": len(data),
                          "sha256": hashlib.sha256(data).hexdigest()}
    (out / "manifest").mkdir(parents=True, exist_ok=True)
    manifest = {"run_id": run_id, "shard": index, "matches": [start, stop], "tables": entries}
    (out / "manifest" / f"{name}.json").write_text(json.dumps(manifest, indent=1) + "\n")


def _shard(spec: SyntheticSpec, run_id: str, start: int, stop: int,
           rng: np.random.Generator) -> dict[str, pl.DataFrame]:
    m, h = stop - start, spec.hands_per_match
    chars = np.array(spec.characters, dtype=object)
    k = len(chars)
    ts = spec.team_size
    # deal: 4 * team_size distinct characters per match; teams[m, seat, card]
    dealt = np.argsort(rng.random((m, k)), axis=1)[:, :4 * ts].reshape(m, 4, ts)
    win_w = np.array([spec.win_weight.get(c, 1.0) for c in chars])
    pick_w = np.array([spec.pick_weight.get(c, 1.0) for c in chars])
    trig = np.array([spec.trigger_rate.get(c, 0.0) for c in chars])

    if ts == 1:
        pick = np.broadcast_to(dealt[:, None, :, 0], (m, h, 4))
    else:  # choose among the seat's cards in proportion to pick weight
        w = pick_w[dealt]                                    # (m, 4, ts)
        cum = np.cumsum(w, axis=2) / w.sum(axis=2, keepdims=True)
        u = rng.random((m, h, 4, 1))
        slot = (u > cum[:, None, :, :]).sum(axis=3)          # (m, h, 4)
        slot = np.minimum(slot, ts - 1)
        pick = np.take_along_axis(np.broadcast_to(dealt[:, None], (m, h, 4, ts)),
                                  slot[..., None], axis=3)[..., 0]

    ww = win_w[pick]                                         # (m, h, 4)
    if spec.seat_luck > 0:  # a seat's form in one match: its hands there move together
        ww = ww * np.exp(spec.seat_luck * rng.standard_normal((m, 1, 4)))
    cum = np.cumsum(ww, axis=2) / ww.sum(axis=2, keepdims=True)
    winner = np.minimum((rng.random((m, h, 1)) > cum).sum(axis=2), 3)   # (m, h)
    draw = rng.random((m, h)) < spec.draw_rate
    tsumo = rng.random((m, h)) < spec.tsumo_rate
    value = np.array(VALUES)[rng.integers(0, len(VALUES), (m, h))]
    discarder = (winner + rng.integers(1, 4, (m, h))) % 4
    seats = np.arange(4)[None, None, :]
    is_winner = seats == winner[..., None]
    is_discarder = (seats == discarder[..., None]) & ~tsumo[..., None]

    delta = np.zeros((m, h, 4), dtype=np.int64)
    delta += np.where(is_winner, value[..., None], 0)
    delta -= np.where(tsumo[..., None] & ~is_winner, value[..., None] // 3, 0)
    delta -= np.where(is_discarder, value[..., None], 0)
    tenpai_draw = rng.random((m, h, 4)) < 0.4
    n_ten = tenpai_draw.sum(axis=2, keepdims=True)
    paid = (n_ten > 0) & (n_ten < 4)
    safe_t, safe_n = np.maximum(n_ten, 1), np.maximum(4 - n_ten, 1)
    noten = np.where(paid, np.where(tenpai_draw, 3000 // safe_t, -(3000 // safe_n)), 0)
    delta = np.where(draw[..., None], noten, delta)

    outcome = np.where(  # codes into OUTCOMES
        draw[..., None], np.where(tenpai_draw, 5, 6),
        np.where(is_winner, np.where(tsumo[..., None], 0, 1),
                 np.where(is_discarder, 2, np.where(tsumo[..., None], 3, 4))))
    won = is_winner & ~draw[..., None]
    tenpai_end = np.where(draw[..., None], tenpai_draw, won | (rng.random((m, h, 4)) < 0.3))
    score_end = START + np.cumsum(delta, axis=1)
    score_start = score_end - delta
    triggers = rng.binomial(2, np.clip(trig[pick] / 2, 0, 1)) * spec.cards

    n = m * h * 4
    match_id = np.broadcast_to(np.arange(start, stop)[:, None, None], (m, h, 4)).ravel()
    hand_index = np.broadcast_to(np.arange(h)[None, :, None], (m, h, 4)).ravel()
    seat = np.broadcast_to(seats, (m, h, 4)).ravel()
    dealer = np.broadcast_to((np.arange(h) % 4)[None, :, None], (m, h, 4)).ravel()
    value_b = np.broadcast_to(value[..., None], (m, h, 4)).ravel()
    won_f = won.ravel()
    winner_b = np.broadcast_to(winner[..., None], (m, h, 4)).ravel()
    win_from = np.where(np.broadcast_to(tsumo[..., None], (m, h, 4)).ravel(), winner_b,
                        np.broadcast_to(discarder[..., None], (m, h, 4)).ravel())
    hands = pl.DataFrame({
        "run_id": pl.repeat(run_id, n, eager=True, dtype=pl.String),
        "match_id": match_id.astype(np.int32),
        "hand_index": hand_index.astype(np.int16),
        "round_wind": _text(("East", "South"), hand_index >= 4),
        "hand_number": (hand_index % 4 + 1).astype(np.int8),
        "honba": np.zeros(n, dtype=np.int16),
        "sticks_start": np.zeros(n, dtype=np.int16),
        "dealer": dealer.astype(np.int8),
        "seat": seat.astype(np.int8),
        "is_dealer": seat == dealer,
        "bot": pl.repeat("synthetic", n, eager=True, dtype=pl.String),
        "character": _text(chars, pick.ravel()) if spec.cards
        else pl.repeat(None, n, eager=True, dtype=pl.String),
        "start_score": score_start.ravel().astype(np.int32),
        "end_score": score_end.ravel().astype(np.int32),
        "delta": delta.ravel().astype(np.int32),
        "outcome": _text(OUTCOMES, outcome.ravel()),
        "win_han": pl.Series(np.where(won_f, 3, 0).astype(np.int16)),
        "win_fu": pl.Series(np.where(won_f, 30, 0).astype(np.int16)),
        "win_points": pl.Series(np.where(won_f, value_b, 0).astype(np.int32)),
        "win_limit": _text(("none",), np.zeros(n, dtype=np.int64)),
        "win_yakuman": np.zeros(n, dtype=np.int8),
        "win_from": pl.Series(win_from.astype(np.int8)),
        "riichi": rng.random(n) < 0.2,
        "riichi_turn": pl.Series(rng.integers(1, 18, n).astype(np.int16)),
        "calls": (rng.random(n) < 0.3).astype(np.int16),
        "kans": np.zeros(n, dtype=np.int16),
        "tenpai_end": tenpai_end.ravel(),
        "turns": rng.integers(5, 18, n).astype(np.int16),
        "ability_triggers": triggers.ravel().astype(np.int16),
        "sticks_end": np.zeros(n, dtype=np.int16),
        "draw_kind": _text(("", "exhaustive"),
                           np.broadcast_to(draw[..., None], (m, h, 4)).ravel()),
    })
    hands = hands.with_columns(
        *(pl.when(pl.Series(won_f)).then(pl.col(c)).otherwise(None).alias(c)
          for c in ("win_han", "win_fu", "win_points", "win_limit", "win_yakuman", "win_from")),
        pl.when(pl.col("riichi")).then(pl.col("riichi_turn")).otherwise(None)
        .alias("riichi_turn"),
        pl.when(pl.col("draw_kind") == "").then(None).otherwise(pl.col("draw_kind"))
        .alias("draw_kind"),
        yaku=pl.repeat(pl.lit([], dtype=pl.List(pl.String)), n),
        dora=pl.when(pl.Series(won_f)).then(pl.lit(1, dtype=pl.Int16)).otherwise(None),
    ).pipe(_conform, "hands")

    dealt_hand = np.broadcast_to(dealt[:, None], (m, h, 4, ts)).reshape(n, ts)
    picks = pl.DataFrame({
        "run_id": hands["run_id"], "match_id": hands["match_id"],
        "hand_index": hands["hand_index"], "seat": hands["seat"],
        **{f"t{i}": _text(chars, dealt_hand[:, i]) for i in range(ts)},
        "character": hands["character"],
    }).with_columns(team=pl.concat_list([f"t{i}" for i in range(ts)]) if spec.cards
                    else pl.lit([], dtype=pl.List(pl.String))
                    ).pipe(_conform, "picks")

    t = triggers.ravel()
    rep = np.repeat(np.arange(n), t)
    valued = rng.random(len(rep)) < 0.5
    details = [f"scoring: +1 han, +2000 points ({c})" for c in chars]
    details += [f"{c}: extra turn" for c in chars]
    detail = _text(details, pick.ravel()[rep] + np.where(valued, 0, k))
    seq = np.arange(len(rep)) - np.repeat(np.cumsum(t) - t, t)
    events = pl.DataFrame({
        "run_id": pl.repeat(run_id, len(rep), eager=True, dtype=pl.String),
        "match_id": match_id[rep], "hand_index": hand_index[rep], "seq": seq,
        "seat": seat[rep], "kind": pl.repeat("ability", len(rep), eager=True,
                                             dtype=pl.String),
        "tile": pl.repeat(None, len(rep), eager=True, dtype=pl.String),
        "detail": detail,
        "card": chars[pick.ravel()[rep]].astype(str),
        "card_seat": seat[rep],
        "effect": np.where(valued, "points", "play"),
    }).pipe(_conform, "events")

    final = score_end[:, -1, :]                              # (m, 4)
    order = np.argsort(-final * 8 + np.arange(4)[None, :], axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, 5)[None, :], axis=1)
    result = (final - RETURN) / 1000 + np.array(UMA)[rank - 1]
    result = np.round(result, 1)
    first = rank == 1
    others = np.where(first, 0.0, result).sum(axis=1, keepdims=True)
    result = np.where(first, -others, result)
    last_team = dealt.reshape(m * 4, ts)
    matches = pl.DataFrame({
        "run_id": pl.repeat(run_id, m * 4, eager=True, dtype=pl.String),
        "match_id": np.repeat(np.arange(start, stop), 4).astype(np.int32),
        "seat": np.tile(np.arange(4), m).astype(np.int8),
        "bot": pl.repeat("synthetic", m * 4, eager=True, dtype=pl.String),
        **{f"t{i}": _text(chars, last_team[:, i]) for i in range(ts)},
        "final_score": final.ravel().astype(np.int32),
        "rank": rank.ravel().astype(np.int8),
        "result": np.round(result.ravel(), 1),
        "hands_played": np.full(m * 4, h, dtype=np.int16),
        "leftover_sticks": np.zeros(m * 4, dtype=np.int16),
    }).with_columns(character_team=pl.concat_list([f"t{i}" for i in range(ts)]) if spec.cards
                    else pl.lit([], dtype=pl.List(pl.String))
                    ).pipe(_conform, "matches")
    return {"hands": hands, "matches": matches, "events": events, "picks": picks}


def _conform(frame: pl.DataFrame, table: str) -> pl.DataFrame:
    """The table's columns in schema order and type; a column this model does not describe
    (one added to the schema later) is 0 for numbers, null otherwise."""
    schema = TABLES[table]
    missing = [pl.lit(0 if dtype.is_numeric() else None).cast(dtype).alias(name)
               for name, dtype in schema.items() if name not in frame.columns]
    return frame.with_columns(missing).select(list(schema)).cast(schema)


def _text(values: object, codes: np.ndarray) -> pl.Series:
    """Strings by code: ``values[codes]`` built inside polars (fast for millions of rows)."""
    return pl.Series(list(values), dtype=pl.String).gather(pl.Series(codes.astype(np.int64)))


def _catalog_info(version: str, digest: str) -> dict[str, str]:
    if not version:
        return {"version": "synthetic", "content_hash": digest}
    from pipeline.cards.catalog import load_catalog

    return {"version": version, "content_hash": load_catalog(version).content_hash()}


def catalog_ids(count: int) -> tuple[str, ...]:
    """The first ``count`` card ids of catalog 1.2 (so tables show real card names)."""
    from pipeline.cards.catalog import load_catalog

    ids = load_catalog("1.2").ids
    return tuple(ids[:count])


__all__ = ["VALUES", "SyntheticSpec", "catalog_ids", "write_synthetic_run"]
