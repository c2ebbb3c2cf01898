"""Swap cards in exact situations: Hajime Kunihiro (a hand tile for a discard of the same
number), Ako Atarashi (of the same family, after a call), Myeonghwa Choe (winds swapped, wins
holding her seat wind blocked), Satoha Tsujigaito (the next wall tile, a win under ippatsu threat
doubled) and Yumi Kajiki (melds swapped, discards turned face down and counted for han); the
general swap rules (a swapped tile is no discard, it can create or remove furiten, a claimed
discard cannot be swapped); Teru's honba; and the heuristic bot's policies for swaps.

Seat 0 deals, so the turn order is P0, P1, P2, P3 and the draws string gives P0's first draw,
P1's first draw, and so on. Unscripted players discard the tile they drew and pass every claim
and every optional ability step.
"""

from __future__ import annotations

from collections import Counter

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import OPTIONAL_EFFECTS, CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.honba_by_han import added_honba
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.tiles import NUM_TILES, parse_types

PRESET = load_preset("cards-hanchan")
CATALOG = load_catalog("1.2")
CALLS = (ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN, ActionKind.RON)
SWAPS = (Move.SWAP_POND, Move.SWAP_WALL)
STEPS = {"fd": AbilityTag.FACE_DOWN, "extra": AbilityTag.EXTRA_TURN, "down": Move.TURN_DOWN,
         "meld": Move.SWAP_MELD}
LIVE = 70   # live-wall tiles: every draw of a hand without kans


def t(text: str) -> int:
    """One tile type from mpsz text."""
    return parse_types(text)[0]


def live(fixed: str, *used: str, avoid: str = "") -> str:
    """``fixed`` draws, then spare tiles up to the end of the live wall (70 draws)."""
    return fixed + spare_tiles(LIVE - len(parse_types(fixed)), *used, fixed, avoid=avoid)


def abilities(*cards: tuple[str, int]) -> list[CardAbility | None]:
    seats: list[CardAbility | None] = [None] * 4
    for card, seat in cards:
        seats[seat] = CardAbility(CATALOG.card(card), seat)
    return seats


