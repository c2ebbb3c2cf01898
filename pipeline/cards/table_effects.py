"""Table effects: what a card changes about what players see, when they may discard face down,
which discards earn an extra turn, and points paid during play.

:class:`TableEffects` holds one card's effects of this family for one seat and one hand; the
:class:`~pipeline.cards.abilities.CardAbility` hooks delegate to it. It acts only through the
engine's :class:`~pipeline.rules.hooks.TableControls` (reveals, points paid, the public log), so
every reveal and every point moved is logged. The primitives, by effect kind and value:

- ``dora_both_ways``: with a closed hand (closed kans allowed) the tile before each dora
  indicator is dora too (9 before 1, North before East, red before white); ura indicators count
  the same way when ura-dora count for her win. Extra han, like dora (rule C-12).
- ``extra_turn`` ``suji_or_genbutsu_vs_riichi``: her discard is genbutsu or suji against at
  least one other player in riichi. Genbutsu: that player's face-up discards, and every face-up
  tile discarded by another player after that riichi (C-22 Shiromi), her own included. Suji:
  three apart from that player's own face-up discards; a 4, 5 or 6 needs both sides (4 needs 1
  and 7). Honors have no suji.
- ``face_down_discard`` ``with_extra_turn``: the discard of her extra turn may go face down.
- ``open_hands`` ``others_while_last``: while she is last (rule C-21 on equal points) the other
  players play face up; checked after the deal, every draw, every discard, every riichi and
  every call, so the reveal starts and stops during the hand (points paid for a call by another
  ability may show only from the next discard).
- ``face_down_discard`` ``matching_last_discard``: her last visible discard (the latest face-up
  tile still lying in her pond) is of the same type as another player's last discard (that
  player's latest discard, called or not; a face-down one matches nothing).
- ``open_hands`` ``others_family``: before her first discard she names a family (man, pin,
  sou, honors); the other players keep their tiles of it face up, tiles drawn later too.
- ``han_per_count`` ``shown_family_tiles``: at her win, the tiles of the named family that the
  other players show: those in their concealed hands (all face up by her effect; a tile just
  ronned has left its owner's hand) plus those in their melds (calls and closed kans).
- ``call_payment``: after her call the player she called from pays her the amount, at once
  (logged; a payer may go below zero, as with a win's payments).
- ``face_down_discard`` ``broke_ippatsu``: when her call took away another player's ippatsu
  chance, the discard after that call may go face down (a face-down discard earns no extra turn:
  it is done instead of the extra turn).
- ``always_winning_tile`` ``white_dragon_in_riichi``: while she is in riichi a white dragon wins
  for her, by tsumo or ron, also discarded face down (the engine's ``always_wins`` hook).
  Reading ``always_winning``: ``wildcard`` (default) needs a ready hand, the white dragon
  standing for its best completion, and the white dragon is one of her winning tiles for
  furiten: one in her own face-up pond, or one she let go by, makes her furiten (rule H-09).
  ``shapeless`` lets any hand win on it, valued by :mod:`pipeline.rules.shapeless`, and furiten
  comes only from her hand's own waits.
- ``condition_bonus`` ``white_dragon_tsumo``: a win by drawing a white dragon.

Bot policies (the shared extra-turn and face-down rules are in :mod:`pipeline.cards.abilities`,
with Tomoe's):

- Bot policy (Mihoko Fukuji): her face-down discard when her last visible discard matches
  another player's last discard follows the shared rule; the hands she opens need no decision
  (the bot does not read other players' shown tiles).
- Bot policy (Jun Inoue): her extra turn after a call and her face-down discard after a call
  that broke an ippatsu follow the shared rules; the call payment needs no decision, and the bot
  calls by its usual rules, not more for the payment.
- Bot policy (Kasumi Iwato): before her first discard the bot names the family with the most
  copies it cannot see: the others most likely hold those, so the most tiles are shown and
  counted for her han.
- Bot policy (Shiromi Kosegawa): her extra turn after a suji or genbutsu discard against a
  riichi follows the shared rule (the riichi is a threat, so the bot takes it while within one
  step of tenpai), and so does the face-down discard of that turn; the bot does not choose suji
  to earn the turn. Her dora both ways need no decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.cards.catalog import Card
from pipeline.cards.effects.conditions import condition_holds
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ability_action
from pipeline.rules.hooks import (
    CallView,
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WinTileView,
    WinView,
    face_down_actions,
)
from pipeline.rules.records import Event
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import RiichiView

FAMILIES: dict[str, frozenset[int]] = {
    "man": frozenset(range(0, 9)), "pin": frozenset(range(9, 18)),
    "sou": frozenset(range(18, 27)), "honors": frozenset(range(27, 34)),
}
CALL_EVENTS = frozenset(("chi", "pon", "minkan"))
WHITE_DRAGON = 31
KAN_EVENTS = frozenset(("ankan", "kakan"))
# Ability events that are an extra turn: the turn itself, and a two-sided card's flip back
# that the extra turn causes (counted so since it was first logged).
EXTRA_TURN_EVENTS = frozenset((AbilityTag.EXTRA_TURN, Move.FLIP_AFTER_EXTRA_TURN))

# Parameter values this module implements (joined to abilities.SUPPORTED_CHOICES).
SUPPORTED: dict[tuple[str, str], frozenset[str]] = {
    ("extra_turn", "when"): frozenset(("suji_or_genbutsu_vs_riichi",)),
    ("face_down_discard", "when"): frozenset(("with_extra_turn", "matching_last_discard",
                                              "broke_ippatsu")),
    ("open_hands", "who"): frozenset(("others_while_last", "others_family")),
    ("han_per_count", "count"): frozenset(("shown_family_tiles",)),
    ("always_winning_tile", "tile"): frozenset(("white_dragon_in_riichi",)),
    ("condition_bonus", "when"): frozenset(("white_dragon_tsumo",)),
}
# Effect kinds implemented here (parameters, where they matter: SUPPORTED).
TABLE_KINDS = frozenset(("call_payment", "always_winning_tile"))


def previous_type(t: int) -> int:
    """The tile type before ``t`` in the dora order (9 before 1, North before East, red dragon
    before white)."""
    if t < 27:
        return t - t % 9 + (t % 9 - 1) % 9
    if t < 31:
        return 27 + (t - 27 - 1) % 4
    return 31 + (t - 31 - 1) % 3


def white_dragon_tsumo(win: WinView) -> bool:
    """A win by drawing a white dragon (a rinshan draw too)."""
    return win.ctx.is_tsumo and win.ctx.win_tile // 4 == WHITE_DRAGON




# ---------------------------------------------------------------------------- reading the log


def riichi_safe(events: Sequence[Event], seat: int) -> dict[int, tuple[set[int], set[int]]]:
    """For each other player in riichi: (genbutsu types, types of that player's own face-up
    discards), from the public log (the last discard event left out: the one being judged)."""
    last = max([i for i, e in enumerate(events) if e.kind == "discard"], default=-1)
    declared: dict[int, int] = {}
    for i, e in enumerate(events[:last]):
        if e.kind == "riichi" and e.seat is not None and e.seat != seat:
            declared[e.seat] = i
    out: dict[int, tuple[set[int], set[int]]] = {}
    for r, at in declared.items():
        safe: set[int] = set()
        own: set[int] = set()
        for i, e in enumerate(events[:last]):
            if e.kind != "discard" or e.tile is None or e.tag is AbilityTag.FACE_DOWN:
                continue
            if e.seat == r:
                own.add(e.tile // 4)
                safe.add(e.tile // 4)
            elif i > at:
                safe.add(e.tile // 4)
        out[r] = (safe, own)
    return out


def is_suji(t: int, discarded: set[int]) -> bool:
    """Suji against these discards: a 1-2-3 or 7-8-9 needs the tile three away; a 4, 5 or 6
    needs both sides."""
    if t >= 27:
        return False
    n = t % 9
    sides = [t + 3] if n < 3 else [t - 3] if n > 5 else [t - 3, t + 3]
    return all(s in discarded for s in sides)


def last_discards(events: Sequence[Event]) -> tuple[list[int | None], list[int | None]]:
    """Per seat: the type of its latest discard (None if none or face down), and the type of
    its latest face-up tile still lying in its pond (called or taken tiles left out)."""
    taken = {e.tile for e in events if e.tile is not None and (
        e.kind in CALL_EVENTS or (e.kind == "ability" and e.tag is AbilityTag.FROM_POND))}
    latest: list[int | None] = [None] * 4
    lying: list[int | None] = [None] * 4
    for e in events:
        if e.kind != "discard" or e.seat is None or e.tile is None:
            continue
        face_down = e.tag is AbilityTag.FACE_DOWN
        latest[e.seat] = None if face_down else e.tile // 4
        if not face_down and e.tile not in taken:
            lying[e.seat] = e.tile // 4
    return latest, lying


def ippatsu_alive(events: Sequence[Event], seat: int) -> bool:
    """Whether the seat's riichi still had its ippatsu chance at the end of these events: no
    call or kan since the riichi, and no discard of its own after the declaration except in an
    extra turn (rule C-16)."""
    declared = max([i for i, e in enumerate(events) if e.kind == "riichi" and e.seat == seat],
                   default=None)
    if declared is None:
        return False
    discards = 0
    extra = False
    for e in events[declared + 1:]:
        if e.kind in CALL_EVENTS or e.kind in KAN_EVENTS:
            return False
        if e.kind == "ability" and e.seat == seat and e.tag in EXTRA_TURN_EVENTS:
            extra = True
        elif e.kind == "discard" and e.seat == seat:
            discards += 1
            if discards > 1 and not extra:
                return False
            extra = False
    return True


def table_seats(table: object) -> int:
    """Seats at the table (4, or 3: S-01); a table that does not say has four."""
    seats = getattr(table, "seats", None)
    return seats() if seats is not None else 4


def last_place(scores: Sequence[int], dealer: int) -> int:
    """The seat in last place (rule C-21: on equal points, farther from the dealer ranks lower)."""
    n = len(scores)  # three or four seats (rule S-01)
    return sorted(range(n), key=lambda s: (-scores[s], (s - dealer) % n))[-1]


# ---------------------------------------------------------------------------- the effects


class TableEffects:
    """One card's table effects for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        self.face_down_when = {e.params["when"] for e in card.effects
                               if e.kind == "face_down_discard"}
        self.extra_when = {e.params["when"] for e in card.effects if e.kind == "extra_turn"}
        self.open_who = {e.params["who"] for e in card.effects if e.kind == "open_hands"}
        self.shown = [e.params for e in card.effects if e.kind == "han_per_count"
                      and e.params["count"] == "shown_family_tiles"]
        self.call_payment = [e.params["amount"] for e in card.effects
                             if e.kind == "call_payment"]
        self.always = {e.params["tile"] for e in card.effects if e.kind == "always_winning_tile"}
        self.always_shapeless = any(e.params["always_winning"] == "shapeless"
                                    for e in card.effects if e.kind == "always_winning_tile")
        self.table: TableControls | None = None
        self.family: str | None = None          # the family named (others_family)
        self.revealing = False                  # others play face up now (others_while_last)
        self.turns = 0                          # her discards so far, as last seen
        self.extra_turn_at: int | None = None   # her discard count during an extra turn
        self.broke_ippatsu = False              # her last call took away an ippatsu chance
        # the effects above are the card's: whether any is this family's is known once
        self._any = bool(self.face_down_when & SUPPORTED[("face_down_discard", "when")]
                         or self.extra_when & SUPPORTED[("extra_turn", "when")]
                         or self.open_who & SUPPORTED[("open_hands", "who")]
                         or self.shown or self.call_payment or self.always)

    def __bool__(self) -> bool:
        return self._any

    # ------------------------------------------------------------------ reveals

    def hand_start(self, table: TableControls) -> None:
        self.table = table
        self._check_last()

    def _check_last(self) -> None:
        """Others face up exactly while she is last (reveal and hide as her place changes)."""
        if "others_while_last" not in self.open_who or self.table is None:
            return
        last = last_place(self.table.scores(), self.table.dealer()) == self.seat
        if last == self.revealing:
            return
        self.revealing = last
        for other in range(table_seats(self.table)):
            if other != self.seat:
                if last:
                    self.table.reveal_hand(other, self.name)
                else:
                    self.table.hide_hand(other, self.name)

    def after_draw(self, view: DrawView) -> None:
        self._check_last()

    def discard_made(self, view: DiscardView, table: TableControls) -> None:
        self._check_last()

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        self._check_last()

    def turn_choices(self, view: OwnTurnView) -> list[Action]:
        """Before her first discard: name a family (``others_family``)."""
        if "others_family" not in self.open_who or self.family is not None or view.turns:
            return []
        return [ability_action(self.seat, self.name, Move.FAMILY, payload=f,
                               detail=f"{self.name}:family:{f}") for f in FAMILIES]

    # ------------------------------------------------------------------ own turn

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Face-down discards her card allows now (rule C-13)."""
        self.turns = view.turns
        when = self.face_down_when
        allowed = (
            ("with_extra_turn" in when and self.extra_turn_at == view.turns)
            or ("broke_ippatsu" in when and self.broke_ippatsu
                and view.after_call is not None)
            or ("matching_last_discard" in when and self._matching_last_discard()))
        return face_down_actions(view, self.name) if allowed else []

    def _matching_last_discard(self) -> bool:
        if self.table is None:
            return False
        latest, lying = last_discards(self.table.events())
        mine = lying[self.seat]
        return mine is not None and any(latest[s] == mine for s in range(4) if s != self.seat)

    def extra_turn(self, view: DiscardView) -> bool:
        """Her discard is genbutsu or suji against another player in riichi."""
        if "suji_or_genbutsu_vs_riichi" not in self.extra_when or view.face_down or \
                self.table is None:
            return False
        t = view.tile // 4
        return any(t in safe or is_suji(t, own)
                   for safe, own in riichi_safe(self.table.events(), self.seat).values())

    def action_taken(self, action: Action) -> None:
        if action.tag is AbilityTag.EXTRA_TURN:
            self.extra_turn_at = self.turns + 1
        elif action.tag is AbilityTag.FACE_DOWN:
            self.broke_ippatsu = False
        elif action.tag is Move.FAMILY and self.table is not None:
            self.family = action.payload
            for other in range(table_seats(self.table)):
                if other != self.seat:
                    self.table.show_types(other, FAMILIES[self.family], self.name)

    # ------------------------------------------------------------------ calls

    def claim_made(self, view: CallView) -> None:
        """After her call: the payment from the player she called from, and whether the call
        took away another player's ippatsu chance. Any call may change her place."""
        if view.seat == self.seat and self.table is not None:
            if "broke_ippatsu" in self.face_down_when:
                events = self.table.events()
                call = max([i for i, e in enumerate(events) if e.kind in CALL_EVENTS])
                events = events[:call]  # before this call
                self.broke_ippatsu = any(ippatsu_alive(events, s) for s in range(4)
                                         if s != self.seat)
            for amount in self.call_payment:
                self.table.transfer(view.from_seat, self.seat, amount, self.name,
                                    "call payment")
        self._check_last()

    # ------------------------------------------------------------------ wins

    def always_wins(self, view: WinTileView) -> bool:
        """A white dragon while she is in riichi: to a ready hand (for furiten too), or to any
        hand under the ``shapeless`` reading (not for furiten)."""
        if not (view.seat == self.seat and "white_dragon_in_riichi" in self.always
                and view.in_riichi and view.tile // 4 == WHITE_DRAGON):
            return False
        if self.always_shapeless:
            return not view.furiten_probe
        return bool(view.waits)


    def scoring(self, win: WinView) -> list[ScoringModifiers]:
        """Her win: han per full group of the named family's tiles the others show."""
        if win.seat != self.seat or not self.shown or self.family is None or self.table is None:
            return []
        types = FAMILIES[self.family]
        shown = 0
        for other in range(table_seats(self.table)):
            if other == self.seat:
                continue
            shown += sum(1 for x in self.table.shown_tiles(other) if x // 4 in types)
            melds = win.melds[other] if win.melds else ()
            shown += sum(1 for m in melds for x in m.tiles if x // 4 in types)
        out = []
        for params in self.shown:
            han = shown // params["per"] * params["han"]
            if not han or not condition_holds(params["condition"], win, self.seat):
                continue
            if params["yaku"]:
                out.append(ScoringModifiers(extra_han_with=((params["yaku"],
                                                             "shown_family_tiles", han),)))
            else:
                out.append(ScoringModifiers(extra_han=(("shown_family_tiles", han),)))
        return out
