"""Match flow: renchan and honba, the end of the match, and the final results.

Most tests feed :func:`advance` hand records built by hand, so each rule is checked on exactly
the situation it describes; a few play whole matches (with random players, or with a stand-in
for ``play_hand`` that returns prepared records).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

import pipeline.rules.match as match_module
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hand import HandStart
from pipeline.rules.match import (
    MatchProgress,
    advance,
    derive_seed,
    final_results,
    play_match,
    rank_seats,
)
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord, Outcome, SeatRecord, WinRecord

HANCHAN = load_preset("online-hanchan")
TONPUU = load_preset("online-tonpuusen")
CLUB = load_preset("club-hanchan")
SINGLE = load_preset("single-hand")
CARDS = load_preset("cards-hanchan")

EVEN = [25000, 25000, 25000, 25000]


def win(seat: int, from_seat: int | None = None) -> WinRecord:
    return WinRecord(seat=seat, from_seat=seat if from_seat is None else from_seat, han=1, fu=30,
                     points=1000, yaku=(("Riichi", 1),), dora=0, aka=0, ura=0, limit="",
                     yakuman=0)


def hand(progress: MatchProgress, scores: list[int], *, winners: tuple[int, ...] = (),
         draw: str | None = None, dealer_tenpai: bool = False, sticks: int = 0) -> HandRecord:
    """A finished hand played from ``progress``, ending with ``scores`` and ``sticks``.

    With ``winners`` it is a win (a ron off the next seat that is not a winner); otherwise a
    draw of kind ``draw`` ("exhaustive" by default). ``dealer_continues`` is set as the engine
    sets it: a dealer win, dealer tenpai at an exhaustive draw, or any abortive draw.
    """
    dealer = progress.dealer
    seats = [SeatRecord(seat=s, start_score=progress.scores[s], end_score=scores[s])
             for s in range(4)]
    if winners:
        loser = next(s for s in range(4) if s not in winners)
        wins = [win(s, loser) for s in winners]
        kind = None
        continues = dealer in winners
    else:
        wins = []
        kind = draw or "exhaustive"
        continues = dealer_tenpai if kind in ("exhaustive", "nagashi_mangan") else True
        seats[dealer].outcome = Outcome.DRAW_TENPAI if dealer_tenpai else Outcome.DRAW_NOTEN
    return HandRecord(round_wind=progress.round_wind, hand_number=progress.hand_number,
                      honba=progress.honba, sticks_start=progress.sticks, dealer=dealer,
                      seats=seats, wins=wins, draw_kind=kind, sticks_end=sticks,
                      dealer_continues=continues)


def at(round_wind: int, hand_number: int, scores: list[int] | None = None, honba: int = 0,
       sticks: int = 0) -> MatchProgress:
    """Progress standing at the start of a given hand (the dealer follows the hand number)."""
    return MatchProgress(scores=list(scores or EVEN), dealer=hand_number, round_wind=round_wind,
                         hand_number=hand_number, honba=honba, sticks=sticks)


def place(progress: MatchProgress) -> tuple[int, int, int, int]:
    return progress.round_wind, progress.hand_number, progress.dealer, progress.honba


# --------------------------------------------------------------------------- renchan and honba


@pytest.mark.parametrize(
    ("what", "kwargs", "same_dealer", "honba"),
    [
        ("dealer win", {"winners": (1,)}, True, 3),
        ("dealer tenpai at a draw", {"dealer_tenpai": True}, True, 3),
        ("non-dealer win", {"winners": (2,)}, False, 0),
        ("draw, dealer noten", {"dealer_tenpai": False}, False, 3),
        ("abortive draw", {"draw": "four_winds"}, True, 3),
        ("nine terminals", {"draw": "nine_terminals"}, True, 3),
        ("dealer in a double ron", {"winners": (1, 3)}, True, 3),
        ("double ron without the dealer", {"winners": (2, 3)}, False, 0),
    ],
)
def test_m03_k12_renchan_and_honba(what: str, kwargs: dict, same_dealer: bool,
                                   honba: int) -> None:
    """Rule M-03, K-12: who deals next and the honba count (from East 2, honba 2)."""
    progress = at(0, 1, honba=2)
    advance(progress, hand(progress, EVEN, **kwargs), HANCHAN)
    assert not progress.finished
    if same_dealer:
        assert place(progress) == (0, 1, 1, honba), what
    else:
        assert place(progress) == (0, 2, 2, honba), what


def test_m03_dealer_passes_from_east_4_to_south_1() -> None:
    progress = at(0, 3, honba=1)
    advance(progress, hand(progress, EVEN, winners=(0,)), HANCHAN)
    assert place(progress) == (1, 0, 0, 0)


def test_scores_and_sticks_carry_to_the_next_hand() -> None:
    progress = at(0, 0)
    scores = [24000, 25000, 25000, 25000]
    advance(progress, hand(progress, scores, dealer_tenpai=True, sticks=1), HANCHAN)
    assert progress.scores == scores and progress.sticks == 1
    assert len(progress.history) == 1


def test_renchan_and_honba_in_played_matches() -> None:
    """In real matches every hand's dealer and honba follow from the hand before (M-03)."""
    for i in range(6):
        agents = [RandomAgent(derive_seed("renchan", i, s)) for s in range(4)]
        result = play_match(CLUB, agents, seed=11, match_index=i)
        for prev, nxt in zip(result.hands, result.hands[1:], strict=False):
            if prev.dealer_continues:
                assert nxt.dealer == prev.dealer and nxt.honba == prev.honba + 1
            else:
                assert nxt.dealer == (prev.dealer + 1) % 4
                assert nxt.honba == (0 if prev.wins else prev.honba + 1)
            assert nxt.sticks_start == prev.sticks_end


