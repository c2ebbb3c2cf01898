"""The card layer at the table for one match: deck, teams, picks, and each hand's abilities.

The match loop stays card-free: it asks a :class:`CardTable` for the seats' abilities before each
hand and tells it how the hand ended. Picks are made after the deal (rule C-03) by each seat's
agent, through its ``pick(starting_hand, options)`` hook when it has one.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Sequence

from pipeline.cards.abilities import CardAbility, card_ability
from pipeline.cards.catalog import Catalog, load_catalog
from pipeline.cards.lookahead import ChoiceLog, HandContext, looks_ahead
from pipeline.cards.match_duties import match_duties
from pipeline.cards.memory import MatchMemory
from pipeline.cards.sanma import SANMA_UNPLAYABLE
from pipeline.cards.teams import (
    TeamError,
    TeamState,
    cards_needed,
    deck_for,
    draw_for_ability,
    end_of_hand,
    match_rng,
    new_match,
    options_for_hand,
    record_pick,
    start_hand,
)
from pipeline.rules.agents import Agent
from pipeline.rules.hooks import AbilityHooks, PickView
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandRecord, HandStart
from pipeline.rules.wall import Wall


def table_deck(catalog: Catalog, preset: Preset) -> list[str]:
    """The cards a match of ``preset`` shuffles: the preset's deck (:func:`deck_for`), and for
    three players without the cards that cannot be played for three (rule C-23)."""
    deck = deck_for(catalog, preset.cards)
    if preset.players == 3:
        deck = [c for c in deck if c not in SANMA_UNPLAYABLE]
    return deck


def check_deck(catalog: Catalog, preset: Preset) -> None:
    """Refuse, before anything is played or written, a preset whose deck cannot deal its team
    mode (:func:`cards_needed` for its player count), naming the preset's file and the fix.

    Every mode plays on from there: a draw the deck cannot give is skipped
    (:mod:`pipeline.cards.teams`), so no combination that passes fails later."""
    deck = table_deck(catalog, preset)
    needed = cards_needed(preset.cards, seats=preset.players)
    if len(deck) >= needed:
        return
    rules = preset.cards
    where = preset.source or f"preset {preset.name!r}"
    left_out = f"{len(rules.exclude)} excluded by [cards] exclude" if rules.exclude else ""
    if preset.players == 3:
        left_out += (", " if left_out else "") + "those three players cannot play"
    fits = [size for size in range(rules.team_size - 1, 0, -1)
             if cards_needed(dataclasses.replace(rules, team_size=size),
                             seats=preset.players) <= len(deck)]
    fix = (f"set [cards] team_size = {fits[0]} or exclude fewer cards" if fits
           else "exclude fewer cards ([cards] exclude)")
    raise TeamError(
        f"{where}: the deck has {len(deck)} cards (catalog {catalog.version}"
        f"{', without ' + left_out if left_out else ''}); team_mode {rules.team_mode!r} with "
        f"team_size {rules.team_size} and {preset.players} players needs {needed}; {fix}")


class CardTable:
    """Deals the teams of one match and turns each hand's picks into abilities."""

    def __init__(self, preset: Preset, agents: Sequence[Agent], seed: int, match_index: int,
                 catalog: Catalog | None = None, *,
                 holder: tuple[int, str] | None = None) -> None:
        """``holder`` = ``(seat, card)``: a card trial's seat, which holds that card alone and
        plays it every hand, outside the teams; the other seats are dealt ordinary teams from
        the deck without it (:mod:`pipeline.sim.trial`)."""
        self.preset = preset
        self.agents = agents
        self.catalog = catalog or load_catalog(preset.cards.catalog)
        self.holder = holder
        deck = table_deck(self.catalog, preset)
        if holder is None:
            check_deck(self.catalog, preset)  # one line naming the preset's file
        else:  # a trial checks its own deck (pipeline.sim.trial)
            deck = [c for c in deck if c != holder[1]]
        self.state: TeamState = new_match(preset.cards, deck, match_rng(seed, match_index),
                                          seats=preset.players,
                                          idle=None if holder is None else holder[0])
        self.picks: list[str] = []
        self.memory = MatchMemory(red_fives=preset.red_fives)  # match-long card state
        self.abilities: list[AbilityHooks] = []
        # what each seat's ability drew from the deck and chose this hand (a copy), by seat: the
        # hand played again builds the same abilities
        self.drawn: dict[int, tuple[str, ...]] = {}
        self.chosen: dict[int, str | None] = {}
        # the hand's replay means, for agents that look ahead (pipeline/cards/lookahead.py)
        self.context: HandContext | None = None

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]:
        """Each seat picks a character after seeing its starting hand (C-03, C-04)."""
        start_hand(self.state)
        wall = Wall(start.wall)
        hands = wall.deal(start.dealer)
        dora = wall.dora_indicators  # read once for every seat's situation
        self.picks = []
        self.drawn, self.chosen = {}, {}
        abilities: list[AbilityHooks] = []
        for seat, agent in enumerate(self.agents):
            held = self.holder is not None and seat == self.holder[0]
            options = [self.holder[1]] if held else options_for_hand(self.state, seat)
            chooser = getattr(agent, "pick", None)
            pick = _ask_pick(chooser, tuple(hands[seat]), tuple(options),
                             self._situation(start, seat, dora)) if chooser else options[0]
            if pick not in options:
                pick = options[0]
            if not held:
                record_pick(self.state, seat, pick)
            self.picks.append(pick)
            choose = (lambda cards, c=chooser, s=seat: _ask_pick(
                c, tuple(hands[s]), tuple(cards), self._situation(start, s, dora))) \
                if chooser else None
            # built with the picks: a card's own draws and choices (a copy) come now
            abilities.append(self._build(seat, pick, _SeatBuild(
                self, seat, self._live_draw(seat, held), self._recorded_choice(seat, choose))))
        self.abilities = abilities
        self._begin_hand(start)
        return [*abilities, *match_duties(self.memory)]  # stakes owed from the last hand

    def _begin_hand(self, start: HandStart) -> None:
        """Give each agent that looks ahead the hand's context, after the picks."""
        self.context = None
        if not looks_ahead(self.agents):
            return
        self.context = HandContext(start, self.preset, self.replay_abilities, self.agents)
        for agent in self.agents:
            begin = getattr(agent, "begin_hand", None)
            if begin is not None:
                begin(self.context)

    def seated(self, agents: list[Agent]) -> list[Agent]:
        """The agents of the hand, each choice written into the hand's context when an agent
        looks ahead (the match loop's optional ``seated``); the agents themselves otherwise."""
        if self.context is None:
            return agents
        self.context.recording = True
        return [ChoiceLog(agent, seat, self.context)  # type: ignore[misc]
                for seat, agent in enumerate(agents)]

    def replay_abilities(self, without: int | None = None) -> list[AbilityHooks | None]:
        """Fresh abilities for this hand's picks, to play the same deal again; seat ``without``
        keeps its pick but plays with no ability (the paired measurement)."""
        return [*(None if seat == without else self._ability(seat, pick)
                  for seat, pick in enumerate(self.picks)), *match_duties(self.memory)]

    def abilities_as(self, seat: int, card: str,
                     choose: Callable[[Sequence[str]], str] | None = None
                     ) -> list[AbilityHooks | None]:
        """Fresh abilities for this hand's picks with seat ``seat`` playing ``card`` instead
        (the team trial's replay with another pick). A copying card that was not the pick
        draws its cards from a copy of the match's cards, so the real match is untouched;
        ``choose`` picks the copied card (default the first drawn)."""
        if card == self.picks[seat]:
            ability = self._ability(seat, card)
        else:
            ability = self._build(seat, card, _SeatBuild(
                self, seat, self._draw_from_a_copy(seat),
                choose if choose is not None else _no_choice))
        return [*(ability if s == seat else self._ability(s, pick)
                  for s, pick in enumerate(self.picks)), *match_duties(self.memory)]

    def _ability(self, seat: int, pick: str) -> AbilityHooks:
        """The seat's ability this hand, built again: what it drew and chose is the hand's."""
        return self._build(seat, pick, _SeatBuild(
            self, seat, lambda count: self.drawn.get(seat, ()),
            lambda cards: self.chosen.get(seat)))

    def _build(self, seat: int, card_id: str, build: _SeatBuild) -> AbilityHooks:
        """One card's ability for the seat (:func:`~pipeline.cards.abilities.card_ability`:
        the one its effects build, a copy or a two-sided card, else its effects')."""
        return card_ability(self.catalog.card(card_id), seat, self.memory, build)

    def _live_draw(self, seat: int, held: bool) -> Callable[[int], tuple[str, ...]]:
        """Cards drawn from the match's deck into the seat's team, kept for the hand played
        again; a trial holder keeps no team, so what it draws goes back under the deck."""
        def draw(count: int) -> tuple[str, ...]:
            room = len(self.state.deck) + len(self.state.out_of_play)
            drawn = tuple(draw_for_ability(self.state, seat, min(count, room)))
            if held and drawn:
                del self.state.teams[seat][-len(drawn):]
                self.state.deck[:0] = drawn
            self.drawn[seat] = drawn
            return drawn
        return draw

    def _recorded_choice(self, seat: int, choose: Callable[[Sequence[str]], str] | None
                         ) -> Callable[[Sequence[str]], str | None]:
        """The player's choice (None without a ``pick`` hook), kept for the hand played
        again."""
        def chosen(cards: Sequence[str]) -> str | None:
            self.chosen[seat] = choose(cards) if choose is not None else None
            return self.chosen[seat]
        return chosen

    def _draw_from_a_copy(self, seat: int) -> Callable[[int], tuple[str, ...]]:
        """Cards drawn from a copy of the match's cards (another pick tried), so the real
        match is untouched."""
        def draw(count: int) -> tuple[str, ...]:
            import copy

            state = copy.deepcopy(self.state)
            room = len(state.deck) + len(state.out_of_play)
            return tuple(draw_for_ability(state, seat, min(count, room)))
        return draw

    def _situation(self, start: HandStart, seat: int, dora: tuple[int, ...] | None = None
                   ) -> PickView:
        """What the seat knows when picking: scores, dealer, round, sticks, the dora shown
        (``dora``: the hand's wall's indicators, read from it when not given), and what its
        match-long abilities have used up."""
        if dora is None:
            dora = Wall(start.wall).dora_indicators
        return PickView(seat=seat, dealer=start.dealer, scores=tuple(start.scores),
                        round_wind=start.round_wind, honba=start.honba, sticks=start.sticks,
                        dora_indicators=dora,
                        start_points=self.preset.start_points, catalog=self.catalog,
                        spent=self.memory.spent(seat))

    def hand_done(self, rec: HandRecord) -> None:
        rec.picks = list(self.picks)
        rec.teams = self.state.to_dict()
        held = self.holder[0] if self.holder is not None else None
        if held is not None:  # the holder keeps its one card, whatever the mode does
            rec.teams["teams"][held] = [self.holder[1]]  # type: ignore[index]
            rec.teams["picks"][held] = self.holder[1]  # type: ignore[index]
        end_of_hand(self.state, winners=[w.seat for w in rec.wins if w.seat != held],
                    tenpai=[s.tenpai_at_end and s.seat != held for s in rec.seats])
        self.memory.end_of_hand(rec, self.abilities)

    def match_done(self, result: object) -> None:
        """The match is over: the last hand's abilities hear it (``match_end``)."""
        for ability in self.abilities:
            ability.match_end(result)


