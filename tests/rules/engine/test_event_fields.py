"""What a program needs of an event is in its typed fields, not its text: the seat a call or a
ron (or an illegal ron's chombo) took its tile from (``source``), a discard of the tile just
drawn (``tsumogiri``), what an ability's event did (``effect``) and whose card it was
(``card``); an offer's ``tag`` is what was taken. The tables' and the export's attribution
read these fields (a draw's source and an event's payload: ``test_event_payloads.py``)."""

from __future__ import annotations

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.catalog import load_catalog
from pipeline.cards.moves import Move
from pipeline.cards.table import CardTable
from pipeline.rules.actions import AbilityTag
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.records import AbilityEffect, Event, HandRecord
from pipeline.sim.mjai import hand_events
from pipeline.sim.tables import ability_counts, attribute
from tests.support.rule_checks import EagerAgent

PICKS = ("nodoka_haramura", "haru_takimi", "mairu_shirouzu", "kuro_matsumi")


def played(preset_name: str, matches: int = 2) -> list[HandRecord]:
    preset = load_preset(preset_name)
    catalog = load_catalog("1.2") if preset.cards.enabled else None
    hands: list[HandRecord] = []
    for i in range(matches):
        agents = [kind(derive_seed("fields", i, s)) for s, kind in
                  enumerate((HeuristicBot, RandomAgent, EagerAgent, RandomAgent))]
        table = CardTable(preset, agents, seed=5, match_index=i, catalog=catalog) \
            if catalog else None
        hands.extend(play_match(preset, agents, 5, i, table=table).hands)
    return hands


@pytest.fixture(scope="module")
def card_hands() -> list[HandRecord]:
    return played("cards-hanchan")


@pytest.mark.parametrize("preset", ["online-hanchan", "cards-hanchan"])
def test_calls_and_rons_name_the_seat_they_took_from(preset: str, card_hands) -> None:
    hands = card_hands if preset == "cards-hanchan" else played(preset)
    checked = 0
    for rec in hands:
        fed: int | None = None
        for e in rec.events:
            if e.kind in ("discard", "kakan"):
                fed = e.seat  # a ron on an added kan robs it (chankan)
            elif e.kind in ("chi", "pon", "minkan", "ron"):
                assert e.source == fed and e.source != e.seat, e
                checked += 1
            elif e.kind == "chombo":  # rule C-20: an illegal ron names its discarder too
                assert e.source in (None, fed) and e.source != e.seat, e
            else:
                assert e.source is None, e
    assert checked > 20


def test_tsumogiri_is_the_tile_just_drawn(card_hands) -> None:
    seen = 0
    for rec in card_hands:
        drawn: dict[int, int | None] = {}
        for e in rec.events:
            if e.kind == "draw" and e.seat is not None:
                drawn[e.seat] = e.tile
            elif e.kind in ("chi", "pon") and e.seat is not None:
                drawn[e.seat] = None  # a call's discard is never tsumogiri
            elif e.kind == "discard" and e.tsumogiri:
                assert e.tile == drawn.get(e.seat), e
                seen += 1
            else:
                assert not e.tsumogiri
    assert seen > 50


def test_every_ability_event_says_what_it_did(card_hands) -> None:
    effects = set()
    for rec in card_hands:
        for e in rec.events:
            if e.kind == "ability":
                assert isinstance(e.effect, AbilityEffect), e
                effects.add(e.effect)
            else:
                assert e.effect is None, e
    assert effects == set(AbilityEffect)