class Swapper(ScriptAgent):
    """A script that also takes scripted swaps: ``swaps`` lists ``(hand tile, other tile)`` as
    mpsz text (the other a pond's or the next wall tile), taken in order when offered; script
    steps ``"fd 3m"`` (a face-down discard), ``"extra"`` (an extra turn), ``"down 3m"`` (a pond
    tile turned face down) and ``"meld 9p"`` (a meld swap for the meld holding 9p first) take
    those ability actions. Notes every swap offer: the seat's own pond size then, and the
    offered ``(hand type, other type)`` pairs; and every meld-swap offer (``meld_offers``:
    ``(her meld's first type, the other meld's first type)`` pairs)."""

    def __init__(self, script=(), swaps=()) -> None:
        super().__init__(script)
        self.swaps = [(t(a), t(b)) for a, b in swaps]
        self.swap_offers: list[tuple[int, set[tuple[int, int]]]] = []
        self.hands: list[list[int]] = []
        self.meld_offers: list[set[tuple[int, int]]] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        melds = [a for a in legal if a.tag is Move.SWAP_MELD]
        if melds:
            self.meld_offers.append({(a.tile // 4, a.tiles[0] // 4) for a in melds})
        if self.script and self.script[0].split()[0] in STEPS:
            step = self.script[0].split()
            what = STEPS[step[0]]
            for a in legal:
                if a.kind != ActionKind.ABILITY or a.tag is not what:
                    continue
                named = a.tiles[0] if what is Move.SWAP_MELD else a.tile
                if len(step) == 1 or named // 4 == t(step[1]):
                    self.script.pop(0)
                    return a
            if not any(a.tag in SWAPS for a in legal):  # the step waits
                script, self.script = self.script, []
                choice = super().decide(obs, legal)
                self.script = script
                return choice
        offered = [a for a in legal if a.kind == ActionKind.ABILITY
                   and a.tag in SWAPS]
        if not offered:
            if any(a.kind == ActionKind.DISCARD for a in legal):
                self.hands.append(sorted(x // 4 for x in obs.concealed))
            return super().decide(obs, legal)
        pairs = {(a.tile // 4, a.tiles[0] // 4) for a in offered}
        self.swap_offers.append((len(obs.discards(obs.seat)), pairs))
        if self.swaps and self.swaps[0] in pairs:
            want = self.swaps.pop(0)
            return next(a for a in offered if (a.tile // 4, a.tiles[0] // 4) == want)
        return legal[-1]


def play(start: HandStart, agents: list, seats: list) -> tuple:
    agents = [a if isinstance(a, ScriptAgent) else Swapper(a) for a in agents]
    state = HandState(start, PRESET, agents, seats)
    return state.play(), agents, state


def table_tiles(state: HandState) -> Counter:
    """Every tile the table holds, in any place."""
    tiles: list[int] = []
    for p in state.players:
        tiles.extend(p.concealed)
        tiles.extend(x for m in p.melds for x in m.tiles)
        tiles.extend(d.tile for d in p.discards if not d.called)
    w = state.wall
    tiles.extend([*w.live, *w.rinshan, *w.indicators, *w.ura, *w.reserve, *w.dead_end])
    return Counter(tiles)


def swap_events(rec) -> list:
    return [e for e in rec.events if e.kind == "ability" and e.tag is AbilityTag.SWAPPED]


def ron_tiles(rec) -> list[tuple[int, int]]:
    """(winner, tile type) of each ron."""
    return [(e.seat, e.tile // 4) for e in rec.events if e.kind == "ron"]


def pond_types(state: HandState, seat: int) -> list[int]:
    return [d.tile // 4 for d in state.players[seat].discards]


# ---------------------------------------------------------------------- Hajime Kunihiro

HAJIME_HAND = "19m19p19s1234567z"   # numbers: ones and nines only
# Six rounds: P0 throws 2m3m5m6m7m8m, Hajime (P1) honors, P2 2p3p5p6p7p8p, P3 8s1p2s3s4s9m.
SIX_ROUNDS = "".join(f"{a}{b}{c}{d}" for a, b, c, d in zip(
    ("2m", "3m", "5m", "6m", "7m", "8m"), ("1z", "2z", "3z", "4z", "5z", "6z"),
    ("2p", "3p", "5p", "6p", "7p", "8p"), ("8s", "1p", "2s", "3s", "4s", "9m"), strict=True))
ROUND_7 = "8m7z"                      # P0 8m, Hajime 7z (her seventh turn: 6 tiles in her pond)
HONORS = "1z2z3z4z5z6z7z"


def hajime_start(p3: str = "", after: str = "", avoid: str = "") -> HandStart:
    fixed = SIX_ROUNDS + ROUND_7 + after
    draws = live(fixed, HAJIME_HAND, p3, avoid=HONORS + avoid)
    return scenario_start(["", HAJIME_HAND, "", p3], draws=draws)


def test_hajime_swaps_with_a_discard_of_the_same_number_when_her_pond_holds_six() -> None:
    hajime = Swapper(swaps=[("1m", "1p")])
    rec, agents, state = play(hajime_start(), [[], hajime, [], []],
                              abilities(("hajime_kunihiro", 1)))
    size, pairs = hajime.swap_offers[0]
    assert size == 6
    # 1p (P3's pond) for her 1m or 1s, 9m (P3's pond) for her 9p or 9s; never a tile of the
    # same type, never an honor, never another number
    assert pairs == {(t("1m"), t("1p")), (t("1s"), t("1p")), (t("9p"), t("9m")),
                     (t("9s"), t("9m"))}
    # her seventh decision: the 1m is gone, a second 1p is in, and 1m lies where 1p lay
    seventh = hajime.hands[6]
    assert seventh.count(t("1p")) == 2 and t("1m") not in seventh
    assert pond_types(state, 3)[:6] == [t(x) for x in ("8s", "1m", "2s", "3s", "4s", "9m")]
    assert len(swap_events(rec)) == 1
    tiles = table_tiles(state)
    assert sorted(tiles) == list(range(NUM_TILES)) and set(tiles.values()) == {1}


def test_hajime_is_offered_swaps_only_with_6_or_12_tiles_in_her_pond() -> None:
    hajime = Swapper()
    rec, _, _ = play(hajime_start(), [[], hajime, [], []], abilities(("hajime_kunihiro", 1)))
    assert rec.draw_kind == "exhaustive"
    assert [size for size, _ in hajime.swap_offers] == [6, 12]
    assert not swap_events(rec)


def test_hajime_swap_needs_a_number_so_her_honors_are_never_offered() -> None:
    # honors have no number: with only honors in her hand, the one tile she may swap is the
    # number tile she has just drawn, for a tile of that number
    hand = "1112223334445z"
    start = scenario_start(["", hand, "", ""], draws=live("", hand, avoid=HONORS))
    hajime = Swapper()
    play(start, [[], hajime, [], []], abilities(("hajime_kunihiro", 1)))
    assert [size for size, _ in hajime.swap_offers] == [6, 12]
    for _, pairs in hajime.swap_offers:
        assert len({out for out, _ in pairs}) == 1
        assert all(out < 27 and into < 27 and out % 9 == into % 9 and out != into
                   for out, into in pairs)


RIICHI_HAND = "123m456p789s1122z"   # P2: tenpai on 1z/2z


def test_hajime_swaps_on_her_turn_after_another_players_riichi() -> None:
    # P0 1p, Hajime 7z, P2 5m (riichi), P3 6m; P0 7m, Hajime 6z: her second turn
    first = "1p7z5m6m7m6z"
    draws = live(first, HAJIME_HAND, RIICHI_HAND, avoid=HONORS)
    start = scenario_start(["", HAJIME_HAND, RIICHI_HAND, ""], draws=draws)
    hajime = Swapper(swaps=[("1s", "1p")])
    rec, agents, state = play(start, [[], hajime, ["riichi 5m"], []],
                              abilities(("hajime_kunihiro", 1)))
    assert state.players[2].riichi
    size, pairs = hajime.swap_offers[0]
    assert size == 1                                  # her second turn, after P2's riichi
    assert pairs == {(t("1m"), t("1p")), (t("1s"), t("1p"))}
    assert [s for s, _ in hajime.swap_offers] == [1, 6, 12]  # once for the riichi
    assert pond_types(state, 0)[0] == t("1s")
    assert added_honba(rec.events) == 1 + 1          # P2's riichi and her swap


def test_hajime_in_riichi_cannot_swap() -> None:
    # her hand is locked: in riichi (declared on her first turn) no swap is offered at 6 or 12
    hand = "123m456p789s1122z"
    start = scenario_start(["", hand, "", ""], draws=live("3m5m", hand, avoid="1z2z"))
    hajime = Swapper(["riichi 5m"])
    rec, _, state = play(start, [[], hajime, [], []], abilities(("hajime_kunihiro", 1)))
    assert state.players[1].riichi and len(state.players[1].discards) >= 12
    assert not hajime.swap_offers


def test_c22_teru_counts_a_honba_for_a_swap_with_a_discard() -> None:
    # C-22 Teru: a swap adds a honba (the pattern of Toki's swap); no swap, no honba
    seats = abilities(("hajime_kunihiro", 1), ("teru_miyanaga", 2))
    rec, _, _ = play(hajime_start(), [[], Swapper(swaps=[("9s", "9m")]), [], []], seats)
    assert added_honba(rec.events) == 1
    seats = abilities(("hajime_kunihiro", 1), ("teru_miyanaga", 2))
    rec, _, _ = play(hajime_start(), [[], Swapper(), [], []], seats)
    assert added_honba(rec.events) == 0


# ---------------------------------------------------------------------- swapped tiles

def test_a_swapped_tile_is_no_discard_nobody_may_call_or_ron_it() -> None:
    # P2 holds 1m1m (it could pon a discarded 1m). Hajime gives her 1m for P3's 1p: nobody
    # is offered a call on the 1m as it enters P3's pond.
    p2 = "11m456p789s234s55s"
    fixed = SIX_ROUNDS + ROUND_7
    start = scenario_start(["", HAJIME_HAND, p2, ""],
                           draws=live(fixed, HAJIME_HAND, p2, avoid=HONORS + "1m"))
    watcher = Swapper()
    rec, _, state = play(start, [[], Swapper(swaps=[("1m", "1p")]), watcher, []],
                         abilities(("hajime_kunihiro", 1)))
    assert swap_events(rec) and t("1m") in pond_types(state, 3)
    on_1m = [o for o in watcher.offers if any(a.kind in CALLS and a.tile // 4 == t("1m")
                                               for a in o)]
    assert not on_1m
    assert not [e for e in rec.events if e.kind == "call"]


RIICHI_1M_4M = "23m456p789s22s555s"   # P3 in riichi (on 8s), waiting on 1m and 4m
RIICHI_1P_4P = "23p456m789s22s555s"   # P3 in riichi (on 8s), waiting on 1p and 4p; its own
                                       # 1p (second draw) puts it in furiten


def test_a_swap_can_create_furiten() -> None:
    # rule H-09 through a swap: Hajime puts her 1m in P3's pond, P3 is in furiten and cannot
    # ron the 4m P0 throws next round; without the swap P3 rons it.
    after = "3z4z4m"            # round 7: P2 3z, P3 4z; round 8: P0 4m
    def run(swaps: list) -> tuple:
        start = hajime_start(RIICHI_1M_4M, after, avoid="1m4m")
        return play(start, [[], Swapper(swaps=swaps), [], ["riichi 8s", "ron"]],
                    abilities(("hajime_kunihiro", 1)))

    rec, agents, state = run([("1m", "1p")])
    assert state.players[3].riichi and len(swap_events(rec)) == 1
    # not even the 1m itself, P3's winning tile, may be ronned as it enters the pond
    assert not [o for o in agents[3].offers if any(a.kind == ActionKind.RON for a in o)]
    assert not rec.wins
    rec, _, _ = run([])
    assert ron_tiles(rec) == [(3, t("4m"))]


def test_a_swap_can_remove_furiten() -> None:
    # P3's own 1p (its second draw) puts it in furiten; Hajime takes that 1p for her 1m, and
    # P3 rons the 4p P0 throws next round; without the swap P3 may not.
    after = "3z4z4p"
    def run(swaps: list) -> tuple:
        start = hajime_start(RIICHI_1P_4P, after, avoid="1p4p")
        return play(start, [[], Swapper(swaps=swaps), [], ["riichi 8s", "ron"]],
                    abilities(("hajime_kunihiro", 1)))

    rec, _, state = run([("1m", "1p")])
    assert pond_types(state, 3)[1] == t("1m")
    assert ron_tiles(rec) == [(3, t("4p"))]
    rec, agents, _ = run([])
    assert not [o for o in agents[3].offers if any(a.kind == ActionKind.RON for a in o)]


def test_a_claimed_discard_cannot_be_swapped() -> None:
    # P0's first discard, 9m, is ponned by P2: gone from the pond, no swap names it; the 1p in
    # P3's pond is offered
    p2 = "99m234p567s11z77z8s"
    first = "9m" + "1p" + "2m" + "3m" + "4z"   # P0 9m (P2 pons; P3 draws 1p), P0 2m, P1 3m
    start = scenario_start(["", HAJIME_HAND, p2, ""],
                           draws=live(first, HAJIME_HAND, p2, avoid=HONORS + "9m1p"))
    hajime = Swapper()
    play(start, [[], hajime, ["pon 9m9m", "8s"], []], abilities(("hajime_kunihiro", 1)))
    size, pairs = hajime.swap_offers[0]
    assert size == 6
    assert not any(taken == t("9m") for _, taken in pairs)
    assert (t("1m"), t("1p")) in pairs


# ---------------------------------------------------------------------- Ako Atarashi

AKO_HAND = "11m46p29s1234567z"


def test_c22_ako_swaps_a_tile_of_the_same_family_after_a_call() -> None:
    # C-22 Ako: "the same type" is the swapped tile's family, not the called tile's (1m) nor
    # the discard's. P0 5s, Ako 9p, P2 8p, P3 6s; P0 1m, which she pons, then she discards 7z.
    first = "5s9p8p6s1m"
    start = scenario_start(["", AKO_HAND, "", ""],
                           draws=live(first, AKO_HAND, avoid=HONORS + "1m"))
    ako = Swapper(["9p", "pon 1m1m", "7z"], swaps=[("4p", "8p")])
    rec, _, state = play(start, [[], ako, [], []], abilities(("ako_atarashi", 1)))
    assert state.players[1].melds
    size, pairs = ako.swap_offers[0]
    # pinzu for her 4p/6p, souzu for her 2s/9s; her honors find no honor lying in a pond, and
    # no manzu is left in her hand after the pon
    assert pairs == {(t("4p"), t("9p")), (t("6p"), t("9p")), (t("4p"), t("8p")),
                     (t("6p"), t("8p")), (t("2s"), t("5s")), (t("9s"), t("5s")),
                     (t("2s"), t("6s")), (t("9s"), t("6s"))}
    assert len(ako.swap_offers) == 1   # only after the call
    assert ako.hands[1].count(t("8p")) == 1 and t("4p") not in ako.hands[1]
    assert pond_types(state, 2)[0] == t("4p")
    assert len(swap_events(rec)) == 1
    assert sum(table_tiles(state).values()) == NUM_TILES


def test_ako_is_not_offered_a_swap_without_a_call() -> None:
    start = scenario_start(["", AKO_HAND, "", ""], draws=live("", AKO_HAND, avoid=HONORS + "1m"))
    ako = Swapper()
    play(start, [[], ako, [], []], abilities(("ako_atarashi", 1)))
    assert not ako.swap_offers


# ---------------------------------------------------------------------- bots

def test_swap_is_a_registered_optional_effect() -> None:
    assert "swap_pond" in OPTIONAL_EFFECTS


def test_heuristic_bot_swaps_when_it_lowers_shanten_and_passes_otherwise() -> None:
    # 14 tiles: 123m 56p 4s 7s 1z1z 3z5z7z + 1z. A 4p for the loose 4s completes 456p (one step
    # closer to tenpai); a 7m for the loose 7s changes nothing (both isolated).
    hand = "123m56p4s7s11z357z"
    start = scenario_start(["", hand, "", ""], dealer=1, draws=live("1z", hand))
    state = HandState(start, PRESET, [ScriptAgent() for _ in range(4)], [None] * 4)
    p = state.players[1]
    p.concealed.append(state.wall.draw())
    held = {x // 4: x for x in p.concealed}
    far = [x for x in range(NUM_TILES) if x // 4 == t("4p")][0]
    other = [x for x in range(NUM_TILES) if x // 4 == t("7m")][0]
    helpful = ability_action(1, "hajime_kunihiro", Move.SWAP_POND, held[t("4s")], tiles=(far,))
    useless = ability_action(1, "hajime_kunihiro", Move.SWAP_POND, held[t("7s")], tiles=(other,))
    passing = Action(ActionKind.PASS, 1)
    bot = HeuristicBot(0)
    obs = Observation(state, 1)
    assert bot.decide(obs, [useless, helpful, passing]) == helpful
    assert bot.decide(obs, [useless, passing]) == passing


# ---------------------------------------------------------------------- Myeonghwa Choe
# She sits at P1 and P0 deals: her seat wind is South (2z); the round wind is East (1z).

MYEONGHWA_HAND = "189m46p5789s3666z"   # terminals and honors: 1m 9m 9s 3z 6z


def test_myeonghwa_swaps_another_players_round_wind_or_her_seat_wind() -> None:
    # P0 throws 1z (the round wind): she gives her 3z for it. P0 throws 4z (North: neither
    # wind): no offer. P2 throws 2z (her seat wind): offered again, declined.
    first = "1z2m3m4m" "4z5m2z6m"
    start = scenario_start(["", MYEONGHWA_HAND, "", ""],
                           draws=live(first, MYEONGHWA_HAND, avoid=HONORS + "1m9m1p9p1s9s"))
    me = Swapper(swaps=[("3z", "1z")])
    rec, _, state = play(start, [[], me, [], []], abilities(("myeonghwa_choe", 1)))
    assert len(me.swap_offers) == 2
    _, first_pairs = me.swap_offers[0]
    assert first_pairs == {(x, t("1z")) for x in (t("1m"), t("9m"), t("9s"), t("3z"), t("6z"))}
    _, second = me.swap_offers[1]
    assert {into for _, into in second} == {t("2z")}
    assert {out for out, _ in second} == {t("1m"), t("9m"), t("9s"), t("1z"), t("6z")}
    assert pond_types(state, 0)[0] == t("3z")
    assert me.hands[0].count(t("1z")) == 1 and t("3z") not in me.hands[0]
    assert len(swap_events(rec)) == 1
    assert sum(table_tiles(state).values()) == NUM_TILES


def test_myeonghwa_cannot_swap_a_claimed_wind_nor_her_own() -> None:
    # P0's 1z is ponned by P2 (nobody claimed it: no swap); her own 2z discard is not offered
    # P0 1z (P2 pons it, throws 5s), P3 3m, P0 4m, her draw 2z (thrown)
    p2 = "11z456p789s234s55s"
    start = scenario_start(["", MYEONGHWA_HAND, p2, ""],
                           draws=live("1z3m4m2z", MYEONGHWA_HAND, p2, avoid=HONORS))
    me = Swapper()
    rec, _, state = play(start, [[], me, ["pon 1z1z", "5s"], []],
                         abilities(("myeonghwa_choe", 1)))
    assert state.players[2].melds and pond_types(state, 1)[0] == t("2z")
    assert not me.swap_offers


NO_WIND = "123m456p789s55m33z"       # P2 in riichi, waiting on 5m and 3z
WITH_WIND = "123m456p789s55m22z"     # the same, holding her seat wind (2z)


def _riichi_ron(p2: str) -> tuple:
    # P0 8m, Myeonghwa 7m, P2 draws 4s and declares riichi, P3 6m; P0 throws 5m
    start = scenario_start(["", MYEONGHWA_HAND, p2, ""],
                           draws=live("8m7m4s6m5m", MYEONGHWA_HAND, p2, avoid="5m3z2z"))
    return play(start, [[], [], ["riichi 4s", "ron"], []], abilities(("myeonghwa_choe", 1)))


def test_myeonghwa_blocks_a_win_holding_her_seat_wind() -> None:
    rec, _, _ = _riichi_ron(NO_WIND)
    assert ron_tiles(rec) == [(2, t("5m"))]
    rec, agents, _ = _riichi_ron(WITH_WIND)
    assert not ron_tiles(rec)
    assert not [o for o in agents[2].offers if any(a.kind == ActionKind.RON for a in o)]


def test_myeonghwa_lets_a_yakuman_win_holding_her_seat_wind() -> None:
    # daisangen holding a pair of 2z: a yakuman wins anyway
    p2 = "555z666z777z22z11m"
    hand = "189m246p5789s134z"
    start = scenario_start(["", hand, p2, ""],
                           draws=live("8m7m4s6m1m", hand, p2, avoid="1m2z"))
    rec, _, _ = play(start, [[], [], ["4s", "ron"], []], abilities(("myeonghwa_choe", 1)))
    assert ron_tiles(rec) == [(2, t("1m"))]


# ---------------------------------------------------------------------- Satoha Tsujigaito

SATOHA_HAND = "123m456m789m1234p"
CHI_HAND = "23m456p789s11z234s"      # P1 chis P0's 4m


def draws_after(seat: int, rec) -> list[int]:
    return [e.tile for e in rec.events if e.kind == "draw" and e.seat == seat]


def test_satoha_swaps_the_next_wall_tile_when_another_player_calls_chi() -> None:
    # P0 throws 4m, P1 chis it; she (P3) sees the next wall tile, 7z, and gives her 4p for it:
    # P2 then draws her 4p
    start = scenario_start(["", CHI_HAND, "", SATOHA_HAND],
                           draws=live("4m7z", CHI_HAND, SATOHA_HAND, avoid="1m4m"))
    satoha = Swapper(swaps=[("4p", "7z")])
    rec, _, state = play(start, [[], ["chi 2m3m"], [], satoha],
                         abilities(("satoha_tsujigaito", 3)))
    assert state.players[1].melds
    _, pairs = satoha.swap_offers[0]
    assert {into for _, into in pairs} == {t("7z")}
    assert {out for out, _ in pairs} == set(parse_types(SATOHA_HAND))  # any tile of her hand
    assert draws_after(2, rec)[0] // 4 == t("4p")
    assert t("7z") in satoha.hands[0] and t("4p") not in satoha.hands[0]
    # a hand tile for the next wall tile: private, the event names no tile and no seat
    assert [(e.card, e.tile, e.tiles, e.payload) for e in swap_events(rec)] == [
        ("satoha_tsujigaito", None, (), None)]
    assert sum(table_tiles(state).values()) == NUM_TILES


def test_satoha_is_not_offered_a_peek_for_a_pon() -> None:
    pon_hand = "44m456p789s11z234s"
    start = scenario_start(["", "", pon_hand, SATOHA_HAND],
                           draws=live("4m7z", pon_hand, SATOHA_HAND, avoid="4m"))
    satoha = Swapper()
    _, _, state = play(start, [[], [], ["pon 4m4m"], satoha], abilities(("satoha_tsujigaito", 3)))
    assert state.players[2].melds and not satoha.swap_offers


def test_satoha_peeks_after_a_face_down_discard_and_an_extra_turn() -> None:
    # Nodoka (P0) throws 1s face down: one peek. Tomoe (P2) throws 5z: an extra turn, a peek.
    first = "1s2s5z3s"
    for card, seat, script in (("nodoka_haramura", 0, ["fd 1s"]),
                               ("tomoe_karijuku", 2, ["5z", "extra"])):
        start = scenario_start(["", "", "", SATOHA_HAND],
                               draws=live(first, SATOHA_HAND, avoid="5z"))
        satoha = Swapper()
        agents = [[], [], [], satoha]
        agents[seat] = Swapper(script)
        rec, _, _ = play(start, agents, abilities(("satoha_tsujigaito", 3), (card, seat)))
        assert not agents[seat].script
        assert len(satoha.swap_offers) == 1, card


def test_satoha_with_an_open_hand_does_not_peek() -> None:
    # she pons P0's first discard (9p), then P1's chi of P0's next discard (4m) gives her no
    # peek
    hand = "123m456m789m99p34p"
    start = scenario_start(["", CHI_HAND, "", hand],
                           draws=live("9p4m7z", CHI_HAND, hand, avoid="1m4m9p"))
    satoha = Swapper(["pon 9p9p"])
    rec, _, state = play(start, [[], ["chi 2m3m"], [], satoha],
                         abilities(("satoha_tsujigaito", 3)))
    assert state.players[3].melds and state.players[1].melds
    assert not satoha.swap_offers


RIICHI_DEALER = "123m456p789s1122z"   # P0: riichi on its first draw (4s)
SATOHA_TENPAI = "234m345p456s678s5z"  # tanki on 5z: menzen tsumo


def _satoha_tsumo(card: str | None, wait_rounds: int) -> int:
    # a first go-around (no first-turn win), then P0 draws 4s and declares riichi with it;
    # ``wait_rounds`` go-arounds later she draws 5z
    fixed = "6m1s2s3s" + "4s" + ("8m2p3p8p") * wait_rounds + "5z"
    start = scenario_start([RIICHI_DEALER, SATOHA_TENPAI, "", ""],
                           draws=live(fixed, RIICHI_DEALER, SATOHA_TENPAI, avoid="1z2z5z"))
    seats = abilities((card, 1)) if card else [None] * 4
    rec, _, _ = play(start, [["riichi 4s"], ["tsumo"], [], []], seats)
    assert rec.wins and rec.wins[0].seat == 1
    return rec.wins[0].points


def test_satoha_win_under_ippatsu_threat_is_doubled() -> None:
    # P0's riichi: her tsumo in the go-around that follows (P0's ippatsu alive) counts double;
    # a round later (P0 has discarded again: no ippatsu) it counts as usual
    assert _satoha_tsumo("satoha_tsujigaito", 0) == 2 * _satoha_tsumo(None, 0)
    assert _satoha_tsumo("satoha_tsujigaito", 1) == _satoha_tsumo(None, 1)


# ---------------------------------------------------------------------- Yumi Kajiki
# She sits at P1; P2 makes a meld first, then she pons P0's 1m.

YUMI_HAND = "11m345p678s555z7z9s"    # after the pon of 1m and the 9s thrown: tanki on 7z
PON_9P = "99p456m789s234s11z"         # P2 pons P0's 9p, throws 1z


def yumi_pon_start() -> HandStart:
    # P0 9p (P2 pons, throws 1z), P3 2m, P0 1m (she pons, throws 9s), P2 3m, P3 4m, P0 7z ...
    return scenario_start(["", YUMI_HAND, PON_9P, ""],
                          draws=live("9p2m1m3m4m6p", YUMI_HAND, PON_9P, avoid="1m9p7z"))


def test_yumi_swaps_the_meld_just_made_with_another_players_meld() -> None:
    # the meld just made may be swapped (C-22 Yumi, as on the card)
    yumi = Swapper(["pon 1m1m", "meld 9p", "9s"])
    seats = abilities(("yumi_kajiki", 1), ("teru_miyanaga", 3))
    rec, _, state = play(yumi_pon_start(), [[], yumi, ["pon 9p9p", "1z"], []], seats)
    assert yumi.meld_offers[0] == {(t("1m"), t("9p"))}
    assert [m.tiles[0] // 4 for m in state.players[1].melds] == [t("9p")]
    assert [m.tiles[0] // 4 for m in state.players[2].melds] == [t("1m")]
    assert [(e.card, e.payload) for e in swap_events(rec)] == [("yumi_kajiki", 2)]  # P2's meld
    assert added_honba(rec.events) == 2 + 1          # two pons and her meld swap (C-22 Teru)
    assert sum(table_tiles(state).values()) == NUM_TILES


def test_yumi_turns_a_discard_face_down_and_counts_face_down_tiles_for_han() -> None:
    # Nodoka (P2) throws her first draw face down; Yumi's pon turns P0's first discard (9p)
    # face down too: two face-down tiles in the others' ponds give her 1 han more when she rons
    # P0's 7z (haku is her yaku); with one face-down tile she gets none.
    hand = YUMI_HAND
    first = "9p8m3s2m1m3m4m7z"      # P0 9p, Yumi 8m, Nodoka 3s (face down), P3 2m, P0 1m ...
    def run(script: list[str]) -> tuple:
        start = scenario_start(["", hand, "", ""],
                               draws=live(first, hand, avoid="1m7z9p"))
        return play(start, [[], Swapper(script), ["fd 3s"], []],
                    abilities(("yumi_kajiki", 1), ("nodoka_haramura", 2)))

    rec, _, state = run(["pon 1m1m", "down 9p", "9s", "ron"])
    assert [d.face_down for d in state.players[0].discards][:1] == [True]
    with_two = rec.wins[0].han
    assert rec.wins[0].dora == rec.wins[0].aka == 0
    rec, _, _ = run(["pon 1m1m", "9s", "ron"])
    assert ron_tiles(rec) == [(1, t("7z"))]
    assert rec.wins[0].han == with_two - 1 == 1      # haku alone


ANKAN_HAND = "5555m456p789s11z2z"    # P2: a closed kan of 5m on its first turn (draws 2z)


def _ankan_then_yumi(p2_script: list[str]) -> tuple:
    # P0 9p, Yumi 8m, P2 2z: closed kan of 5m, rinshan 3s (riichi on it, or thrown), P3 2m,
    # P0 1m: she pons it
    start = scenario_start(["", YUMI_HAND, ANKAN_HAND, ""], rinshan="3s",
                           draws=live("9p8m2z2m1m3m4m6p", YUMI_HAND, ANKAN_HAND,
                                      avoid="1m7z1z2z"))
    yumi = Swapper(["pon 1m1m", "meld 5m", "9s"])
    rec, _, state = play(start, [[], yumi, p2_script, []], abilities(("yumi_kajiki", 1)))
    return yumi, state


def test_yumi_takes_a_closed_kan_and_opens_its_owners_hand() -> None:
    yumi, state = _ankan_then_yumi(["ankan 5m", "3s"])
    assert yumi.meld_offers[0] == {(t("1m"), t("5m"))}
    kan = state.players[1].melds[0]
    assert kan.tiles[0] // 4 == t("5m") and kan.is_open and kan.is_kan
    assert not state.players[2].is_closed


def test_c22_yumi_cannot_take_a_closed_kan_from_a_player_in_riichi() -> None:
    # C-22 Yumi: a player in riichi has a locked hand; its closed kan is never offered
    yumi, state = _ankan_then_yumi(["ankan 5m", "riichi 3s"])
    assert state.players[2].riichi
    assert not yumi.meld_offers
    assert state.players[2].melds[0].kind.value == "ankan"


def _bot_table(hand: str, p2_pon: str) -> HandState:
    """P1 holds ``hand`` and a pon of 2m, P2 a pon of ``p2_pon``; the dora indicator is 1z."""
    others = ("111p222p333p444p6p", "777p999p111s999s5s", "666m777m999m3467z")
    start = scenario_start([others[0], hand, others[1], others[2]], dora="1z",
                           draws=live("", hand, *others, avoid="2m5z8m"))
    state = HandState(start, PRESET, [ScriptAgent() for _ in range(4)], [None] * 4)
    taken: set[int] = {x for p in state.players for x in p.concealed}

    def pon(tile: str) -> Meld:
        ids = [x for x in range(NUM_TILES) if x // 4 == t(tile) and x not in taken][:3]
        taken.update(ids)
        return Meld(MeldKind.PON, tuple(ids), ids[0], 0)

    state.players[1].melds.append(pon("2m"))
    state.players[2].melds.append(pon(p2_pon))
    return state


def test_heuristic_bot_swaps_melds_for_a_yakuhai_and_keeps_its_own_otherwise() -> None:
    hand = "345p678s1234s"
    for other, wanted in (("5z", True), ("8m", False)):
        state = _bot_table(hand, other)
        mine, theirs = state.players[1].melds[0], state.players[2].melds[0]
        swap = ability_action(1, "yumi_kajiki", Move.SWAP_MELD, mine.tiles[0], tiles=theirs.tiles)
        passing = Action(ActionKind.PASS, 1)
        choice = HeuristicBot(0).decide(Observation(state, 1), [swap, passing])
        assert (choice == swap) == wanted, other


def test_a_wind_swapped_away_by_one_myeonghwa_is_not_offered_to_the_next() -> None:
    # two players hold her card (P1 and P2: seat winds South and West). P0's 1z (the round
    # wind for both) goes to P1 first, in turn order; P2 then has nothing to swap for.
    hand2 = "234m567p189s19p34z"
    start = scenario_start(["", MYEONGHWA_HAND, hand2, ""],
                           draws=live("1z2m3m4m", MYEONGHWA_HAND, hand2, avoid=HONORS))
    first, second = Swapper(swaps=[("3z", "1z")]), Swapper()
    rec, _, state = play(start, [[], first, second, []],
                         abilities(("myeonghwa_choe", 1), ("myeonghwa_choe", 2)))
    assert len(first.swap_offers) == 1 and not second.swap_offers
    assert pond_types(state, 0)[0] == t("3z")


def test_myeonghwa_and_satoha_in_riichi_do_not_swap() -> None:
    # their hands are locked: P1 declares riichi on her first draw; P0's later 1z (Myeonghwa)
    # or P2's riichi (Satoha) offers nothing
    hand = "123m456p789s1199s"
    first = "6m5m4s7m1z"            # P0 6m, P1 5m (riichi), P2 4s (riichi for P2), P3 7m, P0 1z
    p2 = "234m567p22s33s678s"
    for card in ("myeonghwa_choe", "satoha_tsujigaito"):
        start = scenario_start(["", hand, p2, ""],
                               draws=live(first, hand, p2, avoid=HONORS + "1s9s"))
        me = Swapper(["riichi 5m"])
        _, _, state = play(start, [[], me, ["riichi 4s"], []], abilities((card, 1)))
        assert state.players[1].riichi and state.players[2].riichi, card
        assert not me.swap_offers, card


def test_satoha_swapping_away_a_tile_of_her_pending_chi_at_a_riichi_drops_the_chi() -> None:
    # P0 declares riichi with 4m; she (P1) answers chi with 2m3m, then the riichi, accepted
    # before calls are made, lets her peek: she gives her 2m for the next wall tile (7z). The
    # chi has lost a tile, so it is not made (no crash); she draws her 2m back from the wall
    start = scenario_start([RIICHI_DEALER, CHI_HAND, "", ""],
                           draws=live("4m7z", RIICHI_DEALER, CHI_HAND, avoid="1m4m1z2z"))
    satoha = Swapper(["chi 2m3m"], swaps=[("2m", "7z")])
    rec, _, state = play(start, [["riichi 4m"], satoha, [], []],
                         abilities(("satoha_tsujigaito", 1)))
    assert satoha.swap_offers and not satoha.swaps          # the swap was made
    assert not state.players[1].melds and not any(e.kind == "chi" for e in rec.events)
    assert draws_after(1, rec)[0] // 4 == t("2m")
    assert state.players[0].riichi
    assert sum(table_tiles(state).values()) == NUM_TILES
