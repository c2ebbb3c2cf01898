"""``priority_call``: a call with priority over every other claim, ron included."""

from __future__ import annotations

from itertools import combinations

from pipeline.cards.effects.base import CardEffect, ClaimContext
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hand import kuikae_types
from pipeline.rules.hooks import ClaimView

RED_DRAGON = 33


def red_dragon_pond_pon(view: ClaimView, actions: list[Action], seat: int, name: str
                        ) -> list[Action]:
    """Her priority pon of a red dragon from the discarder's pond (C-22 Yuu): a pon of the red
    dragon just discarded (when the rules and the other filters allow it) becomes a priority
    pon, and a red dragon lying earlier in the same pond may be taken the same way."""
    if (view.seat != seat or view.discarder is None or view.tile is None or view.in_riichi
            or view.last_discard or view.unclaimable or view.kan_tile):
        return actions
    own = sorted(x for x in view.concealed if x // 4 == RED_DRAGON)
    others = [x for x in view.concealed if x // 4 != RED_DRAGON]
    if len(own) < 2 or not others:
        return actions  # rule H-07: after the pon she must have a tile she may discard
    targets = []
    if any(a.kind == ActionKind.PON and a.tile == view.tile for a in actions):
        targets.append(view.tile)  # the discard itself: the normal pon gains priority
    earlier = [x for x in view.ponds[view.discarder][:-1] if x // 4 == RED_DRAGON]
    if earlier:
        targets.append(earlier[-1])
    if not targets:
        return actions
    kept = [a for a in actions if not (a.kind == ActionKind.PON and a.tile // 4 == RED_DRAGON)]
    for tile in targets:
        kept.extend(ability_action(seat, name, AbilityTag.PRIORITY, tile, kind=ActionKind.PON,
                                   tiles=pair) for pair in sorted(set(combinations(own, 2))))
    return kept


def chi_options(view: ClaimView, seat: int, name: str) -> list[Action]:
    """Every chi of the discard ``view.tile`` from ``seat``'s concealed tiles, as priority calls,
    keeping a tile she may discard after it (kuikae, rule H-07)."""
    t = view.tile // 4
    out: list[Action] = []
    for lo in (t - 2, t - 1, t):
        if lo < 0 or lo // 9 != t // 9 or lo % 9 > 6:
            continue
        need = [x for x in (lo, lo + 1, lo + 2) if x != t]
        a = sorted({x for x in view.concealed if x // 4 == need[0]})
        b = sorted({x for x in view.concealed if x // 4 == need[1]})
        forbidden = kuikae_types(t, lo)
        for x in a:
            for y in b:
                rest = list(view.concealed)
                rest.remove(x)
                rest.remove(y)
                if any(r // 4 not in forbidden for r in rest):
                    out.append(ability_action(seat, name, AbilityTag.PRIORITY, view.tile,
                                              kind=ActionKind.CHI, tiles=(x, y)))
    return out


def any_chi(view: ClaimView, actions: list[Action], seat: int, name: str) -> list[Action]:
    """Her chi of any player's discard, as priority calls in place of the rules' chi (C-22
    Yukiko: claims on a discard are made at the same moment, so she may not chi a tile from
    earlier in the pond; kuikae, H-07, applies as after any chi)."""
    if (view.seat != seat or view.discarder is None or view.tile is None
            or view.tile // 4 >= 27 or view.in_riichi or view.last_discard or view.unclaimable
            or view.kan_tile):
        return actions
    return [a for a in actions if a.kind != ActionKind.CHI] + chi_options(view, seat, name)


# Her claims of a discard, by ``call`` value: (the claim view, the claims so far, her seat, her
# card) -> the claims with hers.
CALLS = {
    "pon_red_dragon_from_pond": red_dragon_pond_pon,
    "chi_any": any_chi,
}


class PriorityCall(CardEffect):
    """``pon_red_dragon_from_pond``: when a player discards, she may pon a red dragon lying in
    that player's pond, with the timing of a normal pon and priority over every other claim,
    ron included (C-22 Yuu); a red dragon just discarded is taken the same way (tag
    ``PRIORITY``). ``chi_any``: she may chi the discard of any player, and every chi of hers
    beats every other claim on that discard, ron included (C-22 Yukiko).

    Bot policy: a priority pon is judged like any pon of a value tile: taken when it brings
    her hand closer to tenpai, under a threat only to reach tenpai (Yuu Matsumi's policy is
    said in :mod:`pipeline.cards.abilities`)."""

    kind = "priority_call"
    choices = frozenset({AbilityTag.PRIORITY})
    supported = {"call": frozenset(CALLS)}

    def claim_filter(self, ctx: ClaimContext) -> list[Action]:
        return CALLS[self.params["call"]](ctx.view, ctx.actions, self.seat, self.card)
