"""``flip_card``: the card turns to its other side (a two-sided card: Mairu Shirouzu and Himeko
Tsuruta)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.effects.base import AbilityBuild, CardEffect
from pipeline.cards.forwarding import ForwardingAbility
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag
from pipeline.rules.hooks import AbilityHooks, TableControls


class FlipCause(StrEnum):
    """Why a two-sided card turned over: the payload of its flip event (``Move.FLIP`` or
    ``Move.FLIP_AFTER_EXTRA_TURN``); each value is the log's wording."""

    RIGHT_GUESS = "right guess"            # the front's family guess was right
    OWN_RIICHI = "riichi"                  # the holder declared riichi (the front up)
    A_RIICHI = "a riichi"                  # any riichi (the back up)
    A_CALL = "a call"                      # any call (the back up)
    NEW_FAMILY = "a new family discarded"  # the back's extra turn offered (flip when offered)
    EXTRA_TURN_DECLINED = "the extra turn declined"
    EXTRA_TURN_OVER = "the extra turn over"


class FlipCard(CardEffect):
    """The card turns to its other side (``to``) when ``when`` happens (``right_guess``,
    ``own_riichi``, ``after_new_family_discard``, ``any_call_or_riichi``; reading
    ``flip_back``).

    The kind acts on no hook of its own: turning a card over swaps every effect at once, so it
    builds the card's whole ability (:meth:`build_ability`, which the card table asks as the
    picks are made): both sides' abilities held by :class:`FlipAbility`, which plays the flips.
    See :class:`FlipAbility` for what flips the card and what the back side counts while it is
    up.

    Bot policy: no decision of its own: the flips follow from what happens; the bot's choices
    are those of the side that is up (the family it names, the extra turn it is offered)."""

    kind = "flip_card"

    @classmethod
    def build_ability(cls, params: Mapping[str, Any], card: Card,
                      build: AbilityBuild) -> AbilityHooks | None:
        back = params["to"]
        if not build.known(back):
            return None  # a catalog without the other side: the front alone
        return FlipAbility(build.plain(card.id), build.plain(back))


def two_sided(card: Card) -> str | None:
    """The id of the card's other side (``flip_card`` ``to``), or None."""
    return next((e.params["to"] for e in card.effects if e.kind == "flip_card"), None)


def riichi_face_down(card: Card) -> int:
    """The face-up tiles of her pond her riichi turns face down as it flips the card (the
    card's ``riichi_face_down`` parameter; 0 without one)."""
    return next((e.params["riichi_face_down"] for e in card.effects
                 if "riichi_face_down" in e.params), 0)


