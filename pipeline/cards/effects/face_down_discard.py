"""``face_down_discard``: she may discard a tile face down (rule C-13)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, TurnContext
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import AbilityTag, Action
from pipeline.rules.hooks import OwnTurnView, face_down_actions

# When a face-down discard is offered, by ``when`` value: (the effect, her turn).
WHEN: dict[str, Callable[[FaceDownDiscard, OwnTurnView], bool]] = {
    "once_per_hand": lambda effect, view: not effect.used,
    "ippatsu_threat": lambda effect, view: bool(view.opponents_ippatsu),
    "after_chi": lambda effect, view: view.after_call == "chi",
}


class FaceDownDiscard(CardEffect):
    """On her turn she may discard any tile she may discard face down when ``when`` holds
    (:data:`WHEN`): no furiten from it, and nobody may call or ron it (rule C-13). "Once per
    hand" counts every face-down discard of her card this hand. ``broke_ippatsu``,
    ``matching_last_discard`` and ``with_extra_turn`` are played by the table effects.

    Bot policy: used only under a threat, on the tile the bot would discard anyway when that
    tile is dangerous (an expected deal-in cost of ``FACE_DOWN_MIN_DANGER``, 100 points, or
    more; in riichi, the tile she must discard)."""

    kind = "face_down_discard"
    hooks = frozenset({"own_actions", "action_taken"})
    supported = {"when": frozenset(WHEN)}

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.used = 0  # face-down discards of her card this hand

    def own_actions(self, ctx: TurnContext) -> list[Action]:
        allowed = WHEN.get(self.params["when"])
        if allowed is None or not allowed(self, ctx.view):
            return []
        return face_down_actions(ctx.view, self.card)

    def action_taken(self, action: Action) -> None:
        if action.tag is AbilityTag.FACE_DOWN:
            self.used += 1


