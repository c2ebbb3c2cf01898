"""``declared_pool``: tiles set aside face up, drawn in any order, and a win
that must hold exactly the yaku declared.

Before her first discard (at the hand's start, after the deal) the next ``tiles`` live-wall
tiles go beside her hand face up: the public log names them, so every seat sees them. She then
declares a combination of yaku; which combinations she may declare is the reading
``declarations``:

- ``any_combination`` (the default): any combination of the yaku her hand and the pool put within
  reach (:mod:`pipeline.cards.declarations`: the yaku a hand's tiles make, each lacking at most a
  few tiles, no two that one win cannot hold together). She declares them one at a time: each
  step offers the combination so far with one more yaku, and, once one is chosen, the
  combination so far (which ends the declaration);
- ``five_fixed``: one of :data:`DECLARATIONS`, in one step.

While tiles are left beside her hand, each live draw of hers is one of them, in the order she
likes (offered with no wall draw: ``":draw_instead"``); a rinshan draw after a kan stays the dead
wall's. She may win only once none are left, and only when the win holds every declared yaku;
yaku outside the declaration count for nothing (C-22 Ryuuka). The +1 han for a tsumo is the
card's ``condition_bonus`` effect (extra han, not a yaku), counted whether menzen tsumo was
declared or not. A declared riichi made on her first turn is a double riichi, and counts
as such.

With menzen tsumo declared, a ron is a chombo (C-22 Ryuuka). It may still be declared, as at a
real table: once the pool is empty, a ron her hand could make by the usual rules (any yaku) is
offered tagged ``CHOMBO`` (through ``claim_filter``), and the engine then ends
the hand with the chombo penalty of rule C-20 (``win_is_chombo``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards import declarations
from pipeline.cards.effects.base import (
    BeforeDrawContext,
    CardEffect,
    ClaimContext,
    HandStartContext,
    ScoringContext,
    WinCheckContext,
)
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import table_seats
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hooks import TableControls, WallControls
from pipeline.rules.scoring import ScoringModifiers, ScoringRules, score_win
from pipeline.tiles import TERMINAL_HONOR_TYPES

# The combinations she may declare under ``five_fixed`` (names as the scoring library reports
# them).
DECLARATIONS: tuple[frozenset[str], ...] = (
    frozenset({"Riichi"}),
    frozenset({"Tanyao"}),
    frozenset({"Menzen Tsumo"}),
    frozenset({"Riichi", "Menzen Tsumo"}),
    frozenset({"Riichi", "Tanyao"}),
)
TANYAO_MAX_OUTSIDE = 3   # terminals and honors among hand and pool that still allow tanyao
MENZEN_TSUMO = "Menzen Tsumo"
# A declared yaku that a win also holds under another name: a riichi made on her first turn
# is a double riichi, and is her declared riichi.
SAME_YAKU = {"Double Riichi": "Riichi"}


def counted(declared: frozenset[str]) -> frozenset[str]:
    """The yaku names a win may count for this declaration (a declared riichi counts as a
    double riichi when made on her first turn)."""
    return declared | {other for other, name in SAME_YAKU.items() if name in declared}


def declaration_label(yaku: frozenset[str]) -> str:
    """A declaration as text: yaku names joined by "+", in a fixed order."""
    return "+".join(sorted(yaku))


def preferred(hand: tuple[int, ...], pool: tuple[int, ...]) -> frozenset[str]:
    """The bots' declaration: tanyao when hand and pool hold few terminals and honors (it
    survives calls), riichi otherwise (any closed tenpai hand qualifies)."""
    outside = sum(1 for t in (*hand, *pool) if t // 4 in TERMINAL_HONOR_TYPES)
    return frozenset({"Tanyao"}) if outside <= TANYAO_MAX_OUTSIDE else frozenset({"Riichi"})


class DeclaredPool(CardEffect):
    """Her pool of wall tiles set aside face up, drawn in any order, and a win that must hold
    exactly the yaku she declared (the module says how she declares, and when a ron is a
    chombo).

    Bot policy: the card's preferred declaration, offered first; the pool tile that leaves her
    closest to tenpai; no ron marked as a chombo (Ryuuka Shimizudani's policy is said in
    :mod:`pipeline.cards.abilities`)."""

    kind = "declared_pool"
    choices = frozenset({Move.DECLARE, AbilityTag.DRAW_INSTEAD})

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.size: int = params["tiles"]
        self.reading: str = params["declarations"]
        self.declared: frozenset[str] = frozenset()

    def hand_start(self, ctx: HandStartContext) -> None:
        """The pool is set aside, then she declares (the bots' choice offered first)."""
        table = ctx.table
        wall = table.wall()
        pool = wall.set_aside_face_up(self.seat, self.size, self.card)
        hand = wall.concealed(self.seat)
        if self.reading == "five_fixed":
            first = preferred(hand, pool)
            ordered = [first, *(d for d in DECLARATIONS if d != first)]
            self.declared = self._ask(wall, ordered)
        else:
            winds = ((self.seat - table.dealer()) % table_seats(table), wall.round_wind())
            reach = declarations.reachable(hand, pool, *winds)
            odds = declarations.reachable(hand, pool, *winds, keep=declarations.KEEP)
            self.declared = self._declare_any(wall, reach, declarations.best(odds))
        table.note(self.seat, self.card, f"declares {declaration_label(self.declared)}",
                   Move.DECLARE, payload=tuple(sorted(self.declared)))

    def _ask(self, wall: WallControls, options: list[frozenset[str]]) -> frozenset[str]:
        actions = [ability_action(self.seat, self.card, Move.DECLARE, payload=tuple(sorted(d)),
                                  detail=f"{self.card}:declare:{declaration_label(d)}")
                   for d in options]
        return frozenset(wall.choose(self.seat, actions).payload)

    def _declare_any(self, wall: WallControls, short: dict[str, int], target: frozenset[str]
                     ) -> frozenset[str]:
        """Any combination of the reachable yaku, one yaku a step: each step offers the
        combination so far plus one yaku that does not clash with it, and (once it holds one)
        the combination so far, which ends the declaration. The bots' target is offered first:
        its next yaku, or the stop once it is complete."""
        chosen: frozenset[str] = frozenset()
        while True:
            adds = [chosen | {y} for y in sorted(short)
                    if y not in chosen and not any(declarations.clash(y, x) for x in chosen)]
            if not adds:
                return chosen
            missing = sorted(target - chosen) if chosen <= target else []
            first = chosen | {missing[0]} if missing else chosen
            options = [*adds, chosen] if chosen else adds
            if first in options:
                options = [first, *(d for d in options if d != first)]
            picked = self._ask(wall, options)
            if picked == chosen:
                return chosen
            chosen = picked

    def before_draw(self, ctx: BeforeDrawContext) -> list[Action]:
        """Her live draw comes from the pool while it holds tiles (one offer per type)."""
        view = ctx.view
        if view.source != "wall" or view.seat != self.seat:
            return []
        by_type = {t // 4: t for t in pool_tiles(ctx.table, self.seat)}
        return [ability_action(self.seat, self.card, AbilityTag.DRAW_INSTEAD, t)
                for t in sorted(by_type.values())]

    def chombo_ron(self, seat: int, discarder: int | None) -> bool:
        """Whether a ron by ``seat`` off ``discarder`` is her ron with menzen tsumo declared."""
        return seat == self.seat and discarder is not None and MENZEN_TSUMO in self.declared

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        """Only the declared yaku count on her win (a chombo ron is valued as any hand's, so
        that she may declare it)."""
        win = ctx.win
        if win.seat != self.seat or not self.declared or \
                self.chombo_ron(win.seat, win.discarder):
            return None
        return ScoringModifiers(allowed_yaku=counted(self.declared))

    def win_allowed(self, ctx: WinCheckContext) -> bool:
        """Her win needs an empty pool and every declared yaku; with menzen tsumo declared a
        ron may be declared once the pool is empty (it is then a chombo)."""
        win = ctx.win
        if win.seat != self.seat:
            return True
        if pool_tiles(ctx.table, self.seat) or not self.declared:
            return False
        if self.chombo_ron(win.seat, win.discarder):
            return True
        result = score_win(win.ctx, ScoringRules(),
                           ScoringModifiers(allowed_yaku=counted(self.declared)))
        return result is not None and self.declared <= {
            SAME_YAKU.get(name, name) for name, _ in result.yaku}

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        """Her ron with menzen tsumo declared is marked as a chombo (tag ``CHOMBO``)."""
        view, actions = ctx.view, ctx.actions
        if not self.chombo_ron(view.seat, view.discarder):
            return actions
        return [a.replace(detail=f"{self.card}:chombo", tag=AbilityTag.CHOMBO, card=self.card)
                if a.kind == ActionKind.RON else a for a in actions]

    def win_is_chombo(self, ctx: WinCheckContext) -> bool:
        """C-22 Ryuuka: declaring menzen tsumo then winning by ron is a chombo."""
        return self.chombo_ron(ctx.win.seat, ctx.win.discarder)


def pool_tiles(table: TableControls | None, seat: int) -> tuple[int, ...]:
    """The tiles still beside her hand (none outside a hand)."""
    return table.wall().aside(seat) if table is not None else ()


def step_towards(legal: list[Action], target: frozenset[str]) -> Action:
    """The declaration step that leads to ``target`` (a scripted seat's answer): the target
    itself when offered (it ends the declaration once reached), else the step adding one of
    its yaku."""
    steps = [(frozenset(a.payload), a) for a in legal]
    for yaku, a in steps:
        if yaku == target:
            return a
    return next(a for yaku, a in steps if yaku <= target)
