"""Satomi Kanbara in play: draws past the live wall up to the last revealed indicator (two
last tiles), the wall a hand ends on (double payments, noten payments too, extra indicators on
her own wall) and Koromo Amae's last tiles with her at the table."""

from __future__ import annotations

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.noten_double_wall import ending_wall, wall_owner
from pipeline.rules.actions import ActionKind
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.records import DrawSource, HandStart, Outcome
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.rules.wall import INDICATORS, URA, Wall
from pipeline.tiles import parse_types

PRESET = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")


def seats(*cards: tuple[str, int]) -> list[CardAbility | None]:
    out: list[CardAbility | None] = [None] * 4
    for card, seat in cards:
        out[seat] = CardAbility(CATALOG.card(card), seat)
    return out


def play(start: HandStart, scripts: list[list[str]], abilities: list):
    agents = [ScriptAgent(s) for s in scripts]
    state = HandState(start, PRESET, agents, abilities)
    return state.play(), agents, state


def live_draws(rec) -> list[int]:
    return [e.tile for e in rec.events if e.drawn_from is DrawSource.WALL]


# ------------------------------------------------------------------ whose wall


def test_the_walls_follow_a_break_on_the_opposite_players_wall() -> None:
    # a roll of 7 breaks the wall of the dealer's opposite player, 7 stacks (14 tiles) from
    # its right end: 20 tiles there, then 34 on each wall clockwise (right-hand player,
    # dealer, left-hand player), and the 14 dead-wall tiles back on the opposite wall
    dealer = 1
    assert [wall_owner(p, dealer) for p in (0, 19)] == [3, 3]
    assert [wall_owner(p, dealer) for p in (20, 53)] == [2, 2]
    assert [wall_owner(p, dealer) for p in (54, 87)] == [1, 1]
    assert [wall_owner(p, dealer) for p in (88, 121)] == [0, 0]
    assert [wall_owner(p, dealer) for p in (122, 135)] == [3, 3]
    # each wall holds 34 tiles
    owners = [wall_owner(p, dealer) for p in range(136)]
    assert sorted(owners.count(s) for s in range(4)) == [34, 34, 34, 34]


def test_the_wall_changes_when_its_first_tile_is_drawn() -> None:
    # C-22 Satomi: the dealer's 14th tile (position 52) is on the right-hand player's wall,
    # position 54 is the first tile of the dealer's wall
    assert ending_wall(0, 0) == 1       # only the deal: the last dealt tile (51)
    assert ending_wall(2, 0) == 1       # positions 52, 53
    assert ending_wall(3, 0) == 0       # position 54: the dealer's wall from its first tile
    assert ending_wall(70, 0) == 3      # the last live tile, 121


# ------------------------------------------------------------------ draws to the indicator


def test_draws_go_on_into_the_dead_wall_up_to_the_revealed_indicator() -> None:
    # one indicator revealed: the 4 stacks between the live wall and it are drawn, from the
    # fifth indicator (and its ura tile) down to the second
    start = scenario_start(["", "", "", ""])
    rec, _, state = play(start, [[], [], [], []], seats(("satomi_kanbara", 2)))
    draws = live_draws(rec)
    assert rec.draw_kind == "exhaustive"
    assert len(draws) == 70 + 8
    i, u = INDICATORS.start, URA.start
    assert draws[70:] == [start.wall[p] for p in (i + 4, u + 4, i + 3, u + 3, i + 2, u + 2,
                                                  i + 1, u + 1)]
    assert state.wall.dora_indicators == (start.wall[i],)


def test_without_her_the_hand_ends_with_the_live_wall() -> None:
    start = scenario_start(["", "", "", ""])
    rec, _, _ = play(start, [[], [], [], []], seats(("koromo_amae", 3)))
    assert len(live_draws(rec)) <= 70


def waiting_start(win_at: str) -> HandStart:
    """P1 waits on 3p alone (234p 456p, 11z the pair); the other 3p are in the others' hands.
    The 3p is P1's 70th live draw (``"live"``) or the last tile in play (``"dead"``)."""
    hand = "123m24p456p789s11z"
    others = ["3p", "3p", "3p"]
    if win_at == "live":
        draws = spare_tiles(69, hand, "333p", avoid="3p1z") + "3p"
        return scenario_start([others[0], hand, others[1], others[2]], draws=draws)
    return scenario_start([others[0], hand, others[1], others[2]], ura="9m3p")


def test_haitei_on_the_last_tile_in_play() -> None:
    # C-22 Satomi: two chances for haitei: the last tile in play (ura of the second
    # indicator, the 78th draw, P1's) wins with haitei
    start = waiting_start("dead")
    rec, _, _ = play(start, [[], ["tsumo"], [], []], seats(("satomi_kanbara", 2)))
    assert len(live_draws(rec)) == 78
    assert rec.wins and rec.wins[0].seat == 1 and rec.wins[0].from_seat == 1
    assert "Haitei Raoyue" in [name for name, _ in rec.wins[0].yaku]


