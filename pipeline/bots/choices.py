"""How the bots answer each choice a card offers: one table, keyed by the choice's tag.

An effect class declares the tags of the actions it offers its player (``choices``); this
table says, for each of those tags, where the choice reaches the bot and what answers it:

- a *card step* (:attr:`Asked.CARD_STEP`): a decision made only of the card's actions (and a
  pass to decline): ``HeuristicBot._card_step`` looks the first action's tag up here and, when
  the offered list has the entry's :class:`Shape`, plays the entry's ``answer``; a list of
  another shape is no such step, and the bot plays it as its ordinary turn or claim;
- an *offer beside her discards* (:attr:`Asked.BESIDE_DISCARD`): ability actions offered with
  the plain discards of her turn (a face-down discard, a riichi with a stake), weighed in
  ``HeuristicBot._own_turn``;
- a *claim* (:attr:`Asked.CLAIM`): a ron or a call the engine offers, marked by the card (a
  late ron, a priority call), weighed by its kind as any ron (every win is taken) or call.

What the bot keeps from an option it plays (a declaration's yaku, which her discards, calls
and riichi then respect) is the entry's ``kept``, applied by :func:`keep_chosen` for the
heuristic bot's answer and for the option the expert style plays instead
(:mod:`pipeline.bots.expert`). The expert weighs a card step's options (the heuristic
answer first) and an offer beside a discard (taken or declined on the same tile) by playing
them out; a claim it does not weigh, unless a priority call is the first action of the claim
offered (no ron and no ordinary call before it), when it weighs it as a card step.

``tests/bots/test_choice_policies.py`` fails for a tag an effect class declares without an
entry here, and for an entry no class declares.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum, auto
from typing import TYPE_CHECKING

from pipeline.cards.declarations import yakuhai_types
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.agents import Observation

if TYPE_CHECKING:
    from pipeline.bots.heuristic import HeuristicBot

_ABILITY, _PASS = ActionKind.ABILITY, ActionKind.PASS


class Asked(Enum):
    """Where a card's choice reaches the bot."""

    CARD_STEP = auto()       # the offered list is the card's: the entry's ``answer``
    BESIDE_DISCARD = auto()  # beside her plain discards: HeuristicBot._own_turn
    CLAIM = auto()           # a ron or a call, weighed by its kind: HeuristicBot.decide, _claim


class Shape(Enum):
    """What an offered list must look like for a card step's answer to apply."""

    TAGGED = auto()           # its first action carries the tag (a seat or family named)
    ABILITY = auto()          # its first action is an ability action (a forced step)
    ABILITY_AND_PASS = auto()  # an ability action first and a pass last (an optional step)


# the answer to a card step: (the bot, what it sees, the offered actions) -> one of them
Answer = Callable[["HeuristicBot", Observation, list[Action]], Action]
# what the bot keeps from an option it plays: (the bot, what it sees, the option)
Kept = Callable[["HeuristicBot", Observation, Action], None]


@dataclass(frozen=True)
class ChoicePolicy:
    """One choice's policy: where it is asked, and for a card step the shape of the offered
    list its answer needs, the answer, and what the bot keeps from the option it plays."""

    asked: Asked
    shape: Shape | None = None
    answer: Answer | None = None
    kept: Kept | None = None

    def applies(self, legal: list[Action]) -> bool:
        """Whether ``legal`` (its first action carrying this entry's tag) is this card step."""
        if self.answer is None:
            return False
        if self.shape is Shape.TAGGED:
            return True
        if legal[0].kind is not _ABILITY:
            return False
        return self.shape is Shape.ABILITY or legal[-1].kind is _PASS


def first_offered(bot: HeuristicBot, obs: Observation, legal: list[Action]) -> Action:
    """The first action offered: for a choice whose card lists its sensible option first."""
    return legal[0]


def adopt_declaration(bot: HeuristicBot, obs: Observation, declared: Action) -> None:
    """A declaration played: its yaku are hers to make (a declared riichi is declared, a
    closed-only yaku stops her calls) and a declared yakuhai's honors stay in her hand."""
    bot.declared = frozenset(declared.payload)
    bot.keep = yakuhai_types(bot.declared, obs.seat_wind, obs.round_wind)


def _step(shape: Shape, answer: Answer, kept: Kept | None = None) -> ChoicePolicy:
    return ChoicePolicy(Asked.CARD_STEP, shape, answer, kept)


_BESIDE_DISCARD = ChoicePolicy(Asked.BESIDE_DISCARD)
_CLAIM = ChoicePolicy(Asked.CLAIM)

