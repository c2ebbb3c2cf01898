"""Matches and hands as mjai JSON lines, the event format of the mjai bot protocol.

One match becomes ``start_game``, then per hand ``start_kyoku`` ... ``end_kyoku``, then
``end_game``. The engine's event log maps one to one where it can (``draw`` to ``tsumo``,
``discard`` to ``dahai``, ``riichi`` to ``reach``, calls and kans, ``dora``); what the log does
not hold is taken from the :class:`HandRecord`: ``reach_accepted`` follows a riichi discard
when the seat's deposit was taken, and the ``deltas`` of ``hora`` and ``ryukyoku`` are the score
changes of the hand with riichi deposits added back (in mjai the deposit is paid at
``reach_accepted``, and the sticks a winner collects are part of the winner's delta).

Tiles are written in mjai notation: ``"1m"``-``"9m"``, ``"1p"``-``"9p"``, ``"1s"``-``"9s"``,
``"5mr"`` for a red five, ``"E" "S" "W" "N"`` for the winds and ``"P" "F" "C"`` for white,
green and red dragons.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pipeline.rules.match import MatchResult
from pipeline.rules.preset import Preset
from pipeline.rules.records import Event, HandRecord
from pipeline.rules.settlement import table_shares
from pipeline.tiles import RED_FIVE_IDS

HONORS = ("E", "S", "W", "N", "P", "F", "C")
WINDS = ("E", "S", "W", "N")
MJAI_TILES = frozenset(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"5{s}r" for s in "mps"] + list(HONORS)
)
# How riichienv names each draw in ``ryukyoku``'s ``reason`` (standard mjai gives none).
RYUKYOKU_REASONS = {
    "exhaustive": "exhaustive_draw",
    "nine_terminals": "kyushu_kyuhai",
    "four_winds": "sufuurenta",
    "four_riichi": "suucha_riichi",
    "four_kans": "suukansansen",
    "triple_ron": "sanchaho",
    "nagashi_mangan": "nagashimangan",
}
# The card extension: events standard mjai readers do not know (docs/mjai-extension.md).
SAKI_PICKS = "saki_picks"
SAKI_ABILITY = "saki_ability"


def mjai_tile(tile: int, red_fives: bool = True) -> str:
    """The mjai text of physical tile ``tile`` (0-135)."""
    t = tile // 4
    if t >= 27:
        return HONORS[t - 27]
    text = f"{t % 9 + 1}{'mps'[t // 9]}"
    return text + "r" if red_fives and tile in RED_FIVE_IDS else text


def _tiles(tiles: Iterable[int], red_fives: bool) -> list[str]:
    return [mjai_tile(t, red_fives) for t in tiles]


def _without(tiles: Sequence[int], tile: int) -> list[int]:
    """``tiles`` less one copy of ``tile`` (the called or added tile)."""
    rest = list(tiles)
    if tile in rest:
        rest.remove(tile)
    else:  # the same type, should the log ever hold another copy
        rest.remove(next(x for x in rest if x // 4 == tile // 4))
    return rest


def hand_deltas(rec: HandRecord) -> list[int]:
    """The hand's score change per seat as mjai counts it: riichi deposits added back."""
    return [s.end_score - s.start_score + (1000 if s.riichi else 0) for s in rec.seats]


def win_deltas(rec: HandRecord, preset: Preset | None = None) -> list[list[int]]:
    """Deltas per win, in the order of ``rec.wins``; they add up to :func:`hand_deltas`.

    A single win takes the hand's deltas. With several rons on one discard, each win but the
    last is settled from its record (value, honba by the preset's ``multi_ron_honba``, the
    sticks by ``multi_ron_sticks``, a pao seat's half), and the last takes what remains.
    """
    total = hand_deltas(rec)
    if len(rec.wins) <= 1:
        return [total]
    rules = preset or Preset()
    sticks = rec.sticks_start + sum(s.riichi for s in rec.seats)
    shares = table_shares(1000 * sticks, len(rec.wins), rules.multi_ron_sticks)
    parts: list[list[int]] = []
    seats = len(rec.seats)
    for i, w in enumerate(rec.wins[:-1]):
        d = [0] * seats
        honba = 100 * (seats - 1) * rec.honba if i == 0 or rules.multi_ron_honba == "each" \
            else 0
        if w.pao_seat is not None and w.pao_seat != w.from_seat:
            half = w.points // 2
            d[w.pao_seat] -= half
            d[w.from_seat] -= w.points - half + honba
        else:
            d[w.from_seat] -= w.points + honba
        d[w.seat] += w.points + honba + shares[i]
        parts.append(d)
    parts.append([t - sum(p[s] for p in parts) for s, t in enumerate(total)])
    return parts


def ability_event(e: Event, red_fives: bool = True) -> dict[str, Any]:
    """An ``ability`` log event as a ``saki_ability`` mjai event: the seat, the card (where the
    text names one), the engine's own text, and the tile and tiles it names or moved."""
    out: dict[str, Any] = {"type": SAKI_ABILITY, "actor": e.seat}
    if e.card:
        out["card"] = e.card
    out["text"] = e.detail
    if e.tile is not None:
        out["pai"] = mjai_tile(e.tile, red_fives)
    if e.tiles:
        out["tiles"] = _tiles(e.tiles, red_fives)
    return out


