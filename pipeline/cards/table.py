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

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import Catalog, load_catalog
from pipeline.cards.effects import copy_ability, flip_card
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
        self.copied: dict[int, tuple[str, tuple[str, ...]]] = {}  # seat -> copy, cards drawn
        # the hand's replay means, for agents that look ahead (pipeline/cards/lookahead.py)
        self.context: HandContext | None = None

    def abilities_for(self, start: HandStart) -> list[AbilityHooks]:
        """Each seat picks a character after seeing its starting hand (C-03, C-04)."""
        start_hand(self.state)
        wall = Wall(start.wall)
        hands = wall.deal(start.dealer)
        dora = wall.dora_indicators  # read once for every seat's situation
        self.picks = []
        self.copied = {}
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
            if copy_ability.copies(self.catalog.card(pick)):  # the copy, chosen with the picks
                room = len(self.state.deck) + len(self.state.out_of_play)
                drawn = tuple(draw_for_ability(self.state, seat,
                                               min(copy_ability.COPY_COUNT, room)))
                choose = (lambda cards, c=chooser, s=seat: _ask_pick(
                    c, tuple(hands[s]), tuple(cards), self._situation(start, s, dora))) \
                    if chooser else None
                if drawn:  # an empty deck: nothing to copy
                    self.copied[seat] = (copy_ability.copy_choice(drawn, choose), drawn)
                if held and drawn:  # a trial holder keeps no team: the drawn cards go under
                    del self.state.teams[seat][-len(drawn):]
                    self.state.deck[:0] = drawn
            abilities.append(self._ability(seat, pick))
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
        elif copy_ability.copies(self.catalog.card(card)):
            import copy

            state = copy.deepcopy(self.state)
            room = len(state.deck) + len(state.out_of_play)
            drawn = tuple(draw_for_ability(state, seat, min(copy_ability.COPY_COUNT, room)))
            ability = self._card_ability(card, seat)
            if drawn:
                copied = copy_ability.copy_choice(drawn, choose)
                ability = copy_ability.CopiedAbility(  # type: ignore[assignment]
                    self._card_ability(copied, seat), card, copied, drawn)
        else:
            ability = self._card_ability(card, seat)
        return [*(ability if s == seat else self._ability(s, pick)
                  for s, pick in enumerate(self.picks)), *match_duties(self.memory)]

    def _ability(self, seat: int, pick: str) -> AbilityHooks:
        """The seat's ability this hand: its pick's, or the card its pick copied."""
        if seat in self.copied:
            copied, drawn = self.copied[seat]
            inner = self._card_ability(copied, seat)
            return copy_ability.CopiedAbility(inner, pick, copied, drawn)  # type: ignore[return-value]
        return self._card_ability(pick, seat)

    def _card_ability(self, card_id: str, seat: int) -> AbilityHooks:
        """One card's ability; a two-sided card holds both sides (the front up)."""
        card = self.catalog.card(card_id)
        ability = CardAbility(card, seat, self.memory)
        back = flip_card.two_sided(card)
        if back is None or back not in self.catalog.ids:
            return ability
        other = CardAbility(self.catalog.card(back), seat, self.memory)
        return flip_card.FlipAbility(ability, other)  # type: ignore[return-value]

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
