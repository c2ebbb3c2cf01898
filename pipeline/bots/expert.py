"""The expert style: the heuristic bot that weighs its card's choices by playing them out.

The heuristic bot answers a card's choices (declare, take an extra turn, name a player, draw
a tile...) by fixed rules, one per choice kind (:data:`pipeline.bots.choices.CHOICE_POLICIES`),
and weighs its tile incentives by fixed rules too. A card's value measured with them is the
card as that bot plays it. The expert asks how far a stronger player gets: where its decision
is one of those, it plays each option out to the hand's end on a few deals drawn from what the
seat can see (:mod:`pipeline.bots.rollout`), with the ordinary bots playing on, and keeps the
option with the best mean points for the seat (the card's ability acting throughout). Every
other decision is the heuristic bot's, so a card with no choice and no incentive is played
exactly as by the default style.

Options weighed:

- a card's step (a list of the card's own actions): the bot's answer and the others offered,
  :data:`MAX_OPTIONS` at most, in the order the card lists them;
- an optional offer beside a plain action (a face-down discard, a riichi with a stake): the
  bot's answer and its counterpart on the same tile (taken or declined);
- a discard of a hand whose card declares tile incentives: the bot's discard and the one the
  ordinary evaluation makes without them (its dora guard kept: a match-long loss a hand's
  rollout cannot see stays a rule).

What the bot keeps from an option it plays (a declaration's yaku) is the choice's entry in
that table (``kept``), for the option the expert plays as for the heuristic bot's answer.

The budget is the style's ``lookahead`` knob: rollouts per option, on the same drawn deals
for every option (so options are compared on the same luck). The deals come from the
expert's own stream, derived from its seed (the match's seed and seat), apart from the
stream of its ordinary play: a run stays a function of its seed, whatever the workers. The
lookahead needs the hand's context from the card table (:mod:`pipeline.cards.lookahead`);
without one (a plain table, a replay's copy) the expert plays as the heuristic bot.
"""

from __future__ import annotations

import random
from typing import Any

from pipeline.bots.choices import keep_chosen
from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.rollout import RolloutBroken, determinize, play_out
from pipeline.bots.style import BotStyle
from pipeline.cards.incentives import TileIncentives
from pipeline.cards.lookahead import HandContext
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation

EXPERT_STYLE = "expert"
MAX_OPTIONS = 3  # options weighed at one decision (the bot's answer first)
_ABILITY, _PASS = ActionKind.ABILITY, ActionKind.PASS
_WINS = (ActionKind.TSUMO, ActionKind.RON)


def _ordinary(inc: TileIncentives) -> TileIncentives | None:
    """The incentives the ordinary evaluation keeps: the dora guard only (a match-long rule)."""
    return TileIncentives(dora_guard=True) if inc.dora_guard else None


class ExpertBot(HeuristicBot):
    """The heuristic bot with lookahead on its card's choices and incentive-laden discards."""

    def __init__(self, seed: int = 0, bot_style: BotStyle | str = EXPERT_STYLE) -> None:
        super().__init__(seed, bot_style)
        self.context: HandContext | None = None
        # the deals' stream, apart from the ordinary play's (``rng``)
        self.lookahead_rng = random.Random(f"lookahead:{seed}")
        self.looked = 0    # decisions weighed by rollouts
        self.changed = 0   # of which the bot's own answer was not kept
        self.dropped = 0   # rollouts that could not follow the real hand on their deal

    def __getstate__(self) -> dict[str, object]:
        """A copy (a rollout's, a paired replay's) plays without lookahead: the context is the
        real hand's."""
        state = super().__getstate__()
        state["context"] = None
        return state

    def begin_hand(self, context: HandContext) -> None:
        """The card table's context for the hand about to start."""
        self.context = context

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        choice = super().decide(obs, legal)
        rollouts = int(self.style.lookahead)
        context = self.context
        if rollouts < 1 or context is None or not context.recording or \
                not hasattr(obs, "_state") or choice.kind in _WINS:
            return choice
        options = self.options(obs, legal, choice)
        if len(options) < 2:
            return choice
        best = self._weigh(obs, options, rollouts, context)
        if best is not choice:
            self.changed += 1
            keep_chosen(self, obs, best)  # what the bot's answer kept, kept for this one
        return best

    def options(self, obs: Observation, legal: list[Action], choice: Action) -> list[Action]:
        """The options worth weighing at this decision, the bot's answer first (only it when
        the decision is not one the expert weighs)."""
        first = legal[0]
        if first.tag is not None or first.kind is _ABILITY:  # a card's step
            return [choice, *[a for a in legal if a is not choice]][:MAX_OPTIONS]
        offers = [a for a in legal if a.kind is _ABILITY]
        if offers and len(offers) < len(legal):  # an optional offer beside plain actions
            side = [a for a in legal if (a.kind is _ABILITY) != (choice.kind is _ABILITY)]
            same = [a for a in side if a.tile is not None and a.tile == choice.tile]
            return [choice, same[0]] if same else [choice]
        inc = self.incentives
        if inc is None or legal[-1].kind is _PASS:
            return [choice]
        self.incentives = _ordinary(inc)
        try:
            plain = super().decide(obs, legal)
        finally:
            self.incentives = inc
        return [choice] if plain is choice else [choice, plain]

    def _weigh(self, obs: Observation, options: list[Action], rollouts: int,
               context: HandContext) -> Action:
        """The option of best mean points over the same drawn deals (the bot's answer on a
        tie, or when no deal could be replayed)."""
        self.looked += 1
        rng = random.Random(self.lookahead_rng.getrandbits(64))
        deals = [determinize(obs, context.start.wall, rng) for _ in range(rollouts)]
        totals = [0.0] * len(options)
        played = 0
        for deal in deals:
            points = []
            try:
                for option in options:
                    points.append(play_out(context, obs.seat, option, deal, self._plain()))
            except RolloutBroken:
                self.dropped += 1
                continue
            played += 1
            for i, p in enumerate(points):
                totals[i] += p
        if not played:
            return options[0]
        best = 0
        for i in range(1, len(options)):
            if totals[i] > totals[best]:
                best = i
        return options[best]

    def _plain(self) -> HeuristicBot:
        """The ordinary bot as this one is now (its card, its declarations, its stream): the
        seat's player after the decision in a rollout."""
        bot: Any = HeuristicBot.__new__(HeuristicBot)
        state = HeuristicBot.__getstate__(self)
        for name in ("context", "lookahead_rng", "looked", "changed", "dropped"):
            state.pop(name, None)
        twin = random.Random()
        twin.setstate(self.rng.getstate())
        state["rng"] = twin
        bot.__setstate__(state)
        return bot
