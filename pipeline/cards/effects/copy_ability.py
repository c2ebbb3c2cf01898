"""``copy_ability``: she draws two cards and plays one of their abilities for the hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.effects.base import AbilityBuild, CardEffect
from pipeline.cards.forwarding import ForwardingAbility
from pipeline.cards.moves import Move
from pipeline.rules.hooks import AbilityHooks, TableControls

COPY_COUNT = 2  # cards Maho draws


class CopyAbility(CardEffect):
    """When she is picked, she draws two cards from the deck into her team (she keeps both: they
    stay in her team after the hand) and copies one for this hand; her player chooses through
    its ``pick`` hook (the bots' pick estimates). The copy is chosen with the picks, after the
    deal and before the dealer's first discard, so it is in place before her first discard.
    Her pick stays Maho: under winner rotation Maho rotates and the copied card stays in her
    team (C-22 Maho).

    The kind acts on no hook: it builds the card's whole ability (:meth:`build_ability`, which
    the card table asks as the picks are made), the copied card's ability
    (:class:`CopiedAbility`). With nothing drawn (an empty deck) the card plays with no
    effect.

    Bot policy: the bot copies the drawn card its pick estimate values most with the starting
    hand and situation, as it picks any card."""

    kind = "copy_ability"

    @classmethod
    def offers_choice(cls, params: Mapping[str, Any]) -> bool:
        return True  # the card copied, chosen through the player's pick hook

    @classmethod
    def build_ability(cls, params: Mapping[str, Any], card: Card,
                      build: AbilityBuild) -> AbilityHooks | None:
        drawn = build.draw(COPY_COUNT)
        if not drawn:
            return None  # an empty deck: nothing to copy
        chosen = build.choose(drawn)
        copied = chosen if chosen in drawn else drawn[0]  # no choice, or not one drawn
        return CopiedAbility(build.ability(copied), card.id, copied, drawn)


class CopiedAbility(ForwardingAbility):
    """The ability of a copied card for the copying seat: every hook is the copied card's; the
    start of the hand logs the copy (an ``ability`` event under the copying card's name)."""

    def __init__(self, inner: AbilityHooks, by: str, copied: str, drawn: Sequence[str]) -> None:
        self.inner = inner
        self.by = by
        self.copied = copied
        self.drawn = tuple(drawn)

    def played(self) -> AbilityHooks:
        return self.inner

    def hand_start(self, table: TableControls) -> None:
        table.note(self.inner.seat, self.by,
                   f"draws {' and '.join(self.drawn)}, copies {self.copied}", Move.COPY,
                   payload=self.copied)
        self.inner.hand_start(table)
