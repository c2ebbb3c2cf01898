"""Cards acting on the rinshan draw and on other cards: Saki Miyanaga (rinshan tiles always win
for her) and Maho Yumeno (draws two cards and copies one for the hand)."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.bots.pick import card_value, choose
from pipeline.cards import registry
from pipeline.cards.abilities import CardAbility, effect_implemented
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.flip_card import FlipAbility, FlipCause
from pipeline.cards.moves import Move
from pipeline.cards.table import CardTable
from pipeline.cards.teams import deck_for
from pipeline.rules.actions import AbilityTag, ActionKind
from pipeline.rules.hand import HandState
from pipeline.rules.hooks import PickView
from pipeline.rules.preset import load_preset
from pipeline.rules.records import DrawSource, HandStart
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_tiles, tile_type

PRESET = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")


def seats_with(card: str, seat: int) -> list[CardAbility | None]:
    seats: list[CardAbility | None] = [None] * 4
    seats[seat] = CardAbility(CATALOG.card(card), seat)
    return seats


def play(start: HandStart, scripts: Sequence[Sequence[str]], abilities: list):
    agents = [ScriptAgent(s) for s in scripts]
    state = HandState(start, PRESET, agents, abilities)
    return state.play(), agents


def offered(agent: ScriptAgent, kind: ActionKind) -> list[int]:
    """Tiles of every action of this kind the seat was offered."""
    return [a.tile for offer in agent.offers for a in offer if a.kind == kind]


def win_tile(rec) -> int:
    """The tile of the hand's (last) win, from the log."""
    return [e.tile for e in rec.events if e.kind in ("tsumo", "ron")][-1]


# ---------------------------------------------------------------------- Saki Miyanaga

# Her own kan: 1111m and nothing else that fits; the rinshan tile 9p completes nothing.
SAKI_KAN = "1111m258p369s147z"


def saki_own_kan(abilities: list):
    # P0 deals and discards; P1 (Saki) draws 5z, declares a closed kan of 1m, draws 9p
    start = scenario_start(["", SAKI_KAN, "", ""], draws="3s5z", rinshan="9p",
                           dora="9s5z", ura="5s6s")
    return play(start, [[], ["ankan 1m", "tsumo"], [], []], abilities)


def shapeless_saki(seat: int) -> list[CardAbility | None]:
    """Saki with the reading always_winning = "shapeless" on her rinshan effect."""
    card = CATALOG.card("saki_miyanaga").with_param("rinshan", "always_winning", "shapeless")
    seats: list[CardAbility | None] = [None] * 4
    seats[seat] = CardAbility(card, seat)
    return seats


def test_saki_wins_on_her_own_rinshan_draw_whatever_the_shape_read_shapeless() -> None:
    rec, agents = saki_own_kan(shapeless_saki(1))
    win = rec.wins[0]
    assert win.seat == 1 and win.from_seat == 1
    assert tile_type(win_tile(rec)) == tile_type(parse_tiles("9p")[0])
    # only the situational yaku of a shapeless hand: menzen tsumo and rinshan kaihou, 2 han
    # 30 fu for a non-dealer tsumo: 500 / 1,000
    assert {n for n, _ in win.yaku} == {"Menzen Tsumo", "Rinshan Kaihou"}
    assert win.han == 2 and win.points == 2000


def test_saki_not_ready_cannot_win_on_her_rinshan_draw_as_a_wildcard() -> None:
    # card saki_miyanaga, reading always_winning = "wildcard" (the default): her hand after the
    # kan is not ready, so the rinshan tile has nothing to stand for
    rec, agents = saki_own_kan(seats_with("saki_miyanaga", 1))
    assert not offered(agents[1], ActionKind.TSUMO)
    assert not rec.wins or rec.wins[0].seat != 1


def test_without_the_card_the_rinshan_tile_completes_nothing() -> None:
    rec, agents = saki_own_kan([None] * 4)
    assert not offered(agents[1], ActionKind.TSUMO)
    assert not rec.wins


# Another player's kan: P0 (dealer) declares a closed kan of 1m on its first turn, keeps the
# rinshan tile 9p and discards it a go-around later; Saki is in riichi on 1z/2z by then.
DEALER_KAN = "1111m456p3579s55z"
SAKI_RIICHI = "234m789m123p1122z"


