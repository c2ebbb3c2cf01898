"""The expert style: a card's choices weighed by determinized rollouts (pipeline/bots/expert.py).

Exact situations are built tile by tile (pipeline/rules/scenario.py); a wager ability defined
here makes the better option known: the bot's rule takes the card's first listed declaration,
which costs the seat 8,000 points at the hand's end, while the second earns it 8,000.
"""

from __future__ import annotations

import random

import pytest

from pipeline.bots.expert import ExpertBot
from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.policies import holder_bot
from pipeline.bots.registry import check_kind, make_agent
from pipeline.bots.rollout import determinize, seen_tiles
from pipeline.bots.shanten import shanten
from pipeline.cards.lookahead import ChoiceLog, HandContext
from pipeline.cards.moves import Move
from pipeline.cards.table import CardTable
from pipeline.rules.actions import ability_action
from pipeline.rules.hand import play_hand
from pipeline.rules.hooks import AbilityHooks
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import counts34

PRESET = load_preset("online-tonpuusen")
HANDS = ["123m456p789s1155z", "147m258p369s1234z", "258m369p147s5677z", "369m147p258s2344z"]
WAGER = 8000


class Wager(AbilityHooks):
    """A card that makes its holder declare on her first turn: "lose" (listed first, as a
    card lists its sensible declaration) costs her 8,000 from the next seat at the hand's
    end, "win" earns her as much."""

    name = "wager"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.declared: str | None = None

    def turn_choices(self, view):
        if self.declared is not None or view.seat != self.seat:
            return []
        return [ability_action(self.seat, self.name, Move.DECLARE, payload=(word,))
                for word in ("lose", "win")]

    def action_taken(self, action) -> None:
        self.declared = action.payload[0]

    def hand_end(self, view, table) -> None:
        other = (self.seat + 1) % 4
        if self.declared == "win":
            table.transfer(other, self.seat, WAGER, self.name, "won")
        elif self.declared == "lose":
            table.transfer(self.seat, other, WAGER, self.name, "lost")


def _abilities() -> list:
    return [Wager(0), None, None, None]


def _play(agent, start=None) -> tuple:
    """The hand played with ``agent`` at seat 0 and the wager card, the table recording the
    choices as the card table does for a player that looks ahead."""
    start = start or scenario_start(HANDS)
    agents = [agent, HeuristicBot(11), HeuristicBot(12), HeuristicBot(13)]
    context = HandContext(start, PRESET, _abilities, agents)
    for a in agents:
        if hasattr(a, "begin_hand"):
            a.begin_hand(context)
    context.recording = True
    seated = [ChoiceLog(a, s, context) for s, a in enumerate(agents)]
    record = play_hand(start, PRESET, seated, _abilities())
    chosen = [a.payload[0] for s, a in context.choices if s == 0 and a.tag is Move.DECLARE]
    return record, chosen


def test_the_expert_weighs_a_card_choice_by_playing_it_out_and_takes_the_better() -> None:
    # rule C-03 (a card's choice is its holder's): the bot's rule takes the first listed
    plain = HeuristicBot(7)
    _, by_rule = _play(plain)
    assert by_rule == ["lose"]
    assert plain.declared == frozenset({"lose"})
    expert = ExpertBot(7)
    record, chosen = _play(expert)
    assert chosen == ["win"]
    assert expert.declared == frozenset({"win"})  # kept from the option played, not the rule's
    assert expert.looked >= 1 and expert.changed >= 1
    assert record.seats[0].delta >= WAGER - 12000  # the wager is paid (a hand may cost more)


