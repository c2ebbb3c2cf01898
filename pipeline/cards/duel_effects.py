"""Claim, win, block and duel effects: late rons, priority chi from anyone, damaten protection,
a blocked player, abilities switched off, a duel, and the stake for opening a hand.

:class:`DuelEffects` holds one card's effects of this family for one seat and one hand; the
:class:`~pipeline.cards.abilities.CardAbility` hooks delegate to it (through :class:`DuelHooks`
for the hooks nothing else answers). It acts only through the engine's hook points, the
:class:`~pipeline.rules.settlement.Settlement` and :class:`~pipeline.rules.hooks.TableControls`,
so every point it moves is logged and conserved. The primitives, by effect kind:

- ``late_ron`` (Sumire): after a discard nobody claimed (no call, no ron), she may ron that
  player's *previous* discard: the discard that player made just before this one, while it still
  lies face up in the pond (a called or face-down tile cannot be ronned; a discard from an extra
  turn counts like any other). Furiten is the rules' own (H-09), checked at that moment: her
  discards, a winning tile she let go by since her last discard (the discard just passed
  included) and riichi furiten all forbid it; declining it is letting a winning tile go by. A
  riichi declared with the unclaimed discard is accepted first (the winner collects its stick).
  The win is no houtei (the tile is not the last discard) and gets ``han`` extra han (not a
  yaku, rule C-12).
- ``priority_call`` ``chi_any`` (Yukiko): she may chi the discard of any player, and every chi of
  hers beats every other claim on that discard, ron included (C-22 Yukiko: claims on a discard
  are made at the same moment; she may not chi a tile from earlier in the pond: a late call is
  not valid). Kuikae (H-07) applies as after any chi.
- ``double_from_chi_sources`` (Yukiko): on her tsumo each player she called chi from this hand
  pays twice their payment (honba included), however many chi she called from them.
- ``dama_protection`` (Hiroe): while her hand is closed, tenpai and not in riichi (damaten) she
  pays nothing for another player's tsumo (exempt from that win's payments); a tile a
  higher-placed player (rule C-21 on equal points) draws as an ippatsu draw (C-24: in riichi,
  ippatsu alive) is always her winning tile while she is damaten: she may ron it when it is
  discarded whatever her hand's shape (being damaten she is in tenpai, so the tile acts as one
  of her winning tiles and the win is valued as her best completion:
  :mod:`pipeline.rules.shapeless`; the rules' furiten from her own waits still applies). In
  riichi she ignores furiten.
- ``blocks_calls`` (Sae): as she declares riichi she names another player, who may not call or
  ron (claims on a discard or a kan tile; their own kans are not calls)
  unless in riichi too, for the rest of the hand. From her declaration on, every other player's
  ability is switched off (rule C-20: a riichi hand made noten by it is chombo at the draw).
- ``duel`` (Megan): before her first discard she names a duel opponent, whose ability is switched
  off while the duel lasts. The rules' payments between the two duelists are multiplied by
  ``factor`` (a win of one off the other, each one's share of the other's tsumo, honba included,
  and the payments of an exhaustive draw between them: C-22 Megan). At an exhaustive draw with
  two noten players, each noten player (in turn order from the dealer) pays their whole noten
  payment to the nearest tenpai player after them in turn order who has not received points
  yet. When a player outside the duel has a riichi accepted, the duel ends (the opponent's
  ability works again).
- ``stake_rule`` ``open_hand_vs_aislinn`` (Aislinn): another player whose first call opens
  their hand stakes ``amount`` (rule C-18: at most what they have); later calls stake nothing.

Bot policies (the shared rules are in :mod:`pipeline.cards.abilities`; Aislinn's is there):

- Bot policy (Sumire Hirose): the late ron is taken whenever it is offered, as the bot takes
  every legal win (passing would only let a winning tile go by).
- Bot policy (Yukiko Maya): her priority chi from any player is judged like any chi (taken when
  it speeds up a hand that keeps a yaku and some value); the double payment needs no decision.
- Bot policy (Hiroe Atago): her choice is riichi or dama. In tenpai with a yaku that needs no
  riichi (all simples, a value-honor triplet, a flush) and two or more winning tiles the bot
  stays dama (``DAMA_CARD`` in :mod:`pipeline.bots.heuristic`): her damaten saves her share of
  others' tsumo and turns higher players' ippatsu draws into wins, worth more than riichi's
  han; without such a yaku it declares riichi as usual (her riichi ignores furiten). The ron
  on a higher player's ippatsu draw is taken like any win.
- Bot policy (Sae Usuzawa): at her riichi the bot blocks a player not in riichi (one in riichi
  may still call), the one with the most melds (a calling hand is fast), then the points leader
  (rule C-21 on equal points).
- Bot policy (Megan Davin): before her first discard the bot duels the points leader (rule C-21
  on equal points): double payments are worth most against the richest player, whose ability is
  then switched off; the pick prices the duel by the chance her starting hand wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.moves import Move
from pipeline.cards.table_effects import ippatsu_alive
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.agari import winning_types
from pipeline.rules.hand import kuikae_types
from pipeline.rules.hooks import (
    CallView,
    ClaimView,
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WinTileView,
    WinView,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import RiichiView, Settlement, Transfer
from pipeline.tiles import counts34

CALL_EVENTS = frozenset(("chi", "pon", "minkan"))

# Effect kinds implemented here, and the parameter values (joined to abilities.SUPPORTED_CHOICES).
DUEL_KINDS = frozenset(("late_ron", "double_from_chi_sources", "dama_protection", "blocks_calls",
                        "duel"))
SUPPORTED: dict[tuple[str, str], frozenset[str]] = {
    ("priority_call", "call"): frozenset(("chi_any",)),
    ("stake_rule", "when"): frozenset(("open_hand_vs_aislinn",)),
}


def placement_order(scores: tuple[int, ...], dealer: int) -> list[int]:
    """Seats from first to last (rule C-21: on equal points, farther from the dealer is lower)."""
    n = len(scores)  # three or four seats (rule S-01)
    return sorted(range(n), key=lambda s: (-scores[s], (s - dealer) % n))


def chi_options(view: ClaimView, seat: int, name: str) -> list[Action]:
    """Every chi of the discard ``view.tile`` from ``seat``'s concealed tiles, as priority calls,
    keeping a tile she may discard after it (kuikae, rule H-07)."""
    t = view.tile // 4
    out: list[Action] = []
    for lo in (t - 2, t - 1, t):
        if lo < 0 or lo // 9 != t // 9 or lo % 9 > 6:
            continue
        need = [x for x in (lo, lo + 1, lo + 2) if x != t]
        a = sorted({x for x in view.concealed if x // 4 == need[0]})
        b = sorted({x for x in view.concealed if x // 4 == need[1]})
        forbidden = kuikae_types(t, lo)
        for x in a:
            for y in b:
                rest = list(view.concealed)
                rest.remove(x)
                rest.remove(y)
                if any(r // 4 not in forbidden for r in rest):
                    out.append(ability_action(seat, name, AbilityTag.PRIORITY, view.tile,
                                              kind=ActionKind.CHI, tiles=(x, y)))
    return out


def routed_noten(tenpai: tuple[bool, ...], paid: Mapping[int, int], dealer: int
                 ) -> list[Transfer]:
    """C-22 Megan: each noten player, in turn order from the dealer, pays all it owes to the
    nearest tenpai player after it in turn order who has not received points yet."""
    received: set[int] = set()
    out: list[Transfer] = []
    seats = len(tenpai)  # three or four (rule S-01)
    for k in range(seats):
        n = (dealer + k) % seats
        if tenpai[n] or not paid.get(n):
            continue
        to = next((r for r in ((n + i) % seats for i in range(1, seats))
                   if tenpai[r] and r not in received), None)
        if to is None:
            return []
        received.add(to)
        out.append((n, to, paid[n]))
    return out


class DuelEffects:
    """One card's claim, win, block and duel effects for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        params: dict[str, Mapping[str, Any]] = {e.kind: e.params for e in card.effects}
        self.late_han = [e.params["han"] for e in card.effects if e.kind == "late_ron"]
        self.chi_any = any(e.kind == "priority_call" and e.params["call"] == "chi_any"
                           for e in card.effects)
        self.double_chi = "double_from_chi_sources" in params
        self.dama = "dama_protection" in params
        self.block = "blocks_calls" in params
        self.factor = int(params["duel"]["factor"]) if "duel" in params else 0
        self.open_stake = [e.params["amount"] for e in card.effects if e.kind == "stake_rule"
                           and e.params["when"] == "open_hand_vs_aislinn"]
        self.table: TableControls | None = None
        self.late_tile: int | None = None       # the earlier discard offered for a late ron
        self.chi_from: set[int] = set()         # players she called chi from
        self.ippatsu_tiles: set[int] = set()    # higher players' ippatsu draws (her win tiles)
        self.blocked: int | None = None         # the player her riichi blocks
        self.opponent: int | None = None        # the duel opponent
        self.duel_at = 0
        self.duel_over = False
        self._any = bool(self.late_han or self.chi_any or self.double_chi or self.dama
                         or self.block or self.factor or self.open_stake)  # asked very often

    def __bool__(self) -> bool:
        return self._any

    def _events(self) -> tuple:
        return self.table.events() if self.table is not None else ()

    # ------------------------------------------------------------------ the hand's course

    def hand_start(self, table: TableControls) -> None:
        self.table = table

    def turn_choices(self, view: OwnTurnView) -> list[Action]:
        """Before her first discard: name a duel opponent."""
        if not self.factor or self.opponent is not None or view.turns:
            return []
        return [ability_action(self.seat, self.name, Move.DUEL, payload=s,
                               detail=f"{self.name}:duel:P{s}")
                for s in range(len(view.scores) or 4) if s != self.seat]

    def riichi_choices(self, view: OwnTurnView) -> list[Action]:
        """As she declares riichi: name the player she blocks."""
        if not self.block or view.seat != self.seat or self.blocked is not None:
            return []
        return [ability_action(self.seat, self.name, Move.BLOCK, payload=s,
                               detail=f"{self.name}:block:P{s}")
                for s in range(len(view.scores) or 4) if s != self.seat]

    def action_taken(self, action: Action) -> None:
        if action.tag is Move.DUEL:
            self.opponent = action.payload
            self.duel_at = len(self._events())
        elif action.tag is Move.BLOCK:
            self.blocked = action.payload

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        """Sae in riichi: every other seat; Megan's duel: the opponent."""
        if self.block:
            at = next((i for i, e in enumerate(self._events())
                       if e.kind == "riichi" and e.seat == self.seat), None)
            if at is not None:
                return at, frozenset([s for s in range(4) if s != self.seat])
        if self.opponent is not None and not self.duel_over:
            return self.duel_at, frozenset((self.opponent,))
        return None

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        """A riichi from outside the duel ends it."""
        if self.opponent is not None and not self.duel_over and \
                view.seat not in (self.seat, self.opponent):
            self.duel_over = True
            table.note(self.seat, self.name, f"P{view.seat}'s riichi ends the duel")

    def after_draw(self, view: DrawView) -> None:
        """A late ron is offered right after a discard; a higher player's ippatsu draw becomes
        her winning tile."""
        self.late_tile = None
        if not self.dama or view.seat == self.seat or view.tile is None or self.table is None:
            return
        events = self._events()
        order = placement_order(self.table.scores(), self.table.dealer())
        if order.index(view.seat) < order.index(self.seat) and ippatsu_alive(events, view.seat):
            self.ippatsu_tiles.add(view.tile)

    # ------------------------------------------------------------------ claims

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        if self.blocked is not None and view.seat == self.blocked and \
                view.discarder is not None and not view.in_riichi:
            return []  # the blocked player may not call or ron unless in riichi too
        if (not self.chi_any or view.seat != self.seat or view.discarder is None
                or view.tile is None or view.tile // 4 >= 27 or view.in_riichi
                or view.last_discard or view.unclaimable or view.kan_tile):
            return actions
        return [a for a in actions if a.kind != ActionKind.CHI] + \
            chi_options(view, self.seat, self.name)

    def claim_made(self, view: CallView) -> None:
        if self.double_chi and view.seat == self.seat and view.kind == "chi":
            self.chi_from.add(view.from_seat)  # read only for the doubled payments
        if self.open_stake and view.seat != self.seat and self.table is not None:
            calls = sum(1 for e in self._events() if e.kind in CALL_EVENTS and e.seat == view.seat)
            if calls == 1:  # this call opened the hand
                for amount in self.open_stake:
                    self.table.stake(view.seat, amount, self.name, "opened the hand")

    def late_claims(self, view: DiscardView) -> list[Action]:
        """A ron on the discarder's previous discard."""
        if not self.late_han or view.seat == self.seat or view.previous is None:
            return []
        self.late_tile = view.previous
        return [ability_action(self.seat, self.name, AbilityTag.LATE, view.previous,
                               kind=ActionKind.RON)]

    # ------------------------------------------------------------------ wins

    def always_wins(self, view: WinTileView) -> bool:
        return (self.dama and view.seat == self.seat and not view.tsumo and not view.in_riichi
                and not view.furiten_probe
                and view.closed and bool(view.waits) and view.tile in self.ippatsu_tiles)

    def ignores_furiten(self, in_riichi: bool) -> bool:
        return self.dama and in_riichi

    def scoring(self, win: WinView) -> list[ScoringModifiers]:
        if win.seat == self.seat and self.late_han and not win.ctx.is_tsumo and \
                win.discarder is not None and win.ctx.win_tile == self.late_tile:
            return [ScoringModifiers(extra_han=(("late_ron", sum(self.late_han)),))]
        return []

    # ------------------------------------------------------------------ payments

    def _duel(self) -> frozenset[int] | None:
        if self.factor and self.opponent is not None and not self.duel_over:
            return frozenset((self.seat, self.opponent))
        return None

    def _damaten(self, s: Settlement) -> bool:
        hand = s.view.hands[self.seat]
        opened = any(e.kind in CALL_EVENTS and e.seat == self.seat for e in self._events())
        return (not opened and not s.view.riichi[self.seat] and len(hand) % 3 == 1
                and bool(winning_types(counts34(hand))))

    def payments(self, s: Settlement) -> None:
        v = s.view
        if self.double_chi and v.kind == "tsumo" and v.winner == self.seat:
            for src in sorted(self.chi_from):
                paid = s.paid_by(src)
                if paid:
                    s.transfer(src, self.seat, paid, self.name,
                               f"P{src} (she called chi from) pays double")
        if self.dama and v.kind == "tsumo" and v.winner != self.seat and self._damaten(s):
            s.exempt(self.seat, self.name, "damaten: pays nothing for another's tsumo")
        duel = self._duel()
        if duel is not None and v.winner in duel:
            s.scale_rule_payments(self.factor, self.name, "duel payments", seats=duel)

    def draw_payments(self, s: Settlement) -> None:
        duel = self._duel()
        if duel is None or s.view.kind != "exhaustive" or not s.transfers:
            return
        v = s.view
        desired = list(s.transfers)
        if s.noten_base is not None and sum(1 for t in v.tenpai if not t) == 2:
            paid = {n: s.paid_by(n) for n in range(len(v.tenpai))}
            desired = routed_noten(v.tenpai, paid, v.dealer) or desired
        desired = [(a, b, p * self.factor if {a, b} == duel else p) for a, b, p in desired]
        net: dict[tuple[int, int], int] = {}
        for sign, transfers in ((1, desired), (-1, s.transfers)):
            for a, b, p in transfers:
                key, amount = ((a, b), p) if a < b else ((b, a), -p)
                net[key] = net.get(key, 0) + sign * amount
        for (a, b), amount in sorted(net.items()):
            if amount:
                s.transfer(a, b, amount, self.name, "duel: noten payments routed and doubled")