def test_haitei_on_the_last_live_tile_with_her_in_play() -> None:
    start = waiting_start("live")
    rec, _, _ = play(start, [[], ["tsumo"], [], []], seats(("satomi_kanbara", 2)))
    assert len(live_draws(rec)) == 70
    assert rec.wins and rec.wins[0].seat == 1
    assert "Haitei Raoyue" in [name for name, _ in rec.wins[0].yaku]


# ------------------------------------------------------------------ double payments


def paid(start: HandStart, state: HandState) -> list[int]:
    return [start.scores[s] - state.scores[s] for s in range(4)]


def test_the_player_whose_wall_it_is_pays_double() -> None:
    # the 70th draw is position 121: the left-hand player's wall (P3 with P0 dealing).
    # A non-dealer's tsumo: P2 and P3 would pay the same; P3 pays twice as much
    start = waiting_start("live")
    rec, _, state = play(start, [[], ["tsumo"], [], []], seats(("satomi_kanbara", 2)))
    out = paid(start, state)
    assert out[3] == 2 * out[2] and out[2] > 0


def test_a_dead_wall_win_still_counts_the_live_wall() -> None:
    # C-22 Satomi: the win on the last tile in play is on P3's wall (the last live tile's)
    start = waiting_start("dead")
    rec, _, state = play(start, [[], ["tsumo"], [], []], seats(("satomi_kanbara", 2)))
    out = paid(start, state)
    assert out[3] == 2 * out[2] and out[2] > 0


def test_noten_payments_are_doubled_too() -> None:
    # P1 tenpai (the 3p are dead: in the others' hands and the indicators are not 3p), the
    # others noten: each pays 1,000, P3, on whose wall the hand ends, 2,000
    start = scenario_start(["3p", "123m24p456p789s11z", "3p", "3p"])
    rec, _, state = play(start, [[], [], [], []], seats(("satomi_kanbara", 2)))
    assert rec.draw_kind == "exhaustive"
    outcomes = [s.outcome for s in rec.seats]
    assert outcomes == [Outcome.DRAW_NOTEN, Outcome.DRAW_TENPAI, Outcome.DRAW_NOTEN,
                        Outcome.DRAW_NOTEN]
    assert paid(start, state) == [1000, -4000, 1000, 2000]


# ------------------------------------------------------------------ her own wall


def own_wall_start() -> HandStart:
    """P3 waits on 1z or 5z; her 17th draw (the 68th, position 119) is 5z: on her own wall.
    The first indicator 9p (dora 1p, not held); the next two 1m (dora 2m, one held)."""
    hand = "234m456p789s1155z"
    draws = spare_tiles(67, hand, "11z555z", avoid="1z5z2m1m9p") + "5z"
    return scenario_start(["1z", "1z", "5z", hand], draws=draws, dora="9p1m1m")


def test_her_win_on_her_own_wall_reveals_two_more_indicators() -> None:
    # menzen tsumo and haku: 2 han; the two extra indicators show 1m: her 2m is dora twice
    start = own_wall_start()
    rec, _, _ = play(start, [[], [], [], ["tsumo"]], seats(("satomi_kanbara", 3)))
    assert rec.wins and rec.wins[0].seat == 3 and rec.wins[0].from_seat == 3
    assert rec.wins[0].han == 4


def test_another_players_win_on_his_own_wall_reveals_nothing() -> None:
    start = own_wall_start()
    rec, _, _ = play(start, [[], [], [], ["tsumo"]], seats(("satomi_kanbara", 1)))
    assert rec.wins and rec.wins[0].seat == 3
    assert rec.wins[0].han == 2


# ------------------------------------------------------------------ Koromo with Satomi


def test_koromo_wins_on_the_last_discard_of_the_live_wall_and_of_the_dead_wall() -> None:
    # C-22 Koromo: with Satomi in play her last-tile mastery works for both last tiles; P3
    # draws both (the 70th live-wall tile and the 78th tile in play), so she may ron twice
    # (read shapeless, so a hand that is not ready can win; as a wildcard it cannot)
    start = scenario_start(["", "147m258p369s1234z", "", ""])
    abilities = seats(("satomi_kanbara", 2))
    koromo = CATALOG.card("koromo_amae").with_param("last_tile", "always_winning", "shapeless")
    abilities[1] = CardAbility(koromo, 1)
    rec, agents, _ = play(start, [[], [], [], []], abilities)
    rons = [o for o in agents[1].offers if any(a.kind == ActionKind.RON for a in o)]
    assert len(rons) == 2
    assert rec.draw_kind == "exhaustive"
    rec, agents, _ = play(start, [[], [], [], []],
                          seats(("koromo_amae", 1), ("satomi_kanbara", 2)))
    assert not [o for o in agents[1].offers if any(a.kind == ActionKind.RON for a in o)]


