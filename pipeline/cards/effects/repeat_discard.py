"""``repeat_discard``: a second tile of the discarded type, discarded at once."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, DiscardContext
from pipeline.rules.actions import AbilityTag, Action, ability_action


class RepeatDiscard(CardEffect):
    """When her discard is not called she may discard a second tile of the same type at once
    (tag ``REPEAT``, offered with a pass), which nobody may call or ron, and draw a replacement
    tile (her turn ends).

    Bot policy: the discard is repeated when the second copy is useless (the hand is no
    further from tenpai with a dead honor in its place): a safe, unclaimable discard and a
    fresh draw (Yoshiko Kainou's policy is said in :mod:`pipeline.cards.abilities`)."""

    kind = "repeat_discard"
    choices = frozenset({AbilityTag.REPEAT})
    optional = frozenset(("repeat",))

    def discard_actions(self, ctx: DiscardContext) -> list[Action]:
        view = ctx.view
        if view.seat != self.seat or view.face_down:
            return []
        same = sorted({x for x in view.concealed if x // 4 == view.tile // 4})
        return [ability_action(self.seat, self.card, AbilityTag.REPEAT, x) for x in same]
