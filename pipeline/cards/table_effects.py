"""The names the swap effects still import from here: they live in
:mod:`pipeline.cards.table_reading` now. The table effects themselves are classes
(:mod:`pipeline.cards.effects`: ``call_payment``, ``always_winning_tile``, and the values of
``extra_turn``, ``face_down_discard``, ``open_hands`` and ``han_per_count`` played here before).
"""

from __future__ import annotations

from pipeline.cards.table_reading import EXTRA_TURN_EVENTS, ippatsu_alive, table_seats

__all__ = ["EXTRA_TURN_EVENTS", "ippatsu_alive", "table_seats"]
