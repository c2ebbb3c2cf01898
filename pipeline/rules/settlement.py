"""How a hand's ending moves points, as a list of transfers abilities may adjust before it is paid.

The hand loop builds a :class:`Settlement` for each win (and one for an exhaustive draw): the
rules' own payments as transfers (payer, payee, points) and who collects the table (riichi
sticks and stakes). The ``payments`` / ``draw_payments`` hooks adjust it through its methods;
each use is logged as an ``ability`` event with its value in points. Then the engine pays it:
every transfer moves points between two seats, so the four scores plus the points on the table
stay what they were (points are conserved), whatever the abilities did.

Two adjustments are applied last, whatever order the hooks ran in: exempt seats (a draw's
noten payments are recomputed without them, and no transfer touches them) and seats floored at
zero (their payments shrink so they end at 0, the receivers getting less).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.rules.actions import AbilityTag
from pipeline.rules.records import AbilityEffect, Event, HandRecord
from pipeline.rules.scoring import WinResult

Transfer = tuple[int, int, int]  # (payer, payee, points)


@dataclass(frozen=True)
class SettlementView:
    """What payment hooks may read about a hand's ending (read only)."""

    kind: str                          # "tsumo", "ron", "exhaustive" or an abortive draw's name
    winner: int | None                 # None at a draw
    from_seat: int | None              # the discarder of a ron; the winner of a tsumo
    result: WinResult | None
    honba: int
    dealer: int
    scores: tuple[int, ...]            # before this settlement
    table_points: int                  # riichi sticks and stakes on the table, in points
    tenpai: tuple[bool, ...]           # at a draw (empty for a win)
    riichi: tuple[bool, ...]           # accepted riichi per seat
    hands: tuple[tuple[int, ...], ...]  # every seat's concealed tiles now (a ron's tile not in)
    visible: tuple[int, ...]           # tiles everyone can see: face-up discards, melds, indicators
    events: tuple[Event, ...]          # the hand's log so far
    win_tile: int | None = None


@dataclass(frozen=True)
class RiichiView:
    """What the riichi hook may read when a riichi has just been accepted."""

    seat: int
    turn: int                          # the seat's discard number that declared it (1-based)
    scores: tuple[int, ...]            # after the stick was paid
    double: bool


@dataclass(frozen=True)
class HandEndView:
    """What the hand-end hook may read after every payment of the hand."""

    record: HandRecord                 # outcomes, wins, riichi, end scores (read only)
    scores: tuple[int, ...]
    tsumo_value: Callable[[int], int]  # the most a seat's tsumo would be worth now (0: none)
    # what each seat would pay on that tsumo (0 for the winner; all 0: no tsumo scores)
    tsumo_shares: Callable[[int], tuple[int, ...]] = lambda seat: (0, 0, 0, 0)