# --------------------------------------------------------------------------- match length


def run_non_dealer_wins(preset: Preset, scores: list[int]) -> MatchProgress:
    """Every hand is won by the seat after the dealer, ending with ``scores``."""
    progress = MatchProgress(scores=[preset.start_points] * 4)
    while not progress.finished and len(progress.history) < 40:
        advance(progress, hand(progress, scores, winners=((progress.dealer + 1) % 4,)), preset)
    return progress


def test_m01_east_only_ends_after_east_4() -> None:
    progress = run_non_dealer_wins(TONPUU, [40000, 20000, 20000, 20000])
    assert [h.name for h in progress.history] == ["East 1", "East 2", "East 3", "East 4"]


def test_m01_hanchan_ends_after_south_4() -> None:
    progress = run_non_dealer_wins(HANCHAN, [40000, 20000, 20000, 20000])
    assert [(h.round_wind, h.hand_number) for h in progress.history] == [
        (w, n) for w in (0, 1) for n in range(4)]
    assert progress.history[-1].name == "South 4"


def test_m01_hands_repeat_with_renchan_but_the_count_of_deals_is_kept() -> None:
    progress = MatchProgress(scores=[25000] * 4)
    scores = [40000, 20000, 20000, 20000]
    advance(progress, hand(progress, scores, winners=(0,)), TONPUU)  # East 1 dealer wins
    advance(progress, hand(progress, scores, draw="four_riichi"), TONPUU)  # East 1 abort
    while not progress.finished:
        advance(progress, hand(progress, scores, winners=((progress.dealer + 1) % 4,)), TONPUU)
    assert [(h.name, h.honba) for h in progress.history] == [
        ("East 1", 0), ("East 1", 1), ("East 1", 2), ("East 2", 0), ("East 3", 0), ("East 4", 0)]


# --------------------------------------------------------------------------- extension (M-06)


def test_m06_k13_west_round_when_nobody_has_30000() -> None:
    progress = at(1, 3, [29000, 29000, 21000, 21000])
    advance(progress, hand(progress, [29000, 29000, 21000, 21000], winners=(0,)), HANCHAN)
    assert not progress.finished
    assert place(progress) == (2, 0, 0, 0)  # West 1, first dealer deals again


def test_m06_extension_ends_as_soon_as_someone_has_30000() -> None:
    progress = at(2, 0, [29000, 29000, 21000, 21000])
    advance(progress, hand(progress, [29000, 29000, 21000, 21000], winners=(1,)), HANCHAN)
    assert not progress.finished  # West 1 over, still nobody: West 2
    advance(progress, hand(progress, [27000, 31000, 21000, 21000], winners=(1,)), HANCHAN)
    assert progress.finished
    assert progress.history[-1].name == "West 2"