# Each tag a card offers, with its policy; the answers' docstrings say what they choose and why.
CHOICE_POLICIES: Mapping[StrEnum, ChoicePolicy] = {
    # a family named: the one with the most copies she cannot see
    Move.FAMILY: _step(Shape.TAGGED, lambda bot, obs, legal: bot._family_choice(obs, legal)),
    # a player blocked or challenged (offered with her riichi, or as her turn starts)
    Move.BLOCK: _step(Shape.TAGGED, lambda bot, obs, legal: bot._name_player(obs, legal)),
    Move.DUEL: _step(Shape.TAGGED, lambda bot, obs, legal: bot._name_player(obs, legal)),
    # forced steps: a hand tile put back, a declaration, a draw from the pool, a tile taken
    Move.PUT_LIVE: _step(Shape.ABILITY,
                         lambda bot, obs, legal: bot._put_back_choice(obs, legal)),
    Move.PUT_DEAD: _step(Shape.ABILITY,
                         lambda bot, obs, legal: bot._put_back_choice(obs, legal)),
    # the card lists its sensible declaration first; her play then keeps to it
    Move.DECLARE: _step(Shape.ABILITY, first_offered, kept=adopt_declaration),
    AbilityTag.DRAW_INSTEAD: _step(Shape.ABILITY,
                                   lambda bot, obs, legal: bot._pool_draw_choice(obs, legal)),
    Move.TAKE: _step(Shape.ABILITY, lambda bot, obs, legal: bot._take_choice(obs, legal)),
    # optional steps, declined by the pass offered last
    Move.DORA_SWAP: _step(Shape.ABILITY_AND_PASS,
                          lambda bot, obs, legal: bot._dora_swap_choice(obs, legal)),
    AbilityTag.EXTRA_TURN: _step(Shape.ABILITY_AND_PASS,
                                 lambda bot, obs, legal: bot._extra_turn_choice(obs, legal)),
    # two ways: a known tile (her pond's, the one beside her hand) or a set-aside copy
    AbilityTag.DRAW: _step(Shape.ABILITY_AND_PASS,
                           lambda bot, obs, legal: bot._draw_choice(obs, legal)),
    Move.SWAP_ASIDE: _step(Shape.ABILITY_AND_PASS,
                           lambda bot, obs, legal: bot._swap_choice(obs, legal)),
    Move.SWAP_POND: _step(Shape.ABILITY_AND_PASS,
                          lambda bot, obs, legal: bot._exchange_choice(obs, legal)),
    Move.SWAP_WALL: _step(Shape.ABILITY_AND_PASS,
                          lambda bot, obs, legal: bot._exchange_choice(obs, legal)),
    Move.SWAP_MELD: _step(Shape.ABILITY_AND_PASS,
                          lambda bot, obs, legal: bot._meld_swap_choice(obs, legal)),
    Move.TURN_DOWN: _step(Shape.ABILITY_AND_PASS,
                          lambda bot, obs, legal: bot._turn_down_choice(obs, legal)),
    Move.MOVE_TWO: _step(Shape.ABILITY_AND_PASS,
                         lambda bot, obs, legal: bot._move_two_choice(obs, legal)),
    AbilityTag.REPEAT: _step(Shape.ABILITY_AND_PASS,
                             lambda bot, obs, legal: bot._repeat_choice(obs, legal)),
    # beside her discards: a face-down discard under a threat (_face_down_choice), a riichi
    # with a stake early and affordable (_riichi_with_stake)
    AbilityTag.FACE_DOWN: _BESIDE_DISCARD,
    AbilityTag.RIICHI: _BESIDE_DISCARD,
    # claims: a late ron is taken as every win; a priority call is weighed as any call
    AbilityTag.LATE: _CLAIM,
    AbilityTag.PRIORITY: _CLAIM,
}


def card_step_policy(legal: list[Action]) -> ChoicePolicy | None:
    """The policy answering ``legal`` as a card step, or None when it is none."""
    policy = CHOICE_POLICIES.get(legal[0].tag)
    if policy is None or not policy.applies(legal):
        return None
    return policy


def keep_chosen(bot: HeuristicBot, obs: Observation, chosen: Action) -> Action:
    """``chosen``, after the bot keeps what its choice's policy keeps from it."""
    policy = CHOICE_POLICIES.get(chosen.tag)
    if policy is not None and policy.kept is not None:
        policy.kept(bot, obs, chosen)
    return chosen
