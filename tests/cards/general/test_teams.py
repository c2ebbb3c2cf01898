"""Team modes of the character-card game (rules C-02..C-08, C-10, C-22 Maho)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import CardTable
from pipeline.cards.teams import (
    MODES,
    TeamError,
    TeamState,
    deck_for,
    default_replace_choice,
    draw_for_ability,
    end_of_hand,
    match_rng,
    new_match,
    options_for_hand,
    record_pick,
    start_hand,
)
from pipeline.rules.agents import RandomAgent
from pipeline.rules.preset import CardRules, PresetError, load_preset

CATALOG = load_catalog("1.2")
DECK = deck_for(CATALOG, CardRules(enabled=True), only_playable=False)
NO_TENPAI = [False] * 4


def rules(mode: str = "standard", size: int | None = None) -> CardRules:
    default = {"rapid": 2, "draft": 6}.get(mode, 4)
    return CardRules(enabled=True, team_mode=mode, team_size=size or default)


def match(mode: str = "standard", seed: int = 1, size: int | None = None, **kw) -> TeamState:
    return new_match(rules(mode, size), DECK, random.Random(seed), **kw)


def pick_all(state: TeamState, choose=lambda options: options[0]) -> None:
    for seat in range(4):
        record_pick(state, seat, choose(options_for_hand(state, seat)))


def assert_conserved(state: TeamState, universe: list[str]) -> None:
    held = [c for team in state.teams for c in team]
    assert len(held) == len(set(held)), "a card is held twice"
    assert Counter(state.all_cards()) == Counter(universe)


# --- C-02, C-03, C-04: standard teams -------------------------------------------------------


def test_c02_standard_deals_four_distinct_cards_each_from_the_deck():
    state = match("standard")
    for team in state.teams:
        assert len(team) == 4  # rule C-02
    held = [c for team in state.teams for c in team]
    assert len(set(held)) == 16 and set(held) <= set(DECK)
    assert len(state.deck) == len(DECK) - 16
    assert_conserved(state, DECK)


def test_c03_c04_options_are_the_team_and_the_same_pick_is_allowed_next_hand():
    state = match("standard")
    for _hand in range(3):
        start_hand(state)
        for seat in range(4):
            assert options_for_hand(state, seat) == state.teams[seat]  # rule C-03
        pick_all(state)  # the same first character every hand: rule C-04
        end_of_hand(state, winners=[0], tenpai=[True, False, False, False])
    assert state.pick_counts[0] == {state.teams[0][0]: 3}
    assert len(state.teams[0]) == 4  # no rotation in standard


def test_pick_outside_options_or_twice_is_refused():
    state = match("standard")
    start_hand(state)
    other = state.teams[1][0]
    with pytest.raises(TeamError, match="cannot pick"):
        record_pick(state, 0, other)
    record_pick(state, 0, state.teams[0][0])
    with pytest.raises(TeamError, match="already picked"):
        record_pick(state, 0, state.teams[0][1])


# --- C-05: winner rotation, Maho (C-22) -----------------------------------------------------


def test_c05_winner_returns_the_picked_card_and_gets_a_new_one():
    state = match("winner-rotation")
    before = [list(t) for t in state.teams]
    start_hand(state)
    pick_all(state, lambda options: options[2])
    won_with = state.picks[1]
    events = end_of_hand(state, winners=[1], tenpai=NO_TENPAI)
    (event,) = events
    assert event["kind"] == "rotate" and event["returned"] == won_with
    assert won_with in state.deck and won_with not in state.teams[1]  # back into the deck
    assert event["dealt"] in state.teams[1] and event["dealt"] not in before[1]
    assert len(state.teams[1]) == 4  # team size constant
    assert state.teams[0] == before[0] and state.teams[2] == before[2]  # losers keep theirs
    assert_conserved(state, DECK)


def test_c05_double_ron_rotates_both_winners():
    state = match("winner-rotation")
    start_hand(state)
    pick_all(state)
    picked = list(state.picks)
    end_of_hand(state, winners=[2, 3], tenpai=NO_TENPAI)
    assert picked[2] in state.deck and picked[3] in state.deck
    assert all(len(t) == 4 for t in state.teams)


def test_c22_maho_rotates_herself_not_the_copied_card():
    states = (match("winner-rotation", seed) for seed in range(200))
    state = next(s for s in states if any("maho_yumeno" in t for t in s.teams))
    seat = next(i for i, t in enumerate(state.teams) if "maho_yumeno" in t)
    start_hand(state)
    drawn = draw_for_ability(state, seat, 2)  # Maho draws 2 cards and keeps both (C-22)
    assert len(drawn) == 2 and set(drawn) <= set(state.teams[seat])
    record_pick(state, seat, "maho_yumeno")  # whatever she copies, the pick is Maho
    end_of_hand(state, winners=[seat], tenpai=NO_TENPAI)
    assert "maho_yumeno" in state.deck  # Maho rotates
    assert set(drawn) <= set(state.teams[seat])  # the copied card stays
    assert len(state.teams[seat]) == 6
    assert_conserved(state, DECK)


def test_c05_with_no_card_left_to_deal_the_winner_keeps_the_card_won_with():
    # rule C-05, C-22 Maho: she keeps the cards she draws, so a table of large teams can hold
    # the whole deck; the rulebook is silent, the documented choice is no rotation then
    state = new_match(rules("winner-rotation", 12), DECK[:49], random.Random(3))
    start_hand(state)
    draw_for_ability(state, 1, 1)  # the one card left goes to seat 1 (as Maho's draw)
    assert state.deck == [] and state.out_of_play == []
    pick_all(state)
    won_with = state.picks[0]
    before = [list(t) for t in state.teams]
    events = end_of_hand(state, winners=[0, 2], tenpai=NO_TENPAI)
    assert events == [{"kind": "rotate-skipped", "seat": 0, "kept": won_with},
                      {"kind": "rotate-skipped", "seat": 2, "kept": state.picks[2]}]
    assert state.teams == before and state.deck == []
    assert_conserved(state, DECK[:49])


def test_c05_a_double_ron_rotates_the_second_winner_with_the_first_ones_card():
    state = new_match(rules("winner-rotation", 12), DECK[:49], random.Random(3))
    start_hand(state)
    pick_all(state)
    first = state.picks[0]
    events = end_of_hand(state, winners=[0, 2], tenpai=NO_TENPAI)
    assert [e["kind"] for e in events] == ["rotate", "rotate"]
    assert events[1]["dealt"] == first  # the only card in the deck by then
    assert_conserved(state, DECK[:49])


# --- C-06: tenpai replacement ---------------------------------------------------------------


def test_c06_only_after_a_tenpai_hand_and_once_per_match_per_seat():
    state = match("tenpai-replacement")
    calls = []

    def give_back_first(seat, team, new_card):
        calls.append(seat)
        return team[0]

    start_hand(state)
    pick_all(state)
    before = [list(t) for t in state.teams]
    end_of_hand(state, winners=[], tenpai=NO_TENPAI, replace_choice=give_back_first)
    assert calls == [] and state.teams == before  # nobody tenpai: nothing happens

    start_hand(state)
    pick_all(state)
    events = end_of_hand(
        state, winners=[], tenpai=[False, True, False, False], replace_choice=give_back_first
    )
    assert calls == [1]
    assert events[0]["returned"] == before[1][0] and before[1][0] in state.deck
    assert events[0]["dealt"] in state.teams[1] and len(state.teams[1]) == 4
    assert state.replacement_used == [False, True, False, False]

    start_hand(state)
    pick_all(state)
    end_of_hand(state, winners=[], tenpai=[False, True, False, False],
                replace_choice=give_back_first)
    assert calls == [1]  # used up for the match
    assert_conserved(state, DECK)


def test_c06_declining_keeps_the_team_and_the_right():
    state = match("tenpai-replacement")
    start_hand(state)
    pick_all(state)
    before = [list(t) for t in state.teams]
    deck_size = len(state.deck)
    events = end_of_hand(state, winners=[0], tenpai=[True] * 4,
                         replace_choice=lambda seat, team, new_card: None)
    assert [e["kind"] for e in events] == ["replace-declined"] * 4
    assert state.teams == before and len(state.deck) == deck_size
    assert state.replacement_used == [False] * 4
    assert_conserved(state, DECK)


def test_c06_default_policy_returns_an_unpicked_character_or_declines():
    state = match("tenpai-replacement")
    choose = default_replace_choice(state)
    team = state.teams[0]
    state.pick_counts[0] = {team[0]: 2, team[2]: 1}
    assert choose(0, list(team), "x") == team[1]  # first never-picked character
    state.pick_counts[0] = {c: 1 for c in team}
    assert choose(0, list(team), "x") is None  # every character used: decline


def test_c06_returning_the_new_card_uses_the_replacement():
    state = match("tenpai-replacement")
    start_hand(state)
    pick_all(state)
    before = list(state.teams[2])
    end_of_hand(state, winners=[], tenpai=[False, False, True, False],
                replace_choice=lambda seat, team, new_card: new_card)
    assert state.teams[2] == before and state.replacement_used[2]


def test_c06_with_no_card_to_draw_the_replacement_waits_unused():
    # rule C-06: "they may draw a new card"; with none left (Maho keeps hers) it is not offered
    state = new_match(rules("tenpai-replacement", 12), DECK[:49], random.Random(4))
    start_hand(state)
    draw_for_ability(state, 3, 1)
    pick_all(state)
    before = [list(t) for t in state.teams]
    events = end_of_hand(state, winners=[], tenpai=[True, False, True, False],
                         replace_choice=lambda seat, team, new_card: team[0])
    assert events == [{"kind": "replace-skipped", "seat": 0},
                      {"kind": "replace-skipped", "seat": 2}]
    assert state.teams == before and state.replacement_used == [False] * 4
    assert_conserved(state, DECK[:49])


# --- C-07: rapid ----------------------------------------------------------------------------


def test_c07_rapid_deals_two_fresh_cards_every_hand_and_takes_all_back():
    state = match("rapid", seed=3)
    assert state.teams == [[], [], [], []] and len(state.deck) == len(DECK)
    seen = []
    for _hand in range(4):
        start_hand(state)
        assert all(len(t) == 2 for t in state.teams)  # rule C-07
        for seat in range(4):
            assert options_for_hand(state, seat) == state.teams[seat]
        seen.append([list(t) for t in state.teams])
        pick_all(state)
        events = end_of_hand(state, winners=[0], tenpai=NO_TENPAI)
        assert events[0]["kind"] == "rapid-return" and len(events[0]["cards"]) == 8
        assert state.teams == [[], [], [], []] and sorted(state.deck) == sorted(DECK)
    assert len({tuple(map(tuple, hand)) for hand in seen}) == 4  # fresh deals


# --- C-08: draft ----------------------------------------------------------------------------


def test_c08_draft_deals_seven_passes_left_keeps_six_discards_the_seventh():
    state = match("draft", draft_pick=lambda seat, pile: pile[0])
    first = state.draft[0]
    assert all(len(entry["pile"]) == 7 for entry in first)  # 7 dealt each
    assert [len(r[0]["pile"]) for r in state.draft] == [7, 6, 5, 4, 3, 2]  # last pick from 2
    for before, after in zip(state.draft, state.draft[1:], strict=False):
        for seat in range(4):
            right = (seat - 1) % 4  # a pile comes from the right, i.e. the previous seat
            passed = [c for c in before[right]["pile"] if c != before[right]["kept"]]
            assert sorted(after[seat]["pile"]) == sorted(passed)
    for seat in range(4):
        assert len(state.teams[seat]) == 6
        assert state.teams[seat] == [r[seat]["kept"] for r in state.draft]
    assert len(state.out_of_play) == 4  # the 7th card of each pile
    assert len(state.deck) == len(DECK) - 28
    assert_conserved(state, DECK)


def test_c08_new_character_every_hand_until_five_played_then_refresh():
    state = match("draft", seed=5)
    team = list(state.teams[0])
    played = []
    for hand in range(5):
        start_hand(state)
        options = options_for_hand(state, 0)
        assert options == [c for c in team if c not in played]
        if played:
            with pytest.raises(TeamError, match="cannot pick"):
                record_pick(state, 0, played[-1])  # no repeat before the refresh
        record_pick(state, 0, options[-1])
        played.append(options[-1])
        end_of_hand(state, winners=[], tenpai=NO_TENPAI)
        assert state.played[0] == (played if hand < 4 else [])
    start_hand(state)
    assert options_for_hand(state, 0) == team  # 5 of 6 played: refreshed, all available
    assert state.teams[0] == team  # the draft team never changes


# --- C-10, Himeko: the deck ------------------------------------------------------------------


def test_c10_east_only_preset_removes_exactly_yuuki_and_kazue():
    # rule C-10: the shipped East-only preset lists the two cards
    full = deck_for(CATALOG, load_preset("cards-hanchan").cards, only_playable=False)
    east = deck_for(CATALOG, load_preset("cards-tonpuusen").cards, only_playable=False)
    assert set(full) - set(east) == {"yuuki_kataoka", "kazue_nanpo"}
    assert set(east) <= set(full) and len(full) == 53


def test_c10_an_extending_preset_adds_its_exclusions_to_the_inherited_ones(tmp_path):
    # rule C-10: a preset extending cards-tonpuusen with its own exclude list keeps the
    # East-only exclusions (the lists add up); an empty list or the same card twice changes
    # nothing; replace_exclude = true needs the file's own list
    more = tmp_path / "east-more.toml"
    more.write_text('extends = "cards-tonpuusen"\nname = "east-more"\n[cards]\n'
                    'exclude = ["nodoka_haramura", "kazue_nanpo"]\n')
    assert load_preset(str(more)).cards.exclude == ("kazue_nanpo", "yuuki_kataoka",
                                                    "nodoka_haramura")
    same = tmp_path / "east-same.toml"
    same.write_text('extends = "cards-tonpuusen"\nname = "east-same"\n[cards]\nexclude = []\n')
    assert load_preset(str(same)).cards.exclude == ("kazue_nanpo", "yuuki_kataoka")
    chained = tmp_path / "east-chained.toml"
    chained.write_text('extends = "east-more.toml"\n[cards]\nexclude = ["saki_miyanaga"]\n')
    assert load_preset(str(chained)).cards.exclude == ("kazue_nanpo", "yuuki_kataoka",
                                                       "nodoka_haramura", "saki_miyanaga")
    bare = tmp_path / "east-bare.toml"
    bare.write_text('extends = "cards-tonpuusen"\n[cards]\nreplace_exclude = true\n')
    with pytest.raises(PresetError, match=r"east-bare\.toml: \[cards\] key 'replace_exclude': "
                                          r"true needs this file's own 'exclude' list"):
        load_preset(str(bare))
    typed = tmp_path / "east-typed.toml"
    typed.write_text('extends = "cards-tonpuusen"\n[cards]\nreplace_exclude = "yes"\n'
                     'exclude = []\n')
    with pytest.raises(PresetError, match=r"'replace_exclude': expected true or false"):
        load_preset(str(typed))


def test_c10_exclusions_are_switched_by_the_preset_both_ways(tmp_path):
    # rule C-10, as 'saki presets show' says of [cards] exclude: an East-only preset that
    # replaces the list with an empty one keeps Yuuki and Kazue in the deck (the catalog flag
    # only names them), and a hanchan preset that lists them removes them; the deck a match
    # is dealt from follows
    keep = tmp_path / "east-all.toml"
    keep.write_text('extends = "cards-tonpuusen"\nname = "east-all"\n[cards]\nexclude = []\n'
                    'replace_exclude = true\n')
    drop = tmp_path / "hanchan-c10.toml"
    drop.write_text('extends = "cards-hanchan"\nname = "hanchan-c10"\n[cards]\n'
                    'exclude = ["kazue_nanpo", "yuuki_kataoka"]\n')
    two = {"yuuki_kataoka", "kazue_nanpo"}
    kept, dropped = load_preset(str(keep)), load_preset(str(drop))
    assert kept.length == "tonpuusen" and kept.cards.exclude == ()
    assert two <= set(deck_for(CATALOG, kept.cards, only_playable=False))
    assert not two & set(deck_for(CATALOG, dropped.cards, only_playable=False))
    assert set(CATALOG.east_only_exclusions()) == two
    for preset, present in ((kept, True), (load_preset("cards-tonpuusen"), False)):
        table = CardTable(preset, [RandomAgent(s) for s in range(4)], seed=1, match_index=0,
                          catalog=CATALOG)
        dealt = set(table.state.deck) | {c for team in table.state.teams for c in team}
        assert (two <= dealt) is present and (not two & dealt) is not present


def test_himeko_is_never_in_the_deck_nor_dealt():
    assert "himeko_tsuruta" not in DECK
    for mode in MODES:
        for seed in range(10):
            state = match(mode, seed)
            if mode == "rapid":
                start_hand(state)
            assert "himeko_tsuruta" not in state.all_cards()


# --- determinism, records, errors ------------------------------------------------------------


def play_some(mode: str, seed: int) -> list[dict]:
    state = new_match(rules(mode), DECK, match_rng(seed, 0))
    records = [state.to_dict()]
    for hand in range(6):
        start_hand(state)
        pick_all(state, lambda options: state.rng.choice(options))
        end_of_hand(state, winners=[hand % 4], tenpai=[hand % 2 == 0] * 4)
        records.append(state.to_dict())
    return records


@pytest.mark.parametrize("mode", MODES)
def test_same_seed_same_teams_and_json_records(mode):
    assert play_some(mode, 7) == play_some(mode, 7)
    assert play_some(mode, 7) != play_some(mode, 8)
    record = json.loads(json.dumps(play_some(mode, 7)[-1]))
    assert record["mode"] == mode and record["deck_size"] >= 0
    assert len(record["teams"]) == 4 and len(record["picks"]) == 4


def test_short_deck_error_names_mode_and_team_size():
    with pytest.raises(TeamError, match=r"'winner-rotation' with team_size 4 needs 17"):
        new_match(rules("winner-rotation"), DECK[:16], random.Random(0))
    with pytest.raises(TeamError, match=r"'draft' with team_size 6 needs 28"):
        new_match(rules("draft"), DECK[:27], random.Random(0))
    with pytest.raises(TeamError, match="disabled"):
        new_match(CardRules(), DECK, random.Random(0))


def test_empty_deck_refills_from_out_of_play_then_raises():
    state = new_match(rules("draft", 2), DECK[:12], random.Random(0))  # 4 x 3 dealt, 4 out
    assert state.deck == [] and len(state.out_of_play) == 4
    start_hand(state)
    draw_for_ability(state, 0, 4)  # the out-of-play cards are reshuffled in
    with pytest.raises(TeamError, match=r"deck is empty: mode 'draft', team_size 2"):
        draw_for_ability(state, 1, 1)


# --- property: conservation -----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32),
    hands=st.lists(
        st.tuples(
            st.lists(st.integers(0, 3), max_size=3, unique=True),
            st.lists(st.booleans(), min_size=4, max_size=4),
            st.integers(0, 100),
            st.booleans(),
        ),
        max_size=12,
    ),
)
def test_no_card_held_twice_and_cards_conserved(mode, seed, hands):
    size = {"rapid": 2, "draft": 6}.get(mode, 4)
    state = new_match(rules(mode, size), DECK, random.Random(seed))
    assert_conserved(state, DECK)
    for winners, tenpai, choice, maho_draw in hands:
        start_hand(state)
        assert_conserved(state, DECK)
        if maho_draw and len(state.deck) + len(state.out_of_play) >= 2:
            draw_for_ability(state, choice % 4, 2)
            assert_conserved(state, DECK)
        for seat in range(4):
            options = options_for_hand(state, seat)
            assert options and set(options) <= set(state.teams[seat])
            record_pick(state, seat, options[choice % len(options)])
        end_of_hand(state, winners=winners, tenpai=tenpai)
        assert_conserved(state, DECK)
        if mode != "rapid":
            assert all(len(t) >= size for t in state.teams)
