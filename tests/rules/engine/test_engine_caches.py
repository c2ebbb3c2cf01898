"""The engine's caches give exactly what working everything out again gives.

The hand loop keeps a seat's type counts, waits and tenpai discards until its tiles change,
seeds the waits after a discard from the tenpai discards worked out to offer riichi, tells a
complete hand from the waits before the draw, keeps each pond as the table sees it, and values a
win once when it is offered and declared. Tenpai discards leave far hands early; call actions
are built once and offered again; scoring shares the `mahjong` package's configs (and their
yaku objects) per set of rules. Each check here compares a cached answer with one computed from
scratch, including hands with extra sequences and aliased tiles (card shapes).
"""

from __future__ import annotations

import random

import pytest
from mahjong.constants import EAST
from mahjong.hand_calculating.hand_config import HandConfig

from pipeline.rules import scoring
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agari import tenpai_discards, winning_types
from pipeline.rules.agents import Observation
from pipeline.rules.claims import _CHI_PARTNERS
from pipeline.rules.hand import (
    DiscardInfo,
    HandState,
    IllegalActionError,
    PlayerState,
    kuikae_types,
)
from pipeline.rules.hand_shapes import (
    NO_SHAPES,
    HandShapes,
    honor_sequences,
    shaped_is_complete,
    wrap_sequences,
)
from pipeline.rules.hooks import SwapControls
from pipeline.rules.legal_actions import _holds_four
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, play_scenario, scenario_start
from pipeline.rules.scoring import (
    NO_MODIFIERS,
    ScoringModifiers,
    ScoringRules,
    WinContext,
    score_win,
)
from pipeline.tiles import TERMINAL_HONOR_TYPES, counts34, parse_tiles

PRESET = load_preset("online-hanchan")
WINDS_AS_WEST = HandShapes(alias=((27, 29), (28, 29), (30, 29)))  # East, South, North as West
SHAPES = [NO_SHAPES, HandShapes(honor_sequences()), HandShapes(wrap_sequences()), WINDS_AS_WEST]


def crowded_hand(rng: random.Random, size: int) -> list[int]:
    """Tile ids crowded into six types, two of them winds, so that complete hands, waits and
    tenpai discards are common."""
    winds = rng.sample(range(27, 31), 2)
    types = [*winds, *rng.sample([t for t in range(34) if t not in winds], 4)]
    pool = [4 * t + k for t in types for k in range(4)]
    return rng.sample(pool, size)


@pytest.mark.parametrize("shapes", SHAPES, ids=["plain", "honor-seq", "wrap-seq", "alias"])
def test_waits_seeded_by_a_discard_equal_the_waits_worked_out_again(shapes: HandShapes) -> None:
    # rule H-09 reads these waits (furiten), and every discard checks them for a ron
    rng = random.Random(3)
    seeded_nonempty = 0
    for _ in range(60):
        tiles = crowded_hand(rng, 14)
        for tile in tiles:
            p = PlayerState(seat=0, concealed=list(tiles), shapes=shapes)
            p.ready()                     # worked out to offer riichi
            p.remove_discard(tile)        # the waits are now seeded, not computed
            seeded = p.waits()
            fresh = PlayerState(seat=0, concealed=list(p.concealed), shapes=shapes).waits()
            assert seeded == fresh, (tiles, tile)
            assert p.held() == counts34(p.concealed)
            seeded_nonempty += bool(seeded)
    assert seeded_nonempty > 20  # the check met real waits, not only empty ones


def assert_ready_are_the_waits(counts: list[int]) -> dict:
    """tenpai_discards of a 14-tile hand names exactly the discards that leave waits, with
    those waits; returns it."""
    ready = tenpai_discards(counts)
    for t in range(34):
        if counts[t]:
            counts[t] -= 1
            assert ready.get(t, frozenset()) == winning_types(counts), (counts, t)
            counts[t] += 1
    return ready


def test_tenpai_discards_name_every_discard_with_waits_and_only_those() -> None:
    # the seeding above relies on it: a discard type left out of the answer leaves no wait
    rng = random.Random(8)
    for _ in range(300):
        assert_ready_are_the_waits(counts34(crowded_hand(rng, 14)))


