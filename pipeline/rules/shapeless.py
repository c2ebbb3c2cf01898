"""The value of a win on an always-winning tile: a tile an ability says completes a seat's hand
whatever its shape.

When the hand with that tile is a complete hand, it is valued as usual (the engine tries that
first). When it is not, no reading of groups exists, so only what does not depend on the shape
counts: the situational yaku (riichi or double riichi, ippatsu, menzen tsumo with a closed hand,
haitei, houtei, rinshan kaihou, chankan), every dora, red five and ura-dora of the tiles held,
and the abilities' modifiers (values set, extra han, multipliers). Fu are 30: a closed ron's
20 + 10, rounded like a tsumo's 20 + 2. With no yaku left the win is not possible (rule H-03),
unless a modifier allows a win without yaku.
"""

from __future__ import annotations

from pipeline.rules.scoring import (
    NO_MODIFIERS,
    ScoringModifiers,
    ScoringRules,
    WinContext,
    WinResult,
    _Setup,
    _value,
)

SHAPELESS_FU = 30


def score_shapeless(ctx: WinContext, rules: ScoringRules,
                    modifiers: ScoringModifiers = NO_MODIFIERS) -> WinResult | None:
    """Value of a win whose hand is not complete (see the module docstring), or None."""
    setup = _Setup.build(ctx, rules, modifiers)
    y = setup.config.yaku
    closed = not setup.is_open
    situational = (
        (y.daburu_riichi, ctx.double_riichi),
        (y.riichi, ctx.riichi and not ctx.double_riichi),
        (y.ippatsu, ctx.ippatsu and rules.ippatsu),
        (y.tsumo, ctx.is_tsumo and closed),
        (y.haitei, ctx.haitei),
        (y.houtei, ctx.houtei),
        (y.rinshan, ctx.rinshan),
        (y.chankan, ctx.chankan),
    )
    base = [yaku for yaku, holds in situational if holds]
    candidate = _value(setup, modifiers, [], base, SHAPELESS_FU, [])
    return None if candidate is None else candidate.result
