"""``swap_with_discard``: a tile of her hand swapped with a tile lying face up in a pond."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards.effects.base import CallContext, CardEffect, RiichiContext, TurnContext
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ActionKind, ability_action
from pipeline.rules.hooks import SwapControls

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("swap_pond",))
POND_SIZES = (6, 12)     # her pond's sizes that open a swap


def _family(t: int) -> int:
    """0 manzu, 1 pinzu, 2 souzu, 3 honors (of a tile type)."""
    return min(t // 9, 3)


# What the two tiles' types must share, by ``match`` value (never two of one type).
MATCH: dict[str, Callable[[int, int], bool]] = {
    "number": lambda a, b: a < 27 and b < 27 and a % 9 == b % 9,
    "family": lambda a, b: _family(a) == _family(b),
}


def matches(match: str, held: int, taken: int) -> bool:
    """Whether two tiles (ids) may be swapped under ``match``; never two of one type."""
    a, b = held // 4, taken // 4
    return a != b and MATCH[match](a, b)


# When her turn opens a swap, by ``when`` value: (the effect, the hand's swap controls).
WHEN: dict[str, Callable[[SwapWithDiscard, SwapControls], bool]] = {
    "after_call": lambda effect, swaps: effect.called,
    "pond_6_or_12_or_riichi": lambda effect, swaps: effect.riichi_seen
    or swaps.pond_sizes()[effect.seat] in POND_SIZES,
}


class SwapWithDiscard(CardEffect):
    """On her turn, before she acts (``turn_start``), she may swap one tile of her hand with a
    tile lying face up in any pond, when ``when`` holds (:data:`WHEN`):
    ``pond_6_or_12_or_riichi`` - her pond holds exactly 6 or 12 tiles as her turn begins, or
    another player's riichi was accepted since her previous turn (the swap comes on her turn);
    ``after_call`` - she called (chi, pon or open kan) and is about to discard. ``match``
    (:data:`MATCH`): ``number`` - both tiles are number tiles of the same number (honors have
    none); ``family`` - both tiles are of the same family (manzu, pinzu, souzu, honors; C-22
    Ako: the family of the tile swapped, not of the discard or of the called tile). A tile of
    the same type is never offered (nothing would change). Not in riichi (her hand is locked),
    and never so that she is left with no tile she may discard (rule H-07's kuikae after a
    call). The tile she gives takes the pond tile's place: it is no discard (nobody may call
    or ron it) but counts for its pond's furiten; the swap is logged tagged ``SWAPPED``, so
    Teru's honba count it (C-22 Teru).

    Bot policy: a hand tile offered for a known tile is swapped when that brings the hand
    closer to tenpai, or keeps it as close (one step or less) while it accepts at least 4
    more tiles (``KNOWN_DRAW_MIN_GAIN``); among several such swaps the best one, else none."""

    kind = "swap_with_discard"
    choices = frozenset({Move.SWAP_POND})
    optional = OPTIONAL
    supported = {"when": frozenset(WHEN), "match": frozenset(MATCH)}

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.riichi_seen = False  # another seat's riichi accepted since her previous turn
        self.called = False       # she called and has not discarded yet

    def riichi(self, ctx: RiichiContext) -> None:
        if ctx.view.seat != self.seat:
            self.riichi_seen = True

    def claim_made(self, ctx: CallContext) -> None:
        if ctx.view.seat == self.seat:
            self.called = True

    def turn_start(self, ctx: TurnContext) -> None:
        """The swap her turn opens, offered before she acts."""
        if ctx.table is None or ctx.view.seat != self.seat:
            return
        swaps = ctx.table.swaps()
        due = WHEN[self.params["when"]](self, swaps)
        self.riichi_seen = self.called = False
        if due and not ctx.view.in_riichi:
            self._offer_pond_swap(swaps, self.params["match"])

    def pond_options(self, swaps: SwapControls, match: str) -> list[Action]:
        """Her swaps with a pond tile under ``match``: one hand tile per kind (type, red or
        not) for each tile lying face up, leaving her a tile she may discard."""
        hand = swaps.concealed(self.seat)
        barred = swaps.barred(self.seat)
        held: dict[tuple[int, bool], int] = {}
        for t in hand:
            held.setdefault((t // 4, t in (16, 52, 88)), t)
        options = []
        for pond in swaps.lying():
            for taken in pond:
                for t in held.values():
                    if not matches(match, t, taken):
                        continue
                    if barred and all(x // 4 in barred for x in
                                      [*[x for x in hand if x != t], taken]):
                        continue
                    options.append(ability_action(self.seat, self.card, Move.SWAP_POND, t,
                                                  tiles=(taken,)))
        return options

    def _offer_pond_swap(self, swaps: SwapControls, match: str) -> None:
        options = self.pond_options(swaps, match)
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.with_pond(self.seat, choice.tile, choice.tiles[0], self.card)
