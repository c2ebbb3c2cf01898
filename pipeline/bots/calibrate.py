"""Bot calibration: play many matches and compare the bots' play with human reference figures.

A balance report is only as believable as its players. :func:`calibrate` plays a batch of
matches and measures the figures that say whether the bots play like people: how often they
win, deal in, declare riichi and call, how often hands end in an exhaustive draw, and how big
their wins are. Each figure comes with a 95% interval clustered by match (hands of one match are
not independent, see :mod:`pipeline.stats`) and is set against the human reference (Tenhou top
room, four-player hanchan) and a target range the bots should land in.

Matches are deterministic by index: match ``i`` uses walls from ``(seed, i)`` and seat ``s``
gets ``make_agent(kind, derive_seed(seed, i, "agent", s))``. Workers only change who plays a
match, never what happens in it, so any worker count gives the same figures.

With ``vs`` the table holds two bots of the kind under test and two of the baseline kind, in a
seating that rotates from match to match (:func:`lineup`), and the report adds the average
placement of each kind.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pipeline.bots.registry import CalibrationError, UnknownBotError, make_agent
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import Outcome
from pipeline.stats import Estimate, clustered_mean, clustered_rate
from pipeline.workers import watch_parent

MAX_CALIBRATION_GAMES = 1_000_000


DRAW_KINDS = ("exhaustive", "nagashi_mangan")  # hands that run out the wall


@dataclass(frozen=True)
class Metric:
    """One calibration figure: its label, unit, and the human reference with a target range.

    ``unit`` is ``"rate"`` (a proportion, shown as a percentage) or ``"points"``. ``human``,
    ``low`` and ``high`` are ``None`` when there is no reference for the figure.
    """

    key: str
    label: str
    unit: str
    human: float | None = None
    low: float | None = None
    high: float | None = None

    def judge(self, value: float) -> str:
        """``"ok"`` inside the target range, ``"low"``/``"high"`` outside, ``""`` without one."""
        if self.low is None or self.high is None or math.isnan(value):
            return ""
        if value < self.low:
            return "low"
        if value > self.high:
            return "high"
        return "ok"


# Human reference: Tenhou top room (houou), four-player hanchan. Rates are per seat-hand except
# the exhaustive-draw rate, which is per hand. Targets are where a bot fit for balance work
# should land; they are wider than the human spread between strong players.
METRICS: tuple[Metric, ...] = (
    Metric("win_rate", "win rate", "rate", 0.211, 0.19, 0.24),
    Metric("deal_in_rate", "deal-in rate", "rate", 0.125, 0.09, 0.15),
    Metric("riichi_rate", "riichi rate", "rate", 0.170, 0.14, 0.25),
    Metric("call_rate", "call rate", "rate", 0.344, 0.22, 0.40),
    Metric("exhaustive_draw_rate", "exhaustive draw rate", "rate", 0.162, 0.10, 0.20),
    Metric("average_win", "average win", "points", 5647, 5000, 7000),
    Metric("tsumo_share", "tsumo share of wins", "rate"),
    Metric("tenpai_at_draw", "tenpai at exhaustive draw", "rate"),
    Metric("average_deal_in", "average deal-in", "points"),
)
METRIC_BY_KEY = {m.key: m for m in METRICS}

# Human reference for three players: Tenhou houou sanma (tsumo-loss, nukidora; S-01..S-10).
# No one source gives all six, so each says where it comes from (docs/sanma.md, "The bots for
# three"): the draw rate (15%) and the riichi sticks a hand (0.73, so 0.73 / 3 a seat-hand)
# from the Tenhou houou tables of "Data de katsu sannin mahjong" (miinin, ed. Fukuchi Makoto,
# quoted in its chapter 1 notes); the win rate ("about 3 in 10") from yumishin.com's Tenhou
# sanma figures by rank; the call rate (25%) and the ron win (dealer about 12,000, non-dealer
# about 8,000) from mahjongmikan.online; the deal-in rate is worked out from those (about 0.85
# wins a hand, two in three by ron, over three seats). Targets are wide on purpose.
SANMA_METRICS: tuple[Metric, ...] = (
    Metric("win_rate", "win rate", "rate", 0.28, 0.24, 0.33),
    Metric("deal_in_rate", "deal-in rate", "rate", 0.17, 0.12, 0.22),
    Metric("riichi_rate", "riichi rate", "rate", 0.243, 0.18, 0.32),
    Metric("call_rate", "call rate", "rate", 0.25, 0.15, 0.35),
    Metric("exhaustive_draw_rate", "exhaustive draw rate", "rate", 0.15, 0.10, 0.20),
    Metric("average_win", "average win", "points", 7500, 6000, 9000),
    Metric("tsumo_share", "tsumo share of wins", "rate"),
    Metric("tenpai_at_draw", "tenpai at exhaustive draw", "rate"),
    Metric("average_deal_in", "average deal-in", "points"),
)


REFERENCE_SOURCES = {
    4: "human: Tenhou houou, four-player hanchan (koba::blog, Tenhou statistics of 2016)",
    3: ("human: Tenhou houou sanma; draw rate and riichi sticks a hand: 'Data de katsu sannin "
        "mahjong' (Tenhou houou 2009-2017); win rate: yumishin.com; call rate and ron value: "
        "mahjongmikan.online; deal-in rate worked out from them (docs/sanma.md)"),
}


def metrics_for(players: int) -> tuple[Metric, ...]:
    """The figures and human references for a table of ``players`` (4, or 3: sanma)."""
    return METRICS if players == 4 else SANMA_METRICS

# Seatings for a two-against-two table: "A" is the kind under test, "B" the baseline. The first
# four are the rotations of AABB, so any four consecutive matches seat each kind twice in every
# seat; the last two alternate the kinds, so neither pair always sits side by side.
ROTATION: tuple[str, ...] = ("AABB", "ABBA", "BBAA", "BAAB", "ABAB", "BABA")
# Three seats: two of one kind and one of the other, alternating, every seat once each way.
ROTATION_3: tuple[str, ...] = ("AAB", "BBA", "ABA", "BAB", "BAA", "ABB")


def lineup(match_index: int, seats: Sequence[str], vs: str | None = None) -> tuple[str, ...]:
    """The bot kind in each seat for one match.

    Without ``vs`` it is ``seats`` every match. With ``vs`` it is two of ``seats[0]`` and two
    of ``vs``, seated by ``ROTATION[match_index % 6]``.
    """
    if vs is None:
        return tuple(seats)
    rotation = ROTATION if len(seats) == 4 else ROTATION_3
    pattern = rotation[match_index % len(rotation)]
    return tuple(seats[0] if c == "A" else vs for c in pattern)


@dataclass
class MatchSummary:
    """The counts one match contributes to the figures (small, so workers can send it back)."""

    hands: int = 0
    wins: int = 0
    tsumo_wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    calls: int = 0
    draws: int = 0
    tenpai_at_draw: int = 0
    win_points: list[int] = field(default_factory=list)
    deal_in_points: list[int] = field(default_factory=list)
    ranks: dict[str, list[int]] = field(default_factory=dict)  # bot kind -> its seats' ranks
    players: int = 4


def summarize(result: MatchResult, kinds: Sequence[str]) -> MatchSummary:
    """Count one finished match; ``kinds`` names the bot kind in each seat."""
    out = MatchSummary(hands=len(result.hands), players=len(result.final_scores))
    for hand in result.hands:
        for w in hand.wins:
            out.wins += 1
            out.tsumo_wins += w.is_tsumo
            out.win_points.append(w.points)
        for s in hand.seats:
            out.riichi += s.riichi
            out.calls += s.calls > 0
            if s.outcome == Outcome.DEALT_IN:
                out.deal_ins += 1
                out.deal_in_points.append(sum(w.points for w in hand.wins
                                              if w.from_seat == s.seat and not w.is_tsumo))
        if hand.draw_kind in DRAW_KINDS:
            out.draws += 1
            out.tenpai_at_draw += sum(s.tenpai_at_end for s in hand.seats)
    for seat, kind in enumerate(kinds):
        out.ranks.setdefault(kind, []).append(result.ranks[seat])
    return out


def play_summary(preset: Preset, seed: int, match_index: int, kinds: Sequence[str]
                 ) -> MatchSummary:
    """Play match ``match_index`` with the given seat kinds and count it."""
    agents = [make_agent(kind, derive_seed(seed, match_index, "agent", s))
              for s, kind in enumerate(kinds)]
    return summarize(play_match(preset, agents, seed, match_index), kinds)


def _play_job(job: tuple[Preset, int, int, tuple[str, ...]]) -> MatchSummary:
    return play_summary(*job)


@dataclass
class CalibrationReport:
    """Calibration figures for one batch of matches; see :func:`calibrate`."""

    preset: str
    games: int
    seed: int
    seats: tuple[str, ...]
    vs: str | None
    hands: int
    metrics: dict[str, Estimate]
    placement: dict[str, Estimate]   # bot kind -> average placement (1 = first)
    elapsed: float                    # wall clock seconds for playing the matches
    workers: int = 1

    @property
    def metric_list(self) -> tuple[Metric, ...]:
        """The figures with the human reference for this table size (sanma: three seats)."""
        return metrics_for(len(self.seats))

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.elapsed if self.elapsed > 0 else math.nan

    def describe_lineup(self) -> str:
        if self.vs is None:
            kinds = sorted(set(self.seats))
            if len(kinds) == 1:
                return f"{kinds[0]} x{len(self.seats)}"
            return ", ".join(self.seats) + " (fixed seats)"
        if len(self.seats) == 3:
            return f"{self.seats[0]} vs {self.vs}, two and one (rotating seats)"
        return f"{self.seats[0]} x2 vs {self.vs} x2 (rotating seats)"

    def as_table(self) -> str:
        """The figures as a text table: value, 95% interval, human reference, target, mark."""
        head = (f"{self.preset}: {self.games} matches, {self.hands} hands, seed {self.seed}, "
                f"{self.describe_lineup()}")
        rows = [("metric", "value", "95% interval", "human", "target", "")]
        for m in self.metric_list:
            est = self.metrics[m.key]
            rows.append((
                m.label,
                _fmt(est.value, m.unit),
                _fmt_range(est.low, est.high, m.unit),
                _fmt(m.human, m.unit) if m.human is not None else "-",
                _fmt_target(m),
                m.judge(est.value),
            ))
        workers = f"{self.workers} worker" + ("s" if self.workers != 1 else "")
        foot = (f"{self.hands_per_second:,.1f} hands/s ({self.hands} hands in "
                f"{self.elapsed:.2f} s, {workers})")
        source = [REFERENCE_SOURCES[3]] if len(self.seats) == 3 else []
        return "\n".join([head, "", *_columns(rows), *source, "", foot])

    def placement_table(self) -> str:
        """Average placement per bot kind (1 = first, 2.5 = even), with 95% intervals."""
        rows = [("bot kind", "placement", "95% interval", "seat-matches")]
        for kind, est in self.placement.items():
            rows.append((kind, _num(est.value, 2), _range(est.low, est.high, 2), str(est.n)))
        return "\n".join(_columns(rows))

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (``nan`` becomes ``None``)."""
        metrics = {}
        for m in self.metric_list:
            est = self.metrics[m.key]
            mark = m.judge(est.value)
            metrics[m.key] = {
                "label": m.label,
                "unit": m.unit,
                **est.as_dict(),
                "human": m.human,
                "target": [m.low, m.high] if m.low is not None else None,
                "in_target": (mark == "ok") if mark else None,
            }
        hps = self.hands_per_second
        return {
            "preset": self.preset,
            "games": self.games,
            "seed": self.seed,
            "seats": list(self.seats),
            "vs": self.vs,
            "hands": self.hands,
            "metrics": metrics,
            "placement": {kind: est.as_dict() for kind, est in self.placement.items()},
            "elapsed_seconds": round(self.elapsed, 3),
            "hands_per_second": None if math.isnan(hps) else round(hps, 1),
            "workers": self.workers,
        }


