"""Tests for pipeline.bots.shanten, with differential checks against the `mahjong` package.

Every shanten here must equal ``mahjong.shanten.Shanten.calculate_shanten`` (and its regular,
seven-pairs and thirteen-orphans parts). The samples mix hands drawn from a shuffled 136-tile wall
(the realistic spread), hands near tenpai built from complete hands, one-suit hands (where the
package's search order matters most) and hands heavy in four-of-a-kinds (its karaten conventions).
"""

from __future__ import annotations

import random

import pytest
from mahjong.shanten import Shanten

from pipeline.bots.shanten import (
    best_discards,
    shanten,
    shanten_chiitoitsu,
    shanten_kokushi,
    shanten_regular,
    ukeire,
    visible_counts,
)
from pipeline.rules.actions import Meld, MeldKind
from pipeline.rules.agents import FirstAgent, Observation
from pipeline.rules.hand import DiscardInfo, HandState
from pipeline.rules.preset import Preset
from pipeline.rules.scenario import scenario_start
from pipeline.tiles import NUM_TYPES, parse_types
from tests.support.shanten_hands import (
    GENERATORS,
    SIZES,
    h,
    melds_for,
    near_tenpai_hand,
    near_tenpai_sample,
    one_suit_hand,
    quad_hand,
    wall_hand,
)

PACKAGE = Shanten.calculate_shanten


# ---------------------------------------------------------------------------- hand generators


