"""The table checks of the card random-play tests, written once.

A card test wraps every seat's agent in :class:`TableChecker` (or a subclass that adds its
cards' own checks) and plays its matches with :func:`play_checked`. At every decision:

- all 136 tiles (108 with three players, rule S-01) are in exactly one place: hands, melds,
  ponds, Norths set aside (S-03), the live wall, the dead wall (replacement tiles, indicators,
  tiles moved there by kans and by abilities, the dead-wall tiles left to draw past the live
  wall) and the tiles kept beside a hand; only a tile claimed by ron may be in the air; the
  dead wall holds 14 tiles plus 2 per indicator past the fifth (rule C-19) until draws go on
  into it;
- there is a legal action, every one for the seat asked, none offered twice, and the answer is
  one of them;
- only offers the rules allow (``check_offer`` of ``tests/support/rule_checks.py``), but the calls
  a card grants: a priority call takes a tile from another seat's pond, not in riichi;
- points are conserved: scores, riichi sticks and stakes (rule C-18) make one starting stack
  a player;
- kans are counted alike by seats, melds and table, each (and each North set aside, S-03)
  with its replacement tile drawn;
- outside an ability's own steps a seat holds 13 tiles (14 on its turn), a kan counting three.

At every hand end and match end the records get the card-free checks of
``tests/support/rule_checks.py`` (a win without yaku only where a card allows it).

A card file changes the checker only through small, named extension points:
:meth:`TableChecker.in_step` (steps that move tiles between hand and wall),
``TableChecker.turn_steps`` (choices offered during a seat's turn), ``replacements`` (whether
every kan's replacement comes from the rinshan tiles), :meth:`TableChecker.check_sizes`,
:meth:`TableChecker.check_cards` (the cards' own checks before the answer) and
:meth:`TableChecker.note` (what the file counts from the answer).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Protocol

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.agents import Agent, Observation
from pipeline.rules.hand import HandState
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import Preset
from pipeline.rules.records import DrawSource, Event, HandRecord, HandStart
from tests.support.rule_checks import CALLS, check_hand_end, check_match, check_offer

CATALOG = load_catalog("1.2")
OWN_TURN = frozenset({ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.TSUMO,
                      ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.NINE_TERMINALS})
WALL_STEPS = ("put_live", "put_dead", "swap")  # tiles in hand move during these steps
WITHOUT_YAKU = "kaori_senoo"  # her card lets a hand without yaku win


def step_name(action: Action) -> str:
    """The step of an ability action (its tag), or "" for any other action."""
    if action.kind != ActionKind.ABILITY or action.tag is None:
        return ""
    return str(action.tag)


# ------------------------------------------------------------------------- the generic checks

def tile_places(state: HandState) -> list[Sequence[int]]:
    """Every place a tile may lie: hands, melds, ponds (a called discard lives on in the
    caller's meld), the walls, and the tiles beside a hand."""
    w = state.wall
    places: list[Sequence[int]] = [w.live, w.rinshan, w.indicators, w.ura, w.reserve,
                                   w.dead_end, w.extension or (), *state.aside.values()]
    for p in state.players:
        places.append(p.concealed)
        if p.melds:
            places.extend(m.tiles for m in p.melds)
        places.append([d.tile for d in p.discards if not d.called])
        places.append(p.kita)  # Norths set aside (three players, S-03)
    return places


def all_tiles(state: HandState) -> list[int]:
    """Every tile the table holds, in any place (the tiles beside a hand included)."""
    return list(chain.from_iterable(tile_places(state)))


def check_tiles(state: HandState, in_flight: set[int]) -> None:
    """Rule H-01: each of the 136 tiles (S-01: 108) in exactly one place, but a tile in the
    air."""
    places = tile_places(state)
    present = set(chain.from_iterable(places))
    if len(present) != sum(map(len, places)):
        doubled = sorted(t for t, n in Counter(all_tiles(state)).items() if n > 1)
        raise AssertionError(f"tiles in two places: {doubled}")
    missing = set(state.wall.order) - present
    assert present <= set(state.wall.order), "a tile that is not in this game's wall"
    assert missing <= in_flight, f"tiles missing: {sorted(missing - in_flight)}"


def check_dead_wall(state: HandState) -> None:
    """Rule K-07: 14 dead-wall tiles; C-19: 2 more per indicator past the fifth. Draws past
    the live wall (an ability's rule) change the count: then it is not checked."""
    w = state.wall
    if w.extension is not None:
        return
    extra = len(w.indicators) - 5  # rule C-19
    dead = len(w.rinshan) + len(w.indicators) + len(w.ura) + len(w.reserve)
    assert extra >= 0 and len(w.ura) == len(w.indicators)
    assert dead == 14 + 2 * extra, f"dead wall holds {dead} tiles"
    assert 1 <= w.revealed <= len(w.indicators)


def check_points(state: HandState, preset: Preset) -> None:
    """Scores, riichi sticks and stakes (rule C-18) always make one starting stack a player."""
    total = sum(state.scores) + 1000 * state.sticks + state.stakes
    assert total == preset.players * preset.start_points, f"points not conserved: {total}"


def check_offers(seat: int, legal: list[Action]) -> None:
    """A legal action, every one for the seat asked, none offered twice."""
    assert legal, f"P{seat} has no legal action"
    assert all(a.seat == seat for a in legal)
    assert len(set(legal)) == len(legal), "an action is offered twice"


def check_hand_sizes(state: HandState, seat: int, legal: list[Action],
                     on_turn: bool = False) -> None:
    """Rule H-02, H-04: 13 tiles a seat (a kan counting three), 14 for the seat on turn. With
    ``on_turn`` (a card's choice offered during a seat's turn, between its draw or call and
    its discard), one seat, whose turn it is, may hold 14."""
    sizes = [len(p.concealed) + 3 * len(p.melds) for p in state.players]
    if on_turn and not any(a.kind in OWN_TURN for a in legal):
        assert all(n in (13, 14) for n in sizes) and sizes.count(14) <= 1, \
            f"hand sizes {sizes} at a choice during a turn"
        return
    own = any(a.kind in OWN_TURN for a in legal)
    for p, size in zip(state.players, sizes, strict=True):
        expected = 14 if own and p.seat == seat else 13
        assert size == expected, f"P{p.seat} holds {size} tiles, expected {expected}"


def melds_swapped(state: HandState) -> bool:
    """Whether an ability moved melds between seats this hand (a kan then lies with a seat
    that did not declare it): Yumi Kajiki's swaps are of melds."""
    return any(e.kind == "ability" and e.tag is AbilityTag.SWAPPED and e.card == "yumi_kajiki"
               for e in state.events)


def check_kans(state: HandState, legal: list[Action], replacements: bool = True) -> None:
    """Rule K-08: at most four kans a seat, counted alike by seats, melds and table (melds
    moved between seats move their kans). K-07: with ``replacements``, each kan (and each
    North set aside, S-03) took its replacement from the rinshan tiles and moved a live tile
    to the dead wall (until draws go on past the live wall); while a card offers its own draw
    (ability actions and a pass only), the last kan's replacement may still wait."""
    declared = held = 0
    for p in state.players:  # rule K-08
        n = sum(1 for m in p.melds if m.is_kan) if p.melds else 0
        assert p.kans <= 4
        assert p.kans == n or melds_swapped(state), f"P{p.seat}: {p.kans} kans, {n} held"
        declared += p.kans
        held += n
    assert declared == held == state.kan_count
    if not replacements or state.wall.extension is not None:
        return
    drawn = 4 - state.wall.rinshan_left
    assert drawn == len(state.wall.reserve)
    kitas = sum(1 for e in state.events if e.drawn_from is DrawSource.KITA)
    due = min(declared + kitas, 4)
    if due != drawn:
        waiting = all(a.kind in (ActionKind.ABILITY, ActionKind.PASS) for a in legal)
        assert waiting and due - drawn == 1, \
            f"{declared} kans and {kitas} Norths, {drawn} replacements drawn"


def last_discard(state: HandState) -> Event:
    """The latest discard of the hand."""
    return next(e for e in reversed(state.events) if e.kind == "discard")


def card_calls(state: HandState, seat: int, legal: list[Action]) -> list[Action]:
    """Calls a card grants beyond rule H-05's and H-08's: priority calls (``:priority``, from
    any seat's discard) and, in riichi, a kan on a discard where the seat's kans become
    closed."""
    riichi_kan = state.players[seat].riichi and state._kans_closed(seat)
    return [a for a in legal if a.tag is AbilityTag.PRIORITY
            or (riichi_kan and a.kind == ActionKind.MINKAN)]


def check_card_calls(state: HandState, seat: int, calls: list[Action]) -> None:
    """A priority call is made on another seat's discard, not in riichi, not on the last
    discard (rule K-03, the wall's one notion of it), and takes a tile lying in that seat's
    pond (the discard on offer or an earlier one)."""
    priority = [a for a in calls if a.tag is AbilityTag.PRIORITY]
    if not priority:
        return
    last = last_discard(state)
    assert last.seat != seat and not state.players[seat].riichi and not state.wall.last_discard
    pond = state._pond_tiles()[last.seat]
    assert all(a.tile in pond for a in priority), "a priority call on a tile not in the pond"


# ------------------------------------------------------------------------- the checking agent

@dataclass
class Tally:
    """What the checks saw, so a test can show its cards acted: decisions, the action kinds
    and ability steps chosen, and whatever the card file counts itself."""

    decisions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    steps: Counter[str] = field(default_factory=Counter)
    seen: Counter[str] = field(default_factory=Counter)


class TableChecker:
    """Checks the table at every decision, then lets the wrapped agent answer."""

    replacements = True  # every kan's replacement comes from the rinshan tiles (K-07)
    # ability steps a card offers during a seat's turn, when that seat holds its drawn or
    # called tile; None where any card may be dealt: a choice may then come amid another
    # card's steps (a seat holds 12 tiles between Yoshiko Kainou's second discard and her
    # draw), and the hand sizes are not checked at choices of ability steps and passes
    # alone
    turn_steps: frozenset[str] | None = frozenset()

    def __init__(self, inner: Agent, preset: Preset, tally: Tally) -> None:
        self.inner = inner
        self.preset = preset
        self.tally = tally

    @classmethod
    def seats(cls, make_agent: Callable[[int], Agent], stream: str, match_index: int,
              *args: object) -> list[TableChecker]:
        """One checker a seat, each around an agent seeded from (stream, match, seat); ``args``
        go to the checker after the agent."""
        seats = next((a.players for a in args if isinstance(a, Preset)), 4)
        return [cls(make_agent(derive_seed(stream, match_index, s)), *args)
                for s in range(seats)]

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        state: HandState = obs._state
        kinds = {a.kind for a in legal}
        check_offers(obs.seat, legal)
        check_tiles(state, {a.tile for a in legal if a.kind == ActionKind.RON}
                    if ActionKind.RON in kinds else set())
        check_dead_wall(state)
        check_points(state, self.preset)
        check_kans(state, legal, self.replacements)
        granted = card_calls(state, obs.seat, legal) if kinds & CALLS else []
        if granted:
            check_card_calls(state, obs.seat, granted)
            legal_by_rules = [a for a in legal if a not in granted]
        check_offer(state, obs.seat, legal_by_rules if granted else legal, self.preset)
        if not self.in_step(obs, legal):
            self.check_sizes(state, obs.seat, legal)
        self.check_cards(obs, legal)
        choice = self.inner.decide(obs, legal)
        assert any(a is choice for a in legal) or choice in legal, \
            f"{choice} is not among the legal actions"
        self.tally.decisions += 1
        self.tally.kinds[choice.kind] += 1  # a StrEnum: counted under its value
        if choice.kind == ActionKind.ABILITY:
            self.tally.steps[step_name(choice)] += 1
        self.note(obs, choice)
        return choice

    # -- extension points

    def in_step(self, obs: Observation, legal: list[Action]) -> bool:
        """Whether this decision is one of an ability's own steps where tiles move between
        hand and wall: the hand sizes are not checked."""
        return any(a.kind == ActionKind.ABILITY and step_name(a) in WALL_STEPS for a in legal)

    def check_sizes(self, state: HandState, seat: int, legal: list[Action]) -> None:
        """The hand sizes outside the steps of :meth:`in_step`; at a choice of ability steps
        (and passes), the seat on turn may hold 14 if a step is in ``turn_steps`` (none
        checked if ``turn_steps`` is None)."""
        on_turn = False
        if all(a.kind in (ActionKind.ABILITY, ActionKind.PASS) for a in legal):
            if self.turn_steps is None:
                return
            steps = {step_name(a) for a in legal if a.kind == ActionKind.ABILITY}
            on_turn = bool(steps & self.turn_steps)
        check_hand_sizes(state, seat, legal, on_turn)

    def check_cards(self, obs: Observation, legal: list[Action]) -> None:
        """The cards' own checks at a decision (none here)."""

    def note(self, obs: Observation, choice: Action) -> None:
        """What a card file counts from an answer (nothing here)."""


# ------------------------------------------------------------------------- tables and matches

class Table(Protocol):
    def abilities_for(self, start: HandStart) -> list[CardAbility]: ...
    def hand_done(self, rec: HandRecord) -> None: ...


class SeededTable:
    """A test stand-in for CardTable that deals from a seeded stream and keeps nothing
    between hands; a subclass says what it deals."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        raise NotImplementedError

    def hand_done(self, rec: HandRecord) -> None:
        pass


class RandomCardTable(SeededTable):
    """Deals each seat one of ``cards`` every hand (a few cards kept at the table)."""

    def __init__(self, cards: tuple[str, ...], seed: int) -> None:
        super().__init__(seed)
        self.cards = cards

    def abilities_for(self, start: HandStart) -> list[CardAbility]:
        return [CardAbility(CATALOG.card(self.rng.choice(self.cards)), s) for s in range(4)]


def yakuless_seats(rec: HandRecord) -> set[int]:
    """Seats that may win without yaku: Kaori Senoo picked, or copied (Maho Yumeno)."""
    seats = {s for s, c in enumerate(rec.picks or ()) if c == WITHOUT_YAKU}
    seats |= {e.seat for e in rec.events
              if e.kind == "ability" and (e.tag, e.payload) == (Move.COPY, WITHOUT_YAKU)}
    return seats


def allow_yakuless(rec: HandRecord, seats: Iterable[int] | None = None) -> HandRecord:
    """The record for the generic hand-end checks (rule H-03: every win has a yaku), where a
    win without yaku is legal only for ``seats`` (by default :func:`yakuless_seats`); such a
    win then stands with a placeholder yaku."""
    free = [w for w in rec.wins if not w.yaku]
    if not free:
        return rec
    allowed = set(yakuless_seats(rec) if seats is None else seats)
    assert all(w.seat in allowed for w in free), "a win without yaku (rule H-03)"
    out = copy.copy(rec)
    out.wins = [w if w.yaku else replace(w, yaku=(("win_without_yaku", 1),)) for w in rec.wins]
    return out


def play_checked(preset: Preset, agents: list[Agent], table: Table, *, seed: int,
                 match_index: int, on_hand: Callable[[HandRecord], None] | None = None,
                 yakuless: bool | Callable[[HandRecord], Iterable[int]] = False
                 ) -> MatchResult:
    """One match with the hand-end and match-end checks; ``on_hand`` sees every record after
    them. With ``yakuless``, a win without yaku passes where a card allows it (the seats of
    :func:`yakuless_seats`, or those ``yakuless`` gives for the record)."""
    prev: list[HandRecord] = []

    def hand_done(rec: HandRecord) -> None:
        checked = rec
        if yakuless:
            checked = allow_yakuless(rec, yakuless(rec) if callable(yakuless) else None)
        check_hand_end(checked, preset, prev[-1] if prev else None)
        prev.append(rec)
        if on_hand is not None:
            on_hand(rec)

    result = play_match(preset, agents, seed=seed, match_index=match_index, on_hand=hand_done,
                        table=table)
    assert len(prev) == len(result.hands)
    check_match(result, preset)
    return result
