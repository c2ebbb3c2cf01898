"""Awai Oohoshi in play: revealed rinshan and ippatsu draws (tiles swapped with dora
indicators, one taken, the rest to the end of the live wall), kans that become closed, a kan on
a discard in riichi; and the heuristic bot's choices for her."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.abilities import OPTIONAL_EFFECTS, CardAbility
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, MeldKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_tiles, parse_types
from tests.support.awai import AWAI, CATALOG, PRESET


def t(text: str) -> int:
    """The type of one tile written in mpsz."""
    return parse_types(text)[0]


class Awai(ScriptAgent):
    """A script plus her ability steps, in order: ``("dora_swap", "7p", "1p")`` swaps the
    revealed 7p with the 1p indicator, ``("take", "6p")`` takes the revealed 6p. An unscripted
    swap offer is passed; an unscripted take fails the test. Snapshots the wall, her hand and
    the indicators whenever she may discard."""

    def __init__(self, script: Sequence[str] = (), steps: Sequence[tuple[str, ...]] = ()) -> None:
        super().__init__(script)
        self.steps = list(steps)
        self.state: HandState | None = None
        self.snaps: list[dict] = []
        self.revealed: list[list[int]] = []   # the tiles offered to take, each time

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if any(a.kind == ActionKind.DISCARD for a in legal) and self.state is not None:
            w = self.state.wall
            self.snaps.append({"hand": sorted(x // 4 for x in obs.concealed),
                               "live": [x // 4 for x in w.live], "rinshan": w.rinshan_left,
                               "dora": [x // 4 for x in w.dora_indicators],
                               "melds": list(self.state.players[obs.seat].melds)})
        ability = [a for a in legal if a.kind == ActionKind.ABILITY]
        if not ability:
            return super().decide(obs, legal)
        self.offers.append(legal)
        what = str(ability[0].tag)
        if what == "take":
            self.revealed.append(sorted(a.tile // 4 for a in ability))
        if self.steps and self.steps[0][0] == what:
            step = self.steps.pop(0)
            for a in ability:
                if a.tile // 4 == t(step[1]) and (len(step) < 3 or a.tiles[0] // 4 == t(step[2])):
                    return a
            raise AssertionError(f"step {step} not offered: {legal}")
        assert what == "dora_swap", f"unscripted required step {what}"
        return legal[-1]


def run(start, agents, awai_seat: int = 0):
    seats: list[CardAbility | None] = [None] * 4
    seats[awai_seat] = CardAbility(CATALOG.card(AWAI), awai_seat)
    agents = [a if a is not None else ScriptAgent() for a in agents]
    state = HandState(start, PRESET, agents, seats)
    for a in agents:
        if isinstance(a, Awai):
            a.state = state
    return state.play(), state


def abilities_log(state: HandState) -> list[tuple]:
    """The ability events by their typed fields: (tag, what it names)."""
    return [(e.tag, e.payload) for e in state.events if e.kind == "ability"]


def tags(state: HandState) -> list:
    return [tag for tag, _ in abilities_log(state)]


HAND = "1111m234p567s789s"


def test_rinshan_draw_reveals_three_and_puts_two_at_the_end_of_the_live_wall() -> None:
    start = scenario_start([HAND, "", "", ""], draws="1z5p6p7p", rinshan="9m", dora="1z")
    awai = Awai(["ankan 1m"], [("take", "6p")])
    _, state = run(start, [awai, None, None, None])
    assert awai.revealed[0] == parse_types("5p6p7p")
    first = awai.snaps[1]                       # after the kan and the revealed draw
    assert t("6p") in first["hand"] and t("9m") not in first["hand"]
    assert first["rinshan"] == 4                # the rinshan tile stays in the dead wall
    # 5p and 7p at the end of the live wall, in order (7p drawn last); 70 - 1 - 1 live tiles
    assert first["live"][:2] == [t("7p"), t("5p")] and len(first["live"]) == 68
    assert first["melds"][0].kind == MeldKind.ANKAN
    assert (AbilityTag.WALL_REVEALED, 3) in abilities_log(state)


def test_revealed_tile_swapped_with_a_dora_indicator() -> None:
    start = scenario_start([HAND, "", "", ""], draws="1z5p6p7p", rinshan="9m", dora="1p")
    awai = Awai(["ankan 1m"], [("dora_swap", "7p", "1p"), ("take", "1p")])
    _, state = run(start, [awai, None, None, None])
    after = awai.snaps[1]
    # the 7p became an indicator (next to the kan's new one); the old 1p indicator was taken
    assert after["dora"][0] == t("7p") and t("1p") in after["hand"]
    assert after["live"][:2] == [t("6p"), t("5p")]
    swap = next(e for e in state.events if e.tag is AbilityTag.SWAPPED)
    assert [x // 4 for x in swap.tiles] == [t("7p"), t("1p")]  # revealed tile, indicator


def test_ippatsu_draw_is_revealed() -> None:
    # C-22 Awai: the draw right after her riichi, ippatsu alive, is a revealed draw
    hand = "123m456p789s1122z"
    start = scenario_start([hand, "", "", ""], draws="3z" + "9p" * 3 + "5m6m7m", dora="1z")
    awai = Awai(["riichi 3z"], [("take", "6m")])
    _, state = run(start, [awai, None, None, None])
    assert awai.revealed == [parse_types("5m6m7m")]


def test_broken_ippatsu_draw_is_ordinary() -> None:
    # C-22 Awai: once ippatsu is broken (a call in between) the draw does not trigger her ability
    hand = "123m456p789s1122z"
    caller_hand = "99p1s3s5s7s2m4m6m8m5z6z7z"
    start = scenario_start([hand, "", caller_hand, ""], draws="3z9p4z5m6m7m", dora="1z")
    caller = ScriptAgent(["pon"])
    awai = Awai(["riichi 3z"])
    _, state = run(start, [awai, None, caller, None])
    assert state.players[2].melds and state.players[2].melds[0].kind == MeldKind.PON
    assert awai.revealed == []
    assert t("5m") in awai.snaps[1]["hand"]      # the ordinary draw


def test_open_kan_becomes_closed_and_its_draw_is_revealed() -> None:
    # Awai (seat 1) calls an open kan on the dealer's 5s: it counts as a closed kan
    hand = "555s123m456p789p1z"
    start = scenario_start(["", hand, "", ""], draws="5s7m8m9m", dealer=0, dora="1z")
    dealer = ScriptAgent(["5s"])
    awai = Awai(["minkan"], [("take", "8m")])
    _, state = run(start, [dealer, awai, None, None], awai_seat=1)
    snap = awai.snaps[0]
    assert snap["melds"][0].kind == MeldKind.ANKAN
    assert t("8m") in snap["hand"] and awai.revealed == [parse_types("7m8m9m")]
    assert state.players[1].is_closed
    assert AbilityTag.CLOSED_KAN in tags(state)


def test_added_kan_can_be_robbed_before_it_closes() -> None:
    # C-22 Awai: P2 robs her added kan of 3m (chankan) before it becomes closed
    awai_hand = "33m456p789p123s11z"
    robber = "12m567m22p456s789s"   # no yaku but chankan
    start = scenario_start(["3m456s789s2z3z4z5z6z7z", awai_hand, robber, ""],
                           draws="9s8s7s9s3m", dealer=0, dora="5z")
    dealer = ScriptAgent(["3m"])
    awai = Awai(["pon", "1z", "kakan 3m"])
    rob = ScriptAgent(["ron"])
    record, state = run(start, [dealer, awai, rob, None], awai_seat=1)
    assert awai.was_offered(ActionKind.KAKAN) and rob.was_offered(ActionKind.RON)
    assert [e.seat for e in state.events if e.kind == "ron"] == [2]
    assert state.players[1].melds[0].kind == MeldKind.PON   # robbed: it never closed
    assert AbilityTag.CLOSED_KAN not in tags(state)


def test_kan_on_a_discard_in_riichi_only_when_the_wait_stays() -> None:
    # C-22 Awai: in riichi she may declare a kan on another player's discard if her wait stays
    keeps = "555s123m456p78p11z"        # waits 6p-9p with or without the 555s
    start = scenario_start(["", keeps, "", ""], draws="4z2z3z4z5s1m2m3m", dealer=0, dora="6z")
    awai = Awai(["riichi 2z", "minkan"], [("take", "2m")])
    _, state = run(start, [ScriptAgent(), awai, None, None], awai_seat=1)
    assert awai.was_offered(ActionKind.MINKAN)
    assert state.players[1].melds[0].kind == MeldKind.ANKAN
    assert state.players[1].riichi
    changes = "555s4s123m456p789p"      # waits 3s-4s-6s; with 555s as a kan only 4s
    start = scenario_start(["", changes, "", ""], draws="4z2z3z4z5s1m2m3m", dealer=0,
                           dora="6z")
    awai = Awai(["riichi 2z", "minkan"], [("take", "2m")])  # then her ippatsu draw
    _, state = run(start, [ScriptAgent(), awai, None, None], awai_seat=1)
    assert state.players[1].riichi and not awai.was_offered(ActionKind.MINKAN)
    assert awai.revealed == [parse_types("1m2m3m")]


def test_other_seats_draw_as_usual() -> None:
    start = scenario_start(["1111p234m567s789s", "", "", ""], draws="1z", rinshan="9m", dora="1z")
    dealer = Awai(["ankan 1p"])          # a plain seat: no ability of hers
    _, state = run(start, [dealer, Awai(), None, None], awai_seat=1)
    dealer_draws = [e.tile // 4 for e in state.events if e.kind == "draw" and e.seat == 0]
    assert dealer_draws[:2] == [t("1z"), t("9m")]   # the rinshan tile itself
    assert AbilityTag.WALL_REVEALED not in tags(state)


def test_dora_swap_is_registered_optional() -> None:
    assert "dora_swap" in OPTIONAL_EFFECTS


class Seen:
    """The parts of an observation the choice reads: her hand, no melds."""

    seat = 0

    def __init__(self, hand: str) -> None:
        self.concealed = tuple(parse_tiles(hand))

    def melds(self, seat: int) -> tuple:
        return ()


def take(tiles: str, hand: str) -> list[Action]:
    return [ability_action(0, AWAI, Move.TAKE, x) for x in parse_tiles(tiles, parse_tiles(hand))]


def test_bot_takes_the_tile_that_advances_the_hand() -> None:
    hand = "123m456p789s12z67s"            # one step from tenpai: 5s or 8s joins the 67s
    choice = HeuristicBot(seed=1).decide(Seen(hand), take("9m8s5z", hand))
    assert choice.tile // 4 == t("8s")


def test_bot_swaps_to_make_a_held_tile_dora_and_passes_otherwise() -> None:
    hand = "123m456p789s1z67s2z"
    # revealed 9m and 4z; indicator 9p (dora 1p, none held): 9m points at 1m, which she holds
    offers = [ability_action(0, AWAI, Move.DORA_SWAP, x, tiles=(ind,))
              for x in parse_tiles("9m4z", parse_tiles(hand))
              for ind in parse_tiles("9p", parse_tiles(hand + "9m4z"))]
    passing = Action(ActionKind.PASS, 0)
    choice = HeuristicBot(seed=1).decide(Seen(hand), [*offers, passing])
    assert choice.kind == ActionKind.ABILITY and choice.tile // 4 == t("9m")
    # without a 1m in her hand the same swap gains nothing: she passes
    hand2 = "223m456p789s1z67s2z"
    choice = HeuristicBot(seed=1).decide(Seen(hand2), [offers[0], passing])
    assert choice.kind == ActionKind.PASS


def test_tile_taken_instead_of_the_rinshan_tile_wins_as_rinshan() -> None:
    start = scenario_start([HAND, "", "", ""], draws="1z5p1z6p", rinshan="9m", dora="5z")
    awai = Awai(["ankan 1m", "tsumo"], [("take", "1z")])
    _, state = run(start, [awai, None, None, None])
    wins = [e for e in state.events if e.kind == "tsumo"]
    assert [e.seat for e in wins] == [0]
    assert "Rinshan Kaihou" in [name for name, _ in state.record.wins[0].yaku]
