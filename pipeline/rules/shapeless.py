"""The value of a win on an always-winning tile: a tile an ability says wins for a seat whatever
the tile is.

Reading adopted here, to confirm with the card designers: *an always-winning tile acts as one of
the seat's winning tiles*. So the value depends on whether the hand without that tile is in
tenpai, by the engine's own wait function (the seat's extra sequences and tile aliases count,
:func:`pipeline.rules.hand_shapes.shaped_winning_types`):

- **In tenpai**, the win is valued as the best completion: the hand as if the tile were each tile
  type of its wait in turn, with the situational yaku of the actual win (tsumo or ron, riichi,
  ippatsu, haitei, houtei, rinshan, chankan) and the abilities' modifiers of the actual win. The
  highest total is kept; equal totals go to more han, then to the wait that comes first in tile
  order, so the choice is deterministic. With no yaku in any completion the tile does not win
  (rule H-03), as a real winning tile would not.
  Dora: the completion tile counts as the type it stands for (a dora or ura-dora if that type is
  one); the physical tile's own red five and dora are not carried over, because a tile that acts
  as a winning tile of another type should be worth exactly what that winning tile would be.
- **Not in tenpai**, no reading of groups exists, so only what does not depend on the shape
  counts ("shapeless"): the situational yaku (riichi or double riichi, ippatsu, menzen tsumo with
  a closed hand, haitei, houtei, rinshan kaihou, chankan), every dora, red five and ura-dora of
  the tiles held (the physical tile included), and the abilities' modifiers (values set, extra
  han, multipliers). Fu are 30: a closed ron's 20 + 10, rounded like a tsumo's 20 + 2. With no
  yaku left the win is not possible (rule H-03), unless a modifier allows a win without yaku.

Whether the tile wins at all (the ability, furiten) is decided elsewhere; this module only values
a win the engine has already allowed. A tile that itself completes the hand is valued by
:func:`pipeline.rules.scoring.score_win` as usual, before this module is asked.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.rules.hand_shapes import HandShapes, shaped_winning_types
from pipeline.rules.scoring import (
    NO_MODIFIERS,
    ScoringModifiers,
    ScoringRules,
    WinContext,
    WinResult,
    _Setup,
    _value,
    score_win,
)
from pipeline.tiles import RED_FIVE_IDS, counts34, type_to_str

SHAPELESS_FU = 30


def value_always_winning(ctx: WinContext, rules: ScoringRules,
                         modifiers: ScoringModifiers = NO_MODIFIERS
                         ) -> tuple[WinResult | None, int | None]:
    """Value of a win on an always-winning tile (see the module docstring), or None, and how it
    was valued, for the hand's event log: the tile type of the wait it counts as, or None when
    the hand wins whatever its shape (the waits are searched once for both)."""
    waits = tenpai_waits(ctx, modifiers)
    best = best_completion(ctx, rules, modifiers, waits) if waits else None
    if best is None:
        result = score_shapeless(ctx, rules, modifiers) if not waits else None
        return result, None
    return best[1], best[0]


def always_winning_text(valued_as: int | None) -> str:
    """How a win on an always-winning tile was valued, as the event log prints it."""
    if valued_as is None:
        return "always-winning tile: the hand wins whatever its shape"
    return (f"always-winning tile: valued as the winning tile {type_to_str(valued_as)} "
            "of the hand's wait")


def score_always_winning(ctx: WinContext, rules: ScoringRules,
                         modifiers: ScoringModifiers = NO_MODIFIERS) -> WinResult | None:
    """Value of a win on an always-winning tile (see the module docstring), or None."""
    return value_always_winning(ctx, rules, modifiers)[0]


def always_winning_note(ctx: WinContext, rules: ScoringRules,
                        modifiers: ScoringModifiers = NO_MODIFIERS) -> str:
    """How such a win was valued, for the hand's event log."""
    return always_winning_text(value_always_winning(ctx, rules, modifiers)[1])


def tenpai_waits(ctx: WinContext, modifiers: ScoringModifiers = NO_MODIFIERS) -> frozenset[int]:
    """The tile types the closed part without the winning tile waits on (empty: not tenpai).

    The seat's extra sequences and aliases reach scoring as modifiers, so they count here too.
    """
    rest = list(ctx.concealed)
    rest.remove(ctx.win_tile)
    shapes = HandShapes(modifiers.extra_sequences, modifiers.alias)
    return shaped_winning_types(counts34(rest), shapes)


def best_completion(ctx: WinContext, rules: ScoringRules, modifiers: ScoringModifiers,
                    waits: frozenset[int]) -> tuple[int, WinResult] | None:
    """The wait type whose completion is worth most, with its value; None when none scores."""
    best: tuple[int, WinResult] | None = None
    for t in sorted(waits):
        result = score_win(_completed(ctx, t), rules, modifiers)
        if result is None:
            continue
        if best is None or (result.total, result.han) > (best[1].total, best[1].han):
            best = (t, result)  # strict: the first wait in tile order wins a tie
    return best


def _completed(ctx: WinContext, wait: int) -> WinContext:
    """The win with its tile replaced by a plain (not red) tile of type ``wait``."""
    rest = list(ctx.concealed)
    rest.remove(ctx.win_tile)
    used = {*rest, *(x for m in ctx.melds for x in m.tiles)}
    plain = [wait * 4 + i for i in range(4) if wait * 4 + i not in RED_FIVE_IDS]
    tile = next((x for x in plain if x not in used), plain[0])
    return replace(ctx, concealed=(*rest, tile), win_tile=tile)


def score_shapeless(ctx: WinContext, rules: ScoringRules,
                    modifiers: ScoringModifiers = NO_MODIFIERS) -> WinResult | None:
    """Value of a win whose hand is not in tenpai without the tile (the module docstring's
    "shapeless" case), or None."""
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