EXTENSION_RENCHAN = [{"winners": (2,)}, {"dealer_tenpai": True}, {"draw": "four_winds"}]


def _extension_renchan(how: dict, preset: Preset) -> MatchProgress:
    """West 3 (dealer P2), P0 reaches 30,000 or more while the dealer keeps the deal."""
    progress = at(2, 2, [29000, 22000, 29000, 20000])
    scores = [30000, 21000, 29000, 20000] if "winners" not in how else [32000, 21000, 30000, 17000]
    advance(progress, hand(progress, scores, **how), preset)
    return progress


@pytest.mark.parametrize("how", EXTENSION_RENCHAN)
def test_m06_k13_club_extension_ends_even_when_the_dealer_would_continue(how: dict) -> None:
    """Rule M-06, K-13 (extension_renchan = "ends"): the extension plays *until someone has
    30,000*, so a renchan by a dealer who is not first does not keep it going."""
    assert CLUB.extension_renchan == "ends"
    assert _extension_renchan(how, CLUB).finished


@pytest.mark.parametrize("how", EXTENSION_RENCHAN)
def test_m06_online_extension_dealer_who_keeps_the_deal_plays_on(how: dict) -> None:
    """Rule M-06 as Tenhou plays it (extension_renchan = "plays-on"): P0 has 30,000 but the
    dealer P2, not first, repeats West 3 with one more honba."""
    progress = _extension_renchan(how, HANCHAN)
    assert not progress.finished
    assert place(progress) == (2, 2, 2, 1)


def test_m06_online_extension_repeating_dealer_first_with_30000_ends_it() -> None:
    # rule M-06 (agari-yame in the extension): the dealer wins and is first with 30,000+
    progress = at(2, 2, [29000, 22000, 29000, 20000])
    advance(progress, hand(progress, [30000, 21000, 31000, 18000], winners=(2,)), HANCHAN)
    assert progress.finished


def test_m06_extension_dealer_renchan_continues_while_nobody_has_30000() -> None:
    progress = at(2, 1, [29000, 29000, 21000, 21000])
    advance(progress, hand(progress, [29000, 29000, 21000, 21000], dealer_tenpai=True), HANCHAN)
    assert not progress.finished
    assert place(progress) == (2, 1, 1, 1)


def test_k13_no_round_after_west() -> None:
    progress = at(2, 3, [29000, 29000, 21000, 21000])
    advance(progress, hand(progress, [29000, 29000, 21000, 21000], winners=(0,)), CLUB)
    assert progress.finished
    assert progress.round_wind == 2


def test_k13_whole_west_round_without_30000_then_stop() -> None:
    progress = at(1, 3, [29000, 29000, 21000, 21000])
    scores = [29000, 29000, 21000, 21000]
    while not progress.finished:
        advance(progress, hand(progress, scores, dealer_tenpai=False), CLUB)
    assert [h.name for h in progress.history] == [
        "South 4", "West 1", "West 2", "West 3", "West 4"]


def test_m06_east_only_extends_into_south_and_never_further() -> None:
    progress = at(0, 3, [26000, 26000, 24000, 24000])
    scores = [26000, 26000, 24000, 24000]
    while not progress.finished:
        advance(progress, hand(progress, scores, winners=((progress.dealer + 1) % 4,)), TONPUU)
    assert [h.name for h in progress.history] == [
        "East 4", "South 1", "South 2", "South 3", "South 4"]


def test_no_extension_when_the_preset_turns_it_off() -> None:
    preset = replace(HANCHAN, west_extension=False)
    progress = at(1, 3, [29000, 29000, 21000, 21000])
    advance(progress, hand(progress, [29000, 29000, 21000, 21000], winners=(1,)), preset)
    assert progress.finished


def test_k13_south_4_non_dealer_win_with_first_on_30000_ends() -> None:
    progress = at(1, 3, [29000, 25000, 25000, 21000])
    advance(progress, hand(progress, [32000, 25000, 25000, 18000], winners=(0,)), CLUB)
    assert progress.finished