def saki_ron_on_a_rinshan_tile(abilities: list):
    # draws: P0 6z (then the kan), P1 4s (riichi on it), P2 8m, P3 a plain 9p, P0 7z
    start = scenario_start([DEALER_KAN, SAKI_RIICHI, "", ""], draws="6z4s8m9p7z",
                           rinshan="9p", dora="9s5z", ura="5s6s")
    scripts = [["ankan 1m", "3s", "9p"], ["riichi 4s", "ron"], [], []]
    return play(start, scripts, abilities)


def test_saki_rons_another_players_rinshan_tile_and_no_other_copy() -> None:
    rec, agents = saki_ron_on_a_rinshan_tile(seats_with("saki_miyanaga", 1))
    rinshan_tile = next(e.tile for e in rec.events if e.drawn_from is DrawSource.RINSHAN)
    assert tile_type(rinshan_tile) == tile_type(parse_tiles("9p")[0])
    win = rec.wins[0]
    assert win.seat == 1 and win.from_seat == 0
    assert win_tile(rec) == rinshan_tile
    # the plain 9p P3 drew and discarded first was not offered to her
    assert offered(agents[1], ActionKind.RON) == [rinshan_tile]
    # her hand is in tenpai on 1z/2z, so the tile acts as one of those winning tiles
    # (pipeline/rules/shapeless.py): 1z or 2z give equal value (a wind triplet and a wind pair),
    # the first in tile order is taken: riichi, ippatsu (her first go-around) and the round
    # wind East, 20 + 10 + 4 (East triplet on a ron) + 2 (her seat wind South pair) -> 40 fu:
    # 3 han 40 fu, 5,200
    assert {n for n, _ in win.yaku} == {"Riichi", "Ippatsu", "Yakuhai (round wind east)"}
    assert (win.han, win.fu, win.points) == (3, 40, 5200)


def test_without_the_card_another_players_rinshan_tile_is_an_ordinary_tile() -> None:
    rec, agents = saki_ron_on_a_rinshan_tile([None] * 4)
    nine_pin = tile_type(parse_tiles("9p")[0])
    assert any(e.kind == "discard" and e.seat == 0 and tile_type(e.tile) == nine_pin
               for e in rec.events)  # the rinshan tile was discarded
    assert nine_pin not in {tile_type(t) for t in offered(agents[1], ActionKind.RON)}


# Saki in the West seat (P2, P0 deals): four different winds and three sets. Read as West,
# any fifth wind makes a West triplet and a West pair.
SAKI_WINDS = "123m456p789s1234z"


def saki_west(abilities: list, draw: str = "3z", scripts=None):
    # her first draw 5p goes out (a first-draw win would be chiihou), her second is ``draw``
    start = scenario_start(["", "", SAKI_WINDS, ""], draws="6m7m5p8m9m1p" + draw, dora="8p")
    return play(start, scripts or [[], [], ["tsumo"], []], abilities)


def test_saki_reads_her_winds_as_west_to_win() -> None:
    rec, agents = saki_west(seats_with("saki_miyanaga", 2))
    win = rec.wins[0]
    assert win.seat == 2 and win.from_seat == 2
    # 123m 456p 789s + West triplet + West pair: menzen tsumo and her seat wind (West)
    assert {n for n, _ in win.yaku} == {"Menzen Tsumo", "Yakuhai (seat wind west)"}
    # 20 + 2 (tsumo) + 8 (closed honor triplet) + 2 (seat-wind pair) = 32 -> 40 fu: 700/1,300
    assert win.han == 2 and win.fu == 40 and win.points == 2700


def test_without_the_card_four_loose_winds_do_not_win() -> None:
    rec, agents = saki_west([None] * 4)
    assert not offered(agents[2], ActionKind.TSUMO)


def test_saki_may_riichi_on_a_wait_read_with_west() -> None:
    # she draws 5p and may declare riichi discarding it: any wind completes her hand
    _, agents = saki_west(seats_with("saki_miyanaga", 2), scripts=[[], [], [], []])
    riichi = {tile_type(t) for t in offered(agents[2], ActionKind.RIICHI)}
    assert tile_type(parse_tiles("5p")[0]) in riichi
    _, plain = saki_west([None] * 4, scripts=[[], [], [], []])
    assert not offered(plain[2], ActionKind.RIICHI)