@dataclass
class Settlement:
    """The transfers of one ending, before they are paid."""

    view: SettlementView
    transfers: list[Transfer]
    table_to: int | None               # who collects sticks and stakes (None: they stay)
    noten_base: Callable[[frozenset[int]], list[Transfer]] | None = None
    # logs an ability event: (seat, text, the ability's name, its tag, what it did: an
    # AbilityEffect, play by default; what it names: the event's payload)
    log: Callable[..., None] = lambda seat, text, card="", tag=None, effect=None, payload=None: \
        None
    extra: list[Transfer] = field(default_factory=list)
    exempt_seats: set[int] = field(default_factory=set)
    floors: dict[int, str] = field(default_factory=dict)  # seat -> the ability that floors it

    @property
    def hook(self) -> str:
        return "payments" if self.view.winner is not None else "draw_payments"

    def transfer(self, payer: int, payee: int, points: int, by: str, what: str) -> None:
        """``payer`` pays ``payee`` (a negative amount pays the other way); one logged event."""
        self.collect(payee, {payer: points}, by, what)

    def collect(self, payee: int, payers: dict[int, int], by: str, what: str) -> None:
        """Each payer pays ``payee`` its amount (negative: the other way), logged as one event
        with the payee's net gain."""
        total = 0
        for payer, points in payers.items():
            if points == 0 or payer == payee:
                continue
            self.extra.append((payer, payee, points) if points > 0 else (payee, payer, -points))
            total += points
        if total:
            self.log(payee, f"{by}: {self.hook}: {what}, {total:+d} points", by,
                     AbilityTag.SETTLED, effect=AbilityEffect.POINTS, payload=total)

    def paid_by(self, seat: int) -> int:
        """Points the seat pays in the rules' own transfers of this ending."""
        return sum(p for a, _, p in self.transfers if a == seat)

    def take_table(self, seat: int, by: str, what: str) -> None:
        """The riichi sticks and stakes on the table go to ``seat`` instead."""
        self.table_to = seat
        if self.view.table_points:
            self.log(seat, f"{by}: {self.hook}: {what}: takes the table, "
                     f"{self.view.table_points:+d} points", by, AbilityTag.TABLE_TAKEN,
                     effect=AbilityEffect.POINTS, payload=self.view.table_points)

    def exempt(self, seat: int, by: str, what: str) -> None:
        """The seat neither pays nor receives in this ending (applied last)."""
        self.exempt_seats.add(seat)
        self.log(seat, f"{by}: {self.hook}: {what}: exempt from this ending's payments", by,
                 AbilityTag.EXEMPT)

    def floor_at_zero(self, seat: int, by: str) -> None:
        """The seat's payments shrink so that it ends at 0, not below (applied last)."""
        self.floors[seat] = by

    def scale_rule_payments(self, factor: int, by: str, what: str,
                            seats: frozenset[int] | None = None) -> None:
        """The rules' own transfers (those between ``seats``, default all) are multiplied."""
        for payer, payee, points in self.transfers:
            if seats is None or (payer in seats and payee in seats):
                self.transfer(payer, payee, points * (factor - 1), by, what)

    def final_transfers(self) -> list[Transfer]:
        """The rules' transfers (recomputed without exempt seats at a draw) and the abilities'
        ones, none touching an exempt seat."""
        base = self.transfers
        if self.exempt_seats and self.noten_base is not None:
            base = self.noten_base(frozenset(range(len(self.view.scores)))
                                   - frozenset(self.exempt_seats))
        return [t for t in (*base, *self.extra)
                if t[0] not in self.exempt_seats and t[1] not in self.exempt_seats]

    def deltas(self, scores: list[int], table_points: int) -> list[int]:
        """Each seat's change, the table included, with floors applied (logged)."""
        transfers = self.final_transfers()
        for seat in sorted(self.floors):
            gain = table_points if self.table_to == seat else 0
            gain += sum(p for _, b, p in transfers if b == seat)
            short = -(scores[seat] + gain - sum(p for a, _, p in transfers if a == seat))
            if short <= 0:
                continue
            saved = short
            for i in range(len(transfers) - 1, -1, -1):  # the last payments shrink first
                payer, payee, points = transfers[i]
                if payer != seat or short <= 0:
                    continue
                cut = min(points, short)
                transfers[i] = (payer, payee, points - cut)
                short -= cut
            self.log(seat, f"{self.floors[seat]}: {self.hook}: floor at zero: pays "
                     f"{saved - short} points less and ends at 0, {saved - short:+d} points",
                     self.floors[seat], AbilityTag.FLOOR_AT_ZERO, effect=AbilityEffect.POINTS)
        out = [0] * len(scores)
        for payer, payee, points in transfers:
            out[payer] -= points
            out[payee] += points
        if self.table_to is not None:
            out[self.table_to] += table_points
        return out


def noten_transfers(tenpai: tuple[bool, ...], seats: frozenset[int], total: int
                    ) -> list[Transfer]:
    """Rule H-12 among ``seats``: the noten players pay ``total`` to the tenpai ones, split
    evenly; nothing when all or none of them are tenpai."""
    ready = [s for s in sorted(seats) if tenpai[s]]
    noten = [s for s in sorted(seats) if not tenpai[s]]
    if not ready or not noten:
        return []
    each = total // (len(ready) * len(noten))
    return [(n, r, each) for n in noten for r in ready]


def table_shares(table: int, winners: int, rule: str) -> list[int]:
    """What each of several ron winners (nearest after the discarder first) collects of the
    ``table`` points (riichi sticks and stakes), by the ``multi_ron_sticks`` option (H-11):
    all to the nearest, or split evenly in hundreds with the remainder to the nearest."""
    if winners <= 1 or rule == "nearest":
        return [table] + [0] * max(0, winners - 1)
    each = table // (100 * winners) * 100
    return [table - each * (winners - 1)] + [each] * (winners - 1)
