"""What several scoring effects share: the local yaku (rule C-25) and the named win conditions
that ``condition_bonus`` counts and ``win_multiplier`` checks. The effects themselves are classes
in :mod:`pipeline.cards.effects`; nothing here names a character.

Local yaku (rule C-25) are :class:`LocalYaku` objects the scoring seam values like the package's
own yaku: they can make a win legal, and a card's value for them replaces the default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.rules.agari import decompositions, winning_types
from pipeline.rules.hooks import WinView
from pipeline.rules.scoring import LocalYaku, WinContext
from pipeline.tiles import counts34

WIND_NAMES = ("east", "south", "west", "north")
WIND_TYPES = range(27, 31)


@dataclass(frozen=True)
class DefinedLocalYaku(LocalYaku):
    """A local yaku whose presence is decided by a test on the win's tiles and melds."""

    test: Callable[[WinContext], bool] = lambda ctx: False

    def applies(self, ctx: WinContext, decomposition: list[list[int]]) -> bool:
        return self.test(ctx)


def is_shiiaru_raotai(ctx: WinContext) -> bool:
    """Rule C-25: four declared sets (a closed kan counts) and a pair wait (tsumo allowed)."""
    return len(ctx.melds) == 4 and len(ctx.concealed) == 2


def is_uumensai(ctx: WinContext) -> bool:
    """Rule C-25: manzu, pinzu, souzu, a wind and a dragon in the hand (open or seven pairs)."""
    types = {x // 4 for x in (*ctx.concealed, *(t for m in ctx.melds for t in m.tiles))}
    families = {min(t // 9, 3) if t < 27 else (3 if t < 31 else 4) for t in types}
    return families == {0, 1, 2, 3, 4}


# Local yaku the catalog may name: (display name, test). The han come from the card.
LOCAL_YAKU: dict[str, tuple[str, Callable[[WinContext], bool]]] = {
    "shiiaru_raotai": ("Shiiaru Raotai", is_shiiaru_raotai),
    "uumensai": ("Uumensai", is_uumensai),
}


def _waits(ctx: WinContext) -> frozenset[int]:
    hand = list(ctx.concealed)
    hand.remove(ctx.win_tile)
    return winning_types(counts34(hand))


def _pair_wait(ctx: WinContext) -> bool:
    """A single wait on the pair: the winning tile completes the pair (seven pairs too)."""
    t = ctx.win_tile // 4
    if _waits(ctx) != {t}:
        return False
    counts = counts34(ctx.concealed)
    if len(ctx.concealed) == 14 and sorted(c for c in counts if c) == [2] * 7:
        return True
    return any(pair == t for pair, _ in decompositions(counts))


def hell_wait(win: WinView, seat: int) -> bool:
    """A damaten win on a pair wait with 3 of the 4 copies visible to her before the win."""
    ctx = win.ctx
    closed = all(not m.is_open for m in ctx.melds)
    damaten = closed and not (ctx.riichi or ctx.double_riichi)
    return (damaten and bool(win.seen) and _pair_wait(ctx)
            and win.seen[ctx.win_tile // 4] == 3)


def on_riichi_discard_sticks(win: WinView, seat: int, params: Mapping[str, Any]) -> int:
    """Thousands of points on the table, when she wins with riichi or Shiiaru raotai on a tile
    discarded by a player in riichi (that riichi need not be hers, nor hers a chasing one).
    The reading ``table_points``: stakes count as points on the table (the default,
    ``sticks_and_stakes``) or only riichi sticks do (``sticks_only``)."""
    ctx = win.ctx
    if ctx.is_tsumo or win.discarder is None or win.discarder not in win.riichi_seats:
        return 0
    if not (ctx.riichi or ctx.double_riichi or is_shiiaru_raotai(ctx)):
        return 0
    stakes = win.stakes if params["table_points"] == "sticks_and_stakes" else 0
    return (win.table_points + stakes) // 1000


# ``condition_bonus`` conditions that give their han once per counted unit.
COUNTED_CONDITIONS: dict[str, Callable[[WinView, int, Mapping[str, Any]], int]] = {
    "ron_on_riichi_discard_per_stick": on_riichi_discard_sticks,
}

# ``win_multiplier`` conditions besides "always".
MULTIPLIER_CONDITIONS: dict[str, Callable[[WinView, int], bool]] = {
    "damaten_hell_wait": hell_wait,
}