class DuelHooks:
    """The hooks a card ability answers through its :class:`DuelEffects` (``self.duel``) before
    the other mixins (``super()`` keeps theirs)."""

    duel: DuelEffects

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        actions = super().claim_filter(view, actions)  # type: ignore[misc]
        return self.duel.claim_filter(view, actions) if self.duel else actions

    def late_claims(self, view: DiscardView) -> list[Action]:
        return self.duel.late_claims(view) if self.duel else []

    def riichi_choices(self, view: OwnTurnView) -> list[Action]:
        return self.duel.riichi_choices(view) if self.duel else []

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        return self.duel.switched_off() if self.duel else None

    def after_draw(self, view: DrawView) -> None:
        super().after_draw(view)  # type: ignore[misc]
        if self.duel:
            self.duel.after_draw(view)

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        super().riichi(view, table)  # type: ignore[misc]
        if self.duel:
            self.duel.riichi(view, table)

    def claim_made(self, view: CallView) -> None:
        super().claim_made(view)  # type: ignore[misc]
        if self.duel:
            self.duel.claim_made(view)

    def always_wins(self, view: WinTileView) -> bool:
        return (bool(self.duel) and self.duel.always_wins(view)) or \
            super().always_wins(view)  # type: ignore[misc]

    def ignores_furiten(self, in_riichi: bool) -> bool:
        return self.duel.ignores_furiten(in_riichi) or \
            super().ignores_furiten(in_riichi)  # type: ignore[misc]

    def payments(self, settlement: Settlement) -> None:
        super().payments(settlement)  # type: ignore[misc]
        if self.duel:
            self.duel.payments(settlement)

    def draw_payments(self, settlement: Settlement) -> None:
        super().draw_payments(settlement)  # type: ignore[misc]
        if self.duel:
            self.duel.draw_payments(settlement)
