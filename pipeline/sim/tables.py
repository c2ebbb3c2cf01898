"""Table rows from finished matches, and the Parquet schema of every table of a run.

A run writes four tables (architecture decision 6); ``docs/data-dictionary.md`` gives every
column's meaning and unit:

- ``hands``: one row per seat per hand;
- ``matches``: one row per seat per match;
- ``events``: one row per notable event of a hand (win, abortive draw, riichi, call, kan);
- ``picks``: one row per seat per hand, the team a seat held and the character it picked;
- ``pairs`` (runs made with ``--paired`` only): one row per seat-hand played with a character,
  the hand's outcome with the ability and when the same deal is played again without it
  (:mod:`pipeline.sim.paired`);
- ``whole`` (card trials only): one row per match, the holder's final score, rank and result
  with its ability and with the ability off for the whole match (:mod:`pipeline.sim.whole_match`).

Rows depend only on the match (its index, its result) and the run id, so a shard of matches
builds the same tables whichever process plays it. Character columns stay null (and teams empty)
until the card layer takes part in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from pipeline.rules.actions import AbilityTag
from pipeline.rules.match import MatchResult
from pipeline.rules.records import AbilityEffect, Event, HandRecord
from pipeline.sim.paired import HandPair
from pipeline.tiles import WIND_NAMES, tile_to_str, type_to_str

# 2: characters, teams and ability triggers filled in card games; 3: the optional pairs table,
# stakes columns, "paired" and the catalog's cards in run.json; 4: ability events credited to
# the card that caused them (events.card, card_seat, effect), offers, face-down discards
SCHEMA_VERSION = 4

_I8, _I16, _I32 = pl.Int8, pl.Int16, pl.Int32
_STR = pl.String
_STRS = pl.List(pl.String)

HANDS_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "hand_index": _I16,
    "round_wind": _STR,
    "hand_number": _I8,
    "honba": _I16,
    "sticks_start": _I16,
    "dealer": _I8,
    "seat": _I8,
    "is_dealer": pl.Boolean,
    "bot": _STR,
    "character": _STR,
    "start_score": _I32,
    "end_score": _I32,
    "delta": _I32,
    "outcome": _STR,
    "win_han": _I16,
    "win_fu": _I16,
    "win_points": _I32,
    "win_limit": _STR,
    "win_yakuman": _I8,
    "win_from": _I8,
    "yaku": _STRS,
    "dora": _I16,
    "riichi": pl.Boolean,
    "riichi_turn": _I16,
    "calls": _I16,
    "kans": _I16,
    "tenpai_end": pl.Boolean,
    "turns": _I16,
    "ability_triggers": _I16,
    "ability_bookkeeping": _I16,
    "offers": _I16,
    "offers_taken": _I16,
    "sticks_end": _I16,
    "draw_kind": _STR,
    "stakes_start": _I32,
    "stakes_end": _I32,
}

MATCHES_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "seat": _I8,
    "bot": _STR,
    "character_team": _STRS,
    "final_score": _I32,
    "rank": _I8,
    "result": pl.Float64,
    "hands_played": _I16,
    "leftover_sticks": _I16,
    "leftover_stakes": _I32,
}

EVENTS_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "hand_index": _I16,
    "seq": _I16,
    "seat": _I8,
    "kind": _STR,
    "tile": _STR,
    "detail": _STR,
    "card": _STR,
    "card_seat": _I8,
    "effect": _STR,
}

PICKS_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "hand_index": _I16,
    "seat": _I8,
    "team": _STRS,
    "character": _STR,
}

PAIRS_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "hand_index": _I16,
    "seat": _I8,
    "bot": _STR,
    "character": _STR,
    "is_dealer": pl.Boolean,
    "honba": _I16,
    "sticks_start": _I16,
    "start_score": _I32,
    "delta_with": _I32,
    "delta_without": _I32,
    "delta_diff": _I32,
    "outcome_with": _STR,
    "outcome_without": _STR,
    "win_han_with": _I16,
    "win_han_without": _I16,
    "win_points_with": _I32,
    "win_points_without": _I32,
    "triggers_with": _I16,
    "same_moves": pl.Boolean,
    "sticks_end_with": _I16,
    "sticks_end_without": _I16,
    "stakes_start": _I32,
    "stakes_end_with": _I32,
    "stakes_end_without": _I32,
    "deltas_without": pl.List(_I32),
}

# The tables every run writes, in the order they are written and listed.
TABLES: dict[str, dict[str, pl.DataType]] = {
    "hands": HANDS_SCHEMA,
    "matches": MATCHES_SCHEMA,
    "events": EVENTS_SCHEMA,
    "picks": PICKS_SCHEMA,
}
# A card trial's holder, per match: the match played to its end with the ability and again,
# from the same deal and bot states, with the ability off for the whole match
# (:mod:`pipeline.sim.whole_match`).
WHOLE_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "seat": _I8,
    "character": _STR,
    "hands_with": _I16,
    "hands_without": _I16,
    "final_score_with": _I32,
    "final_score_without": _I32,
    "rank_with": _I8,
    "rank_without": _I8,
    "result_with": pl.Float64,
    "result_without": pl.Float64,
}

PAIRS = "pairs"
WHOLE = "whole"
# Every table a run may hold: the paired measurement adds one, a card trial one more.
ALL_TABLES: dict[str, dict[str, pl.DataType]] = {**TABLES, PAIRS: PAIRS_SCHEMA}
TRIAL_TABLES: dict[str, dict[str, pl.DataType]] = {**ALL_TABLES, WHOLE: WHOLE_SCHEMA}


def run_tables(paired: bool, whole: bool = False) -> dict[str, dict[str, pl.DataType]]:
    """The tables a run writes: the four of every run, plus ``pairs`` for a paired run and
    ``whole`` for a card trial's shard."""
    if whole:  # a trial's block past its replayed ones has no pairs
        return TRIAL_TABLES if paired else {k: v for k, v in TRIAL_TABLES.items() if k != PAIRS}
    return ALL_TABLES if paired else TABLES