def _ask_pick(chooser: Callable[..., str], hand: tuple[int, ...], options: tuple[str, ...],
              situation: PickView) -> str:
    """An agent's pick, with the seat's situation when its ``pick`` takes a third argument
    (agents written for ``pick(starting_hand, options)`` keep working)."""
    function = getattr(chooser, "__func__", None)  # an agent's method: its function, read once
    takes = _method_takes_situation(function) if function is not None \
        else _takes_situation(chooser)
    return chooser(hand, options, situation) if takes else chooser(hand, options)


def _takes_situation(chooser: Callable[..., str], skip_self: bool = False) -> bool:
    """Whether a ``pick`` accepts three arguments (after ``self`` when ``skip_self``)."""
    try:
        signature = inspect.signature(chooser)
        if skip_self:
            signature = signature.replace(parameters=tuple(signature.parameters.values())[1:])
        signature.bind(None, None, None)
    except (TypeError, ValueError):  # ValueError: no signature to read (a builtin)
        return False
    return True


@functools.lru_cache(maxsize=256)
def _method_takes_situation(function: Callable[..., str]) -> bool:
    """:func:`_takes_situation` of a method's function, read once per class, not per pick."""
    return _takes_situation(function, skip_self=True)


def _no_choice(cards: Sequence[str]) -> str | None:
    return None


def _nothing_drawn(count: int) -> tuple[str, ...]:
    return ()


class _SeatBuild:
    """What the card table hands an effect that builds a seat's ability this hand
    (:class:`~pipeline.cards.effects.base.AbilityBuild`): the catalog's cards, the cards drawn
    for it and its player's choice, each from where the table says (the match's deck, the
    hand's record, a copy of the deck)."""

    def __init__(self, table: CardTable, seat: int, draw: Callable[[int], tuple[str, ...]],
                 choose: Callable[[Sequence[str]], str | None]) -> None:
        self.table = table
        self.seat = seat
        self._draw = draw
        self._choose = choose

    def known(self, card_id: str) -> bool:
        return card_id in self.table.catalog.ids

    def plain(self, card_id: str) -> AbilityHooks:
        return CardAbility(self.table.catalog.card(card_id), self.seat, self.table.memory)

    def ability(self, card_id: str) -> AbilityHooks:
        return self.table._build(self.seat, card_id, _SeatBuild(
            self.table, self.seat, _nothing_drawn, _no_choice))

    def draw(self, count: int) -> tuple[str, ...]:
        return self._draw(count)

    def choose(self, cards: Sequence[str]) -> str | None:
        return self._choose(cards)