def test_without_lookahead_the_expert_plays_as_the_heuristic_bot() -> None:
    # no context from a card table (a plain table, a replay's copy): no rollouts
    expert = ExpertBot(7)
    start = scenario_start(HANDS)
    agents = [expert, HeuristicBot(11), HeuristicBot(12), HeuristicBot(13)]
    play_hand(start, PRESET, agents, _abilities())
    assert expert.looked == 0
    base = play_hand(start, PRESET, [HeuristicBot(7), HeuristicBot(11), HeuristicBot(12),
                                     HeuristicBot(13)], _abilities())
    again = play_hand(start, PRESET, [ExpertBot(7), HeuristicBot(11), HeuristicBot(12),
                                      HeuristicBot(13)], _abilities())
    assert [(e.kind, e.seat, e.tile) for e in again.events] == \
        [(e.kind, e.seat, e.tile) for e in base.events]


def test_the_expert_is_a_function_of_its_seed() -> None:
    first = _play(ExpertBot(21))[0]
    second = _play(ExpertBot(21))[0]
    logs = [[(e.kind, e.seat, e.tile, e.detail) for e in r.events]  # wording: whole logs
            for r in (first, second)]
    assert logs[0] == logs[1]
    assert [s.delta for s in first.seats] == [s.delta for s in second.seats]