def test_south_4_dealer_noten_ends_when_first_has_30000() -> None:
    progress = at(1, 3, [35000, 25000, 20000, 20000])
    advance(progress, hand(progress, [36000, 26000, 21000, 17000]), HANCHAN)
    assert progress.finished


def test_the_end_is_not_checked_before_the_last_hand() -> None:
    progress = at(1, 2, [60000, 20000, 10000, 10000])
    advance(progress, hand(progress, [60000, 20000, 10000, 10000], winners=(0,)), HANCHAN)
    assert not progress.finished and place(progress) == (1, 3, 3, 0)


# --------------------------------------------------------------------------- agari-yame


def test_m06_k13_agari_yame_dealer_wins_last_hand_while_first() -> None:
    progress = at(1, 3, [28000, 25000, 22000, 25000])
    advance(progress, hand(progress, [26000, 25000, 18000, 31000], winners=(3,)), HANCHAN)
    assert progress.finished


def test_m06_agari_yame_dealer_tenpai_at_draw_while_first() -> None:
    progress = at(1, 3, [28000, 25000, 17000, 30000])
    advance(progress, hand(progress, [27000, 24000, 16000, 33000], dealer_tenpai=True), HANCHAN)
    assert progress.finished


def test_m06_dealer_wins_last_hand_but_not_first_continues() -> None:
    progress = at(1, 3, [40000, 20000, 15000, 25000])
    advance(progress, hand(progress, [40000, 20000, 10000, 30000], winners=(3,)), HANCHAN)
    assert not progress.finished
    assert place(progress) == (1, 3, 3, 1)  # South 4 again, one more honba


def test_m06_dealer_first_below_30000_continues() -> None:
    progress = at(1, 3, [25000, 25000, 23000, 27000])
    advance(progress, hand(progress, [24000, 24000, 23000, 29000], winners=(3,)), HANCHAN)
    assert not progress.finished and place(progress) == (1, 3, 3, 1)


def test_dealer_tied_for_first_ranks_below_an_earlier_seat() -> None:
    """Ties go to the seat closer to the first dealer (M-07), so the South 4 dealer (seat 3)
    tied with seat 0 is not first and plays on."""
    progress = at(1, 3, [31000, 20000, 20000, 29000])
    advance(progress, hand(progress, [31000, 19000, 19000, 31000], winners=(3,)), HANCHAN)
    assert not progress.finished


def test_abortive_draw_in_the_last_hand_does_not_end_the_match() -> None:
    progress = at(1, 3, [25000, 20000, 20000, 35000])
    advance(progress, hand(progress, [25000, 20000, 20000, 35000], draw="nine_terminals"), HANCHAN)
    assert not progress.finished and place(progress) == (1, 3, 3, 1)


def test_agari_yame_off_lets_the_dealer_continue() -> None:
    preset = replace(HANCHAN, agari_yame=False)
    progress = at(1, 3, [28000, 25000, 22000, 25000])
    advance(progress, hand(progress, [26000, 25000, 18000, 31000], winners=(3,)), preset)
    assert not progress.finished and place(progress) == (1, 3, 3, 1)


def test_m06_tenpai_yame_off_lets_the_tenpai_dealer_play_on() -> None:
    # Tenhou before June 2010: the last dealer first with 30,000 and tenpai at a draw kept the
    # deal (docs/records.md)
    preset = replace(HANCHAN, tenpai_yame=False)
    progress = at(1, 3, [28000, 25000, 17000, 30000])
    advance(progress, hand(progress, [27000, 24000, 16000, 33000], dealer_tenpai=True), preset)
    assert not progress.finished and place(progress) == (1, 3, 3, 1)


def test_m06_tenpai_yame_off_still_ends_on_the_dealer_win() -> None:
    preset = replace(HANCHAN, tenpai_yame=False)
    progress = at(1, 3, [28000, 25000, 22000, 25000])
    advance(progress, hand(progress, [26000, 25000, 18000, 31000], winners=(3,)), preset)
    assert progress.finished


