"""The hand's side of :class:`~pipeline.rules.hooks.TableControls`: what an ability may do to
the table during a hand (reveal or hide a hand, show tile types, move points, stake them, turn
more dora indicators), each logged, and the tsumo values it may ask about.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.rules.actions import AbilityTag
from pipeline.rules.records import (
    AbilityEffect,
)
from pipeline.tiles import (
    type_to_str,
)

if TYPE_CHECKING:
    pass  # imported here for the annotations only

from pipeline.rules.hand_end import HandEnd

_NO_TYPES: frozenset[int] = frozenset()


class HandControls(HandEnd):
    """What the table controls do to the hand, each logged."""

    def reveal_hand(self, seat: int, by: str) -> None:
        """Through :class:`TableControls`: the seat's tiles become public for this hand."""
        self.revealed.add(seat)
        self._revealed_by.setdefault(seat, set()).add(by)
        self.log("ability", seat, detail=f"{by}: hand revealed, played face up",
                 tag=AbilityTag.HAND_REVEALED, card=by)

    def hide_hand(self, seat: int, by: str) -> None:
        """Through :class:`TableControls`: the seat's tiles are hidden again, unless another
        ability still reveals them."""
        sources = self._revealed_by.get(seat, set())
        if by not in sources:
            return
        sources.discard(by)
        self.log("ability", seat, detail=f"{by}: hand hidden again", tag=AbilityTag.HAND_HIDDEN,
                 card=by, effect=AbilityEffect.BOOKKEEPING)
        if not sources:
            self.revealed.discard(seat)

    def show_types(self, seat: int, types: frozenset[int], by: str) -> None:
        """Through :class:`TableControls`: the seat's tiles of these types stay face up."""
        self.shown_types[seat] = self.shown_types.get(seat, frozenset()) | types
        shown = " ".join([type_to_str(t) for t in sorted(types)])
        self.log("ability", seat, detail=f"{by}: tiles {shown} kept face up",
                 tag=AbilityTag.TYPES_SHOWN, card=by, effect=AbilityEffect.BOOKKEEPING)

    def shown_tiles(self, seat: int) -> tuple[int, ...]:
        """The seat's concealed tiles lying face up now: all of them when the hand is revealed,
        else those of the types it must show and single tiles shown (while it holds them)."""
        concealed = self.players[seat].concealed
        if seat in self.revealed:
            return tuple(concealed)
        types = self.shown_types.get(seat, _NO_TYPES)
        ids = self.shown_ids.get(seat, ())
        return tuple([x for x in concealed if x // 4 in types or x in ids]) if types or ids else ()

    def transfer(self, payer: int, payee: int, points: int, by: str, what: str) -> None:
        """Through :class:`TableControls`: points paid between two seats during the hand."""
        self.scores[payer] -= points
        self.scores[payee] += points
        self.log("ability", payee, detail=f"{by}: {what}: P{payer} pays {points}, "
                 f"{points:+d} points", tag=AbilityTag.PAID, card=by,
                 effect=AbilityEffect.POINTS, payload=payer)

    def stake(self, seat: int, points: int, by: str, what: str) -> int:
        """Through :class:`TableControls`: points put on the table, at most what the seat has
        (rule C-18); the next winner collects them with the sticks."""
        amount = max(0, min(points, self.scores[seat]))
        self.scores[seat] -= amount
        self.stakes += amount
        self.log("ability", seat, detail=f"{by}: stake: {what}: stakes {amount} of {points} "
                 f"points, {-amount:+d} points", tag=AbilityTag.STAKED, card=by,
                 effect=AbilityEffect.POINTS, payload=amount)
        return amount

    def reveal_extra_dora(self, seat: int, count: int, by: str) -> int:
        """Through :class:`TableControls`: more dora indicators now (rule C-19)."""
        shown = 0
        while shown < count and self.wall.can_reveal():
            self.log("dora", tile=self.wall.reveal_indicator())
            shown += 1
        self.log("ability", seat, detail=f"{by}: riichi: {shown} more dora indicators revealed",
                 tag=AbilityTag.DORA_REVEALED, card=by, payload=shown)
        return shown

    def tsumo_value(self, seat: int) -> int:
        """The most a tsumo on the seat's hand would be worth now, abilities included (0 when
        it is not tenpai or no tsumo would score)."""
        best = self._best_tsumo(seat)
        if best is None:
            return 0
        return best.total if self.n == 4 else self._tsumo_total(seat, best)  # S-06

    def tsumo_shares(self, seat: int) -> tuple[int, ...]:
        """What each seat would pay on the seat's most valuable tsumo now (0 for the seat
        itself; all 0 when no tsumo would score)."""
        best = self._best_tsumo(seat)
        if best is None:
            return (0,) * self.n
        return tuple([0 if s == seat else self._tsumo_share(seat, s, best) for s in range(self.n)])
