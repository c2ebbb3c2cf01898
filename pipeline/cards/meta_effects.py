"""Cards acting on other cards, on the rinshan draw or on how tiles are read: Saki Miyanaga's
rinshan tiles and winds read as West, and Maho Yumeno's copied ability.

- ``always_winning_tile`` ``rinshan``: every tile drawn as a rinshan tile this hand wins for her
  whatever her hand's shape: her own rinshan draw (by tsumo), and a rinshan tile another player
  drew after a kan, when that player later discards it (by ron, face down too). The engine's
  ``always_wins`` hook. Reading ``always_winning``: ``wildcard`` (default) needs a ready hand,
  the tile standing for its best completion; ``shapeless`` lets any hand win, valued by
  :mod:`pipeline.rules.shapeless`. A rinshan tile is a moment, not a tile type: no furiten.
- ``winds_as_west``: has its class (:mod:`pipeline.cards.effects.winds_as_west`).
- ``copy_ability``: when she is picked, she draws two cards from the deck into her team (she
  keeps both: they stay in her team after the hand) and copies one for this hand; her player
  chooses through its ``pick`` hook (the bots' pick estimates). The copy is chosen with the
  picks, after the deal and before the dealer's first discard, so it is in place before her
  first discard. Her pick stays Maho: under winner rotation Maho rotates and the copied card
  stays in her team (C-22 Maho).

Bot policies (the shared rules are in :mod:`pipeline.cards.abilities`):

- Bot policy (Saki Miyanaga): no decision: the bot takes every win offered, her rinshan tiles
  included, and declares kans by its usual rule (no threat, the hand no further from tenpai),
  with no extra push for the rinshan tile; its tile judgment does not read winds as West.
- Bot policy (Maho Yumeno): the bot copies the drawn card its pick estimate values most with
  this starting hand and situation (:func:`pipeline.bots.pick.choose`), as it picks any card.
- Mairu Shirouzu and Himeko Tsuruta: see :class:`FlipAbility`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, ability_action
from pipeline.rules.hooks import DrawView, TableControls, WinTileView

# Parameter values this module implements (joined to abilities.SUPPORTED_CHOICES).
SUPPORTED: dict[tuple[str, str], frozenset[str]] = {
    ("always_winning_tile", "tile"): frozenset(("rinshan",)),
    ("count_bonus", "count"): frozenset(("face_down_in_own_discards",)),
    ("extra_turn", "when"): frozenset(("new_family_discard",)),
}
# Effect kinds implemented here.
META_KINDS = frozenset(("copy_ability", "family_guess", "flip_card"))
COPY_COUNT = 2  # cards Maho draws


class MetaEffects:
    """One card's rinshan effect for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        rinshan = [e for e in card.effects
                   if e.kind == "always_winning_tile" and e.params["tile"] == "rinshan"]
        self.rinshan = bool(rinshan)
        self.rinshan_shapeless = any(e.params["always_winning"] == "shapeless" for e in rinshan)
        self.rinshan_tiles: set[int] = set()  # tiles other players drew as rinshan tiles

    def __bool__(self) -> bool:
        return self.rinshan

    def after_draw(self, view: DrawView) -> None:
        if self.rinshan and view.source == "rinshan" and view.seat != self.seat \
                and view.tile is not None:
            self.rinshan_tiles.add(view.tile)

    def always_wins(self, view: WinTileView) -> bool:
        """Her own rinshan draw, or another player's rinshan tile discarded."""
        if not self.rinshan or view.seat != self.seat or view.furiten_probe:
            return False
        if not (view.waits or self.rinshan_shapeless):
            return False  # the wildcard reading: only a ready hand has winning tiles
        return view.rinshan if view.tsumo else view.tile in self.rinshan_tiles


def copies(card: Card) -> bool:
    """Whether the card copies another card's ability (``copy_ability``)."""
    return any(e.kind == "copy_ability" for e in card.effects)


class CopiedAbility:
    """The ability of a copied card for the copying seat: every hook is the copied card's; the
    start of the hand logs the copy (an ``ability`` event under the copying card's name)."""

    def __init__(self, inner: Any, by: str, copied: str, drawn: Sequence[str]) -> None:
        self._inner = inner
        self.by = by
        self.copied = copied
        self.drawn = tuple(drawn)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def hand_start(self, table: TableControls) -> None:
        table.note(self._inner.seat, self.by,
                   f"draws {' and '.join(self.drawn)}, copies {self.copied}")
        self._inner.hand_start(table)


