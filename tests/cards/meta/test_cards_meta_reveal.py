"""Mairu Shirouzu's revealed draw is public: the log names the tile, and every other seat's
observation shows it in her hand for as long as she holds it."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.flip_card import FlipAbility
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, ActionKind
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_tiles, tile_type

PRESET = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")
MAIRU = 0


class Mairu(ScriptAgent):
    """Names "man" before every draw (wrong for the draws below), then plays its script."""

    def decide(self, obs, legal):
        if legal[0].tag is Move.FAMILY:
            return next(a for a in legal if a.tag is Move.FAMILY and a.payload == "man")
        return super().decide(obs, legal)


class Watcher(ScriptAgent):
    """Notes, at each of its own turns, which of Mairu's tiles its observation shows."""

    def __init__(self, script: Sequence[str] = ()) -> None:
        super().__init__(script)
        self.seen: list[tuple[int, ...]] = []

    def decide(self, obs, legal):
        if any(a.kind == ActionKind.DISCARD for a in legal):
            self.seen.append(tuple(sorted(obs.shown_tiles(MAIRU))))
        return super().decide(obs, legal)


def mairu() -> FlipAbility:
    return FlipAbility(CardAbility(CATALOG.card("mairu_shirouzu"), MAIRU),
                       CardAbility(CATALOG.card("himeko_tsuruta"), MAIRU))


def play_reveals():
    # Mairu (P0, dealer) names man and draws 1s (revealed), keeps it and lets 4s go; her next
    # draw 2s is revealed too, and she then lets the 1s go, keeping the 2s
    start = scenario_start(["123456789m1p2p3p4s", "", "", ""],
                           draws="1s5z6z7z2s1z2z3z3s4z5z6z", dora="9p")
    agents = [Mairu(["4s", "1s"]), Watcher(), Watcher(), Watcher()]
    state = HandState(start, PRESET, agents, [mairu(), None, None, None])
    return state.play(), agents


def test_mairu_revealed_draw_is_named_in_the_log() -> None:
    # card text (Mairu): she names a family and reveals the tile drawn, to the whole table
    rec, _ = play_reveals()
    drawn = [e.tile for e in rec.events if e.kind == "draw" and e.seat == MAIRU]
    reveals = [e for e in rec.events if e.kind == "ability" and e.seat == MAIRU
               and e.tag is AbilityTag.TILE_SHOWN]
    assert [e.tile for e in reveals[:2]] == drawn[:2]
    assert [tile_type(e.tile) for e in reveals[:2]] == [tile_type(t) for t in
                                                       parse_tiles("1s2s")]
    assert str(reveals[0]) == "P0 ability 1s mairu_shirouzu: reveals a sou tile"


def test_mairu_revealed_draw_is_seen_by_every_other_seat_while_she_holds_it() -> None:
    rec, agents = play_reveals()
    one_s, two_s = [e.tile for e in rec.events if e.kind == "draw" and e.seat == MAIRU][:2]
    for watcher in agents[1:]:
        # first go-around: her 1s (kept) is shown, none of her other tiles
        assert watcher.seen[0] == (one_s,)
        # second go-around: the 1s went to her pond; the 2s she kept is shown
        assert watcher.seen[1] == (two_s,)


def test_without_the_card_nothing_of_her_hand_is_shown() -> None:
    start = scenario_start(["123456789m1p2p3p4s", "", "", ""],
                           draws="1s5z6z7z2s1z2z3z3s4z5z6z", dora="9p")
    agents = [ScriptAgent(["4s", "1s"]), Watcher(), Watcher(), Watcher()]
    rec = HandState(start, PRESET, agents, [None] * 4).play()
    assert not any(e.kind == "ability" for e in rec.events)
    assert all(seen == () for w in agents[1:] for seen in w.seen)


def test_mairu_names_a_family_before_the_replacement_draw_after_a_kan_too() -> None:
    # card text (Mairu): "before each draw" -- her closed kan's replacement draw is named and
    # revealed like a wall draw; she names man, right for the 9m from the dead wall, and flips
    start = scenario_start(["1111m5678m1p2p3p4s", "", "", ""],
                           draws="1s5z6z7z", rinshan="9m", dora="9p")
    agents = [Mairu(["ankan 1m", "4s"]), Watcher(), Watcher(), Watcher()]
    rec = HandState(start, PRESET, agents, [mairu(), None, None, None]).play()
    mine = [str(e) for e in rec.events
            if e.seat == MAIRU and e.kind != "offer"][1:9]  # after her deal
    assert mine == [
        "P0 ability mairu_shirouzu: names man", "P0 draw 1s",
        "P0 ability 1s mairu_shirouzu: reveals a sou tile", "P0 ankan [1111m]",
        "P0 ability mairu_shirouzu: names man", "P0 draw 9m rinshan",
        "P0 ability 9m mairu_shirouzu: reveals a man tile",
        "P0 ability mairu_shirouzu: flips to himeko_tsuruta (right guess)"]
