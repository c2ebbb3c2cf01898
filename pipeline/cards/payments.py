"""Payment, stake and dora effects: the primitives behind the payment hooks of a card ability.

Each :class:`~pipeline.cards.abilities.CardAbility` holds one :class:`PaymentEffects` for its
hand; the ability's hooks delegate here. The effects act only through the engine's narrow means:
a :class:`~pipeline.rules.settlement.Settlement` (transfers, taking the table, exemption, a floor
at zero) and :class:`~pipeline.rules.hooks.TableControls` (stakes, extra dora indicators), so
every point they move is logged and conserved. What must outlive the hand goes to the match's
:class:`~pipeline.cards.memory.MatchMemory` through :meth:`PaymentEffects.remember`.

Effect kinds covered: ``payment_per_out`` (live outs on her win, winning tiles held against
another's win), ``tsumo_full_ron``, ``stake_rule`` (stakes when a player deals in while she is
tenpai, a tsumo worth less than hers, the once-per-match Inazuma riichi), ``table_sweep``,
``floor_at_zero``, ``extra_dora_stake`` (C-19), ``ignore_dora`` (no riichi, no dora, no furiten,
no exhaustive-draw payments), ``honba_by_han`` and ``dora_multiplier`` (lost for the match on a
known dora discarded outside riichi), plus the ``condition_bonus`` that needs the last hand
(``early_riichi_after_dealing_in``).

Bot policies (the shared rules are in :mod:`pipeline.cards.abilities`):

- Bot policy (Kei Arakawa): no decision; the pick counts about six live outs on her wins and,
  now and then, a winner's tile held.
- Bot policy (Hitomi Ezaki): no decision: both stakes follow from the hand's result; the pick
  gives each a small fixed worth.
- Bot policy (Kirame Hanada): when the bot declares riichi (its usual rule) below the points
  limit, it stakes half her points for the extra indicators while 24 or more live tiles are
  left (``STAKE_RIICHI_MIN_TILES``): the stake comes back on her win, so it pays while the riichi
  is early enough to win often; later, the plain riichi. The floor at zero needs no decision.
- Bot policy (Huiyu Hao): no decision: riichi is never offered to her, furiten and noten
  payments need none; the bot still keeps dora as value (it does not know they give her
  nothing), and the pick counts her lost dora against the full-ron tsumo.
- Bot policy (Kana Ikeda): the Inazuma riichi is chosen over a plain riichi when she has at
  least 15,000 points and 24 or more live tiles are left (``STAKE_RIICHI_MIN_POINTS``,
  ``STAKE_RIICHI_MIN_TILES``): the 5,000 stake comes back on her win, so it pays while the riichi
  is early and she can afford it. The 1-han yaku doubled in last place need no decision.
- Bot policy (Kuro Matsumi): no decision: the bot values her dora as it values any dora when it
  chooses a discard, with no extra guard, so it may still lose them for the match by letting one
  go outside riichi; the pick prices the doubled dora of the starting hand.
- Bot policy (Teru Miyanaga): no decision: the bot calls, declares riichi and takes extra turns
  by its usual rules, not to add honba; the pick prices the honba on the table and a few added.
- Bot policy (Nelly Virsaladze): no decision: the sweep and the early-riichi han follow from the
  hand's result and her riichi turn; the pick prices the sweep by the chance of a drawn hand or
  her deal-in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.memory import MatchMemory
from pipeline.cards.table_effects import EXTRA_TURN_EVENTS
from pipeline.rules.actions import AbilityTag, Action, ability_action
from pipeline.rules.agari import winning_types
from pipeline.rules.hooks import AbilityHooks, OwnTurnView, TableControls, WinView
from pipeline.rules.records import Event
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import HandEndView, RiichiView, Settlement
from pipeline.tiles import RED_FIVE_IDS, counts34, dora_from_indicator

PAYMENT_KINDS = frozenset((
    "payment_per_out", "tsumo_full_ron", "stake_rule", "table_sweep", "floor_at_zero",
    "extra_dora_stake", "ignore_dora", "honba_by_han", "dora_multiplier"))
STAKE_WHEN = frozenset(("deal_in_while_tenpai", "tsumo_below_her_value", "inazuma_riichi"))
MEMORY_CONDITIONS = frozenset(("early_riichi_after_dealing_in",))

# Optional choices these effects offer (``"<card id>:<what>"`` actions next to a plain riichi).
RIICHI_CHOICES = frozenset(("riichi:inazuma", "riichi:dora_stake"))

# Log kinds that add a honba for Teru (calls, riichi declarations), and the tags of the ability
# events that add one too (extra turns, tile swaps).
HONBA_EVENTS = frozenset(("chi", "pon", "minkan", "riichi"))
HONBA_ABILITY_TAGS = EXTRA_TURN_EVENTS | {AbilityTag.SWAPPED}


def live_outs(hand: Sequence[int], waits: frozenset[int], visible: Sequence[int]) -> int:
    """Copies of the winning types not in the hand and not visible (rule C-24's live outs)."""
    own = counts34(hand)
    seen = counts34(visible)
    return sum(max(0, 4 - own[t] - seen[t]) for t in waits)


def waits_before_win(view_hands: Sequence[Sequence[int]], seat: int, win_tile: int | None,
                     tsumo: bool) -> tuple[list[int], frozenset[int]]:
    """The seat's hand and winning types just before the win (a tsumo's tile taken out)."""
    hand = list(view_hands[seat])
    if tsumo and win_tile is not None and win_tile in hand:
        hand.remove(win_tile)
    return hand, winning_types(counts34(hand))


def added_honba(events: Sequence[Event]) -> int:
    """Honba Teru adds: one per call, riichi declaration, extra turn or swap in the hand."""
    n = 0
    for e in events:
        if e.kind in HONBA_EVENTS:
            n += 1
        elif e.kind == "ability" and e.tag in HONBA_ABILITY_TAGS:
            n += 1
    return n


def known_dora_discarded(events: Sequence[Event], seat: int, red_fives: bool) -> bool:
    """Whether the seat discarded a tile that was a known dora at the time, outside riichi
    (C-22 Kuro: later indicators do not count). The riichi declaration tile is her own choice,
    so it counts; the tiles after it are forced and do not."""
    dora: set[int] = set()
    declared = in_riichi = False
    for e in events:
        if e.kind == "dora" and e.tile is not None:
            dora.add(dora_from_indicator(e.tile // 4))
        elif e.kind == "riichi" and e.seat == seat:
            declared = True
        elif e.kind == "discard" and e.seat == seat and e.tile is not None:
            if not in_riichi and (e.tile // 4 in dora or (red_fives and e.tile in RED_FIVE_IDS)):
                return True
            in_riichi = in_riichi or declared
    return False


class PaymentEffects:
    """One card's payment, stake and dora effects for one seat and one hand."""

    def __init__(self, card: Card, seat: int, memory: MatchMemory) -> None:
        self.seat = seat
        self.name = card.id
        self.memory = memory
        self.params: dict[str, list[Mapping[str, Any]]] = {}
        for e in card.effects:
            if e.kind in PAYMENT_KINDS or (e.kind == "condition_bonus"
                                            and e.params["when"] in MEMORY_CONDITIONS):
                key = e.params["when"] if e.kind in ("stake_rule", "condition_bonus") else e.kind
                self.params.setdefault(key, []).append(e.params)
        self.table: TableControls | None = None
        self.declared: str | None = None    # the riichi choice made with the declaration
        self.inazuma = False                # her Inazuma riichi was accepted this hand
        self.riichi_turn: int | None = None
        self.imposed: list[tuple[int, int, str]] = []  # (seat, points, why) for the next hand
        self.floored = False
        self.honba_reading = next((e.params["honba"] for e in card.effects
                                   if e.kind == "honba_by_han"), "total")
        self.deal_in_stake = next((e.params["stake"] for e in card.effects
                                   if e.kind == "stake_rule"
                                   and e.params["when"] == "deal_in_while_tenpai"), "tsumo_share")
        self.dora_lost_now = False

    def __bool__(self) -> bool:
        return bool(self.params)

    def _one(self, key: str) -> Mapping[str, Any] | None:
        found = self.params.get(key)
        return found[0] if found else None

    # ------------------------------------------------------------------ during the hand

    def hand_start(self, table: TableControls) -> None:
        """Keeps the table controls (to read the hand's public log later)."""
        self.table = table

    def riichi_allowed(self) -> bool:
        return "ignore_dora" not in self.params

    def ignores_furiten(self) -> bool:
        return "ignore_dora" in self.params

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Riichi declared with a stake: the Inazuma riichi (once per match) or, under the
        points limit, the stake for extra dora indicators. The plain riichi stays offered."""
        if not view.riichi_tiles:
            return []
        what = None
        if "inazuma_riichi" in self.params and not self.memory.used(self.seat, "inazuma"):
            what = "inazuma"
        dora = self._one("extra_dora_stake")
        if dora is not None and view.scores and view.scores[self.seat] < dora["below"]:
            what = "dora_stake"
        if what is None:
            return []
        return [ability_action(self.seat, self.name, AbilityTag.RIICHI, t, payload=what,
                               detail=f"{self.name}:riichi:{what}") for t in view.riichi_tiles]

    def action_taken(self, action: Action) -> None:
        if action.tag is AbilityTag.RIICHI:
            self.declared = action.payload

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        """Her riichi is accepted: the stake declared with it is paid (C-18 caps it)."""
        if view.seat != self.seat:
            return
        self.riichi_turn = view.turn
        declared, self.declared = self.declared, None
        if declared == "inazuma":
            params = self.params["inazuma_riichi"][0]
            table.stake(self.seat, params["amount"], self.name, "Inazuma riichi")
            self.inazuma = True
        elif declared == "dora_stake":
            params = self.params["extra_dora_stake"][0]
            half = view.scores[self.seat] // 2 // 100 * 100
            table.stake(self.seat, half, self.name, "half her points for dora")
            table.reveal_dora(self.seat, params["indicators"], self.name)

    def scoring(self, win: WinView) -> list[ScoringModifiers]:
        """Her own win: no dora (Hao), dora doubled or lost (Kuro), the Inazuma riichi's han,
        the early-riichi bonus after dealing in last hand (Nelly)."""
        out: list[ScoringModifiers] = []
        if "ignore_dora" in self.params:
            out.append(ScoringModifiers(dora_multiplier=0))
        for params in self.params.get("dora_multiplier", ()):
            lost = params["lost_on_dora_discard"] and self._dora_lost()
            out.append(ScoringModifiers(dora_multiplier=0 if lost else params["factor"]))
        if self.inazuma:
            han = self.params["inazuma_riichi"][0]["han"]
            out.append(ScoringModifiers(yaku_values={"Riichi": han, "Double Riichi": han}))
        early = self.params.get("early_riichi_after_dealing_in")
        if early and self.seat in self.memory.dealt_in_last and self.riichi_turn is not None:
            han = max([p["han"] for p in early if self.riichi_turn <= p["turn"]], default=0)
            if han:
                out.append(ScoringModifiers(extra_han=(("early_riichi_after_dealing_in", han),)))
        return out

    def _dora_lost(self) -> bool:
        if self.seat in self.memory.dora_lost:
            return True
        if self.table is not None and not self.dora_lost_now:
            self.dora_lost_now = known_dora_discarded(self.table.events(), self.seat,
                                                      self.memory.red_fives)
        return self.dora_lost_now

    # ------------------------------------------------------------------ payments

    def payments(self, s: Settlement) -> None:
        """A win's payments (any seat's win)."""
        v = s.view
        seat = self.seat
        for params in self.params.get("payment_per_out", ()):
            self._outs(s, params)
        bonus = self._one("tsumo_full_ron")
        if bonus is not None and v.kind == "tsumo" and v.winner == seat and v.result is not None:
            due = v.result.ron_points + bonus["bonus"] + 100 * v.honba
            s.collect(seat, {p: due - s.paid_by(p) for p in sorted({a for a, _, _ in s.transfers})},
                      self.name, "tsumo paid at the full ron value plus bonus")
        sweep = self._one("table_sweep")
        if sweep is not None and v.kind == "ron" and v.from_seat == seat and s.table_to is not None:
            self._sweep(s, sweep["each_pays"], "dealt in")
        if "honba_by_han" in self.params:
            self._honba(s)
        self._floor(s)

    def draw_payments(self, s: Settlement) -> None:
        """An exhaustive (or abortive) draw's payments."""
        sweep = self._one("table_sweep")
        if sweep is not None and (sweep["draws"] == "any_draw" or s.view.kind == "exhaustive"):
            self._sweep(s, sweep["each_pays"], "the hand was drawn")
        if "ignore_dora" in self.params and s.view.kind == "exhaustive":
            s.exempt(self.seat, self.name, "ignores noten payments")
        self._floor(s)

    def _outs(self, s: Settlement, params: Mapping[str, Any]) -> None:
        v = s.view
        if v.winner is None:
            return
        tsumo = v.kind == "tsumo"
        if v.winner == self.seat:
            hand, waits = waits_before_win(v.hands, self.seat, v.win_tile, tsumo)
            visible = list(v.visible)
            if not tsumo and v.win_tile in visible:
                visible.remove(v.win_tile)  # the winning tile was a live out until it came
            outs = live_outs(hand, waits, visible)
            s.collect(self.seat, {o: params["per_out"] * outs for o in range(len(v.scores))
                                  if o != self.seat}, self.name, f"{outs} live outs")
            return
        _, waits = waits_before_win(v.hands, v.winner, v.win_tile, tsumo)
        held = sum(1 for x in v.hands[self.seat] if x // 4 in waits)
        if held:
            s.transfer(v.winner, self.seat, params["per_tile"] * held, self.name,
                       f"{held} of the winner's winning tiles in her hand")

    def _sweep(self, s: Settlement, each: int, why: str) -> None:
        s.take_table(self.seat, self.name, why)
        s.collect(self.seat, {o: each for o in range(len(s.view.scores)) if o != self.seat},
                  self.name, why)

    def _honba(self, s: Settlement) -> None:
        """Teru: her calls-riichi-swaps-extra-turns honba count for this hand's win (anyone's,
        at the usual 300 a honba). On her own win each honba is multiplied by her han: by the
        default reading (``honba = "total"``, the card's example: 2 honba and 5 han, each worth
        500, 1,000 in all) a honba is worth 100 x han in all, split between the payers of a
        tsumo (each share rounded up to 100); by ``"per_payer"`` it is 100 x han from each
        payer (300 x han on a ron)."""
        v = s.view
        if v.result is None or v.winner is None:
            return
        added = added_honba(v.events)
        count = v.honba + added
        payers = sorted({a for a, _, _ in s.transfers})
        if v.kind == "ron" or len(payers) == 1:  # one payer pays the honba of three
            payers = [v.from_seat if v.kind == "ron" else payers[0]]
            usual = 300
        else:
            usual = 100
        if v.winner != self.seat:
            worth, each = 100, usual * count
        elif self.honba_reading == "total":
            worth = 100 * v.result.han
            each = -(-worth * count // (100 * len(payers))) * 100
        else:
            worth = 100 * v.result.han
            each = worth * (usual // 100) * count
        s.collect(v.winner, {p: each - usual * v.honba for p in payers}, self.name,
                  f"honba {v.honba}+{added} worth {worth} each")

    def _floor(self, s: Settlement) -> None:
        if "floor_at_zero" in self.params and self.seat not in self.memory.floor_used:
            s.floor_at_zero(self.seat, self.name)

    # ------------------------------------------------------------------ after the hand

    def hand_end(self, view: HandEndView, table: TableControls) -> None:
        """Stakes after the payments (Hitomi) and what the match must remember."""
        rec = view.record
        seat = self.seat
        self.floored = any(e.kind == "ability" and e.seat == seat
                           and e.tag is AbilityTag.FLOOR_AT_ZERO for e in rec.events)
        if self.params.get("dora_multiplier") and seat not in self.memory.dora_lost and \
                self._dora_lost():
            table.note(seat, self.name, "a known dora discarded outside riichi: dora give 0 han "
                       "for the rest of the match")
        tenpai_value = None
        if "deal_in_while_tenpai" in self.params and any(
                not w.is_tsumo and w.seat != seat for w in rec.wins):
            tenpai_value = view.tsumo_value(seat)
            if tenpai_value:
                shares = (view.tsumo_shares(seat) if self.deal_in_stake == "tsumo_share"
                          else (tenpai_value,) * len(rec.seats))
                for other in range(len(rec.seats)):
                    if shares[other]:
                        table.stake(other, shares[other], self.name,
                                    "a player dealt in while she was tenpai")
        if "tsumo_below_her_value" in self.params:
            for w in rec.wins:
                if not w.is_tsumo or w.seat == seat:
                    continue
                value = view.tsumo_value(seat) if tenpai_value is None else tenpai_value
                won = view.scores[w.seat] - rec.seats[w.seat].start_score
                if value > w.points and won > 0:
                    self.imposed.append((w.seat, won, "a tsumo worth less than her hand"))
                    table.note(w.seat, self.name, f"must stake {won} points next hand "
                               f"(her tsumo {value} > {w.points})")

    def remember(self, memory: MatchMemory) -> None:
        """Called by the card table once the hand is over."""
        if self.dora_lost_now:
            memory.dora_lost.add(self.seat)
        if self.floored:
            memory.floor_used.add(self.seat)
        if self.inazuma:
            memory.once_used.setdefault(self.seat, set()).add("inazuma")
        for seat, points, why in self.imposed:
            memory.pending_stakes.setdefault(seat, []).append((points, self.name, why))



class MatchDuties(AbilityHooks):
    """What the match owes from the last hand, paid at the start of this one whatever the
    seats picked: the stakes a card imposed for "the next hand" (Hitomi)."""

    name = "match"
    seat = -1

    def __init__(self, memory: MatchMemory) -> None:
        self.memory = memory

    def hand_start(self, table: TableControls) -> None:
        for seat, owed in sorted(self.memory.pending_stakes.items()):
            for points, by, why in owed:
                table.stake(seat, points, by, why)


def match_duties(memory: MatchMemory) -> list[AbilityHooks]:
    """The duties object to add to a hand's abilities, when the match owes something."""
    return [MatchDuties(memory)] if memory.pending_stakes else []


class PaymentHooks:
    """The hooks a card ability answers through its :class:`PaymentEffects` (``self.pay``)."""

    pay: PaymentEffects

    def riichi_allowed(self) -> bool:
        return self.pay.riichi_allowed()

    def ignores_furiten(self, in_riichi: bool) -> bool:
        return self.pay.ignores_furiten()

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        self.pay.riichi(view, table)

    def payments(self, settlement: Settlement) -> None:
        self.pay.payments(settlement)

    def draw_payments(self, settlement: Settlement) -> None:
        self.pay.draw_payments(settlement)

    def hand_end(self, view: HandEndView, table: TableControls) -> None:
        self.pay.hand_end(view, table)

    def remember(self, memory: MatchMemory) -> None:
        self.pay.remember(memory)
