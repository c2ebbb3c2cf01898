"""The card-free table checks of random play (what may be offered, hand ends, match ends) and the
eager player that makes wins, kans and riichi happen."""

from __future__ import annotations

import random
from collections import Counter

from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.match import MatchResult, last_wind
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandRecord

EAGER_ORDER = {
    ActionKind.TSUMO: 0,
    ActionKind.RON: 0,
    ActionKind.RIICHI: 1,
    ActionKind.ANKAN: 2,
    ActionKind.KAKAN: 2,
    ActionKind.MINKAN: 2,
    ActionKind.PON: 3,
    ActionKind.CHI: 4,
    ActionKind.KITA: 5,
}

class EagerAgent:
    """Takes the most committal action offered: wins, then riichi, kans, pon, chi.

    Otherwise it discards its most isolated tile (fewest copies and neighbours), which brings
    hands to tenpai far more often than random discards; ties are broken by its own stream.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        best = min(EAGER_ORDER.get(a.kind, 9) for a in legal)
        if best < 9:
            return self.rng.choice([a for a in legal if EAGER_ORDER.get(a.kind, 9) == best])
        discards = [a for a in legal if a.kind == ActionKind.DISCARD]
        if not discards:
            return self.rng.choice(legal)
        types = Counter(t // 4 for t in obs.concealed)

        def isolation(a: Action) -> tuple[int, float]:
            t = a.tile // 4
            links = 3 * (types[t] - 1)
            if t < 27:
                for d in (-2, -1, 1, 2):
                    u = t + d
                    if u // 9 == t // 9 and 0 <= u < 27:
                        links += types[u] * (2 if abs(d) == 1 else 1)
            return links, self.rng.random()

        return min(discards, key=isolation)


OWN_TURN = frozenset({ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.TSUMO,
                      ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.NINE_TERMINALS})


CALLS = frozenset({ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN})

KANS = frozenset({ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.MINKAN})

def check_offer(state: HandState, seat: int, legal: list[Action], preset: Preset) -> None:
    """What may be offered at all, whatever the hand."""
    p = state.players[seat]
    kinds = {a.kind for a in legal}
    if state.wall.last_discard:  # rule K-03: no open calls on the last discard
        assert not kinds & CALLS
    if state.wall.at_last_tile or state.wall.live_left == 0:
        # K-03: no kan on the last draw; H-06, K-07: a kan moves a live tile to the dead wall
        assert not kinds & {ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.MINKAN}
    if ActionKind.RIICHI in kinds:  # rule H-08, K-02
        assert p.is_closed and not p.riichi
        assert state.wall.live_left >= preset.riichi_min_wall >= preset.players
        assert state.scores[seat] >= preset.riichi_min_points
    if p.riichi and kinds & OWN_TURN:  # rule H-08: the hand is locked
        assert [a.tile for a in legal if a.kind == ActionKind.DISCARD] == [p.drawn]
        assert ActionKind.KAKAN not in kinds
        if preset.kan_after_riichi == "none":
            assert ActionKind.ANKAN not in kinds
    if p.riichi:
        assert not kinds & CALLS
    if p.kans >= 4:
        assert not kinds & KANS  # rule K-08
    if kinds & CALLS:
        discarder = next(e.seat for e in reversed(state.events) if e.kind == "discard")
        assert discarder != seat
        if ActionKind.CHI in kinds:
            assert seat == (discarder + 1) % 4  # rule H-05: only the next player may chi
            assert preset.players == 4  # rule S-02: no chi with three
    if ActionKind.KITA in kinds:  # rule S-03
        assert preset.kita and preset.players == 3 and state.wall.live_left > 0


def check_hand_end(rec: HandRecord, preset: Preset, prev: HandRecord | None) -> None:
    start = preset.players * preset.start_points
    assert sum(s.end_score for s in rec.seats) + 1000 * rec.sticks_end + rec.stakes_end == start
    assert sum(s.start_score for s in rec.seats) + 1000 * rec.sticks_start + \
        rec.stakes_start == start
    assert rec.sticks_end >= 0 and rec.stakes_end >= 0
    if prev is not None:
        assert [s.start_score for s in rec.seats] == [s.end_score for s in prev.seats]
        assert rec.sticks_start == prev.sticks_end and rec.stakes_start == prev.stakes_end
    assert bool(rec.wins) != (rec.draw_kind is not None), "a hand ends by wins or by a draw"
    assert rec.events and rec.events[0].kind == "deal"
    for w in rec.wins:
        assert w.points > 0 and (w.han > 0 or w.yakuman > 0) and w.yaku  # rule H-03
    if rec.draw_kind == "chombo":  # rule C-20: a card's illegal win, under any preset
        assert preset.cards.enabled and not rec.wins
        assert rec.dealer_continues  # K-12: the same dealer plays the hand again
        assert any(e.kind == "chombo" for e in rec.events)
    elif rec.draw_kind not in (None, "exhaustive", "nagashi_mangan"):
        assert preset.abortive_draws
        assert rec.dealer_continues  # rule M-04: an abortive draw is replayed by the same dealer


def check_match(result: MatchResult, preset: Preset) -> None:
    hands = result.hands
    assert hands
    assert sorted(result.ranks) == list(range(1, preset.players + 1))
    assert abs(sum(result.results)) < 1e-6  # rule M-07
    assert sum(result.final_scores) + 1000 * result.leftover_sticks + result.leftover_stakes \
        == preset.players * preset.start_points
    last = hands[-1]
    tobi = preset.tobi and any(s.end_score < 0 for s in last.seats)
    if preset.length == "single":
        assert len(hands) == 1
        return
    # rule M-06, K-13: no round after the extension wind
    assert all(h.round_wind <= last_wind(preset) + 1 for h in hands)
    if not tobi:
        # rule M-01: East-only plays at least East 1-4, hanchan at least East 1 to South 4
        # (S-10: three hands a wind with three players)
        assert len({(h.round_wind, h.hand_number) for h in hands}) >= \
            preset.players * (last_wind(preset) + 1)
    # the match ended for a reason (M-06, K-13)
    top = max(s.end_score for s in last.seats)
    final = preset.players - 1
    assert all(h.hand_number <= final for h in hands)
    reached_end = (last.round_wind, last.hand_number) >= (last_wind(preset), final)
    assert tobi or (reached_end and (top >= preset.target_points or not preset.west_extension
                                     or (last.round_wind, last.hand_number)
                                     == (last_wind(preset) + 1, final)))


class StakingEagerAgent(EagerAgent):
    """The eager player kept closed (so it reaches riichi often), which takes every riichi an
    ability offers with a stake."""

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        staked = [a for a in legal if a.kind == ActionKind.ABILITY
                  and a.tag is AbilityTag.RIICHI and a.payload is not None]
        choice = super().decide(obs, legal)
        if staked and choice.kind == ActionKind.RIICHI:
            return self.rng.choice(staked)
        if choice.kind in (ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN):
            return next(a for a in legal if a.kind == ActionKind.PASS)
        return choice