# Engine log kinds that become event rows, and the table's kind for each.
def _team(rec: HandRecord, seat: int) -> list[str]:
    """The characters a seat held in this hand (empty in games without cards)."""
    return list(rec.teams["teams"][seat]) if rec.teams else []


_EVENT_KINDS = {
    "ability": "ability",
    "tsumo": "win",
    "ron": "win",
    "abort": "abortive_draw",
    "riichi": "riichi",
    "chi": "call",
    "pon": "call",
    "minkan": "kan",
    "ankan": "kan",
    "kakan": "kan",
    "offer": "offer",
}


class ShardRows:
    """Rows of the four tables for a block of matches, kept in play order."""

    def __init__(self, run_id: str, red_fives: bool = True, paired: bool = False,
                 whole: bool = False) -> None:
        self.run_id = run_id
        self.red_fives = red_fives
        self.tables = run_tables(paired, whole)
        self.rows: dict[str, list[dict[str, Any]]] = {name: [] for name in self.tables}

    def add_match(self, match_id: int, result: MatchResult, bots: Sequence[str],
                  pairs: Sequence[HandPair] = ()) -> None:
        """Add every row one finished match contributes (``pairs``: its paired replays)."""
        for hand_index, rec in enumerate(result.hands):
            self._add_hand(match_id, hand_index, rec, bots)
        for pair in pairs:
            self._add_pair(match_id, result.hands[pair.hand_index], pair, bots)
        for seat in range(len(result.final_scores)):
            self.rows["matches"].append({
                "run_id": self.run_id,
                "match_id": match_id,
                "seat": seat,
                "bot": bots[seat],
                "character_team": _team(result.hands[-1], seat) if result.hands else [],
                "final_score": result.final_scores[seat],
                "rank": result.ranks[seat],
                "result": float(result.results[seat]),
                "hands_played": len(result.hands),
                "leftover_sticks": result.leftover_sticks,
                "leftover_stakes": result.leftover_stakes,
            })

    def add_whole(self, match_id: int, seat: int, character: str, with_: MatchResult,
                  without: MatchResult) -> None:
        """The holder's match played to its end with its ability and without it."""
        self.rows[WHOLE].append({
            "run_id": self.run_id, "match_id": match_id, "seat": seat,
            "character": character,
            "hands_with": len(with_.hands), "hands_without": len(without.hands),
            "final_score_with": with_.final_scores[seat],
            "final_score_without": without.final_scores[seat],
            "rank_with": with_.ranks[seat], "rank_without": without.ranks[seat],
            "result_with": float(with_.results[seat]),
            "result_without": float(without.results[seat]),
        })

    def frames(self) -> dict[str, pl.DataFrame]:
        """The run's tables as data frames with their fixed schema."""
        return {name: pl.DataFrame(self.rows[name], schema=schema, orient="row")
                for name, schema in self.tables.items()}

    # -------------------------------------------------------------------------------------

    def _add_hand(self, match_id: int, hand_index: int, rec: HandRecord,
                  bots: Sequence[str]) -> None:
        wins = {w.seat: w for w in rec.wins}
        own = ability_counts(rec)
        for s in rec.seats:
            win = wins.get(s.seat)
            self.rows["hands"].append({
                "run_id": self.run_id,
                "match_id": match_id,
                "hand_index": hand_index,
                "round_wind": WIND_NAMES[rec.round_wind],
                "hand_number": rec.hand_number + 1,
                "honba": rec.honba,
                "sticks_start": rec.sticks_start,
                "dealer": rec.dealer,
                "seat": s.seat,
                "is_dealer": s.seat == rec.dealer,
                "bot": bots[s.seat],
                "character": rec.picks[s.seat] if rec.picks else None,
                "start_score": s.start_score,
                "end_score": s.end_score,
                "delta": s.delta,
                "outcome": s.outcome,
                "win_han": win.han if win else None,
                "win_fu": win.fu if win else None,
                "win_points": win.points if win else None,
                "win_limit": (win.limit or "none") if win else None,
                "win_yakuman": win.yakuman if win else None,
                "win_from": win.from_seat if win else None,
                "yaku": [name for name, _ in win.yaku] if win else [],
                "dora": win.dora + win.aka + win.ura if win else None,
                "riichi": s.riichi,
                "riichi_turn": s.riichi_turn,
                "calls": s.calls,
                "kans": s.kans,
                "tenpai_end": s.tenpai_at_end,
                "turns": s.turns,
                **own[s.seat],
                "sticks_end": rec.sticks_end,
                "draw_kind": rec.draw_kind,
                "stakes_start": rec.stakes_start,
                "stakes_end": rec.stakes_end,
            })
            self.rows["picks"].append({
                "run_id": self.run_id,
                "match_id": match_id,
                "hand_index": hand_index,
                "seat": s.seat,
                "team": _team(rec, s.seat),
                "character": rec.picks[s.seat] if rec.picks else None,
            })
        for seq, (seat, kind, tile, detail, event) in enumerate(
                notable_events(rec, self.red_fives)):
            card, card_seat, effect = (attribute(event, rec.picks)
                                       if kind in ("ability", "offer") else (None, None, None))
            self.rows["events"].append({
                "run_id": self.run_id,
                "match_id": match_id,
                "hand_index": hand_index,
                "seq": seq,
                "seat": seat,
                "kind": kind,
                "tile": tile,
                "detail": detail,
                "card": card,
                "card_seat": card_seat,
                "effect": effect,
            })


    def _add_pair(self, match_id: int, real: HandRecord, pair: HandPair,
                  bots: Sequence[str]) -> None:
        seat, replay = pair.seat, pair.without
        won = {w.seat: w for w in real.wins}.get(seat)
        won_without = {w.seat: w for w in replay.wins}.get(seat)
        with_delta, without_delta = real.seats[seat].delta, replay.seats[seat].delta
        self.rows[PAIRS].append({
            "run_id": self.run_id,
            "match_id": match_id,
            "hand_index": pair.hand_index,
            "seat": seat,
            "bot": bots[seat],
            "character": pair.character,
            "is_dealer": seat == real.dealer,
            "honba": real.honba,
            "sticks_start": real.sticks_start,
            "start_score": real.seats[seat].start_score,
            "delta_with": with_delta,
            "delta_without": without_delta,
            "delta_diff": with_delta - without_delta,
            "outcome_with": real.seats[seat].outcome,
            "outcome_without": replay.seats[seat].outcome,
            "win_han_with": won.han if won else None,
            "win_han_without": won_without.han if won_without else None,
            "win_points_with": won.points if won else None,
            "win_points_without": won_without.points if won_without else None,
            "triggers_with": ability_counts(real)[seat]["ability_triggers"],
            "same_moves": _moves(real) == _moves(replay),
            "sticks_end_with": real.sticks_end,
            "sticks_end_without": replay.sticks_end,
            "stakes_start": real.stakes_start,
            "stakes_end_with": real.stakes_end,
            "stakes_end_without": replay.stakes_end,
            "deltas_without": [s.delta for s in replay.seats],
        })