class _Capture(ScriptAgent):
    """Seat 0: tsumogiri; at its fourth turn, draws two deals with the same stream."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self.turns = 0
        self.deals: list = []
        self.seen: frozenset[int] = frozenset()

    def decide(self, obs, legal):
        if legal[-1].kind.value != "pass":
            self.turns += 1
            if self.turns == 4:
                self.seen = seen_tiles(obs)
                wall = obs._state.start.wall
                self.deals = [determinize(obs, wall, random.Random(self.seed)) for _ in "ab"]
                self.deals.append(determinize(obs, wall, random.Random(self.seed + 1)))
                self.hidden = {s: sorted(obs._state.players[s].concealed) for s in (1, 2, 3)}
        return super().decide(obs, legal)


def _captured(wall: tuple[int, ...], seed: int = 5) -> _Capture:
    start = scenario_start(HANDS)
    start = type(start)(wall=wall, dealer=0, scores=start.scores)
    seat0 = _Capture(seed)
    play_hand(start, PRESET, [seat0, ScriptAgent(), ScriptAgent(), ScriptAgent()])
    return seat0


def test_a_drawn_deal_depends_on_what_the_seat_sees_and_the_stream_only() -> None:
    wall = scenario_start(HANDS).wall
    real = _captured(wall)
    a, b, other = real.deals
    assert a == b and a.wall != other.wall  # the stream decides the draw
    # every tile the seat saw lies where it lay; the other seats' hidden tiles are redrawn
    for p, t in enumerate(wall):
        if t in real.seen:
            assert a.wall[p] == t
    assert sorted(a.wall) == sorted(wall)
    # the same state but for hidden tiles: a tile of seat 1's hand (never discarded, the
    # scripted seats discard what they draw) swapped with one of the undrawn wall, and a
    # tile of seat 2's hand swapped with one of seat 3's
    swapped = list(wall)
    one = wall.index(real.hidden[1][0])
    last = len(wall) - 20  # far in the live wall: not drawn by the fourth turn
    assert wall[last] not in real.seen
    swapped[one], swapped[last] = swapped[last], swapped[one]
    two, three = wall.index(real.hidden[2][0]), wall.index(real.hidden[3][0])
    swapped[two], swapped[three] = swapped[three], swapped[two]
    moved = _captured(tuple(swapped))
    assert moved.seen == real.seen
    assert moved.hidden != real.hidden
    assert moved.deals[0].wall == a.wall  # the same draw: nothing hidden was read


def test_a_seat_in_riichi_is_dealt_a_tenpai_hand() -> None:
    # seat 1 declares riichi at once on a tenpai hand; seat 0 draws deals afterwards
    hands = ["123m456p789s1155z", "123m456p789s2233z", "258m369p147s5677z",
             "369m147p258s2444z"]
    start = scenario_start(hands, draws="1s9s")
    seat0 = _Capture(3)
    play_hand(start, PRESET, [seat0, ScriptAgent(["riichi 9s"]), ScriptAgent(), ScriptAgent()])
    assert seat0.deals, "seat 0 reached its fourth turn"
    deal = seat0.deals[0]
    places = [p for p, t in enumerate(start.wall) if t in seat0.hidden[1]]
    tiles = [deal.wall[p] for p in places]
    assert len(tiles) == 13 and sorted(tiles) != sorted(seat0.hidden[1])
    assert shanten(counts34(tiles), 0) == 0


def test_the_expert_style_is_a_registered_style_and_a_policy() -> None:
    check_kind("heuristic:expert")
    assert type(make_agent("heuristic:expert", 3)) is ExpertBot
    assert type(make_agent("heuristic", 3)) is HeuristicBot
    assert type(holder_bot("expert", 3)) is ExpertBot


@pytest.mark.parametrize("card", ["haru_takimi", "kuro_matsumi"])
def test_the_expert_plays_legal_repeatable_matches_through_the_card_table(card) -> None:
    # legality: the engine refuses any action it did not offer; determinism: the same seed
    # plays the same match (the deals' stream is derived from the seed)
    preset = load_preset("cards-tonpuusen")

    def match() -> tuple:
        agents = [make_agent("heuristic", derive_seed(4, 0, "agent", s)) for s in range(4)]
        agents[0] = ExpertBot(derive_seed(4, 0, "agent", 0))
        table = CardTable(preset, agents, 4, 0, holder=(0, card))
        result = play_match(preset, agents, 4, 0, table=table)
        return result.final_scores, agents[0].looked, [len(h.events) for h in result.hands]

    first = match()
    assert first[1] > 0  # the card's choices or incentives were weighed
    assert match() == first


def test_a_trial_held_by_the_expert_reports_the_value_for_an_expert_player() -> None:
    import polars as pl

    from pipeline.analytics.verdict import EXPERT_COLUMNS, played_by_expert, with_expert_value

    table = pl.DataFrame({"card": ["a", "b"], "value": [120.0, -40.0],
                          "value_lo": [20.0, -140.0], "value_hi": [220.0, 60.0]})
    plain = {"bots": ["heuristic"] * 4}
    assert not played_by_expert(plain)
    assert with_expert_value(table, plain).columns == table.columns
    for doc in ({"bots": ["heuristic"] * 4, "holder_policy": "expert"},
                {"bots": ["heuristic:expert"] * 4}):
        assert played_by_expert(doc)
        got = with_expert_value(table, doc)
        assert got.select(EXPERT_COLUMNS).rows() == [(120.0, 20.0, 220.0), (-40.0, -140.0, 60.0)]


def test_cli_trial_holder_policy_errors_are_one_line() -> None:
    from typer.testing import CliRunner

    import cli
    from tests.support.cli_errors import assert_one_line_error

    result = CliRunner().invoke(cli.app, ["trial", "--only", "haru_takimi", "--holder-policy",
                                          "wiser"])
    assert_one_line_error(result, "wiser")
    result = CliRunner().invoke(cli.app, ["trial", "--kind", "team", "--holder-policy",
                                          "expert"])
    assert_one_line_error(result, "--holder-policy")


def test_the_paired_table_seats_the_card_tables_choice_log_for_the_expert() -> None:
    # a trial's table: the paired replay's taps around the card table's choice log, so the
    # expert holder looks ahead in the real hands; its replays' copies play without lookahead
    from pipeline.sim.paired import PairedTable

    preset = load_preset("cards-tonpuusen")

    def match() -> tuple:
        agents = [make_agent("heuristic", derive_seed(6, 1, "agent", s)) for s in range(4)]
        agents[1] = ExpertBot(derive_seed(6, 1, "agent", 1))
        cards = CardTable(preset, agents, 6, 1, holder=(1, "kuro_matsumi"))
        table = PairedTable(cards, preset, seats=(1,))
        result = play_match(preset, agents, 6, 1, table=table)
        assert cards.context is not None and cards.context.recording
        return (result.final_scores, agents[1].looked,
                [p.without.seats[1].delta for p in table.pairs])

    first = match()
    assert first[1] > 0 and first[2]
    assert match() == first
