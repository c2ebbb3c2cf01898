"""Character-card teams for one match: dealing, per-hand options and end-of-hand changes.

Pure and seeded: every random choice comes from the ``random.Random`` the caller hands to
:func:`new_match` (see :func:`match_rng`: seeded from ``(seed, match index, "cards")``), so the same
seed gives the same teams, options and rotations. The match loop drives one :class:`TeamState` per
match through this cycle::

    state = new_match(card_rules, deck_for(catalog, card_rules, only_playable), rng)
    for each hand:
        start_hand(state)                      # rapid: deals the hand's cards
        for each seat: record_pick(state, seat, <one of options_for_hand(state, seat)>)
        end_of_hand(state, winners=[...], tenpai=[...])

``team_size`` (``[cards] team_size``) is the number of characters a seat holds in every mode:
the team for standard, winner rotation and tenpai replacement (C-02: 4; the 2022 tournament: 6),
the cards dealt every hand in rapid (C-07: 2), the team kept after the draft (C-08: 6, from
``team_size + 1`` dealt cards).

Where each card is: in the ``deck`` (draw pile, top at the end of the list), in one seat's
``teams`` entry, or ``out_of_play`` (the draft's last cards, C-08). Every card is in exactly one of
these places at any time; cards leave and join the deck only through this module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.cards.catalog import Catalog
from pipeline.cards.registry import effect_is_implemented
from pipeline.errors import LabError
from pipeline.rules.preset import CardRules

MODES = ("standard", "winner-rotation", "tenpai-replacement", "rapid", "draft")
SEATS = 4

ReplaceChoice = Callable[[int, list[str], str], str | None]
DraftPick = Callable[[int, list[str]], str]


class TeamError(LabError):
    """A team operation that the rules or the deck do not allow; the message says why."""


@dataclass
class TeamState:
    """The character cards of one match.

    ``deck`` is the draw pile (drawn from the end); ``teams[seat]`` the characters the seat holds
    (rapid: the cards dealt this hand); ``out_of_play`` cards removed for the match (the draft's
    last cards); ``picks[seat]`` the character picked this hand (None before the pick);
    ``pick_counts[seat]`` how often each character was picked this match; ``played[seat]`` the
    characters played since the last refresh (draft only, C-08); ``replacement_used[seat]`` whether
    the seat has used its tenpai replacement (C-06); ``draft`` the draft's piles and picks, round by
    round; ``history`` one entry per finished hand (picks and end-of-hand events).
    """

    rules: CardRules
    rng: random.Random
    deck: list[str]
    teams: list[list[str]]
    seats: int = SEATS
    hand: int = 0  # hands started so far
    in_hand: bool = False
    picks: list[str | None] = field(default_factory=list)
    pick_counts: list[dict[str, int]] = field(default_factory=list)
    played: list[list[str]] = field(default_factory=list)
    replacement_used: list[bool] = field(default_factory=list)
    out_of_play: list[str] = field(default_factory=list)
    draft: list[list[dict[str, Any]]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    idle: int | None = None  # a seat dealt no cards (a card trial's holder plays outside)

    @property
    def mode(self) -> str:
        return self.rules.team_mode

    def all_cards(self) -> list[str]:
        """Every card of the match, wherever it is (deck, teams, out of play)."""
        return [*self.deck, *(c for team in self.teams for c in team), *self.out_of_play]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary for the hand record: mode, deck size, teams, picks, usage."""
        return {
            "mode": self.mode,
            "team_size": self.rules.team_size,
            "hand": self.hand,
            "deck_size": len(self.deck),
            "teams": [list(t) for t in self.teams],
            "picks": list(self.picks),
            "pick_counts": [dict(sorted(c.items())) for c in self.pick_counts],
            "played": [list(p) for p in self.played],
            "replacement_used": list(self.replacement_used),
            "out_of_play": list(self.out_of_play),
            "last_events": list(self.history[-1]["events"]) if self.history else [],
        }


def match_rng(seed: int, match_index: int) -> random.Random:
    """The card stream of one match, independent of the wall and agent streams."""
    from pipeline.rules.match import derive_seed  # at call time: the match loop imports us

    return random.Random(derive_seed(seed, match_index, "cards"))


def deck_for(catalog: Catalog, card_rules: CardRules, only_playable: bool = True) -> list[str]:
    """Card ids to shuffle for a match, in catalog order: never Himeko (``never_in_deck``),
    and without the preset's ``exclude`` ids. The preset decides the C-10 exclusions of
    East-only games (cards-tonpuusen lists them): a game's length removes no card by itself."""
    implemented = effect_is_implemented if only_playable else None
    return [c.id for c in catalog.deck(exclude=card_rules.exclude, implemented=implemented)]


