"""``wrap_sequences``: wrap-around sequences, and no pon or kan."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, ClaimContext
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.hand_shapes import HandShapes, wrap_sequences
from pipeline.rules.hooks import AbilityHooks, ClaimView

WRAP_SEQUENCES = HandShapes(wrap_sequences())
NO_CALL_KINDS = frozenset({ActionKind.PON, ActionKind.MINKAN, ActionKind.ANKAN,
                           ActionKind.KAKAN})


def no_pon_or_kan(view: ClaimView, actions: list[Action], seat: int) -> list[Action]:
    """She may not pon or kan: her pon, open kan and own kan declarations are dropped."""
    if view.seat != seat:
        return actions
    return [a for a in actions if a.kind not in NO_CALL_KINDS]


class PonKanBan(AbilityHooks):
    """What is left of a ``wrap_sequences`` card while another card switches its ability off,
    under the reading ``switched_off = "restriction_stays"``: she still may not pon or kan."""

    def __init__(self, seat: int, name: str) -> None:
        self.seat = seat
        self.name = name

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        return no_pon_or_kan(view, actions, self.seat)


class WrapSequences(CardEffect):
    """8-9-1 and 9-1-2 in each suit are sequences for her. The engine reads them through the
    ``hand_shapes`` hook for win detection, waits, furiten, riichi and chi, and scoring values
    the readings that use them (:mod:`pipeline.rules.scoring_shapes`: no fu, never part of
    ittsu, sanshoku or iipeikou). Besides, she may not pon or kan (no call, no own kan). While
    another card switches her ability off the restriction lifts with it (reading
    ``switched_off = "restriction_lifts"``, the default) or stays (``"restriction_stays"``:
    :class:`PonKanBan` is what remains of her ability).

    Bot policy: no decision: the engine offers her no pon or kan, and the bot counts her
    wrap-around sequences as sets when it builds her hand (Yuuko Mase's policy is said in
    :mod:`pipeline.cards.abilities`)."""

    kind = "wrap_sequences"

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self._left = PonKanBan(seat, card) \
            if params["switched_off"] == "restriction_stays" else None

    def hand_shapes(self) -> HandShapes | None:
        return WRAP_SEQUENCES

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        return no_pon_or_kan(ctx.view, ctx.actions, self.seat)

    def while_switched_off(self) -> AbilityHooks | None:
        return self._left