def _moves(rec: HandRecord) -> list[tuple[str, int | None, int | None, tuple[int, ...]]]:
    """What the players did in a hand (draws, discards, calls, riichi, wins), without the
    ability triggers, the offers and the texts that carry a win's value."""
    return [(e.kind, e.seat, e.tile, e.tiles) for e in rec.events
            if e.kind not in ("ability", "offer")]


def attribute(e: Event, picks: Sequence[str] | None) -> tuple[str | None, int | None, str]:
    """``(card, card_seat, effect)`` of an ``ability`` or ``offer`` event (or a face-down
    discard): the card that caused it (the event's; an event no card names, such as an
    always-winning tile's value, is the card of the seat it lands on), the seat that played
    that card this hand (the landing seat when no seat picked it: a copied card), and
    ``effect``: ``offer``, or what the event did (:class:`AbilityEffect`: ``points``,
    ``bookkeeping``, or ``play`` for anything else that changed the play: extra turns, draws,
    swaps, reveals, face-down discards, priority calls)."""
    picks = list(picks or ())
    seat = e.seat
    card: str | None = e.card or None
    if card is None and seat is not None and seat < len(picks):
        card = picks[seat]
    card_seat = picks.index(card) if card in picks else seat
    if e.kind == "offer":
        effect = "offer"
    else:
        effect = (e.effect or AbilityEffect.PLAY).value
    return card, card_seat, effect