def cards_needed(card_rules: CardRules, seats: int = SEATS) -> int:
    """The fewest deck cards a mode can be played with.

    Standard and rapid: ``seats x team_size``; winner rotation and tenpai replacement one more
    (a new card must be available to deal); draft ``seats x (team_size + 1)``.
    """
    size = card_rules.team_size
    if card_rules.team_mode == "draft":
        return seats * (size + 1)
    if card_rules.team_mode in ("winner-rotation", "tenpai-replacement"):
        return seats * size + 1
    return seats * size


def new_match(
    card_rules: CardRules,
    deck_ids: Sequence[str],
    rng: random.Random,
    *,
    seats: int = SEATS,
    draft_pick: DraftPick | None = None,
    idle: int | None = None,
) -> TeamState:
    """Shuffle ``deck_ids`` and deal the teams for one match.

    Standard, winner rotation and tenpai replacement (C-02, C-05, C-06): ``team_size`` cards to
    each seat, dealt one at a time from seat 0 round the table. Rapid (C-07): nothing yet;
    :func:`start_hand` deals every hand. Draft (C-08): see :func:`_draft`; ``draft_pick(seat,
    pile)`` chooses the card a seat keeps (default: a random card of the pile, from ``rng``).
    ``deck_ids`` must already be without excluded cards (:func:`deck_for`). ``idle``: a seat
    that is dealt no cards (standard, rotation, replacement and rapid modes), for a card
    trial whose holder plays one card outside the teams.
    """
    if not card_rules.enabled:
        raise TeamError("character cards are disabled in this preset ([cards] enabled = false)")
    if card_rules.team_mode not in MODES:
        raise TeamError(
            f"unknown team_mode {card_rules.team_mode!r}; known: {', '.join(MODES)}"
        )
    deck = list(deck_ids)
    if len(set(deck)) != len(deck):
        dup = sorted({c for c in deck if deck.count(c) > 1})
        raise TeamError(f"deck lists a card more than once: {', '.join(dup)}")
    dealt = seats - (idle is not None and card_rules.team_mode != "draft")
    needed = cards_needed(card_rules, dealt)
    if len(deck) < needed:
        raise TeamError(_short_deck(card_rules, dealt, len(deck), needed))
    rng.shuffle(deck)
    state = TeamState(
        rules=card_rules,
        rng=rng,
        deck=deck,
        teams=[[] for _ in range(seats)],
        seats=seats,
        picks=[None] * seats,
        pick_counts=[{} for _ in range(seats)],
        played=[[] for _ in range(seats)],
        replacement_used=[False] * seats,
        idle=idle,
    )
    mode = card_rules.team_mode
    if mode == "draft":
        _draft(state, draft_pick)
    elif mode != "rapid":
        _deal(state, card_rules.team_size)
    return state


def start_hand(state: TeamState) -> None:
    """Begin a hand: clear the picks; rapid (C-07) deals ``team_size`` fresh cards to each seat."""
    if state.in_hand:
        raise TeamError(f"hand {state.hand} has not ended; call end_of_hand first")
    state.hand += 1
    state.in_hand = True
    state.picks = [None] * state.seats
    if state.mode == "rapid":
        _deal(state, state.rules.team_size)


def options_for_hand(state: TeamState, seat: int) -> list[str]:
    """The characters ``seat`` may pick this hand, in team order.

    Standard, winner rotation, tenpai replacement: the whole team, the last hand's character
    included (C-03, C-04). Rapid: the cards dealt this hand (C-07).

    Draft (C-08: "must pick a new character every hand and may not pick a character again until
    5 of their 6 have been played; when only one unplayed character is left, the team refreshes
    and all are available"): the team minus the characters played since the last refresh. The
    refresh happens in :func:`record_pick` as soon as only one character of the team is unplayed
    (the 5th distinct pick of a 6-card team); the next hand all 6 are available, the one just
    played included, since the rule says "all". So the 6th character is never forced.
    """
    _check_seat(state, seat)
    if not state.in_hand:
        raise TeamError("no hand in progress; call start_hand first")
    team = state.teams[seat]
    if state.mode == "draft":
        played = set(state.played[seat])
        return [c for c in team if c not in played]
    return list(team)


