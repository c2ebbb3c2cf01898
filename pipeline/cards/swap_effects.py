"""Swap effects: a card exchanges a tile of her hand with a tile lying in a pond.

:class:`SwapEffects` holds one card's effects of this family for one seat and one hand; the
:class:`~pipeline.cards.abilities.CardAbility` hooks delegate to it. It acts only through the
engine's :class:`~pipeline.rules.hooks.SwapControls`: the tile she gives takes the pond tile's
place, so every tile stays in one place. A swapped tile is no discard: nobody may call or ron
it, but it counts for its pond's furiten (it can create or remove furiten). Only a tile lying
face up may be taken (a claimed or ronned discard is gone from the pond). Each swap is logged
tagged ``SWAPPED``, so Teru's honba count it (C-22 Teru). The primitives, by effect kind:

- ``swap_with_discard``: on her turn, before she acts, she may swap one tile of her hand with a
  tile lying face up in any pond. ``when``: ``pond_6_or_12_or_riichi`` - her pond holds
  exactly 6 or 12 tiles as her turn begins, or another player's riichi was accepted since her
  previous turn (the swap comes on her turn); ``after_call`` - she called (chi, pon or open
  kan) and is about to discard. ``match``: ``number`` - both tiles are number tiles of the
  same number (honors have none); ``family`` - both tiles are of the same family (manzu,
  pinzu, souzu, honors; C-22 Ako: the family of the tile swapped, not of the discard or of the
  called tile). A tile of the same type is never offered (nothing would change). Not in
  riichi (her hand is locked), and never so that she is left with no tile she may discard
  (rule H-07's kuikae after a call).
- ``blocks_wins_with_wind``: another player may not win while holding a tile of her seat wind
  (in the hand or in a meld, the winning tile included), except with a yakuman (a counted
  yakuman: kazoe is not one). And whenever another player discards the round wind or her seat
  wind and nobody claims or rons it, she may swap it for a terminal or honor of her hand (of
  another type; not in riichi): the discarder's pond then holds her tile.
- ``peek_and_swap``: while her hand is closed, whenever another player takes an extra turn
  (seen at its draw), discards face down, calls chi or has a riichi accepted, she looks at the
  next live-wall tile and may swap it for any tile of her hand (of another type; not in riichi:
  her hand is locked); the tile she gives is drawn next in its place. With it, ``win_multiplier``
  ``ippatsu_threat``: her win is multiplied while another player's ippatsu is still alive (the
  go-around in which she could deal into an ippatsu).
- ``meld_swap``: when she calls (chi, pon, open kan), she may swap one of her melds (the one
  just made included) with another player's meld, and, a separate choice, turn one tile lying
  face up in a pond face down (C-13 then applies to it). A closed kan may be taken (it becomes
  an open kan; its owner's hand is open with her meld), but nothing from a player in riichi
  (C-22 Yumi: that hand is locked). A meld only another ability allows (Kaori's honor
  sequence, Yuuko's wrap-around sequence) may be swapped too, either way: whoever then holds a
  sequence their own shapes do not allow has a dead hand (rule C-20, C-22 Yumi: the engine's
  dead-hand check: no win, noten at a draw) until a further swap takes it away or gives it
  back. With it, ``han_per_count`` ``face_down_in_other_discards``: her extra han per full
  group of face-down tiles lying in the other players' ponds.

Bot policies. A hand tile offered for a known tile (a pond's, or the next wall tile) is swapped
when that brings the hand closer to tenpai, or keeps it as close (one step or less) while it
accepts at least 4 more tiles (``KNOWN_DRAW_MIN_GAIN`` in :mod:`pipeline.bots.heuristic`); among
several such swaps the best one, else none.

- Bot policy (Ako Atarashi): her swap after a call with a pond tile of the same family follows
  that exchange rule.
- Bot policy (Hajime Kunihiro): her swap with a pond tile of the same number (at 6 or 12 tiles
  in her pond, or after another player's riichi) follows that exchange rule.
- Bot policy (Myeonghwa Choe): the swap of a passed round or seat wind for a terminal or honor
  of hers follows that exchange rule; blocking the others' wins needs no decision.
- Bot policy (Satoha Tsujigaito): the swap of a hand tile for the wall tile she peeks at follows
  that exchange rule; the doubling under an ippatsu threat needs no decision.
- Bot policy (Yumi Kajiki): after her call the bot swaps melds when the other meld is worth more
  to her (a value-tile triplet 2, each dora tile 1, a kan a half more), never for a sequence
  only another character may build (her hand would be dead, rule C-20: no win, noten at the
  draw, so the swap can only cost her), while such a meld of hers goes for any other; it turns
  one tile of another player's pond face down (the last one offered: those count for her han)
  while her hand is within two steps of tenpai, never a tile of her own pond.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.moves import Move
from pipeline.cards.table_effects import ippatsu_alive, table_seats
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.hooks import (
    CallView,
    DiscardView,
    DrawView,
    OwnTurnView,
    SwapControls,
    TableControls,
    WinView,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import RiichiView

# Effect kinds implemented here, with the parameter values covered.
SWAP_KINDS = frozenset(("swap_with_discard", "blocks_wins_with_wind", "peek_and_swap",
                        "meld_swap"))
SUPPORTED: dict[tuple[str, str], frozenset[str]] = {
    ("swap_with_discard", "when"): frozenset(("pond_6_or_12_or_riichi", "after_call")),
    ("swap_with_discard", "match"): frozenset(("number", "family")),
    ("win_multiplier", "when"): frozenset(("ippatsu_threat",)),
    ("han_per_count", "count"): frozenset(("face_down_in_other_discards",)),
}
# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("swap_pond", "swap_wall", "swap_meld", "turn_down"))
POND_SIZES = (6, 12)     # her pond's sizes that open a swap


WINDS = 27               # East's type; South, West, North follow


def terminal_or_honor(t: int) -> bool:
    """Of a tile type."""
    return t >= 27 or t % 9 in (0, 8)


def _family(t: int) -> int:
    """0 manzu, 1 pinzu, 2 souzu, 3 honors (of a tile type)."""
    return min(t // 9, 3)


def matches(match: str, held: int, taken: int) -> bool:
    """Whether two tiles (ids) may be swapped under ``match``; never two of one type."""
    a, b = held // 4, taken // 4
    if a == b:
        return False
    if match == "number":
        return a < 27 and b < 27 and a % 9 == b % 9
    return _family(a) == _family(b)


def standard(tiles: Sequence[int]) -> bool:
    """A meld's tiles (ids) as the standard rules allow them: a triplet or kan, or three suited
    neighbours (any seat may hold it; another sequence needs the holder's own shapes: C-20)."""
    types = sorted(x // 4 for x in tiles)
    if len(set(types)) == 1:
        return True
    if len(types) != 3:
        return False
    a, b, c = types
    return c < 27 and a // 9 == c // 9 and b == a + 1 and c == b + 1


class SwapEffects:
    """One card's swap effects for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        self.with_discard: list[Mapping[str, Any]] = [e.params for e in card.effects
                                                      if e.kind == "swap_with_discard"]
        self.wind_guard = any(e.kind == "blocks_wins_with_wind" for e in card.effects)
        self.peek = any(e.kind == "peek_and_swap" for e in card.effects)
        self.threat = [e.params["factor"] for e in card.effects if e.kind == "win_multiplier"
                       and e.params.get("when") == "ippatsu_threat"]
        self.meld_swap = any(e.kind == "meld_swap" for e in card.effects)
        self.face_down_han = [(e.params["per"], e.params["han"]) for e in card.effects
                              if e.kind == "han_per_count"
                              and e.params.get("count") == "face_down_in_other_discards"]
        self.swaps: SwapControls | None = None
        self.table: TableControls | None = None
        self.riichi_seen = False  # another seat's riichi accepted since her previous turn
        self.called = False       # she called and has not discarded yet
        self._any = bool(self.with_discard or self.wind_guard or self.peek or self.threat
                         or self.meld_swap or self.face_down_han)  # asked very often

    def __bool__(self) -> bool:
        return self._any

    def hand_start(self, table: TableControls) -> None:
        self.swaps = table.swaps()
        self.table = table

    def riichi(self, view: RiichiView) -> None:
        if view.seat != self.seat:
            self.riichi_seen = True
            self._peek()

    def claim_made(self, view: CallView) -> None:
        if view.seat == self.seat:
            self.called = True
            if self.meld_swap and self.swaps is not None:
                self._offer_meld_swap()
                self._offer_turn_down()
        elif view.kind == "chi":
            self._peek()

    def discard_made(self, view: DiscardView) -> None:
        if view.seat != self.seat and view.face_down:
            self._peek()

    def after_draw(self, view: DrawView) -> None:
        """Another player's draw for an extra turn (the last public event announced it)."""
        if not self.peek or view.seat == self.seat or self.table is None:
            return
        events = self.table.events()
        if events and events[-1].kind == "ability" and events[-1].seat == view.seat \
                and events[-1].tag is AbilityTag.EXTRA_TURN:
            self._peek()

    def _peek(self) -> None:
        """She looks at the next wall tile and may swap it for a tile of her closed hand."""
        swaps = self.swaps
        if not self.peek or swaps is None or not swaps.is_closed(self.seat) \
                or self.seat in swaps.riichi_seats():
            return
        nxt = swaps.peek()
        if nxt is None:
            return
        held: dict[tuple[int, bool], int] = {}
        for x in swaps.concealed(self.seat):
            if x // 4 != nxt // 4:
                held.setdefault((x // 4, x in (16, 52, 88)), x)
        options = [ability_action(self.seat, self.name, Move.SWAP_WALL, x, tiles=(nxt,))
                   for x in held.values()]
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.with_wall(self.seat, choice.tile, self.name)

    def scoring(self, win: WinView) -> list[ScoringModifiers]:
        """Her win while another player's ippatsu is alive (the ippatsu threat) is multiplied;
        face-down tiles in the others' ponds give extra han (rule C-12: not a yaku)."""
        if win.seat != self.seat or self.swaps is None or self.table is None:
            return []
        out = []
        if self.threat and any(ippatsu_alive(self.table.events(), s)
                               for s in win.riichi_seats if s != self.seat):
            out += [ScoringModifiers(value_multiplier=f) for f in self.threat]
        if self.face_down_han:
            down = sum(n for s, n in enumerate(self.swaps.face_down_counts()) if s != self.seat)
            for per, han in self.face_down_han:
                if down // per:
                    out.append(ScoringModifiers(
                        extra_han=(("face_down_in_other_discards", down // per * han),)))
        return out

    # ------------------------------------------------------------------ melds

    def _offer_meld_swap(self) -> None:
        swaps = self.swaps
        locked = set(swaps.riichi_seats())
        options = [ability_action(self.seat, self.name, Move.SWAP_MELD, mine.tiles[0],
                                  tiles=theirs.tiles)
                   for mine in swaps.melds(self.seat)
                   for other in range(table_seats(swaps)) if other != self.seat
                   and other not in locked
                   for theirs in swaps.melds(other)]
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind != ActionKind.ABILITY:
            return
        mine = next(m for m in swaps.melds(self.seat) if m.tiles[0] == choice.tile)
        other, theirs = next((o, m) for o in range(table_seats(swaps)) if o != self.seat
                             for m in swaps.melds(o) if m.tiles == choice.tiles)
        swaps.swap_melds(self.seat, mine, other, theirs, self.name)

    def _offer_turn_down(self) -> None:
        swaps = self.swaps
        options = [ability_action(self.seat, self.name, Move.TURN_DOWN, x)
                   for pond in swaps.lying() for x in pond]
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.turn_face_down(choice.tile, self.name, self.seat)


    # ------------------------------------------------------------------ her turn

    def turn_start(self, view: OwnTurnView) -> None:
        """The swaps her turn opens, offered before she acts."""
        if self.swaps is None or view.seat != self.seat:
            return
        due = [p for p in self.with_discard if self._due(p["when"])]
        self.riichi_seen = self.called = False
        if view.in_riichi:
            return
        for params in due:
            self._offer_pond_swap(params["match"])

    def _due(self, when: str) -> bool:
        if when == "after_call":
            return self.called
        return self.riichi_seen or self.swaps.pond_sizes()[self.seat] in POND_SIZES

    def pond_options(self, match: str) -> list[Action]:
        """Her swaps with a pond tile under ``match``: one hand tile per kind (type, red or
        not) for each tile lying face up, leaving her a tile she may discard."""
        swaps = self.swaps
        hand = swaps.concealed(self.seat)
        barred = swaps.barred(self.seat)
        held: dict[tuple[int, bool], int] = {}
        for t in hand:
            held.setdefault((t // 4, t in (16, 52, 88)), t)
        options = []
        for pond in swaps.lying():
            for taken in pond:
                for t in held.values():
                    if not matches(match, t, taken):
                        continue
                    after = [x for x in hand if x != t] + [taken]
                    if barred and all(x // 4 in barred for x in after):
                        continue
                    options.append(ability_action(self.seat, self.name, Move.SWAP_POND, t,
                                                  tiles=(taken,)))
        return options

    def _offer_pond_swap(self, match: str) -> None:
        options = self.pond_options(match)
        if not options:
            return
        choice = self.swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            self.swaps.with_pond(self.seat, choice.tile, choice.tiles[0], self.name)

    # ------------------------------------------------------------------ her seat wind

    def win_allowed(self, win: WinView) -> bool:
        """No other player wins holding her seat wind, unless with a yakuman."""
        if not self.wind_guard or win.seat == self.seat or win.yakuman:
            return True
        wind = WINDS + (self.seat - win.dealer) % (len(win.scores) or 4)
        held = (*win.ctx.concealed, *(x for m in win.ctx.melds for x in m.tiles))
        return all(x // 4 != wind for x in held)

    def discard_passed(self, view: DiscardView) -> None:
        """Another player's round wind or her seat wind, unclaimed: for a terminal or honor
        of her hand, if she wants."""
        swaps = self.swaps
        if not self.wind_guard or swaps is None or view.seat == self.seat or view.face_down \
                or self.seat in swaps.riichi_seats():
            return
        winds = {WINDS + swaps.round_wind(),
                 WINDS + (self.seat - view.dealer) % table_seats(swaps)}
        if view.tile // 4 not in winds or view.tile not in swaps.lying()[view.seat]:
            return  # another wind, or already swapped away (two such cards in play)
        held: dict[int, int] = {}
        for x in swaps.concealed(self.seat):
            if terminal_or_honor(x // 4) and x // 4 != view.tile // 4:
                held.setdefault(x // 4, x)
        options = [ability_action(self.seat, self.name, Move.SWAP_POND, x, tiles=(view.tile,))
                   for x in held.values()]
        if not options:
            return
        choice = swaps.choose(self.seat, [*options, Action(ActionKind.PASS, self.seat)])
        if choice.kind == ActionKind.ABILITY:
            swaps.with_pond(self.seat, choice.tile, view.tile, self.name)
