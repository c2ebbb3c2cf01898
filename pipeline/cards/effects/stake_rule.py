"""``stake_rule``: stakes put on the table (collected by the next winner), by what triggers
them (``when``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import (
    CallContext,
    CardEffect,
    HandEndContext,
    RiichiContext,
    ScoringContext,
    TurnContext,
)
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ability_action
from pipeline.rules.scoring import ScoringModifiers

CALL_EVENTS = frozenset(("chi", "pon", "minkan"))
INAZUMA = "inazuma"
# The optional choice offered (a ``"<card id>:riichi:inazuma"`` action next to a plain riichi).
OPTIONAL = frozenset((f"riichi:{INAZUMA}",))

# What puts the stake on the table, by ``when`` value, and the hook that does it.
WHEN: dict[str, str] = {
    # another player's first call opens their hand: they stake ``amount`` (C-18: at most what
    # they have); later calls stake nothing
    "open_hand_vs_aislinn": "claim_made",
    # another player deals in while she is tenpai: each other player stakes what they would pay
    # on her best tsumo (reading ``stake = "tsumo_share"``), or each player, she included, her
    # whole tsumo value (``"whole_value"``)
    "deal_in_while_tenpai": "hand_end",
    # another player's tsumo is worth less than hers would be: they stake what they won at the
    # start of the next hand (the match remembers it: ``MatchMemory.pending_stakes``)
    "tsumo_below_her_value": "hand_end",
    # her riichi, once per match, may be an Inazuma riichi: ``amount`` staked, and Riichi (or
    # Double Riichi) worth ``han`` on her win
    "inazuma_riichi": "riichi",
}


class StakeRule(CardEffect):
    """A stake put on the table when ``when`` happens (:data:`WHEN`); every point moves
    through the table's controls, so it is logged and conserved.

    Bot policy: the stakes forced by a hand's result or another's call need no decision; the
    Inazuma riichi is chosen over a plain riichi when she has at least 15,000 points and 24 or
    more live tiles are left (``STAKE_RIICHI_MIN_POINTS``, ``STAKE_RIICHI_MIN_TILES``)."""

    kind = "stake_rule"
    choices = frozenset({AbilityTag.RIICHI})

    @classmethod
    def offers_choice(cls, params: Mapping[str, Any]) -> bool:
        return params.get("when") == "inazuma_riichi"  # the riichi declared with the stake
    optional = OPTIONAL
    supported = {"when": frozenset(WHEN)}

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.when = params["when"]
        self.declared: str | None = None    # the riichi choice made with the declaration
        self.inazuma = False                # her Inazuma riichi was accepted this hand
        self.imposed: list[tuple[int, int, str]] = []  # (seat, points, why) for the next hand

    # ------------------------------------------------------------------ the Inazuma riichi

    def own_actions(self, ctx: TurnContext) -> list[Action]:
        """The Inazuma riichi, offered next to the plain riichi until used in the match."""
        view = ctx.view
        if self.when != "inazuma_riichi" or not view.riichi_tiles or (
                self.memory is not None and self.memory.used(self.seat, INAZUMA)):
            return []
        return [ability_action(self.seat, self.card, AbilityTag.RIICHI, t, payload=INAZUMA,
                               detail=f"{self.card}:riichi:{INAZUMA}") for t in view.riichi_tiles]

    def action_taken(self, action: Action) -> None:
        if self.when == "inazuma_riichi" and action.tag is AbilityTag.RIICHI:
            self.declared = action.payload

    def riichi(self, ctx: RiichiContext) -> None:
        """Her riichi is accepted: the stake declared with it is paid (C-18 caps it)."""
        if self.when != "inazuma_riichi" or ctx.view.seat != self.seat:
            return
        declared, self.declared = self.declared, None
        if declared == INAZUMA:
            ctx.table.stake(self.seat, self.params["amount"], self.card, "Inazuma riichi")
            self.inazuma = True

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        if not self.inazuma:
            return None
        han = self.params["han"]
        return ScoringModifiers(yaku_values={"Riichi": han, "Double Riichi": han})

    # ------------------------------------------------------------------ an opened hand

    def claim_made(self, ctx: CallContext) -> None:
        view, table = ctx.view, ctx.table
        if self.when != "open_hand_vs_aislinn" or view.seat == self.seat or table is None:
            return
        calls = sum(1 for e in table.events() if e.kind in CALL_EVENTS and e.seat == view.seat)
        if calls == 1:  # this call opened the hand
            table.stake(view.seat, self.params["amount"], self.card, "opened the hand")

    # ------------------------------------------------------------------ after the hand

    def hand_end(self, ctx: HandEndContext) -> None:
        """Stakes after the payments, and those owed at the next hand's start."""
        view, table = ctx.view, ctx.table
        rec = view.record
        seat = self.seat
        if self.when == "deal_in_while_tenpai" and any(
                not w.is_tsumo and w.seat != seat for w in rec.wins):
            value = view.tsumo_value(seat)
            if value:
                shares = (view.tsumo_shares(seat) if self.params["stake"] == "tsumo_share"
                          else (value,) * len(rec.seats))
                for other in range(len(rec.seats)):
                    if shares[other]:
                        table.stake(other, shares[other], self.card,
                                    "a player dealt in while she was tenpai")
        elif self.when == "tsumo_below_her_value":
            for w in rec.wins:
                if not w.is_tsumo or w.seat == seat:
                    continue
                value = view.tsumo_value(seat)
                won = view.scores[w.seat] - rec.seats[w.seat].start_score
                if value > w.points and won > 0:
                    self.imposed.append((w.seat, won, "a tsumo worth less than her hand"))
                    table.note(w.seat, self.card, f"must stake {won} points next hand "
                               f"(her tsumo {value} > {w.points})", Move.STAKE_DUE,
                               payload=won)

    def remember(self, memory: MatchMemory) -> None:
        if self.inazuma:
            memory.once_used.setdefault(self.seat, set()).add(INAZUMA)
        for seat, points, why in self.imposed:
            memory.pending_stakes.setdefault(seat, []).append((points, self.card, why))
