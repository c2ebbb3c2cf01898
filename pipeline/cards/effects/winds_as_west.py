"""``winds_as_west``: each wind in her closed hand may be read as West."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect
from pipeline.rules.hand_shapes import HandShapes

WEST = 29
WINDS_AS_WEST = HandShapes(alias=((27, WEST), (28, WEST), (30, WEST)))


class WindsAsWest(CardEffect):
    """Each wind in her closed hand may be read as West (win detection, waits, riichi and
    scoring: the engine's ``hand_shapes`` hook, an ``alias`` of each other wind to West). Melds
    keep their own tiles, so she may pon or kan West only with real West tiles (the rules' own
    calls; C-22 Saki). A yaku counts once however many groups make it: two West triplets are
    one yakuhai (C-22 Saki), and dora count the tiles as they are. Her card's third clause (no
    win, except yakuman, holding a physical tile of Myeonghwa's seat wind) is Myeonghwa's own
    effect on every other player; it reads the physical tiles, so reading a wind as West does
    not avoid it.

    Bot policy: no decision: the bot takes every win the reading offers; its tile judgment does
    not read winds as West (Saki Miyanaga's policy is said in
    :mod:`pipeline.cards.abilities`)."""

    kind = "winds_as_west"

    def hand_shapes(self) -> HandShapes | None:
        return WINDS_AS_WEST
