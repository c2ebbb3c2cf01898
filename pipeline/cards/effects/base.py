"""The base of every effect class, and the typed context each of its hooks takes.

An effect class implements one effect kind for one seat's card, one hand at a time. Its hooks do
nothing here; a kind overrides the ones it acts on, and those are its ``hooks`` (the card's
ability sends a hook only to the effects that take it, and listens to it only then). Every hook
is declared once, in :data:`EFFECT_HOOK_TABLE` (its context, how the answers of a card's
effects combine, the ability's method that brings it). It says
which parameter values it implements in ``supported`` (a parameter absent there: every value
of the vocabulary), its ``when`` values name predicates of a table
(:mod:`pipeline.cards.effects.conditions`), and its docstring says what the bots do with it
("Bot policy").
A card with several effects of one kind has one object for each; ``alike`` holds them all, for
a kind whose effects on one card combine (the tiers of one bonus).

Each hook takes one context object: the view of the moment plus the controls that hook may
use, so no effect keeps controls it was handed earlier; ``action_taken`` and
``offer_declined`` take the action alone, so an effect that acts on the table there keeps the
controls ``hand_start`` handed it (``open_hands``, showing the family named;
``draw_from_discards``, barring the type of the tile taken back).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol

from pipeline.cards.incentives import TileIncentives
from pipeline.rules.actions import Action
from pipeline.rules.frozen import FrozenFields
from pipeline.rules.hand_shapes import HandShapes
from pipeline.rules.hooks import (
    AbilityHooks,
    CallView,
    ClaimView,
    DiscardView,
    DrawView,
    OwnTurnView,
    PickView,
    TableControls,
    WallControls,
    WinTileView,
    WinView,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import HandEndView, RiichiView, Settlement

if TYPE_CHECKING:
    from pipeline.cards.catalog import Card
    from pipeline.cards.memory import MatchMemory



@cython.cclass
class ScoringContext(FrozenFields):
    """A win to value (any seat's: ``win.seat``), for the effect of ``seat``'s card; the
    table's controls once the hand has started (None for a win valued outside a hand)."""

    __slots__ = ("win", "seat", "table")
    win: WinView
    seat: int
    table: TableControls | None

    def __init__(self, win: WinView, seat: int, table: TableControls | None = None) -> None:
        self.win = win
        self.seat = seat
        self.table = table

    @property
    def own(self) -> bool:
        """Whether the win is the card holder's."""
        return self.win.seat == self.seat


@cython.cclass
class PaymentContext(FrozenFields):
    """A hand's payments being settled (a win's, or a draw's noten payments): the transfers
    to change (``settlement``), and the table's controls once the hand has started."""

    __slots__ = ("settlement", "table")
    settlement: Settlement
    table: TableControls | None

    def __init__(self, settlement: Settlement, table: TableControls | None = None) -> None:
        self.settlement = settlement
        self.table = table


@cython.cclass
class HandStartContext(FrozenFields):
    """The deal is done, the dealer has not discarded: the table's controls for ``seat``."""

    __slots__ = ("table", "seat", "card")
    table: TableControls
    seat: int
    card: str

    def __init__(self, table: TableControls, seat: int, card: str) -> None:
        self.table = table
        self.seat = seat
        self.card = card


@cython.cclass
class TurnContext(FrozenFields):
    """The seat's own turn, before it acts: what it may do (``view``); the table's controls
    once the hand has started."""

    __slots__ = ("view", "table")
    view: OwnTurnView
    table: TableControls | None

    def __init__(self, view: OwnTurnView, table: TableControls | None = None) -> None:
        self.view = view
        self.table = table


@cython.cclass
class DrawContext(FrozenFields):
    """A draw about to be made (``view``; ``source`` "rinshan" for a replacement tile), with
    the wall's controls for an effect that makes the draw itself."""

    __slots__ = ("view", "wall")
    view: DrawView
    wall: WallControls

    def __init__(self, view: DrawView, wall: WallControls) -> None:
        self.view = view
        self.wall = wall


@cython.cclass
class BeforeDrawContext(FrozenFields):
    """Before one of the seat's draws (``view``; ``source`` "rinshan" for a replacement tile):
    other sources may be offered. The table's controls once the hand has started."""

    __slots__ = ("view", "table")
    view: DrawView
    table: TableControls | None

    def __init__(self, view: DrawView, table: TableControls | None = None) -> None:
        self.view = view
        self.table = table


@cython.cclass
class ClaimContext(FrozenFields):
    """A seat's possible claims of a discard (``view``), as the engine and earlier effects left
    them (``actions``)."""

    __slots__ = ("view", "actions")
    view: ClaimView
    actions: Sequence[Action]  # read only: an effect answers with a list of its own

    def __init__(self, view: ClaimView, actions: list[Action]) -> None:
        self.view = view
        self.actions = actions


@cython.cclass
class WinCheckContext(FrozenFields):
    """A possible win (any seat's: ``win.seat``), to allow or to mark as a chombo, for the
    effect of ``seat``'s card; the table's controls once the hand has started."""

    __slots__ = ("win", "seat", "table")
    win: WinView
    seat: int
    table: TableControls | None

    def __init__(self, win: WinView, seat: int, table: TableControls | None = None) -> None:
        self.win = win
        self.seat = seat
        self.table = table


@cython.cclass
class DiscardContext(FrozenFields):
    """A discard (``view``): just made, or passed by everyone (the hook says which); the
    table's controls once the hand has started."""

    __slots__ = ("view", "table")
    view: DiscardView
    table: TableControls | None

    def __init__(self, view: DiscardView, table: TableControls | None = None) -> None:
        self.view = view
        self.table = table


@cython.cclass
class DrawnContext(FrozenFields):
    """Any seat's draw just made (``view.tile``, ``view.source``); the table's controls."""

    __slots__ = ("view", "table")
    view: DrawView
    table: TableControls | None

    def __init__(self, view: DrawView, table: TableControls | None = None) -> None:
        self.view = view
        self.table = table


@cython.cclass
class CallContext(FrozenFields):
    """Any seat's call (chi, pon, open kan) just made, before the caller discards."""

    __slots__ = ("view", "table")
    view: CallView
    table: TableControls | None

    def __init__(self, view: CallView, table: TableControls | None = None) -> None:
        self.view = view
        self.table = table


@cython.cclass
class RiichiContext(FrozenFields):
    """Any seat's riichi just accepted (its stick paid)."""

    __slots__ = ("view", "table")
    view: RiichiView
    table: TableControls

    def __init__(self, view: RiichiView, table: TableControls) -> None:
        self.view = view
        self.table = table


@cython.cclass
class WinTileContext(FrozenFields):
    """A tile that might win for the card holder whatever her hand's shape (``view``; see
    :meth:`~pipeline.rules.hooks.AbilityHooks.always_wins`)."""

    __slots__ = ("view", "table")
    view: WinTileView
    table: TableControls | None

    def __init__(self, view: WinTileView, table: TableControls | None = None) -> None:
        self.view = view
        self.table = table


@cython.cclass
class FuritenContext(FrozenFields):
    """A ron the card holder might make in furiten: whether she is in riichi."""

    __slots__ = ("in_riichi",)
    in_riichi: bool

    def __init__(self, in_riichi: bool) -> None:
        self.in_riichi = in_riichi


@cython.cclass
class HandEndContext(FrozenFields):
    """The hand is over and paid (``view``): stakes for later, what the match must remember."""

    __slots__ = ("view", "table")
    view: HandEndView
    table: TableControls

    def __init__(self, view: HandEndView, table: TableControls) -> None:
        self.view = view
        self.table = table


class AbilityBuild(Protocol):
    """What the card table hands an effect that builds its card's whole ability (a meta card:
    :meth:`CardEffect.build_ability`), for one seat and one hand."""

    seat: int

    def known(self, card_id: str) -> bool:
        """Whether the match's catalog has this card."""
        ...

    def plain(self, card_id: str) -> AbilityHooks:
        """The card's own effects for the seat, each sent the hooks it takes (its
        :class:`~pipeline.cards.abilities.CardAbility`), whatever its kinds would build."""
        ...

    def ability(self, card_id: str) -> AbilityHooks:
        """The card's ability as the table builds any card's (a two-sided card holds both
        sides); a copy it makes draws nothing."""
        ...

    def draw(self, count: int) -> tuple[str, ...]:
        """Up to ``count`` cards drawn from the deck into the seat's team for this ability (as
        many as the deck holds); the same cards when the hand is played again."""
        ...

    def choose(self, cards: Sequence[str]) -> str | None:
        """The seat's player's choice among ``cards`` (its ``pick`` hook, with the starting
        hand and situation), None when it makes none; the same when the hand is played
        again."""
        ...


class CardEffect:
    """One effect of one seat's card for one hand; every hook does nothing."""

    kind: ClassVar[str] = ""
    # the hooks it takes: those of EFFECT_HOOK_TABLE it overrides (set for each subclass)
    hooks: ClassVar[frozenset[str]] = frozenset()
    # parameter -> the values implemented; a parameter not named: every value of the vocabulary
    supported: ClassVar[Mapping[str, frozenset[Any]]] = {}
    # scoring: asked for every seat's win (True) or only the card holder's (False)
    any_win: ClassVar[bool] = False
    # the optional choices it offers (their tags; a riichi declared with a stake:
    # "riichi:<payload>"), each next to a plain alternative: the bots must both take and
    # decline every one (tests/bots/test_optional_effects.py)
    optional: ClassVar[frozenset[str]] = frozenset()
    # the choices it gives its player in play, by the tag of the actions offered (a
    # pipeline.cards.moves.Move, or an AbilityTag the engine carries out): each offered tag is
    # declared (tests/cards/general/test_card_choices.py), the bots answer each by its entry in
    # pipeline/bots/choices.py (tests/bots/test_choice_policies.py), and a card with one states
    # what the bot chooses (tests/bots/test_card_policy_docs.py)
    choices: ClassVar[frozenset[StrEnum]] = frozenset()
    # the card's effects of this kind, this one included, in the card's order (the card's
    # ability sets them once it has built its effects)
    alike: tuple[CardEffect, ...] = ()

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        self.params = params
        self.seat = seat
        self.card = card
        self.memory = memory  # the match's memory (read only during a hand), when in a match

    @classmethod
    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class takes the hooks it overrides: its ``hooks`` follow from its methods, so a
        hook written is a hook delivered."""
        super().__init_subclass__(**kwargs)
        cls.hooks = frozenset([name for name in EFFECT_HOOKS
                               if getattr(cls, name) is not getattr(CardEffect, name)])

    @classmethod
    def implements(cls, params: Mapping[str, Any]) -> bool:
        """Whether this class plays an effect with these parameter values."""
        for name, values in cls.supported.items():  # a loop, not a generator: asked per pick
            if params.get(name) not in values:
                return False
        return True

    @classmethod
    def offers_choice(cls, params: Mapping[str, Any]) -> bool:
        """Whether an effect with these parameter values gives its player a choice in play:
        one of its ``choices`` (a kind whose choice depends on a parameter, or is made without
        a tagged action, says so here)."""
        return bool(cls.choices)

    @classmethod
    def build_ability(cls, params: Mapping[str, Any], card: Card,
                      build: AbilityBuild) -> AbilityHooks | None:
        """The card's whole ability for ``build.seat`` this hand, when this kind makes it (a
        meta card: a copied card's ability, both sides of a two-sided card), built as the
        picks are made; None (every other kind): the card plays its effects, each sent the
        hooks it takes (:func:`pipeline.cards.abilities.card_ability`)."""
        return None

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        """What these parameters reward or punish in the holder's tile choices, for the bots
        (:mod:`pipeline.cards.incentives`), as the seat picks (``view``: what its match-long
        abilities have used up); None when nothing."""
        return None

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

    def after_draw(self, ctx: DrawnContext) -> None:
        """After any seat's draw."""

    def turn_start(self, ctx: TurnContext) -> None:
        """As her turn begins, before she is asked anything (her turn's steps: tiles put back,
        swaps offered): asked once a turn, ahead of every effect's turn choices."""

    def turn_choices(self, ctx: TurnContext) -> list[Action]:
        """A choice she must make before acting on her turn (tagged ability actions, no
        pass)."""
        return []

    def riichi_choices(self, ctx: TurnContext) -> list[Action]:
        """A choice she must make as she declares riichi (tagged ability actions, no pass)."""
        return []

    def riichi_allowed(self) -> bool:
        """Whether she may declare riichi at all this hand (a standing rule of the card)."""
        return True

    def riichi(self, ctx: RiichiContext) -> None:
        """After any seat's riichi is accepted."""

    def ignores_furiten(self, ctx: FuritenContext) -> bool:
        """Whether she may ron in furiten (rule H-09 does not apply to her)."""
        return False

    def claim_made(self, ctx: CallContext) -> None:
        """After any seat's call, before the caller discards."""

    def discard_made(self, ctx: DiscardContext) -> None:
        """After any seat's discard, before anyone may claim it."""

    def discard_passed(self, ctx: DiscardContext) -> None:
        """After any seat's discard that nobody claimed or ronned (it lies last in the pond)."""

    def discard_actions(self, ctx: DiscardContext) -> list[Action]:
        """Optional follow-ups of her own discard that nobody claimed, offered with a pass."""
        return []

    def late_claims(self, ctx: DiscardContext) -> list[Action]:
        """Rons of earlier tiles of the discarder's pond (tagged ``LATE``), after a discard
        nobody claimed."""
        return []

    def always_wins(self, ctx: WinTileContext) -> bool:
        """Whether this tile wins for her whatever her hand's shape."""
        return False

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        """The seats whose abilities her card switches off now, with the moment it began (an
        index into the hand's log), or None."""
        return None

    def while_switched_off(self) -> AbilityHooks | None:
        """What of this effect still applies while another ability switches hers off."""
        return None

    def offer_declined(self, action: Action) -> None:
        """One of her card's optional offers was declined (the plain alternative chosen)."""

    def hand_end(self, ctx: HandEndContext) -> None:
        """After every payment of the hand."""

    def turns_card_over(self) -> bool:
        """Whether her last draw turns her two-sided card over (a right guess of the family
        named: ``family_guess``, read by ``flip_card``'s ``right_guess``); asked by the
        two-sided card after each draw, never by the engine."""
        return False

    def remember(self, memory: MatchMemory) -> None:
        """Once the hand is over: what the match must remember of it (the card table calls
        this; during a hand the memory is only read)."""


class Combine(StrEnum):
    """How a card's ability joins the answers of the effects that take one hook."""

    EACH = "each"      # every effect is told, in the card's order; nothing is answered
    ANY = "any"        # yes when one effect says yes
    ALL = "all"        # yes unless one effect says no
    FIRST = "first"    # the first effect's answer that is not empty (None, no actions)
    CONCAT = "concat"  # every effect's actions, in the card's order
    CHAIN = "chain"    # each effect is handed what the one before it left (the claims)
    MERGE = "merge"    # merged into one (scoring modifiers, hand shapes)
    OFFERS = "offers"  # the first effect's face-down discards, then every riichi with a stake


class EffectHook(NamedTuple):
    """One hook an effect class may take: its name (the method of :class:`CardEffect`), the
    context it is handed (None: the action alone, or nothing), how the card's effects'
    answers combine, and the method of the card's ability that brings it (``asked_by``: a
    hook of :class:`~pipeline.rules.hooks.AbilityHooks`, or ``remember``, which the card
    table calls once the hand is over, or ``turns_card_over``, which a two-sided card asks:
    :data:`CARD_LAYER_HOOKS`)."""

    name: str
    context: type | None
    combine: Combine
    asked_by: str


# The hook contract, written once: every hook an effect class may take, in the order a hand
# meets them. ``CardEffect`` has a method that does nothing for each; an effect's ``hooks`` are
# those it overrides; the card's ability (:class:`~pipeline.cards.abilities.CardAbility`)
# delivers each through ``asked_by``, and ``tests/cards/general/test_hook_contract.py`` fails
# when a hook is
# declared here but not delivered to the effect, or delivered but not declared; the list in
# ``docs/architecture.md`` is :func:`hook_table_markdown`'s.
EFFECT_HOOK_TABLE: tuple[EffectHook, ...] = (
    EffectHook("hand_start", HandStartContext, Combine.EACH, "hand_start"),
    EffectHook("hand_shapes", None, Combine.MERGE, "hand_shapes"),
    EffectHook("before_draw", BeforeDrawContext, Combine.CONCAT, "before_draw"),
    EffectHook("replace_draw", DrawContext, Combine.FIRST, "replace_draw"),
    EffectHook("after_draw", DrawnContext, Combine.EACH, "after_draw"),
    EffectHook("turn_start", TurnContext, Combine.EACH, "turn_choices"),
    EffectHook("turn_choices", TurnContext, Combine.FIRST, "turn_choices"),
    EffectHook("own_actions", TurnContext, Combine.OFFERS, "own_actions"),
    EffectHook("forced_face_down", TurnContext, Combine.ANY, "forced_face_down"),
    EffectHook("action_taken", None, Combine.EACH, "action_taken"),
    EffectHook("discard_made", DiscardContext, Combine.EACH, "discard_made"),
    EffectHook("extra_turn", DiscardContext, Combine.ANY, "extra_turn"),
    EffectHook("offer_declined", None, Combine.EACH, "offer_declined"),
    EffectHook("discard_actions", DiscardContext, Combine.CONCAT, "discard_actions"),
    EffectHook("late_claims", DiscardContext, Combine.CONCAT, "late_claims"),
    EffectHook("discard_passed", DiscardContext, Combine.EACH, "discard_passed"),
    EffectHook("claim_filter", ClaimContext, Combine.CHAIN, "claim_filter"),
    EffectHook("kans_closed", None, Combine.ANY, "kans_closed"),
    EffectHook("claim_made", CallContext, Combine.EACH, "claim_made"),
    EffectHook("riichi_allowed", None, Combine.ALL, "riichi_allowed"),
    EffectHook("riichi_choices", TurnContext, Combine.FIRST, "riichi_choices"),
    EffectHook("riichi", RiichiContext, Combine.EACH, "riichi"),
    EffectHook("switched_off", None, Combine.FIRST, "switched_off"),
    EffectHook("while_switched_off", None, Combine.FIRST, "while_switched_off"),
    EffectHook("win_allowed", WinCheckContext, Combine.ALL, "win_allowed"),
    EffectHook("win_is_chombo", WinCheckContext, Combine.ANY, "win_is_chombo"),
    EffectHook("always_wins", WinTileContext, Combine.ANY, "always_wins"),
    EffectHook("ignores_furiten", FuritenContext, Combine.ANY, "ignores_furiten"),
    EffectHook("scoring", ScoringContext, Combine.MERGE, "scoring"),
    EffectHook("payments", PaymentContext, Combine.EACH, "payments"),
    EffectHook("draw_payments", PaymentContext, Combine.EACH, "draw_payments"),
    EffectHook("hand_end", HandEndContext, Combine.EACH, "hand_end"),
    EffectHook("remember", None, Combine.EACH, "remember"),
    EffectHook("turns_card_over", None, Combine.ANY, "turns_card_over"),
)
# the hooks an effect class may take, by name
EFFECT_HOOKS: tuple[str, ...] = tuple([hook.name for hook in EFFECT_HOOK_TABLE])
# the engine hook no effect takes: what lasts a match is kept hand by hand (``remember``)
NOT_FOR_EFFECTS = frozenset({"match_end"})
# the hooks the card layer asks, not the engine: ``remember`` (the card table, once the hand is
# over) and ``turns_card_over`` (a two-sided card, after each draw)
CARD_LAYER_HOOKS = ("remember", "turns_card_over")


def hook_table_markdown() -> str:
    """The hook table as the Markdown table ``docs/architecture.md`` shows (checked there by
    ``tests/cards/general/test_hook_contract.py``, so the page lists every hook)."""
    rows = ["| hook | context | answers combined | asked by |", "| --- | --- | --- | --- |"]
    for hook in EFFECT_HOOK_TABLE:
        context = f"`{hook.context.__name__}`" if hook.context is not None else "none"
        rows.append(f"| `{hook.name}` | {context} | {hook.combine.value} | `{hook.asked_by}` |")
    return "\n".join(rows)
