"""The always-winning tiles under their two readings (option ``always_winning``): ``wildcard``
(the default: a ready hand only, furiten as for any winning tile) and ``shapeless`` (any hand;
furiten only from the real waits). Cards: Koromo Amae (last tile, last discard), Tomoe Karijuku
(white dragon in riichi), Saki Miyanaga (rinshan tiles)."""

from __future__ import annotations

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag, ActionKind
from pipeline.rules.hand import HandState
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.tiles import parse_tiles, parse_types
from tests.support.card_scripts import CardScript

PRESET = load_preset("online-hanchan")
CATALOG = load_catalog("1.2")


def card(card_id: str, effect: str, choice: str | None) -> CardAbility:
    chosen = CATALOG.card(card_id)
    if choice is not None:
        chosen = chosen.with_param(effect, "always_winning", choice)
    return chosen


def seat_with(card_obj, seat: int) -> list[CardAbility | None]:
    out: list[CardAbility | None] = [None] * 4
    out[seat] = CardAbility(card_obj, seat)
    return out


def ron_offers(agent: ScriptAgent) -> list[int]:
    return [a.tile for o in agent.offers for a in o if a.kind == ActionKind.RON]


# ------------------------------------------------------------------ Tomoe Karijuku

TOMOE = "123m789m123p1122z"   # tenpai on 1z/2z (shanpon): a white dragon does not complete it


def tomoe_hand(choice: str | None, *, white_in_pond: bool):
    """Tomoe (P1) discards a white dragon before her riichi (or not), declares riichi on 4s;
    P2 then discards a white dragon."""
    if white_in_pond:
        # P1 draws 5z first and discards it (declining the extra turn), then 4s: riichi
        draws = "1s5z6s3s" "7s4s8s"
        p1 = ["5z", "riichi 4s", "ron"]
    else:
        draws = "1s9p6s3s" "7s4s8s"
        p1 = ["9p", "riichi 4s", "ron"]
    start = scenario_start(["", TOMOE, "5z", ""], draws=draws, dora="4p", ura="4p")
    agents = [CardScript(), CardScript(p1), CardScript(["6s", "5z"]), CardScript()]
    abilities = seat_with(card("tomoe_karijuku", "white", choice), 1)
    rec = HandState(start, PRESET, agents, abilities=abilities).play()
    return rec, agents


def test_tomoe_wildcard_rons_a_white_dragon_valued_as_her_wait() -> None:
    # card tomoe_karijuku, reading "wildcard": ready on 1z/2z, she rons P2's white dragon; it
    # stands for 1z (equal value, 1z first): riichi, the round wind East, chantai (2)
    rec, agents = tomoe_hand(None, white_in_pond=False)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 2)
    assert {"Riichi", "Yakuhai (round wind east)", "Chantai"} <= {n for n, _ in win.yaku}


def test_tomoe_wildcard_with_a_white_dragon_in_her_pond_is_furiten() -> None:
    # card tomoe_karijuku, reading "wildcard": the white dragon is one of her winning tiles, and
    # one lies in her pond: furiten (rule H-09), so she may not ron it
    rec, agents = tomoe_hand(None, white_in_pond=True)
    assert any(e.kind == "riichi" and e.seat == 1 for e in rec.events)
    assert parse_tiles("5z")[0] // 4 not in [t // 4 for t in ron_offers(agents[1])]
    assert not any(w.seat == 1 for w in rec.wins)


def test_tomoe_shapeless_ignores_the_white_dragon_in_her_pond() -> None:
    # card tomoe_karijuku, reading "shapeless": furiten only from her real waits (1z/2z), so
    # the white dragon in her pond does not stop the ron
    rec, agents = tomoe_hand("shapeless", white_in_pond=True)
    win = rec.wins[0]
    assert (win.seat, win.from_seat) == (1, 2)