def test_attribution_reads_the_fields_whatever_the_text() -> None:
    # the text says nothing a parser could use: the fields decide
    points = Event("ability", 1, detail="?", card="kuro_matsumi", effect=AbilityEffect.POINTS)
    assert attribute(points, PICKS) == ("kuro_matsumi", 3, "points")
    unnamed = Event("ability", 2, detail="kuro_matsumi: +8000 points",
                    effect=AbilityEffect.PLAY)  # no card: the landing seat's
    assert attribute(unnamed, PICKS) == ("mairu_shirouzu", 2, "play")
    copied = Event("ability", 0, detail="?", card="koromo_amae",
                   effect=AbilityEffect.BOOKKEEPING)  # no seat picked it: the landing seat
    assert attribute(copied, PICKS) == ("koromo_amae", 0, "bookkeeping")
    offer = Event("offer", 1, detail="?", card="haru_takimi", tag=AbilityTag.EXTRA_TURN)
    assert attribute(offer, PICKS) == ("haru_takimi", 1, "offer")
    face_down = Event("discard", 0, 5, detail="?", tag=AbilityTag.FACE_DOWN,
                      card="nodoka_haramura")
    rec_events = [points, unnamed, copied, offer, face_down,
                  Event("offer", 2, detail="mairu_shirouzu: offered family; took family",
                        card="mairu_shirouzu"),  # no tag: declined, whatever the text
                  Event("ability", 2, detail="?", card="mairu_shirouzu", tag=Move.FLIP,
                        effect=AbilityEffect.BOOKKEEPING)]

    class Rec:
        events = rec_events
        seats = range(4)
        picks = PICKS

    counts = ability_counts(Rec())  # type: ignore[arg-type]
    assert [c["ability_triggers"] for c in counts] == [1, 0, 1, 1]
    assert [c["ability_bookkeeping"] for c in counts] == [1, 0, 1, 0]
    assert [(c["offers"], c["offers_taken"]) for c in counts] == [(0, 0), (1, 1), (1, 0),
                                                                 (0, 0)]


def test_card_tags_and_notes_say_when_they_only_keep_state(card_hands) -> None:
    # rule-free bookkeeping: a family named, a side flipped, a match-long memory noted
    assert Move.FAMILY.bookkeeping and Move.FLIP.bookkeeping and not Move.DUEL.bookkeeping
    assert not any(tag.bookkeeping for tag in AbilityTag)
    for rec in card_hands:
        for e in rec.events:
            if e.kind == "ability" and getattr(e.tag, "bookkeeping", False):
                assert e.effect is AbilityEffect.BOOKKEEPING, e


def test_the_export_takes_targets_and_tsumogiri_from_the_fields(card_hands) -> None:
    rec = next(r for r in card_hands if any(e.kind in ("pon", "chi") for e in r.events))
    out = hand_events(rec)
    calls = [m for m in out if m["type"] in ("pon", "chi")]
    logged = [e for e in rec.events if e.kind in ("pon", "chi")]
    assert [m["target"] for m in calls] == [e.source for e in logged]
    dahai = [m for m in out if m["type"] == "dahai"]
    assert [m["tsumogiri"] for m in dahai] == [e.tsumogiri for e in rec.events
                                             if e.kind == "discard"]


def whole_deck(matches: int) -> list[HandRecord]:
    """Every team mode with the whole deck (as the digests play it), a few matches each."""
    from tests.support import digests

    return [rec for mode in digests.MODES for rec in digests.deck_records(mode, matches)]


# what the texts of state-keeping events say (the tables once classified by these phrases)
STATE_TEXTS = ("moves the last live-wall tile to the dead wall", ": names ", ": family ",
               ": flips to ", " kept face up", "hand hidden again", "for the rest of the match")


def test_the_effect_agrees_with_what_the_text_says() -> None:
    found: set[str] = set()
    for rec in whole_deck(3):
        for e in rec.events:
            if e.kind != "ability":
                continue
            # wording: the typed effect checked against what the text says
            phrase = next((p for p in STATE_TEXTS if p in e.detail), None)
            if phrase:
                found.add(phrase)
                assert e.effect is AbilityEffect.BOOKKEEPING, e
            # wording: as above
            elif e.detail.startswith(("scoring:", "always-winning tile:")) \
                    or " points" in e.detail:  # wording
                assert e.effect is AbilityEffect.POINTS, e
            else:
                assert e.effect is AbilityEffect.PLAY, e
    assert found >= {": names ", ": flips to ", "for the rest of the match", ": family "}