def test_the_player_whose_wall_it_is_pays_single_in_riichi() -> None:
    # P3 declares riichi on his first turn (tanki on 3p: dead, P1 waits on the last one):
    # the hand ends on his wall, yet he pays what P2 pays (and his riichi stick)
    p1, p3 = "123m24p456p789s11z", "3p123m456m789m123s"[2:] + "3p"
    draws = spare_tiles(69, p1, p3, "33p", avoid="3p1z") + "3p"
    start = scenario_start(["3p", p1, "3p", p3], draws=draws)
    rec, _, state = play(start, [[], ["tsumo"], [], ["riichi"]], seats(("satomi_kanbara", 2)))
    assert rec.wins and rec.wins[0].seat == 1 and state.players[3].riichi
    out = paid(start, state)
    assert out[3] - 1000 == out[2] and out[2] > 0


def test_a_sixth_and_seventh_indicator_come_from_the_live_wall() -> None:
    # C-22 Satomi: with five indicators shown, her two extra ones are the last tiles of the
    # live wall (rule C-19: each with the tile before it as its ura tile); no tile is left
    # between the live wall and the fifth indicator
    order = tuple(range(136))
    wall = Wall(order)
    wall.draw_to_indicator()
    for _ in range(4):
        wall.reveal_indicator()
    assert wall.spare_dora(2) == (121, 119)
    assert wall.spare_ura(2) == (120, 118)
    assert wall.in_play_left == 70


def test_kan_tiles_are_drawn_first_past_the_live_wall() -> None:
    # the tile a kan moved from the end of the live wall lies between it and the indicators
    order = tuple(range(136))
    wall = Wall(order)
    wall.draw_to_indicator()
    wall.draw_rinshan()                     # 121 joins the dead wall (rule K-07)
    wall.reveal_indicator()                 # the kan's indicator: two shown (126, 127)
    drawn = [wall.draw() for _ in range(wall.in_play_left)]
    # 69 live tiles, then 121 and the fifth, fourth and third indicators with their ura
    assert len(drawn) == 69 + 7
    assert drawn[-7:] == [121, 130, 135, 129, 134, 128, 133]
    assert wall.at_last_tile and wall.in_play_left == 0
    assert not wall.can_reveal() and wall.spare_dora(2) == ()


# ------------------------------------------------------------------ the last discard


class WallWatcher(ScriptAgent):
    """Passes every claim; notes at each claim offer the tile on offer, whether the wall
    calls it the last discard, and the kinds offered."""

    def __init__(self) -> None:
        super().__init__()
        self.claims: list[tuple[int, bool, frozenset[ActionKind]]] = []

    def decide(self, obs, legal):
        if legal[-1].kind == ActionKind.PASS and obs.tiles_left == 0 and \
                any(a.kind != ActionKind.PASS and a.tile is not None for a in legal):
            tile = next(a.tile for a in legal if a.tile is not None)
            self.claims.append((tile // 4, obs._state.wall.last_discard,
                                frozenset(a.kind for a in legal)))
        return super().decide(obs, legal)


def test_one_last_discard_for_the_engine_and_the_hooks_with_satomi() -> None:
    # card satomi_kanbara, C-22 Satomi, rule K-03; card yukiko_maya, C-22 Yukiko: with draws
    # past the live wall there are two last discards (of the 70th live tile and of the 78th
    # tile in play), and no call is offered on either, by the rules or by a card; the discards
    # between them are ordinary ones, called as any. Before the fix the rules offered no call
    # once the live wall was empty while the hook views offered Yukiko's priority chi (the
    # whole-deck invariant checker failed at match indices 20055, 20239, 20271 in winner
    # rotation and 20105, 20189 in rapid: tests/cards/general/test_deck_invariants.py)
    p3 = "11m23m44m" + "5p6p7p8p" + "1z2z"   # Yukiko: pons of 1m and 4m, chis of 1m, 4m, 9p
    # past the live wall, in draw order: dora[4], ura[4] (filler), dora[3], ura[3], ...,
    # dora[1], ura[1]: P2 4m, P3, P0 9s, P1 1m, P2 1z, P3 1z, P0 9p, P1 4m (the last)
    dora, ura = "9p9p1z9s4m", "9s4m1z1m"
    draws = spare_tiles(69, p3, dora, ura, "1m", avoid="1m4m9p") + "1m"  # P1's, the 70th
    start = scenario_start(["", "", "", p3], draws=draws, dora=dora, ura=ura)
    agents = [ScriptAgent(), ScriptAgent(), ScriptAgent(), WallWatcher()]
    state = HandState(start, PRESET, agents, seats(("satomi_kanbara", 2), ("yukiko_maya", 3)))
    rec = state.play()
    assert rec.draw_kind == "exhaustive" and len(live_draws(rec)) == 78
    t = parse_types("1m4m9p")
    calls = frozenset({ActionKind.PON, ActionKind.CHI, ActionKind.PASS})
    # the 70th's 1m and the 78th's 4m, last discards, are offered to nobody: no record
    assert agents[3].claims == [
        (t[1], False, calls),           # P2's 4m: the rules' pon and chi
        (t[0], False, calls),           # P1's 1m: the rules' pon, Yukiko's priority chi
        (t[2], False, frozenset({ActionKind.CHI, ActionKind.PASS})),  # P0's 9p: hers
    ]
    assert not any(e.kind == "chi" for e in rec.events)  # she passed every one
