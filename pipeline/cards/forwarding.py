"""An ability made of another card's ability: the base of the meta cards' abilities.

A copied card plays the copied card's ability, a two-sided card the side now up; each answers
the hooks it acts on itself and hands every other one to the ability in play
(:meth:`ForwardingAbility.played`). The forwarding methods are made here from the engine's
list of hooks (:data:`pipeline.rules.hooks.HOOKS`) and the card layer's own
(:data:`~pipeline.cards.effects.base.CARD_LAYER_HOOKS`), so a new hook reaches a meta card
with no edit; ``tests/cards/general/test_hook_contract.py`` checks every hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.effects.base import CARD_LAYER_HOOKS
from pipeline.rules.hooks import HOOKS, AbilityHooks


class ForwardingAbility(AbilityHooks):
    """An ability that answers every hook, ``listens`` and its name with the ability in play
    (:meth:`played`), unless a subclass answers a hook itself."""

    def played(self) -> AbilityHooks:
        """The ability in play now, which answers what this one does not."""
        raise NotImplementedError

    def listens(self, hook: str) -> bool:
        return self.played().listens(hook)

    @property  # type: ignore[override]
    def name(self) -> str:  # the card in play names the triggers in the log
        return self.played().name

    @property  # type: ignore[override]
    def seat(self) -> int:
        return self.played().seat

    @property
    def card(self) -> Card:
        """The card in play (the copied card; the side up)."""
        return self.played().card  # type: ignore[attr-defined, no-any-return]


def _forward(hook: str) -> Callable[..., Any]:
    def forward(self: ForwardingAbility, *args: Any) -> Any:
        return getattr(self.played(), hook)(*args)
    forward.__name__ = forward.__qualname__ = hook
    forward.__doc__ = f"``{hook}``, answered by the ability in play."
    return forward


for _hook in (*HOOKS, *CARD_LAYER_HOOKS):
    setattr(ForwardingAbility, _hook, _forward(_hook))
