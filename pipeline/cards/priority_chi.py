"""The ``priority_call`` value ``chi_any`` (Yukiko): she may chi the discard of any player, and
every chi of hers beats every other claim on that discard, ron included (C-22 Yukiko: claims on
a discard are made at the same moment; she may not chi a tile from earlier in the pond: a late
call is not valid). Kuikae (H-07) applies as after any chi.

The other ``priority_call`` value is played by its class
(:mod:`pipeline.cards.effects.priority_call`); the card ability asks :class:`PriorityChi` for
its claims before the effect classes'.
"""

from __future__ import annotations

from pipeline.cards.catalog import Card
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hand import kuikae_types
from pipeline.rules.hooks import ClaimView

# The parameter values played here (joined to abilities.SUPPORTED_CHOICES).
SUPPORTED: dict[tuple[str, str], frozenset[str]] = {
    ("priority_call", "call"): frozenset(("chi_any",)),
}


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


class PriorityChi:
    """A card's priority chi from any player, for one seat (false when the card has none)."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        self.chi_any = any(e.kind == "priority_call" and e.params["call"] == "chi_any"
                           for e in card.effects)

    def __bool__(self) -> bool:
        return self.chi_any

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        """Her chi of any player's discard, as priority calls in place of the rules' chi."""
        if (not self.chi_any or view.seat != self.seat or view.discarder is None
                or view.tile is None or view.tile // 4 >= 27 or view.in_riichi
                or view.last_discard or view.unclaimable or view.kan_tile):
            return actions
        return [a for a in actions if a.kind != ActionKind.CHI] + \
            chi_options(view, self.seat, self.name)
