"""Wall and draw cards in play: Yuuki Kataoka (tiles to the end of the live wall), Kazue Nanpo
(tiles to the end of the dead wall, again after a second row), Takami Shibuya (a draw from her
own pond), Toki Onjouji (a private extra tile) and Koromo Amae (the last tile and the last
discard, the wall shortened); and the heuristic bot's policies for them."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards import registry
from pipeline.cards.abilities import OPTIONAL_EFFECTS, CardAbility
from pipeline.cards.effects.honba_by_han import added_honba
from pipeline.cards.effects.private_extra_tile import PrivateExtraTile
from pipeline.cards.moves import Move
from pipeline.cards.teams import deck_for
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.preset import load_preset
from pipeline.rules.records import DrawSource
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.rules.wall import DEAL_SIZE, LIVE_END
from pipeline.tiles import parse_tiles, parse_types
from tests.support.wall_play import CATALOG, Steps, ability, ability_events, play


def own_discard_offers(agent: Steps) -> list[tuple[list[Action], list[int], tuple[int, ...]]]:
    """The seat's own-turn decisions (discards offered), with its hand and tiles beside it."""
    return [h for h in agent.hands if any(a.kind == ActionKind.DISCARD for a in h[0])]


# a turn's draw: from the live wall, or a pond or beside the hand instead
TURN_DRAWS = (DrawSource.WALL, DrawSource.POND, DrawSource.ASIDE)


def wall_draws(rec) -> list[int]:
    """Tiles drawn in turn order (turn draws, not rinshan or an ability's extra draws)."""
    return [e.tile for e in rec.events if e.kind == "draw" and e.drawn_from in TURN_DRAWS]


def ability_offers(agent: ScriptAgent) -> list[list[Action]]:
    return [o for o in agent.offers if any(a.kind == ActionKind.ABILITY for a in o)]


