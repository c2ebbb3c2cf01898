"""``extra_turn``: an optional extra turn after a discard (rules C-14..C-17)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pipeline.cards.effects.base import CardEffect, DiscardContext
from pipeline.cards.effects.family_guess import family_of
from pipeline.cards.incentives import (
    CALLED_EXTRA_TURN,
    EXTRA_TURN_SHED,
    TileIncentives,
    worth_of,
)
from pipeline.rules.actions import AbilityTag
from pipeline.rules.hooks import PickView
from pipeline.rules.records import Event

WHITE_DRAGON, GREEN_DRAGON = 31, 32


def _two_or_eight(ctx: DiscardContext, params: Mapping[str, Any]) -> bool:
    t = ctx.view.tile // 4
    return t < 27 and t % 9 in (1, 7)


def _souzu_or_green_called(ctx: DiscardContext, params: Mapping[str, Any]) -> bool:
    called = ctx.view.after_call
    return called is not None and (18 <= called[1] // 4 < 27 or called[1] // 4 == GREEN_DRAGON)


def _tedashi_all_closed_behind(ctx: DiscardContext, params: Mapping[str, Any]) -> bool:
    # C-22 Aislinn: no extra turn from a discard after a call; the dealer's first discard
    # counts as tedashi
    view = ctx.view
    tedashi = not view.tsumogiri or (view.first_discard and view.seat == view.dealer)
    below = view.scores[view.seat] < view.start_points or not params["points_below_start"]
    return view.after_call is None and view.others_closed and tedashi and below


def riichi_safe(events: Sequence[Event], seat: int) -> dict[int, tuple[set[int], set[int]]]:
    """For each other player in riichi: (genbutsu types, types of that player's own face-up
    discards), from the public log (the last discard event left out: the one being judged)."""
    last = max([i for i, e in enumerate(events) if e.kind == "discard"], default=-1)
    declared: dict[int, int] = {}
    for i, e in enumerate(events[:last]):
        if e.kind == "riichi" and e.seat is not None and e.seat != seat:
            declared[e.seat] = i
    out: dict[int, tuple[set[int], set[int]]] = {}
    for r, at in declared.items():
        safe: set[int] = set()
        own: set[int] = set()
        for i, e in enumerate(events[:last]):
            if e.kind != "discard" or e.tile is None or e.tag is AbilityTag.FACE_DOWN:
                continue
            if e.seat == r:
                own.add(e.tile // 4)
                safe.add(e.tile // 4)
            elif i > at:
                safe.add(e.tile // 4)
        out[r] = (safe, own)
    return out


def is_suji(t: int, discarded: set[int]) -> bool:
    """Suji against these discards: a 1-2-3 or 7-8-9 needs the tile three away; a 4, 5 or 6
    needs both sides."""
    if t >= 27:
        return False
    n = t % 9
    sides = [t + 3] if n < 3 else [t - 3] if n > 5 else [t - 3, t + 3]
    return all(s in discarded for s in sides)


def _suji_or_genbutsu_vs_riichi(ctx: DiscardContext, params: Mapping[str, Any]) -> bool:
    # genbutsu: that player's face-up discards, and every face-up tile discarded by another
    # player after that riichi (C-22 Shiromi), her own included
    if ctx.table is None:
        return False
    t = ctx.view.tile // 4
    return any(t in safe or is_suji(t, own)
               for safe, own in riichi_safe(ctx.table.events(), ctx.view.seat).values())


def _new_family_discard(ctx: DiscardContext, params: Mapping[str, Any]) -> bool:
    # no other face-up tile lying in her pond is of this tile's family
    if ctx.table is None:
        return False
    tile = ctx.view.tile
    lying = [t for t in ctx.table.swaps().lying()[ctx.view.seat] if t != tile]
    return family_of(tile) not in {family_of(t) for t in lying}


# The discards that earn the turn, by ``when`` value: (the discard, the effect's parameters).
WHEN: dict[str, Callable[[DiscardContext, Mapping[str, Any]], bool]] = {
    "discard_2_or_8": _two_or_eight,
    "discard_white_dragon": lambda ctx, params: ctx.view.tile // 4 == WHITE_DRAGON,
    "call_souzu_or_green": _souzu_or_green_called,
    "after_call": lambda ctx, params: ctx.view.after_call is not None,
    "tedashi_all_closed_behind": _tedashi_all_closed_behind,
    "suji_or_genbutsu_vs_riichi": _suji_or_genbutsu_vs_riichi,
    "new_family_discard": _new_family_discard,
}
# The tile types whose discard earns the turn whatever the table, by ``when`` value: what the
# bots are given as a reason to let those tiles go (:meth:`ExtraTurn.incentives`). Not the
# white dragon (``discard_white_dragon``): Tomoe's white dragons also win for her in riichi
# and give 2 han drawn, and letting them go first cost her about half her value (trial, seed
# 7, --target 200: +515 [+332, +698] points per hand without the incentive, +231 [+62, +401]
# with it).
EARNING_TYPES: dict[str, frozenset[int]] = {
    "discard_2_or_8": frozenset([s * 9 + n for s in range(3) for n in (1, 7)]),
}
# The called tile types whose call earns the turn, by ``when`` value: what the bots are given
# as a reason to take such a call.
CALL_EARNING_TYPES: dict[str, frozenset[int]] = {
    "call_souzu_or_green": frozenset([*range(18, 27), GREEN_DRAGON]),
}


class ExtraTurn(CardEffect):
    """Her discard that nobody claimed earns an extra turn when ``when`` holds (:data:`WHEN`);
    the engine offers it with a pass (C-17), never after a face-down discard or an extra turn
    (C-15). ``suji_or_genbutsu_vs_riichi``: her discard is genbutsu or suji against at least
    one other player in riichi (genbutsu: that player's face-up discards, and every face-up
    tile discarded by another player after that riichi, her own included; suji: three apart
    from that player's own face-up discards, a 4, 5 or 6 needing both sides; honors have no
    suji). ``new_family_discard``: a face-up discard of a family none of her other face-up pond
    tiles shows (the back of a two-sided card: what the extra turn then does to the card is
    its ``flip_card``'s, :class:`~pipeline.cards.effects.flip_card.FlipAbility`).

    Bot policy: the extra turn is taken unless a threat is on the table (a riichi, or an
    opponent with three open melds, or two late in the hand) while her hand is two or more
    steps from tenpai: a folding hand would only risk one more discard. Where the turn is
    earned by the tile's type alone (:data:`EARNING_TYPES`), her incentives make those tiles
    the first to go among discards that keep her hand as close to tenpai; for
    ``new_family_discard``, a tile of a family her face-up pond does not show yet."""

    kind = "extra_turn"
    choices = frozenset({AbilityTag.EXTRA_TURN})
    optional = frozenset(("extra_turn",))
    supported = {"when": frozenset(WHEN)}

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        called = CALL_EARNING_TYPES.get(params["when"])
        if called is not None:
            return TileIncentives(call_worth=worth_of(called, CALLED_EXTRA_TURN))
        if params["when"] == "new_family_discard":
            return TileIncentives(new_family_worth=-EXTRA_TURN_SHED)
        types = EARNING_TYPES.get(params["when"])
        if types is None:
            return None
        return TileIncentives(keep=worth_of(types, -EXTRA_TURN_SHED))

    def extra_turn(self, ctx: DiscardContext) -> bool:
        earned = WHEN.get(self.params["when"])
        return earned is not None and earned(ctx, self.params)
