"""``honor_sequences``: sequences of winds and of dragons."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect
from pipeline.rules.hand_shapes import HandShapes, honor_sequences

HONOR_SEQUENCES = HandShapes(honor_sequences())


class HonorSequences(CardEffect):
    """East-South-West, South-West-North and haku-hatsu-chun are sequences for her (no
    wrap-around: West-North-East is not one). The engine reads them through the
    ``hand_shapes`` hook for win detection, waits, furiten, riichi and chi, and scoring values
    the readings that use them (:mod:`pipeline.rules.scoring_shapes`: no fu, never part of
    ittsu, sanshoku or iipeikou).

    Bot policy: no decision: the bot counts her honor sequences as sets when it builds her hand
    (Kaori Senoo's policy is said in :mod:`pipeline.cards.shapes`)."""

    kind = "honor_sequences"

    def hand_shapes(self) -> HandShapes | None:
        return HONOR_SEQUENCES