class FlipAbility(ForwardingAbility):
    """A two-sided card for one seat and one hand (Mairu Shirouzu / Himeko Tsuruta): every
    hook not answered here is the side now up. The flips, by the ``flip_card`` effects:

    - front: a right guess of her ``family_guess`` (which names the family and reveals the
      tile; the front's ability says so: ``turns_card_over``) turns her first face-up tile
      lying in her pond face down and flips the card (``right_guess``). Her riichi turns her
      first ``riichi_face_down`` (a parameter of her ``family_guess``) tiles lying face up in
      her pond face down and flips it (``own_riichi``).
    - back: the extra turn her ``extra_turn`` ``new_family_discard`` earns (a face-up discard
      of a family none of her other face-up pond tiles shows) flips the card back
      (``after_new_family_discard``); the riichi tile that flipped the front earns the back
      nothing. Reading ``flip_back``: by default (``after_extra_turn``) she stays Himeko
      through the extra turn (its draw and a win on it count her face-down han) and flips back
      when it ends (her next discard) or is declined; ``when_offered`` flips back as the extra
      turn is offered, so it is played with the front up. Any call or riichi (hers included)
      flips it back (``any_call_or_riichi``).

    The side belongs to the hand: every hand starts with the front up, since the back enters
    play only through the front's effect (C-22 Himeko) and the pick is the front. A side is
    started (``hand_start``, which hands its effects the hand's controls) when it first comes
    up: the front at the deal, the back at its first flip. Every other hook goes to the side
    now up (the back's ``count_bonus`` on the face-down tiles lying in her pond counts only
    while it is up).

    The bots' policies for both sides are said in :mod:`pipeline.cards.abilities`.
    """

    def __init__(self, front: Any, back: Any) -> None:
        self.sides = (front, back)
        self.up = 0
        self.started: set[int] = set()  # the sides started this hand (hand_start asked)
        self.table: TableControls | None = None
        self.front_discard: int | None = None  # the riichi tile that flipped the card
        self.riichi_face_down = riichi_face_down(front.card)
        self.flips = [frozenset(e.params["when"]) for side in self.sides
                      for e in side.card.effects if e.kind == "flip_card"]
        self.flip_when_offered = any(
            e.params["flip_back"] == "when_offered" for e in back.card.effects
            if e.kind == "flip_card" and "after_new_family_discard" in e.params["when"])
        self.flip_pending = False   # the back earned an extra turn: flip once it is over
        self.in_extra_turn = False  # the back is playing that extra turn

    @property
    def side(self) -> Any:
        return self.sides[self.up]

    def played(self) -> AbilityHooks:
        """The side now up."""
        return self.sides[self.up]  # type: ignore[no-any-return]

    # hooks answered here, whatever side is up
    OWN_HOOKS = frozenset(("hand_start", "after_draw", "riichi", "claim_made", "extra_turn"))

    def listens(self, hook: str) -> bool:
        """Either side may be up during the hand: a hook either side listens to counts; the
        end of an extra turn (a discard) matters when the back flips only after it."""
        if hook == "discard_made" and self.flips[1:] and not self.flip_when_offered \
                and "after_new_family_discard" in self.flips[1]:
            return True
        return hook in self.OWN_HOOKS or any(side.listens(hook) for side in self.sides)

    def _flip(self, why: FlipCause, tag: Move = Move.FLIP) -> None:
        self.up = 1 - self.up
        if self.table is not None:
            self.table.note(self.side.seat, self.sides[1 - self.up].name,
                            f"flips to {self.side.name} ({why})", tag, payload=why)
            self._start()

    def _start(self) -> None:
        """The side now up enters play, once a hand: its effects get the hand's controls."""
        if self.up not in self.started and self.table is not None:
            self.started.add(self.up)
            self.side.hand_start(self.table)

    def _turn_down(self, count: int) -> None:
        if self.table is None or not count:
            return
        swaps = self.table.swaps()
        for tile in swaps.lying()[self.side.seat][:count]:
            swaps.turn_face_down(tile, self.side.name, self.side.seat)

    # ------------------------------------------------------------------ hooks

    def hand_start(self, table: TableControls) -> None:
        self.table = table
        self._start()

    def after_draw(self, view: Any) -> None:
        self.side.after_draw(view)  # the front's guess revealed (FamilyGuess)
        if self.up == 0 and "right_guess" in self.flips[0] and self.side.turns_card_over():
            self._turn_down(1)
            self._flip(FlipCause.RIGHT_GUESS)

    def riichi(self, view: Any, table: TableControls) -> None:
        self.side.riichi(view, table)
        if self.up == 0 and view.seat == self.side.seat and "own_riichi" in self.flips[0]:
            self._turn_down(self.riichi_face_down)
            self._flip(FlipCause.OWN_RIICHI)
            # the declaration tile was Mairu's discard: it earns the back side nothing
            self.front_discard = next((e.tile for e in reversed(table.events())
                                       if e.kind == "discard" and e.seat == view.seat), None)
        elif self.up == 1 and "any_call_or_riichi" in self.flips[1]:
            self._flip(FlipCause.A_RIICHI)

    def claim_made(self, view: Any) -> None:
        self.side.claim_made(view)
        if self.up == 1 and "any_call_or_riichi" in self.flips[1]:
            self._flip(FlipCause.A_CALL)

    def extra_turn(self, view: Any) -> bool:
        if self.up == 0 or view.seat != self.side.seat:
            return self.side.extra_turn(view)
        if view.tile == self.front_discard:
            return False  # the riichi tile that flipped the front earns the back nothing
        earned = self.side.extra_turn(view)
        if earned and "after_new_family_discard" in self.flips[1]:
            if self.flip_when_offered:
                self._flip(FlipCause.NEW_FAMILY)
            else:
                self.flip_pending = True
        return earned

    def action_taken(self, action: Any) -> None:
        self.side.action_taken(action)
        if self.flip_pending and action.tag is AbilityTag.EXTRA_TURN:
            self.flip_pending, self.in_extra_turn = False, True

    def offer_declined(self, action: Any) -> None:
        self.side.offer_declined(action)
        if self.flip_pending and action.tag is AbilityTag.EXTRA_TURN:
            self.flip_pending = False
            if self.up == 1:
                self._flip(FlipCause.EXTRA_TURN_DECLINED, Move.FLIP_AFTER_EXTRA_TURN)

    def discard_made(self, view: Any, table: TableControls) -> None:
        self.side.discard_made(view, table)
        if self.in_extra_turn and view.seat == self.side.seat:
            self.in_extra_turn = False
            if self.up == 1:
                self._flip(FlipCause.EXTRA_TURN_OVER, Move.FLIP_AFTER_EXTRA_TURN)
