"""Random-play invariants over every shipped preset.

Every decision of every seat goes through :class:`CheckingAgent`, which inspects the table
through ``obs._state`` before the wrapped agent answers:

- all 136 physical tiles (108 with three players, rule S-01) are accounted for, each exactly
  once (hands, melds, discards, Norths set aside, live wall, dead wall, reserve), with exactly
  one red five per suit (rule H-01);
- there is at least one legal action and the answer is one of them;
- points are conserved: the scores plus the riichi sticks and stakes on the table equal one
  starting stack a seat.

After every hand and after the match, the records are checked too: conservation at every hand end,
one hand's end is the next hand's start, the match length and the wind limits (M-01, M-06, K-13),
and final results that sum to 0 (M-07).

Two kinds of players are used: uniformly random ones, and an "eager" player that wins, declares
riichi, kans and calls whenever offered and otherwise throws its most isolated tile, so wins,
kans, riichi, abortive draws and tobi actually happen.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.hand import HandState
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, list_presets, load_preset
from pipeline.rules.records import DrawSource, HandRecord
from pipeline.tiles import NUM_TILES, RED_FIVE_IDS, tile_to_str
from tests.support.rule_checks import (
    OWN_TURN,
    EagerAgent,
    check_hand_end,
    check_match,
    check_offer,
)

PRESETS = list_presets()

# Matches per preset in the default run: the short presets carry most of the count.
DEFAULT_RANDOM = {
    "single-hand": 240,
    "online-tonpuusen": 40,
    "cards-tonpuusen": 40,
    "online-hanchan": 10,
    "club-hanchan": 10,
    "cards-hanchan": 10,
    "tournament-2022": 4,
    "riichienv": 3,
    "sanma-tonpuusen": 12,
    "sanma-hanchan": 4,
    "tenhou-sanma": 3,
    "riichienv-sanma": 3,
    "cards-sanma": 3,
}
DEFAULT_EAGER = {
    "single-hand": 90,
    "online-tonpuusen": 20,
    "cards-tonpuusen": 20,
    "online-hanchan": 7,
    "club-hanchan": 7,
    "cards-hanchan": 7,
    "tournament-2022": 4,
    "riichienv": 3,
    "sanma-tonpuusen": 8,
    "sanma-hanchan": 3,
    "tenhou-sanma": 3,
    "riichienv-sanma": 3,
    "cards-sanma": 3,
}
SLOW_RANDOM = 300
SLOW_EAGER = 300
CHUNK = 25  # matches per test case, so pytest-xdist can spread the work


def table_tiles(state: HandState) -> list[int]:
    """Every physical tile the table holds right now, in any place."""
    tiles: list[int] = []
    for p in state.players:
        tiles.extend(p.concealed)
        for m in p.melds:
            tiles.extend(m.tiles)
        # A called discard lives on in the caller's meld.
        tiles.extend(d.tile for d in p.discards if not d.called)
        tiles.extend(p.kita)  # Norths set aside (three players, S-03)
    w = state.wall
    tiles.extend(w.live)
    tiles.extend(w.rinshan)
    tiles.extend(w.indicators)
    tiles.extend(w.ura)
    tiles.extend(w.reserve)
    return tiles


ALL_TILES = frozenset(range(NUM_TILES))


def test_one_red_five_per_suit() -> None:
    """Rule H-01: of the 136 ids, exactly one per suit prints as a red five."""
    reds = sorted(tile_to_str(t) for t in range(NUM_TILES) if tile_to_str(t)[0] == "0")
    assert reds == ["0m", "0p", "0s"]
    assert sorted(tile_to_str(t) for t in RED_FIVE_IDS) == ["0m", "0p", "0s"]


def check_tiles(state: HandState, in_flight: set[int]) -> None:
    """Rule H-01: 136 distinct tiles, the red fives among them once each; K-07: 14 dead tiles."""
    tiles = table_tiles(state)
    present = set(tiles)
    if len(tiles) != len(present):
        doubled = sorted(t for t, n in Counter(tiles).items() if n > 1)
        raise AssertionError(f"tiles in two places: {doubled}")
    missing = set(state.wall.order) - present  # 136 tiles, or 108 with three players
    assert present <= set(state.wall.order)
    # An added kan's tile (or a North set aside) waits in the air while others may rob it.
    assert missing <= in_flight, f"tiles missing: {sorted(missing - in_flight)}"
    assert len(present) + len(missing) == len(state.wall.order)
    assert all(t in present or t in missing for t in RED_FIVE_IDS if t in state.wall.order)
    w = state.wall
    dead = len(w.rinshan) + len(w.indicators) + len(w.ura) + len(w.reserve)
    extra = len(w.indicators) - 5  # rule C-19: an indicator past the fifth took 2 live tiles
    assert extra >= 0 and len(w.ura) == len(w.indicators)
    assert dead == 14 + 2 * extra, f"dead wall holds {dead} tiles"
    assert 1 <= w.revealed <= len(w.indicators)


def check_hand_sizes(state: HandState, seat: int, legal: list[Action]) -> None:
    """Rule H-02, H-04: 13 tiles a seat (a kan counting as three), 14 for the seat on turn;
    kans and replacements agree (at most four, K-07: one live tile to the dead wall each, K-08)."""
    own_turn = any(a.kind in OWN_TURN for a in legal)
    for p in state.players:
        size = len(p.concealed) + 3 * len(p.melds)
        expected = 14 if own_turn and p.seat == seat else 13
        assert size == expected, f"P{p.seat} holds {size} tiles, expected {expected}"
        assert p.kans == sum(m.is_kan for m in p.melds) <= 4  # rule K-08
    kans = sum(p.kans for p in state.players)
    assert kans == state.kan_count
    # rule S-03: the draws after a kita replace too (a North just set aside, offered to be
    # robbed, has none yet)
    replaced = kans + sum(1 for e in state.events if e.drawn_from is DrawSource.KITA)
    assert len(state.wall.rinshan) == max(0, 4 - replaced)
    assert len(state.wall.reserve) == min(replaced, 4)


class Checks:
    """Counts what the checks saw, so a run can show that wins, kans and riichi happened."""

    def __init__(self) -> None:
        self.decisions = 0
        self.kinds: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()


class CheckingAgent:
    """Wraps an agent and checks the table at every decision it is asked to make."""

    def __init__(self, inner: Agent, preset: Preset, checks: Checks) -> None:
        self.inner = inner
        self.preset = preset
        self.checks = checks

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state: HandState = obs._state
        assert legal, f"P{obs.seat} has no legal action"
        assert all(a.seat == obs.seat for a in legal)
        assert len(set(legal)) == len(legal), "an action is offered twice"
        in_flight = {a.tile for a in legal if a.kind == ActionKind.RON}
        check_tiles(state, in_flight)
        check_hand_sizes(state, obs.seat, legal)
        check_offer(state, obs.seat, legal, self.preset)
        total = sum(state.scores) + 1000 * state.sticks + state.stakes  # stakes: rule C-18
        assert total == self.preset.players * self.preset.start_points, \
            f"points not conserved: {total}"
        choice = self.inner.decide(obs, legal)
        assert choice in legal, f"{choice} is not among the legal actions"
        self.checks.decisions += 1
        self.checks.kinds[choice.kind.value] += 1
        return choice


def run_matches(name: str, make_agent, count: int, offset: int) -> Checks:
    preset = load_preset(name)
    checks = Checks()
    for i in range(offset, offset + count):
        agents = [CheckingAgent(make_agent(derive_seed(name, i, "agent", s)), preset, checks)
                  for s in range(preset.players)]
        prev: list[HandRecord] = []

        def on_hand(rec: HandRecord, preset: Preset = preset, prev: list[HandRecord] = prev
                    ) -> None:
            check_hand_end(rec, preset, prev[-1] if prev else None)
            prev.append(rec)

        result = play_match(preset, agents, seed=7, match_index=i, on_hand=on_hand)
        assert len(prev) == len(result.hands)
        check_match(result, preset)
        for h in result.hands:
            for w in h.wins:
                checks.outcomes["win_tsumo" if w.is_tsumo else "win_ron"] += 1
            if h.draw_kind:
                checks.outcomes[h.draw_kind] += 1
            checks.outcomes["kans"] += sum(s.kans for s in h.seats)
            checks.outcomes["riichi"] += sum(s.riichi for s in h.seats)
    return checks


def cases(counts: dict[str, int]) -> list[tuple[str, int, int]]:
    """(preset, first match, count) chunks covering every preset."""
    out = []
    for name in PRESETS:
        total = counts.get(name, min(counts.values()))
        for start in range(0, total, CHUNK):
            out.append((name, start, min(CHUNK, total - start)))
    return out


def test_every_preset_is_covered() -> None:
    assert set(PRESETS) == set(DEFAULT_RANDOM) == set(DEFAULT_EAGER)
    assert sum(DEFAULT_RANDOM.values()) + sum(DEFAULT_EAGER.values()) >= 500


@pytest.mark.parametrize(("name", "offset", "count"), cases(DEFAULT_RANDOM))
def test_random_play_invariants(name: str, offset: int, count: int) -> None:
    checks = run_matches(name, RandomAgent, count, offset)
    assert checks.decisions > 0


@pytest.mark.parametrize(("name", "offset", "count"), cases(DEFAULT_EAGER))
def test_eager_play_invariants(name: str, offset: int, count: int) -> None:
    checks = run_matches(name, EagerAgent, count, 10_000 + offset)
    assert checks.decisions > 0


def test_eager_play_reaches_wins_kans_and_riichi() -> None:
    """The eager player exercises the interesting paths, so the checks above mean something."""
    total: Counter[str] = Counter()
    for name in ("online-tonpuusen", "club-hanchan"):
        checks = run_matches(name, EagerAgent, 6, 20_000)
        total.update(checks.outcomes)
        total.update(checks.kinds)
    assert total["win_tsumo"] > 0 and total["win_ron"] > 0
    assert total["riichi"] > 0 and total["kans"] > 0
    assert total["pon"] > 0 and total["chi"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("agent", ["random", "eager"])
def test_many_matches_slow(name: str, agent: str) -> None:
    make = RandomAgent if agent == "random" else EagerAgent
    count = SLOW_RANDOM if agent == "random" else SLOW_EAGER
    run_matches(name, make, count, 100_000)
