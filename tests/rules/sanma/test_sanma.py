"""Three-player mahjong (sanma): rule C-23 and the sanma digest S-01..S-10 (docs/sanma.md).

Hands are laid out with :func:`scenario_start` given three hands (P0 deals unless a test says
otherwise; the dealer draws ``draws[0]``, then one draw per seat in turn order P0, P1, P2).
Without a script every seat throws the tile it drew.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pipeline.rules.actions import ActionKind
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hand import HandState, play_hand
from pipeline.rules.hooks import AbilityHooks
from pipeline.rules.match import MatchProgress, advance, final_results, play_match
from pipeline.rules.preset import PresetError, load_preset, preset_from_dict
from pipeline.rules.records import DrawSource, HandStart
from pipeline.rules.scenario import (
    ScenarioError,
    ScriptAgent,
    play_scenario,
    scenario_start,
    scenario_wall,
)
from pipeline.rules.scoring import WinContext, score_win
from pipeline.rules.wall import Wall, WallError
from pipeline.tiles import SANMA_TILES, dora_from_indicator, parse_tiles

SANMA = load_preset("sanma-hanchan")
ONLINE = load_preset("online-hanchan")
# P0's hand for tests that need a quiet dealer: noten, no North, nothing to call or win.
QUIET = "19m1479p258s1357z"


def deltas(rec) -> list[int]:
    return [s.delta for s in rec.seats]


def offered(agent, kind: ActionKind) -> list:
    return [a for offer in agent.offers for a in offer if a.kind == kind]


def kinds(rec) -> list[str]:
    return [e.kind for e in rec.events]


# ----------------------------------------------------------------------------- S-01, S-02


def test_s01_the_three_player_wall_is_108_tiles_without_2m_to_8m() -> None:
    # rule S-01, C-23: 108 tiles, 13 to each of three seats, a 14-tile dead wall, 55 live
    wall = Wall.shuffled(random.Random(1), 3)
    assert len(wall.order) == 108 and sorted(wall.order) == list(SANMA_TILES)
    assert not any(1 <= t // 4 <= 7 for t in wall.order)
    assert wall.seats == 3 and wall.live_left == 55 and wall.rinshan_left == 4
    hands = wall.deal(dealer=1)
    assert [len(h) for h in hands] == [13, 13, 13]
    assert hands[1] == list(wall.order[:13])  # the dealer takes first
    with pytest.raises(WallError):
        Wall(tuple(range(108)))  # 108 tiles, but with 2m-8m in them


def test_s01_scenarios_for_three_refuse_the_missing_tiles() -> None:
    # rule S-01
    with pytest.raises(ScenarioError, match="2m-8m"):
        scenario_wall(["234m", "", ""])
    assert len(scenario_wall(["19m", "", ""])) == 108


def test_s01_a_three_player_preset_refuses_a_four_player_wall() -> None:
    # rule S-01: the wall and the table must agree
    start = HandStart(wall=Wall.shuffled(random.Random(0)).order, dealer=0,
                      scores=(35000,) * 3)
    with pytest.raises(ValueError, match="cannot deal 3 players"):
        HandState(start, SANMA, [ScriptAgent() for _ in range(3)])


def test_s02_no_chi_with_three_players() -> None:
    # rule S-02: P1 could chi P0's 1p; with three players it is never offered, with four it is
    hand = "23p" + "19m199s1357z" + "56s"
    start3 = scenario_start([QUIET, hand, "19m369p147s2467z"], draws="1p9p9p")
    rec3, agents3 = play_scenario(start3, SANMA)
    assert not offered(agents3[1], ActionKind.CHI)
    start4 = scenario_start([QUIET, hand, "19m369p147s2467z", ""], draws="1p9p9p")
    _, agents4 = play_scenario(start4, ONLINE)
    assert offered(agents4[1], ActionKind.CHI)


# ----------------------------------------------------------------------------- S-03, S-04


def test_s03_kita_sets_the_north_aside_and_draws_from_the_dead_wall() -> None:
    # rule S-03, C-23: the North leaves the hand, the replacement comes from the dead wall,
    # the live wall gives its last tile to the dead wall, and no indicator turns over
    start = scenario_start(["19m1479p258s135z6z", QUIET, "19m369p147s2567z"],
                           draws="4z", rinshan="9s", dora="1s")
    rec, agents = play_scenario(start, SANMA, [["kita 4z"]])
    events = [str(e) for e in rec.events[:8]]
    i = next(i for i, e in enumerate(rec.events) if e.kind == "kita")
    assert rec.events[i].seat == 0 and rec.events[i].tile // 4 == 30
    after = rec.events[i + 1]
    assert after.drawn_from is DrawSource.KITA and after.tile // 4 == 26, events
    assert rec.events[i + 2].kind == "discard"  # no dora event after a kita
    assert kinds(rec).count("dora") == 1
    # P1 and P2 draw 55 - 1 live tiles between them and P0: the hand drew one tile less
    live_draws = sum(1 for e in rec.events if e.drawn_from is DrawSource.WALL)
    assert live_draws == 54 and rec.draw_kind == "exhaustive"


def test_s03_a_win_on_the_kita_replacement_is_rinshan_kaihou_with_nukidora() -> None:
    # rule S-03, S-04: the replacement tile wins as rinshan kaihou; the North is a dora
    start = scenario_start(["111p234p567p99m9s4z", "1m1479p258s12357z", "1m3699p147s23567z"],
                           draws="9s", rinshan="9m", dora="1s")
    rec, _ = play_scenario(start, SANMA, [["kita 4z", "tsumo"]])
    win = rec.wins[0]
    names = [n for n, _ in win.yaku]
    assert win.seat == 0 and "Rinshan Kaihou" in names and "Menzen Tsumo" in names
    assert win.dora == 1  # the North set aside
    assert win.han == 3 and win.fu == 40
    # S-06: a dealer's 3 han 40 fu tsumo is 2,600 from each of the two others
    assert deltas(rec) == [5200, -2600, -2600]


def test_s03_kita_ends_ippatsu() -> None:
    # rule S-03: a kita breaks the go-around like a call (riichienv and Tenhou alike)
    start = scenario_start([QUIET + "", "123456789s1122p", "19m369p147s2567z"],
                           draws="6z3z7z4z1p", rinshan="8p", dora="1s")
    rec, _ = play_scenario(start, SANMA, [["kita 4z"], ["riichi 3z", "tsumo"]])
    win = rec.wins[0]
    names = [n for n, _ in win.yaku]
    assert win.seat == 1 and "Double Riichi" in names and "Ippatsu" not in names


def test_s03_another_player_may_ron_the_north_but_not_as_chankan() -> None:
    # rule S-03: the North set aside may be ronned; it is no kan, so no chankan
    start = scenario_start(["19m1479p258s135z6z", "123456789s111p4z", "19m369p147s2567z"],
                           draws="4z", dora="1s")
    rec, agents = play_scenario(start, SANMA, [["kita 4z"], ["ron"]])
    win = rec.wins[0]
    names = [n for n, _ in win.yaku]
    assert (win.seat, win.from_seat) == (1, 0) and "Chankan" not in names
    assert "Ittsu" in names and deltas(rec)[0] < 0


def test_s03_in_riichi_only_the_drawn_north_may_be_set_aside() -> None:
    # rule S-03: a kita in riichi takes the drawn North only (the wait stays)
    start = scenario_start([QUIET, "123456789s11p44z", "19m369p147s2567z"],
                           draws="6z3z7z9p4z7z", dora="1s")
    rec, agents = play_scenario(start, SANMA, [[], ["riichi 3z"]])
    assert rec.seats[1].riichi
    locked = [offer for offer in agents[1].offers  # in riichi: one discard, the drawn tile
              if sum(a.kind == ActionKind.DISCARD for a in offer) == 1
              and not any(a.kind == ActionKind.RIICHI for a in offer)]
    kitas = [a for offer in locked for a in offer if a.kind == ActionKind.KITA]
    assert kitas, "the third North was drawn in riichi"
    for offer in locked:
        discard = next(a.tile for a in offer if a.kind == ActionKind.DISCARD)
        assert all(a.tile == discard for a in offer if a.kind == ActionKind.KITA)


def test_s03_no_kita_without_the_option_or_with_four_players() -> None:
    # rule S-03: kita is a three-player option; four players never see it
    start = scenario_start(["19m1479p258s135z6z", QUIET, "19m369p147s2567z"], draws="4z")
    _, agents = play_scenario(start, replace(SANMA, kita=False))
    assert not offered(agents[0], ActionKind.KITA)
    with pytest.raises(PresetError, match="kita"):
        preset_from_dict({"kita": True}, "x.toml")


def test_s04_each_north_set_aside_counts_one_dora_and_follows_the_indicators() -> None:
    # rule S-04: nukidora; a West indicator makes each North set aside worth two
    hand = tuple(parse_tiles("123p456p789p11s234s"))
    base = WinContext(concealed=hand, melds=(), win_tile=hand[-1], is_tsumo=True,
                      seat_wind=1, round_wind=0, is_dealer=False, riichi=True,
                      dora_indicators=tuple(parse_tiles("9s")), sanma=True)
    rules = SANMA.scoring_rules()
    plain = score_win(base, rules)
    two = score_win(replace(base, kita=2), rules)
    west = score_win(replace(base, kita=2, dora_indicators=tuple(parse_tiles("3z"))), rules)
    assert two.dora - plain.dora == 2 and two.han - plain.han == 2
    assert west.dora == 4 + plain.dora - plain.dora  # 2 Norths, each one plus one as dora


def test_s05_a_1m_indicator_points_to_9m_with_three_players() -> None:
    # rule S-05: 2m-8m are out, so 1m -> 9m and 9m -> 1m
    assert dora_from_indicator(0, sanma=True) == 8
    assert dora_from_indicator(8, sanma=True) == 0
    assert dora_from_indicator(0) == 1
    hand = tuple(parse_tiles("999m456p789p11s234s"))
    ctx = WinContext(concealed=hand, melds=(), win_tile=hand[-1], is_tsumo=True,
                     seat_wind=1, round_wind=0, is_dealer=False, riichi=True,
                     dora_indicators=tuple(parse_tiles("1m")), sanma=True)
    assert score_win(ctx, SANMA.scoring_rules()).dora == 3
    assert score_win(replace(ctx, sanma=False), ONLINE.scoring_rules()).dora == 0


# ----------------------------------------------------------------------------- S-06, S-07


NON_DEALER_TSUMO = ["19m1479p258s135z6z", "123456789s1122p", "19m369p147s2567z"]


@pytest.mark.parametrize(("option", "honba", "want"), [
    ("tsumo-loss", 0, [-2000, 3000, -1000]),
    ("tsumo-loss", 1, [-2100, 3200, -1100]),
    ("split", 0, [-2500, 4000, -1500]),
    ("split", 2, [-2700, 4400, -1700]),
])
def test_s06_a_tsumo_is_paid_by_the_two_others(option: str, honba: int, want: list[int]
                                               ) -> None:
    # rule S-06: 3 han 30 fu non-dealer tsumo (ittsu, menzen tsumo): 2,000 / 1,000. Tenhou
    # loses the missing seat's 1,000; "split" shares it out (500 each). Honba: 100 a payer.
    start = scenario_start(NON_DEALER_TSUMO, draws="8p9p6s3p1p", dora="5z", honba=honba)
    rec, _ = play_scenario(start, replace(SANMA, tsumo_payment=option), [[], ["tsumo"]])
    assert rec.wins[0].han == 3 and rec.wins[0].fu == 30
    assert deltas(rec) == want


def test_s06_a_ron_pays_200_a_honba_with_three_players() -> None:
    # rule S-06: the honba are 100 for each player who would pay a tsumo: 200 with three
    start = scenario_start(["19m1479p258s135z1p", "123456789s1122p", "19m369p147s2567z"],
                           draws="6z", dora="1s", honba=2)
    rec, _ = play_scenario(start, SANMA, [["1p"], ["ron"]])
    win = rec.wins[0]
    assert deltas(rec)[0] == -(win.points + 400) and deltas(rec)[1] == win.points + 400


TENPAI = ["123456789s1122p", "111222333z5566p", "123999s123p5577p"]
NOTEN = ["19m1479p258s1357z", "19m2589p147s2567z", "19m3699p369s1256z"]


@pytest.mark.parametrize(("preset", "ready", "want"), [
    ("sanma-hanchan", (True, False, False), [3000, -1500, -1500]),
    ("sanma-hanchan", (True, True, False), [1500, 1500, -3000]),
    ("sanma-hanchan", (False, True, True), [-3000, 1500, 1500]),
    ("sanma-hanchan", (True, True, True), [0, 0, 0]),
    ("sanma-hanchan", (False, False, False), [0, 0, 0]),
    ("riichienv-sanma", (True, False, False), [2000, -1000, -1000]),
    ("riichienv-sanma", (True, True, False), [1000, 1000, -2000]),
])
def test_s07_noten_payments_for_three(preset: str, ready: tuple[bool, ...], want: list[int]
                                      ) -> None:
    # rule S-07, H-12: Tenhou's written 3,000 in all; riichienv's 2,000 (1,000 a pair)
    hands = [TENPAI[s] if ready[s] else NOTEN[s] for s in range(3)]
    rec, _ = play_scenario(scenario_start(hands, dora="1s"), load_preset(preset))
    assert rec.draw_kind == "exhaustive"
    assert deltas(rec) == want


# ----------------------------------------------------------------------------- S-09, S-10


def test_s09_four_winds_and_four_riichi_need_four_players() -> None:
    # rule S-09: the first three discards all East and the dealer's next: no abort
    start = scenario_start(["19m1479p258s3567z", "19m2589p147s2567z", "19m3699p369s2356z"],
                           draws="1z1z1z1z", dora="1s")
    rec, _ = play_scenario(start, SANMA)
    assert rec.draw_kind == "exhaustive"


def test_s10_a_wind_has_three_hands_and_the_match_ends_after_south_3() -> None:
    # rule S-10, M-01: dealers E1 P0, E2 P1, E3 P2, then S1 P0
    progress = MatchProgress(scores=[35000] * 3)
    rec = play_hand(HandStart(wall=Wall.shuffled(random.Random(3), 3).order, dealer=0,
                              scores=(35000,) * 3), SANMA, [ScriptAgent() for _ in range(3)])
    rec.dealer_continues = False
    rec.wins.append(None)  # a win by someone else: the deal moves on, honba reset
    seen = []
    for _ in range(3):
        advance(progress, rec, SANMA)
        seen.append((progress.round_wind, progress.hand_number, progress.dealer))
    assert seen == [(0, 1, 1), (0, 2, 2), (1, 0, 0)]


def test_s10_results_with_uma_and_oka_for_three() -> None:
    # rule S-10, M-07: 40,000 return, uma +15/0/-15; first takes the 3 x 5,000 oka
    assert final_results([50000, 35000, 20000], SANMA) == [40.0, -5.0, -35.0]
    with pytest.raises(PresetError, match="3 players need 3 entries"):
        preset_from_dict({"players": 3, "uma": [15, 5, -5, -15]}, "x.toml")
    with pytest.raises(PresetError, match="multiple of 600"):
        preset_from_dict({"noten_payment": 2000}, "x.toml")


@pytest.mark.parametrize("name", ["sanma-hanchan", "sanma-tonpuusen", "riichienv-sanma"])
def test_c23_random_sanma_matches_keep_108_tiles_and_conserve_points(name: str) -> None:
    # rule C-23, S-01: random play offers only legal actions (the engine checks every choice),
    # every hand deals 39 of 108 tiles, points are conserved with the sticks
    preset = load_preset(name)
    for index in range(3):
        agents = [RandomAgent(seed=10 * index + s) for s in range(3)]
        result = play_match(preset, agents, seed=5, match_index=index)
        for h in result.hands:
            assert len(h.start.wall) == 108 and len(h.seats) == 3
            end = sum(s.end_score for s in h.seats) + 1000 * h.sticks_end
            start = sum(h.start.scores) + 1000 * h.sticks_start
            assert end == start
        total = sum(result.final_scores) + 1000 * result.leftover_sticks
        assert total == 3 * preset.start_points
        assert abs(sum(result.results)) < 1e-9
        assert max(h.hand_number for h in result.hands) <= 2


class _DrawSources(AbilityHooks):
    name = "probe"

    def __init__(self) -> None:
        self.seat = 0
        self.sources: list[str] = []

    def after_draw(self, view) -> None:
        if view.seat == 0:
            self.sources.append(view.source)


def test_c23_the_kita_replacement_is_not_a_rinshan_draw_for_characters() -> None:
    # rule C-23: a card acting on rinshan draws does not see the draw after a kita as one
    start = scenario_start(["19m1479p258s135z6z", QUIET, "19m369p147s2567z"],
                           draws="4z", rinshan="9s", dora="1s")
    probe = _DrawSources()
    agents = [ScriptAgent(["kita 4z"]), ScriptAgent(), ScriptAgent()]
    play_hand(start, SANMA, agents, [probe])
    assert probe.sources[:2] == ["wall", "kita"] and "rinshan" not in probe.sources


def test_s08_a_double_ron_pays_the_honba_to_the_nearest_winner_only() -> None:
    # rule S-08, H-11: Tenhou's multi-ron settlement holds for three; the honba is 200 (S-06)
    start = scenario_start(["19m1479p258s135z6z", "123456789s1122p", "23p456s789s111z99m"],
                           draws="6z", dora="5z", honba=1)
    rec, _ = play_scenario(start, SANMA, [["1p"], ["ron"], ["ron"]])
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(1, 0), (2, 0)]
    first, second = rec.wins
    assert deltas(rec) == [-(first.points + second.points + 200), first.points + 200,
                           second.points]


def test_s08_riichi_needs_three_live_tiles_with_three_players() -> None:
    # rule S-08, H-08: one more draw for every player
    assert SANMA.riichi_min_wall == 3 and ONLINE.riichi_min_wall == 4


def test_s04_north_is_a_guest_wind_unless_the_option_makes_it_yakuhai() -> None:
    # rule S-04: Tenhou counts a North triplet for nothing; north_yakuhai makes it one han
    hand = tuple(parse_tiles("444z123p456p789s11s"))
    ctx = WinContext(concealed=hand, melds=(), win_tile=hand[-1], is_tsumo=True, seat_wind=1,
                     round_wind=0, is_dealer=False, dora_indicators=tuple(parse_tiles("5z")),
                     sanma=True)
    plain = score_win(ctx, SANMA.scoring_rules())
    north = score_win(ctx, replace(SANMA, north_yakuhai=True).scoring_rules())
    assert [n for n, _ in plain.yaku] == ["Menzen Tsumo"]
    assert north.han == plain.han + 1 and len(north.yaku) == 2
    with pytest.raises(PresetError, match="north_yakuhai"):
        preset_from_dict({"north_yakuhai": True}, "x.toml")