def complete_hand(rng: random.Random, shapes: HandShapes) -> list[int]:
    """Tile ids of a hand of four sets (the seat's extra sequences among them) and a pair."""
    sequences = [(b + i, b + i + 1, b + i + 2) for b in (0, 9, 18) for i in range(7)]
    sequences += sorted(shapes.extra_sequences)
    while True:
        pair = rng.randrange(34)
        groups = [(pair, pair)]
        for _ in range(4):
            t = rng.randrange(34)
            groups.append((t, t, t) if rng.random() < 0.3 else rng.choice(sequences))
        types = [t for g in groups for t in g]
        if all(types.count(t) <= 4 for t in types):
            used: dict[int, int] = {}
            tiles = []
            for t in types:
                tiles.append(4 * t + used.get(t, 0))
                used[t] = used.get(t, 0) + 1
            rng.shuffle(tiles)
            return tiles


@pytest.mark.parametrize("shapes", SHAPES, ids=["plain", "honor-seq", "wrap-seq", "alias"])
def test_drawn_tile_completes_exactly_when_its_type_was_a_wait(shapes: HandShapes) -> None:
    rng = random.Random(5)
    complete = 0
    for i in range(200):
        tiles = complete_hand(rng, shapes) if i % 2 else crowded_hand(rng, 14)
        drawn = tiles.pop()
        p = PlayerState(seat=0, concealed=tiles, shapes=shapes)
        p.waits()  # cached before the draw, as every discard's ron check leaves it
        p.concealed.append(drawn)
        p.drawn = drawn
        expected = shaped_is_complete(counts34(p.concealed), shapes)
        assert p.drawn_completes() == expected, (tiles, drawn)
        complete += expected
    assert complete >= 100  # every hand built complete, and some random ones


def test_drawn_completes_ignores_waits_of_another_hand() -> None:
    # 123m456p789s 11z 22z waits on 1z or 2z; after an ability swaps a 2z for a 3z (a tile
    # changed in place), a drawn 2z no longer completes: the cached waits belong to the old hand
    p = PlayerState(seat=0, concealed=parse_tiles("123m456p789s1122z"))
    assert p.waits() == frozenset({27, 28})
    p.concealed[p.concealed.index(parse_tiles("22z")[1])] = parse_tiles("3z")[0]
    drawn = parse_tiles("2z", taken=[*p.concealed, *parse_tiles("22z")])[0]  # the third 2z
    p.concealed.append(drawn)
    p.drawn = drawn
    assert not p.drawn_completes()


def test_held_counts_follow_draws_discards_and_changes_in_place() -> None:
    rng = random.Random(1)
    wall = list(range(136))
    rng.shuffle(wall)
    p = PlayerState(seat=0, concealed=[wall.pop() for _ in range(13)])
    for step in range(200):
        if len(p.concealed) % 3 == 1:
            p.concealed.append(wall.pop())          # a draw
        elif step % 7 == 0:
            p.concealed[0] = wall.pop()             # a swap in place (a card's)
        else:
            p.remove_discard(rng.choice(p.concealed))
        assert p.held() == counts34(p.concealed)
        if len(p.concealed) % 3 == 1:  # the waits and tenpai discards follow as well
            assert p.waits() == winning_types(counts34(p.concealed))
        else:
            assert p.ready() == tenpai_discards(counts34(p.concealed))
        if not wall:
            break


def test_forget_drops_the_waits_of_the_old_shapes() -> None:
    # 19m 456p 789s 234s 55z: the wrap-around 9-1 waits on 8m and 2m; without it, 19m is noten
    tiles = parse_tiles("19m456p789s234s55z")
    p = PlayerState(seat=0, concealed=tiles, shapes=HandShapes(wrap_sequences()))
    assert p.waits() == frozenset({1, 7})
    p.shapes = NO_SHAPES  # the ability switched off (rule C-20)
    p.forget()
    assert p.waits() == frozenset()


