"""How a hand ends and is paid: a win's value (abilities' scoring hooks merged), tsumo and ron
settlement with pao and honba, exhaustive and abortive draws, chombo, and the record closed.

Everything that moves points at the end of a hand goes through :meth:`HandEnd._settle` or the
draw's payments, where the ``payments`` and ``draw_payments`` hooks may adjust them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from pipeline.rules.actions import AbilityTag, MeldKind
from pipeline.rules.hooks import (
    TableControls,
    WinView,
    scoring_modifiers,
)
from pipeline.rules.records import (
    AbilityEffect,
    HandRecord,
    Outcome,
    WinRecord,
)
from pipeline.rules.scoring import (
    NO_MODIFIERS,
    ScoringModifiers,
    WinContext,
    WinResult,
    score_win,
)
from pipeline.rules.settlement import (
    HandEndView,
    Settlement,
    SettlementView,
    Transfer,
    noten_transfers,
    table_shares,
)
from pipeline.rules.shapeless import always_winning_text, score_always_winning, value_always_winning
from pipeline.tiles import (
    RED_FIVE_IDS,
    counts34,
    is_terminal_or_honor_type,
)

if TYPE_CHECKING:
    pass  # imported here for the annotations only

from pipeline.rules.hand_table import HandTable

# the dragon and wind types whose last set fed decides pao (rule M-08)
_PAO_SETS = (("Daisangen", range(31, 34)), ("Daisuushii", range(27, 31)))


class HandEnd(HandTable):
    """A hand's wins valued and paid, its draws settled and its record closed."""

    def _score(self, seat: int, tile: int, *, tsumo: bool, rinshan: bool = False,
               chankan: bool = False) -> WinResult:
        ctx = self.win_context(seat, tile, tsumo=tsumo, rinshan=rinshan, chankan=chankan)
        modifiers = self._modifiers(seat, ctx, None if tsumo else self._discarder(seat))
        result = self._score_win(ctx, modifiers)
        if result is None and self.abilities:  # an always-winning tile on an incomplete hand
            result, valued_as = value_always_winning(ctx, self.rules, modifiers)
            self.log("ability", seat, tile, detail=always_winning_text(valued_as),
                     tag=AbilityTag.ALWAYS_WINNING, effect=AbilityEffect.POINTS, payload=valued_as)
        assert result is not None, "a win was offered that does not score"
        if modifiers != NO_MODIFIERS:
            plain = score_win(ctx, self.rules)
            base_han, base_points = (plain.han, plain.total) if plain else (0, 0)
            if (result.han, result.total) != (base_han, base_points):  # a trigger changes value
                names = self._scorers(seat, ctx, None if tsumo else self._discarder(seat))
                self.log("ability", seat, detail=f"scoring: {result.han - base_han:+d} han, "
                         f"{result.total - base_points:+d} points ({', '.join(names)})",
                         tag=AbilityTag.SCORED, card=names[0] if names else "",
                         effect=AbilityEffect.POINTS, payload=result.han - base_han)
            if modifiers.ura_dora is not None or modifiers.extra_ura_indicators:
                self._ura_done.add(seat)  # an ability decides which ura indicators show
                riichi = ctx.riichi or ctx.double_riichi
                if self.rules.ura_dora and (riichi if modifiers.ura_dora is None
                                            else modifiers.ura_dora):
                    self.log("ura", seat, tiles=ctx.ura_indicators
                             + ctx.spare_ura[:modifiers.extra_ura_indicators])
        return result

    def _win_value(self, seat: int, ctx: WinContext, discarder: int | None, *,
                   complete: bool) -> WinResult | None:
        """A possible win's value: as a complete hand, else (an always-winning tile) by
        :func:`score_always_winning`; None when it does not score."""
        modifiers = self._modifiers(seat, ctx, discarder)
        result = self._score_win(ctx, modifiers) if complete else None
        if result is None and self.abilities and not complete:
            result = score_always_winning(ctx, self.rules, modifiers)
        return result

    def _score_win(self, ctx: WinContext, modifiers: ScoringModifiers) -> WinResult | None:
        """:func:`score_win`, remembering the last win valued: a win is valued when it is
        offered and again when it is declared, with the same context and modifiers."""
        last = self._last_valued
        if last is not None and last[0] == ctx and last[1] == modifiers:
            return last[2]
        result = score_win(ctx, self.rules, modifiers)
        self._last_valued = (ctx, modifiers, result)
        return result

    def _modifiers(self, seat: int, ctx: WinContext, discarder: int | None) -> ScoringModifiers:
        """Every ability's scoring hook for this win, merged (no abilities: no modifiers)."""
        if not self.abilities:
            return NO_MODIFIERS
        modifiers = scoring_modifiers(self.abilities, self._win_view(seat, ctx, discarder))
        shapes = self.players[seat].shapes  # readings with the seat's extra sequences count
        return replace(modifiers, extra_sequences=shapes.extra_sequences,
                       alias=shapes.alias) if shapes else modifiers

    def _scorers(self, seat: int, ctx: WinContext, discarder: int | None) -> list[str]:
        """The abilities whose scoring hook acts on this win (to name them in the log)."""
        view = self._win_view(seat, ctx, discarder)
        return [a.name for a in self.abilities
                if (m := a.scoring(view)) is not None and m != NO_MODIFIERS]

    def _win_view(self, seat: int, ctx: WinContext, discarder: int | None) -> WinView:
        declared = {q.seat: d.order for q in self.players if q.riichi_accepted
                    for d in q.discards if d.riichi}
        riichi = tuple(sorted(declared, key=declared.get))
        return WinView(seat, ctx, discarder, tuple(self.scores), self.dealer, riichi,
                       table_points=1000 * self.sticks, stakes=self.stakes,
                       melds=tuple([tuple(q.melds) for q in self.players]),
                       seen=self._seen_by(seat, ctx.win_tile),
                       ponds=self._pond_tiles(True))

    def _seen_by(self, seat: int, win_tile: int) -> tuple[int, ...]:
        """Type counts a seat could see before this win: its own tiles, every meld, face-up
        discards and dora indicators (the winning tile itself left out)."""
        tiles = [x for x in self.players[seat].concealed if x != win_tile]
        for q in self.players:
            tiles.extend(x for m in q.melds for x in m.tiles)
            tiles.extend([d.tile for d in q.discards if not d.face_down and not d.called
                         and d.tile != win_tile])
        tiles.extend(self.wall.dora_indicators)
        return tuple(counts34(tiles))

    def _ura(self, seat: int) -> None:
        if self.players[seat].riichi and self.rules.ura_dora and seat not in self._ura_done:
            self.log("ura", seat, tiles=self.wall.ura_indicators)

    def _pao_seat(self, seat: int, result: WinResult) -> int | None:
        """Who fed the third dragon or fourth wind set of a yakuman (rule M-08)."""
        if not self.preset.pao or not result.pao_yakuman:
            return None
        melds = self.players[seat].melds
        for name, types in _PAO_SETS:
            if name not in result.pao_yakuman:
                continue
            sets = [m for m in melds if m.tiles[0] // 4 in types and m.kind != MeldKind.CHI]
            if len(sets) == len(types) and sets[-1].is_open:
                return sets[-1].from_seat
        return None

    def _finish_tsumo(self, seat: int, rinshan: bool) -> HandRecord:
        p = self.players[seat]
        if self.abilities and self._chombo_winner([seat], None, p.drawn, tsumo=True) is not None:
            return self._chombo(seat, "an illegal tsumo")
        result = self._score(seat, p.drawn, tsumo=True, rinshan=rinshan)
        self._ura(seat)
        honba = self.honba
        pao = self._pao_seat(seat, result)
        fed = self.last_kan_from if (rinshan and self.preset.pao_rinshan) else None
        pay = [0] * self.n
        ron_honba = 100 * (self.n - 1) * honba  # 300 a count; 200 with three players (S-06)
        if pao is not None:  # the feeder pays the whole tsumo (as Tenhou settles it)
            total = result.ron_points + ron_honba
            pay[pao] += total
        elif fed is not None:  # rule K-06: rinshan off a fed open kan is paid as a ron
            pay[fed] += result.ron_points + ron_honba
        else:
            for s in self._others(seat):
                pay[s] += self._tsumo_share(seat, s, result) + 100 * honba
        win = self._win_record(seat, seat, result, pao if pao is not None else fed)
        self.log("tsumo", seat, p.drawn, detail=self._win_text(win))
        self._settle("tsumo", seat, seat, result,
                     [(s, seat, pay[s]) for s in range(self.n) if pay[s]])
        for s in self._others(seat):
            if pay[s]:
                self.record.seats[s].outcome = (Outcome.PAID_TSUMO if pao is None and fed is None
                                                else Outcome.PAO)
        self.record.seats[seat].outcome = Outcome.TSUMO_WIN
        self.record.wins.append(win)
        return self._close(dealer_continues=seat == self.dealer)

    def _finish_ron(self, winners: list[int], discarder: int, tile: int, *,
                    chankan: bool = False) -> HandRecord:
        chombo = self._chombo_winner(winners, discarder, tile, chankan=chankan)
        if chombo is not None:
            return self._chombo(chombo, f"an illegal ron off P{discarder}", discarder)
        shares = table_shares(1000 * self.sticks + self.stakes, len(winners),
                              self.preset.multi_ron_sticks)
        for i, seat in enumerate(winners):  # winners in turn order after the discarder
            result = self._score(seat, tile, tsumo=False, chankan=chankan)
            self._ura(seat)
            # rule H-11 options: honba to each winner, or to the nearest only (Tenhou)
            honba = self.honba if i == 0 or self.preset.multi_ron_honba == "each" else 0
            honba *= self.n - 1  # 300 a count; 200 with three players (S-06)
            pao = self._pao_seat(seat, result)
            if pao is not None and pao != discarder:  # rule M-08: feeder and discarder split
                half = result.ron_points // 2
                transfers = [(pao, seat, half),
                             (discarder, seat, result.ron_points - half + 100 * honba)]
                self.record.seats[pao].outcome = Outcome.PAO
            else:
                pao = None
                transfers = [(discarder, seat, result.ron_points + 100 * honba)]
            win = self._win_record(seat, discarder, result, pao)
            self.log("ron", seat, tile, detail=f"off P{discarder} " + self._win_text(win),
                     source=discarder)
            # sticks (and stakes) to the winner nearest the discarder, or shared out
            self._settle("ron", seat, discarder, result, transfers, collects=shares[i] > 0
                         or i == 0, table=shares[i] if len(winners) > 1 else None)
            self.record.wins.append(win)
            self.record.seats[seat].outcome = Outcome.RON_WIN
        self.record.seats[discarder].outcome = Outcome.DEALT_IN
        if self.preset.multi_ron_renchan == "nearest-winner":
            return self._close(dealer_continues=winners[0] == self.dealer)
        return self._close(dealer_continues=self.dealer in winners)

    def _win_record(self, seat: int, from_seat: int, r: WinResult, pao: int | None) -> WinRecord:
        # A tsumo that one player settles (pao, K-06 rinshan) is paid at its ron value.
        single_payer = seat != from_seat or pao is not None
        return WinRecord(seat=seat, from_seat=from_seat, han=r.han, fu=r.fu, points=r.ron_points
                         if single_payer else self._tsumo_total(seat, r), yaku=r.yaku,
                         dora=r.dora, aka=r.aka, ura=r.ura, limit=r.limit, yakuman=r.yakuman,
                         pao_seat=pao)

    def _tsumo_total(self, seat: int, r: WinResult) -> int:
        if self.n == 4:
            if seat == self.dealer:
                return 3 * r.tsumo_nondealer
            return r.tsumo_dealer + 2 * r.tsumo_nondealer
        return sum(self._tsumo_share(seat, s, r) for s in self._others(seat))

    def _tsumo_share(self, seat: int, payer: int, r: WinResult) -> int:
        """What one seat pays on a tsumo, honba aside. Four players: the dealer's or a
        non-dealer's share. Three (rule S-06): the same shares, the missing seat's lost
        ("tsumo-loss", Tenhou), or split evenly between the two payers in hundreds rounded up
        ("split")."""
        base = r.tsumo_dealer if payer == self.dealer else r.tsumo_nondealer
        if self.n == 4 or self.preset.tsumo_payment == "tsumo-loss":
            return base
        return base + -(-r.tsumo_nondealer // 200) * 100

    @staticmethod
    def _win_text(w: WinRecord) -> str:
        value = f"yakuman x{w.yakuman}" if w.yakuman else f"{w.han} han {w.fu} fu"
        yaku = ", ".join([n for n, _ in w.yaku])
        return f"{value} {w.points} ({yaku})"

    def _best_tsumo(self, seat: int) -> WinResult | None:
        p = self.players[seat]
        if len(p.concealed) % 3 != 1:
            return None
        best: WinResult | None = None
        for t in sorted(p.waits()):
            tile = next((x for x in sorted(range(4 * t, 4 * t + 4), key=RED_FIVE_IDS.__contains__)
                         if x not in p.concealed), None)  # a plain copy before a red five
            if tile is None:
                continue
            hand = [*p.concealed, tile]
            ctx = self.win_context(seat, tile, tsumo=True, concealed=hand)
            result = score_win(ctx, self.rules, self._modifiers(seat, ctx, None))
            if result is not None and (best is None or result.total > best.total):
                best = result
        return best

    def _tenpai(self, seat: int) -> bool:
        return bool(self.players[seat].waits()) and not self._dead_hand(seat)  # rule C-20

    def _exhaustive_draw(self) -> HandRecord:
        """Rule H-12 payments, or nagashi mangan (rule M-05)."""
        seats = range(self.n)
        tenpai = [self._tenpai(s) for s in seats]
        nagashi = [s for s in seats if self.preset.nagashi_mangan and self._is_nagashi(s)]
        pay = [0] * self.n
        if nagashi:
            for s in nagashi:
                for o in self._others(s):
                    amount = 4000 if (s == self.dealer or o == self.dealer) else 2000
                    pay[o] -= amount
                    pay[s] += amount
        else:
            n = sum(tenpai)
            if 0 < n < self.n:
                total = self.preset.noten_payment
                for s in seats:
                    pay[s] = total // n if tenpai[s] else -total // (self.n - n)
        if self.abilities:  # the same payments as transfers the draw-payment hooks may adjust
            pay = self._draw_settlement(tenpai, nagashi)
        for s in seats:
            self.scores[s] += pay[s]
            rec = self.record.seats[s]
            rec.outcome = Outcome.NAGASHI if s in nagashi else (
                Outcome.DRAW_TENPAI if tenpai[s] else Outcome.DRAW_NOTEN)
        self.log("draw_end", detail="exhaustive; tenpai: "
                 + (", ".join([f"P{s}" for s in seats if tenpai[s]]) or "nobody"))
        self.record.draw_kind = "nagashi_mangan" if nagashi else "exhaustive"
        self._return_deposits()
        return self._close(dealer_continues=tenpai[self.dealer])

    def _is_nagashi(self, seat: int) -> bool:
        d = self.players[seat].discards
        return bool(d) and all(is_terminal_or_honor_type(x.tile // 4) and not x.called for x in d)

    def _return_deposits(self) -> None:
        """Rule H-12 (single-hand preset): unclaimed riichi deposits go back to their owners."""
        if not self.preset.return_deposits_on_draw or not self.sticks:  # or an ability took them
            return
        for s, p in enumerate(self.players):
            if p.riichi_accepted:
                self.scores[s] += 1000
                self.sticks -= 1

    def _draw_settlement(self, tenpai: list[bool], nagashi: list[int]) -> list[int]:
        """An exhaustive draw's payments through the ``draw_payments`` hooks, as deltas (sticks
        and stakes the hooks hand out included). A riichi hand left noten (only an ability can
        do that) is chombo instead: it pays a reverse mangan (rule C-20)."""
        ready = tuple(tenpai)
        chombo = [s for s in range(self.n) if self.players[s].riichi_accepted and not tenpai[s]]
        total = self.preset.noten_payment
        transfers: list[Transfer] = []
        if chombo:
            for s in chombo:
                transfers.extend(self._reverse_mangan(s))
                self.log("chombo", s, detail="riichi hand noten at the draw: reverse mangan")
        elif nagashi:
            for s in nagashi:
                transfers.extend([(o, s, 4000 if self.dealer in (s, o) else 2000)
                                 for o in self._others(s)])
        else:
            transfers = noten_transfers(ready, frozenset(range(self.n)), total)
        base = None if (chombo or nagashi) else (
            lambda seats: noten_transfers(ready, seats, total))
        table = 1000 * self.sticks + self.stakes
        settlement = self._settlement("exhaustive", None, None, None, transfers, None, ready, base)
        for ability in self.abilities:
            ability.draw_payments(settlement)
        return self._collect(settlement.deltas(self.scores, table), settlement.table_to)

    def _reverse_mangan(self, seat: int) -> list[Transfer]:
        """A chombo's penalty (rule C-20): a mangan paid to the others as if by tsumo (a
        non-dealer pays 4,000 to the dealer and 2,000 to the others, a dealer 4,000 to each)."""
        return [(seat, o, 4000 if self.dealer in (seat, o) else 2000) for o in self._others(seat)]

    def _chombo(self, seat: int, what: str, discarder: int | None = None) -> HandRecord:
        """A declared win that is illegal (rule C-20: normal chombo rules): the seat pays a
        reverse mangan and the hand is played again by the same dealer (the sticks stay on the
        table; rule K-12: the counter is not raised). An illegal ron names its ``discarder``
        (the event's ``source``, as a ron's)."""
        self.log("chombo", seat, detail=f"{what}: reverse mangan", source=discarder)
        for payer, payee, points in self._reverse_mangan(seat):
            self.scores[payer] -= points
            self.scores[payee] += points
        self.record.draw_kind = "chombo"
        for rec in self.record.seats:
            rec.outcome = Outcome.ABORTIVE
        return self._close(dealer_continues=True)

    def _abort(self, kind: str) -> HandRecord:
        self.log("abort", detail=kind)
        self.record.draw_kind = kind
        for s in range(self.n):
            self.record.seats[s].outcome = Outcome.ABORTIVE
        if self.abilities:  # an abortive draw is a draw too: only the hooks move points
            table = 1000 * self.sticks + self.stakes
            settlement = self._settlement(kind, None, None, None, [], None)
            for ability in self.abilities:
                ability.draw_payments(settlement)
            for s, d in enumerate(self._collect(settlement.deltas(self.scores, table),
                                                settlement.table_to)):
                self.scores[s] += d
        self._return_deposits()
        return self._close(dealer_continues=True)

    def _settlement(self, kind: str, winner: int | None, from_seat: int | None,
                    result: WinResult | None, transfers: list[Transfer],
                    collector: int | None, tenpai: tuple[bool, ...] = (),
                    base: Callable[[frozenset[int]], list[Transfer]] | None = None) -> Settlement:
        win_tile = next((e.tile for e in reversed(self.events) if e.kind in ("tsumo", "ron")),
                        None) if winner is not None else None
        view = SettlementView(
            kind=kind, winner=winner, from_seat=from_seat, result=result, honba=self.honba,
            dealer=self.dealer, scores=tuple(self.scores),
            table_points=1000 * self.sticks + self.stakes, tenpai=tenpai,
            riichi=tuple([q.riichi_accepted for q in self.players]),
            hands=tuple([tuple(q.concealed) for q in self.players]), visible=self._visible(),
            events=tuple(self.events), win_tile=win_tile)
        return Settlement(view, transfers, collector, base,
                          log=lambda seat, text, card="", tag=None, effect=None, payload=None:
                          self.log("ability", seat, detail=text, tag=tag, card=card,
                                   effect=effect, payload=payload))

    def _settle(self, kind: str, winner: int, from_seat: int, result: WinResult,
                transfers: list[Transfer], *, collects: bool = True,
                table: int | None = None) -> None:
        """Pay one win: the rules' transfers as the ``payments`` hooks adjust them (without
        abilities, exactly the rules' payments); the collector takes the sticks and stakes
        (``table``: only that share of them, for one of several rons)."""
        if table is None:
            table = 1000 * self.sticks + self.stakes
        collector = winner if collects else None
        if not self.abilities:
            deltas = [0] * self.n
            for payer, payee, points in transfers:
                deltas[payer] -= points
                deltas[payee] += points
            if collector is not None:
                deltas[collector] += table
        else:
            settlement = self._settlement(kind, winner, from_seat, result, transfers, collector)
            for ability in self.abilities:
                ability.payments(settlement)
            deltas = settlement.deltas(self.scores, table)
            collector = settlement.table_to
        for s, d in enumerate(self._collect(deltas, collector)):
            self.scores[s] += d

    def _collect(self, deltas: list[int], collector: int | None) -> list[int]:
        """The table is empty once someone collected it."""
        if collector is not None:
            self.sticks = 0
            self.stakes = 0
        return deltas

    def _visible(self) -> tuple[int, ...]:
        """Tiles every seat can see: face-up discards not called, meld tiles, dora indicators."""
        tiles: list[int] = []
        for q in self.players:
            tiles.extend(x for m in q.melds for x in m.tiles)
            tiles.extend([d.tile for d in q.discards if not d.face_down and not d.called])
        tiles.extend(self.wall.dora_indicators)
        return tuple(tiles)

    def _close(self, *, dealer_continues: bool) -> HandRecord:
        rec = self.record
        rec.dealer_continues = dealer_continues
        if self.abilities:
            view = HandEndView(rec, tuple(self.scores), self.tsumo_value, self.tsumo_shares)
            controls = TableControls(self)
            for ability in self.abilities:
                ability.hand_end(view, controls)
        rec.sticks_end = self.sticks
        rec.stakes_end = self.stakes
        for s, p in enumerate(self.players):
            seat = rec.seats[s]
            seat.end_score = self.scores[s]
            seat.turns = p.turns
            seat.kans = p.kans
            if len(p.concealed) % 3 == 1:
                seat.tenpai_at_end = self._tenpai(s)
            else:
                seat.tenpai_at_end = seat.outcome == Outcome.TSUMO_WIN
        return rec
