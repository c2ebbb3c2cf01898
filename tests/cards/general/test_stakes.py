"""The engine's stake and settlement machinery and the general card rules C-18..C-21.

Stakes are points an ability puts on the table like a riichi stick (the next winner collects
them); a settlement is the list of transfers of a hand's ending that payment hooks adjust. The
abilities here are small test doubles: the engine only knows hooks, never a character.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.cards.effects.conditions import condition_holds
from pipeline.rules.actions import AbilityTag, ActionKind, ability_action
from pipeline.rules.hand import play_hand
from pipeline.rules.hooks import AbilityHooks, TableControls, WinView
from pipeline.rules.match import MatchProgress, advance, play_match, rank_seats
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.rules.scoring import WinContext
from pipeline.rules.settlement import Settlement, SettlementView, noten_transfers
from pipeline.rules.wall import LIVE_END, Wall
from pipeline.tiles import NUM_TILES

PRESET = replace(load_preset("online-hanchan"), nagashi_mangan=False)
PINFU = "234m456p678s99m23s"  # waits 1s-4s; ron 1 han 30 fu = 1,000
NOTEN = ["1479m25899p369s1z", "2589m369p147s477z", "1369m147p258s577z", "1478m25899s369p6z"]


class Staker(AbilityHooks):
    """Stakes a fixed amount at the start of the hand (a test double)."""

    name = "staker"

    def __init__(self, seat: int, points: int) -> None:
        self.seat = seat
        self.points = points
        self.staked: int | None = None

    def hand_start(self, table: TableControls) -> None:
        self.staked = table.stake(self.seat, self.points, self.name, "test stake")


class NotenRiichi(AbilityHooks):
    """An ability that lets its seat declare riichi on a noten hand on its first turn, as a
    hand kept tenpai only by an ability would be once the ability is lost (rule C-20)."""

    name = "lost_ability"

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def own_actions(self, view):
        if view.turns or view.in_riichi:
            return []
        return [ability_action(self.seat, self.name, AbilityTag.RIICHI, t, payload="noten",
                               detail=f"{self.name}:riichi:noten") for t in view.discard_tiles]


class AbilityAgent(ScriptAgent):
    """Takes the first ``ABILITY`` action offered, otherwise plays its script."""

    def decide(self, obs, legal):
        for a in legal:
            if a.kind == ActionKind.ABILITY:
                return a
        return super().decide(obs, legal)


def agents(*scripts):
    return [ScriptAgent(s) for s in [*scripts, *([()] * (4 - len(scripts)))]]


def test_c18_a_stake_takes_at_most_what_the_player_has():
    # rule C-18: 5,000 asked of a player with 3,000 stakes 3,000; nothing from a player at -200
    start = scenario_start(NOTEN, dora="9m", scores=(3000, -200, 40000, 57200))
    rich, poor = Staker(0, 5000), Staker(1, 5000)
    rec = play_hand(start, PRESET, agents(), [rich, poor])
    assert (rich.staked, poor.staked) == (3000, 0)
    assert rec.seats[0].end_score == 0 and rec.stakes_end == 3000
    assert sum(s.end_score for s in rec.seats) + rec.stakes_end == sum(start.scores)


def test_stakes_go_to_the_next_winner_with_the_sticks():
    # 4,500 staked and 1 stick left from earlier hands: P1's 1,000 ron collects 5,500 more
    start = replace(scenario_start([NOTEN[0], PINFU, NOTEN[2], NOTEN[3]], "4s", dora="1z",
                                   sticks=1), stakes=4500)
    rec = play_hand(start, PRESET, agents((), ["ron"]))
    assert [s.delta for s in rec.seats] == [-1000, 1000 + 1000 + 4500, 0, 0]
    assert (rec.sticks_end, rec.stakes_start, rec.stakes_end) == (0, 4500, 0)


def test_stakes_stay_on_the_table_through_a_draw_and_carry_to_the_next_hand():
    start = replace(scenario_start(NOTEN, dora="9m"), stakes=2000)
    rec = play_hand(start, PRESET, agents())
    assert rec.draw_kind == "exhaustive" and rec.stakes_end == 2000
    progress = MatchProgress(scores=[25000] * 4)
    advance(progress, rec, PRESET)
    assert progress.stakes == 2000


def test_leftover_stakes_go_to_first_place_like_sticks():
    # rule M-07 / K-14 applied to stakes: a one-hand match with a stake and no winner
    single = load_preset("single-hand")

    class Table:
        def abilities_for(self, start: HandStart):
            return [Staker(1, 1500)]

        def hand_done(self, rec) -> None:
            pass

    kept = play_match(replace(single, leftover_sticks_to_first=False), agents(), seed=3,
                      table=Table())
    given = play_match(replace(single, leftover_sticks_to_first=True), agents(), seed=3,
                       table=Table())
    total = 4 * single.start_points
    assert kept.leftover_stakes == 1500
    assert sum(kept.final_scores) + 1000 * kept.leftover_sticks + 1500 == total
    assert given.leftover_stakes == 0 and sum(given.final_scores) + \
        1000 * given.leftover_sticks == total


def test_c19_an_extra_indicator_past_the_fifth_takes_two_live_wall_tiles():
    # rule C-19: the 6th indicator and its ura are the last two tiles of the live wall
    order = tuple(range(NUM_TILES))
    wall = Wall(order)
    for _ in range(4):
        wall.reveal_indicator()
    live = wall.live_left
    sixth = wall.reveal_indicator()
    assert sixth == order[LIVE_END - 1] and wall.ura_indicators[-1] == order[LIVE_END - 2]
    assert wall.live_left == live - 2 and len(wall.dora_indicators) == 6
    # every tile is still in exactly one place
    places = [*wall.live, *wall.rinshan, *wall.indicators, *wall.ura, *wall.reserve]
    assert sorted(places) == list(range(52, NUM_TILES))


def test_c19_no_extra_indicator_when_the_live_wall_lacks_two_tiles():
    wall = Wall(tuple(range(NUM_TILES)))
    for _ in range(4):
        wall.reveal_indicator()
    while wall.live_left > 1:
        wall.draw()
    assert not wall.can_reveal()


def test_c20_riichi_hand_noten_at_the_draw_pays_a_reverse_mangan():
    # rule C-20: riichi kept by an ability that is lost; at the exhaustive draw the hand is
    # noten: chombo. P1 (not the dealer) pays 4,000 to the dealer and 2,000 to each other
    # player, instead of the noten payments; its riichi stick stays on the table.
    start = scenario_start(NOTEN, dora="9m")
    rec = play_hand(start, PRESET, [ScriptAgent(), AbilityAgent(), ScriptAgent(),
                                    ScriptAgent()], [NotenRiichi(1)])
    assert rec.seats[1].riichi and not rec.seats[1].tenpai_at_end
    assert [s.delta for s in rec.seats] == [4000, -1000 - 8000, 2000, 2000]
    assert rec.sticks_end == 1
    assert any(e.kind == "chombo" and e.seat == 1 for e in rec.events)


def test_c20_dealer_chombo_pays_4000_to_each():
    start = scenario_start(NOTEN, dora="9m")
    rec = play_hand(start, PRESET, [AbilityAgent(), ScriptAgent(), ScriptAgent(),
                                    ScriptAgent()], [NotenRiichi(0)])
    assert [s.delta for s in rec.seats] == [-1000 - 12000, 4000, 4000, 4000]


def test_c21_equal_points_the_player_farther_from_the_dealer_ranks_lower():
    # rule C-21 at the end of a match: seat order from the first dealer (P0)
    assert rank_seats([25000, 25000, 25000, 25000]) == [1, 2, 3, 4]
    assert rank_seats([20000, 30000, 20000, 30000]) == [3, 1, 4, 2]


def test_c21_last_place_during_a_hand_counts_from_the_current_dealer():
    # rule C-21 inside a hand (Kana's "last place"): with P2 dealing and equal points, the seat
    # farthest from P2 in turn order is P1
    ctx = WinContext(concealed=(), melds=(), win_tile=0, is_tsumo=True, seat_wind=3,
                     round_wind=0, is_dealer=False)
    win = WinView(1, ctx, None, (25000,) * 4, 2, ())
    assert condition_holds("last_place", win, 1)
    assert not condition_holds("last_place", win.replace(dealer=0), 1)


def test_settlement_floor_cuts_the_last_payments_first():
    view = SettlementView(kind="ron", winner=1, from_seat=0, result=None, honba=0, dealer=0,
                          scores=(1500, 0, 0, 0), table_points=0, tenpai=(), riichi=(),
                          hands=(), visible=(), events=())
    s = Settlement(view, [(0, 1, 2000)], table_to=1)
    s.transfer(0, 2, 500, "test", "extra")
    s.floor_at_zero(0, "test")
    assert s.deltas([1500, 0, 0, 0], 0) == [-1500, 1500, 0, 0]


def test_noten_transfers_split_3000_among_the_seats_that_take_part():
    tenpai = (True, False, False, True)
    assert noten_transfers(tenpai, frozenset(range(4)), 3000) == [
        (1, 0, 750), (1, 3, 750), (2, 0, 750), (2, 3, 750)]
    assert noten_transfers(tenpai, frozenset({0, 1, 2}), 3000) == [(1, 0, 1500), (2, 0, 1500)]
    assert noten_transfers(tenpai, frozenset({0, 3}), 3000) == []