def test_saki_rons_a_discarded_east_read_as_west() -> None:
    # P1 discards East (its first draw 1z): with her four winds read as West, it wins
    start = scenario_start(["", "", SAKI_WINDS, ""], draws="6m1z", dora="8p")
    rec, agents = play(start, [[], [], ["ron"], []], seats_with("saki_miyanaga", 2))
    win = rec.wins[0]
    assert win.seat == 2 and win.from_seat == 1
    assert "Yakuhai (seat wind west)" in {n for n, _ in win.yaku}


def test_c22_saki_two_west_triplets_are_one_yakuhai() -> None:
    # C-22 Saki: multiple instances of one yaku count once. South round, she sits West: her
    # East triplet read as West makes two West triplets, still one seat-wind yakuhai
    hand = "123m456p111z333z2z"
    start = scenario_start(["", "", hand, ""], draws="6m7m5p8m9m1p2z", dora="8p",
                           round_wind=1)
    rec, _ = play(start, [[], [], ["tsumo"], []], seats_with("saki_miyanaga", 2))
    win = rec.wins[0]
    assert win.seat == 2
    assert sorted(n for n, _ in win.yaku) == ["Menzen Tsumo", "Yakuhai (seat wind west)"]
    assert win.han == 2


def test_c22_saki_pons_west_only_with_real_west_tiles() -> None:
    # C-22 Saki: she may pon or kan West only on a real West. With two Easts she may not pon
    # a discarded West, nor pon a discarded East with two Wests.
    for hand, discard in (("11z456m456p456s78s", "3z"), ("33z456m456p456s78s", "1z")):
        start = scenario_start(["", hand, "", ""], draws=discard, dora="8p")
        rec, agents = play(start, [[discard], [], [], []], seats_with("saki_miyanaga", 1))
        called = tile_type(parse_tiles(discard)[0])
        assert called not in {tile_type(t) for t in offered(agents[1], ActionKind.PON)}, hand
        assert any(e.kind == "discard" and tile_type(e.tile) == called for e in rec.events)


# ---------------------------------------------------------------------- Maho Yumeno

MAHO_WINS = "123m456p789s1122z"  # the dealer's hand; her first draw 2z completes it (tenhou)


class Picker(ScriptAgent):
    """A scripted seat that picks ``first`` from its team and copies ``copy``; notes the options
    of every pick it is asked."""

    def __init__(self, first: str, copy: str | None = None, script: Sequence[str] = ()) -> None:
        super().__init__(script)
        self.first = first
        self.copy = copy
        self.asked: list[tuple[str, ...]] = []

    def pick(self, hand: Sequence[int], options: Sequence[str], view: PickView) -> str:
        self.asked.append(tuple(options))
        if self.first in options:
            return self.first
        return self.copy if self.copy in options else options[0]


def maho_table(copy: str, mode: str = "winner-rotation"):
    base = load_preset("tournament-2022")
    from dataclasses import replace

    preset = replace(base, cards=replace(base.cards, team_mode=mode, team_size=1))
    agents = [Picker("maho_yumeno", copy, ["tsumo"]), Picker("kaori_senoo"),
              Picker("teru_miyanaga"), Picker("mako_someya")]
    table = CardTable(preset, agents, 1, 0)
    state = table.state
    others = [c for c in state.all_cards() if c not in (
        "maho_yumeno", "kaori_senoo", "teru_miyanaga", "mako_someya", "komaki_jindai",
        "arata_sagimori")]
    state.teams = [["maho_yumeno"], ["kaori_senoo"], ["teru_miyanaga"], ["mako_someya"]]
    state.out_of_play = []
    state.deck = [*others, "arata_sagimori", "komaki_jindai"]  # drawn from the end
    return table, agents, preset


def test_maho_draws_two_cards_copies_one_and_keeps_both() -> None:
    table, agents, preset = maho_table("komaki_jindai")
    start = scenario_start([MAHO_WINS, "", "", ""], draws="2z")
    abilities = table.abilities_for(start)
    # her player chose among the two cards drawn from the top of the deck
    assert agents[0].asked == [("maho_yumeno",), ("komaki_jindai", "arata_sagimori")]
    assert abilities[0].name == "komaki_jindai"  # every hook is the copied card's
    assert table.picks[0] == "maho_yumeno"
    assert table.state.teams[0] == ["maho_yumeno", "komaki_jindai", "arata_sagimori"]
    assert "komaki_jindai" not in table.state.deck and "arata_sagimori" not in table.state.deck
    state = HandState(start, preset, agents, abilities)
    rec = state.play()
    fired = [(e.card, e.tag, e.payload) for e in rec.events if e.kind == "ability"
             and e.seat == 0]
    assert ("maho_yumeno", Move.COPY, "komaki_jindai") in fired
    assert ("komaki_jindai", AbilityTag.HAND_REVEALED, None) in fired  # the copy acts
    assert rec.wins and rec.wins[0].seat == 0


