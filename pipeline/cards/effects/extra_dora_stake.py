"""``extra_dora_stake``: on riichi below a score she may stake half her points to reveal more
dora indicators (rule C-19)."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, RiichiContext, TurnContext
from pipeline.rules.actions import AbilityTag, Action, ability_action

STAKE = "dora_stake"
# The optional choice offered (a ``"<card id>:riichi:dora_stake"`` action next to a plain riichi).
OPTIONAL = frozenset((f"riichi:{STAKE}",))


class ExtraDoraStake(CardEffect):
    """While she has fewer than ``below`` points, each riichi she may declare is offered a
    second time with a stake: half her points (rounded down to 100, rule C-18) go on the table
    once the riichi is accepted, and ``indicators`` more dora indicators are revealed (C-19).
    The plain riichi stays offered.

    Bot policy: when the bot declares riichi (its usual rule) below the points limit, it stakes
    for the extra indicators while 24 or more live tiles are left (``STAKE_RIICHI_MIN_TILES``);
    later, the plain riichi."""

    kind = "extra_dora_stake"
    choices = frozenset({AbilityTag.RIICHI})
    optional = OPTIONAL

    declared: str | None = None  # the riichi choice made with the declaration

    def own_actions(self, ctx: TurnContext) -> list[Action]:
        view = ctx.view
        if not view.riichi_tiles or not (view.scores and view.scores[self.seat]
                                         < self.params["below"]):
            return []
        return [ability_action(self.seat, self.card, AbilityTag.RIICHI, t, payload=STAKE,
                               detail=f"{self.card}:riichi:{STAKE}") for t in view.riichi_tiles]

    def action_taken(self, action: Action) -> None:
        if action.tag is AbilityTag.RIICHI:
            self.declared = action.payload

    def riichi(self, ctx: RiichiContext) -> None:
        """Her riichi is accepted: the stake declared with it is paid (C-18 caps it)."""
        view, table = ctx.view, ctx.table
        if view.seat != self.seat:
            return
        declared, self.declared = self.declared, None
        if declared == STAKE:
            half = view.scores[self.seat] // 2 // 100 * 100
            table.stake(self.seat, half, self.card, "half her points for dora")
            table.reveal_dora(self.seat, self.params["indicators"], self.card)