def kinds(tiles: Sequence[int]) -> list[int]:
    return sorted(t // 4 for t in tiles)


# ---------------------------------------------------------------------- Yuuki Kataoka

YUUKI_HAND = "123m456p789s1122z"


def test_yuuki_puts_four_tiles_at_the_end_of_the_live_wall_and_draws_four() -> None:
    # East round; she deals. Her first draw is 3z, the next four live tiles are 4m5m6m7m.
    draws = "3z4m5m6m7m" + spare_tiles(20, YUUKI_HAND, "3z4m5m6m7m", avoid="1z2z3z4m5m6m7m")
    start = scenario_start([YUUKI_HAND, "", "", ""], draws=draws, round_wind=0)
    put = [("put_live", "3z"), ("put_live", "1z"), ("put_live", "1z"), ("put_live", "2z")]
    rec, agents, state = play(start, [Steps(steps=put), [], [], []],
                              ability("yuuki_kataoka", 0))
    first = own_discard_offers(agents[0])[0]
    assert kinds(first[1]) == parse_types("1234567m456p789s2z")  # 1z1z2z3z out, 4567m in
    # the put tiles, in the order she chose them, are the last four tiles of the live wall
    order = [a.tile for a in agents[0].chosen]
    assert rec.draw_kind == "exhaustive"
    assert wall_draws(rec)[-4:] == order
    assert [e.payload for e in ability_events(rec, AbilityTag.PUT_LIVE_END)] == [4]
    assert [e.payload for e in ability_events(rec, AbilityTag.WALL_DRAWN)] == [4]


def test_yuuki_does_nothing_in_the_south_round() -> None:
    draws = "3z4m5m6m7m" + spare_tiles(20, YUUKI_HAND, "3z4m5m6m7m", avoid="1z2z3z4m5m6m7m")
    start = scenario_start([YUUKI_HAND, "", "", ""], draws=draws, round_wind=1)
    rec, agents, _ = play(start, [Steps(), [], [], []], ability("yuuki_kataoka", 0))
    assert not ability_offers(agents[0])
    assert kinds(own_discard_offers(agents[0])[0][1]) == kinds(parse_tiles(YUUKI_HAND + "3z"))
    assert not [e for e in rec.events if e.kind == "ability" and e.card == "yuuki_kataoka"]


def test_c10_yuuki_and_kazue_are_left_out_of_east_only_decks() -> None:
    # rule C-10: by the shipped East-only preset's [cards] exclude
    east_only = deck_for(CATALOG, load_preset("cards-tonpuusen").cards)
    hanchan = deck_for(CATALOG, load_preset("cards-hanchan").cards)
    for card in ("yuuki_kataoka", "kazue_nanpo"):
        assert card in hanchan and card not in east_only


def test_heuristic_bot_puts_back_its_four_least_useful_tiles() -> None:
    # three lone honors and a lone 9p; everything else connects
    hand = "234m456p456s6m1z4z7z"
    draws = "9p" + spare_tiles(20, hand, "9p", avoid="1z4z7z9p")
    start = scenario_start([hand, "", "", ""], draws=draws, round_wind=0)

    class Noting(HeuristicBot):
        put: list[int] = []

        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            choice = super().decide(obs, legal)
            if choice.tag is Move.PUT_LIVE:
                self.put.append(choice.tile)
            return choice

    bot = Noting(0)
    play(start, [bot, [], [], []], ability("yuuki_kataoka", 0))
    assert sorted(t // 4 for t in bot.put) == sorted(parse_types("1z4z7z9p"))


# ---------------------------------------------------------------------- Kazue Nanpo

KAZUE_HAND = "123m456p789s1122z"


def test_kazue_draws_two_tiles_then_puts_two_at_the_end_of_the_dead_wall() -> None:
    # South round; P0 deals, she sits at P1: her draw is the second tile, 3z; then 4m5m
    draws = "1s3z4m5m" + spare_tiles(30, KAZUE_HAND, "1s3z4m5m", avoid="1z2z3z4m5m")
    start = scenario_start(["", KAZUE_HAND, "", ""], draws=draws, round_wind=1)
    steps = [("put_dead", "1z"), ("put_dead", "3z"), ("put_dead", None), ("put_dead", None)]
    rec, agents, state = play(start, [[], Steps(steps=steps), [], []], ability("kazue_nanpo", 1))
    assert kinds(own_discard_offers(agents[1])[0][1]) == parse_types("12345m456p789s122z")
    put = [a.tile for a in agents[1].chosen[:2]]
    assert state.wall.dead_end[:2] == put          # out of play: nobody draws them
    assert not set(put) & set(wall_draws(rec)[2:])
    assert 2 in [e.payload for e in ability_events(rec, AbilityTag.PUT_DEAD_END)]


def test_c22_kazue_repeats_once_on_her_own_turn_after_a_second_row() -> None:
    # C-22 Kazue: the repeat comes on her own turn, once per hand. She deals (P0): her own
    # twelfth discard completes the first second row; the repeat waits for her next turn,
    # after the other three have made their twelfth discards too, and never comes again.
    draws = spare_tiles(69, KAZUE_HAND, avoid="1z2z")
    start = scenario_start([KAZUE_HAND, "", "", ""], draws=draws, round_wind=1)
    steps = [("put_dead", None)] * 4
    rec, agents, state = play(start, [Steps(steps=steps), [], [], []],
                              ability("kazue_nanpo", 0))
    exchanges = [i for i, e in enumerate(rec.events) if e.tag is AbilityTag.WALL_DRAWN
                 and e.payload == 2]
    assert len(exchanges) == 2
    before = rec.events[:exchanges[1]]
    discards = [e.seat for e in before if e.kind == "discard"]
    assert discards.count(0) == 12 and discards[-1] == 3       # her 13th turn
    assert all(discards.count(s) == 12 for s in (1, 2, 3))
    assert len(state.wall.dead_end) == 4
    assert rec.draw_kind == "exhaustive"


def test_kazue_in_riichi_puts_back_the_two_tiles_she_just_drew() -> None:
    # riichi locks her hand: at the repeat only the two tiles just drawn may go back
    draws = "9m3s4s" + spare_tiles(66, KAZUE_HAND, "9m3s4s", avoid="1z2z")
    start = scenario_start([KAZUE_HAND, "", "", ""], draws=draws, round_wind=1)
    steps = [("put_dead", "3s"), ("put_dead", "4s"), ("put_dead", None), ("put_dead", None)]
    kazue = Steps(["riichi 9m"], steps=steps)
    rec, agents, state = play(start, [kazue, [], [], []], ability("kazue_nanpo", 0))
    assert state.players[0].riichi
    repeat = [o for o in ability_offers(kazue) if o[0].tag is Move.PUT_DEAD][2:]
    drawn = [e.tile for e in rec.events if e.drawn_from is DrawSource.ABILITY][2:]
    assert len(drawn) == 2 and {a.tile for a in repeat[0]} == set(drawn)
    assert sorted(state.wall.dead_end[2:]) == sorted(drawn)


def test_kazue_does_nothing_in_the_east_round() -> None:
    draws = "1s3z4m5m" + spare_tiles(30, KAZUE_HAND, "1s3z4m5m", avoid="1z2z3z4m5m")
    start = scenario_start(["", KAZUE_HAND, "", ""], draws=draws, round_wind=0)
    rec, agents, state = play(start, [[], Steps(), [], []], ability("kazue_nanpo", 1))
    assert not ability_offers(agents[1]) and not state.wall.dead_end


# ---------------------------------------------------------------------- Takami Shibuya

TAKAMI_HAND = "23m456p789s11z567z"


def test_takami_draws_from_her_own_pond_and_must_discard_another_type() -> None:
    # she deals and throws her first draw, 1m; at her next draw she takes it back
    draws = "1m" + "2s3s4s" + "6s" + spare_tiles(20, TAKAMI_HAND, "1m2s3s4s6s", avoid="1m")
    start = scenario_start([TAKAMI_HAND, "", "", ""], draws=draws)
    takami = Steps(["1m"], steps=[("draw", "1m")])
    rec, agents, state = play(start, [takami, [], [], []], ability("takami_shibuya", 0))
    taken = [e for e in ability_events(rec, AbilityTag.FROM_POND) if e.payload == 0]
    assert taken and taken[0].tile // 4 == parse_types("1m")[0]
    second = own_discard_offers(takami)[1]
    assert kinds(second[1]) == kinds(parse_tiles(TAKAMI_HAND + "1m"))
    assert not [a for a in second[0] if a.kind == ActionKind.DISCARD and a.tile // 4 == 0]
    # the wall tile she did not draw is the next player's
    assert wall_draws(rec)[4:6] == [takami.chosen[0].tile, parse_tiles("6s")[0]]
    assert state.players[0].discards[0].called   # it left her pond


def test_takami_offers_only_her_own_pond_and_nothing_in_riichi() -> None:
    start = scenario_start([TAKAMI_HAND, "", "", ""], draws="1m2s3s4s" + spare_tiles(
        20, TAKAMI_HAND, "1m2s3s4s", avoid="1m"))
    takami = Steps(["1m"])
    play(start, [takami, [], [], []], ability("takami_shibuya", 0))
    first = {a.tile for a in ability_offers(takami)[0] if a.kind == ActionKind.ABILITY}
    assert first == {parse_tiles("1m")[0]}   # not the 2s, 3s, 4s lying in the other ponds
    hand = "123m456p789s11z55z"   # riichi on her first discard: her hand is locked
    draws = "9m" + spare_tiles(20, hand, "9m", avoid="1z5z9m")
    start = scenario_start([hand, "", "", ""], draws=draws)
    takami = Steps(["riichi 9m"])
    play(start, [takami, [], [], []], ability("takami_shibuya", 0))
    assert not ability_offers(takami)


def test_heuristic_bot_takes_a_pond_tile_that_gains_a_step_and_leaves_a_useless_one() -> None:
    # after throwing 1m her hand is two steps from tenpai; 1m back makes 123m (one step)
    for first, taken in (("1m", True), ("9p", False)):
        draws = first + "2s3s4s" + spare_tiles(20, TAKAMI_HAND, first + "2s3s4s", avoid=first)
        start = scenario_start([TAKAMI_HAND, "", "", ""], draws=draws)

        class FirstThenBot(HeuristicBot):
            script = [first]
            choices: list[Action] = []

            def decide(self, obs: Observation, legal: list[Action]) -> Action:
                if self.script:
                    step = self.script.pop(0)
                    return next(a for a in legal if a.kind == ActionKind.DISCARD
                                and a.tile // 4 == parse_types(step)[0])
                choice = super().decide(obs, legal)
                if legal[0].tag is AbilityTag.DRAW:
                    self.choices.append(choice)
                return choice

        bot = FirstThenBot(0)
        play(start, [bot, [], [], []], ability("takami_shibuya", 0))
        assert (bot.choices[0].kind == ActionKind.ABILITY) is taken, first


# ---------------------------------------------------------------------- Toki Onjouji

TOKI_HAND = "123m456p789s1234z"


def public_tiles(rec) -> set[int]:
    """Tiles named by the public log (deals and draws are private)."""
    out: set[int] = set()
    for e in rec.events:
        if e.kind not in ("deal", "draw"):
            out.update(e.tiles)
            if e.tile is not None:
                out.add(e.tile)
    return out


def test_c22_toki_keeps_an_extra_tile_beside_her_hand_seen_by_her_alone_and_swaps_it() -> None:
    # C-22 Toki: the extra tile stands beside her hand, seen by her alone. She sits at P1: her
    # first draw is 5z, the next live tile (6z) goes beside her hand; she swaps it for 1z.
    draws = "1s5z6z" + spare_tiles(30, TOKI_HAND, "1s5z6z", avoid="1z2z3z4z5z6z")
    start = scenario_start(["", TOKI_HAND, "", ""], draws=draws)
    six = parse_tiles("6z", parse_tiles("1s5z"))[0]
    toki = Steps(steps=[("swap", "1z")])
    rec, agents, state = play(start, [[], toki, [], []], ability("toki_onjouji", 1))
    swap_offer = ability_offers(toki)[0]
    assert toki.hands[0][2] == (six,)                           # she sees it
    assert kinds(a.tile for a in swap_offer if a.kind == ActionKind.ABILITY) == kinds(
        parse_tiles(TOKI_HAND + "5z"))
    first = own_discard_offers(toki)[0]
    assert kinds(first[1]) == parse_types("123m456p789s234z56z") and kinds(first[2]) == [27]
    assert all(not h[2] for s in (0, 2, 3) for h in agents[s].hands)  # the others never do
    assert six not in public_tiles(rec)
    # P2's first draw is the tile after the one she set aside
    p2 = next(e.tile for e in rec.events if e.kind == "draw" and e.seat == 2)
    assert p2 == start.wall[DEAL_SIZE + 3]
    assert state.aside[1] and state.aside[1][0] // 4 == 27
    # the log's draw says where the tile went: beside her hand, not into it
    assert [(e.seat, e.tile) for e in rec.events if e.drawn_from is DrawSource.SET_ASIDE] == [
        (1, six)]


def test_c22_teru_counts_a_honba_for_tokis_swap() -> None:
    # C-22 Teru: her honba count rises when Toki swaps her extra tile (and not otherwise)
    draws = "1s5z6z" + spare_tiles(30, TOKI_HAND, "1s5z6z", avoid="1z2z3z4z5z6z")
    start = scenario_start(["", TOKI_HAND, "", ""], draws=draws)
    seats = ability("toki_onjouji", 1, ("teru_miyanaga", 2))
    rec, _, _ = play(start, [[], Steps(steps=[("swap", "1z")]), [], []], seats)
    assert added_honba(rec.events) == 1
    seats = ability("toki_onjouji", 1, ("teru_miyanaga", 2))
    rec, _, _ = play(start, [[], Steps(), [], []], seats)
    assert added_honba(rec.events) == 0


def test_toki_takes_her_extra_tile_instead_of_the_wall_draw() -> None:
    draws = "1s5z6z2s3s4s" + "7s8s" + spare_tiles(30, TOKI_HAND, "1s5z6z2s3s4s7s8s",
                                                     avoid="1z2z3z4z5z6z")
    start = scenario_start(["", TOKI_HAND, "", ""], draws=draws)
    toki = Steps(steps=[("draw", "6z")])
    rec, agents, state = play(start, [[], toki, [], []], ability("toki_onjouji", 1))
    second = own_discard_offers(toki)[1]
    assert kinds(second[1]) == parse_types("123m456p789s1234z6z")  # tsumogiri 5z, then 6z
    assert second[2] == ()                                       # gone from beside her hand
    # the wall tile she did not draw (7s) is P2's second draw
    p2 = [e.tile for e in rec.events if e.kind == "draw" and e.seat == 2]
    assert p2[1] // 4 == parse_types("7s")[0]
    beside = ability_events(rec, AbilityTag.DRAW)  # private: the event names no tile
    assert beside and beside[0].tile is None
    after = rec.events[rec.events.index(beside[0]) + 1]
    assert (after.kind, after.drawn_from) == ("draw", DrawSource.ASIDE)


def test_toki_takes_her_extra_tile_instead_of_a_rinshan_draw_and_wins_rinshan_kaihou() -> None:
    # she deals: 1111m 234p 567s 78s 99p after her draw; 9s beside her hand; a closed kan of
    # 1m, then the 9s instead of the replacement tile completes 789s
    hand = "1111m234p567s78s9p"
    draws = "9p9s" + spare_tiles(20, hand, "9p9s", avoid="6s9s")
    start = scenario_start([hand, "", "", ""], draws=draws, rinshan="5z5z5z5z")
    toki = Steps(["ankan 1m", "tsumo"], steps=[("draw", "9s")])
    rec, agents, state = play(start, [toki, [], [], []], ability("toki_onjouji", 0))
    assert rec.wins and rec.wins[0].seat == 0
    assert "Rinshan Kaihou" in [name for name, _ in rec.wins[0].yaku]
    assert state.wall.rinshan_left == 4          # the replacement tile stayed in the dead wall
    assert not any(e.kind == "draw" and e.tile // 4 == 31 for e in rec.events)


def test_c22_toki_swaps_only_with_the_closed_part_of_her_hand() -> None:
    # C-22 Toki: after a pon of P0's 5z, the meld's tiles are not offered for a swap
    hand = "55z123m456p789s12z"
    draws = "5z1s" + spare_tiles(20, hand, "5z1s", avoid="5z")
    start = scenario_start(["", hand, "", ""], draws=draws)
    toki = Steps(["pon"])
    rec, agents, state = play(start, [[], toki, [], []], ability("toki_onjouji", 1))
    meld = state.players[1].melds[0]
    offer = ability_offers(toki)[0]
    swaps = {a.tile for a in offer if a.tag is Move.SWAP_ASIDE}
    assert swaps and not swaps & set(meld.tiles)
    assert kinds(swaps) == parse_types("123m456p789s12z")


class SwapTable:
    """The wall controls Toki's swap reads: her hand, the tile beside it, the types she may
    not discard; notes the options she is offered."""

    def __init__(self, hand: str, extra: str, barred: str) -> None:
        self.hand = tuple(parse_tiles(hand))
        self.extra = tuple(parse_tiles(extra, self.hand))
        self.types = frozenset(parse_types(barred))
        self.offered: list[Action] = []

    def aside(self, seat: int) -> tuple[int, ...]:
        return self.extra

    def concealed(self, seat: int) -> tuple[int, ...]:
        return self.hand

    def barred(self, seat: int) -> frozenset[int]:
        return self.types

    def choose(self, seat: int, options: list[Action]) -> Action:
        self.offered = options
        return options[-1]   # she passes


def test_h07_toki_is_never_offered_a_swap_that_leaves_her_no_tile_to_discard() -> None:
    # card toki_onjouji, C-22 Toki, rule H-07: after her chi of 4m (with 23m: 1m and 4m may not
    # be her discard) her hand holds 1m 4m 7p and the extra tile beside it is a 1m: swapping
    # the 7p in would leave her only tiles she may not discard, so it is not offered (the
    # whole-deck invariant checker found it at match index 20361 in winner rotation: after a
    # fourth call she swapped her last allowed tile away and had no legal discard)
    (effect,) = CATALOG.card("toki_onjouji").effects
    toki = PrivateExtraTile(effect.params, 1, "toki_onjouji")
    wall = SwapTable("1m4m7p", "1m", barred="1m4m")
    toki._offer_swap(wall)
    swaps = [a.tile for a in wall.offered if a.kind == ActionKind.ABILITY]
    assert kinds(swaps) == parse_types("1m4m")           # the 7p stays
    wall = SwapTable("1m4m7p", "9s", barred="1m4m")  # an allowed tile beside her hand
    toki._offer_swap(wall)
    swaps = [a.tile for a in wall.offered if a.kind == ActionKind.ABILITY]
    assert kinds(swaps) == parse_types("1m4m7p")


def test_heuristic_bot_swaps_in_a_tile_that_gains_a_step() -> None:
    # beside her hand: 3m, which turns 12m into 123m; with 9m instead it would not help
    for extra, swapped in (("3m", True), ("9m", False)):
        hand = "12m456p789s11z567z"
        draws = "1s" + "4s" + extra + spare_tiles(20, hand, "1s4s" + extra, avoid="3m9m")
        start = scenario_start(["", hand, "", ""], draws=draws)

        class Noting(HeuristicBot):
            swaps: list[Action] = []

            def decide(self, obs: Observation, legal: list[Action]) -> Action:
                choice = super().decide(obs, legal)
                if legal[0].tag is Move.SWAP_ASIDE:
                    self.swaps.append(choice)
                return choice

        bot = Noting(0)
        play(start, [[], bot, [], []], ability("toki_onjouji", 1))
        assert (bot.swaps[0].kind == ActionKind.ABILITY) is swapped, extra
        if swapped:
            assert bot.swaps[0].tile // 4 in parse_types("4s567z")  # a lone tile goes aside


# ---------------------------------------------------------------------- Koromo Amae

KOROMO_HAND = "147m258p369s1234z"   # no set, no wait: only her ability may win


def test_koromo_discards_with_a_closed_hand_move_the_last_live_tile_to_the_dead_wall() -> None:
    start = scenario_start(["", KOROMO_HAND, "", ""])
    rec, agents, state = play(start, [[], [], [], []], ability("koromo_amae", 1))
    moved = state.wall.dead_end
    discards = len(state.players[1].discards)
    assert rec.draw_kind == "exhaustive" and moved
    assert len(moved) in (discards, discards - 1)       # none once the live wall is empty
    # the tiles at the end of the live wall, last first
    assert moved == [start.wall[LIVE_END - 1 - i] for i in range(len(moved))]
    assert not set(moved) & {e.tile for e in rec.events if e.kind == "draw"}


def test_koromo_moves_nothing_once_her_hand_is_open() -> None:
    hand = "55z147m258p369s12z"
    draws = "5z" + spare_tiles(20, hand, "5z", avoid="5z")
    start = scenario_start(["", hand, "", ""], draws=draws)
    rec, agents, state = play(start, [[], ["pon"], [], []], ability("koromo_amae", 1))
    assert state.players[1].melds and not state.wall.dead_end


def test_koromo_rons_the_last_discard_whatever_her_hand_when_read_shapeless() -> None:
    # reading always_winning = "shapeless": 70 live tiles; every round uses five (four draws
    # and her move): P3 draws the last tile and its discard is the last one
    start = scenario_start(["", KOROMO_HAND, "", ""])
    koromo = Steps(["ron"])
    shapeless = CATALOG.card("koromo_amae").with_param("last_tile", "always_winning",
                                                        "shapeless")
    rec, agents, state = play(start, [[], koromo, [], []],
                              [None, CardAbility(shapeless, 1), None, None])
    rons = [o for o in koromo.offers if any(a.kind == ActionKind.RON for a in o)]
    assert len(rons) == 1                          # only on the last discard
    assert rec.wins and rec.wins[0].seat == 1 and rec.wins[0].from_seat == 3
    assert "Houtei Raoyui" in [name for name, _ in rec.wins[0].yaku]
    assert state.wall.live_left == 0


def test_koromo_alone_in_riichi_may_move_two_and_wins_on_the_last_live_tile() -> None:
    # she deals, declares riichi on 1z waiting on 5z (the other three 5z are P1's: dead). A
    # round uses five tiles; four extra moves on her first four discards make 13 rounds x 5 +
    # 4 = 69, so the 70th and last live tile is her draw.
    hand = "123m456p789s234s5z"
    draws = "1z" + spare_tiles(20, hand, "1z555z", avoid="5z")
    start = scenario_start([hand, "555z", "", ""], draws=draws)
    koromo = Steps(["riichi 1z", "tsumo"],
                   policy={"move_two": lambda obs: koromo.chosen.count("two") < 4})
    original = koromo.decide

    def decide(obs: Observation, legal: list[Action]) -> Action:
        choice = original(obs, legal)
        if choice.tag is Move.MOVE_TWO:
            koromo.chosen.append("two")
        return choice

    koromo.decide = decide
    rec, agents, state = play(start, [koromo, [], [], []], ability("koromo_amae", 0))
    assert rec.wins and rec.wins[0].seat == 0 and rec.wins[0].from_seat == 0
    assert "Haitei Raoyue" in [name for name, _ in rec.wins[0].yaku]
    assert koromo.chosen.count("two") == 4


def test_koromo_moves_one_tile_only_when_another_player_is_in_riichi_too() -> None:
    hand = "123m456p789s234s5z"
    other = "123p456s789m234p5z"
    draws = "1z7z" + spare_tiles(20, hand, other, "1z7z", avoid="5z")
    start = scenario_start([hand, other, "", ""], draws=draws)
    koromo = Steps(["riichi 1z"], policy={"move_two": lambda obs: True})
    rec, agents, state = play(start, [koromo, ["riichi 7z"], [], []],
                              ability("koromo_amae", 0))
    offers = [o for o in koromo.offers if any(a.tag is Move.MOVE_TWO for a in o)]
    assert len(offers) == 1                    # on her riichi discard, before P1's riichi
    assert state.players[1].riichi


def test_wall_cards_optional_choices_are_registered() -> None:
    assert {"swap", "move_two", "draw"} <= OPTIONAL_EFFECTS


def test_heuristic_bot_moves_two_unless_one_leaves_it_the_last_draw() -> None:
    offer = ability_action(0, "koromo_amae", Move.MOVE_TWO)
    legal = [offer, Action(ActionKind.PASS, 0)]

    class _Obs:
        def __init__(self, left: int) -> None:
            self.tiles_left = left

    bot = HeuristicBot(0)
    assert bot.decide(_Obs(8), legal).kind == ActionKind.PASS   # 8 left: she draws the last
    assert bot.decide(_Obs(9), legal) is offer                  # 8 after a second move
    assert bot.decide(_Obs(10), legal) is offer


def test_wall_cards_are_playable() -> None:
    for card in ("yuuki_kataoka", "kazue_nanpo", "takami_shibuya", "toki_onjouji",
                 "koromo_amae"):
        assert registry.playable(CATALOG.card(card)), card