def copy_choice(drawn: Sequence[str], choose: Callable[[Sequence[str]], str] | None) -> str:
    """The card copied: the player's choice among the drawn cards (the first without one, or
    when the choice is not one of them)."""
    choice = choose(drawn) if choose is not None else drawn[0]
    return choice if choice in drawn else drawn[0]


# ---------------------------------------------------------------------------- two-sided cards

FAMILIES: dict[str, frozenset[int]] = {
    "man": frozenset(range(0, 9)), "pin": frozenset(range(9, 18)),
    "sou": frozenset(range(18, 27)), "honors": frozenset(range(27, 34)),
}


def family_of(tile: int) -> str:
    return next(name for name, types in FAMILIES.items() if tile // 4 in types)


def two_sided(card: Card) -> str | None:
    """The id of the card's other side (``flip_card`` ``to``), or None."""
    for e in card.effects:  # a loop: a compiled generator left half-run costs a traceback
        if e.kind == "flip_card":
            return e.params["to"]
    return None


def _face_down_bonus(card: Card, count: int) -> int:
    han = 0
    for e in card.effects:
        if e.kind == "count_bonus" and e.params["count"] == "face_down_in_own_discards":
            for at, value in zip(e.params["at"], e.params["han"], strict=True):
                if count >= at:
                    han = value
    return han


class FlipAbility:
    """A two-sided card for one seat and one hand (Mairu Shirouzu / Himeko Tsuruta): every
    hook not answered here is the side now up. The flips, by the ``flip_card`` effects:

    - front (``family_guess``): before each draw (from the wall, or the replacement after a
      kan) she names a family (a choice the card requires); the drawn tile is revealed to the
      table (the log's ``ability`` event names it, and every observation shows it among her
      shown tiles while she holds it:
      :meth:`TableControls.show_tile`); a right guess turns her first face-up tile lying in
      her pond face down and flips the card (``right_guess``). Her riichi turns
      her first ``riichi_face_down`` tiles lying face up in her pond face down and flips it
      (``own_riichi``).
    - back: ``count_bonus`` on the face-down tiles lying in her pond (extra han, C-12);
      ``extra_turn`` ``new_family_discard``: a face-up discard of a family none of her other
      face-up pond tiles shows earns an extra turn, then the card flips back
      (``after_new_family_discard``). Reading ``flip_back``: by default
      (``after_extra_turn``) she stays Himeko through the extra turn (its draw and a win on it
      count her face-down han) and flips back when it ends (her next discard) or is declined;
      ``when_offered`` flips back as the extra turn is offered, so it is played with the front
      up. Any call or riichi (hers included) flips it back (``any_call_or_riichi``).

    The side belongs to the hand: every hand starts with the front up, since the back enters
    play only through the front's effect (C-22 Himeko) and the pick is the front.

    Bot policy (Mairu Shirouzu): before each draw the bot names the family with the most
    copies it cannot see, the likeliest family for the next wall tile.
    Bot policy (Himeko Tsuruta): her extra turn after a new-family discard follows the shared
    extra-turn rule (:mod:`pipeline.cards.abilities`); the bot does not send tiles face down or
    choose new families on purpose for her han.
    """

    def __init__(self, front: Any, back: Any) -> None:
        self.sides = (front, back)
        self.up = 0
        self.table: TableControls | None = None
        self.guess: str | None = None
        self.front_discard: int | None = None  # the riichi tile that flipped the card
        guess = next((e for e in front.card.effects if e.kind == "family_guess"), None)
        self.riichi_face_down = guess.params["riichi_face_down"] if guess else 0
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

    # hooks answered here, whatever side is up
    OWN_HOOKS = frozenset(("hand_start", "before_draw", "after_draw", "riichi", "claim_made",
                           "extra_turn", "scoring"))

    def listens(self, hook: str) -> bool:
        """Either side may be up during the hand: a hook either side listens to counts; the
        end of an extra turn (a discard) matters when the back flips only after it."""
        if hook == "discard_made" and self.flips[1:] and not self.flip_when_offered \
                and "after_new_family_discard" in self.flips[1]:
            return True
        return hook in self.OWN_HOOKS or any(side.listens(hook) for side in self.sides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sides[self.up], name)

    def _flip(self, why: str, tag: Move = Move.FLIP) -> None:
        self.up = 1 - self.up
        if self.table is not None:
            self.table.note(self.side.seat, self.sides[1 - self.up].name,
                            f"flips to {self.side.name} ({why})", tag)

    def _turn_down(self, count: int) -> None:
        if self.table is None or not count:
            return
        swaps = self.table.swaps()
        for tile in swaps.lying()[self.side.seat][:count]:
            swaps.turn_face_down(tile, self.side.name, self.side.seat)

    # ------------------------------------------------------------------ hooks

    def hand_start(self, table: TableControls) -> None:
        self.table = table
        self.side.hand_start(table)

    def before_draw(self, view: DrawView) -> list:
        seat = self.side.seat
        # "before each draw": the wall draw and the replacement draw after a kan alike
        if self.up == 0 and view.seat == seat and self.table is not None and \
                (view.source == "rinshan" or (view.source == "wall" and view.live_left)):
            name = self.side.name
            options = [ability_action(seat, name, Move.FAMILY, payload=f,
                                      detail=f"{name}:family:{f}") for f in FAMILIES]
            choice = self.table.wall().choose(seat, options)
            self.guess = choice.payload
            self.table.note(seat, name, f"names {self.guess}")
        return self.side.before_draw(view)

    def after_draw(self, view: DrawView) -> None:
        self.side.after_draw(view)
        guess, self.guess = self.guess, None
        if guess is None or view.seat != self.side.seat or view.tile is None \
                or self.table is None:
            return
        drawn = family_of(view.tile)
        # the tile is shown to the whole table: the log names it, and every observation sees
        # it in her hand until it leaves
        self.table.show_tile(view.seat, view.tile, self.side.name, f"reveals a {drawn} tile")
        if drawn == guess and self.up == 0 and "right_guess" in self.flips[0]:
            self._turn_down(1)
            self._flip("right guess")

    def riichi(self, view: Any, table: TableControls) -> None:
        self.side.riichi(view, table)
        if self.up == 0 and view.seat == self.side.seat and "own_riichi" in self.flips[0]:
            self._turn_down(self.riichi_face_down)
            self._flip("riichi")
            # the declaration tile was Mairu's discard: it earns the back side nothing
            self.front_discard = next((e.tile for e in reversed(table.events())
                                       if e.kind == "discard" and e.seat == view.seat), None)
        elif self.up == 1 and "any_call_or_riichi" in self.flips[1]:
            self._flip("a riichi")

    def claim_made(self, view: Any) -> None:
        self.side.claim_made(view)
        if self.up == 1 and "any_call_or_riichi" in self.flips[1]:
            self._flip("a call")

    def extra_turn(self, view: Any) -> bool:
        if self.up == 0 or view.seat != self.side.seat or view.tile == self.front_discard:
            return self.side.extra_turn(view)
        earned = self.side.extra_turn(view) or (
            not view.face_down and self._new_family(view.tile) and any(
                e.kind == "extra_turn" and e.params["when"] == "new_family_discard"
                for e in self.side.card.effects))
        if earned and "after_new_family_discard" in self.flips[1]:
            if self.flip_when_offered:
                self._flip("a new family discarded")
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
                self._flip("the extra turn declined", Move.FLIP_AFTER_EXTRA_TURN)

    def discard_made(self, view: Any, table: TableControls) -> None:
        self.side.discard_made(view, table)
        if self.in_extra_turn and view.seat == self.side.seat:
            self.in_extra_turn = False
            if self.up == 1:
                self._flip("the extra turn over", Move.FLIP_AFTER_EXTRA_TURN)

    def _new_family(self, tile: int) -> bool:
        """No other face-up tile lying in her pond is of this tile's family."""
        if self.table is None:
            return False
        lying = [t for t in self.table.swaps().lying()[self.side.seat] if t != tile]
        return family_of(tile) not in {family_of(t) for t in lying}

    def scoring(self, win: Any) -> Any:
        from pipeline.rules.hooks import merge_modifiers
        from pipeline.rules.scoring import ScoringModifiers

        own = self.side.scoring(win)
        if self.up == 0 or win.seat != self.side.seat or self.table is None:
            return own
        down = self.table.swaps().face_down_counts()[self.side.seat]
        han = _face_down_bonus(self.side.card, down)
        if not han:
            return own
        bonus = ScoringModifiers(extra_han=(("face_down_in_own_discards", han),))
        return merge_modifiers([own, bonus]) if own is not None else bonus
