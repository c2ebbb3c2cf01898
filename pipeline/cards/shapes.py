"""Tile-count primitives: what ``han_per_count`` and ``count_bonus`` count, and the policy of
``win_without_yaku`` (their classes are in :mod:`pipeline.cards.effects`; the extra sequences
of ``wrap_sequences`` and ``honor_sequences`` are in theirs).

- ``win_without_yaku``: a complete hand wins with no yaku; exactly 0 han counts as 1. Extra han
  of other abilities are still no yaku for anyone else (rule C-12). Bot policy (Kaori Senoo): no
  decision: the engine offers her yaku-less wins and honor sequences, and the bot takes every
  win offered; it counts her honor sequences as sets when it builds her hand
  (pipeline/bots/shaped.py) and calls without looking for a yaku, since she needs none.
- ``han_per_count``: han for every full group of something counted (extra han, rule C-12),
  optionally only on a reading with a given yaku (seven pairs).
- ``warm_tiles`` (for ``count_bonus``): tiles with red paint.

Which tiles are warm. The card says "tiles with red paint" and the rulebook (C-22) "all tiles
with red elements". On the standard Japanese tile set the red paint is: every manzu tile (the
character 萬 is printed red), the red dragon, the red fives, and these circle and bamboo faces:
1p (red centre), 3p (red middle circle), 5p (red centre), 6p and 7p (four red circles), 9p (red
middle row); 1s (the bird has red), 5s (red middle stick), 7s (red top stick), 9s (red middle
column). 2p, 4p and 8p are blue and green, 2s, 3s, 4s, 6s and 8s green only, winds are black,
the white dragon is blank or blue and the green dragon green. The character's story agrees: she
draws in "any tile that has red paint on it, typically the manzu and the red dragon".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pipeline.rules.hooks import WinView
from pipeline.tiles import RED_FIVE_IDS

# Tile types with red paint (see the module docstring): all manzu, 1 3 5 6 7 9 pin,
# 1 5 7 9 sou, the red dragon.
WARM_TYPES = frozenset(range(9)) | frozenset([9 + n - 1 for n in (1, 3, 5, 6, 7, 9)]) \
    | frozenset([18 + n - 1 for n in (1, 5, 7, 9)]) | frozenset({33})


def _all_tiles(win: WinView) -> list[int]:
    return [*win.ctx.concealed, *(x for m in win.ctx.melds for x in m.tiles)]


def warm_tiles(win: WinView) -> int:
    """Tiles with red paint in the winner's hand, melds included."""
    return sum(1 for x in _all_tiles(win) if x // 4 in WARM_TYPES or x in RED_FIVE_IDS)


def _own_pond_types(win: WinView) -> Counter[int]:
    pond = win.ponds[win.seat] if win.ponds else ()
    return Counter(x // 4 for x in pond)


# Counts for han_per_count, read from the winner's own pond (tiles lying there, face-down ones
# included; tiles others called are gone from it). Four copies are one triple, or two pairs.
PER_COUNTERS: dict[str, Callable[[WinView], int]] = {
    "triples_in_discards": lambda win: sum(n // 3 for n in _own_pond_types(win).values()),
    "pairs_in_own_discards": lambda win: sum(n // 2 for n in _own_pond_types(win).values()),
}


TILE_COUNTERS = {"warm_tiles": warm_tiles}