def record_pick(state: TeamState, seat: int, card_id: str) -> None:
    """Record the character ``seat`` plays this hand (one pick per seat and hand)."""
    options = options_for_hand(state, seat)
    if state.picks[seat] is not None:
        raise TeamError(f"seat {seat} already picked {state.picks[seat]!r} in hand {state.hand}")
    if card_id not in options:
        raise TeamError(
            f"seat {seat} cannot pick {card_id!r} in hand {state.hand}; "
            f"options: {', '.join(options) or 'none'}"
        )
    state.picks[seat] = card_id
    counts = state.pick_counts[seat]
    counts[card_id] = counts.get(card_id, 0) + 1
    if state.mode == "draft":
        state.played[seat].append(card_id)
        unplayed = [c for c in state.teams[seat] if c not in state.played[seat]]
        if len(unplayed) <= 1:
            state.played[seat] = []  # C-08 refresh: all characters available again


def draw_for_ability(state: TeamState, seat: int, count: int) -> list[str]:
    """Deal ``count`` deck cards into ``seat``'s team for an ability (Maho Yumeno draws 2 and
    keeps both, C-22). Under winner rotation only the picked card rotates, so the drawn cards
    stay in the team; in rapid they go back with the rest after the hand (C-07)."""
    _check_seat(state, seat)
    drawn = [_draw(state) for _ in range(count)]
    state.teams[seat].extend(drawn)
    return drawn


def default_replace_choice(state: TeamState) -> ReplaceChoice:
    """The default tenpai-replacement policy (C-06) for ``state``.

    The seat's pick counts stand for what it thinks of its characters. It returns the character
    it picked least, earliest in team order on ties, but only if that character was never picked
    this match; when every character has been picked at least once, the new (unknown) card is
    taken to be no better and the seat declines.
    """

    def choose(seat: int, team: list[str], new_card: str) -> str | None:
        counts = state.pick_counts[seat]
        unpicked = [c for c in team if counts.get(c, 0) == 0]
        return unpicked[0] if unpicked else None

    return choose


def end_of_hand(
    state: TeamState,
    *,
    winners: Sequence[int],
    tenpai: Sequence[bool],
    replace_choice: ReplaceChoice | None = None,
) -> list[dict[str, Any]]:
    """Apply the mode's end-of-hand changes and return them as JSON-ready events.

    Winner rotation (C-05): each winner, in the order given, is dealt a new card into the place of
    the character they won with, which is then shuffled back into the deck. The card that rotates
    is the picked card id, whatever it copied (Maho Yumeno rotates herself, C-22). The rulebook
    deals the new card first; when no card is left to deal (Maho keeps the cards she draws, so
    large teams can hold the whole deck), the winner keeps the character they won with
    (a ``rotate-skipped`` event): the rulebook is silent, and this is the choice
    ``docs/team-modes.md`` documents.

    Tenpai replacement (C-06): each seat in seat order that was tenpai (as the caller reports:
    a winner counts if marked tenpai) and has not used its replacement draws a new card and
    calls ``replace_choice(seat, team, new_card)`` (default :func:`default_replace_choice`). It
    returns the character to shuffle back (one of the team, or the new card itself) and the
    replacement is used up; or None to decline: the new card goes back into the deck, the team
    is unchanged and the seat keeps its once-per-match replacement. With no card to draw the
    replacement is not offered and stays unused (a ``replace-skipped`` event).

    Rapid (C-07): all dealt cards go back into the deck, which is reshuffled. Standard and draft:
    no change.
    """
    if not state.in_hand:
        raise TeamError("no hand in progress; call start_hand first")
    if len(tenpai) != state.seats:
        raise TeamError(f"tenpai must have one entry per seat ({state.seats}), got {len(tenpai)}")
    if len(set(winners)) != len(winners):
        raise TeamError(f"winners lists a seat more than once: {list(winners)}")
    for seat in winners:
        _check_seat(state, seat)
    events: list[dict[str, Any]] = []
    mode = state.mode
    if mode == "winner-rotation":
        for seat in winners:
            events.append(_rotate(state, seat))
    elif mode == "tenpai-replacement":
        choose = replace_choice or default_replace_choice(state)
        for seat in range(state.seats):
            if tenpai[seat] and not state.replacement_used[seat]:
                events.append(_replace(state, seat, choose))
    elif mode == "rapid":
        returned = [c for team in state.teams for c in team]
        for team in state.teams:
            team.clear()
        _return(state, returned)
        events.append({"kind": "rapid-return", "cards": returned})
    state.history.append({"hand": state.hand, "picks": list(state.picks), "events": events})
    state.in_hand = False
    return events


# --- internals ------------------------------------------------------------------------------


def _deal(state: TeamState, per_seat: int) -> None:
    for _ in range(per_seat):
        for seat in range(state.seats):
            if seat != state.idle:
                state.teams[seat].append(_draw(state))