def is_card_game(result: MatchResult) -> bool:
    """True when some hand of the match was played with character cards."""
    return any(rec.picks or any(e.kind == "ability" for e in rec.events)
               for rec in result.hands)


def hand_events(rec: HandRecord, red_fives: bool = True, preset: Preset | None = None
                ) -> list[dict[str, Any]]:
    """One hand as mjai events, ``start_kyoku`` to ``end_kyoku`` (``preset``: the rules that
    split a double ron's deltas)."""
    tehais: list[list[str]] = [[] for _ in rec.seats]
    dora_marker: str | None = None
    for e in rec.events:
        if e.kind == "deal" and e.seat is not None:
            tehais[e.seat] = _tiles(e.tiles, red_fives)
        elif e.kind == "dora" and e.tile is not None:
            dora_marker = mjai_tile(e.tile, red_fives)
            break
    out: list[dict[str, Any]] = [{
        "type": "start_kyoku",
        "bakaze": WINDS[rec.round_wind],
        "dora_marker": dora_marker,
        "kyoku": rec.hand_number + 1,
        "honba": rec.honba,
        "kyotaku": rec.sticks_start,
        "oya": rec.dealer,
        "scores": [s.start_score for s in rec.seats],
        "tehais": tehais,
    }]
    if rec.picks:  # the card extension (docs/mjai-extension.md)
        out.append({"type": SAKI_PICKS, "picks": list(rec.picks),
                    "teams": [list(t) for t in (rec.teams or {}).get("teams", [])]})
    deltas = iter(win_deltas(rec, preset))
    ura: dict[int, list[str]] = {}
    first_dora = True
    declaring: int | None = None  # a seat that declared riichi and has yet to discard
    for e in rec.events:
        kind, seat = e.kind, e.seat
        if kind == "deal" or kind == "nine_terminals":
            continue
        if kind == "dora":
            if first_dora:
                first_dora = False
            elif e.tile is not None:
                out.append({"type": "dora", "dora_marker": mjai_tile(e.tile, red_fives)})
        elif kind == "draw":
            out.append({"type": "tsumo", "actor": seat, "pai": mjai_tile(e.tile, red_fives)})
        elif kind == "riichi":
            out.append({"type": "reach", "actor": seat})
            declaring = seat  # the seat's next discard declares it
        elif kind == "discard":
            out.append({"type": "dahai", "actor": seat, "pai": mjai_tile(e.tile, red_fives),
                        "tsumogiri": e.tsumogiri})
            if seat == declaring and seat is not None and rec.seats[seat].riichi:
                out.append({"type": "reach_accepted", "actor": seat})
            declaring = None if seat == declaring else declaring
        elif kind in ("chi", "pon", "minkan"):
            out.append({"type": "daiminkan" if kind == "minkan" else kind, "actor": seat,
                        "target": e.source,
                        "pai": mjai_tile(e.tile, red_fives),
                        "consumed": _tiles(_without(e.tiles, e.tile), red_fives)})
        elif kind == "ankan":
            out.append({"type": "ankan", "actor": seat,
                        "consumed": _tiles(e.tiles, red_fives)})
        elif kind == "kakan":
            out.append({"type": "kakan", "actor": seat, "pai": mjai_tile(e.tile, red_fives),
                        "consumed": _tiles(_without(e.tiles, e.tile), red_fives)})
        elif kind == "kita":  # three players (S-03), as riichienv writes it
            out.append({"type": "kita", "actor": seat, "pai": mjai_tile(e.tile, red_fives)})
        elif kind == "ura" and seat is not None:
            ura[seat] = _tiles(e.tiles, red_fives)
        elif kind == "ability":
            out.append(ability_event(e, red_fives))
        elif kind in ("tsumo", "ron"):
            target = seat if kind == "tsumo" else e.source
            out.append({"type": "hora", "actor": seat, "target": target,
                        "deltas": next(deltas), "ura_markers": ura.get(seat, [])})
        elif kind in ("abort", "draw_end"):
            out.append({"type": "ryukyoku", "deltas": hand_deltas(rec),
                        "reason": RYUKYOKU_REASONS.get(rec.draw_kind or "", "exhaustive_draw")})
    out.append({"type": "end_kyoku"})
    return out


def match_events(result: MatchResult, *, names: Sequence[str], seed: Sequence[int],
                 hands: Iterable[int] | None = None,
                 red_fives: bool = True, preset: Preset | None = None
                 ) -> list[dict[str, Any]]:
    """A match (or only the hands whose indices are given) as mjai events."""
    chosen = range(len(result.hands)) if hands is None else hands
    out: list[dict[str, Any]] = [{"type": "start_game", "names": list(names),
                                  "seed": list(seed)}]
    for i in chosen:
        out.extend(hand_events(result.hands[i], red_fives, preset))
    out.append({"type": "end_game"})
    return out


def to_jsonl(events: Iterable[dict[str, Any]]) -> str:
    """JSON lines, compact as mjai logs are written."""
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
