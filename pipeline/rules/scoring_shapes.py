"""Valuing a reading of a hand that holds extra sequences (wrap-around or honor sequences).

The `mahjong` package cannot split such hands, so :mod:`pipeline.rules.scoring` asks this module
for the readings (:func:`shaped_hands`) and for the fu and yaku of a reading that uses an extra
sequence (:func:`shaped_reading`). How an extra sequence counts:

- it is a sequence, never a triplet: no yakuhai, no toitoi, and it gives no fu; a wait completed
  by it is read as a two-sided wait (no wait fu), so it never costs pinfu;
- it takes part in no sequence-pattern yaku (ittsu, sanshoku doujun, iipeikou, ryanpeikou): a
  wrap-around 8-9-1 is no 7-8-9 and East-South-West is no 1-2-3;
- the family yaku read its tiles as they are (honitsu, chinitsu, tanyao, chanta, honors...).

Groups are 34-type lists sorted like the package's own (a meld keeps its sorted tiles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mahjong.constants import CHUN, HAKU, HATSU
from mahjong.hand_calculating.fu import FuCalculator, FuDetail
from mahjong.hand_calculating.yaku import Yaku

from pipeline.rules.hand_shapes import HandShapes, shaped_decompositions
from pipeline.tiles import counts34

if TYPE_CHECKING:
    from pipeline.rules.scoring import _Setup

_PROXY = [12, 13, 14]     # a plain 4-5-6 pin sequence stands in for an extra one when counting fu
_PROXY_WIN_TILE = 12 * 4  # its 4p, completing it from one side (a two-sided wait)


def _sorted_extra(extra: frozenset[tuple[int, ...]]) -> set[tuple[int, ...]]:
    return {tuple(sorted(seq)) for seq in extra}


def shaped_hands(setup: _Setup, extra: frozenset[tuple[int, ...]]) -> list[list[list[int]]]:
    """Every reading of the hand, extra sequences allowed, melds included as the package does
    (seven pairs too, when the closed hand is seven pairs)."""
    ctx = setup.ctx
    closed = counts34(ctx.concealed)
    melds = [list(m.tiles_34) for m in setup.melds]
    hands: list[list[list[int]]] = []
    for pair, sets in shaped_decompositions(closed, HandShapes(extra)):
        groups = [[pair, pair]] + [sorted(s) for s in sets] + melds
        hands.append(sorted(groups))
    if not melds and sum(closed) == 14 and all(c in (0, 2) for c in closed):
        hands.append([[t, t] for t in range(34) if closed[t]])
    return hands


def has_extra(hand: list[list[int]], extra: frozenset[tuple[int, ...]]) -> bool:
    keys = _sorted_extra(extra)
    return any(len(g) == 3 and tuple(g) in keys for g in hand)


def shaped_reading(setup: _Setup, hand: list[list[int]], win_group: list[int],
                   extra: frozenset[tuple[int, ...]]) -> tuple[list[FuDetail], int, list[Yaku]]:
    """Fu details, fu and the package's yaku for one reading that uses an extra sequence."""
    from pipeline.rules.scoring import _package_yaku

    keys = _sorted_extra(extra)
    config = setup.config
    is_extra = [len(g) == 3 and tuple(g) in keys for g in hand]
    proxy = [list(_PROXY) if e else g for g, e in zip(hand, is_extra, strict=True)]
    win_is_extra = len(win_group) == 3 and tuple(win_group) in keys
    win_tile = _PROXY_WIN_TILE if win_is_extra else setup.ctx.win_tile
    valued = [HAKU, HATSU, CHUN, config.player_wind, config.round_wind]
    fu_details, fu = FuCalculator.calculate_fu(
        proxy, win_tile, list(_PROXY) if win_is_extra else win_group, config, valued,
        setup.melds)
    y = config.yaku
    pattern = (y.ittsu, y.sanshoku, y.iipeiko, y.ryanpeiko)
    base = [k for k in _package_yaku(setup, hand, fu_details) if k not in pattern]
    plain = [g for g, e in zip(hand, is_extra, strict=True) if not e]
    if y.ittsu.is_condition_met(plain):
        base.append(y.ittsu)
    if not setup.is_open:
        if y.ryanpeiko.is_condition_met(plain):
            base.append(y.ryanpeiko)
        elif y.iipeiko.is_condition_met(plain):
            base.append(y.iipeiko)
    if y.sanshoku.is_condition_met(plain):
        base.append(y.sanshoku)
    return fu_details, fu, base