def _draft(state: TeamState, draft_pick: DraftPick | None) -> None:
    """C-08: each seat is dealt ``team_size + 1`` cards (7), keeps one and passes the rest to the
    left, receiving a pile from the right. "Left" is the next seat in turn order (seat + 1), so a
    seat receives the pile of the previous seat (seat - 1). After ``team_size`` picks, the last
    from two cards, the one card left in each pile is discarded: out of play for the match."""
    size = state.rules.team_size
    piles = [[_draw(state) for _ in range(size + 1)] for _ in range(state.seats)]
    pick = draft_pick or (lambda seat, pile: state.rng.choice(pile))
    for _ in range(size):
        round_log = []
        for seat in range(state.seats):
            pile = piles[seat]
            before = list(pile)
            kept = pick(seat, list(before))
            if kept not in pile:
                raise TeamError(f"draft: seat {seat} kept {kept!r}, not in its pile {pile}")
            pile.remove(kept)
            state.teams[seat].append(kept)
            round_log.append({"seat": seat, "pile": before, "kept": kept})
        state.draft.append(round_log)
        piles = [piles[(seat - 1) % state.seats] for seat in range(state.seats)]
    for pile in piles:
        state.out_of_play.extend(pile)


def _rotate(state: TeamState, seat: int) -> dict[str, Any]:
    won_with = state.picks[seat]
    if won_with is None:
        raise TeamError(f"winner rotation: seat {seat} won hand {state.hand} without a pick")
    if not _can_draw(state):  # every card is held (Maho keeps hers): no new card to deal
        return {"kind": "rotate-skipped", "seat": seat, "kept": won_with}
    new_card = _draw(state)
    team = state.teams[seat]
    team[team.index(won_with)] = new_card
    _return(state, [won_with])
    return {"kind": "rotate", "seat": seat, "returned": won_with, "dealt": new_card}


def _replace(state: TeamState, seat: int, choose: ReplaceChoice) -> dict[str, Any]:
    if not _can_draw(state):  # no card to draw: the seat keeps its once-per-match replacement
        return {"kind": "replace-skipped", "seat": seat}
    new_card = _draw(state)
    team = state.teams[seat]
    back = choose(seat, list(team), new_card)
    if back is None:
        _return(state, [new_card])
        return {"kind": "replace-declined", "seat": seat}
    if back != new_card and back not in team:
        _return(state, [new_card])
        raise TeamError(
            f"tenpai replacement: seat {seat} returned {back!r}, which is neither in its team "
            f"({', '.join(team)}) nor the new card {new_card!r}"
        )
    state.replacement_used[seat] = True
    if back != new_card:
        team[team.index(back)] = new_card
    _return(state, [back])
    return {"kind": "replace", "seat": seat, "returned": back, "dealt": new_card}


def _return(state: TeamState, cards: list[str]) -> None:
    """Shuffle cards back into the deck."""
    state.deck.extend(cards)
    state.rng.shuffle(state.deck)


def _can_draw(state: TeamState) -> bool:
    """Whether :func:`_draw` has a card to give (the deck, or the out-of-play cards)."""
    return bool(state.deck or state.out_of_play)


def _draw(state: TeamState) -> str:
    """The top deck card. An empty deck is refilled from the out-of-play cards, shuffled; with
    none of those either, TeamError names the mode and the team sizes."""
    if not state.deck and state.out_of_play:
        state.deck, state.out_of_play = state.out_of_play, []
        state.rng.shuffle(state.deck)
    if not state.deck:
        sizes = ", ".join([str(len(t)) for t in state.teams])
        raise TeamError(
            f"the card deck is empty: mode {state.mode!r}, team_size {state.rules.team_size}, "
            f"teams hold {sizes} cards and none are out of play; use a larger deck "
            f"(only_playable=False, fewer exclusions) or a smaller team_size"
        )
    return state.deck.pop()


def _short_deck(card_rules: CardRules, seats: int, have: int, needed: int) -> str:
    mode, size = card_rules.team_mode, card_rules.team_size
    how = {
        "draft": f"{seats} seats x {size + 1} dealt cards",
        "winner-rotation": f"{seats} seats x {size} cards + 1 to deal",
        "tenpai-replacement": f"{seats} seats x {size} cards + 1 to deal",
        "rapid": f"{seats} seats x {size} cards every hand",
    }.get(mode, f"{seats} seats x {size} cards")
    return (
        f"the deck has {have} cards; mode {mode!r} with team_size {size} needs {needed} "
        f"({how})"
    )


def _check_seat(state: TeamState, seat: int) -> None:
    if not (isinstance(seat, int) and 0 <= seat < state.seats):
        raise TeamError(f"seat must be 0..{state.seats - 1}, got {seat!r}")
