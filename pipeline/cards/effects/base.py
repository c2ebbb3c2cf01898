"""The base of every effect class, and the typed context each of its hooks takes.

An effect class implements one effect kind for one seat's card, one hand at a time. Its hooks do
nothing here; a kind overrides the ones it acts on and names them in ``hooks`` (the card's
ability sends a hook only to the effects that name it, and listens to it only then). It says
which parameter values it implements in ``supported`` (a parameter absent there: every value
of the vocabulary), its ``when`` values name predicates of a table
(:mod:`pipeline.cards.effects.conditions`), and its docstring says what the bots do with it
("Bot policy").

Each hook takes one context object: the view of the moment plus the controls that hook may
use, so no effect keeps controls it was handed earlier.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pipeline.rules.actions import Action
from pipeline.rules.hand_shapes import HandShapes
from pipeline.rules.hooks import (
    ClaimView,
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WallControls,
    WinView,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import Settlement


@dataclass(frozen=True)
class ScoringContext:
    """A win to value (any seat's: ``win.seat``), for the effect of ``seat``'s card; the
    table's controls once the hand has started (None for a win valued outside a hand)."""

    win: WinView
    seat: int
    table: TableControls | None = None

    @property
    def own(self) -> bool:
        """Whether the win is the card holder's."""
        return self.win.seat == self.seat


@dataclass(frozen=True)
class PaymentContext:
    """A hand's payments being settled (a win's, or a draw's noten payments): the transfers
    to change (``settlement``), and the table's controls once the hand has started."""

    settlement: Settlement
    table: TableControls | None = None


@dataclass(frozen=True)
class HandStartContext:
    """The deal is done, the dealer has not discarded: the table's controls for ``seat``."""

    table: TableControls
    seat: int
    card: str


@dataclass(frozen=True)
class TurnContext:
    """The seat's own turn, before it acts: what it may do (``view``)."""

    view: OwnTurnView


@dataclass(frozen=True)
class DrawContext:
    """A draw about to be made (``view``; ``source`` "rinshan" for a replacement tile), with
    the wall's controls for an effect that makes the draw itself."""

    view: DrawView
    wall: WallControls


@dataclass(frozen=True)
class BeforeDrawContext:
    """Before one of the seat's draws (``view``; ``source`` "rinshan" for a replacement tile):
    other sources may be offered. The table's controls once the hand has started."""

    view: DrawView
    table: TableControls | None = None


@dataclass(frozen=True)
class ClaimContext:
    """A seat's possible claims of a discard (``view``), as the engine and earlier effects left
    them (``actions``)."""

    view: ClaimView
    actions: list[Action]


@dataclass(frozen=True)
class WinCheckContext:
    """A possible win (any seat's: ``win.seat``), to allow or to mark as a chombo, for the
    effect of ``seat``'s card; the table's controls once the hand has started."""

    win: WinView
    seat: int
    table: TableControls | None = None


@dataclass(frozen=True)
class DiscardContext:
    """A discard nobody claimed (``view``)."""

    view: DiscardView


class CardEffect:
    """One effect of one seat's card for one hand; every hook does nothing."""

    kind: ClassVar[str] = ""
    hooks: ClassVar[frozenset[str]] = frozenset()
    # parameter -> the values implemented; a parameter not named: every value of the vocabulary
    supported: ClassVar[Mapping[str, frozenset[Any]]] = {}
    # scoring: asked for every seat's win (True) or only the card holder's (False)
    any_win: ClassVar[bool] = False

    def __init__(self, params: Mapping[str, Any], seat: int, card: str) -> None:
        self.params = params
        self.seat = seat
        self.card = card

    @classmethod
    def implements(cls, params: Mapping[str, Any]) -> bool:
        """Whether this class plays an effect with these parameter values."""
        return all(params.get(name) in values for name, values in cls.supported.items())

    def hand_start(self, ctx: HandStartContext) -> None:
        """After the deal, before the dealer's first discard."""

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        """Modifiers for a win's value, or None."""
        return None

    def forced_face_down(self, ctx: TurnContext) -> bool:
        """Whether the seat's plain discard this turn must go face down (rule C-13)."""
        return False

    def extra_turn(self, ctx: DiscardContext) -> bool:
        """Whether the seat's discard earns it an extra turn (offered, optional: C-17)."""
        return False

    def own_actions(self, ctx: TurnContext) -> list[Action]:
        """Extra actions on her own turn (tagged ability actions)."""
        return []

    def action_taken(self, action: Action) -> None:
        """One of her card's actions was chosen (any effect's: the tag says which)."""

    def replace_draw(self, ctx: DrawContext) -> int | None:
        """The tile she draws instead of the ordinary draw, drawn through ``ctx.wall``; None
        for the ordinary draw."""
        return None

    def hand_shapes(self) -> HandShapes | None:
        """The extra sequences (or tile readings) her hand may use, or None (a standing rule of
        the card: asked with nothing)."""
        return None

    def kans_closed(self) -> bool:
        """Whether her open and added kans become closed kans once made (a standing rule of
        the card: asked with nothing)."""
        return False

    def before_draw(self, ctx: BeforeDrawContext) -> list[Action]:
        """Other sources offered for her draw (tagged ability actions), with the wall draw."""
        return []

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        """The claims a seat may make of a discard, with some removed, added or marked."""
        return ctx.actions

    def win_allowed(self, ctx: WinCheckContext) -> bool:
        """Whether the win may be declared."""
        return True

    def win_is_chombo(self, ctx: WinCheckContext) -> bool:
        """Whether the declared win is a chombo instead (rule C-20's penalty)."""
        return False

    def payments(self, ctx: PaymentContext) -> None:
        """A win's payments, before they are made: transfers added or changed."""

    def draw_payments(self, ctx: PaymentContext) -> None:
        """A draw's payments (noten payments; none at an abortive draw), before they are made."""


# the hooks an effect class may take
EFFECT_HOOKS = ("hand_start", "scoring", "forced_face_down", "extra_turn", "own_actions",
                "action_taken", "replace_draw", "kans_closed", "payments", "draw_payments",
                "before_draw", "claim_filter", "win_allowed", "win_is_chombo",
                "hand_shapes")
