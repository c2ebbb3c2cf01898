"""The engine's shape, claim and draw hook points, each driven by a tiny test ability.

No character here: each ability below does one thing through one hook, so a test shows that
the hand loop calls the hook at the right moment and carries out its answer.
"""

from __future__ import annotations

from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandState
from pipeline.rules.hand_shapes import (
    HandShapes,
    honor_sequences,
    shaped_decompositions,
    shaped_is_complete,
    shaped_tenpai_discards,
    shaped_winning_types,
    wrap_sequences,
)
from pipeline.rules.hooks import (
    AbilityHooks,
    CallView,
    ClaimView,
    DiscardView,
    DrawView,
    WinView,
)
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import counts34, parse_tiles, parse_types

PRESET = load_preset("online-hanchan")
HONORS = HandShapes(honor_sequences())
WRAPS = HandShapes(wrap_sequences())


def counts(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def play(start, scripts, abilities):
    agents = [a if isinstance(a, ScriptAgent) else ScriptAgent(a) for a in scripts]
    state = HandState(start, PRESET, agents, abilities)
    return state.play(), agents, state


def offered(agent: ScriptAgent, kind: ActionKind, tile_text: str | None = None) -> bool:
    t = parse_types(tile_text)[0] if tile_text else None
    return any(a.kind == kind and (t is None or a.tile // 4 == t)
               for offer in agent.offers for a in offer)


# ---------------------------------------------------------------------- shapes (agari)


def test_extra_sequences_complete_hands_and_waits() -> None:
    assert not shaped_is_complete(counts("123m456p789s123z55z"), HandShapes())
    assert shaped_is_complete(counts("123m456p789s123z55z"), HONORS)
    assert shaped_is_complete(counts("123m456p789s567z55m"), HONORS)       # dragons
    assert not shaped_is_complete(counts("123m456p789s341z55z"), HONORS)   # W-N-E wraps
    assert shaped_is_complete(counts("891m456p789s234s55z"), WRAPS)
    assert shaped_is_complete(counts("912m456p789s234s55z"), WRAPS)
    assert not shaped_is_complete(counts("891m456p789s234s55z"), HONORS)
    # East-South waits on West only (North-East-South would wrap around)
    assert shaped_winning_types(counts("123m456p789s12z55z"), HONORS) == frozenset(
        parse_types("3z"))
    # 9m-1m waits on 8m and 2m as well as nothing else; the plain hand has no wait at all
    assert shaped_winning_types(counts("19m456p789s234s55z"), WRAPS) == frozenset(
        parse_types("28m"))
    assert not shaped_winning_types(counts("19m456p789s234s55z"), HandShapes())
    # seven pairs still count, and a type held four times is never a wait
    assert shaped_winning_types(counts("1122m3344p5566s7z"), HONORS) == frozenset(
        parse_types("7z"))
    ready = shaped_tenpai_discards(counts("123m456p789s12z55z9p"), HONORS)
    assert set(ready) == set(parse_types("9p")) and ready[parse_types("9p")[0]] == frozenset(
        parse_types("3z"))
    reads = shaped_decompositions(counts("123m456p789s123z55z"), HONORS)
    assert reads == [(parse_types("5z")[0], [(0, 1, 2), (12, 13, 14), (24, 25, 26),
                                             (27, 28, 29)])]


class Shapes(AbilityHooks):
    name = "shapes"

    def __init__(self, seat: int, shapes: HandShapes) -> None:
        self.seat, self.shapes = seat, shapes

    def hand_shapes(self) -> HandShapes | None:
        return self.shapes


def test_hand_shapes_hook_lets_a_seat_win_and_chi_with_extra_sequences() -> None:
    # P1 waits on West with East-South (and a haku triplet for a yaku); P0 discards West
    start = scenario_start(["", "123m456p555z99s12z", "", ""], draws="3z")
    rec, agents, _ = play(start, [[], ["ron"], [], []], [])
    assert not rec.wins and not offered(agents[1], ActionKind.RON)
    rec, agents, _ = play(start, [[], ["ron"], [], []], [None, Shapes(1, HONORS), None, None])
    assert [w.seat for w in rec.wins] == [1]
    assert ("Yakuhai (haku)", 1) in rec.wins[0].yaku
    # a chi of East-South-West from the player on the left
    start = scenario_start(["", "12z3m456p789s1199m", "", ""], draws="3z")
    rec, agents, _ = play(start, [[], ["chi"], [], []], [None, Shapes(1, HONORS), None, None])
    chi = [e for e in rec.events if e.kind == "chi"]
    assert chi and chi[0].seat == 1 and sorted(t // 4 for t in chi[0].tiles) == [27, 28, 29]


# ---------------------------------------------------------------------- claim_filter


class BlockEast(AbilityHooks):
    """Seat 2 may neither call nor win on East; seat 0 may not kan."""

    name = "block"
    seat = 3

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        if view.seat == 2 and view.tile is not None and view.tile // 4 == 27:
            return []
        if view.seat == 0 and view.discarder is None:
            return [a for a in actions if a.kind not in (ActionKind.ANKAN, ActionKind.KAKAN)]
        return actions


def test_claim_filter_blocks_calls_wins_and_kans_and_a_blocked_win_still_gives_furiten(
) -> None:
    # P2 waits on East or 9s (ittsu); P0 discards East, then P1 discards 9s
    start = scenario_start(["1111m", "", "123456789p11z99s", ""], draws="1z9s")
    rec, agents, _ = play(start, [["pass"], [], ["pass", "pass"], []], [])
    assert offered(agents[2], ActionKind.RON, "1z") and offered(agents[2], ActionKind.PON, "1z")
    assert offered(agents[0], ActionKind.ANKAN)
    rec, agents, _ = play(start, [[], [], ["ron", "ron"], []], [None, None, None, BlockEast()])
    assert not offered(agents[2], ActionKind.PON, "1z")
    assert not offered(agents[0], ActionKind.ANKAN)
    # the 9s came by while P2 was furiten from the blocked East: its pon is offered, no ron
    # (rule H-09)
    assert offered(agents[2], ActionKind.PON, "9s") and not offered(agents[2], ActionKind.RON)
    assert not rec.wins


class Priority(AbilityHooks):
    """Seat 3's pon becomes a priority call."""

    name = "prio"
    seat = 3

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        if view.seat != 3:
            return actions
        return [ability_action(a.seat, "prio", AbilityTag.PRIORITY, a.tile, kind=a.kind,
                               tiles=a.tiles)
                if a.kind == ActionKind.PON else a for a in actions]


class FuritenWatch(ScriptAgent):
    def __init__(self, script=()) -> None:
        super().__init__(script)
        self.furiten: list[bool] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.furiten.append(obs._state.players[obs.seat].temp_furiten)
        return super().decide(obs, legal)


def test_priority_call_beats_ron_and_the_beaten_seat_is_furiten() -> None:
    # P2 waits on East alone (ittsu); P3 holds two East; P0 discards the fourth East
    start = scenario_start(["", "", "123456789p234s1z", "11z"], draws="1z2m3m4m")
    watch = FuritenWatch(["ron"])
    rec, agents, _ = play(start, [[], [], watch, ["pon"]], [None, None, None, Priority()])
    assert not rec.wins or rec.wins[0].seat != 2
    pons = [e for e in rec.events if e.kind == "pon"]
    assert pons[0].seat == 3 and pons[0].tile // 4 == 27
    assert any(e.kind == "ability" and (e.card, e.tag) == ("prio", AbilityTag.PRIORITY)
               for e in rec.events)
    assert watch.furiten[0] is False and watch.furiten[1] is True  # at the ron, then its turn
    # without the priority the ron wins (rule H-05: ron beats pon)
    rec, _, _ = play(start, [[], [], ["ron"], ["pon"]], [])
    assert [w.seat for w in rec.wins] == [2]


# ---------------------------------------------------------------------- win_allowed


class NoWinsFor1(AbilityHooks):
    name = "nowin"
    seat = 0

    def win_allowed(self, win: WinView) -> bool:
        return win.seat != 1


def test_win_allowed_blocks_ron_and_tsumo() -> None:
    ron = scenario_start(["", "123m456p789s555z3z", "", ""], draws="3z")
    rec, agents, _ = play(ron, [[], ["ron"], [], []], [])
    assert [w.seat for w in rec.wins] == [1]
    rec, agents, _ = play(ron, [[], ["ron"], [], []], [NoWinsFor1()])
    assert not offered(agents[1], ActionKind.RON)
    tsumo = scenario_start(["", "123m456p789s555z3z", "", ""], draws="9m3z")
    rec, agents, _ = play(tsumo, [[], ["tsumo"], [], []], [])
    assert [w.seat for w in rec.wins] == [1]
    rec, agents, _ = play(tsumo, [[], ["tsumo"], [], []], [NoWinsFor1()])
    assert not offered(agents[1], ActionKind.TSUMO) and not rec.wins


# ---------------------------------------------------------------------- draws and calls


class Recorder(AbilityHooks):
    """Seat 1 may draw P0's first discard instead of its first wall tile; records draws and
    calls of every seat."""

    name = "rec"
    seat = 1

    def __init__(self) -> None:
        self.draws: list[tuple[int, int | None, str]] = []
        self.calls: list[CallView] = []
        self.offered = False

    def before_draw(self, view: DrawView) -> list[Action]:
        if view.seat != 1 or self.offered or not view.ponds[0]:
            return []
        self.offered = True
        return [ability_action(1, "rec", AbilityTag.DRAW, view.ponds[0][0])]

    def after_draw(self, view: DrawView) -> None:
        self.draws.append((view.seat, view.tile, view.source))

    def claim_made(self, view: CallView) -> None:
        self.calls.append(view)


class TakeAbility(ScriptAgent):
    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        ability = [a for a in legal if a.kind == ActionKind.ABILITY]
        if ability:
            self.offers.append(legal)
            return ability[0]
        return super().decide(obs, legal)


def test_before_and_after_draw_and_claim_made() -> None:
    # P0 discards 7p; P1 takes it from the pond as its draw and discards it; P3 pons it
    start = scenario_start(["", "", "", "77p"], draws="7p1m2m3m")
    rec_ability = Recorder()
    rec, agents, state = play(start, [[], TakeAbility(), [], ["pass", "pon"]],
                              [None, rec_ability, None, None])
    seven = parse_types("7p")[0]
    draws = [(seat, tile // 4, source) for seat, tile, source in rec_ability.draws]
    assert draws[:2] == [(0, seven, "wall"), (1, seven, "pond")]
    assert rec_ability.draws[0][1] == rec_ability.draws[1][1]  # the same physical tile
    # the wall tile P1 did not draw is the next wall draw (P0's, after P3's pon skipped P2)
    assert draws[2] == (0, parse_types("1m")[0], "wall")
    assert state.players[0].discards[0].called  # the tile left P0's pond
    assert any(e.kind == "ability" and e.tag is AbilityTag.FROM_POND for e in rec.events)
    call = rec_ability.calls[0]
    assert (call.seat, call.kind, call.from_seat) == (3, "pon", 1)
    assert call.called // 4 == seven


# ---------------------------------------------------------------------- repeated discards


class Repeat(AbilityHooks):
    """After seat 0's first unclaimed discard it may discard its 9s at once (unclaimable)."""

    name = "again"
    seat = 0

    def discard_actions(self, view: DiscardView) -> list[Action]:
        nines = [x for x in view.concealed if x // 4 == parse_types("9s")[0]]
        return [ability_action(0, "again", AbilityTag.REPEAT, nines[0])] if nines else []


def test_repeat_discard_is_unclaimable_gives_furiten_and_draws_a_replacement() -> None:
    # P1 waits on 9s (ittsu), P2 holds two 9s; P0 repeats with 9s after discarding haku
    start = scenario_start(["9s", "123456789p234m9s", "99s", ""], draws="5z2z3z4z")
    watch = FuritenWatch(["ron"])
    rec, agents, state = play(start, [TakeAbility(), watch, ["pon"], []], [Repeat()])
    assert not offered(watch, ActionKind.RON) and not offered(agents[2], ActionKind.PON)
    discards = [e for e in rec.events if e.kind == "discard" and e.seat == 0]
    assert discards[1].tile // 4 == parse_types("9s")[0]
    assert (discards[1].tag, discards[1].card) == (AbilityTag.REPEAT, "again")  # unclaimable
    # P0 draws a replacement (2z), then P1 draws 3z: P0 keeps 13 tiles
    draws = [(e.seat, e.tile // 4) for e in rec.events if e.kind == "draw"]
    assert draws[:3] == [(0, parse_types("5z")[0]), (0, parse_types("2z")[0]),
                         (1, parse_types("3z")[0])]
    assert len(state.players[0].concealed) + 3 * len(state.players[0].melds) == 13
    assert watch.furiten[0] is True  # the unclaimable 9s still gives furiten
    # without the ability, P1 can ron a 9s
    start = scenario_start(["", "123456789p234m9s", "", ""], draws="9s")
    rec, _, _ = play(start, [[], ["ron"], [], []], [])
    assert [w.seat for w in rec.wins] == [1]


def test_shaped_waits_and_tenpai_discards_match_a_brute_force_search() -> None:
    # the unit-by-unit search gives what adding every tile type and splitting the whole hand
    # by plain recursion (no units) gives
    import random

    from pipeline.rules.agari import is_complete
    from pipeline.rules.hand_shapes import _regular

    def complete(c: list[int], shapes: HandShapes) -> bool:
        return is_complete(c) or _regular(tuple(c), shapes.extra_sequences, True)

    rng = random.Random(11)
    pool = [t for t in range(34) for _ in range(4)]
    for shapes in (HONORS, WRAPS):
        for _ in range(70):
            # hands crowded into few types, so that complete shapes and waits are common
            types = rng.sample(range(34), 7)
            tiles = rng.sample([t for t in pool if t in types], 14)
            counts14 = [tiles.count(t) for t in range(34)]
            expected = {}
            for d in range(34):
                if not counts14[d]:
                    continue
                thirteen = list(counts14)
                thirteen[d] -= 1
                waits = frozenset(
                    w for w in range(34) if thirteen[w] < 4 and complete(
                        [c + (i == w) for i, c in enumerate(thirteen)], shapes))
                assert shaped_winning_types(thirteen, shapes) == waits
                if waits:
                    expected[d] = waits
            assert shaped_tenpai_discards(counts14, shapes) == expected
