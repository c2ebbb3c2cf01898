"""A declared pool (``declared_pool``): tiles set aside face up, drawn in any order, and a win
that must hold exactly the yaku declared.

Before her first discard (at the hand's start, after the deal) the next ``tiles`` live-wall
tiles go beside her hand face up: the public log names them, so every seat sees them. She then
declares a combination of yaku, one choice among :data:`DECLARATIONS` (the scoring library's
yaku names). While tiles are left beside her hand, each live draw of hers is one of them, in the
order she likes (offered with no wall draw: ``":draw_instead"``); a rinshan draw after a kan
stays the dead wall's. She may win only once none are left, and only when the win holds every
declared yaku; yaku outside the declaration count for nothing (C-22 Ryuuka). The +1 han for a
tsumo is the card's ``condition_bonus`` effect (extra han, not a yaku), counted whether menzen
tsumo was declared or not.

With menzen tsumo declared, a ron is a chombo (C-22 Ryuuka). It may still be declared, as at a
real table: once the pool is empty, a ron her hand could make by the usual rules (any yaku) is
offered with the detail ``"<card>:chombo"`` (through ``claim_filter``), and the engine then ends
the hand with the chombo penalty of rule C-20 (``win_is_chombo``).

Bot policy (Ryuuka Shimizudani): the bot declares the card's preferred combination, offered
first (:func:`preferred`: tanyao when hand and pool hold at most 3 terminals and honors, since
it survives calls; riichi otherwise), and draws from the pool the tile that leaves her hand
closest to tenpai, keeping a tile that completes her hand for last (she may win only once the
pool is empty). It never declares a ron marked as a chombo: a reverse mangan for nothing.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.cards.catalog import Card
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.hooks import ClaimView, DrawView, TableControls, WallControls, WinView
from pipeline.rules.scoring import ScoringModifiers, ScoringRules, score_win
from pipeline.tiles import TERMINAL_HONOR_TYPES

POOL_KINDS = frozenset(("declared_pool",))

# The combinations she may declare (names as the scoring library reports them).
DECLARATIONS: tuple[frozenset[str], ...] = (
    frozenset({"Riichi"}),
    frozenset({"Tanyao"}),
    frozenset({"Menzen Tsumo"}),
    frozenset({"Riichi", "Menzen Tsumo"}),
    frozenset({"Riichi", "Tanyao"}),
)
TANYAO_MAX_OUTSIDE = 3   # terminals and honors among hand and pool that still allow tanyao
MENZEN_TSUMO = "Menzen Tsumo"
CHOMBO = ":chombo"       # detail ending of a ron that is a chombo once declared


def declaration_label(yaku: frozenset[str]) -> str:
    """A declaration as text: yaku names joined by "+", in a fixed order."""
    return "+".join(sorted(yaku))


def parse_declaration(detail: str) -> frozenset[str]:
    """The yaku of a ``"<name>:declare:<yaku>+<yaku>"`` action."""
    return frozenset(detail.split(":declare:", 1)[1].split("+"))


def preferred(hand: tuple[int, ...], pool: tuple[int, ...]) -> frozenset[str]:
    """The bots' declaration: tanyao when hand and pool hold few terminals and honors (it
    survives calls), riichi otherwise (any closed tenpai hand qualifies)."""
    outside = sum(1 for t in (*hand, *pool) if t // 4 in TERMINAL_HONOR_TYPES)
    return frozenset({"Tanyao"}) if outside <= TANYAO_MAX_OUTSIDE else frozenset({"Riichi"})


class DeclaredPool:
    """One card's declared pool for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        sizes = [e.params["tiles"] for e in card.effects if e.kind == "declared_pool"]
        self.size: int | None = sizes[0] if sizes else None
        self.wall: WallControls | None = None
        self.declared: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return self.size is not None

    def pool(self) -> tuple[int, ...]:
        """The tiles still beside her hand."""
        return self.wall.aside(self.seat) if self.wall is not None else ()

    def hand_start(self, table: TableControls) -> None:
        """The pool is set aside, then she declares (the options in the bots' order first)."""
        if self.size is None:
            return
        self.wall = table.wall()
        pool = self.wall.set_aside_face_up(self.seat, self.size, self.name)
        first = preferred(self.wall.concealed(self.seat), pool)
        ordered = [first, *(d for d in DECLARATIONS if d != first)]
        options = [Action(ActionKind.ABILITY, self.seat,
                          detail=f"{self.name}:declare:{declaration_label(d)}") for d in ordered]
        self.declared = parse_declaration(self.wall.choose(self.seat, options).detail)
        table.note(self.seat, self.name, f"declares {declaration_label(self.declared)}")

    def before_draw(self, view: DrawView) -> list[Action]:
        """Her live draw comes from the pool while it holds tiles (one offer per type)."""
        if view.source != "wall" or view.seat != self.seat:
            return []
        by_type = {t // 4: t for t in self.pool()}
        return [Action(ActionKind.ABILITY, self.seat, t, detail=f"{self.name}:draw_instead")
                for t in sorted(by_type.values())]

    def chombo_ron(self, seat: int, discarder: int | None) -> bool:
        """Whether a ron by ``seat`` off ``discarder`` is her ron with menzen tsumo declared."""
        return seat == self.seat and discarder is not None and MENZEN_TSUMO in self.declared

    def scoring(self, win: WinView) -> ScoringModifiers | None:
        """Only the declared yaku count on her win (a chombo ron is valued as any hand's, so
        that she may declare it)."""
        if win.seat != self.seat or not self.declared or \
                self.chombo_ron(win.seat, win.discarder):
            return None
        return ScoringModifiers(allowed_yaku=self.declared)

    def win_allowed(self, win: WinView) -> bool:
        """Her win needs an empty pool and every declared yaku; with menzen tsumo declared a
        ron may be declared once the pool is empty (it is then a chombo)."""
        if win.seat != self.seat or self.size is None:
            return True
        if self.pool() or not self.declared:
            return False
        if self.chombo_ron(win.seat, win.discarder):
            return True
        result = score_win(win.ctx, ScoringRules(),
                           ScoringModifiers(allowed_yaku=self.declared))
        return result is not None and self.declared <= {name for name, _ in result.yaku}

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        """Her ron with menzen tsumo declared is marked as a chombo (``":chombo"``)."""
        if not self.chombo_ron(view.seat, view.discarder):
            return actions
        return [replace(a, detail=f"{self.name}{CHOMBO}") if a.kind == ActionKind.RON else a
                for a in actions]

    def win_is_chombo(self, win: WinView) -> bool:
        """C-22 Ryuuka: declaring menzen tsumo then winning by ron is a chombo."""
        return self.chombo_ron(win.seat, win.discarder)
