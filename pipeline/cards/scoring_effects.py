"""Scoring primitives for ura-dora rules, dealer scoring, wind yakuhai and local yaku.

Each primitive reads one effect's catalog parameters and a :class:`WinView` and returns the
:class:`ScoringModifiers` the effect adds to that win (or None). They are registered in
:mod:`pipeline.cards.abilities`; nothing here names a character, only effect kinds and their
parameter values.

Local yaku (rule C-25) are :class:`LocalYaku` objects the scoring seam values like the package's
own yaku: they can make a win legal, and a card's value for them replaces the default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.rules.agari import decompositions, winning_types
from pipeline.rules.hooks import WinView
from pipeline.rules.scoring import LocalYaku, ScoringModifiers, WinContext
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


def local_yaku(params: Mapping[str, Any], win: WinView, seat: int) -> ScoringModifiers | None:
    """A local yaku only this character may score (rule C-25), with ura-dora when the card says
    so (counted as for riichi, also without riichi)."""
    name, test = LOCAL_YAKU[params["yaku"]]
    if not test(win.ctx):
        return None
    yaku = DefinedLocalYaku(name, params["han"], params["han"], test)
    return ScoringModifiers(local_yaku=(yaku,), ura_dora=True if params["ura"] else None)


def ura_rule(params: Mapping[str, Any], win: WinView, seat: int) -> ScoringModifiers | None:
    """Others' wins count no ura-dora; her riichi win counts more ura indicators, taken from
    the dead wall after the revealed ones (rule C-19's way of finding room)."""
    if win.seat != seat:
        return ScoringModifiers(ura_dora=False) if params["others_get_none"] else None
    riichi = win.ctx.riichi or win.ctx.double_riichi
    if riichi and params["extra_indicators"]:
        return ScoringModifiers(extra_ura_indicators=params["extra_indicators"])
    return None


def score_as_dealer(params: Mapping[str, Any], win: WinView, seat: int
                    ) -> ScoringModifiers | None:
    """A riichi win is paid as a dealer's; as the dealer, mangan or more is paid one limit
    higher (mangan > haneman > baiman > sanbaiman > kazoe yakuman). Reading ``limit_step``:
    only as the real dealer (``real_dealer``, the default) or also on a riichi win scored as
    the dealer (``also_scored_as_dealer``)."""
    ctx = win.ctx
    if ctx.is_dealer:
        return ScoringModifiers(limit_steps=1)
    if ctx.riichi or ctx.double_riichi:
        step = 1 if params["limit_step"] == "also_scored_as_dealer" else 0
        return ScoringModifiers(as_dealer=True, limit_steps=step)
    return None


def _wind_melds(win: WinView) -> int:
    """Declared wind melds on the table (any kind, wind sequences too), except her own melds
    of a wind that already gives her yakuhai."""
    ctx = win.ctx
    melds = win.melds or tuple(ctx.melds if s == win.seat else ()
                               for s in range(len(win.scores) or 4))
    own_value = {27 + ctx.seat_wind, 27 + ctx.round_wind}
    count = 0
    for s, seat_melds in enumerate(melds):
        for m in seat_melds:
            types = {x // 4 for x in m.tiles}
            if not types <= set(WIND_TYPES):
                continue
            if s == win.seat and len(types) == 1 and types <= own_value:
                continue
            count += 1
    return count


def double_wind(params: Mapping[str, Any], win: WinView, seat: int) -> ScoringModifiers | None:
    """Her seat-wind triplet is worth 2 han (as when it is also the round wind), and each wind
    meld made by any player gives her one yakuhai: a real yaku, so it can make her win legal."""
    ctx = win.ctx
    values = {} if ctx.seat_wind == ctx.round_wind else {
        f"Yakuhai (seat wind {WIND_NAMES[ctx.seat_wind]})": 2}
    n = _wind_melds(win)
    local = (DefinedLocalYaku("Yakuhai (wind melds)", n, n, lambda c: True),) if n else ()
    return ScoringModifiers(yaku_values=values, local_yaku=local)


def always_riichi(params: Mapping[str, Any], win: WinView, seat: int) -> ScoringModifiers | None:
    """A closed win always has the riichi yaku (worth what riichi is worth to her) and counts
    ura-dora; a declared riichi is not counted twice."""
    ctx = win.ctx
    if any(m.is_open for m in ctx.melds):
        return None
    if ctx.riichi or ctx.double_riichi:
        return ScoringModifiers(ura_dora=True)
    return ScoringModifiers(local_yaku=(DefinedLocalYaku("Riichi", 1, 0, lambda c: True),),
                            ura_dora=True)


def third_row(turns: int) -> bool:
    """Her 13th to 18th discard (``turns`` discards made before this one)."""
    return 12 <= turns < 18


# --- conditions of condition_bonus and win_multiplier ---------------------------------------


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

SCORING_EFFECTS: dict[str, Callable[[Mapping[str, Any], WinView, int],
                                    ScoringModifiers | None]] = {
    "local_yaku": local_yaku,
    "ura_rule": ura_rule,
    "score_as_dealer": score_as_dealer,
    "double_wind": double_wind,
    "always_riichi": always_riichi,
}

# Kinds whose primitive also acts on other seats' wins (it checks ``win.seat`` itself).
ANY_WIN_KINDS = frozenset(("ura_rule",))