def test_c22_maho_rotates_under_winner_rotation_and_the_copied_card_stays() -> None:
    # C-22 Maho: under winner rotation the copied card is not "played": Maho herself rotates
    table, agents, preset = maho_table("komaki_jindai")
    start = scenario_start([MAHO_WINS, "", "", ""], draws="2z")
    rec = HandState(start, preset, agents, table.abilities_for(start)).play()
    assert rec.wins[0].seat == 0
    table.hand_done(rec)
    team = table.state.teams[0]
    assert "maho_yumeno" not in team and "maho_yumeno" in table.state.deck
    assert team[1:] == ["komaki_jindai", "arata_sagimori"]  # both drawn cards kept
    assert len(team) == 3                                   # Maho's place took a new card


def test_c22_maho_in_draft_the_copied_card_is_not_played() -> None:
    # C-22 Maho: same in draft: Maho's card counts as played; the copy stays available
    table, agents, preset = maho_table("komaki_jindai", mode="draft")
    state = table.state
    state.teams[0] = ["maho_yumeno", "toki_onjouji", "hisa_takei"]
    state.deck = [c for c in state.deck if c not in state.teams[0]]
    start = scenario_start([MAHO_WINS, "", "", ""], draws="2z")
    table.abilities_for(start)
    assert state.played[0] == ["maho_yumeno"]
    assert state.teams[0] == ["maho_yumeno", "toki_onjouji", "hisa_takei", "komaki_jindai",
                              "arata_sagimori"]


def test_maho_bot_copies_the_card_its_pick_estimates_value_more() -> None:
    hand = tuple(parse_tiles(MAHO_WINS))
    view = PickView(seat=0, dealer=0, scores=(25000,) * 4, catalog=CATALOG)
    drawn = ("komaki_jindai", "arata_sagimori")
    value = {c: card_value(CATALOG.card(c), hand, view) for c in drawn}
    assert value["komaki_jindai"] != value["arata_sagimori"]
    assert choose(hand, drawn, view) == max(drawn, key=value.__getitem__)


def test_maho_is_playable_and_her_copy_has_a_pick_estimate() -> None:
    assert registry.playable(CATALOG.card("maho_yumeno"))
    assert effect_implemented("copy_ability", {})


# ---------------------------------------------------------------------- Mairu / Himeko

MAIRU = "123m456m789m123p4s"  # tenpai on 4s (a single wait)


def mairu_seats(back=None) -> list:
    """Mairu / Himeko at P0 (``back``: a Himeko card with a reading changed)."""
    seats: list = [None] * 4
    seats[0] = FlipAbility(CardAbility(CATALOG.card("mairu_shirouzu"), 0),
                           CardAbility(back or CATALOG.card("himeko_tsuruta"), 0))
    return seats


class Guesser(ScriptAgent):
    """A scripted seat that names the families listed (then "man") before its draws."""

    def __init__(self, script: Sequence[str] = (), guesses: Sequence[str] = ()) -> None:
        super().__init__(script)
        self.guesses = list(guesses)

    def decide(self, obs, legal):
        if legal[0].tag is Move.FAMILY:
            want = self.guesses.pop(0) if self.guesses else "man"
            return next(a for a in legal if (a.tag is Move.FAMILY and a.payload == want))
        if self.script and self.script[0] == "extra":  # take the next extra turn offered
            extra = next((a for a in legal if a.tag is AbilityTag.EXTRA_TURN), None)
            if extra is not None:
                self.script.pop(0)
                self.offers.append(legal)
                return extra
            script, self.script = self.script, []
            try:
                return super().decide(obs, legal)
            finally:
                self.script = script
        return super().decide(obs, legal)


