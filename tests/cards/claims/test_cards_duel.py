"""Claim, win, block and duel cards in play: Sumire Hirose (late ron), Yukiko Maya (priority chi
from anyone, double payments), Hiroe Atago (damaten protection), Sae Usuzawa (a blocked player,
abilities switched off), Megan Davin (the duel) and Aislinn Wishart (extra turns, the stake for
opening a hand); and the heuristic bot's policies for their choices."""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.duel import routed_noten
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.scenario import ScriptAgent, scenario_start, spare_tiles
from pipeline.tiles import parse_tiles, parse_types
from tests.support.duel_play import PRESET, Naming, play

CATALOG = load_catalog("1.2")
LIVE_DRAWS = 70  # 136 tiles - 52 dealt - 14 in the dead wall


def cards(**seats: str) -> list[CardAbility | None]:
    """Abilities by seat: ``cards(p0="sae_usuzawa", p2="kaori_senoo")``."""
    out: list[CardAbility | None] = [None] * 4
    for key, card in seats.items():
        seat = int(key[1])
        out[seat] = CardAbility(CATALOG.card(card), seat)
    return out


def offered(agent: ScriptAgent, kind: ActionKind, tile: str | None = None) -> list[Action]:
    t = parse_types(tile)[0] if tile else None
    return [a for offer in agent.offers for a in offer
            if a.kind == kind and (t is None or a.tile // 4 == t)]


def fired(rec) -> list[tuple]:
    """What the ability events say in their typed fields: (card, tag, what it names)."""
    return [(e.card, e.tag, e.payload) for e in rec.events if e.kind == "ability"]


def deltas(rec) -> list[int]:
    return [s.end_score - s.start_score for s in rec.seats]


def full_draws(placed: dict[int, str], *hands: str, avoid: str = "") -> str:
    """All 70 live draws: the given tiles at their indexes, spare tiles elsewhere."""
    fixed = "".join(placed.values())
    spare = iter(_split(spare_tiles(LIVE_DRAWS - len(placed), *hands, fixed, avoid=avoid)))
    return "".join(placed.get(i) or next(spare) for i in range(LIVE_DRAWS))


def _split(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


# ---------------------------------------------------------------------- Sumire Hirose

SUMIRE_HAND = "234m345p678s456s7m"  # tenpai on 7m alone (tanki), tanyao


def test_sumire_rons_the_previous_discard_of_a_player_whose_discard_nobody_claimed() -> None:
    # P0 discards 7m; Sumire (P2) lets it go (temporary furiten), then discards herself, which
    # ends that furiten (rule H-09, K-01); P0's next discard is not claimed: she rons the 7m
    start = scenario_start(["", "", SUMIRE_HAND, ""], draws="7m1z2z3z4z", dora="9s")
    rec, agents, _ = play(start, [[], [], ["pass", "ron"], []], cards(p2="sumire_hirose"))
    assert len(rec.wins) == 1
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (2, 0)
    assert rec.events[-1].kind == "ron" and rec.events[-1].tile // 4 == parse_types("7m")[0]
    assert ("sumire_hirose", AbilityTag.LATE, 0) in fired(rec)  # on P0's previous discard
    # tanyao 1 han + 1 extra han (not a yaku, rule C-12), 40 fu (closed ron 30 + tanki 2):
    # 2 han 40 fu off a non-dealer is 2,600 on the standard table
    assert [n for n, _ in win.yaku] == ["Tanyao"]
    assert (win.han, win.fu, win.points) == (2, 40, 2600)
    assert deltas(rec) == [-2600, 0, 2600, 0]
    # without the card nothing is offered and the hand goes on
    rec, agents, _ = play(start, [[], [], ["pass", "ron"], []], [None] * 4)
    assert not [a for a in offered(agents[2], ActionKind.RON) if a.tag is not None]
    assert not any(w.seat == 2 and w.han == 2 for w in rec.wins)


def first_discard(rec, seat: int) -> int:
    return next(e.tile for e in rec.events if e.kind == "discard" and e.seat == seat)


def test_sumire_late_ron_only_on_the_previous_discard() -> None:
    # P0 discards 7m, later 1z (nobody claims it: she declines the 7m), then 5z: the 7m is no
    # longer P0's previous discard, so no late ron is offered on it again
    start = scenario_start(["", "", SUMIRE_HAND, ""],
                           draws="7m1s2s3s" "1z2p3p4p" "5z6p8p9p", dora="9s")
    rec, agents, _ = play(start, [[], [], ["pass", "pass"], []], cards(p2="sumire_hirose"))
    seven = first_discard(rec, 0)
    late = [a for a in offered(agents[2], ActionKind.RON)
            if (a.card, a.tag) == ("sumire_hirose", AbilityTag.LATE)]
    assert [a.tile for a in late].count(seven) == 1
    assert not any(w.from_seat == 0 and w.seat == 2 for w in rec.wins)


def test_sumire_late_ron_follows_the_furiten_rules() -> None:
    # rule H-09 on the late ron: a winning tile she let go by since her last discard (here the
    # unclaimed discard itself, a second 7m) forbids it
    start = scenario_start(["", "", SUMIRE_HAND, ""], draws="7m1z2z3z7m", dora="9s")
    rec, agents, _ = play(start, [[], [], ["pass", "pass"], []], cards(p2="sumire_hirose"))
    seven = first_discard(rec, 0)
    assert not [a for a in offered(agents[2], ActionKind.RON)
                if a.tile == seven and a.tag is not None]
    # her own discard of a winning tile (furiten) forbids it too: she draws and discards a 7m,
    # then P0 discards a 7m (no ron: furiten) and a 1p that nobody claims
    start = scenario_start(["", "", SUMIRE_HAND, ""], draws="1z2z7m3z" "7m4z5z6z" "1p",
                           dora="9s")
    rec, agents, _ = play(start, [[], [], ["7m", "ron"], []], cards(p2="sumire_hirose"))
    discards = [e.tile for e in rec.events if e.kind == "discard" and e.seat == 0]
    assert discards[1] // 4 == parse_types("7m")[0]
    assert not [a for a in offered(agents[2], ActionKind.RON) if a.tile == discards[1]]
    # without that furiten (she draws a 1s instead of the 7m) the same late ron is taken
    start = scenario_start(["", "", SUMIRE_HAND, ""], draws="1z2z1s3z" "7m4z5z6z" "1p",
                           dora="9s")
    rec, agents, _ = play(start, [[], [], ["pass", "ron"], []], cards(p2="sumire_hirose"))
    assert ("sumire_hirose", AbilityTag.LATE, 0) in fired(rec)  # on P0's previous discard


def test_sumire_late_ron_after_a_riichi_collects_its_stick() -> None:
    # P0 declares riichi with the unclaimed discard: the riichi is accepted first, then her
    # late ron takes P0's previous discard and the stick
    start = scenario_start(["123p456p789p11s55z", "", SUMIRE_HAND, ""],
                           draws="7m1z2z3z5z", dora="9s")
    rec, _, _ = play(start, [["7m", "riichi 5z"], [], ["pass", "ron"], []],
                     cards(p2="sumire_hirose"))
    assert rec.seats[0].riichi
    assert (rec.wins[0].seat, rec.wins[0].from_seat) == (2, 0)
    assert deltas(rec) == [-1000 - 2600, 0, 2600 + 1000, 0]


# ---------------------------------------------------------------------- Yukiko Maya


def test_c22_yukiko_chi_from_any_player_beats_a_ron() -> None:
    # C-22 Yukiko: P0 discards 5m; P1 (tenpai on 5m) calls ron, she (P2, not P0's next seat)
    # calls chi at the same moment: her priority chi wins
    start = scenario_start(["", "234m345p678s456s5m", "46m", ""], draws="5m", dora="9s")
    rec, agents, _ = play(start, [[], ["ron"], ["chi"], []], cards(p2="yukiko_maya"))
    assert not rec.wins
    chi = [e for e in rec.events if e.kind == "chi"]
    assert [(e.seat, e.source) for e in chi] == [(2, 0)]
    assert ("yukiko_maya", AbilityTag.PRIORITY, None) in fired(rec)
    # without the card she may not chi from P0 and the ron wins
    rec, agents, _ = play(start, [[], ["ron"], ["chi"], []], [None] * 4)
    assert [w.seat for w in rec.wins] == [1] and not offered(agents[2], ActionKind.CHI)


def test_c22_yukiko_a_late_call_is_not_valid() -> None:
    # C-22 Yukiko: she passes on P0's 5m; at P0's next discard the 5m still lies in the pond,
    # but she may only chi the discard on offer at that moment
    start = scenario_start(["", "", "46m", ""], draws="5m1z2z3z" "9p", dora="9s")
    rec, agents, _ = play(start, [[], [], ["pass"], []], cards(p2="yukiko_maya"))
    five = first_discard(rec, 0)
    with_five = [o for o in agents[2].offers
                 if any(a.kind == ActionKind.CHI and a.tile == five for a in o)]
    assert len(with_five) == 1
    assert not any(e.kind == "chi" and e.tile == five for e in rec.events)


def test_yukiko_tsumo_the_player_she_called_chi_from_pays_double() -> None:
    # she chis P0's 5m (with 4m6m), discards 8s, then draws 6s: open tanyao, 1 han 30 fu
    # tsumo: 500 from the dealer P0, 300 from each other player; P0 pays double
    hand = "46m234p678p345s6s8s"
    draws = "5m" + "1z2z3z" + "6s"
    start = scenario_start(["", "", hand, ""], draws=draws, dora="9s")
    rec, _, _ = play(start, [[], [], ["chi", "8s", "tsumo"], []], cards(p2="yukiko_maya"))
    assert rec.wins and rec.wins[0].seat == 2 and rec.wins[0].han == 1
    assert deltas(rec) == [-1000, -300, 1600, -300]
    # without the card (she chis from her left player P1 instead) nobody pays double
    start = scenario_start(["", "", hand, ""], draws="1z5m2z3z4z6s", dora="9s")
    rec, _, _ = play(start, [[], ["5m"], ["chi", "8s", "tsumo"], []], [None] * 4)
    assert rec.wins and deltas(rec) == [-500, -300, 1100, -300]


# ---------------------------------------------------------------------- Hiroe Atago

TANKI = "234m345p678s456s7m"  # closed tenpai on 7m alone


def test_hiroe_in_damaten_pays_nothing_for_another_players_tsumo() -> None:
    # P1 wins by tsumo on 7m (menzen tsumo, tanyao: 2 han 30 fu, 500/1,000); Hiroe (P2) is
    # closed, tenpai on 8p and not in riichi: she pays nothing
    draws = "1z2z3z4z" "5z7m"
    start = scenario_start(["", TANKI, "234m345p678s456s8p", ""], draws=draws, dora="9s")
    rec, _, _ = play(start, [[], ["tsumo"], [], []], cards(p2="hiroe_atago"))
    assert rec.wins and rec.wins[0].seat == 1 and rec.wins[0].han == 2
    assert deltas(rec) == [-1000, 1500, 0, -500]
    assert ("hiroe_atago", AbilityTag.EXEMPT, None) in fired(rec)
    # not tenpai (no damaten): she pays her share
    start = scenario_start(["", TANKI, "159m159p159s1234z", ""], draws=draws, dora="9s")
    rec, _, _ = play(start, [[], ["tsumo"], [], []], cards(p2="hiroe_atago"))
    assert deltas(rec) == [-1000, 2000, -500, -500]


def test_hiroe_in_riichi_ignores_furiten() -> None:
    # she draws 4m on 56m (a complete hand), declares riichi discarding it: furiten on 4m-7m;
    # P3 then discards 7m and she may still ron it
    hand = "56m345p678s456s11z"
    start = scenario_start(["", "", hand, ""], draws="1p2p4m7m", dora="9s")
    rec, agents, _ = play(start, [[], [], ["riichi 4m", "ron"], []], cards(p2="hiroe_atago"))
    assert rec.wins and (rec.wins[0].seat, rec.wins[0].from_seat) == (2, 3)
    # without the card the furiten holds: no ron is offered
    rec, agents, _ = play(start, [[], [], ["riichi 4m", "ron"], []], [None] * 4)
    assert not any(w.seat == 2 and w.from_seat == 3 for w in rec.wins[:1])
    assert not offered(agents[2], ActionKind.RON, "7m")


def hiroe_ippatsu_start(scores: tuple[int, int, int, int]):
    """P1 declares riichi with 4 tiles left (shanpon 1s/5z) and its ippatsu draw, the last tile
    of the wall (9m), is discarded; Hiroe (P2) is damaten on 7m."""
    p1 = "123p456p789p11s5z6z"
    draws = full_draws({65: "5z", 69: "9m"}, p1, TANKI, "9s", avoid="7m1s5z6z9m")
    return scenario_start(["", p1, TANKI, ""], draws=draws, dora="9s", scores=scores)


def test_hiroe_a_higher_players_ippatsu_draw_is_her_winning_tile() -> None:
    # rule C-21 places P1 (30,000) above her (20,000); C-24: P1's draw right after its riichi is
    # an ippatsu draw. That tile wins for her whatever her hand's shape; she is in tenpai on
    # 7m, so it is valued as her hand completed by 7m (pipeline/rules/shapeless.py): houtei
    # (the last discard) and tanyao, 20 + 10 + 2 (tanki) -> 40 fu, 2 han: 2,600
    start = hiroe_ippatsu_start((25000, 30000, 20000, 25000))
    rec, agents, _ = play(start, [[], ["riichi 6z"], ["ron"], []], cards(p2="hiroe_atago"))
    assert rec.seats[1].riichi
    assert rec.wins and (rec.wins[0].seat, rec.wins[0].from_seat) == (2, 1)
    assert rec.events[-1].tile // 4 == parse_types("9m")[0]
    assert [n for n, _ in rec.wins[0].yaku] == ["Houtei Raoyui", "Tanyao"]
    assert (rec.wins[0].han, rec.wins[0].fu, rec.wins[0].points) == (2, 40, 2600)
    # P1 placed below her: no such tile
    start = hiroe_ippatsu_start((25000, 20000, 30000, 25000))
    rec, agents, _ = play(start, [[], ["riichi 6z"], ["ron"], []], cards(p2="hiroe_atago"))
    assert rec.seats[1].riichi and not rec.wins
    assert not offered(agents[2], ActionKind.RON, "9m")


# ---------------------------------------------------------------------- Sae Usuzawa

ITTSU = "123p456p789p11s55z"  # tenpai on 1s / 5z (shanpon), ittsu


def test_sae_names_a_player_who_may_not_call_or_ron_unless_in_riichi() -> None:
    # she declares riichi with her first discard and names P1; P3 discards 5z, P1's winning
    # tile (and a pon for it): nothing is offered to P1
    start = scenario_start([TANKI, ITTSU, "", ""], draws="1z2z3z5z", dora="9s")
    sae = cards(p0="sae_usuzawa")
    rec, agents, _ = play(start, [Naming(1, ["riichi 1z"]), ["ron"], [], []], sae)
    assert ("sae_usuzawa", Move.BLOCK, 1) in fired(rec)
    assert not offered(agents[1], ActionKind.RON) and not offered(agents[1], ActionKind.PON)
    # naming P2 instead, P1 rons
    rec, agents, _ = play(start, [Naming(2, ["riichi 1z"]), ["ron"], [], []],
                          cards(p0="sae_usuzawa"))
    assert rec.wins and (rec.wins[0].seat, rec.wins[0].from_seat) == (1, 3)
    # a named player in riichi too may ron
    rec, agents, _ = play(start, [Naming(1, ["riichi 1z"]), ["riichi 2z", "ron"], [], []],
                          cards(p0="sae_usuzawa"))
    assert rec.seats[1].riichi
    assert rec.wins and (rec.wins[0].seat, rec.wins[0].from_seat) == (1, 3)


def test_c20_sae_riichi_switches_abilities_off_and_a_noten_riichi_is_chombo() -> None:
    # rule C-20: Kaori (P1) declares riichi on a dragon sequence wait (5z6z + 7z), which only
    # her ability allows; Sae's riichi switches it off, so at the exhaustive draw P1's riichi
    # hand is noten: a reverse mangan (non-dealer: 4,000 to the dealer, 2,000 to the others)
    kaori = "123m456p789s11s56z"
    draws = full_draws({0: "1z", 1: "9m", 4: "2z"}, TANKI, kaori, "9s", avoid="7m7z")
    start = scenario_start([TANKI, kaori, "", ""], draws=draws, dora="9s")
    both = cards(p0="sae_usuzawa", p1="kaori_senoo")
    rec, _, _ = play(start, [Naming(3, ["riichi 2z"]), ["riichi 9m"], [], []], both)
    assert rec.seats[0].riichi and rec.seats[1].riichi
    switched = [e for e in rec.events if (e.card, e.tag, e.payload)
                == ("sae_usuzawa", AbilityTag.SWITCHED_OFF, 1)]
    assert [e.seat for e in switched] == [0]  # logged as her doing (her triggers)
    assert any(e.kind == "chombo" and e.seat == 1 for e in rec.events)
    assert not rec.seats[1].tenpai_at_end and rec.seats[0].tenpai_at_end
    assert deltas(rec) == [-1000 + 4000, -1000 - 8000, 2000, 2000]
    # Sae without her card: Kaori's wait counts and her riichi hand is tenpai at the draw
    rec, _, _ = play(start, [Naming(3, ["riichi 2z"]), ["riichi 9m"], [], []],
                     cards(p1="kaori_senoo"))
    assert rec.seats[1].tenpai_at_end and not any(e.kind == "chombo" for e in rec.events)


def test_sae_riichi_switches_off_a_priority_chi() -> None:
    # Yukiko (P2) may chi P0's 5m only before Sae's riichi: once P3 (Sae) is in riichi, her
    # ability no longer works
    start = scenario_start(["", "", "46m", TANKI], draws="5m1z2z3z" "5m", dora="9s")
    rec, agents, _ = play(start, [[], [], ["pass"], Naming(0, ["riichi 3z"])],
                          cards(p2="yukiko_maya", p3="sae_usuzawa"))
    fives = [e.tile for e in rec.events if e.kind == "discard" and e.seat == 0][:2]
    chi_on = {a.tile for a in offered(agents[2], ActionKind.CHI)}
    assert fives[0] in chi_on and fives[1] not in chi_on
    assert ("sae_usuzawa", AbilityTag.SWITCHED_OFF, 2) in fired(rec)


# ---------------------------------------------------------------------- Megan Davin


def test_megan_duel_opponent_loses_its_ability() -> None:
    # she names P1 (Kaori, waiting on 7z through a dragon sequence) before her first discard:
    # P3's 7z is no winning tile for P1 any more
    kaori = "123m456p789s11s56z"
    start = scenario_start(["", kaori, "", ""], draws="1z2z3z7z", dora="9s")
    rec, agents, _ = play(start, [Naming(1), ["ron"], [], []],
                          cards(p0="megan_davin", p1="kaori_senoo"))
    assert ("megan_davin", Move.DUEL, 1) in fired(rec)
    assert ("megan_davin", AbilityTag.SWITCHED_OFF, 1) in fired(rec)
    assert not offered(agents[1], ActionKind.RON, "7z")
    rec, agents, _ = play(start, [Naming(2), ["ron"], [], []],
                          cards(p0="megan_davin", p1="kaori_senoo"))
    assert rec.wins and rec.wins[0].seat == 1


def test_megan_duelists_pay_each_other_double() -> None:
    # P1, her duel opponent, deals in: a dealer's 1 han 40 fu ron (2,000) is paid twice
    start = scenario_start([TANKI, "", "", ""], draws="1z7m", dora="9s")
    rec, _, _ = play(start, [Naming(1, ["ron"]), [], [], []], cards(p0="megan_davin"))
    assert rec.wins and rec.wins[0].points == 2000
    assert deltas(rec) == [4000, -4000, 0, 0]
    # a player outside the duel pays as usual
    rec, _, _ = play(start, [Naming(2, ["ron"]), [], [], []], cards(p0="megan_davin"))
    assert deltas(rec) == [2000, -2000, 0, 0]


def test_megan_tsumo_doubles_only_the_opponents_share() -> None:
    # her dealer tsumo (menzen tsumo, tanyao: 2 han 30 fu, 1,000 from each): P1, her opponent,
    # pays 2,000
    start = scenario_start([TANKI, "", "", ""], draws="1z2z3z4z7m", dora="9s")
    rec, _, _ = play(start, [Naming(1, ["tsumo"]), [], [], []], cards(p0="megan_davin"))
    assert rec.wins and rec.wins[0].han == 2
    assert deltas(rec) == [4000, -2000, -1000, -1000]


def test_megan_a_riichi_outside_the_duel_ends_it() -> None:
    # P2 declares riichi: the duel with P1 ends (P1's ability works again) and P1's deal-in is
    # paid once; she also collects P2's stick
    start = scenario_start([TANKI, "", ITTSU, ""], draws="1z2z3z4z" "6z7m", dora="9s")
    rec, _, _ = play(start, [Naming(1, ["ron"]), [], ["riichi 3z"], []],
                     cards(p0="megan_davin"))
    assert ("megan_davin", Move.DUEL_ENDED, 2) in fired(rec)      # P2's riichi ends it
    assert ("megan_davin", AbilityTag.SWITCHED_ON, 1) in fired(rec)
    assert deltas(rec) == [2000 + 1000, -2000, -1000, 0]


def test_c20_an_ability_regained_in_the_same_hand_wins_again() -> None:
    # rule C-20: Kaori (P1) loses her ability to the duel, so P3's first 7z is no winning tile;
    # P2's riichi ends the duel, and P3's next 7z wins for her again (a dragon sequence)
    kaori = "123m456p789s11s56z"
    start = scenario_start(["", kaori, ITTSU, ""], draws="1z2z3z7z" "1p6z4z2p" "3p5p8p7z",
                           dora="9s")
    rec, agents, _ = play(start, [Naming(1), ["ron"], ["riichi 4z"], []],
                          cards(p0="megan_davin", p1="kaori_senoo"))
    sevens = [e.tile for e in rec.events if e.kind == "discard" and e.seat == 3
              and e.tile // 4 == parse_types("7z")[0]]
    assert [a.tile for a in offered(agents[1], ActionKind.RON)] == [sevens[1]]
    assert rec.wins and (rec.wins[0].seat, rec.wins[0].from_seat) == (1, 3)


def test_routed_noten_payments_go_to_the_nearest_tenpai_player_not_yet_paid() -> None:
    # the dealer's turn order first: P0 pays P1 (the nearest after it), P2 pays P3
    assert routed_noten((False, True, False, True), {0: 1500, 2: 1500}, 0) == [
        (0, 1, 1500), (2, 3, 1500)]
    # P1 pays P3 (P2 is noten), then P2's nearest, P3, has received: P0 instead
    assert routed_noten((True, False, False, True), {1: 1500, 2: 1500}, 0) == [
        (1, 3, 1500), (2, 0, 1500)]


def test_c22_megan_exhaustive_draw_payments_between_duelists_are_doubled() -> None:
    # C-22 Megan: P0 (Megan, noten) and P2 noten; P1 (her opponent) and P3 tenpai. Routed, P0
    # pays her 1,500 to P1, doubled in the duel; P2 pays P3
    noten0, noten2 = "147m258p369s2467z", "147m258p369s1357z"
    draws = full_draws({}, noten0, TANKI, noten2, ITTSU, "9s", avoid="7m1s5z")
    start = scenario_start([noten0, TANKI, noten2, ITTSU], draws=draws, dora="9s")
    rec, _, _ = play(start, [Naming(1), [], [], []], cards(p0="megan_davin"))
    assert [s.tenpai_at_end for s in rec.seats] == [False, True, False, True]
    assert deltas(rec) == [-3000, 3000, -1500, 1500]
    # without the card: the usual split, 750 from each noten player to each tenpai one
    rec, _, _ = play(start, [[], [], [], []], [None] * 4)
    assert deltas(rec) == [-1500, 1500, -1500, 1500]


# ---------------------------------------------------------------------- Aislinn Wishart


def test_aislinn_a_player_who_opens_their_hand_stakes_1500() -> None:
    # P2 pons her 1z (P2's first call: a 1,500 stake); P3 then wins by tsumo (menzen tsumo,
    # tanyao, 500/1,000 from P0 the dealer) and collects the stake
    start = scenario_start(["", "", "11z", TANKI], draws="1z7m", dora="9s")
    rec, _, _ = play(start, [[], [], ["pon"], ["tsumo"]], cards(p0="aislinn_wishart"))
    stakes = [e for e in rec.events if e.tag is AbilityTag.STAKED]
    assert [(e.seat, e.card, e.payload) for e in stakes] == [(2, "aislinn_wishart", 1500)]
    assert deltas(rec) == [-1000, -500, -1500 - 500, 2000 + 1500]


def test_aislinn_stake_once_per_player_and_not_for_herself() -> None:
    # P2 pons twice: one stake; Aislinn's own pon (P0) stakes nothing
    start = scenario_start(["11z", "", "22z33z1p", ""], draws="4z2z6z3z", dora="9s")
    rec, _, _ = play(start, [[], [], ["pon", "1p", "pon"], []], cards(p0="aislinn_wishart"))
    assert len([e for e in rec.events if e.kind == "pon" and e.seat == 2]) == 2
    stakes = [e for e in rec.events if e.tag is AbilityTag.STAKED]
    assert [e.seat for e in stakes] == [2]
    start = scenario_start(["11z", "1z", "", ""], draws="2z1z", dora="9s")
    rec, _, _ = play(start, [["pon"], [], [], []], cards(p0="aislinn_wishart"))
    assert [e.seat for e in rec.events if e.kind == "pon"] == [0]
    assert not [e for e in rec.events if e.tag is AbilityTag.STAKED]


def test_c22_aislinn_extra_turns() -> None:
    # C-22 Aislinn: the dealer's first discard counts as tedashi, even when it is the tile just
    # drawn; a later tsumogiri earns nothing; below the starting points only
    scores = (20000, 30000, 25000, 25000)
    start = scenario_start(["", "", "", ""], draws="1z2z3z4z5z", dora="9s", scores=scores)
    _, agents, _ = play(start, [[], [], [], []], cards(p0="aislinn_wishart"))
    extra = [i for i, o in enumerate(agents[0].offers)
             if any((a.card, a.tag) == ("aislinn_wishart", AbilityTag.EXTRA_TURN) for a in o)]
    assert extra == [1]  # right after her first discard; her later tsumogiri earn nothing
    start = scenario_start(["", "", "", ""], draws="1z2z3z4z5z", dora="9s",
                           scores=(30000, 20000, 25000, 25000))
    _, agents, _ = play(start, [[], [], [], []], cards(p0="aislinn_wishart"))
    assert not [a for o in agents[0].offers for a in o if a.tag is AbilityTag.EXTRA_TURN]


def test_c22_aislinn_no_extra_turn_after_a_call() -> None:
    # C-22 Aislinn: she pons P1's 1z and discards a tile from her hand (tedashi): no extra turn
    scores = (20000, 30000, 25000, 25000)
    start = scenario_start(["11z", "", "", ""], draws="2z1z", dora="9s", scores=scores)
    rec, agents, _ = play(start, [["2z", "pon"], [], [], []], cards(p0="aislinn_wishart"))
    def extra_offered(offer: list[Action]) -> bool:
        return any((a.card, a.tag) == ("aislinn_wishart", AbilityTag.EXTRA_TURN) for a in offer)

    offers = agents[0].offers
    assert extra_offered(offers[1])  # the conditions hold: her first discard earned one
    k = next(i for i, o in enumerate(offers) if any(a.kind == ActionKind.PON for a in o))
    pon = next(i for i, e in enumerate(rec.events) if e.kind == "pon")
    first = next(e for e in rec.events[pon + 1:] if e.kind == "discard")
    assert first.seat == 0 and not first.tsumogiri
    assert len(offers) > k + 2 and not extra_offered(offers[k + 2])


# ---------------------------------------------------------------------- bot policies


def test_bot_duels_the_points_leader_and_blocks_a_caller_not_in_riichi() -> None:
    start = scenario_start(["", "", "", "123m"], draws="3m", scores=(20000, 25000, 35000, 20000))
    state = HandState(start, PRESET, [ScriptAgent() for _ in range(4)], [])
    bot = HeuristicBot(0)
    duel = [ability_action(0, "megan_davin", Move.DUEL, payload=s, detail=f"megan_davin:duel:P{s}")
            for s in (1, 2, 3)]
    assert bot.decide(Observation(state, 0), duel).payload == 2
    block = [ability_action(0, "sae_usuzawa", Move.BLOCK, payload=s,
                            detail=f"sae_usuzawa:block:P{s}") for s in (1, 2, 3)]
    # nobody called: the leader; the leader in riichi (not blockable): the next one by points
    assert bot.decide(Observation(state, 0), block).payload == 2
    state.players[2].riichi = True
    assert bot.decide(Observation(state, 0), block).payload == 1
    # P3 has called (a chi of 3m): the calling hand is blocked before a richer one
    state.players[3].melds.append(Meld(MeldKind.CHI, tuple(parse_tiles("123m")), 8, 2))
    assert bot.decide(Observation(state, 0), block).payload == 3


def test_sae_switch_is_read_from_the_log_from_her_riichi_on_and_again_each_hand() -> None:
    # switched_off keeps its answer once her riichi is in the log (the log only grows); a new
    # hand starts it afresh
    from pipeline.cards.effects.base import HandStartContext
    from pipeline.cards.effects.blocks_calls import BlocksCalls
    from pipeline.rules.hooks import TableControls

    def hand() -> HandState:
        return HandState(scenario_start([TANKI, "", "", ""]), PRESET,
                         [ScriptAgent() for _ in range(4)])

    effect = BlocksCalls({}, 0, "sae_usuzawa")
    state = hand()
    effect.hand_start(HandStartContext(TableControls(state), 0, "sae_usuzawa"))
    state.log("discard", 3, 8)
    assert effect.switched_off() is None
    state.players[0].riichi = True
    state.log("riichi", 0)
    at = [e.kind for e in TableControls(state).events()].index("riichi")
    assert effect.switched_off() == (at, frozenset({1, 2, 3}))
    state.log("discard", 0, 9)
    state.log("riichi", 2)
    assert effect.switched_off() == (at, frozenset({1, 2, 3}))
    state = hand()
    effect.hand_start(HandStartContext(TableControls(state), 0, "sae_usuzawa"))
    assert effect.switched_off() is None
