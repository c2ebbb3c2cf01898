"""A whole match: which hand comes next, when the match ends, and the final results.

A match is a function of (seed, match index, preset, agents): the walls come from their own
random stream derived from the seed and match index, so neither worker count nor agents change
the tiles a hand is dealt.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pipeline.rules.agents import Agent
from pipeline.rules.hand import HandStart, play_hand
from pipeline.rules.hooks import AbilityHooks
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandRecord
from pipeline.rules.wall import Wall

MAX_HANDS = 200  # a guard: no real match comes near it


def derive_seed(*parts: object) -> int:
    """An independent, reproducible seed for one stream (walls, one seat's agent, ...)."""
    return random.Random("/".join([str(p) for p in parts])).getrandbits(63)


@dataclass
class MatchResult:
    hands: list[HandRecord]
    final_scores: list[int]
    ranks: list[int]          # 1 = first, per seat
    results: list[float]      # final result per seat, in thousands, with uma and oka (M-07)
    leftover_sticks: int = 0
    leftover_stakes: int = 0  # points abilities staked that nobody collected (C-18)

    def standings(self) -> str:
        order = sorted(range(len(self.ranks)), key=lambda s: self.ranks[s])
        return "\n".join([f"{self.ranks[s]}. P{s}  {self.final_scores[s]:>7}  "
                         f"{self.results[s]:+.1f}" for s in order])


@dataclass
class MatchProgress:
    """Where the match stands between hands."""

    scores: list[int]
    dealer: int = 0
    round_wind: int = 0
    hand_number: int = 0
    honba: int = 0
    sticks: int = 0
    stakes: int = 0
    finished: bool = False
    history: list[HandRecord] = field(default_factory=list)


def rank_seats(scores: list[int]) -> list[int]:
    """Rank per seat; on equal points the seat closer to the first dealer ranks higher (M-07,
    K-14, C-21)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    ranks = [0] * len(scores)
    for place, s in enumerate(order):
        ranks[s] = place + 1
    return ranks


def final_results(scores: list[int], preset: Preset) -> list[float]:
    """Score minus the return, in thousands, plus uma by rank; first place takes what makes the
    results sum to 0, which is its own score and uma plus the oka (rule M-07; with three players
    the oka is three returns' difference, S-10)."""
    ranks = rank_seats(scores)
    results = [0.0] * len(scores)
    for s in range(len(scores)):
        if ranks[s] != 1:
            results[s] = round((scores[s] - preset.return_points) / 1000
                               + preset.uma[ranks[s] - 1], 1)
    results[ranks.index(1)] = round(-sum(results), 1) + 0.0  # never -0.0
    return results


def last_wind(preset: Preset) -> int:
    return {"single": 0, "tonpuusen": 0, "hanchan": 1}[preset.length]


def advance(progress: MatchProgress, rec: HandRecord, preset: Preset) -> None:
    """Apply one finished hand: renchan and honba (M-03, K-12), and the end of the match
    (M-06, K-13)."""
    progress.history.append(rec)
    progress.scores = [s.end_score for s in rec.seats]
    progress.sticks = rec.sticks_end
    progress.stakes = rec.stakes_end
    if preset.length == "single":
        progress.finished = True
        return
    if preset.tobi and any(s < 0 for s in progress.scores):  # exactly 0 continues
        progress.finished = True
        return
    renchan = rec.dealer_continues
    if rec.draw_kind != "chombo":  # rule K-12: a chombo replays the hand, the counter stays
        progress.honba = (0 if (rec.wins and not renchan)
                          else progress.honba + 1 + rec.honba_added)
    final_wind = last_wind(preset)
    last_hand = preset.players - 1  # a wind has one hand per seat (S-10)
    all_last = progress.round_wind == final_wind and progress.hand_number == last_hand
    extension = progress.round_wind > final_wind
    if all_last or extension:
        top = progress.scores.index(max(progress.scores))
        target = preset.target_points
        plays_on = renchan and preset.extension_renchan == "plays-on"
        if extension and progress.scores[top] >= target and not plays_on:
            progress.finished = True  # the extension ends as soon as someone has the target
            return
        if renchan:
            dealer_top = rank_seats(progress.scores)[progress.dealer] == 1
            stops = rec.draw_kind is None or (
                preset.tenpai_yame and rec.draw_kind in ("exhaustive", "nagashi_mangan"))
            if (preset.agari_yame and stops and dealer_top
                    and progress.scores[progress.dealer] >= target):
                progress.finished = True
                return
        elif progress.scores[top] >= target or not preset.west_extension:
            progress.finished = True
            return
        elif extension and progress.hand_number == last_hand:
            progress.finished = True  # no round after the extension wind
            return
    if not renchan:
        progress.dealer = (progress.dealer + 1) % preset.players
        progress.hand_number += 1
        if progress.hand_number == preset.players:
            progress.hand_number = 0
            progress.round_wind += 1


class HandTable(Protocol):
    """What a card layer offers the match loop: each hand's abilities, and the hand's end."""

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]: ...

    def hand_done(self, rec: HandRecord) -> None: ...


@dataclass
class MatchState:
    """A match between two hands: its walls' stream and where it stands. Handed to a table's
    optional ``before_hand`` before each hand is dealt; a copy (:meth:`copy`) lets the match be
    played on from that point with other agents or another table (``play_match(state=...)``)."""

    wall_rng: random.Random
    progress: MatchProgress

    def copy(self) -> MatchState:
        """An independent copy: the stream at the same point, the standing's lists copied (the
        finished hands' records are shared: a finished hand is not changed)."""
        rng = random.Random()
        rng.setstate(self.wall_rng.getstate())
        p = self.progress
        return MatchState(rng, MatchProgress(
            scores=list(p.scores), dealer=p.dealer, round_wind=p.round_wind,
            hand_number=p.hand_number, honba=p.honba, sticks=p.sticks, stakes=p.stakes,
            finished=p.finished, history=list(p.history)))


def new_match_state(preset: Preset, seed: int, match_index: int) -> MatchState:
    """Match ``match_index`` of ``seed`` before its first hand."""
    return MatchState(random.Random(derive_seed(seed, match_index, "wall")),
                      MatchProgress(scores=[preset.start_points] * preset.players))


def play_match(preset: Preset, agents: list[Agent], seed: int, match_index: int = 0, *,
               on_hand: Callable[[HandRecord], None] | None = None,
               table: HandTable | None = None, state: MatchState | None = None
               ) -> MatchResult:
    """Play one match; ``on_hand`` sees every finished hand (for printing or streaming);
    ``table`` (the card layer) gives each hand's abilities, and is shown the match before each
    hand when it has ``before_hand``; ``state``: play on from there instead of the first hand
    (the agents and the table as they were then)."""
    if state is None:
        state = new_match_state(preset, seed, match_index)
    wall_rng, progress = state.wall_rng, state.progress
    before_hand = getattr(table, "before_hand", None)
    while not progress.finished:
        if len(progress.history) >= MAX_HANDS:
            raise RuntimeError(f"match {match_index} did not end within {MAX_HANDS} hands")
        if before_hand is not None:
            before_hand(state)
        start = HandStart(
            wall=(Wall.shuffled(wall_rng) if preset.players == 4
                  else Wall.shuffled(wall_rng, preset.players)).order, dealer=progress.dealer,
            round_wind=progress.round_wind, hand_number=progress.hand_number,
            honba=progress.honba, sticks=progress.sticks, scores=tuple(progress.scores),
            stakes=progress.stakes,
        )
        if table is None:
            rec = play_hand(start, preset, agents)
        else:
            abilities = table.abilities_for(start)
            # a table may seat stand-ins that watch the agents (the paired replay's), after
            # the picks; ``seated`` is optional for a table
            seated = getattr(table, "seated", None)
            rec = play_hand(start, preset, agents if seated is None else seated(agents),
                            abilities)
            table.hand_done(rec)
        if on_hand is not None:
            on_hand(rec)
        advance(progress, rec, preset)
    scores = list(progress.scores)
    leftover, stakes = progress.sticks, progress.stakes
    if (leftover or stakes) and preset.leftover_sticks_to_first:  # rule M-07, K-14
        scores[rank_seats(scores).index(1)] += 1000 * leftover + stakes  # stakes like sticks
        leftover = stakes = 0
    result = MatchResult(hands=progress.history, final_scores=scores, ranks=rank_seats(scores),
                         results=final_results(scores, preset), leftover_sticks=leftover,
                         leftover_stakes=stakes)
    done = getattr(table, "match_done", None)
    if done is not None:
        done(result)
    return result
