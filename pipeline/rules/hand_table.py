"""What every part of a hand reads and does: the log of events, seat winds, the ponds as the
table sees them, and the context of a possible win. (Asking an agent stays with the turns, in
:mod:`pipeline.rules.hand`: the observations it builds are typed on the hand's state.)

:class:`HandTable` is the first layer of the hand's state built on the hook calls
(:class:`~pipeline.rules.hook_points.HookPoints`); the hand's other jobs extend it in turn
(see :mod:`pipeline.rules.hand`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from pipeline.rules.hook_points import HookPoints
from pipeline.rules.records import (
    AbilityEffect,
    DrawSource,
    Event,
    Payload,
)
from pipeline.rules.scoring import (
    WinContext,
)
from pipeline.rules.seats import DiscardInfo

if TYPE_CHECKING:
    pass  # imported here for the annotations only





class HandTable(HookPoints):
    """The log, seat winds, ponds and win contexts of a hand."""

    def log(self, kind: str, seat: int | None = None, tile: int | None = None,
            tiles: tuple[int, ...] = (), detail: str = "", *, tag: StrEnum | None = None,
            card: str = "", effect: AbilityEffect | None = None, source: int | None = None,
            tsumogiri: bool = False, drawn_from: DrawSource | None = None,
            payload: Payload = None) -> None:
        if kind == "ability":
            # a tag may say it only keeps its card's state (``bookkeeping``)
            effect = effect or (AbilityEffect.BOOKKEEPING if getattr(tag, "bookkeeping", False)
                                else AbilityEffect.PLAY)
        self.events.append(Event(kind, seat, tile, tiles, detail, tag, card, effect, source,
                                 tsumogiri, drawn_from, payload))

    def pond_view(self, seat: int, own: bool) -> tuple[tuple[DiscardInfo, ...],
                                                       tuple[int, ...]]:
        """A seat's pond as the table sees it (``own``: as the seat itself sees it, face-down
        tiles included) and its tiles. Agents read every pond at every decision, so both are
        kept until the pond grows or changes (``pond_changes``; hot path). A pond that only grew
        keeps what was kept and adds its new discards. ``own`` is positional (a call with a
        keyword builds a dict that the compiled method then parses)."""
        discards = self.pond_lists[seat]  # the seat's discards
        kept = self._pond_views[seat][own]
        size, changes = len(discards), self.pond_changes
        if kept[0] != size or kept[1] != changes:
            if kept[1] == changes and 0 <= kept[0] < size:  # grown by discards only
                new = [d for d in discards[kept[0]:] if own or not d.face_down]
                pond = kept[2][0] + tuple(new)
                tiles = kept[2][1] + tuple([d.tile for d in new])
            else:
                pond = tuple([d for d in discards if own or not d.face_down])
                tiles = tuple([d.tile for d in pond])
            kept = self._pond_views[seat][own] = (size, changes, (pond, tiles))
        return kept[2]

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % self.n

    def _others(self, seat: int) -> tuple[int, ...]:
        return self._others_of[seat]

    def _discarder(self, seat: int) -> int | None:
        """The seat whose tile is being claimed: the last seat that discarded or declared a kan."""
        return self.current_claim_from

    def win_context(self, seat: int, tile: int, *, tsumo: bool, rinshan: bool = False,
                    chankan: bool = False, concealed: list[int] | None = None) -> WinContext:
        p = self.players[seat]
        hand = list(p.concealed if concealed is None else concealed)
        if not tsumo:
            hand.append(tile)
        first = p.turns == 0 and self.uninterrupted and not rinshan
        last = self.wall.at_last_tile
        ura = self.wall.ura_indicators if self.rules.ura_dora else ()  # counted with riichi
        spare = self.wall.spare_ura(4) if self.abilities and self.rules.ura_dora else ()
        dora = self.wall.dora_indicators if self.preset.kan_dora else self.wall.dora_indicators[:1]
        return WinContext(
            concealed=tuple(hand), melds=tuple(p.melds), win_tile=tile, is_tsumo=tsumo,
            seat_wind=self.seat_wind(seat), round_wind=self.round_wind,
            is_dealer=seat == self.dealer, dora_indicators=dora, ura_indicators=ura,
            riichi=p.riichi and not p.double_riichi, double_riichi=p.double_riichi,
            ippatsu=p.ippatsu and self.rules.ippatsu, rinshan=rinshan and tsumo,
            chankan=chankan, haitei=tsumo and last and not rinshan,
            houtei=(not tsumo) and last and not chankan and not self.late_claim,
            tenhou=tsumo and first and seat == self.dealer,
            chiihou=tsumo and first and seat != self.dealer,
            renhou=(not tsumo) and first and seat != self.dealer and self.rules.renhou != "off",
            spare_ura=spare, kita=len(p.kita), sanma=self.sanma,
        )