def mairu_play(start: HandStart, scripts: Sequence[Sequence[str]], guesses: Sequence[str],
               abilities: list):
    agents = [Guesser(scripts[0], guesses), *(ScriptAgent(s) for s in scripts[1:])]
    state = HandState(start, PRESET, agents, abilities)
    return state.play(), agents


def fired(rec, seat: int = 0) -> list[tuple]:
    """The seat's ability events by their typed fields: (card, tag, what it names)."""
    return [(e.card, e.tag, e.payload) for e in rec.events if e.kind == "ability"
            and e.seat == seat]


MAIRU_ID, HIMEKO_ID = "mairu_shirouzu", "himeko_tsuruta"
SHOWN = (MAIRU_ID, AbilityTag.TILE_SHOWN, None)   # her draw revealed
TURNED_DOWN = (MAIRU_ID, AbilityTag.TURNED_FACE_DOWN, 0)  # a tile of her own pond


def test_mairu_right_guess_turns_her_first_discard_down_and_flips_to_himeko() -> None:
    # her draws: 1s (named honors: wrong), 2s (named sou: right). Her 1s lies face down then;
    # as Himeko her 2s discard shows a family not visible in her pond: an extra turn is
    # offered (declined here) and the card flips back to Mairu (card himeko_tsuruta, reading
    # flip_back = "after_extra_turn": as the offer is declined)
    hand = "123456789m1p2p3p4s"
    start = scenario_start([hand, "", "", ""], draws="1s5z6z7z2s1z2z3z4z", dora="9p")
    rec, agents = mairu_play(start, [[], [], [], []], ["honors", "sou"], mairu_seats())
    log = fired(rec)
    assert log[:2] == [(MAIRU_ID, Move.FAMILY, "honors"), SHOWN]
    assert log[2:6] == [(MAIRU_ID, Move.FAMILY, "sou"), SHOWN, TURNED_DOWN,
                        (MAIRU_ID, Move.FLIP, FlipCause.RIGHT_GUESS)]
    shown = [e.tile for e in rec.events if e.tag is AbilityTag.TILE_SHOWN]
    assert [tile_type(t) for t in shown[:2]] == [tile_type(t) for t in parse_tiles("1s2s")]
    down = next(e for e in rec.events if e.tag is AbilityTag.TURNED_FACE_DOWN)
    first = next(e for e in rec.events if e.kind == "discard" and e.seat == 0)
    assert down.tile == first.tile and tile_type(first.tile) == tile_type(parse_tiles("1s")[0])
    assert any((a.card, a.tag) == ("himeko_tsuruta", AbilityTag.EXTRA_TURN)
               for o in agents[0].offers for a in o)
    assert log[6] == (HIMEKO_ID, Move.FLIP_AFTER_EXTRA_TURN, FlipCause.EXTRA_TURN_DECLINED)
    assert log[7] == (MAIRU_ID, Move.FAMILY, "man")  # the front is up again: she names again


def test_himeko_stays_up_through_her_extra_turn_and_flips_back_after_it() -> None:
    # card himeko_tsuruta, reading flip_back = "after_extra_turn": as above, but she takes the
    # extra turn: its draw is made as Himeko (Mairu names no family before it), and the card
    # flips back once its discard is made
    hand = "123456789m1p2p3p4s"
    start = scenario_start([hand, "", "", ""], draws="1s5z6z7z2s1z2z3z4z", dora="9p")
    rec, agents = mairu_play(start, [["extra"], [], [], []], ["honors", "sou"], mairu_seats())
    log = fired(rec)
    assert log[5] == (MAIRU_ID, Move.FLIP, FlipCause.RIGHT_GUESS)
    assert log[6] == (HIMEKO_ID, AbilityTag.EXTRA_TURN, None)
    assert log[7] == (HIMEKO_ID, Move.FLIP_AFTER_EXTRA_TURN, FlipCause.EXTRA_TURN_OVER)
    draws = [i for i, e in enumerate(rec.events) if e.kind == "draw" and e.seat == 0]
    turn = next(i for i, e in enumerate(rec.events) if e.kind == "ability"
                and e.tag is AbilityTag.EXTRA_TURN)
    flip = next(i for i, e in enumerate(rec.events) if e.payload is FlipCause.EXTRA_TURN_OVER)
    between = [i for i in draws if turn < i < flip]
    assert between, "the extra turn's draw comes before the flip"
    assert not any(e.tag is Move.FAMILY for e in rec.events[turn:between[0]])


