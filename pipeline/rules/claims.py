"""Claims on a discard or a kan's tile, and the calls made: who may ron (waits, furiten,
always-winning tiles), pon, open kan or chi (rule H-05, kuikae H-07), a kan robbed, a missed
winning tile, and a call or kan laid down with what follows it (K-01, K-05).
"""
from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind
from pipeline.rules.hooks import (
    WinTileView,
)
from pipeline.rules.records import (
    HandRecord,
)

if TYPE_CHECKING:
    pass  # imported here for the annotations only

from pipeline.rules.legal_actions import LegalActions, _any_always_wins, _offer
from pipeline.rules.seats import PlayerState

KOKUSHI_NAME = "Kokushi Musou"
_RON, _CHI, _PON, _MINKAN = ActionKind.RON, ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN
# For each type: the sequences a chi on it may make, lowest first, as (lowest type, the two
# other types); none for honors.
_CHI_PARTNERS = tuple([
    tuple([(lo, *(x for x in (lo, lo + 1, lo + 2) if x != t)) for lo in (t - 2, t - 1, t)
          if lo >= 0 and lo // 9 == t // 9 and lo % 9 <= 6]) if t < 27 else ()
    for t in range(34)])


@cache
def kuikae_types(called: int, chi_low: int | None) -> frozenset[int]:
    """Tile types that may not be discarded right after a call (rule H-07).

    After a pon: the called type. After a chi: the called type and, when the called tile ends
    the sequence, the type that would complete the same sequence from the other end.
    """
    forbidden = {called}
    if chi_low is not None:
        if called == chi_low and called % 9 <= 5:
            forbidden.add(called + 3)
        if called == chi_low + 2 and called % 9 >= 3:
            forbidden.add(called - 3)
    return frozenset(forbidden)


class Claims(LegalActions):
    """Claims on a tile, ron checks, robbed kans and the calls laid down."""

    def claim_actions(self, seat: int, discarder: int, tile: int) -> list[Action]:
        """Claims one seat may make on a discard: ron, pon, open kan, chi (rule H-05)."""
        p = self.players[seat]
        acts: list[Action] = []
        t = tile // 4
        # a tile that is not a wait is asked about only for a seat whose ability may have
        # always-winning tiles (otherwise _can_ron says no at once: a call saved per seat and
        # discard)
        if (t in p.waits() or (self.abilities and self._own_listeners("always_wins", seat))) \
                and self._can_ron(seat, tile):
            acts.append(_offer(_RON, seat, tile))
        last = self.wall.last_discard
        if p.riichi and not last and self.abilities and self._riichi_kan(p, t):
            same = tuple(sorted([x for x in p.concealed if x // 4 == t]))
            acts.append(_offer(_MINKAN, seat, tile, same))
        if p.riichi or last:  # rule K-03: no open calls on the last discard
            return acts
        held = p.held()
        if held[t] >= 2:
            same = tuple(sorted([x for x in p.concealed if x // 4 == t]))
            forbidden = kuikae_types(t, None)
            for pair in combinations(same, 2):  # distinct ids, in order
                if self._leaves_discard(p, pair, forbidden):
                    acts.append(_offer(_PON, seat, tile, pair))
            if len(same) == 3 and self._kan_room() and p.kans < 4:
                acts.append(_offer(_MINKAN, seat, tile, same))
        if self.n == 4 and seat == (discarder + 1) % 4:  # rule S-02: no chi with three
            if t < 27:
                acts.extend(self._chi_actions(p, tile))
            if p.shapes:
                acts.extend(self._shaped_chi(p, tile))
        return acts

    def _chi_actions(self, p: PlayerState, tile: int) -> list[Action]:
        t = tile // 4
        held = p.held()
        acts = []
        for lo, need_a, need_b in _CHI_PARTNERS[t]:
            if not (held[need_a] and held[need_b]):
                continue
            a = sorted([x for x in p.concealed if x // 4 == need_a])  # tile ids are unique
            b = sorted([x for x in p.concealed if x // 4 == need_b])
            forbidden = kuikae_types(t, lo)
            for x in a:
                for y in b:
                    if self._leaves_discard(p, (x, y), forbidden):
                        acts.append(_offer(_CHI, p.seat, tile, (x, y)))
        return acts

    @staticmethod
    def _leaves_discard(p: PlayerState, used: tuple[int, ...], forbidden: frozenset[int]) -> bool:
        """Whether the hand keeps a tile it may discard after a call using ``used`` (H-07)."""
        for x in p.concealed:
            if x // 4 not in forbidden and x not in used:
                return True
        return False

    def _can_ron(self, seat: int, tile: int, *, chankan: bool = False,
                 kokushi_only: bool = False, face_down: bool = False) -> bool:
        p = self.players[seat]
        waits = p.waits()
        complete = tile // 4 in waits
        always = bool(self.abilities) and not kokushi_only and (face_down or not complete) \
            and self._always_wins(seat, tile, p, waits, face_down=face_down, chankan=chankan)
        if not always and (face_down or not complete):  # rule C-13: face down, only always
            return False
        if (p.temp_furiten or p.riichi_furiten or p.discard_furiten(waits)
                or (self.abilities and self._always_furiten(p, waits))) and not any(
                a.ignores_furiten(p.riichi) for a in self.abilities if a.seat == seat):  # H-09
            return False
        ctx = self.win_context(seat, tile, tsumo=False, chankan=chankan)
        result = self._win_value(seat, ctx, self._discarder(seat), complete=complete)
        if result is None:
            return False
        if not self._win_allowed(seat, ctx, self._discarder(seat), result.yakuman):
            return False
        return not kokushi_only or any(n.startswith(KOKUSHI_NAME) for n in result.yaku_names())

    def _always_wins(self, seat: int, tile: int, p: PlayerState, waits: frozenset[int], *,
                     face_down: bool, chankan: bool) -> bool:
        """Whether one of the seat's abilities makes this discarded tile win whatever the
        hand's shape (asked of every seat at every discard: no view is built when none of its
        abilities has always-winning tiles)."""
        own = self._own_listeners("always_wins", seat)
        if not own:
            return False
        view = WinTileView(seat, tile, tsumo=False, in_riichi=p.riichi, rinshan=False,
                           face_down=face_down, last=self.wall.at_last_tile and not chankan,
                           waits=waits, closed=p.is_closed)
        return _any_always_wins(own, view)

    def _always_type(self, p: PlayerState, tile: int) -> bool:
        """Whether this tile's type is always a winning tile for the seat now (a missed one
        makes the seat furiten as a missed wait does)."""
        own = self._own_listeners("always_wins", p.seat)
        if not own:
            return False
        view = WinTileView(p.seat, tile, tsumo=False, in_riichi=p.riichi, waits=p.waits(),
                           closed=p.is_closed, furiten_probe=True)
        return _any_always_wins(own, view)

    def _always_furiten(self, p: PlayerState, waits: frozenset[int]) -> bool:
        """Furiten from always-winning tiles (rule H-09 applied to them): a tile type in the
        seat's own face-up pond that its ability makes a winning tile now."""
        own = self._own_listeners("always_wins", p.seat)
        if not own:
            return False
        asked: set[int] = set()
        for d in p.discards:
            t = d.tile // 4
            if d.face_down or t in asked:  # rule C-13: face-down tiles are no furiten
                continue
            asked.add(t)
            view = WinTileView(p.seat, d.tile, tsumo=False, in_riichi=p.riichi, waits=waits,
                               closed=p.is_closed, furiten_probe=True)
            if _any_always_wins(own, view):
                return True
        return False

    def _missed(self, seat: int, tile: int) -> None:
        """A winning tile went by without a ron: furiten (rule H-09)."""
        p = self.players[seat]
        if tile // 4 in p.waits() or (self.abilities and self._own_listeners("always_wins", seat)
                                      and self._always_type(p, tile)):
            if p.riichi:
                p.riichi_furiten = True
            else:
                p.temp_furiten = True

    def _offer_rob(self, kan_seat: int, tile: int, *, kokushi_only: bool, kita: bool = False
                   ) -> HandRecord | None:
        winners = []
        self.current_claim_from = kan_seat
        for s in self._others(kan_seat):
            robbing = [Action(ActionKind.RON, s, tile)] if self._can_ron(
                s, tile, chankan=not kita, kokushi_only=kokushi_only) else []
            if robbing and self.abilities:  # the claim filters may block a ron on the kan tile
                robbing = [a for a in self._filter_claims(s, kan_seat, tile, robbing,
                                                          unclaimable=False, kan_tile=True)
                           if a.kind == ActionKind.RON]
            if robbing:
                choice = self.ask(s, [robbing[0], Action(ActionKind.PASS, s)])
                if choice.kind == ActionKind.RON:
                    winners.append(s)
                    continue
            self._missed(s, tile)
        if not winners:
            return None
        return self._finish_ron(winners, kan_seat, tile, chankan=not kita)

    def _call(self, seat: int, discarder: int, act: Action) -> tuple[int, str]:
        p = self.players[seat]
        tile = act.tile
        self._take_from_pond(tile)  # the last discard, or the pond tile of a priority call
        for x in act.tiles:
            p.concealed.remove(x)
        tiles = tuple(sorted((*act.tiles, tile)))
        kind = {ActionKind.CHI: MeldKind.CHI, ActionKind.PON: MeldKind.PON,
                ActionKind.MINKAN: MeldKind.MINKAN}[act.kind]
        meld = Meld(kind, tiles, tile, discarder)
        p.melds.append(meld)
        p.calls += 1
        self.record.seats[seat].calls += 1
        self.log(kind.value, seat, tile, tiles=tiles, detail=f"from P{discarder}",
                 source=discarder)
        self._interrupt()
        if kind == MeldKind.MINKAN:
            p.last_call = (kind.value, tile)
            self._flush_pending_dora()
            self._kan_done(seat, meld, concealed=False)
            self.last_kan_from = discarder
            if self.abilities:
                self._claim_made(seat, meld, discarder)
            return seat, "rinshan"
        p.kuikae = kuikae_types(tile // 4, tiles[0] // 4 if kind == MeldKind.CHI else None)
        if kind == MeldKind.CHI and p.shapes:
            p.kuikae = self._chi_kuikae(p, tile, act.tiles)
        p.last_call = (kind.value, tile)
        if self.abilities:
            self._claim_made(seat, meld, discarder)
        return seat, "none"

    def _kan_done(self, seat: int, meld: Meld, *, concealed: bool) -> None:
        p = self.players[seat]
        if not concealed and self.abilities and self._kans_closed(seat):
            p.melds[p.melds.index(meld)] = Meld(MeldKind.ANKAN, meld.tiles)
            concealed = True
            self.log("ability", seat, tiles=meld.tiles, detail="the kan becomes a closed kan",
                     tag=AbilityTag.CLOSED_KAN)
        p.kans += 1
        self.kan_count += 1
        self._interrupt()
        self._flush_pending_dora()  # an earlier kan's indicator comes first; none if robbed
        if self.preset.kan_dora:
            if concealed or not self.preset.kan_dora_open_after_discard:  # rule K-05
                if self.wall.can_reveal():  # rule C-19: extra indicators may use them up
                    self.log("dora", tile=self.wall.reveal_indicator())
            else:
                self.pending_dora += 1

    def _flush_pending_dora(self) -> None:
        while self.pending_dora:
            self.pending_dora -= 1
            if self.wall.can_reveal():
                self.log("dora", tile=self.wall.reveal_indicator())

    def _interrupt(self) -> None:
        """Any call or kan: the first go-around is broken and ippatsu ends (rule K-01)."""
        self.uninterrupted = False
        for q in self.players:
            q.ippatsu = False