def _face_down(e: Event) -> bool:
    return e.kind == "discard" and e.tag is AbilityTag.FACE_DOWN


def ability_counts(rec: HandRecord) -> list[dict[str, int]]:
    """Per seat: ``ability_triggers`` (events of the seat's own card that changed play or
    points, whichever seat they landed on), ``ability_bookkeeping`` (its bookkeeping events),
    ``offers`` (optional choices its ability offered it) and ``offers_taken``."""
    out = [{"ability_triggers": 0, "ability_bookkeeping": 0, "offers": 0, "offers_taken": 0}
           for _ in rec.seats]
    for e in rec.events:
        if e.kind == "ability" or _face_down(e):
            _, seat, effect = attribute(e, rec.picks)
            if seat is not None:
                key = "ability_bookkeeping" if effect == "bookkeeping" else "ability_triggers"
                out[seat][key] += 1
        elif e.kind == "offer" and e.seat is not None:
            out[e.seat]["offers"] += 1
            out[e.seat]["offers_taken"] += e.tag is not None  # the tag of what was taken
    return out


def notable_events(rec: HandRecord, red_fives: bool = True
                   ) -> list[tuple[int | None, str, str | None, str, Event]]:
    """The hand's notable events in play order as ``(seat, kind, tile, detail, event)``
    (``event``: the log's event it comes from).

    Kinds: ``win`` (tile: the winning tile; detail ``tsumo ...`` or ``ron off P<n> ...`` with
    the value and yaku), ``abortive_draw`` (detail: which one; seat: the player who declared
    nine terminals), ``riichi`` (tile: the declaring discard; detail ``double`` for a double
    riichi, ``not_accepted`` when the declaring discard was ronned), ``call`` (chi or pon;
    tile: the claimed tile; detail ``chi from P<n>``) and ``kan`` (detail ``ankan``, ``kakan``
    or ``minkan from P<n>``; tile: the kan's tile) and ``ability`` (a card's trigger; detail:
    the card and what it did, with its value in han and points for scoring effects).
    """
    events: Sequence[Event] = rec.events

    def text(tile: int | None) -> str | None:
        return None if tile is None else tile_to_str(tile, red_fives)

    out: list[tuple[int | None, str, str | None, str, Event]] = []
    for i, e in enumerate(events):
        kind = _EVENT_KINDS.get(e.kind)
        if kind is None:
            if not _face_down(e):
                continue
            kind = "ability"
        if e.kind in ("tsumo", "ron"):
            found = (e.seat, kind, text(e.tile), f"{e.kind} {e.detail}".strip())
        elif e.kind == "abort":
            declarer = events[i - 1].seat if i and events[i - 1].kind == "nine_terminals" else None
            found = (declarer, kind, None, e.detail)
        elif e.kind == "riichi":
            discard = next((x.tile for x in events[i + 1:]
                            if x.kind == "discard" and x.seat == e.seat), None)
            flags = [e.detail] if e.detail else []
            if e.seat is not None and not rec.seats[e.seat].riichi:
                flags.append("not_accepted")
            found = (e.seat, kind, text(discard), ", ".join(flags))
        elif e.kind in ("ability", "offer"):
            found = (e.seat, kind, None, e.detail)
        elif e.kind == "discard":  # only face-down ones are notable: an ability's
            found = (e.seat, kind, text(e.tile), f"{e.card}: face-down discard")
        elif e.kind == "ankan":
            found = (e.seat, kind, type_to_str(e.tiles[0] // 4), "ankan")
        elif e.kind == "kakan":
            found = (e.seat, kind, text(e.tile), "kakan")
        else:  # chi, pon, minkan: the detail says who fed the tile
            found = (e.seat, kind, text(e.tile), f"{e.kind} {e.detail}".strip())
        out.append((*found, e))
    return out