def test_chi_partners_are_every_sequence_through_the_tile_in_its_suit() -> None:
    # rule H-05: chi takes the tile into a sequence of its own suit, lowest sequence first
    for t in range(34):
        expected = [(lo, *[x for x in (lo, lo + 1, lo + 2) if x != t])
                    for lo in range(t - 2, t + 1)
                    if t < 27 and lo >= 0 and lo // 9 == t // 9 and lo % 9 <= 6]
        assert list(_CHI_PARTNERS[t]) == expected


def test_aliased_honors_waits_and_tenpai_discards_match_a_search_over_every_reading() -> None:
    # the winds-as-West alias (and two others among honors) weighed apart from the rest of the
    # hand gives what trying every reading of the whole hand gives
    from pipeline.rules.agari import is_complete
    from pipeline.rules.hand_shapes import (
        _regular,
        alias_readings,
        shaped_tenpai_discards,
        shaped_winning_types,
    )

    def complete(c: list[int], alias: tuple[tuple[int, int], ...]) -> bool:
        return sum(c) % 3 == 2 and any(
            _regular(r, frozenset(), True) if max(r) > 4 else is_complete(r)
            for r in alias_readings(c, alias))

    def waits(c: list[int], alias: tuple[tuple[int, int], ...]) -> frozenset[int]:
        return frozenset(t for t in range(34) if c[t] < 4 and complete(
            [x + (i == t) for i, x in enumerate(c)], alias))

    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    rng = random.Random(21)
    found = 0
    for alias in (WINDS_AS_WEST.alias, ((31, 32),), ((28, 27),)):
        shapes = HandShapes(alias=alias)
        for i in range(90):
            if i % 3 == 0:   # near thirteen orphans
                tiles = [*orphans, *rng.choices(orphans, k=2)]
            elif i % 3 == 1:  # near seven pairs, winds among them
                tiles = [t for t in rng.sample(range(27, 31), 3) + rng.sample(range(27), 4)
                         for _ in range(2)]
            else:
                tiles = [x // 4 for x in crowded_hand(rng, 15)]
            rng.shuffle(tiles)
            c = [0] * 34
            for t in tiles[:14]:
                c[t] += 1
            if max(c) > 4:
                continue
            expected = {}
            for d in range(34):
                if c[d]:
                    c[d] -= 1
                    w = waits(c, alias)
                    assert shaped_winning_types(c, shapes) == w, (c, alias)
                    c[d] += 1
                    if w:
                        expected[d] = w
            assert shaped_tenpai_discards(c, shapes) == expected, (c, alias)
            assert shaped_is_complete(c, shapes) == complete(c, alias)
            found += bool(expected)
    assert found > 60


# ---------------------------------------------------------------------- ponds

def table() -> HandState:
    start = scenario_start(["123m456p789s1122z", "147m258p369s1357z", "", ""])
    return HandState(start, PRESET, [ScriptAgent() for _ in range(4)])


def lay(state: HandState, seat: int, text: str, **flags: bool) -> list[int]:
    tiles = parse_tiles(text, taken=[x for q in state.players for x in q.concealed])
    for x in tiles:
        state.players[seat].discards.append(DiscardInfo(x, tsumogiri=True, riichi=False, **flags))
    return tiles


def test_observations_see_a_grown_pond_and_a_pond_tile_swapped() -> None:
    state = table()
    east, south = lay(state, 0, "9p4z")
    assert Observation(state, 1).discards(0) == (east, south)   # read (and kept) once
    (west,) = lay(state, 0, "3s")
    assert Observation(state, 1).discards(0) == (east, south, west)
    held = state.players[1].concealed[0]
    SwapControls(state).with_pond(1, held, south, "test")  # logged as an ability event
    assert Observation(state, 2).discards(0) == (east, held, west)
    assert state._pond_tiles()[0] == (east, held, west)


def test_a_pond_tile_turned_face_down_leaves_the_others_view_but_not_its_owners() -> None:
    # rule C-13: a face-down discard's tile is unknown to the other seats
    state = table()
    first, second = lay(state, 0, "9p4z")
    assert Observation(state, 2).discards(0) == (first, second)
    SwapControls(state).turn_face_down(second, "test", 1)
    assert Observation(state, 2).discards(0) == (first,)
    assert [d.tile for d in Observation(state, 0).pond(0)] == [first, second]
    assert state._pond_tiles()[0] == (first,)
    assert state._pond_tiles(face_down=True)[0] == (first, second)


def test_a_called_tile_leaves_the_lying_tiles_but_stays_in_the_pond() -> None:
    state = table()
    first, second = lay(state, 0, "9p4z")
    assert state._pond_tiles()[0] == (first, second)
    state._take_from_pond(second)  # a call takes it
    assert state._pond_tiles()[0] == (first,)
    assert [(d.tile, d.called) for d in Observation(state, 1).pond(0)] == \
        [(first, False), (second, True)]


def test_an_ability_event_that_moves_no_pond_tile_keeps_the_kept_ponds() -> None:
    state = table()
    lay(state, 0, "9p4z")
    kept, seen = state._pond_tiles(), Observation(state, 1).discards(0)
    state.log("ability", 1, detail="test: a card's bookkeeping")
    assert state._pond_tiles() is kept and Observation(state, 1).discards(0) is seen


# ---------------------------------------------------------------------- decisions and wins

def test_an_equal_action_is_accepted_and_an_unoffered_one_refused() -> None:
    state = table()
    offer = [Action(ActionKind.RON, 1, 5), Action(ActionKind.PASS, 1)]

    class Returns:
        def __init__(self, action: Action) -> None:
            self.action = action

        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            return self.action

    state.agents[1] = Returns(Action(ActionKind.RON, 1, 5))  # equal, not the offered object
    assert state.ask(1, offer) == offer[0]
    state.agents[1] = Returns(Action(ActionKind.CHI, 1, 5, (1, 9)))
    with pytest.raises(IllegalActionError):
        state.ask(1, offer)


def test_a_ron_is_valued_once_when_offered_and_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    # P1 waits on haku or hatsu (shanpon, either a yakuhai); P0 draws and discards hatsu: the
    # value that made the ron legal is the value paid
    import pipeline.rules.hand_end as hand_end

    calls = []
    real = hand_end.score_win

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(hand_end, "score_win", counting)
    hand = "234m456p678s55z66z"
    start = scenario_start(["", hand, "", ""], draws="6z")
    rec, _ = play_scenario(start, PRESET, [["6z"], ["ron"], [], []])
    assert [(w.seat, w.from_seat) for w in rec.wins] == [(1, 0)]
    assert ("Yakuhai (hatsu)", 1) in rec.wins[0].yaku
    assert len(calls) == 1  # offered and declared with the same context: valued once


# ---------------------------------------------------------------------- tenpai discards, fast exits

def spread_hand(rng: random.Random, kind: str) -> list[int]:
    """14 tile ids: drawn from the whole wall (mostly far from tenpai, the early exits), or laid
    out near seven pairs or thirteen orphans (hands that pass the bad-unit exits only as
    special shapes)."""
    if kind == "wall":
        return rng.sample(range(136), 14)
    if kind == "pairs":
        types = rng.sample(range(34), 8)
        tiles = [4 * t + k for t in types[:6] for k in range(2)]
        return tiles + [4 * types[6], 4 * types[7]]
    orphans = sorted(TERMINAL_HONOR_TYPES)
    missing = rng.choice(orphans)
    tiles = [4 * t for t in orphans if t != missing]  # 12 of the 13
    return tiles + [4 * orphans[0] + 1, 4 * rng.randrange(34) + 2]


@pytest.mark.parametrize("kind", ["wall", "pairs", "orphans"])
def test_tenpai_discards_with_early_exits_equal_the_waits_of_every_discard(kind: str) -> None:
    # the exits count bad units (honors first) and skip seven pairs and orphans below six
    # pairs or thirteen orphan tiles: no tenpai discard may be lost on the way
    rng = random.Random(21)
    found = 0
    for _ in range(400):
        found += bool(assert_ready_are_the_waits(counts34(spread_hand(rng, kind))))
    assert found if kind != "wall" else found < 40  # special shapes met; random hands rarely


# ---------------------------------------------------------------------- calls offered

def leaves_discard_by_removal(concealed: list[int], used: tuple[int, ...],
                              forbidden: frozenset[int]) -> bool:
    rest = list(concealed)
    for x in used:
        rest.remove(x)
    return any(x // 4 not in forbidden for x in rest)


def test_a_call_is_offered_only_when_a_discard_is_left_as_with_the_tiles_taken_out() -> None:
    # rule H-07: after a call the seat must have a tile it may discard (no kuikae)
    rng = random.Random(4)
    kept_none = 0
    for _ in range(3000):
        size = rng.choice((4, 7, 13))
        concealed = rng.sample(range(4 * 9), size)  # one suit: kuikae often leaves nothing
        used = tuple(rng.sample(concealed, 2))
        called = rng.randrange(9)
        forbidden = kuikae_types(called, rng.choice((None, max(0, min(called - 1, 6)))))
        p = PlayerState(seat=1, concealed=concealed)
        expected = leaves_discard_by_removal(concealed, used, forbidden)
        assert HandState._leaves_discard(p, used, forbidden) == expected
        kept_none += not expected
    assert kept_none > 5


def test_calls_offered_again_are_the_same_values_as_new_ones() -> None:
    # rule H-05: P1, next after P0, may pon 5m (two pairs of its three 5m) or kan it, and chi
    # it with 34m, 46m or 67m; the offers are reused objects, equal to actions built afresh
    state = HandState(scenario_start(["", "34m555m67m1z2z3z4z5z6z", "", ""]), PRESET,
                      [ScriptAgent() for _ in range(4)])
    p1 = state.players[1].concealed
    five = parse_tiles("5m", taken=[x for q in state.players for x in q.concealed])[0]
    m = {t: sorted(x for x in p1 if x // 4 == t) for t in (2, 3, 4, 5, 6)}
    expected = [Action(ActionKind.PON, 1, five, pair)
                for pair in ((m[4][0], m[4][1]), (m[4][0], m[4][2]), (m[4][1], m[4][2]))]
    expected += [Action(ActionKind.MINKAN, 1, five, tuple(m[4]))]
    expected += [Action(ActionKind.CHI, 1, five, pair)
                 for pair in ((m[2][0], m[3][0]), (m[3][0], m[5][0]), (m[5][0], m[6][0]))]
    first = state.claim_actions(1, 0, five)
    again = state.claim_actions(1, 0, five)
    assert first == expected and again == expected
    assert all(a is b for a, b in zip(first, again, strict=True))  # built once, offered again
    assert state.claim_actions(2, 0, five) == []      # H-05: only the next seat may chi


# ---------------------------------------------------------------------- the package's configs

def random_win(rng: random.Random) -> WinContext:
    """A closed complete hand won in a random situation (tsumo or ron, riichi, winds, dora)."""
    tiles = complete_hand(rng, NO_SHAPES)
    win = rng.choice(tiles)
    tsumo = rng.random() < 0.5
    riichi = rng.random() < 0.5
    seat_wind = rng.randrange(4)
    others = [x for x in range(136) if x not in tiles]
    return WinContext(
        concealed=tuple(tiles), melds=(), win_tile=win, is_tsumo=tsumo, seat_wind=seat_wind,
        round_wind=rng.randrange(2), is_dealer=seat_wind == 0,
        dora_indicators=tuple(rng.sample(others, rng.choice((1, 3)))),
        ura_indicators=tuple(rng.sample(others, 1)), riichi=riichi,
        ippatsu=riichi and rng.random() < 0.3, haitei=tsumo and rng.random() < 0.1,
        houtei=not tsumo and rng.random() < 0.1,
    )


RULES = [ScoringRules(), ScoringRules(double_yakuman=True, kazoe_limit="none", kiriage=True,
                                      red_fives=False, kuitan=False)]


def test_wins_valued_with_shared_configs_equal_wins_valued_with_new_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the package rewrites the han of dora on its shared yaku objects at every call: wins valued
    # one after another (two rule sets, with and without modifiers) must not see each other's
    rng = random.Random(17)
    wins = [(random_win(rng), RULES[i % 2], NO_MODIFIERS if i % 3 else ScoringModifiers(
        dora_multiplier=2)) for i in range(150)]
    shared = [score_win(*w) for w in wins]
    monkeypatch.setattr(scoring, "_prepared", scoring._prepared.__wrapped__)  # built each time
    fresh = [score_win(*w) for w in wins]
    assert shared == fresh
    assert sum(r is not None and r.dora > 0 for r in shared) > 20  # dora came and went
    assert sum(r is not None and r.is_tsumo for r in shared) > 20


def test_a_win_config_sets_what_the_package_constructor_sets() -> None:
    # the copy of the prepared config must carry the flags a config built for the win carries
    rng = random.Random(2)
    for i in range(40):
        ctx, rules = random_win(rng), RULES[i % 2]
        built = HandConfig(
            is_tsumo=ctx.is_tsumo, is_riichi=ctx.riichi, is_ippatsu=ctx.ippatsu,
            is_haitei=ctx.haitei, is_houtei=ctx.houtei, player_wind=EAST + ctx.seat_wind,
            round_wind=EAST + ctx.round_wind, options=scoring._prepared(rules)[0].options)
        copied = scoring.hand_config(ctx, rules)
        assert {k: v for k, v in vars(copied).items() if k != "yaku"} == \
            {k: v for k, v in vars(built).items() if k != "yaku"}
        assert copied.yaku is scoring._prepared(rules)[0].yaku  # the yaku objects shared
    ron = scoring.ron_config(RULES[0], True)
    assert ron.is_dealer and not ron.is_tsumo
    assert ron.options is scoring._prepared(RULES[0])[0].options


def test_shared_configs_keep_double_yakuman_single_unless_the_rules_double_them() -> None:
    # a thirteen-sided kokushi wait: one yakuman, two with double yakuman on. The prepared
    # configs are built anew here and valued first by every reading (the package would set
    # the yaku's han itself, on the shared objects), then by the package, then again
    tiles = parse_tiles("19m19p19s1234567z1m")
    ctx = WinContext(concealed=tuple(tiles), melds=(), win_tile=tiles[-1], is_tsumo=False,
                     seat_wind=1, round_wind=0, is_dealer=False)
    scoring._prepared.cache_clear()
    for modifiers in (ScoringModifiers(dora_multiplier=2), NO_MODIFIERS) * 2:
        assert score_win(ctx, ScoringRules(), modifiers).yakuman == 1
        assert score_win(ctx, ScoringRules(double_yakuman=True), modifiers).yakuman == 2


def test_ability_actions_made_again_are_the_values_made_anew() -> None:
    from pipeline.rules.actions import AbilityTag, ability_action

    made = ability_action(2, "Saki", AbilityTag.FACE_DOWN, 17)
    again = ability_action(2, "Saki", AbilityTag.FACE_DOWN, 17)
    assert again == made == Action(ActionKind.ABILITY, 2, 17, (), "Saki:face_down",
                                   AbilityTag.FACE_DOWN, "Saki")
    assert again.tag is AbilityTag.FACE_DOWN
    # equal values of other types stay apart: an engine check by identity sees the same
    as_text = ability_action(2, "Saki", "face_down", 17)
    assert as_text.tag == "face_down" and as_text.tag is not AbilityTag.FACE_DOWN
    flag = ability_action(2, "Saki", AbilityTag.FACE_DOWN, 17, payload=True)
    assert flag.payload is True and ability_action(2, "Saki", AbilityTag.FACE_DOWN, 17,
                                                   payload=1).payload is not True
    assert ability_action(1, "Saki", AbilityTag.DRAW, detail="x").detail == "x"  # wording
    listed = ability_action(1, "Saki", AbilityTag.DRAW, payload=["a"])  # unhashable: made anew
    assert listed.payload == ["a"]


class _PondChecker:
    """Passes every decision on, after checking that the ponds kept for the table (grown
    discard by discard) are the ponds read afresh."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.checked = 0

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state = obs._state
        for s, q in enumerate(state.players):
            for own in (False, True):
                pond = tuple([d for d in q.discards if own or not d.face_down])
                assert state.pond_view(s, own=own) == (pond, tuple([d.tile for d in pond]))
                assert state.pond_view(s, own) == state.pond_view(s, own=own)  # positional
        for face_down in (False, True):
            assert state._pond_tiles(face_down=face_down) == tuple([tuple([
                d.tile for d in q.discards if not d.called and (face_down or not d.face_down)])
                for q in state.players])
        self.checked += 1
        return self.agent.decide(obs, legal)

    def __getattr__(self, name: str) -> object:
        if name == "agent":
            raise AttributeError(name)
        return getattr(self.agent, name)


def test_ponds_kept_as_they_grow_equal_the_ponds_read_afresh_with_the_whole_deck() -> None:
    from pipeline.bots.heuristic import HeuristicBot
    from pipeline.cards.catalog import load_catalog
    from pipeline.cards.table import CardTable
    from pipeline.rules.agents import RandomAgent
    from pipeline.rules.match import derive_seed, play_match

    preset = load_preset("cards-hanchan")
    catalog = load_catalog("1.2")
    checkers = []
    for i in range(3):
        agents = [_PondChecker(kind(derive_seed("ponds", i, s))) for s, kind in
                  enumerate((HeuristicBot, RandomAgent, HeuristicBot, RandomAgent))]
        checkers.extend(agents)
        table = CardTable(preset, agents, seed=29, match_index=i, catalog=catalog)
        play_match(preset, agents, 29, i, table=table)
    assert sum(c.checked for c in checkers) > 1000


def test_a_held_four_is_found_as_in_finds_it() -> None:
    """The concealed-kan check reads each count as a C int where compiled: the same answer as
    ``4 in counts`` for any hand, a four anywhere or none."""
    rng = random.Random(4)
    hands = [[0] * 34, [4] + [0] * 33, [0] * 33 + [4], [3] * 34]
    hands += [[rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(34)] for _ in range(500)]
    for counts in hands:
        assert _holds_four(counts) is (4 in counts)