def test_himeko_when_offered_reading_flips_back_as_the_extra_turn_is_offered() -> None:
    # card himeko_tsuruta, reading flip_back = "when_offered": the flip comes with the offer
    hand = "123456789m1p2p3p4s"
    start = scenario_start([hand, "", "", ""], draws="1s5z6z7z2s1z2z3z4z", dora="9p")
    seats = mairu_seats(back=CATALOG.card("himeko_tsuruta").with_param(
        "flip", "flip_back", "when_offered"))
    rec, agents = mairu_play(start, [[], [], [], []], ["honors", "sou"], seats)
    assert fired(rec)[6] == (HIMEKO_ID, Move.FLIP, FlipCause.NEW_FAMILY)


def test_mairu_riichi_turns_two_discards_down_and_a_call_flips_himeko_back() -> None:
    # she discards 9s and 8s, then declares riichi on 7z (every guess "man": wrong): her two
    # first discards go face down and the card flips; P1's pon of 5z flips it back
    start = scenario_start([MAIRU, "55z", "", ""], draws="9s1z2z3z8s1z2z3z7z6z5z",
                           dora="9p")
    rec, _ = mairu_play(start, [["riichi 7z"], ["pon"], [], []], [], mairu_seats())
    log = fired(rec)
    flip = log.index((MAIRU_ID, Move.FLIP, FlipCause.OWN_RIICHI))
    assert log[flip - 2:flip] == [TURNED_DOWN] * 2
    assert TURNED_DOWN not in log[:flip - 2]  # no right guess
    down = [e.tile for e in rec.events if e.tag is AbilityTag.TURNED_FACE_DOWN][:2]
    discards = [e.tile for e in rec.events if e.kind == "discard" and e.seat == 0]
    assert down == discards[:2]
    assert log[flip + 1] == (HIMEKO_ID, Move.FLIP, FlipCause.A_CALL)
    assert any(e.kind == "pon" and e.seat == 1 for e in rec.events)


def test_himeko_scores_one_han_for_two_face_down_discards() -> None:
    # as above, then she draws her winning 4s (ippatsu): +1 han on the back side
    draws = "9s1z2z3z8s1z2z3z7z6z5z7p4s"
    scripts = [["riichi 7z", "tsumo"], [], [], []]
    start = scenario_start([MAIRU, "", "", ""], draws=draws, dora="9p", ura="9p")
    rec, _ = mairu_play(start, scripts, [], mairu_seats())
    plain, _ = mairu_play(scenario_start([MAIRU, "", "", ""], draws=draws, dora="9p",
                                         ura="9p"), scripts, [], [None] * 4)
    win, base = rec.wins[0], plain.wins[0]
    assert win.seat == base.seat == 0 and win.from_seat == 0
    assert win.yaku == base.yaku  # the bonus is no yaku (rule C-12)
    assert win.han == base.han + 1


def test_c22_himeko_is_never_in_the_deck_and_every_hand_starts_as_mairu() -> None:
    # C-22 Himeko: never shuffled into the deck; she enters play only through Mairu's effect
    assert "himeko_tsuruta" not in deck_for(CATALOG, load_preset("cards-hanchan").cards)
    table, _, _ = maho_table("komaki_jindai")
    state = table.state
    state.deck.remove("mairu_shirouzu") if "mairu_shirouzu" in state.deck else None
    state.teams[1] = ["mairu_shirouzu"]
    table.agents[1].first = "mairu_shirouzu"
    start = scenario_start([MAHO_WINS, "", "", ""], draws="2z")
    ability = table.abilities_for(start)[1]
    assert isinstance(ability, FlipAbility) and ability.name == "mairu_shirouzu"
    assert ability.sides[1].name == "himeko_tsuruta"


def test_saki_cannot_win_holding_a_physical_wind_of_myeonghwas_seat_wind() -> None:
    # Myeonghwa sits South (P1); Saki's hand holds a real South tile: read as West it would
    # win (see above), but the physical tile blocks a win that is no yakuman
    seats = seats_with("saki_miyanaga", 2)
    seats[1] = CardAbility(CATALOG.card("myeonghwa_choe"), 1)
    rec, agents = saki_west(seats)
    assert not offered(agents[2], ActionKind.TSUMO)
    assert not any(w.seat == 2 for w in rec.wins)
