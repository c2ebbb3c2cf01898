"""Where a draw's tile came from (``Event.drawn_from``) and what an ability's event names
(``Event.payload``, as its tag says) are typed fields the engine and the cards set: checked in
exact situations (a built wall, scripted tile by tile) and, across the whole deck, against what
the log's text says for people."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.family_guess import FAMILIES
from pipeline.cards.effects.flip_card import FlipCause
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag
from pipeline.rules.preset import load_preset
from pipeline.rules.records import DrawSource, HandRecord
from pipeline.rules.scenario import play_scenario, scenario_start
from pipeline.tiles import parse_tiles, tile_type, type_to_str

ONLINE = load_preset("online-hanchan")
SANMA = load_preset("sanma-hanchan")
CARD_IDS = frozenset(card.id for card in load_catalog("1.2"))


@pytest.fixture(scope="module")
def deck_hands() -> list[HandRecord]:
    """Every team mode with the whole deck (as the digests play it), a few matches each."""
    from tests.support import digests

    return [rec for mode in digests.MODES for rec in digests.deck_records(mode, 3)]


# ------------------------------------------------------------------ draws


def draws(rec: HandRecord) -> list[tuple[int | None, DrawSource | None, int | None]]:
    return [(e.seat, e.drawn_from, e.tile) for e in rec.events if e.kind == "draw"]


def test_h06_k07_the_draw_after_a_concealed_kan_comes_from_the_dead_wall() -> None:
    # rule H-06, K-07: P0 kans 1m on its first turn and draws 5z from the dead wall; every
    # other draw of the hand is a turn's draw from the live wall
    start = scenario_start(["111m234p567s99s4z5z", "", "", ""], "1m", rinshan="5z", dora="9m")
    rec, _ = play_scenario(start, ONLINE, [["ankan 1m"]])
    got = draws(rec)
    assert got[0][:2] == (0, DrawSource.WALL) and tile_type(got[0][2]) == 0     # the 1m
    assert got[1][:2] == (0, DrawSource.RINSHAN)
    assert tile_type(got[1][2]) == tile_type(parse_tiles("5z")[0])
    assert {source for _, source, _ in got[2:]} == {DrawSource.WALL}
    assert all(e.drawn_from is None for e in rec.events if e.kind != "draw")


def test_s03_c23_the_draw_after_a_kita_is_a_kita_draw_not_a_rinshan_one() -> None:
    # rule S-03: the North is set aside and the replacement (9s) comes from the dead wall;
    # C-23: for the characters it is no rinshan draw, and the event says which it was
    start = scenario_start(["19m1479p258s135z6z", "19m1479p258s1357z", "19m369p147s2567z"],
                           draws="4z", rinshan="9s", dora="1s")
    rec, _ = play_scenario(start, SANMA, [["kita 4z"]])
    i = next(i for i, e in enumerate(rec.events) if e.kind == "kita")
    after = rec.events[i + 1]
    assert (after.kind, after.seat, after.drawn_from) == ("draw", 0, DrawSource.KITA)
    assert tile_type(after.tile) == tile_type(parse_tiles("9s")[0])
    assert DrawSource.RINSHAN not in [source for _, source, _ in draws(rec)]


def test_every_draw_of_the_whole_deck_names_its_source(deck_hands) -> None:
    seen = set()
    for rec in deck_hands:
        for e in rec.events:
            if e.kind == "draw":
                assert isinstance(e.drawn_from, DrawSource), e
                seen.add(e.drawn_from)
            else:
                assert e.drawn_from is None, e
    # the sources the cards add (a pond, beside the hand, an ability's draws, a tile set
    # aside, a repeated discard's replacement) all come up; kita draws are three-player's
    assert seen == set(DrawSource) - {DrawSource.KITA}


# ------------------------------------------------------------------ payloads

SEAT = "a seat"
POINTS = "points or a count"

# what each tag's payload is, and the words the log prints it with (checked against the text)
PAYLOADS: dict[object, tuple[object, Callable[[object], str]]] = {
    AbilityTag.SWITCHED_OFF: (SEAT, lambda p: f"P{p}'s ability switched off"),
    AbilityTag.SWITCHED_ON: (SEAT, lambda p: f"P{p}'s ability works again"),
    AbilityTag.PAID: (SEAT, lambda p: f"P{p} pays"),
    AbilityTag.TURNED_FACE_DOWN: (SEAT, lambda p: f"turns P{p}'s discard face down"),
    AbilityTag.FROM_POND: (SEAT, lambda p: f"draws from P{p}'s pond"),
    AbilityTag.LATE: (SEAT, lambda p: f"ron on P{p}'s previous discard"),
    Move.DUEL: (SEAT, lambda p: f"duel P{p}"),
    Move.BLOCK: (SEAT, lambda p: f"block P{p}"),
    Move.DUEL_ENDED: (SEAT, lambda p: f"P{p}'s riichi ends the duel"),
    AbilityTag.STAKED: (POINTS, lambda p: f"stakes {p} of"),
    AbilityTag.HONBA_ADDED: (POINTS, lambda p: f"{p} honba added"),
    AbilityTag.DORA_REVEALED: (POINTS, lambda p: f"{p} more dora indicators"),
    AbilityTag.WALL_DRAWN: (POINTS, lambda p: f"draws {p} tiles"),
    AbilityTag.PUT_LIVE_END: (POINTS, lambda p: f"puts {p} tiles at the end of the live wall"),
    AbilityTag.PUT_DEAD_END: (POINTS, lambda p: f"puts {p} tiles at the end of the dead wall"),
    AbilityTag.WALL_REVEALED: (POINTS, lambda p: f"reveals {p} wall tiles"),
    AbilityTag.SETTLED: (POINTS, lambda p: f"{p:+d} points"),
    AbilityTag.TABLE_TAKEN: (POINTS, lambda p: f"takes the table, {p:+d} points"),
    AbilityTag.SCORED: (POINTS, lambda p: f"scoring: {p:+d} han"),
    Move.STAKE_DUE: (POINTS, lambda p: f"must stake {p} points"),
    Move.FAMILY: (frozenset(FAMILIES), lambda p: f" {p}"),
    Move.COPY: (CARD_IDS, lambda p: f"copies {p}"),
    Move.DECLARE: (tuple, lambda p: f"declares {'+'.join(p)}"),
    Move.FLIP: (FlipCause, lambda p: f"({p})"),
    Move.FLIP_AFTER_EXTRA_TURN: (FlipCause, lambda p: f"({p})"),
    AbilityTag.ALWAYS_WINNING: (range(34), lambda p: "valued as the winning tile "
                                f"{type_to_str(p)}" if p is not None else "whatever its shape"),
}

# tags whose seat is never the event's own (its pond or discard may be)
ANOTHER_SEAT = frozenset((AbilityTag.SWITCHED_OFF, AbilityTag.SWITCHED_ON, AbilityTag.PAID,
                          AbilityTag.LATE, Move.DUEL, Move.BLOCK))


def payload_fits(kind: object, payload: object, seats: int) -> bool:
    if kind is SEAT:
        return type(payload) is int and 0 <= payload < seats
    if kind is POINTS:
        return type(payload) is int
    if kind is tuple:
        return isinstance(payload, tuple) and all(isinstance(x, str) for x in payload)
    if kind is FlipCause:
        return isinstance(payload, FlipCause)
    if isinstance(kind, range):
        return payload is None or payload in kind
    return payload in kind  # type: ignore[operator]


def test_every_ability_event_is_tagged_and_names_what_its_tag_says(deck_hands) -> None:
    named: set[object] = set()
    for rec in deck_hands:
        seats = len(rec.seats)
        for e in rec.events:
            if e.kind != "ability":
                assert e.payload is None, e
                continue
            assert e.tag is not None, e  # every ability event says what it is
            if e.tag is AbilityTag.SWAPPED and e.payload is not None:
                kind, words = SEAT, (lambda p: f"P{p}'s")  # a pond's or a meld's owner
            elif e.tag in PAYLOADS:
                kind, words = PAYLOADS[e.tag]
            else:
                assert e.payload is None, e
                continue
            assert payload_fits(kind, e.payload, seats), e
            if e.tag in ANOTHER_SEAT:
                assert e.payload != e.seat, e
            # wording: the typed payload agrees with what the log prints for people
            assert words(e.payload) in e.detail, e
            named.add(e.tag)
    assert named >= {AbilityTag.SWITCHED_OFF, AbilityTag.PAID, AbilityTag.STAKED,
                     AbilityTag.SCORED, Move.DECLARE, Move.FAMILY, Move.FLIP, Move.DUEL,
                     AbilityTag.ALWAYS_WINNING, AbilityTag.FROM_POND}
