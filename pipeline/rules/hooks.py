"""The hook points through which abilities act on a hand: the engine's side of the card layer.

The hand loop calls these hooks at fixed moments. An ability overrides only the ones it needs;
every hook of the base class does nothing, so a seat without an ability (or with an ability that
does nothing) plays exactly like a card-free game. Engine code never names a character: it only
calls hooks and applies what they return. Most hook points ask only the abilities that listen
(``AbilityHooks.listens``: by default the hooks an ability overrides) and build no view when none
does; an ability that overrides every hook but acts on few (a card's) answers ``listens`` itself.

Hook points, in the order a hand meets them: every method of :class:`AbilityHooks` (but
``listens``, which says which of them an ability answers), named in :data:`HOOKS` in this order
(``tests/rules/engine/test_hook_table.py`` checks that the three agree):

======================  ==================================================================
``hand_start``          after the deal, before the dealer's first discard
``hand_shapes``         extra sequences the seat may build (win detection, waits, chi, scoring)
``before_draw``         before a live draw: other sources offered (a tile set aside from a pond
                        or beside the hand); before a rinshan draw too (``source`` "rinshan")
``replace_draw``        instead of a live or rinshan draw: the ability draws through the wall
                        controls (tiles revealed, swapped with indicators, one taken)
``after_draw``          after the seat has drawn (wall, rinshan or another source)
``turn_choices``        a choice the seat must make before acting on its turn (a family named);
                        called once as the turn begins, so wall steps are taken there too
``own_actions``         extra legal actions on the seat's own turn (face-down discard, ...)
``forced_face_down``    whether the seat's plain discard must go face down (a forced effect)
``action_taken``        one of the ability's own actions was chosen (uses counted, state kept)
``discard_made``        after any discard, before the claims on it (wall changes a discard makes)
``extra_turn``          after the seat's discard that nobody claimed: whether it earns an extra
                        turn (offered with a pass)
``offer_declined``      the ability's optional offer (an extra turn) was declined
``discard_actions``     after the seat's discard that nobody claimed: optional follow-ups (a
                        repeated discard)
``late_claims``         after any discard that nobody claimed: a ron on the discarder's previous
                        discard (offered to the ability's seat with a pass)
``discard_passed``      after any discard that nobody claimed or ronned (a swap with it)
``claim_filter``        which calls a seat may make: on a discard (blocked calls and wins,
                        priority calls that beat ron) and its own kans
``kans_closed``         whether the seat's open and added kans become closed kans (and it may
                        declare one on a discard in riichi when its wait stays the same)
``claim_made``          after any call (chi, pon, open kan), before the caller discards
``riichi_allowed``      whether the seat may declare riichi at all (checked with the H-08 limits)
``riichi_choices``      a choice the seat must make when it declares riichi (a player named)
``riichi``              after any riichi is accepted (stakes, extra dora indicators: C-18, C-19)
``switched_off``        which other seats' abilities this ability switches off now (rule C-20: a
                        switched-off ability is not asked anything; it works again when switched
                        on)
``while_switched_off``  what of a switched-off ability still applies (a restriction it costs)
``win_allowed``         whether a complete hand that scores may win (blocked wins)
``win_is_chombo``       whether a win just declared is a chombo instead (rule C-20): the seat
                        pays a reverse mangan and the hand is played again
``always_wins``         whether a tile wins for the seat whatever its hand's shape
``ignores_furiten``     whether the seat may ron in furiten
``scoring``             modifiers for a win's value (yaku values, extra han, dora, local yaku)
``payments``            the payments of a win, to adjust (doubling, extra transfers, exemption)
``draw_payments``       the payments of a draw (exhaustive or abortive), to adjust (doubled,
                        ignored, rerouted)
``hand_end``            after the hand's payments (stakes, match-long state)
``match_end``           after the last hand (called by the card table)
======================  ==================================================================

What a character is worth to pick is no hook: the bots estimate it from the card's effects
(:func:`pipeline.bots.pick.card_value`).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.frozen import FrozenFields
from pipeline.rules.hand_shapes import HandShapes
from pipeline.rules.records import AbilityEffect, DrawSource, Event, Payload
from pipeline.rules.scoring import NO_MODIFIERS, ScoringModifiers, WinContext
from pipeline.rules.settlement import HandEndView, RiichiView, Settlement

HOOKS = ("hand_start", "hand_shapes", "before_draw", "replace_draw", "after_draw",
         "turn_choices", "own_actions", "forced_face_down", "action_taken", "discard_made",
         "extra_turn", "offer_declined", "discard_actions", "late_claims", "discard_passed",
         "claim_filter", "kans_closed", "claim_made", "riichi_allowed", "riichi_choices",
         "riichi", "switched_off", "while_switched_off", "win_allowed", "win_is_chombo",
         "always_wins", "ignores_furiten", "scoring", "payments", "draw_payments", "hand_end",
         "match_end")


@cython.cclass
class WinView(FrozenFields):
    """What the scoring hook may read about a (possible) win."""

    __slots__ = (
        "seat", "ctx", "discarder", "scores", "dealer", "riichi_seats", "table_points", "stakes",
        "melds", "seen", "ponds", "yakuman",
    )
    seat: int
    ctx: WinContext
    discarder: int | None  # None for a tsumo
    scores: tuple[int, ...]
    dealer: int
    riichi_seats: tuple[int, ...]  # in the order their riichi was accepted
    table_points: int  # points on the table (riichi sticks) before the win
    stakes: int  # points staked on the table by abilities before the win
    melds: tuple[tuple[Meld, ...], ...]  # every seat's declared melds, by seat
    seen: tuple[int, ...]  # type counts the winner saw before the win (34 entries)
    ponds: tuple[tuple[int, ...], ...]  # tiles lying in each pond, face down included
    yakuman: int  # the win's yakuman count (win_allowed; 0 when not known)

    def __init__(self, seat: int, ctx: WinContext, discarder: int | None, scores: tuple[int, ...],
                 dealer: int, riichi_seats: tuple[int, ...], table_points: int = 0,
                 stakes: int = 0, melds: tuple[tuple[Meld, ...], ...] = (),
                 seen: tuple[int, ...] = (), ponds: tuple[tuple[int, ...], ...] = (),
                 yakuman: int = 0) -> None:
        self.seat = seat
        self.ctx = ctx
        self.discarder = discarder
        self.scores = scores
        self.dealer = dealer
        self.riichi_seats = riichi_seats
        self.table_points = table_points
        self.stakes = stakes
        self.melds = melds
        self.seen = seen
        self.ponds = ponds
        self.yakuman = yakuman


class TableControls:
    """The narrow means an ability has to change the table outside scoring; each use is logged
    as an ``ability`` event by the engine."""

    def __init__(self, state: object) -> None:
        self._state = state

    def seats(self) -> int:
        """Seats at the table: 4, or 3 (rule S-01): abilities that go round the table."""
        return len(self._state.players)

    def reveal_hand(self, seat: int, by: str) -> None:
        """The seat plays face up for the rest of the hand: every observation shows its tiles."""
        self._state.reveal_hand(seat, by)

    def stake(self, seat: int, points: int, by: str, what: str) -> int:
        """The seat puts points on the table like a riichi stick; the next winner collects them.
        A seat stakes at most what it has (rule C-18). Returns the points staked."""
        return self._state.stake(seat, points, by, what)

    def add_honba(self, seat: int, count: int, by: str, what: str) -> None:
        """``count`` honba join the table's count: the next hand starts with them as with its
        own honba (rule M-03: kept after a draw or a dealer's win, gone after another win)."""
        self._state.record.honba_added += count
        self._state.log("ability", seat, detail=f"{by}: {what}: {count} honba added to the "
                        "table's count", tag=AbilityTag.HONBA_ADDED, card=by, payload=count)

    def reveal_dora(self, seat: int, count: int, by: str) -> int:
        """Reveal ``count`` more dora indicators (rule C-19: a riichi winner gets the matching
        ura indicators; past the fifth, 2 live-wall tiles join the dead wall for each, while
        the live wall has them). Returns how many were revealed."""
        return self._state.reveal_extra_dora(seat, count, by)

    def hide_hand(self, seat: int, by: str) -> None:
        """The seat's tiles are hidden again (a face-up effect that ends during the hand); a
        reveal by another ability stays."""
        self._state.hide_hand(seat, by)

    def show_types(self, seat: int, types: frozenset[int], by: str) -> None:
        """The seat keeps its tiles of these types face up for the rest of the hand (tiles
        drawn later too): every observation shows them."""
        self._state.show_types(seat, types, by)

    def shown_tiles(self, seat: int) -> tuple[int, ...]:
        """The seat's concealed tiles that lie face up now (public)."""
        return self._state.shown_tiles(seat)

    def show_tile(self, seat: int, tile: int, by: str, what: str) -> None:
        """A tile of the seat's hand is shown to the table (a revealed draw): the log's event
        names it, and every observation counts it among the seat's shown tiles while the seat
        holds it."""
        self._state.shown_ids.setdefault(seat, set()).add(tile)
        self._state.log("ability", seat, tile, detail=f"{by}: {what}", tag=AbilityTag.TILE_SHOWN,
                        card=by)

    def scores(self) -> tuple[int, ...]:
        """Every seat's points now (public)."""
        return tuple(self._state.scores)

    def dealer(self) -> int:
        """The hand's dealer."""
        return self._state.dealer

    def transfer(self, payer: int, payee: int, points: int, by: str, what: str) -> None:
        """``payer`` pays ``payee`` during the hand (outside any win); logged, points conserved."""
        self._state.transfer(payer, payee, points, by, what)

    def note(self, seat: int, by: str, what: str, tag: StrEnum | None = None, *,
             bookkeeping: bool = False, payload: Payload = None) -> None:
        """Log what an ability did that moves no points now (an ``ability`` event, tagged
        ``tag`` when something must recognise it); ``bookkeeping`` when it only keeps the
        card's state (a family named, a side flipped, a match-long memory noted) and changes
        neither the play nor the points; ``payload`` what the event names, as ``tag`` says."""
        self._state.log("ability", seat, detail=f"{by}: {what}", tag=tag, card=by,
                        effect=AbilityEffect.BOOKKEEPING if bookkeeping else None,
                        payload=payload)

    def log_size(self) -> int:
        """How many events the hand's log holds: whoever watches an ability (the paired
        replay) tells from it whether a hook used these controls, as every use is logged."""
        return len(self._state.events)

    def in_riichi(self, seat: int) -> bool:
        """Whether the seat has declared riichi this hand (public: its ``riichi`` event is in
        the log from then on)."""
        return self._state.players[seat].riichi

    def events(self) -> tuple[Event, ...]:
        """The hand's public log so far (deals and draws left out)."""
        return tuple([e for e in self._state.events if e.kind not in ("deal", "draw")])

    def wall(self) -> WallControls:
        """The narrower means to move tiles between a hand, the wall and the side of a hand."""
        return WallControls(self._state)

    def swaps(self) -> SwapControls:
        """The means to exchange a hand tile with a pond tile or the next wall tile."""
        return SwapControls(self._state)


class WallControls:
    """What an ability may do with the wall and the tiles beside a hand. Every tile stays in
    one place (hand, wall, dead wall or beside a hand); each move is logged (an ``ability``
    event that names no hidden tile; a tile drawn is a ``draw`` event, private like any draw)."""

    def __init__(self, state: object) -> None:
        self._state = state

    def seats(self) -> int:
        """Seats at the table: 4, or 3 (rule S-01): abilities that go round the table."""
        return len(self._state.players)

    def live_left(self) -> int:
        return self._state.wall.live_left

    def front_drawn(self) -> int:
        """Tiles drawn so far from the front of the live wall (public: where the draws are)."""
        return self._state.wall.drawn

    def spare_dora(self, count: int) -> tuple[int, ...]:
        """The dora indicators a win's extra reveal would show (``Wall.spare_dora``)."""
        return self._state.wall.spare_dora(count)

    def draw_to_indicator(self, seat: int, by: str) -> None:
        """Draws go on past the live wall into the dead wall, up to the last revealed dora
        indicator; the last live tile and the last tile in play are both last tiles."""
        self._state.wall.draw_to_indicator()
        self._state.log("ability", seat, detail=f"{by}: tiles are drawn up to the last "
                        "revealed dora indicator", tag=AbilityTag.DRAWS_TO_INDICATOR, card=by)

    def round_wind(self) -> int:
        """0 in the East round, 1 in the South round, ..."""
        return self._state.round_wind

    def peek(self) -> int | None:
        """The next live tile, left in place (for the ability's own seat only)."""
        return self._state.wall.peek()

    def concealed(self, seat: int) -> tuple[int, ...]:
        return tuple(self._state.players[seat].concealed)

    def is_closed(self, seat: int) -> bool:
        return self._state.players[seat].is_closed

    def riichi_seats(self) -> tuple[int, ...]:
        """Seats in riichi now (a declaration being discarded included)."""
        return tuple([p.seat for p in self._state.players if p.riichi])

    def pond_sizes(self) -> tuple[int, ...]:
        """Tiles lying in each pond (face down included; called or taken ones left out)."""
        return tuple([len(p) for p in self._state._pond_tiles(face_down=True)])

    def choose(self, seat: int, options: list[Action]) -> Action:
        """The seat's agent picks one of these ability actions (a step the card requires)."""
        return self._state.ask(seat, options)

    def offer(self, seat: int, option: Action) -> bool:
        """An optional ability action, offered with a pass: whether the seat took it."""
        return self._state.ask(seat, [option, Action(ActionKind.PASS, seat)]) == option

    def draw(self, seat: int, count: int, by: str) -> tuple[int, ...]:
        """The seat draws ``count`` extra tiles from the live wall into its hand (fewer when the
        wall runs out); the last one becomes its drawn tile on its turn."""
        state = self._state
        p = state.players[seat]
        tiles = tuple([state.wall.draw() for _ in range(min(count, state.wall.live_left))])
        for t in tiles:
            p.concealed.append(t)
            state.log("draw", seat, t, detail=by, drawn_from=DrawSource.ABILITY)
        if tiles and p.drawn is not None:
            p.drawn = tiles[-1]
        state.log("ability", seat, detail=f"{by}: draws {len(tiles)} tiles from the wall",
                  tag=AbilityTag.WALL_DRAWN, card=by, payload=len(tiles))
        return tiles

    def _from_hand(self, seat: int, tiles: Sequence[int]) -> None:
        p = self._state.players[seat]
        for t in tiles:
            p.concealed.remove(t)
        if p.drawn is not None and p.drawn not in p.concealed:
            p.drawn = p.concealed[-1]  # the latest tile still held counts as drawn

    def put_live_end(self, seat: int, tiles: Sequence[int], by: str) -> None:
        """Tiles from the seat's hand go to the end of the live wall (face down)."""
        self._from_hand(seat, tiles)
        self._state.wall.put_live_end(list(tiles))
        self._state.log("ability", seat, detail=f"{by}: puts {len(tiles)} tiles at the end of "
                        "the live wall", tag=AbilityTag.PUT_LIVE_END, card=by, payload=len(tiles))

    def put_dead_end(self, seat: int, tiles: Sequence[int], by: str) -> None:
        """Tiles from the seat's hand go to the end of the dead wall (out of play)."""
        self._from_hand(seat, tiles)
        self._state.wall.put_dead_end(list(tiles))
        self._state.log("ability", seat, detail=f"{by}: puts {len(tiles)} tiles at the end of "
                        "the dead wall", tag=AbilityTag.PUT_DEAD_END, card=by, payload=len(tiles))

    def move_last_live_to_dead(self, seat: int, by: str) -> bool:
        """The last tile of the live wall joins the dead wall; False when the wall is empty."""
        moved = self._state.wall.move_last_live_to_dead() is not None
        if moved:
            self._state.log("ability", seat, detail=f"{by}: moves the last live-wall tile to "
                            "the dead wall", tag=AbilityTag.LIVE_TO_DEAD, card=by,
                            effect=AbilityEffect.BOOKKEEPING)
        return moved

    def dora_indicators(self) -> tuple[int, ...]:
        """The dora indicators revealed so far (public)."""
        return self._state.wall.dora_indicators

    def reveal_take(self, seat: int, count: int, by: str,
                    decide: Callable[[tuple[int, ...], Callable[[int, int], None]], int]
                    ) -> int | None:
        """The seat reveals the next ``count`` live tiles (fewer near the end; None when the
        wall is empty). ``decide(revealed, swap)`` may call ``swap(tile, indicator)``: the
        revealed tile takes the dora indicator's place and the indicator joins the revealed
        tiles, at once (the revealed tiles stay in the live wall while she chooses); it returns
        the revealed tile to take. That tile joins the hand (the
        caller's draw) and the others go, in order, to the end of the live wall."""
        state = self._state
        wall = state.wall
        n = min(count, wall.live_left)
        if not n:
            return None
        top = range(len(wall.live) - 1, len(wall.live) - 1 - n, -1)  # they stay in the wall
        state.log("ability", seat, tiles=tuple([wall.live[i] for i in top]),
                  detail=f"{by}: reveals {n} wall tiles", tag=AbilityTag.WALL_REVEALED, card=by,
                  payload=n)

        def swap(tile: int, indicator: int) -> None:
            i = wall.indicators.index(indicator)
            j = next((k for k in top if wall.live[k] == tile), None)
            if i >= wall.revealed or j is None:
                raise ValueError(f"swap of {tile} with {indicator}: not a revealed tile and "
                                 "a dora indicator")
            wall.indicators[i], wall.live[j] = tile, indicator
            state.log("ability", seat, tiles=(tile, indicator),
                      detail=f"{by}: swaps a revealed tile with a dora indicator",
                      tag=AbilityTag.SWAPPED, card=by)

        taken = decide(tuple([wall.live[i] for i in top]), swap)
        shown = [wall.draw() for _ in range(n)]
        shown.remove(taken)
        wall.put_live_end(shown)
        state.log("ability", seat, taken,
                  detail=f"{by}: takes a revealed tile, {len(shown)} to the end of the live wall",
                  tag=AbilityTag.REVEALED_TAKEN, card=by)
        return taken

    def set_aside(self, seat: int, by: str) -> int | None:
        """The seat draws a live tile and keeps it beside its hand, seen by it alone (its
        observation shows it: ``Observation.aside``); None when the wall is empty."""
        state = self._state
        if not state.wall.live_left:
            return None
        tile = state.wall.draw()
        state.aside.setdefault(seat, []).append(tile)
        state.log("draw", seat, tile, detail=f"{by}: beside the hand",
                  drawn_from=DrawSource.SET_ASIDE)
        state.log("ability", seat, detail=f"{by}: draws a tile and keeps it beside her hand",
                  tag=AbilityTag.SET_ASIDE, card=by)
        return tile

    def set_aside_face_up(self, seat: int, count: int, by: str) -> tuple[int, ...]:
        """The next ``count`` live tiles (fewer when the wall runs short) go beside the seat's
        hand face up: the public log names them. The seat may take them only through
        ``before_draw`` offers tagged ``DRAW_INSTEAD`` (no wall draw offered)."""
        state = self._state
        tiles = tuple([state.wall.draw() for _ in range(min(count, state.wall.live_left))])
        state.aside.setdefault(seat, []).extend(tiles)
        state.aside_face_up.add(seat)
        state.log("ability", seat, tiles=tiles,
                  detail=f"{by}: sets aside {len(tiles)} wall tiles face up",
                  tag=AbilityTag.SET_ASIDE_FACE_UP, card=by)
        return tiles

    def aside(self, seat: int) -> tuple[int, ...]:
        return tuple(self._state.aside.get(seat, ()))

    def exchange_aside(self, seat: int, aside: int, held: int, by: str, what: str) -> None:
        """A tile beside the seat's hand and a tile of its hand change places (a swap)."""
        state = self._state
        beside = state.aside[seat]
        beside[beside.index(aside)] = held
        p = state.players[seat]
        p.concealed.remove(held)
        p.concealed.append(aside)
        if p.drawn == held:
            p.drawn = aside
        state.log("ability", seat, detail=f"{by}: {what}", tag=AbilityTag.SWAPPED, card=by)

    def barred(self, seat: int) -> frozenset[int]:
        """Tile types the seat may not discard this turn (rule H-07's kuikae): a swap must
        leave it a tile it may discard."""
        return self._state.players[seat].kuikae

    def forbid_discard(self, seat: int, types: frozenset[int]) -> None:
        """The seat may not discard these tile types this turn (like rule H-07's kuikae)."""
        p = self._state.players[seat]
        p.kuikae = p.kuikae | types


class SwapControls(WallControls):
    """Tile exchanges: a hand tile for a tile lying face up in a pond (the tile given takes its
    place there; it is no discard, so nobody may call or ron it, but it counts for its pond's
    furiten), or for the next live-wall tile. Every tile stays in one place; each swap is
    logged as an ``ability`` event tagged ``SWAPPED`` (rule C-22 Teru counts it)."""

    def lying(self) -> tuple[tuple[int, ...], ...]:
        """Tiles lying face up in each pond (called or taken ones left out): the swappable."""
        return self._state._pond_tiles()

    def _replace_held(self, seat: int, held: int, tile: int) -> None:
        p = self._state.players[seat]
        p.concealed[p.concealed.index(held)] = tile
        if p.drawn == held:
            p.drawn = tile

    def with_pond(self, seat: int, held: int, taken: int, by: str) -> int:
        """The seat's ``held`` tile and ``taken``, lying face up in a pond, change places;
        returns the pond's seat."""
        for q in self._state.players:
            for d in q.discards:
                if d.tile == taken and not d.called and not d.face_down:
                    d.tile = held
                    self._state.pond_changes += 1  # the caches of ponds are stale
                    self._replace_held(seat, held, taken)
                    self._state.log("ability", seat, taken, (held, taken),
                                    detail=f"{by}: swaps a hand tile with P{q.seat}'s discard",
                                    tag=AbilityTag.SWAPPED, card=by, payload=q.seat)
                    return q.seat
        raise ValueError(f"tile {taken} is not lying face up in any pond")

    def melds(self, seat: int) -> tuple[Meld, ...]:
        return tuple(self._state.players[seat].melds)

    def swap_melds(self, seat: int, mine: Meld, other: int, theirs: Meld, by: str) -> None:
        """Two seats' melds change places. A closed kan given away becomes an open kan (its
        owner's hand is open with the meld received)."""
        players = self._state.players
        a, b = players[seat].melds, players[other].melds

        def opened(m: Meld, owner: int) -> Meld:
            return m if m.is_open else Meld(MeldKind.MINKAN, m.tiles, m.tiles[-1], owner)

        i, j = a.index(mine), b.index(theirs)
        a[i], b[j] = opened(theirs, other), opened(mine, seat)
        self._state.log("ability", seat, tiles=(*mine.tiles, *theirs.tiles),
                        detail=f"{by}: swaps a meld with P{other}'s",
                        tag=AbilityTag.SWAPPED, card=by, payload=other)

    def turn_face_down(self, tile: int, by: str, seat: int) -> int:
        """A tile lying face up in a pond is turned face down (rule C-13 applies to it from
        now: no furiten, nobody may take it); returns the pond's seat."""
        for q in self._state.players:
            for d in q.discards:
                if d.tile == tile and not d.called and not d.face_down:
                    d.face_down = True
                    self._state.pond_changes += 1  # the caches of ponds are stale
                    self._state.log("ability", seat, tile,
                                    detail=f"{by}: turns P{q.seat}'s discard face down",
                                    tag=AbilityTag.TURNED_FACE_DOWN, card=by, payload=q.seat)
                    return q.seat
        raise ValueError(f"tile {tile} is not lying face up in any pond")

    def face_down_counts(self) -> tuple[int, ...]:
        """Face-down tiles lying in each pond."""
        return tuple([sum(1 for d in q.discards if d.face_down and not d.called)
                     for q in self._state.players])

    def with_wall(self, seat: int, held: int, by: str) -> int:
        """The seat's ``held`` tile and the next live-wall tile change places (the wall tile
        joins the hand, ``held`` is drawn next in its place); returns the tile taken."""
        taken = self._state.wall.replace_next(held)
        self._replace_held(seat, held, taken)
        self._state.log("ability", seat, detail=f"{by}: swaps a hand tile with the next wall "
                        "tile", tag=AbilityTag.SWAPPED, card=by)
        return taken


@cython.cclass
class OwnTurnView(FrozenFields):
    """What the own-turn hook may read when adding actions."""

    __slots__ = (
        "seat", "discard_tiles", "drew", "in_riichi", "turns", "opponents_ippatsu", "after_call",
        "riichi_tiles", "scores",
    )
    seat: int
    discard_tiles: tuple[int, ...]  # the tiles the rules allow to discard now
    drew: bool  # False right after a call
    in_riichi: bool
    turns: int  # the seat's discards so far this hand
    opponents_ippatsu: tuple[int, ...]  # seats whose ippatsu is still alive
    after_call: str | None  # "chi", "pon", "minkan" right after that call
    riichi_tiles: tuple[int, ...]  # the tiles a riichi may be declared with now
    scores: tuple[int, ...]

    def __init__(self, seat: int, discard_tiles: tuple[int, ...], drew: bool, in_riichi: bool,
                 turns: int, opponents_ippatsu: tuple[int, ...], after_call: str | None = None,
                 riichi_tiles: tuple[int, ...] = (), scores: tuple[int, ...] = ()) -> None:
        self.seat = seat
        self.discard_tiles = discard_tiles
        self.drew = drew
        self.in_riichi = in_riichi
        self.turns = turns
        self.opponents_ippatsu = opponents_ippatsu
        self.after_call = after_call
        self.riichi_tiles = riichi_tiles
        self.scores = scores


@cython.cclass
class DiscardView(FrozenFields):
    """What the discard hook may read about a discard nobody claimed."""

    __slots__ = (
        "seat", "tile", "tsumogiri", "after_call", "face_down", "scores", "start_points",
        "others_closed", "first_discard", "dealer", "concealed", "previous",
    )
    seat: int
    tile: int
    tsumogiri: bool
    after_call: tuple[str, int] | None  # (meld kind, called tile) when it followed a call
    face_down: bool
    scores: tuple[int, ...]
    start_points: int
    others_closed: bool
    first_discard: bool
    dealer: int
    concealed: tuple[int, ...]  # the seat's tiles after the discard (discard_actions)
    previous: int | None  # the seat's discard before this one, if it still lies
                                        # face up in its pond (late_claims)

    def __init__(self, seat: int, tile: int, tsumogiri: bool, after_call: tuple[str, int] | None,
                 face_down: bool, scores: tuple[int, ...], start_points: int, others_closed: bool,
                 first_discard: bool, dealer: int, concealed: tuple[int, ...] = (),
                 previous: int | None = None) -> None:
        self.seat = seat
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.after_call = after_call
        self.face_down = face_down
        self.scores = scores
        self.start_points = start_points
        self.others_closed = others_closed
        self.first_discard = first_discard
        self.dealer = dealer
        self.concealed = concealed
        self.previous = previous


@cython.cclass
class ClaimView(FrozenFields):
    """What the claim filter may read: one seat's chance to call."""

    __slots__ = (
        "seat", "discarder", "tile", "concealed", "in_riichi", "last_discard", "ponds",
        "unclaimable", "kan_tile",
    )
    seat: int  # the seat that may call
    discarder: int | None  # whose discard is on offer; None: the seat's own turn
    tile: int | None  # the discarded tile (None on the seat's own turn)
    concealed: tuple[int, ...]  # the calling seat's concealed tiles
    in_riichi: bool
    last_discard: bool  # no open calls on it (rule K-03): Wall.last_discard
    ponds: tuple[tuple[int, ...], ...]  # face-up tiles lying in each pond (the discard last)
    unclaimable: bool  # an ability's discard that nobody may call or ron
    kan_tile: bool  # the tile is a kan's (robbing it: chankan), no discard

    def __init__(self, seat: int, discarder: int | None, tile: int | None,
                 concealed: tuple[int, ...], in_riichi: bool, last_discard: bool,
                 ponds: tuple[tuple[int, ...], ...], unclaimable: bool = False,
                 kan_tile: bool = False) -> None:
        self.seat = seat
        self.discarder = discarder
        self.tile = tile
        self.concealed = concealed
        self.in_riichi = in_riichi
        self.last_discard = last_discard
        self.ponds = ponds
        self.unclaimable = unclaimable
        self.kan_tile = kan_tile


@cython.cclass
class DrawView(FrozenFields):
    """A seat's draw: before it (other sources) or after it (``tile``, ``source``)."""

    __slots__ = ("seat", "live_left", "ponds", "tile", "source", "ippatsu")
    seat: int
    live_left: int
    ponds: tuple[tuple[int, ...], ...]  # face-up tiles lying in each pond
    tile: int | None
    source: str  # a DrawSource: "wall", "rinshan", "kita", "pond" or "aside" (beside the hand)
    ippatsu: bool  # the seat's ippatsu chance is still alive (before it)

    def __init__(self, seat: int, live_left: int, ponds: tuple[tuple[int, ...], ...],
                 tile: int | None = None, source: str = "wall", ippatsu: bool = False) -> None:
        self.seat = seat
        self.live_left = live_left
        self.ponds = ponds
        self.tile = tile
        self.source = source
        self.ippatsu = ippatsu


@cython.cclass
class WinTileView(FrozenFields):
    """A tile that might win for a seat whatever its hand's shape (an always-winning tile)."""

    __slots__ = (
        "seat", "tile", "tsumo", "in_riichi", "rinshan", "face_down", "last", "waits", "closed",
        "furiten_probe",
    )
    seat: int
    tile: int
    tsumo: bool  # drawn by the seat (False: another seat's discard)
    in_riichi: bool
    rinshan: bool  # a replacement draw after a kan
    face_down: bool  # a face-down discard (only such a tile may ron it)
    last: bool  # the last live tile drawn, or the last discard
    waits: frozenset[int]  # the seat's winning types without the tile (empty:
    #                                     the hand is not ready)
    closed: bool  # the seat's hand has no open meld
    # asked for furiten, not for a win: would this tile, lying in the seat's own pond, be one
    # of its winning tiles now (a tile type that is always a winning tile is furiten there)
    furiten_probe: bool

    def __init__(self, seat: int, tile: int, tsumo: bool, in_riichi: bool, rinshan: bool = False,
                 face_down: bool = False, last: bool = False, waits: frozenset[int] = frozenset(),
                 closed: bool = True, furiten_probe: bool = False) -> None:
        self.seat = seat
        self.tile = tile
        self.tsumo = tsumo
        self.in_riichi = in_riichi
        self.rinshan = rinshan
        self.face_down = face_down
        self.last = last
        self.waits = waits
        self.closed = closed
        self.furiten_probe = furiten_probe


@cython.cclass
class CallView(FrozenFields):
    """A call just made."""

    __slots__ = ("seat", "kind", "tiles", "called", "from_seat", "ponds")
    seat: int
    kind: str  # "chi", "pon", "minkan"
    tiles: tuple[int, ...]  # the meld's tiles
    called: int
    from_seat: int
    ponds: tuple[tuple[int, ...], ...]  # face-up tiles lying in each pond after the call

    def __init__(self, seat: int, kind: str, tiles: tuple[int, ...], called: int, from_seat: int,
                 ponds: tuple[tuple[int, ...], ...] = ()) -> None:
        self.seat = seat
        self.kind = kind
        self.tiles = tiles
        self.called = called
        self.from_seat = from_seat
        self.ponds = ponds


def face_down_actions(view: OwnTurnView, owner: str) -> list[Action]:
    """One face-down discard for each tile the rules allow to discard (rule C-13)."""
    return [ability_action(view.seat, owner, AbilityTag.FACE_DOWN, t) for t in view.discard_tiles]


@cython.cclass
class PickView(FrozenFields):
    """What a seat knows when it picks its character (after the deal, rule C-03)."""

    __slots__ = (
        "seat", "dealer", "scores", "round_wind", "honba", "sticks", "dora_indicators",
        "start_points", "catalog", "spent",
    )
    seat: int
    dealer: int
    scores: tuple[int, ...]
    round_wind: int
    honba: int
    sticks: int
    dora_indicators: tuple[int, ...]
    start_points: int
    catalog: object | None  # the card catalog the options come from (None: the default)
    # what the seat's match-long abilities have used up (the card layer's match memory): named
    # as effect kinds, or ``kind:when`` for one stake rule; the pick policy values them so
    spent: frozenset[str]

    def __init__(self, seat: int, dealer: int, scores: tuple[int, ...], round_wind: int = 0,
                 honba: int = 0, sticks: int = 0, dora_indicators: tuple[int, ...] = (),
                 start_points: int = 30000, catalog: object | None = None,
                 spent: frozenset[str] = frozenset()) -> None:
        self.seat = seat
        self.dealer = dealer
        self.scores = scores
        self.round_wind = round_wind
        self.honba = honba
        self.sticks = sticks
        self.dora_indicators = dora_indicators
        self.start_points = start_points
        self.catalog = catalog
        self.spent = spent

    def placement(self) -> int:
        """1 (first) to 4 (last); on equal points the seat farther from the dealer ranks lower
        (rule C-21)."""
        order = sorted(range(len(self.scores)),
                       key=lambda s: (-self.scores[s], (s - self.dealer) % len(self.scores)))
        return order.index(self.seat) + 1


class AbilityHooks:
    """One seat's ability for one hand. ``name`` labels its triggers in the event log."""

    name = "ability"
    seat = -1

    def listens(self, hook: str) -> bool:
        """Whether ``hook`` may do anything for this ability this hand: the engine asks only
        the abilities that listen (and builds no view when none does). By default, whether the
        hook is overridden; an ability that overrides every hook and acts on few says which."""
        return hook in self.__dict__ or \
            getattr(type(self), hook, None) is not getattr(AbilityHooks, hook, None)

    def hand_start(self, table: TableControls) -> None:
        """After the deal, before the dealer's first discard (picks are revealed together)."""

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Extra legal actions on the seat's own turn, as tagged ``ABILITY`` actions
        (:func:`~pipeline.rules.actions.ability_action`; the engine carries out ``FACE_DOWN``,
        and ``RIICHI``: a riichi declared on the action's tile in a way the ability then acts
        on, its payload saying how)."""
        return []

    def extra_turn(self, view: DiscardView) -> bool:
        """Whether this discard earns the seat an extra turn (offered, optional: C-14..C-17)."""
        return False

    def action_taken(self, action: Action) -> None:
        """One of this ability's own actions was chosen (to count uses, for example)."""

    def while_switched_off(self) -> AbilityHooks | None:
        """What of this ability still applies while another ability switches it off (rule
        C-20): a restriction that is the price of the ability, by the card's reading; None
        (the default) when nothing does."""
        return None

    def offer_declined(self, action: Action) -> None:
        """One of this ability's optional offers (an extra turn) was declined: the player
        chose the plain alternative instead."""

    def scoring(self, win: WinView) -> ScoringModifiers | None:
        """Modifiers this ability applies to a win (its own or another seat's), or None."""
        return None

    def forced_face_down(self, view: OwnTurnView) -> bool:
        """Whether the seat's plain discard this turn must go face down (a forced effect; rule
        C-13 applies to the tile). A riichi declaration tile is shown as usual."""
        return False

    def turn_choices(self, view: OwnTurnView) -> list[Action]:
        """A choice the seat must make before acting on its turn (tagged ``ABILITY`` actions;
        one is chosen, no pass): a family named, for example.
        The chosen action reaches ``action_taken``; the turn then goes on as usual."""
        return []

    def riichi_allowed(self) -> bool:
        """Whether the seat may declare riichi at all this hand."""
        return True

    def ignores_furiten(self, in_riichi: bool) -> bool:
        """Whether the seat may ron in furiten (rule H-09 does not apply to it)."""
        return False

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        """After any riichi is accepted (its stick paid): stakes, extra dora indicators."""

    def payments(self, settlement: Settlement) -> None:
        """Adjust the payments of a win (any seat's): doubling, extra transfers, exemption."""

    def draw_payments(self, settlement: Settlement) -> None:
        """Adjust the payments of a draw (``settlement.view.kind``: "exhaustive" or the abortive
        draw's name): noten payments doubled, ignored, rerouted, the table taken."""

    def hand_end(self, view: HandEndView, table: TableControls) -> None:
        """After every payment of the hand: stakes, match-long state."""

    def match_end(self, result: object) -> None:
        """After the last hand of the match (``result`` is the match's result)."""

    # -- shapes, claims and draws (engine: pipeline/rules/hand.py)

    def hand_shapes(self) -> HandShapes | None:
        """Extra sequences the seat may build this hand (asked once, at the deal)."""
        return None

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        """The calls ``view.seat`` may make, given those allowed so far; every ability in play
        is asked in turn, for every seat. Drop actions to block them; add ``PON``/``CHI`` actions
        tagged ``PRIORITY`` for a call that beats every other claim, ron
        included (its tile may be any tile lying in the discarder's pond). On the seat's own
        turn (``view.discarder`` is None) the actions are its kan declarations."""
        return actions

    def win_allowed(self, win: WinView) -> bool:
        """Whether this complete hand, which scores, may win (any seat's; False blocks it)."""
        return True

    def win_is_chombo(self, win: WinView) -> bool:
        """Whether this win, just declared (any seat's), is a chombo instead: a win the rules
        let the seat declare but its ability forbids. The engine then ends the hand with the
        chombo penalty (rule C-20). Mark such a win where it is offered (the ``claim_filter``
        of a ron: tag ``CHOMBO``) so that a player can tell it apart."""
        return False

    def always_wins(self, view: WinTileView) -> bool:
        """Whether this tile wins for the ability's own seat whatever the hand's shape (it may
        ron it even face down; the win is valued by :mod:`pipeline.rules.shapeless` when the
        hand is not complete). ``view.waits`` tells whether the hand is ready without the tile,
        so a reading that needs a ready hand says no otherwise. Asked with
        ``view.furiten_probe`` for each tile type in the seat's own pond: a yes makes the seat
        furiten (a tile type that is always a winning tile, lying in its pond)."""
        return False

    def before_draw(self, view: DrawView) -> list[Action]:
        """Other sources for the seat's next live draw: ``ABILITY`` actions tagged ``DRAW``
        whose tile lies in a pond (it leaves the pond for the hand) or
        beside the seat's hand (:meth:`WallControls.set_aside`). They are offered with a pass,
        which draws from the wall; offers tagged ``DRAW_INSTEAD`` (tiles set
        aside face up) are offered alone: the seat must take one. Asked before a rinshan draw
        too (``view.source`` is "rinshan"): then only a tile beside the hand may replace it."""
        return []

    def kans_closed(self) -> bool:
        """Whether the ability's own seat's open and added kans become closed kans once made
        (an added kan may still be robbed before); in riichi the seat may then declare a kan on
        a discard that leaves its wait unchanged."""
        return False

    def replace_draw(self, view: DrawView, wall: WallControls) -> int | None:
        """Asked before the ability's own seat draws (``view.source`` "wall" or "rinshan"): the
        ability may draw in another way through ``wall`` (:meth:`WallControls.reveal_take`)
        and return the tile now in the hand, or return None for the ordinary draw."""
        return None

    def after_draw(self, view: DrawView) -> None:
        """After any seat's draw (``view.tile`` and ``view.source`` are set)."""

    def claim_made(self, view: CallView) -> None:
        """After any call (chi, pon, open kan) by any seat, before the caller discards."""

    def late_claims(self, view: DiscardView) -> list[Action]:
        """After ``view.seat``'s discard that nobody claimed: ``RON`` actions for the ability's
        own seat on an earlier tile of that seat's pond (tagged ``LATE``). The engine
        keeps those the rules allow (waits, furiten, a yaku, the claim filters) and offers them
        with a pass."""
        return []

    def riichi_choices(self, view: OwnTurnView) -> list[Action]:
        """A choice the seat must make as it declares riichi (tagged ``ABILITY`` actions; one
        is chosen, no pass); the chosen one reaches
        ``action_taken`` before the declaration tile is offered to the others."""
        return []

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        """The seats whose abilities this ability switches off now, with the moment it began
        (an index into the hand's log: the earlier switch wins when two abilities switch each
        other off), or None. Asked after the deal, each riichi and each choice made."""
        return None

    def discard_made(self, view: DiscardView, table: TableControls) -> None:
        """After any seat's discard, before anyone may claim it (``view.face_down`` says
        whether it lies face down): wall changes that follow a discard."""

    def discard_passed(self, view: DiscardView, table: TableControls) -> None:
        """After ``view.seat``'s discard that nobody claimed or ronned, late rons included (it
        still lies last in the pond): a swap with it, for example."""

    def discard_actions(self, view: DiscardView) -> list[Action]:
        """Optional follow-ups of the seat's own discard that nobody claimed, offered with a
        pass. The engine knows the tag ``REPEAT``: the action's tile is discarded at once and
        nobody may call or ron it (it still gives furiten), then the seat draws a replacement
        tile from the wall and its turn ends."""
        return []


def listens(ability: object, hook: str) -> bool:
    """Whether the engine must ask this ability's ``hook`` (an object without ``listens``, not
    built on :class:`AbilityHooks`, is asked every hook)."""
    ask = getattr(ability, "listens", None)
    return True if ask is None else bool(ask(hook))


def merge_modifiers(parts: Iterable[ScoringModifiers]) -> ScoringModifiers:
    """All abilities' modifiers for one win as one: values replaced (the higher wins), extra han
    and local yaku added, dora and value multipliers multiplied, allowed yaku intersected; "no
    ura-dora" beats "ura-dora without riichi", extra ura indicators and limit steps add up."""
    parts = [p for p in parts if p is not None and p != NO_MODIFIERS]
    if not parts:
        return NO_MODIFIERS
    if len(parts) == 1:
        return parts[0]
    values: dict[str, int] = {}
    extra: list[tuple[str, int]] = []
    local = []
    dora = 1
    multiplier = 1
    allowed: frozenset[str] | None = None
    ura: bool | None = None
    extra_ura = steps = 0
    as_dealer = False
    for p in parts:
        for name, han in p.yaku_values.items():
            values[name] = max(han, values.get(name, han))
        extra.extend(p.extra_han)
        local.extend(p.local_yaku)
        dora *= p.dora_multiplier
        multiplier *= p.value_multiplier
        if p.allowed_yaku is not None:
            allowed = p.allowed_yaku if allowed is None else allowed & p.allowed_yaku
        if p.ura_dora is not None:  # "no ura-dora" beats "ura-dora without riichi"
            ura = p.ura_dora if ura is None else ura and p.ura_dora
        extra_ura += p.extra_ura_indicators
        steps += p.limit_steps
        as_dealer = as_dealer or p.as_dealer
    shaped = {"extra_sequences": frozenset().union(*(p.extra_sequences for p in parts)),
              "win_without_yaku": any(p.win_without_yaku for p in parts),
              "extra_han_with": tuple([x for p in parts for x in p.extra_han_with]),
              "alias": tuple(dict.fromkeys(x for p in parts for x in p.alias)),
              "one_han_yaku": max([p.one_han_yaku for p in parts])}
    return ScoringModifiers(yaku_values=values, extra_han=tuple(extra), dora_multiplier=dora,
                            local_yaku=tuple(local), allowed_yaku=allowed,
                            value_multiplier=multiplier, ura_dora=ura,
                            extra_ura_indicators=extra_ura, as_dealer=as_dealer,
                            limit_steps=steps, **shaped)


def scoring_modifiers(abilities: Sequence[AbilityHooks], win: WinView) -> ScoringModifiers:
    """The combined scoring modifiers of every ability in play for this win."""
    if not abilities:
        return NO_MODIFIERS
    return merge_modifiers(a.scoring(win) for a in abilities)
