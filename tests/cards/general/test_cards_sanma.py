"""The cards with three players (rule C-23): which cannot be played, and the cards whose
abilities go round the table, count players or read last place, played at a table of three.

Hands are laid out with :func:`scenario_start` given three hands (P0 deals and draws
``draws[0]``, then one draw per seat in turn order); a seat without a script throws the tile it
drew. Expected points are worked out in the comments.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.bots.registry import make_agent
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.conditions import placement_order
from pipeline.cards.effects.duel import routed_noten
from pipeline.cards.effects.open_hands import last_place
from pipeline.cards.sanma import SANMA_CHANGES, SANMA_UNPLAYABLE, sanma_status
from pipeline.cards.table import CardTable
from pipeline.rules.actions import AbilityTag
from pipeline.rules.hand import play_hand
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.rules.scenario import ScriptAgent, scenario_start
from pipeline.sim import SimError
from pipeline.sim.trial import TrialConfig, trial_deck

CATALOG = load_catalog("1.2")
SANMA = replace(load_preset("cards-sanma"), nagashi_mangan=False)
QUIET = "19m1479p258s1357z"
OTHER = "19m369p147s2567z"
TENPAI = "123456789s1122p"  # waits 1p/2p: ittsu; tsumo on 1p = 3 han 30 fu (2,000 / 1,000)


def deltas(rec) -> list[int]:
    return [s.delta for s in rec.seats]


def play(hands, draws, cards: dict[int, str], scripts=(), **start):
    begin = scenario_start(hands, draws, dora="5z", **start)
    agents = [ScriptAgent(s) for s in [*scripts, *([()] * (3 - len(scripts)))]]
    abilities = [CardAbility(CATALOG.card(cards[s]), s) for s in sorted(cards)]
    return play_hand(begin, SANMA, agents, abilities)


def test_c23_every_card_plays_for_three_or_says_why_not() -> None:
    # rule C-23: the unplayable cards name the missing rule; the others play
    ids = set(CATALOG.ids)
    assert set(SANMA_UNPLAYABLE) <= ids and set(SANMA_CHANGES) <= ids
    assert not set(SANMA_UNPLAYABLE) & set(SANMA_CHANGES)
    assert sanma_status("yukiko_maya")[0] is False and "chi" in sanma_status("yukiko_maya")[1]
    assert sanma_status("satomi_kanbara")[0] is False
    assert sanma_status("nodoka_haramura") == (True, "")
    assert sanma_status("kana_ikeda") == (True, "last place is third of three")


def test_c23_a_cards_sanma_match_deals_three_teams_without_the_unplayable_cards() -> None:
    # rule C-23, C-02: three 4-card teams, no card that cannot be played for three
    agents = [make_agent("heuristic", derive_seed(3, 0, "agent", s)) for s in range(3)]
    table = CardTable(SANMA, agents, 3, 0)
    result = play_match(SANMA, agents, 3, 0, table=table)
    teams = result.hands[0].teams["teams"]
    assert len(teams) == 3 and all(len(t) == 4 for t in teams)
    picked = {p for h in result.hands for p in h.picks}
    dealt = {c for t in teams for c in t}
    assert not (picked | dealt) & set(SANMA_UNPLAYABLE)
    assert sum(result.final_scores) + 1000 * result.leftover_sticks == 3 * 35000
    assert all(len(h.picks) == 3 for h in result.hands)


def test_c23_last_place_is_third_of_three() -> None:
    # rule C-21 for three seats (Kana, Mihoko): placement goes round three seats
    scores = (30000, 20000, 40000)
    assert placement_order(scores, dealer=0) == [2, 0, 1]
    assert last_place(scores, dealer=0) == 1
    assert last_place((35000, 35000, 35000), dealer=1) == 0  # farthest from the dealer


def test_c23_megan_routes_noten_payments_round_three_seats() -> None:
    # rule C-22 Megan, S-07: with two noten players of three there is one tenpai player, who
    # cannot be the "nearest not yet paid" for both: no routing, the plain payments stand
    assert routed_noten((True, False, False), {1: 1500, 2: 1500}, dealer=0) == []
    # four seats as before: two noten players each pay their own nearest tenpai player
    assert routed_noten((True, False, True, False), {1: 1500, 3: 1500}, dealer=0) == [
        (1, 2, 1500), (3, 0, 1500)]


def test_c23_kei_collects_her_live_outs_from_two_players() -> None:
    # rule C-23: "each other player pays her 100 per live out" is two players with three.
    # P1's tsumo on 1p: 3 han 30 fu, 2,000 from the dealer and 1,000 from P2 (S-06)
    rec = play([QUIET, TENPAI, OTHER], "8p9p6s3p1p", {1: "kei_arakawa"}, [(), ["tsumo"]])
    d = deltas(rec)
    assert sum(d) == 0
    extra = d[1] - 3000
    assert extra > 0 and extra % 200 == 0  # 100 per out, from each of two players
    assert d[0] == -2000 - extra // 2 and d[2] == -1000 - extra // 2


def test_c23_huiyu_tsumo_is_the_ron_value_plus_1000_from_each_of_two() -> None:
    # rule C-23: "every player pays the full ron value plus 1,000": the two others
    rec = play([QUIET, TENPAI, OTHER], "8p9p6s3p1p", {1: "huiyu_hao"}, [(), ["tsumo"]])
    win = rec.wins[0]
    d = deltas(rec)
    assert sum(d) == 0 and d[0] == d[2] < 0
    assert d[1] == -2 * d[0] and -d[0] >= 1000 + win.points // 2


def test_c23_nelly_takes_1000_from_each_of_two_at_a_draw() -> None:
    # rule C-23: "every player pays her 1,000" at an exhaustive draw: two players
    rec = play([QUIET, "19m2589p147s2567z", "19m3699p369s2356z"], "", {0: "nelly_virsaladze"})
    assert rec.draw_kind == "exhaustive"
    assert deltas(rec) == [2000, -1000, -1000]


def test_c23_saki_does_not_win_on_a_kita_replacement() -> None:
    # rule C-23: the draw after a kita is no rinshan tile for her always-winning rinshan
    rec = play(["19m1479p258s135z6z", QUIET, OTHER], "4z", {0: "saki_miyanaga"},
               [["kita 4z"]], rinshan="9s")
    assert not rec.wins or rec.wins[0].seat != 0


def test_c23_a_three_player_trial_of_an_unplayable_card_is_refused_with_the_reason() -> None:
    # rule C-23: one line naming the card, why, and what to do

    assert "yukiko_maya" not in trial_deck(CATALOG, SANMA)
    with pytest.raises(SimError, match="cannot be played with three players.*no chi"):
        TrialConfig(preset=SANMA, catalog=CATALOG, seed=1, cards=("yukiko_maya",))


def test_c23_the_exclusion_list_names_unplayable_cards_and_cards_clear_of_the_band() -> None:
    # rule C-23: a verdict above or below the band (out_of_band), strongest first; inside the
    # band, or undecided (not significant, or too few matches): not listed
    import polars as pl

    from pipeline.analytics.sanma import recommended_exclusions

    rows = [  # card, value, lo, hi, relative, q, out_of_band (verdict above or below)
        ("strong_card", 1500.0, 1000.0, 2000.0, 1200.0, 0.001, True),
        ("weak_card", -900.0, -1300.0, -700.0, -1000.0, 0.01, True),
        ("wide_card", 1500.0, -500.0, 3500.0, 1200.0, 0.30, False),
        ("unsure_card", 900.0, 800.0, 1000.0, 600.0, 0.20, False),
        ("thin_card", 900.0, 700.0, 1100.0, 600.0, None, False),
    ]
    table = pl.DataFrame(
        [{"card": c, "name": c, "value": v, "value_lo": lo, "value_hi": hi, "relative": r,
          "q_value": q, "out_of_band": o, "playable": True, "note": "", "four_value": 100.0}
         for c, v, lo, hi, r, q, o in rows]
        + [{"card": "yukiko_maya", "name": "Yukiko Maya", "playable": False,
            "note": SANMA_UNPLAYABLE["yukiko_maya"]}], infer_schema_length=None)
    listed = recommended_exclusions(table)
    assert [(e["card"], e["kind"]) for e in listed] == [
        ("yukiko_maya", "unplayable"), ("strong_card", "strong"), ("weak_card", "weak")]
    assert listed[1]["q_value"] == 0.001 and listed[1]["four_value"] == 100.0


def test_c23_sae_riichi_switches_off_the_two_other_seats_only() -> None:
    # rule C-22 Sae, S-01: at a table of three her riichi switches off the abilities of the
    # two other seats (P1, P2); no fourth seat is named
    from tests.support.duel_play import Naming

    tanki = "234p345p678s456s7p"  # closed tenpai on 7p alone
    begin = scenario_start([tanki, "", ""], "1z2z3z5z6z", dora="5z")
    agents = [Naming(1, ["riichi 1z"]), ScriptAgent(()), ScriptAgent(())]
    cards = {0: "sae_usuzawa", 1: "kaori_senoo", 2: "kei_arakawa"}
    abilities = [CardAbility(CATALOG.card(cards[s]), s) for s in sorted(cards)]
    rec = play_hand(begin, SANMA, agents, abilities)
    assert rec.seats[0].riichi
    off = [e for e in rec.events if e.tag is AbilityTag.SWITCHED_OFF]
    assert sorted((e.card, e.payload) for e in off) == [("sae_usuzawa", 1), ("sae_usuzawa", 2)]