def test_tomoe_wildcard_not_ready_cannot_win_on_a_white_dragon() -> None:
    # a riichi needs a ready hand, so a hand in riichi is always ready: the reading only differs
    # for a hand that is not, which the engine's probe answers from the waits it is given
    from pipeline.rules.hooks import WinTileView

    tomoe = CardAbility(CATALOG.card("tomoe_karijuku"), 1)
    white = parse_tiles("5z")[0]
    assert tomoe.always_wins(WinTileView(1, white, False, True, waits=frozenset({27})))
    assert not tomoe.always_wins(WinTileView(1, white, False, True, waits=frozenset()))
    shapeless = CardAbility(card("tomoe_karijuku", "white", "shapeless"), 1)
    assert shapeless.always_wins(WinTileView(1, white, False, True, waits=frozenset()))
    probe = WinTileView(1, white, False, True, waits=frozenset({27}), furiten_probe=True)
    assert tomoe.always_wins(probe) and not shapeless.always_wins(probe)


# ------------------------------------------------------------------ Koromo Amae

# ready on 3s alone (kanchan 2-4s), riichi-less; a closed hand so her discards move wall tiles
KOROMO_READY = "123m456m789p24s55z"


def last_discard_start(hand: str):
    """Koromo (P1) keeps her hand (tsumogiri); the hand ends on P3's discard of the last tile."""
    return scenario_start(["", hand, "", ""])


def test_koromo_wildcard_ready_rons_the_last_discard_as_her_wait() -> None:
    # card koromo_amae, reading "wildcard": ready on 3s, she rons the last discard, whatever it
    # is; it stands for 3s: houtei (and nothing that needs the real tile)
    start = last_discard_start(KOROMO_READY)
    agents = [ScriptAgent(), ScriptAgent(["ron"]), ScriptAgent(), ScriptAgent()]
    state = HandState(start, PRESET, agents, seat_with(CATALOG.card("koromo_amae"), 1))
    rec = state.play()
    assert rec.wins, "the last discard should win for her"
    win = rec.wins[0]
    assert win.seat == 1 and win.from_seat != 1
    assert "Houtei Raoyui" in [n for n, _ in win.yaku]
    valued = [e.payload for e in rec.events if e.tag is AbilityTag.ALWAYS_WINNING]
    assert valued == list(parse_types("3s"))  # valued as the winning tile 3s
    assert state.wall.live_left == 0


def test_koromo_wildcard_furiten_on_her_wait_cannot_ron_the_last_discard() -> None:
    # card koromo_amae, reading "wildcard": she discarded her own wait (3s) earlier, so she is
    # furiten (rule H-09) and the last discard does not win for her by ron
    hand = "123m456m789p234s5z"
    start = scenario_start(["", hand, "", ""], draws="1z" + "5z")
    # first turn: P1 draws 5z (P0 drew 1z) and discards 3s: ready on 3s (24s + 55z), furiten
    agents = [ScriptAgent(), ScriptAgent(["3s"]), ScriptAgent(), ScriptAgent()]
    state = HandState(start, PRESET, agents, seat_with(CATALOG.card("koromo_amae"), 1))
    rec = state.play()
    assert state.players[1].discards[0].tile // 4 == parse_types("3s")[0]
    assert not ron_offers(agents[1])
    assert not any(w.seat == 1 for w in rec.wins)


def test_koromo_wildcard_not_ready_draws_nothing_from_the_last_tile() -> None:
    # card koromo_amae: a hand with no wait wins on no last tile or discard as a wildcard, and
    # does as "shapeless"
    hand = "147m258p369s1234z"
    for choice, wins in ((None, False), ("shapeless", True)):
        start = scenario_start(["", hand, "", ""])
        agents = [ScriptAgent(), ScriptAgent(["ron"]), ScriptAgent(), ScriptAgent()]
        state = HandState(start, PRESET, agents,
                          seat_with(card("koromo_amae", "last_tile", choice), 1))
        rec = state.play()
        assert bool(ron_offers(agents[1])) is wins
        assert bool(rec.wins) is wins