def _fmt(x: float, unit: str) -> str:
    if math.isnan(x):
        return "-"
    return f"{100 * x:.1f}%" if unit == "rate" else f"{x:,.0f}"


def _fmt_range(low: float, high: float, unit: str) -> str:
    if math.isnan(low) or math.isnan(high):
        return "-"
    if unit == "rate":
        return f"{100 * low:.1f}-{100 * high:.1f}%"
    return f"{low:,.0f}-{high:,.0f}"


def _fmt_target(m: Metric) -> str:
    if m.low is None or m.high is None:
        return "-"
    if m.unit == "rate":
        return f"{100 * m.low:g}-{100 * m.high:g}%"
    return f"{m.low:,.0f}-{m.high:,.0f}"


def _num(x: float, digits: int) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def _range(low: float, high: float, digits: int) -> str:
    if math.isnan(low) or math.isnan(high):
        return "-"
    return f"{low:.{digits}f}-{high:.{digits}f}"


def _columns(rows: list[tuple[str, ...]]) -> list[str]:
    """Left-align the first column, right-align the others, two spaces apart."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:],
                                                                        strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def _check_kinds(kinds: set[str]) -> None:
    """Fail before any match is played if a kind is unknown or its module cannot be loaded."""
    for kind in sorted(kinds):
        try:
            make_agent(kind, 0)
        except ImportError as exc:
            raise UnknownBotError(f"bot kind {kind!r} is not available ({exc})") from None


def aggregate(summaries: Sequence[MatchSummary]) -> tuple[dict[str, Estimate],
                                                          dict[str, Estimate]]:
    """The figures (clustered by match) and the placement per bot kind from match summaries."""
    seat_hands = [s.players * s.hands for s in summaries]
    metrics = {
        "win_rate": clustered_rate([s.wins for s in summaries], seat_hands),
        "deal_in_rate": clustered_rate([s.deal_ins for s in summaries], seat_hands),
        "riichi_rate": clustered_rate([s.riichi for s in summaries], seat_hands),
        "call_rate": clustered_rate([s.calls for s in summaries], seat_hands),
        "exhaustive_draw_rate": clustered_rate([s.draws for s in summaries],
                                               [s.hands for s in summaries]),
        "average_win": clustered_mean([s.win_points for s in summaries]),
        "tsumo_share": clustered_rate([s.tsumo_wins for s in summaries],
                                      [s.wins for s in summaries]),
        "tenpai_at_draw": clustered_rate([s.tenpai_at_draw for s in summaries],
                                         [s.players * s.draws for s in summaries]),
        "average_deal_in": clustered_mean([s.deal_in_points for s in summaries]),
    }
    kinds = sorted({k for s in summaries for k in s.ranks})
    placement = {k: clustered_mean([s.ranks.get(k, []) for s in summaries]) for k in kinds}
    return metrics, placement


def calibrate(preset: Preset | str, games: int, seed: int, *,
              seats: Sequence[str] = ("heuristic",) * 4, vs: str | None = None,
              workers: int = 1) -> CalibrationReport:
    """Play ``games`` matches and measure the calibration figures.

    ``preset`` is a :class:`Preset` or a preset name/path. ``seats`` gives the bot kind of each
    seat; with ``vs`` (a baseline kind such as ``"greedy"`` or ``"random"``) the table is two
    of ``seats[0]`` against two of ``vs`` in rotating seats (see :func:`lineup`). ``workers``
    above 1 plays the matches in that many processes; the figures are the same for any worker
    count. Raises ``UnknownBotError`` for a kind that does not exist (or cannot be loaded) and
    ``ValueError`` for bad counts.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if games > MAX_CALIBRATION_GAMES:  # the plan below is one tuple per match
        raise CalibrationError(f"--games {games}: calibration plays at most "
                               f"{MAX_CALIBRATION_GAMES:,} matches; a few hundred already give "
                               "intervals of about one point")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    seats = tuple(seats)
    rules = load_preset(preset) if isinstance(preset, str) else preset
    if len(set(seats)) == 1 and len(seats) != rules.players:  # one kind at every seat
        seats = seats[:1] * rules.players
    if len(seats) != rules.players:
        raise ValueError(f"seats must name {rules.players} bot kinds, got {len(seats)}")
    if vs is not None and len(set(seats)) != 1:
        raise ValueError("with vs, seats must all be the kind under test")
    _check_kinds(set(seats) | ({vs} if vs else set()))
    jobs = [(rules, seed, i, lineup(i, seats, vs)) for i in range(games)]

    start = time.perf_counter()
    if workers == 1 or games == 1:
        summaries = [_play_job(job) for job in jobs]
    else:
        chunk = max(1, games // (workers * 8))
        with ProcessPoolExecutor(max_workers=min(workers, games), initializer=watch_parent,
                                 initargs=(os.getpid(),)) as pool:
            summaries = list(pool.map(_play_job, jobs, chunksize=chunk))
    elapsed = time.perf_counter() - start

    metrics, placement = aggregate(summaries)
    return CalibrationReport(
        preset=rules.name, games=games, seed=seed, seats=seats, vs=vs,
        hands=sum(s.hands for s in summaries), metrics=metrics, placement=placement,
        elapsed=elapsed, workers=workers,
    )


__all__ = ["METRICS", "ROTATION", "SANMA_METRICS", "CalibrationReport", "MatchSummary", "Metric",
           "aggregate", "calibrate", "lineup", "metrics_for", "play_summary", "summarize"]
