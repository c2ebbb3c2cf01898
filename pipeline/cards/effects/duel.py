"""``duel``: she names a duel opponent, whose ability is switched off while the duel lasts; the
two pay each other ``factor`` times."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import (
    CardEffect,
    HandStartContext,
    PaymentContext,
    RiichiContext,
    TurnContext,
)
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ability_action
from pipeline.rules.hooks import TableControls
from pipeline.rules.settlement import Transfer


def routed_noten(tenpai: tuple[bool, ...], paid: Mapping[int, int], dealer: int
                 ) -> list[Transfer]:
    """C-22 Megan: each noten player, in turn order from the dealer, pays all it owes to the
    nearest tenpai player after it in turn order who has not received points yet."""
    received: set[int] = set()
    out: list[Transfer] = []
    seats = len(tenpai)  # three or four (rule S-01)
    for k in range(seats):
        n = (dealer + k) % seats
        if tenpai[n] or not paid.get(n):
            continue
        to = next((r for r in ((n + i) % seats for i in range(1, seats))
                   if tenpai[r] and r not in received), None)
        if to is None:
            return []
        received.add(to)
        out.append((n, to, paid[n]))
    return out


class Duel(CardEffect):
    """Before her first discard she names a duel opponent, whose ability is switched off while
    the duel lasts. The rules' payments between the two duelists are multiplied by ``factor``
    (a win of one off the other, each one's share of the other's tsumo, honba included, and
    the payments of an exhaustive draw between them: C-22 Megan). At an exhaustive draw with
    two noten players, each noten player (in turn order from the dealer) pays their whole noten
    payment to the nearest tenpai player after them in turn order who has not received points
    yet (:func:`routed_noten`). When a player outside the duel has a riichi accepted, the duel
    ends (the opponent's ability works again).

    Bot policy: before her first discard the bot duels the points leader (rule C-21 on equal
    points), whose ability is then switched off."""

    kind = "duel"
    choices = frozenset({Move.DUEL})

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.factor = int(params["factor"])
        self.opponent: int | None = None  # the duel opponent
        self.duel_at = 0                  # where the duel began in the hand's log
        self.duel_over = False
        self.table: TableControls | None = None

    def hand_start(self, ctx: HandStartContext) -> None:
        self.table = ctx.table  # ``action_taken`` is given no controls: the duel's start is read

    def turn_choices(self, ctx: TurnContext) -> list[Action]:
        """Before her first discard: name a duel opponent."""
        view = ctx.view
        if not self.factor or self.opponent is not None or view.turns:
            return []
        return [ability_action(self.seat, self.card, Move.DUEL, payload=s,
                               detail=f"{self.card}:duel:P{s}")
                for s in range(len(view.scores) or 4) if s != self.seat]

    def action_taken(self, action: Action) -> None:
        if action.tag is Move.DUEL:
            self.opponent = action.payload
            self.duel_at = len(self.table.events()) if self.table is not None else 0

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        """The opponent, while the duel lasts."""
        if self.opponent is not None and not self.duel_over:
            return self.duel_at, frozenset((self.opponent,))
        return None

    def riichi(self, ctx: RiichiContext) -> None:
        """A riichi from outside the duel ends it."""
        view = ctx.view
        if self.opponent is not None and not self.duel_over and \
                view.seat not in (self.seat, self.opponent):
            self.duel_over = True
            ctx.table.note(self.seat, self.card, f"P{view.seat}'s riichi ends the duel",
                           Move.DUEL_ENDED, payload=view.seat)

    def _duel(self) -> frozenset[int] | None:
        if self.factor and self.opponent is not None and not self.duel_over:
            return frozenset((self.seat, self.opponent))
        return None

    def payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        duel = self._duel()
        if duel is not None and s.view.winner in duel:
            s.scale_rule_payments(self.factor, self.card, "duel payments", seats=duel)

    def draw_payments(self, ctx: PaymentContext) -> None:
        s = ctx.settlement
        duel = self._duel()
        if duel is None or s.view.kind != "exhaustive" or not s.transfers:
            return
        v = s.view
        desired = list(s.transfers)
        if s.noten_base is not None and sum(1 for t in v.tenpai if not t) == 2:
            paid = {n: s.paid_by(n) for n in range(len(v.tenpai))}
            desired = routed_noten(v.tenpai, paid, v.dealer) or desired
        desired = [(a, b, p * self.factor if {a, b} == duel else p) for a, b, p in desired]
        net: dict[tuple[int, int], int] = {}
        for sign, transfers in ((1, desired), (-1, s.transfers)):
            for a, b, p in transfers:
                key, amount = ((a, b), p) if a < b else ((b, a), -p)
                net[key] = net.get(key, 0) + sign * amount
        for (a, b), amount in sorted(net.items()):
            if amount:
                s.transfer(a, b, amount, self.card, "duel: noten payments routed and doubled")