def sample(seed: int, count: int) -> list[list[int]]:
    """A seeded mix: half wall hands of 13/14 tiles, the rest of every size and kind."""
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        if i % 2 == 0:
            hands.append(wall_hand(rng, 14 if i % 4 == 0 else 13))
        else:
            kind = ("wall", "near_tenpai", "one_suit", "quads")[(i // 2) % 4]
            n = rng.choice(SIZES if kind != "quads" else (14, 13, 11, 10, 8, 7, 5))
            hands.append(GENERATORS[kind](rng, n))
    return hands


def assert_agrees(hands: list[list[int]]) -> None:
    bad = []
    for counts in hands:
        n = sum(counts)
        ours = shanten(counts, melds_for(n))
        if ours != PACKAGE(counts):
            bad.append((counts, ours, PACKAGE(counts)))
    assert not bad, f"{len(bad)} disagreements, first: {bad[:3]}"


# ---------------------------------------------------------------------------- agreement


@pytest.mark.parametrize("kind", sorted(GENERATORS))
@pytest.mark.parametrize("n", (14, 13))
def test_agrees_with_package_closed(kind: str, n: int) -> None:
    rng = random.Random(f"{kind}-{n}")
    assert_agrees([GENERATORS[kind](rng, n) for _ in range(500)])


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_agrees_with_package_with_melds(kind: str) -> None:
    rng = random.Random(f"melds-{kind}")
    sizes = (11, 10, 8, 7, 5, 4) + (() if kind == "quads" else (2, 1))
    assert_agrees([GENERATORS[kind](rng, rng.choice(sizes)) for _ in range(400)])


def test_agrees_with_package_mixed_sample() -> None:
    assert_agrees(sample(2024, 3000))


def test_parts_agree_with_package() -> None:
    rng = random.Random(7)
    for i in range(1500):
        n = 14 if i % 2 else 13
        counts = (wall_hand, one_suit_hand, quad_hand)[i % 3](rng, n)
        assert shanten_regular(counts) == Shanten.calculate_shanten_for_regular_hand(counts)
        assert shanten_chiitoitsu(counts) == Shanten.calculate_shanten_for_chiitoitsu_hand(counts)
        assert shanten_kokushi(counts) == Shanten.calculate_shanten_for_kokushi_hand(counts)


def test_accepts_tuples() -> None:
    counts = h("123m456p789s1122z")
    assert shanten(tuple(counts)) == shanten(counts) == 0


@pytest.mark.slow
def test_agrees_with_package_100k() -> None:
    assert_agrees(sample(99, 100_000))


# ---------------------------------------------------------------------------- known rows


@pytest.mark.parametrize(
    ("text", "melds", "expected"),
    [
        ("123m456p789s11122z", 0, -1),   # complete
        ("123m456p789s1122z", 0, 0),     # shanpon tenpai
        ("23m456p789s11122z", 0, 0),     # ryanmen tenpai
        ("13m456p789s11223z", 0, 1),     # 1-shanten
        ("159m456p789s11223z", 0, 2),    # 2-shanten
        ("1133m5577p99s11z2z", 0, 0),    # seven pairs tenpai
        ("1133m5577p99s1122z", 0, -1),   # seven pairs complete
        ("19m19p19s1234567z", 0, 0),     # thirteen orphans, 13-sided wait
        ("19m19p19s12345677z", 0, -1),   # thirteen orphans complete
        ("1111m234p567s789s", 0, 1),     # only wait is a fifth 1m: not tenpai
        ("1111z234p567s789s", 0, 1),     # same with an honor quad
        ("23m55p", 3, 0),
        ("234m55p", 3, -1),
        ("5p", 4, 0),
        ("55p", 4, -1),
        ("13m", 4, 0),                   # 3k+2 part of two tiles: discard one, single wait
    ],
)
def test_known_rows(text: str, melds: int, expected: int) -> None:
    counts = h(text)
    assert shanten(counts, melds) == expected
    assert PACKAGE(counts) == expected


def test_parts_known() -> None:
    assert shanten_kokushi(h("19m19p19s1234567z")) == 0
    assert shanten_kokushi(h("19m19p19s12345677z")) == -1
    assert shanten_chiitoitsu(h("1133m5577p99s11z2z")) == 0
    # A quad is one pair for seven pairs: six kinds held, so not complete.
    assert shanten_chiitoitsu(h("1111m3355p7799s11z")) == 1
    assert shanten_regular(h("1133m5577p99s1122z")) == 3
    # Seven pairs and thirteen orphans do not count with melds.
    assert shanten(h("1133m5577p99s"), 1) == shanten_regular(h("1133m5577p99s"), 1) == 2


@pytest.mark.parametrize(("text", "melds"), [("123m456p789s112z", 0), ("1m", 3),
                                            ("123m456p789s", 0), ("123m456p789s1234567z", 0)])
def test_wrong_size_raises(text: str, melds: int) -> None:
    with pytest.raises(ValueError):
        shanten(h(text), melds)


# ---------------------------------------------------------------------------- ukeire


def reference_ukeire(counts: list[int], seen: list[int]) -> dict[int, int]:
    base = PACKAGE(counts)
    out = {}
    work = list(counts)
    for t in range(NUM_TYPES):
        if work[t] == 4:
            continue
        work[t] += 1
        if PACKAGE(work) < base:
            out[t] = 4 - seen[t]
        work[t] -= 1
    return out


def test_ukeire_ryanmen() -> None:
    counts = h("23m456p789s11122z")
    assert ukeire(counts, 0) == (8, {0: 4, 3: 4})
    seen = list(counts)
    seen[0] += 1  # one 1m in a river
    seen[3] += 3  # three 4m seen elsewhere
    assert ukeire(counts, 0, seen) == (4, {0: 3, 3: 1})
    assert ukeire(h("23m55p"), 3) == (8, {0: 4, 3: 4})


def test_ukeire_known_shapes() -> None:
    assert ukeire(h("19m19p19s1234567z")) == (39, {t: 3 for t in parse_types("19m19p19s1234567z")})
    assert ukeire(h("123m456p789s1122z")) == (4, {27: 2, 28: 2})
    assert ukeire(h("5p"), 4) == (3, {13: 3})
    # 1-shanten: 1m and 4m make 123m/345m or 234m, 6s and 9s finish 78s.
    assert ukeire(h("234m456p78s11z35m9p")) == (15, {0: 4, 3: 3, 23: 4, 26: 4})


def test_ukeire_all_copies_seen_stays_listed() -> None:
    counts = h("23m456p789s11122z")
    seen = list(counts)
    seen[0] = 4
    assert ukeire(counts, 0, seen) == (4, {0: 0, 3: 4})


def test_ukeire_matches_reference() -> None:
    rng = random.Random(11)
    for i in range(300):
        n = (13, 13, 10, 7, 4, 1)[i % 6]
        counts = (wall_hand, near_tenpai_hand, one_suit_hand)[i % 3](rng, n)
        seen = [min(4, c + rng.choice((0, 0, 1, 2))) for c in counts]
        total, waits = ukeire(counts, melds_for(n), seen)
        assert waits == reference_ukeire(counts, seen)
        assert total == sum(waits.values())
        assert all(counts[t] < 4 for t in waits)


def test_ukeire_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        ukeire(h("123m456p789s11122z"))  # 3k+2
    counts = h("23m456p789s11122z")
    with pytest.raises(ValueError):
        ukeire(counts, 0, [0] * NUM_TYPES)  # visible must include the hand
    with pytest.raises(ValueError):
        ukeire(counts, 0, [0] * 10)


# ---------------------------------------------------------------------------- best discards


def test_best_discards_textbook() -> None:
    counts = h("234m456p78s11z35m9p3z")
    rows = best_discards(counts)
    # The two isolated tiles go first, lower type first on a tie.
    assert rows[:2] == [(17, 1, 15), (29, 1, 15)]
    assert all(r[1] == 2 for r in rows[2:])
    assert {r[0] for r in rows} == {t for t in range(NUM_TYPES) if counts[t]}
    keys = [(r[1], -r[2]) for r in rows]
    assert keys == sorted(keys)
    for t, sh, total in rows:
        after = list(counts)
        after[t] -= 1
        assert sh == shanten(after)
        assert total == ukeire(after, 0, counts)[0]


def test_best_discards_tenpai_and_visible() -> None:
    counts = h("123m456p789s24m55z7z")
    assert best_discards(counts)[0] == (33, 0, 3)  # drop 7z, wait on the three other 3m
    seen = list(counts)
    seen[2] += 2  # two more 3m seen: the kanchan still comes first on shanten
    assert best_discards(counts, 0, seen)[0] == (33, 0, 1)
    row = next(r for r in best_discards(counts) if r[0] == 3)
    assert row[1] == 1
    with pytest.raises(ValueError):
        best_discards(h("123m456p789s24m55z"))


def test_best_discards_with_melds() -> None:
    rows = best_discards(h("23m55p9s"), 3)
    assert rows[0] == (26, 0, 8)


# ---------------------------------------------------------------------------- visible counts


def test_visible_counts_from_observation() -> None:
    start = scenario_start(["123m456p789s1122z", "3z", "33z", "1z"], dora="9p")
    state = HandState(start, Preset(), [FirstAgent() for _ in range(4)])
    west = parse_types("3z")[0]
    east = parse_types("1z")[0]
    # Seat 1 discards its 3z, seat 2 pons it, seat 3 discards its 1z.
    p1, p2, p3 = state.players[1], state.players[2], state.players[3]
    tile = next(x for x in p1.concealed if x // 4 == west)
    p1.concealed.remove(tile)
    p1.discards.append(DiscardInfo(tile, tsumogiri=False, riichi=False, called=True))
    pair = [x for x in p2.concealed if x // 4 == west]
    assert len(pair) == 2
    for x in pair:
        p2.concealed.remove(x)
    p2.melds.append(Meld(MeldKind.PON, tuple(sorted((*pair, tile))), tile, 1))
    lone = next(x for x in p3.concealed if x // 4 == east)
    p3.concealed.remove(lone)
    p3.discards.append(DiscardInfo(lone, tsumogiri=False, riichi=False))

    obs = Observation(state, 0)
    seen = visible_counts(obs)
    expected = h("123m456p789s1122z")
    expected[west] += 3          # the pon, its called tile counted once
    expected[east] += 1          # seat 3's discard
    expected[parse_types("9p")[0]] += 1  # dora indicator
    assert seen == expected
    assert sum(seen) == 13 + 3 + 1 + 1

    # Shanpon on 1z and 2z: one 1z left unseen, two 2z.
    assert ukeire(h("123m456p789s1122z"), 0, seen) == (3, {east: 1, east + 1: 2})


def test_visible_counts_include_what_cards_make_public() -> None:
    # a hand played face up, a family kept face up, a revealed draw and a face-up pool beside a
    # hand are public: they count as seen for every other seat, never twice for the shower
    start = scenario_start(["123m456p789s1122z", "147m258p369s1234z", "5555m", "9999p"],
                           dora="9s")
    state = HandState(start, Preset(), [FirstAgent() for _ in range(4)])
    base = visible_counts(Observation(state, 0))
    assert Observation(state, 0).others_face_up() == ()
    state.revealed.add(1)                                   # P1 plays face up
    state.shown_types[2] = frozenset(parse_types("5m"))     # P2 shows its man family's 5m
    p3 = state.players[3]
    nines = [x for x in p3.concealed if x // 4 == parse_types("9p")[0]]
    state.shown_ids[3] = {nines[0]}                         # P3 revealed one drawn 9p
    p3.concealed.remove(nines[1])
    state.aside[3] = [nines[1]]                             # and keeps one face up beside
    state.aside_face_up.add(3)
    seen = visible_counts(Observation(state, 0))
    shown = [a + b for a, b in zip(h("147m258p369s1234z"), h("5555m9p9p"), strict=True)]
    assert seen == [a + b for a, b in zip(base, shown, strict=True)]
    # P1's own hand counts once, P0's hand stays hidden from it; P2's and P3's shown tiles count
    own = visible_counts(Observation(state, 1))
    assert own == [a + b + c for a, b, c in zip(h("147m258p369s1234z"), h("5555m9p9p"),
                                                h("9s"), strict=True)]


def test_discard_shanten_equals_shanten_after_each_discard() -> None:
    """The batched form used by the bots gives the same answer as one call per discard."""
    import random

    from pipeline.bots.shanten import discard_shanten

    rng = random.Random(7)
    for _ in range(1500):
        melds = rng.choice((0, 0, 0, 1, 2))
        wall = list(range(136))
        rng.shuffle(wall)
        counts = [0] * 34
        for tile in wall[:14 - 3 * melds]:
            counts[tile // 4] += 1
        got = discard_shanten(counts, melds)
        for t in range(34):
            if counts[t]:
                counts[t] -= 1
                assert got[t] == shanten(counts, melds)
                counts[t] += 1


# ---------------------------------------------------------------------------- speed paths


def count_suits(max_tiles: int) -> int:
    """Suits (9 counts of 0-4) of at most ``max_tiles`` tiles, counted digit by digit."""
    ways = [1] + [0] * max_tiles  # ways[s]: suits so far with s tiles
    for _ in range(9):
        ways = [sum(ways[s - c] for c in range(5) if s - c >= 0) for s in range(max_tiles + 1)]
    return sum(ways)


def test_suit_table_holds_every_suit_as_the_search_finds_it() -> None:
    """The shipped table is a cache of the search: a sample of its entries, and its size, are
    checked (the search itself agrees with the package through every shanten test above)."""
    from pipeline.bots.shanten import suit_row_set
    from pipeline.bots.suit_table import MAX_SUIT_TILES, NO_ENTRY, load_table, suit_code

    loaded = load_table()
    assert loaded is not None, "rebuild the table: python -m pipeline.bots.suit_table"
    row_sets, index = loaded
    assert sum(1 for entry in index if entry != NO_ENTRY) == count_suits(MAX_SUIT_TILES) == 405_350
    rng = random.Random(5)
    suits = [(0,) * 9, (4, 4, 4, 2, 0, 0, 0, 0, 0), (1, 1, 1, 1, 1, 1, 1, 1, 4),
             (3, 1, 1, 1, 1, 1, 1, 1, 3), (0, 0, 0, 0, 0, 0, 4, 4, 4)]
    while len(suits) < 3000:
        suit = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(suit) <= MAX_SUIT_TILES:
            suits.append(suit)
    for suit in suits:
        assert row_sets[index[suit_code(suit)]] == suit_row_set(suit), suit
    assert index[suit_code((4, 4, 4, 3, 0, 0, 0, 0, 0))] == NO_ENTRY  # 15 tiles


def test_suit_code_is_base_five() -> None:
    from pipeline.bots.suit_table import suit_code

    assert suit_code((0,) * 9) == 0
    assert suit_code((1, 0, 0, 0, 0, 0, 0, 0, 0)) == 1
    assert suit_code((0, 2, 0, 0, 0, 0, 0, 0, 0)) == 10
    assert suit_code((4,) * 9) == 5 ** 9 - 1


def test_suit_table_missing_or_damaged_file_is_not_used(tmp_path) -> None:
    from pipeline.bots.suit_table import load_table

    assert load_table(tmp_path / "absent.bin") is None
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(b"not a table")
    assert load_table(damaged) is None


def test_near_lowering_draws_are_the_package_lowering_draws() -> None:
    """Among the draws worth trying (evaluate.helpful_draws), exactly those whose shanten by
    the `mahjong` package is lower are listed, in type order."""
    from pipeline.bots.evaluate import helpful_draws
    from pipeline.bots.shanten import near_lowering_draws

    for counts, melds in near_tenpai_sample(21, 600):
        base = PACKAGE(counts)
        expected = []
        for t in sorted(set(helpful_draws(counts, melds == 0))):
            if counts[t] < 4:
                counts[t] += 1
                if PACKAGE(counts) < base:
                    expected.append(t)
                counts[t] -= 1
        assert near_lowering_draws(counts, melds) == expected, (counts, melds)


def test_discard_lowering_draws_equals_one_call_per_discard() -> None:
    """The batched form the heuristic bot uses answers as near_lowering_draws after each
    discard, and so does the acceptance built on it."""
    from pipeline.bots.evaluate import acceptance, discard_acceptance
    from pipeline.bots.shanten import discard_lowering_draws, near_lowering_draws

    rng = random.Random(8)
    for counts, melds in near_tenpai_sample(22, 800):
        counts[rng.choice([t for t in range(NUM_TYPES) if counts[t] < 4])] += 1
        held = [t for t in range(NUM_TYPES) if counts[t]]
        unseen = [rng.randint(0, 4 - c) for c in counts]
        got = discard_lowering_draws(counts, melds, held)
        accepts = discard_acceptance(counts, melds, held, unseen)
        assert list(got) == held
        for t in held:
            counts[t] -= 1
            assert list(got[t]) == near_lowering_draws(counts, melds)
            assert accepts[t] == acceptance(counts, melds, unseen)
            counts[t] += 1
    with pytest.raises(ValueError):
        discard_lowering_draws(h("123m456p789s1122z"), 0, [27])  # 13 tiles: nothing to discard
    with pytest.raises(ValueError):
        discard_lowering_draws(h("123m456p789s11222z"), 0, [0, 8])  # 9m is not held