def test_m06_tenpai_yame_needs_agari_yame() -> None:
    preset = replace(HANCHAN, agari_yame=False, tenpai_yame=True)
    progress = at(1, 3, [28000, 25000, 17000, 30000])
    advance(progress, hand(progress, [27000, 24000, 16000, 33000], dealer_tenpai=True), preset)
    assert not progress.finished


# --------------------------------------------------------------------------- tobi


def test_m06_k13_tobi_below_zero_ends_at_once() -> None:
    progress = at(0, 0)
    advance(progress, hand(progress, [49100, 25000, 26000, -100], winners=(0,)), HANCHAN)
    assert progress.finished
    assert len(progress.history) == 1


def test_k13_exactly_zero_continues() -> None:
    progress = at(0, 0)
    advance(progress, hand(progress, [49000, 25000, 26000, 0], winners=(0,)), HANCHAN)
    assert not progress.finished
    assert place(progress) == (0, 0, 0, 1)


def test_tobi_off_plays_on_below_zero() -> None:
    preset = replace(HANCHAN, tobi=False)
    progress = at(0, 0)
    advance(progress, hand(progress, [49100, 25000, 26000, -100], winners=(2,)), preset)
    assert not progress.finished


def test_tobi_ends_the_last_hand_even_when_the_dealer_would_continue() -> None:
    progress = at(1, 3, [40000, 5000, 25000, 30000])
    advance(progress, hand(progress, [45000, -100, 25100, 30000], winners=(3,)), HANCHAN)
    assert progress.finished


# --------------------------------------------------------------------------- final results


def test_m07_k14_c21_rank_ties_go_to_the_seat_closer_to_the_first_dealer() -> None:
    assert rank_seats([25000, 25000, 25000, 25000]) == [1, 2, 3, 4]
    assert rank_seats([20000, 30000, 30000, 20000]) == [3, 1, 2, 4]
    assert rank_seats([10000, 40000, 25000, 25000]) == [4, 1, 2, 3]
    assert rank_seats([25000, 24000, 26000, 25000]) == [2, 4, 1, 3]


def test_m07_final_results_with_return_uma_and_oka() -> None:
    results = final_results([40000, 30000, 20000, 10000], HANCHAN)
    # (40-30)+15+20 oka, (30-30)+5, (20-30)-5, (10-30)-15
    assert results == [45.0, 5.0, -15.0, -35.0]
    assert sum(results) == 0


def test_m07_final_results_without_oka() -> None:
    results = final_results([45000, 35000, 25000, 15000], CARDS)
    assert results == [30.0, 10.0, -10.0, -30.0]


def test_m07_final_results_on_equal_points() -> None:
    results = final_results([25000] * 4, HANCHAN)
    assert results == [30.0, 0.0, -10.0, -20.0]
    assert sum(results) == 0


def test_single_hand_result_is_the_point_change() -> None:
    results = final_results([33000, 25000, 21000, 21000], SINGLE)
    assert results == [8.0, 0.0, -4.0, -4.0]


