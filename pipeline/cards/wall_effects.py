"""Wall and draw effects: what a card changes about the wall and where a seat's tiles come from.

:class:`WallEffects` holds one card's effects of this family for one seat and one hand; the
:class:`~pipeline.cards.abilities.CardAbility` hooks delegate to it. It acts only through the
engine's :class:`~pipeline.rules.hooks.WallControls` (tiles to the end of the live or dead wall,
extra draws, a tile kept beside the hand, the last live tile moved to the dead wall), so every
tile stays in one place and every move is logged. Steps a card requires at the start of her turn
are done when the engine asks for her turn choices (``turn_choices``: once as her turn begins,
before she acts). The primitives, by effect kind:

- ``wall_exchange``: in the round named (East or South), before her first discard she puts
  ``tiles`` tiles of her hand at the end of the live or dead wall and draws as many from the
  live wall; with ``draw_first`` she draws first and then puts back. With
  ``repeat_after_second_row`` she does it once more, on her own turn, once any pond holds two
  full rows (12 tiles lying in it; C-22 Kazue: once per hand, on her own turn). She picks each
  tile to put back (one choice per tile, no pass). In riichi her hand is locked: a draw-first
  exchange puts back the tiles just drawn, a put-first one does not happen.
- ``draw_from_discards``: instead of her live draw she may take a tile lying face up in her own
  pond (offered with the wall draw); she must then discard a tile of another type (the type is
  barred this turn, as after a call), so the offer needs one in her hand. Not in riichi (her
  discard would have to be that tile). Reading ``taken_tile_tsumo``: the tile taken back is
  her draw and may win by tsumo (``allowed``, the default), or it may not (``forbidden``).
- ``private_extra_tile``: before her first discard she draws a live tile and keeps it beside her
  hand, seen by her alone (C-22 Toki). On her turn, before she acts, she may swap it with a tile
  of the closed part of her hand (not in riichi: her hand is locked); instead of a live draw or a
  rinshan draw she may take it (one extra tile a hand: once taken it is gone). A win on it taken
  instead of a rinshan draw is a rinshan win. A swap is logged as one (Teru's honba count it:
  C-22 Teru).
- ``last_tile_mastery``: the last live tile and the last discard always win for her (the
  engine's ``always_wins`` hook). Reading ``always_winning``: ``wildcard`` (default) needs a
  ready hand, the tile standing for its best completion; ``shapeless`` lets a hand that is not
  ready win too, valued by :mod:`pipeline.rules.shapeless` with haitei or houtei as its yaku.
  The last discard is a moment, not a tile type, so it adds no furiten of its own; her real
  waits' furiten applies. While her hand is closed each of her discards moves the last
  live-wall tile to the dead wall; when she is the only player in riichi she may move a second
  one. The part with Satomi Kanbara in play (the last dead-wall tile too) waits for Satomi's
  card: the wall drawn up to the last indicator is not built yet.

Bot policies (the shared rules are in :mod:`pipeline.cards.abilities`):

- Bot policy (Yuuki Kataoka): each tile she puts back at the end of the live wall is the least
  useful one by the bot's own discard judgment (shanten, then how well it connects, keeping
  dora, red fives and value pairs).
- Bot policy (Kazue Nanpo): after drawing, each tile she puts at the end of the dead wall is
  chosen the same way as Yuuki's: the least useful one.
- Bot policy (Koromo Amae): the second last-tile move (offered while she is the only player in
  riichi) is declined when the last live tile already falls to her own draw (tiles left a
  multiple of four) and made otherwise, which may bring it to her; her last-tile wins are taken
  like every win.
- Bot policy (Toki Onjouji): the tile beside her hand is swapped in when that brings her hand
  closer to tenpai, and taken instead of a draw when it wins or brings the hand closer to tenpai
  (in riichi only to win); otherwise it stays beside the hand, unseen by the others.
- Bot policy (Takami Shibuya): a tile of her own pond is drawn instead of the wall's when it
  wins or brings her hand closer to tenpai, or when her hand, one step from tenpai or less, stays
  as close and accepts at least 4 more tiles (``KNOWN_DRAW_MIN_GAIN``) despite the type she may
  not then discard; otherwise the unknown wall tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hooks import (
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WallControls,
    WinTileView,
    WinView,
)

ROUNDS = {"east": 0, "south": 1}
SECOND_ROW = 12          # tiles lying in a pond once its second row of six is complete

# Effect kinds implemented here, for every value of their parameters.
WALL_KINDS = frozenset(("wall_exchange", "draw_from_discards", "private_extra_tile",
                        "last_tile_mastery"))
# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS); "draw" is
# the engine's draw from another source, already registered.
OPTIONAL = frozenset(("swap", "move_two"))


class WallEffects:
    """One card's wall and draw effects for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        kinds = {e.kind for e in card.effects}
        self.exchanges: list[Mapping[str, Any]] = [e.params for e in card.effects
                                                   if e.kind == "wall_exchange"]
        self.from_discards = "draw_from_discards" in kinds
        self.taken_tile_wins = all(e.params["taken_tile_tsumo"] == "allowed"
                                   for e in card.effects if e.kind == "draw_from_discards")
        self.taken_back: int | None = None  # the last tile she took back from her pond
        self.extra_tile = "private_extra_tile" in kinds
        self.last_tile = "last_tile_mastery" in kinds
        self.last_tile_shapeless = any(
            e.params["always_winning"] == "shapeless" for e in card.effects
            if e.kind == "last_tile_mastery")
        self.wall: WallControls | None = None
        self.round_wind = 0
        self.exchanged = 0          # exchanges done this hand
        self.aside_drawn = False    # the extra tile was drawn (it may be gone since)
        self._any = bool(self.exchanges or self.from_discards or self.extra_tile
                         or self.last_tile)  # asked very often

    def __bool__(self) -> bool:
        return self._any

    def hand_start(self, table: TableControls) -> None:
        self.wall = table.wall()
        self.round_wind = self.wall.round_wind()

    # ------------------------------------------------------------------ her turn

    def turn_start(self, view: OwnTurnView) -> None:
        """Steps at the start of her turn, before she acts."""
        if self.wall is None or view.seat != self.seat:
            return
        for params in self.exchanges:
            if self._exchange_due(params, view):
                self.exchanged += 1
                self._exchange(params, view.in_riichi)
        if self.extra_tile:
            if not self.aside_drawn and view.turns == 0:
                self.aside_drawn = True
                self.wall.set_aside(self.seat, self.name)
            if not view.in_riichi:
                self._offer_swap()

    def _exchange_due(self, params: Mapping[str, Any], view: OwnTurnView) -> bool:
        if ROUNDS[params["round"]] != self.round_wind:
            return False
        if self.exchanged == 0:
            return view.turns == 0
        return (params["repeat_after_second_row"] and self.exchanged == 1
                and max(self.wall.pond_sizes()) >= SECOND_ROW)

    def _exchange(self, params: Mapping[str, Any], in_riichi: bool) -> None:
        wall = self.wall
        count = params["tiles"]
        where = Move.PUT_LIVE if params["wall"] == "live" else Move.PUT_DEAD
        if params["draw_first"]:
            drawn = wall.draw(self.seat, count, self.name)
            self._put_back(where, len(drawn), drawn if in_riichi else None)
        elif not in_riichi and wall.live_left() >= count:
            self._put_back(where, count, None)
            wall.draw(self.seat, count, self.name)

    def _put_back(self, where: Move, count: int, only: tuple[int, ...] | None) -> None:
        """She picks ``count`` tiles one by one (of ``only`` when given) and puts them back."""
        wall = self.wall
        chosen: list[int] = []
        for _ in range(count):
            held = [t for t in wall.concealed(self.seat) if t not in chosen
                    and (only is None or t in only)]
            options = [ability_action(self.seat, self.name, where, t) for t in held]
            chosen.append(wall.choose(self.seat, options).tile)
        if where is Move.PUT_LIVE:
            wall.put_live_end(self.seat, chosen, self.name)
        else:
            wall.put_dead_end(self.seat, chosen, self.name)

    def _offer_swap(self) -> None:
        """The tile beside her hand for one of her closed tiles (optional, C-22 Toki), never
        one that leaves her no tile she may discard (after a call, rule H-07's kuikae)."""
        wall = self.wall
        beside = wall.aside(self.seat)
        if not beside:
            return
        extra = beside[0]
        hand = wall.concealed(self.seat)
        barred = wall.barred(self.seat)

        def leaves_discard(t: int) -> bool:
            return not barred or any(x // 4 not in barred for x in (*hand, extra) if x != t)

        options = [ability_action(self.seat, self.name, Move.SWAP_ASIDE, t)
                   for t in hand if leaves_discard(t)]
        if not options:
            return
        choice = wall.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            wall.exchange_aside(self.seat, extra, choice.tile, self.name,
                                "swaps the tile beside her hand with a hand tile")

    # ------------------------------------------------------------------ draws

    def before_draw(self, view: DrawView) -> list[Action]:
        """Her own pond's face-up tiles (live draws only), and the tile beside her hand."""
        if view.seat != self.seat or self.wall is None:
            return []
        offers: list[Action] = []
        if self.from_discards and view.source == "wall" and \
                self.seat not in self.wall.riichi_seats():
            held = {x // 4 for x in self.wall.concealed(self.seat)}
            offers.extend([ability_action(self.seat, self.name, AbilityTag.DRAW, t)
                          for t in view.ponds[self.seat] if held - {t // 4}])
        if self.extra_tile:
            offers.extend([ability_action(self.seat, self.name, AbilityTag.DRAW, t)
                          for t in self.wall.aside(self.seat)])
        return offers

    def action_taken(self, action: Action) -> None:
        """A tile taken from her own pond: its type may not be her discard this turn."""
        if self.wall is None or action.tag is not AbilityTag.DRAW or \
                action.tile in self.wall.aside(self.seat):
            return
        if self.from_discards:
            self.wall.forbid_discard(self.seat, frozenset({action.tile // 4}))
            self.taken_back = action.tile

    def win_allowed(self, win: WinView) -> bool:
        """Under the ``forbidden`` reading, no tsumo on a tile she took back from her pond."""
        return self.taken_tile_wins or win.seat != self.seat or not win.ctx.is_tsumo \
            or win.ctx.win_tile != self.taken_back

    # ------------------------------------------------------------------ the last tile

    def discard_made(self, view: DiscardView, table: TableControls) -> None:
        """Her discard with a closed hand moves the last live tile to the dead wall; a second
        one, if she wants, while she is the only player in riichi."""
        if not self.last_tile or view.seat != self.seat or self.wall is None or \
                not self.wall.is_closed(self.seat):
            return
        if not self.wall.move_last_live_to_dead(self.seat, self.name):
            return
        if self.wall.riichi_seats() == (self.seat,) and self.wall.live_left():
            offer = ability_action(self.seat, self.name, Move.MOVE_TWO)
            if self.wall.offer(self.seat, offer):
                self.wall.move_last_live_to_dead(self.seat, self.name)

    def always_wins(self, view: WinTileView) -> bool:
        """The last live tile she draws, and the last discard: to a ready hand, or to any hand
        under the ``shapeless`` reading."""
        return self.last_tile and view.seat == self.seat and view.last \
            and (bool(view.waits) or self.last_tile_shapeless)
