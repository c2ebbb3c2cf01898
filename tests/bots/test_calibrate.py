"""Bot calibration: figures agree with the match records, workers do not change them, seats
rotate, and the `saki bots calibrate` command prints a table or JSON."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.bots.calibrate import (
    METRICS,
    ROTATION,
    CalibrationReport,
    aggregate,
    calibrate,
    lineup,
    summarize,
)
from pipeline.bots.registry import BOT_KINDS, UnknownBotError, make_agent
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandRecord, Outcome, SeatRecord, WinRecord
from pipeline.stats import clustered_mean, clustered_rate

PRESET = "online-tonpuusen"
GAMES = 3
SEED = 11
TIMING = ("elapsed_seconds", "hands_per_second", "workers")


def figures(report: CalibrationReport) -> dict:
    """Everything in the report except wall-clock timing and the worker count."""
    data = report.as_dict()
    for key in TIMING:
        data.pop(key)
    return data


@pytest.fixture(scope="module")
def report() -> CalibrationReport:
    return calibrate(PRESET, GAMES, SEED, seats=("random",) * 4)


@pytest.fixture(scope="module")
def matches() -> list[MatchResult]:
    preset = load_preset(PRESET)
    out = []
    for i in range(GAMES):
        agents = [RandomAgent(derive_seed(SEED, i, "agent", s)) for s in range(4)]
        out.append(play_match(preset, agents, SEED, i))
    return out


def test_figures_agree_with_the_match_records(report, matches) -> None:
    hands = [h for m in matches for h in m.hands]
    assert report.hands == len(hands)
    calls = sum(s.calls > 0 for h in hands for s in h.seats)
    assert report.metrics["call_rate"].value == pytest.approx(calls / (4 * len(hands)))
    draws = sum(h.draw_kind in ("exhaustive", "nagashi_mangan") for h in hands)
    assert report.metrics["exhaustive_draw_rate"].value == pytest.approx(draws / len(hands))
    riichi = sum(s.riichi for h in hands for s in h.seats)
    assert report.metrics["riichi_rate"].value == pytest.approx(riichi / (4 * len(hands)))
    wins = sum(len(h.wins) for h in hands)
    assert report.metrics["win_rate"].value == pytest.approx(wins / (4 * len(hands)))
    # clustered by match: the same call rate from per-match counts
    per_match = [sum(s.calls > 0 for h in m.hands for s in h.seats) for m in matches]
    expected = clustered_rate(per_match, [4 * len(m.hands) for m in matches])
    assert report.metrics["call_rate"] == expected
    assert report.metrics["call_rate"].clusters == GAMES
    assert set(report.metrics) == {m.key for m in METRICS}
    assert report.placement["random"].value == 2.5  # four seats of one kind
    assert report.placement["random"].n == 4 * GAMES


def test_the_same_arguments_give_the_same_figures(report) -> None:
    again = calibrate(load_preset(PRESET), GAMES, SEED, seats=("random",) * 4)
    assert figures(again) == figures(report)
    other = calibrate(PRESET, GAMES, SEED + 1, seats=("random",) * 4)
    assert figures(other) != figures(report)


def test_two_workers_give_the_same_figures_as_one(report) -> None:
    two = calibrate(PRESET, GAMES, SEED, seats=("random",) * 4, workers=2)
    assert two.workers == 2
    assert figures(two) == figures(report)


def hand(seats: list[SeatRecord], wins: list[WinRecord] = (), draw_kind: str | None = None
         ) -> HandRecord:
    return HandRecord(round_wind=0, hand_number=0, honba=0, sticks_start=0, dealer=0,
                      seats=seats, wins=list(wins), draw_kind=draw_kind)


def win(seat: int, from_seat: int, points: int) -> WinRecord:
    return WinRecord(seat=seat, from_seat=from_seat, han=3, fu=30, points=points, yaku=(),
                     dora=0, aka=0, ura=0, limit="", yakuman=0)


def seat_records(outcomes: list[str], **extra: list) -> list[SeatRecord]:
    out = []
    for s, outcome in enumerate(outcomes):
        rec = SeatRecord(seat=s, start_score=25000, outcome=outcome)
        for name, values in extra.items():
            setattr(rec, name, values[s])
        out.append(rec)
    return out


def test_wins_deal_ins_and_draws_are_counted_from_the_records() -> None:
    n, r, d, t, p = (Outcome.NONE, Outcome.RON_WIN, Outcome.DEALT_IN, Outcome.TSUMO_WIN,
                     Outcome.PAID_TSUMO)
    hands = [
        # a ron for 3,900 by seat 1 off seat 2; seat 1 called, seat 2 was in riichi
        hand(seat_records([n, r, d, n], calls=[0, 2, 0, 0], riichi=[False, False, True, False]),
             [win(1, 2, 3900)]),
        # a double ron off seat 0: it pays both wins, 8,000 + 2,000
        hand(seat_records([d, r, n, r]), [win(1, 0, 8000), win(3, 0, 2000)]),
        # a tsumo for 12,000 by the dealer
        hand(seat_records([t, p, p, p], riichi=[True, False, False, False]), [win(0, 0, 12000)]),
        # an exhaustive draw with two seats tenpai
        hand(seat_records([Outcome.DRAW_TENPAI, Outcome.DRAW_NOTEN, Outcome.DRAW_TENPAI,
                           Outcome.DRAW_NOTEN], tenpai_at_end=[True, False, True, False]),
             draw_kind="exhaustive"),
        # an abortive draw: neither a win nor an exhaustive draw
        hand(seat_records([Outcome.ABORTIVE] * 4), draw_kind="four_winds"),
    ]
    result = MatchResult(hands=hands, final_scores=[30000, 25000, 25000, 20000],
                         ranks=[1, 2, 3, 4], results=[0.0] * 4)
    summary = summarize(result, ("a", "b", "a", "b"))
    assert (summary.hands, summary.wins, summary.tsumo_wins, summary.deal_ins) == (5, 4, 1, 2)
    assert (summary.riichi, summary.calls, summary.draws, summary.tenpai_at_draw) == (2, 1, 1, 2)
    assert summary.win_points == [3900, 8000, 2000, 12000]
    assert summary.deal_in_points == [3900, 10000]
    assert summary.ranks == {"a": [1, 3], "b": [2, 4]}

    metrics, placement = aggregate([summary])
    assert metrics["win_rate"].value == 4 / 20
    assert metrics["deal_in_rate"].value == 2 / 20
    assert metrics["riichi_rate"].value == 2 / 20
    assert metrics["call_rate"].value == 1 / 20
    assert metrics["exhaustive_draw_rate"].value == 1 / 5
    assert metrics["average_win"].value == 25900 / 4
    assert metrics["tsumo_share"].value == 1 / 4
    assert metrics["tenpai_at_draw"].value == 2 / 4
    assert metrics["average_deal_in"].value == 13900 / 2
    assert placement["a"].value == 2 and placement["b"].value == 3


def test_empty_figures_show_as_missing() -> None:
    summary = summarize(MatchResult(hands=[hand(seat_records([Outcome.ABORTIVE] * 4),
                                                draw_kind="four_winds")],
                                    final_scores=[25000] * 4, ranks=[1, 2, 3, 4],
                                    results=[0.0] * 4), ("x",) * 4)
    metrics, _ = aggregate([summary, summary])
    assert math.isnan(metrics["average_win"].value)
    assert math.isnan(metrics["tsumo_share"].value)


def test_vs_rotation_seats_each_kind_in_every_seat() -> None:
    seats = ("h",) * 4
    four = [lineup(i, seats, "b") for i in range(4)]
    for seat in range(4):
        assert Counter(kinds[seat] for kinds in four) == {"h": 2, "b": 2}
    six = [lineup(i, seats, "b") for i in range(6)]
    assert len(set(six)) == 6 == len(ROTATION)  # every seating of two against two
    assert all(Counter(kinds) == {"h": 2, "b": 2} for kinds in six)
    assert lineup(6, seats, "b") == lineup(0, seats, "b")
    assert lineup(3, ("x", "y", "z", "w")) == ("x", "y", "z", "w")  # without vs: fixed


def test_vs_plays_the_rotating_lineup(monkeypatch) -> None:
    """A second kind that plays like "random" shows the seats really rotate in play."""
    monkeypatch.setitem(BOT_KINDS, "random-b", RandomAgent)
    games = 4
    got = calibrate("single-hand", games, SEED, seats=("random",) * 4, vs="random-b")
    preset = load_preset("single-hand")
    ranks: dict[str, list[list[int]]] = {"random": [], "random-b": []}
    for i in range(games):
        kinds = lineup(i, ("random",) * 4, "random-b")
        agents = [make_agent(k, derive_seed(SEED, i, "agent", s)) for s, k in enumerate(kinds)]
        result = play_match(preset, agents, SEED, i)
        for kind in ranks:
            ranks[kind].append([result.ranks[s] for s in range(4) if kinds[s] == kind])
    assert got.placement == {k: clustered_mean(v) for k, v in ranks.items()}
    assert got.placement["random"].n == got.placement["random-b"].n == 2 * games
    assert "random x2 vs random-b x2" in got.as_table()
    assert "random-b" in got.placement_table()


@pytest.mark.skipif(not Path(__file__).parents[2].joinpath("pipeline/bots/greedy.py").exists(),
                    reason="the greedy bot is not written yet")
def test_greedy_baseline_plays() -> None:
    got = calibrate("single-hand", 2, SEED, seats=("random",) * 4, vs="greedy")
    assert set(got.placement) == {"random", "greedy"}


def test_bad_arguments() -> None:
    with pytest.raises(UnknownBotError, match="nobody"):
        calibrate("single-hand", 1, 1, seats=("nobody",) * 4)
    with pytest.raises(UnknownBotError, match="nobody"):
        calibrate("single-hand", 1, 1, seats=("random",) * 4, vs="nobody")
    with pytest.raises(ValueError, match="games"):
        calibrate("single-hand", 0, 1, seats=("random",) * 4)
    with pytest.raises(ValueError, match="workers"):
        calibrate("single-hand", 1, 1, seats=("random",) * 4, workers=0)
    with pytest.raises(ValueError, match="vs"):
        calibrate("single-hand", 1, 1, seats=("random", "random", "random", "x"), vs="random")


def test_a_kind_that_cannot_be_loaded_is_an_unknown_bot(monkeypatch) -> None:
    def missing(seed: int):
        raise ModuleNotFoundError("No module named 'pipeline.bots.nothing'")

    monkeypatch.setitem(BOT_KINDS, "missing", missing)
    with pytest.raises(UnknownBotError, match="not available"):
        calibrate("single-hand", 1, 1, seats=("missing",) * 4)


def test_table_marks_figures_against_their_targets(report) -> None:
    table = report.as_table()
    lines = table.splitlines()
    assert lines[0].startswith(f"{PRESET}: {GAMES} matches, {report.hands} hands, seed {SEED}")
    for m in METRICS:
        assert any(line.startswith(m.label) for line in lines), m.label
    win_line = next(line for line in lines if line.startswith("win rate"))
    assert "21.1%" in win_line and "19-24%" in win_line
    assert win_line.split()[-1] == METRICS[0].judge(report.metrics["win_rate"].value)
    avg_win = next(line for line in lines if line.startswith("average win"))
    assert "5,647" in avg_win and "5,000-7,000" in avg_win
    assert "hands/s" in lines[-1]


def test_judge() -> None:
    win_rate = METRICS[0]
    assert (win_rate.judge(0.20), win_rate.judge(0.10), win_rate.judge(0.30)) == (
        "ok", "low", "high")
    assert win_rate.judge(math.nan) == ""
    assert METRICS[-1].judge(5000) == ""  # no target


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def assert_one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("error:")
    for word in words:
        assert word in text


def test_cli_prints_the_table_and_placements() -> None:
    result = run("bots", "calibrate", "--preset", "single-hand", "--games", "3", "--seed", "2",
                 "--bot", "random", "--vs", "random")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("single-hand: 3 matches, 3 hands, seed 2")
    assert "win rate" in out and "95% interval" in out and "human" in out
    assert "Average placement per bot kind" in out
    assert "random" in out.split("Average placement")[1]


def test_cli_without_vs_prints_no_placements() -> None:
    result = run("bots", "calibrate", "--preset", "single-hand", "--games", "2",
                 "--bot", "random")
    assert result.exit_code == 0, result.output
    assert "Average placement" not in result.output


def test_cli_json_output() -> None:
    result = run("bots", "calibrate", "--preset", PRESET, "--games", str(GAMES), "--seed",
                 str(SEED), "--bot", "random", "--format", "json", "--workers", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    direct = calibrate(PRESET, GAMES, SEED, seats=("random",) * 4)
    for key in TIMING:
        data.pop(key)
    assert data == figures(direct)
    assert data["metrics"]["win_rate"]["human"] == 0.211
    assert data["metrics"]["win_rate"]["target"] == [0.19, 0.24]


def test_cli_help_shows_an_example() -> None:
    result = run("bots", "calibrate", "--help")
    assert result.exit_code == 0
    assert "Example: saki bots calibrate" in result.output


@pytest.mark.parametrize(("args", "words"), [
    (("--preset", "no-such-preset"), ("no-such-preset",)),
    (("--bot", "random", "--vs", "nobody"), ("unknown bot kind", "nobody")),
    (("--bot", "nobody"), ("unknown bot kind", "nobody")),
    (("--bot", "random", "--format", "xml"), ("format", "xml")),
])
def test_cli_errors_are_one_line(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    result = run("bots", "calibrate", "--games", "1", *args)
    assert_one_line_error(result, *words)
