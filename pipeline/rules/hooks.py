"""The hook points through which abilities act on a hand: the engine's side of the card layer.

The hand loop calls these hooks at fixed moments. An ability overrides only the ones it needs;
every hook of the base class does nothing, so a seat without an ability (or with an ability that
does nothing) plays exactly like a card-free game. Engine code never names a character: it only
calls hooks and applies what they return.

Hook points, in the order a hand meets them (the ones marked * are called by the engine today;
the others are the fixed list the card layer grows into):

==================  ======================================================================
``pick_value``      bots: how much this character is worth with this starting hand
``hand_start`` *    after the deal, before the dealer's first discard
``before_draw``     before the seat draws (may offer another source of the draw)
``after_draw``      after the seat has drawn
``own_actions`` *   extra legal actions on the seat's own turn (face-down discard, ...)
``discard`` *       after any discard that nobody claimed (extra turns)
``claim_filter``    which claims a seat may make on a discard (blocked or priority calls)
``claim_made``      after any call
``riichi``          after any riichi is accepted
``win_allowed``     whether a complete hand may win (always-winning tiles, blocked wins)
``scoring`` *       modifiers for a win's value (yaku values, extra han, dora, local yaku)
``payments``        the payments of a win, to adjust (doubling, extra transfers)
``draw_payments``   the payments of an exhaustive draw, to adjust
``hand_end``        after the hand's payments (stakes, match-long state)
``match_end``       after the last hand
==================  ======================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.scoring import NO_MODIFIERS, ScoringModifiers, WinContext

HOOKS = ("pick_value", "hand_start", "before_draw", "after_draw", "own_actions", "discard",
         "claim_filter", "claim_made", "riichi", "win_allowed", "scoring", "payments",
         "draw_payments", "hand_end", "match_end")


@dataclass(frozen=True)
class WinView:
    """What the scoring hook may read about a (possible) win."""

    seat: int
    ctx: WinContext
    discarder: int | None          # None for a tsumo
    scores: tuple[int, ...]
    dealer: int
    riichi_seats: tuple[int, ...]  # in the order their riichi was accepted


class TableControls:
    """The narrow means an ability has to change the table outside scoring; each use is logged
    as an ``ability`` event by the engine."""

    def __init__(self, state: object) -> None:
        self._state = state

    def reveal_hand(self, seat: int, by: str) -> None:
        """The seat plays face up for the rest of the hand: every observation shows its tiles."""
        self._state.reveal_hand(seat, by)


@dataclass(frozen=True)
class OwnTurnView:
    """What the own-turn hook may read when adding actions."""

    seat: int
    discard_tiles: tuple[int, ...]      # the tiles the rules allow to discard now
    drew: bool                          # False right after a call
    in_riichi: bool
    turns: int                          # the seat's discards so far this hand
    opponents_ippatsu: tuple[int, ...]  # seats whose ippatsu is still alive
    after_call: str | None = None       # "chi", "pon", "minkan" right after that call


@dataclass(frozen=True)
class DiscardView:
    """What the discard hook may read about a discard nobody claimed."""

    seat: int
    tile: int
    tsumogiri: bool
    after_call: tuple[str, int] | None  # (meld kind, called tile) when it followed a call
    face_down: bool
    scores: tuple[int, ...]
    start_points: int
    others_closed: bool
    first_discard: bool
    dealer: int


def face_down_actions(view: OwnTurnView, owner: str) -> list[Action]:
    """One face-down discard for each tile the rules allow to discard (rule C-13)."""
    return [Action(ActionKind.ABILITY, view.seat, t, detail=f"{owner}:face_down")
            for t in view.discard_tiles]


class AbilityHooks:
    """One seat's ability for one hand. ``name`` labels its triggers in the event log."""

    name = "ability"
    seat = -1

    def hand_start(self, table: TableControls) -> None:
        """After the deal, before the dealer's first discard (picks are revealed together)."""

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Extra legal actions on the seat's own turn, as ``ABILITY`` actions whose detail is
        ``"<name>:<what>"`` (the engine knows ``face_down``)."""
        return []

    def extra_turn(self, view: DiscardView) -> bool:
        """Whether this discard earns the seat an extra turn (offered, optional: C-14..C-17)."""
        return False

    def action_taken(self, action: Action) -> None:
        """One of this ability's own actions was chosen (to count uses, for example)."""

    def scoring(self, win: WinView) -> ScoringModifiers | None:
        """Modifiers this ability applies to a win (its own or another seat's), or None."""
        return None


def merge_modifiers(parts: Iterable[ScoringModifiers]) -> ScoringModifiers:
    """All abilities' modifiers for one win as one: values replaced (the higher wins), extra han
    and local yaku added, dora and value multipliers multiplied, allowed yaku intersected."""
    parts = [p for p in parts if p is not None and p != NO_MODIFIERS]
    if not parts:
        return NO_MODIFIERS
    if len(parts) == 1:
        return parts[0]
    values: dict[str, int] = {}
    extra: list[tuple[str, int]] = []
    local = []
    dora = 1
    multiplier = 1
    allowed: frozenset[str] | None = None
    for p in parts:
        for name, han in p.yaku_values.items():
            values[name] = max(han, values.get(name, han))
        extra.extend(p.extra_han)
        local.extend(p.local_yaku)
        dora *= p.dora_multiplier
        multiplier *= p.value_multiplier
        if p.allowed_yaku is not None:
            allowed = p.allowed_yaku if allowed is None else allowed & p.allowed_yaku
    return ScoringModifiers(yaku_values=values, extra_han=tuple(extra), dora_multiplier=dora,
                            local_yaku=tuple(local), allowed_yaku=allowed,
                            value_multiplier=multiplier)


def scoring_modifiers(abilities: Sequence[AbilityHooks], win: WinView) -> ScoringModifiers:
    """The combined scoring modifiers of every ability in play for this win."""
    if not abilities:
        return NO_MODIFIERS
    return merge_modifiers(a.scoring(win) for a in abilities)
