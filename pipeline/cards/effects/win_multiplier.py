"""``win_multiplier``: the win's value is multiplied."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.cards import scoring_effects
from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.table_reading import ippatsu_alive
from pipeline.rules.scoring import ScoringModifiers


def _ippatsu_threat(ctx: ScoringContext) -> bool:
    # another player's ippatsu still alive: the go-around in which she could deal into it
    return ctx.table is not None and any(ippatsu_alive(ctx.table.events(), s)
                                         for s in ctx.win.riichi_seats if s != ctx.seat)


# The wins multiplied, by ``when`` value: "always", the win's own conditions
# (:data:`pipeline.cards.scoring_effects.MULTIPLIER_CONDITIONS`), and the table's.
WHEN: dict[str, Callable[[ScoringContext], bool]] = {
    "always": lambda ctx: True,
    **{when: (lambda ctx, holds=holds: holds(ctx.win, ctx.seat))
       for when, holds in scoring_effects.MULTIPLIER_CONDITIONS.items()},
    "ippatsu_threat": _ippatsu_threat,
}


class WinMultiplier(CardEffect):
    """The win's value (before honba and sticks) is multiplied by ``factor`` when ``when``
    holds (:data:`WHEN`: ``always``, a condition of the win itself, or ``ippatsu_threat``:
    another player's ippatsu is still alive).

    Bot policy: no decision; the pick prices the multiplied value by the starting hand."""

    kind = "win_multiplier"
    supported = {"when": frozenset(WHEN)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        if WHEN[self.params["when"]](ctx):
            return ScoringModifiers(value_multiplier=self.params["factor"])
        return None