@pytest.mark.parametrize("scores", [
    [40000, 30000, 20000, 10000], [25000] * 4, [-1200, 50300, 25500, 25400],
    [31700, 31700, 18300, 18300], [100000, 0, 0, 0],
])
@pytest.mark.parametrize("preset", [HANCHAN, CARDS, CLUB, SINGLE], ids=lambda p: p.name)
def test_m07_results_sum_to_zero(scores: list[int], preset: Preset) -> None:
    start = preset.start_points * 4
    scores = [s + (start - 100000) // 4 for s in scores]
    results = final_results(scores, preset)
    assert round(sum(results), 6) == 0
    ranks = rank_seats(scores)
    for a in range(4):
        for b in range(4):
            if ranks[a] < ranks[b]:
                assert results[a] >= results[b]


def test_results_print_without_negative_zero() -> None:
    results = final_results([25000] * 4, SINGLE)
    assert all(str(r) == "0.0" for r in results)


# --------------------------------------------------------------------------- leftover sticks


def scripted_match(monkeypatch: pytest.MonkeyPatch, preset: Preset,
                   endings: list[tuple[list[int], int]]) -> match_module.MatchResult:
    """play_match with prepared hands: each (scores, sticks) is a draw with the dealer noten."""
    queue: Iterator[tuple[list[int], int]] = iter(endings)

    def fake_play_hand(start: HandStart, preset: Preset, agents: list) -> HandRecord:
        progress = MatchProgress(scores=list(start.scores), dealer=start.dealer,
                                 round_wind=start.round_wind, hand_number=start.hand_number,
                                 honba=start.honba, sticks=start.sticks)
        scores, sticks = next(queue)
        return hand(progress, scores, sticks=sticks)

    monkeypatch.setattr(match_module, "play_hand", fake_play_hand)
    return play_match(preset, [RandomAgent(s) for s in range(4)], seed=1)


def test_m07_k14_leftover_riichi_sticks_go_to_first(monkeypatch: pytest.MonkeyPatch) -> None:
    endings = [([25000, 24000, 25000, 25000], 1)] * 3 + [([25000, 24000, 33000, 16000], 2)]
    result = scripted_match(monkeypatch, TONPUU, endings)
    assert len(result.hands) == 4
    assert result.final_scores == [25000, 24000, 35000, 16000]
    assert result.leftover_sticks == 0
    assert result.ranks == [2, 3, 1, 4]
    assert sum(result.results) == 0


def test_k14_leftover_sticks_on_a_tie_go_to_the_earlier_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    endings = [([25000, 25000, 25000, 25000], 0)] * 3 + [([19000, 30000, 19000, 30000], 2)]
    result = scripted_match(monkeypatch, TONPUU, endings)
    assert result.final_scores == [19000, 32000, 19000, 30000]
    assert result.ranks == [3, 1, 4, 2]


def test_leftover_sticks_stay_when_the_preset_keeps_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    preset = replace(TONPUU, leftover_sticks_to_first=False)
    endings = [([25000, 25000, 25000, 25000], 0)] * 3 + [([25000, 24000, 33000, 16000], 2)]
    result = scripted_match(monkeypatch, preset, endings)
    assert result.final_scores == [25000, 24000, 33000, 16000]
    assert result.leftover_sticks == 2


def test_play_match_stops_on_tobi(monkeypatch: pytest.MonkeyPatch) -> None:
    result = scripted_match(monkeypatch, HANCHAN, [([50000, 25000, 25100, -100], 0)])
    assert len(result.hands) == 1
    assert result.ranks == [1, 3, 2, 4]


# --------------------------------------------------------------------------- single hand


def test_h12_single_hand_preset_plays_exactly_one_hand() -> None:
    """The single-hand preset (seed 001, H-01..H-12) is one deal, whatever happens in it."""
    for i in range(10):
        agents = [RandomAgent(derive_seed("single", i, s)) for s in range(4)]
        result = play_match(SINGLE, agents, seed=5, match_index=i)
        assert len(result.hands) == 1
        rec = result.hands[0]
        assert rec.name == "East 1" and rec.dealer == 0 and rec.honba == 0
        assert [s.start_score for s in rec.seats] == [25000] * 4  # rule H-01
        assert result.leftover_sticks == 0  # rule H-12: deposits return on a draw
        assert sum(result.final_scores) == 100000


def test_single_hand_ends_even_on_a_dealer_win() -> None:
    progress = MatchProgress(scores=[25000] * 4)
    advance(progress, hand(progress, [37000, 21000, 21000, 21000], winners=(0,)), SINGLE)
    assert progress.finished


# --------------------------------------------------------------------------- seeds


def test_derive_seed_is_stable_and_separates_streams() -> None:
    assert derive_seed(1, 0, "wall") == derive_seed(1, 0, "wall")
    seeds = {derive_seed(1, i, kind) for i in range(20) for kind in ("wall", "agent")}
    assert len(seeds) == 40
    assert all(0 <= s < 2**63 for s in seeds)


def test_walls_do_not_depend_on_the_agents() -> None:
    """The deal of East 1 comes from the seed alone, not from who plays it."""
    a = play_match(TONPUU, [RandomAgent(s) for s in range(4)], seed=3)
    b = play_match(TONPUU, [RandomAgent(100 + s) for s in range(4)], seed=3)
    deal_a = [e for e in a.hands[0].events if e.kind == "deal"]
    deal_b = [e for e in b.hands[0].events if e.kind == "deal"]
    assert deal_a == deal_b
