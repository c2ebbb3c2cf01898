"""The hand loop's side of the shape, claim and draw hook points.

:class:`HookPoints` is mixed into :class:`pipeline.rules.hand.HandState`; it asks the abilities
in play (``hand_shapes``, ``claim_filter``, ``win_allowed``, ``before_draw``, ``after_draw``,
``claim_made``, ``discard_actions``) and carries out what they answer, so the loop itself only
calls these methods at the right moments. Nothing here names a character.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

from typing import TYPE_CHECKING

from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind
from pipeline.rules.agari import winning_types
from pipeline.rules.hand_shapes import (
    NO_SHAPES,
    STANDARD_SEQUENCES,
    chi_partners,
    shaped_winning_types,
)
from pipeline.rules.hooks import (
    CallView,
    ClaimView,
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WallControls,
    WinView,
    listens,
)
from pipeline.rules.records import DrawSource
from pipeline.rules.scoring import WinContext

# the sources of a turn's draw, looked up once (each draw of every hand returns one)
_WALL, _RINSHAN = DrawSource.WALL, DrawSource.RINSHAN

if TYPE_CHECKING:
    from pipeline.rules.hand import HandState, PlayerState
    from pipeline.rules.hooks import AbilityHooks
    from pipeline.rules.records import Event, HandRecord

_DRAWS = (AbilityTag.DRAW, AbilityTag.DRAW_INSTEAD)  # offers that replace a live draw
KAN_KINDS = (ActionKind.ANKAN, ActionKind.KAKAN)


@cython.cclass
class HookPoints:
    """Shape, claim and draw hooks for :class:`HandState` (see the module docstring).

    Compiled, this first layer of the hand's chain is an extension type that holds the fields
    of the hand's state (set by ``HandState.__init__``), so that the hook calls and every later
    layer read them straight from the object; the containers every step reads are typed, their
    items read with the list's, dict's and set's own calls. What the hook calls keep by name in
    the instance dict (``every_ability``, ``_switchers``, ``_base_shapes``, ``_switched_off``:
    read with ``__dict__.get``) stays there, with anything else set on the state."""

    __slots__ = (
        "__dict__", "_last_valued", "_listeners", "_others_of", "_lying", "_lying_ponds",
        "_pond_views", "_revealed_by", "_ura_done", "agents", "current_claim_from", "dealer",
        "discard_count", "hand_number", "honba", "kan_count", "kita_draw", "last_kan_from",
        "late_claim", "n", "pending_dora", "pond_changes", "pond_lists", "preset", "record",
        "round_wind", "rules", "sanma", "stakes", "start", "sticks", "uninterrupted", "wall",
        "abilities", "events", "players", "scores", "aside", "shown_ids", "shown_types",
        "aside_face_up", "revealed",
    )
    _lying: list[tuple]
    _lying_ponds: list[list[tuple]]
    _pond_views: list[list[tuple]]
    abilities: list[AbilityHooks]
    events: list[Event]
    players: list[PlayerState]
    scores: list[int]
    aside: dict[int, list[int]]
    shown_ids: dict[int, set[int]]
    shown_types: dict[int, frozenset[int]]
    aside_face_up: set[int]
    revealed: set[int]

    @cython.ccall
    def _listening(self: HandState, hook: str) -> list[AbilityHooks]:
        """The abilities in play that listen to ``hook`` (``listens``), in play order: the
        others would do nothing, so they are not asked and no view is built for them. Kept
        while the abilities in play stay the same list (``_refresh_active`` makes a new one).
        Read with ``in`` and ``[]``, not ``dict.get``: compiled, a method call costs more than
        the look-up (hot path: several hooks at every draw and discard)."""
        memo = self._listeners
        if memo is None or memo[0] is not self.abilities:
            memo = self._listeners = (self.abilities, {}, {})  # by hook, by hook and seat
        by_hook = memo[1]
        if hook in by_hook:
            return by_hook[hook]
        found = by_hook[hook] = [a for a in self.abilities if listens(a, hook)]
        return found

    @cython.ccall
    def _own_listeners(self: HandState, hook: str, seat: int) -> list[AbilityHooks]:
        """The seat's abilities in play that listen to ``hook``, in play order (its view is
        built only when there is one); kept with :meth:`_listening`'s lists (not to be
        changed by the caller)."""
        memo = self._listeners
        if memo is not None and memo[0] is self.abilities:  # kept: two look-ups (hot path)
            by_seat = memo[2]
            if hook in by_seat:
                return by_seat[hook][seat]
        listening = self._listening(hook)
        by_seat = self._listeners[2]
        seats = by_seat[hook] = tuple([[a for a in listening if a.seat == s]
                                       for s in range(self.n)])
        return seats[seat]

    # ------------------------------------------------------------------ shapes

    def _init_shapes(self: HandState) -> None:
        """Each seat's extra sequences, from its abilities (``hand_shapes``), at the deal."""
        for ability in self.abilities:
            shapes = ability.hand_shapes()
            if shapes:
                p = self.players[ability.seat]
                p.shapes = shapes.merged(p.shapes)

    @staticmethod
    def _chi_forbidden(p: PlayerState, t: int, a: int, b: int) -> frozenset[int]:
        seqs = {tuple(sorted(s)) for s in (*STANDARD_SEQUENCES, *p.shapes.extra_sequences)}
        return frozenset({t} | {z for z in range(34) if tuple(sorted((a, b, z))) in seqs})

    def _chi_kuikae(self: HandState, p: PlayerState, tile: int, used: tuple[int, ...]
                    ) -> frozenset[int]:
        """Rule H-07 after a chi by a seat with extra sequences: the called type, and any type
        that makes a sequence (standard or extra) with the two tiles shown."""
        return self._chi_forbidden(p, tile // 4, used[0] // 4, used[1] // 4)

    def _shaped_chi(self: HandState, p: PlayerState, tile: int) -> list[Action]:
        """Chi that only the seat's extra sequences allow (rule H-07's kuikae applied to them:
        the called type, and any type that makes a sequence with the two tiles shown)."""
        t = tile // 4
        held = p.held()
        acts: list[Action] = []
        for a, b in chi_partners(t, p.shapes):
            if not (held[a] and held[b]):
                continue
            forbidden = self._chi_forbidden(p, t, a, b)
            for x in sorted({x for x in p.concealed if x // 4 == a}):
                for y in sorted({y for y in p.concealed if y // 4 == b}):
                    if self._leaves_discard(p, (x, y), forbidden):
                        acts.append(Action(ActionKind.CHI, p.seat, tile, (x, y)))
        return acts

    # ------------------------------------------------------------------ claims

    @cython.ccall
    def _pond_tiles(self: HandState, face_down: bool = False) -> tuple[tuple[int, ...], ...]:
        """Tiles lying in each pond (called or taken tiles left out; face-down ones on request).
        Kept until a pond grows or changes (``pond_changes``); then only that pond is read.
        The kept answers sit in lists set up with the hand, read by index (hot path: every
        claim, draw and discard hook builds its view with them)."""
        sizes = 0
        for discards in self.pond_lists:  # ponds only grow: their total says if one did
            sizes += len(discards)
        changes = self.pond_changes
        kept = self._lying[face_down]
        if kept[0] == sizes and kept[1] == changes:
            return kept[2]
        ponds = self._lying_ponds[face_down]
        lying = []
        seat = 0
        for discards in self.pond_lists:  # each seat's, in seat order
            size = len(discards)
            pond = ponds[seat]
            if pond[0] != size or pond[1] != changes:
                if pond[1] == changes and pond[0] < size:  # grown only
                    start, tiles = pond[0], pond[2]
                else:
                    start, tiles = 0, ()
                pond = ponds[seat] = (size, changes, tiles + tuple([
                    d.tile for d in discards[start:]
                    if not d.called and (face_down or not d.face_down)]))
            lying.append(pond[2])
            seat += 1
        found = tuple(lying)
        self._lying[face_down] = (sizes, changes, found)
        return found

    @cython.ccall
    def _filter_claims(self: HandState, seat: int, discarder: int | None, tile: int | None,
                       legal: list[Action], unclaimable: bool = False,
                       kan_tile: bool = False) -> list[Action]:
        """The calls left to ``seat`` after every ability's ``claim_filter``."""
        listening = self._listening("claim_filter")
        if not listening:
            return legal
        p = self.players[seat]
        view = ClaimView(seat, discarder, tile, tuple(p.concealed), in_riichi=p.riichi,
                         last_discard=self.wall.last_discard, ponds=self._pond_tiles(),
                         unclaimable=unclaimable, kan_tile=kan_tile)
        for ability in listening:
            legal = ability.claim_filter(view, legal)
        return legal

    @cython.ccall
    def _filter_own_kans(self: HandState, seat: int, acts: list[Action]) -> list[Action]:
        """The seat's own kan declarations through the claim filters; other actions unchanged."""
        if not self._listening("claim_filter"):  # nothing filters: no kan is dropped
            return acts
        kans = [a for a in acts if a.kind in KAN_KINDS]
        if not kans:
            return acts
        kept = self._filter_claims(seat, None, None, kans)
        return [a for a in acts if a.kind not in KAN_KINDS or a in kept]

    @cython.ccall
    def _kans_closed(self: HandState, seat: int) -> bool:
        """Whether the seat's open and added kans become closed kans (``kans_closed``)."""
        for a in self.abilities:  # a loop: no generator (compiled)
            if a.seat == seat and a.kans_closed():
                return True
        return False

    def _riichi_kan(self: HandState, p: PlayerState, t: int) -> bool:
        """Whether the seat in riichi may declare a kan on a discard of type ``t``: only when
        its kans become closed kans, and (like a concealed kan in riichi, K-09) only when its
        wait does not change."""
        held = p.held()
        if held[t] != 3 or self.preset.kan_after_riichi == "none" or p.kans >= 4 \
                or not self._kan_room() or not self._kans_closed(p.seat):
            return False
        after = list(held)
        after[t] = 0
        waits = p.waits()
        if p.shapes:
            return bool(waits) and waits == shaped_winning_types(after, p.shapes)
        return bool(waits) and waits == winning_types(after)

    @staticmethod
    def _priority_claims(claims: dict[int, Action], order: tuple[int, ...]) -> list[int]:
        """Seats whose chosen call has priority, in turn order from the discarder."""
        return [s for s in order if s in claims and claims[s].tag is AbilityTag.PRIORITY]

    def _take_from_pond(self: HandState, tile: int) -> int:
        """Mark a tile as gone from its pond (called or taken); returns the pond's seat."""
        for q in self.players:
            for d in reversed(q.discards):
                if d.tile == tile and not d.called:
                    d.called = True
                    self.pond_changes += 1
                    return q.seat
        raise ValueError(f"tile {tile} is not lying in any pond")

    def _claim_made(self: HandState, seat: int, meld: Meld, from_seat: int) -> None:
        listening = self._listening("claim_made")
        if not listening:
            return
        view = CallView(seat=seat, kind=meld.kind.value, tiles=meld.tiles, called=meld.called,
                        from_seat=from_seat, ponds=self._pond_tiles())
        for ability in listening:
            ability.claim_made(view)

    # ------------------------------------------------------------------ wins

    def _win_allowed(self: HandState, seat: int, ctx: WinContext,
                     discarder: int | None, yakuman: int = 0) -> bool:
        """Whether every ability lets this complete, scoring hand win (a dead hand never
        does)."""
        if not self.abilities:
            return True
        if self._dead_hand(seat):
            return False
        listening = self._listening("win_allowed")
        if not listening:
            return True
        declared = {q.seat: d.order for q in self.players if q.riichi_accepted
                    for d in q.discards if d.riichi}
        riichi = tuple(sorted(declared, key=declared.get))
        view = WinView(seat, ctx, discarder, tuple(self.scores), self.dealer, riichi,
                       table_points=1000 * self.sticks, stakes=self.stakes,
                       melds=tuple([tuple(q.melds) for q in self.players]),
                       ponds=self._pond_tiles(True), yakuman=yakuman)
        return all(a.win_allowed(view) for a in listening)

    def _dead_hand(self: HandState, seat: int) -> bool:
        """Rule C-20: a hand holding a sequence its seat may not build (only a card gives it
        one: another character's meld swapped to it, or the ability that allowed the meld
        switched off) cannot win and is noten at a draw, until a swap or the ability regained
        makes it legal again."""
        p = self.players[seat]
        chis = [m for m in p.melds if m.kind == MeldKind.CHI]
        if not chis:
            return False
        allowed = {tuple(sorted(g)) for g in (*STANDARD_SEQUENCES, *p.shapes.extra_sequences)}
        return any(tuple(sorted(x // 4 for x in m.tiles)) not in allowed for m in chis)

    def _chombo_winner(self: HandState, winners: list[int], discarder: int | None,
                       tile: int, *, tsumo: bool = False, chankan: bool = False) -> int | None:
        """The first of the declaring seats whose win an ability rules a chombo
        (``win_is_chombo``), if any."""
        listening = self._listening("win_is_chombo") if self.abilities else []
        if not listening:
            return None
        for seat in winners:
            ctx = self.win_context(seat, tile, tsumo=tsumo, chankan=chankan)
            view = self._win_view(seat, ctx, discarder)
            if any(a.win_is_chombo(view) for a in listening):
                return seat
        return None

    # ------------------------------------------------------------------ draws

    @cython.ccall
    def _live_draw(self: HandState, seat: int) -> tuple[int, DrawSource]:
        """The seat's live draw: from the wall, or from a source an ability offers
        (``before_draw``); returns the tile and its source."""
        if self.abilities:
            offered = self._offered_draw(seat, _WALL)
            if offered is not None:
                return offered
            replaced = self._replaced_draw(seat, _WALL)
            if replaced is not None:
                return replaced, _WALL
        return self.wall.draw(), _WALL

    def _rinshan_draw(self: HandState, seat: int) -> tuple[int, DrawSource]:
        """The seat's replacement draw after a kan: the rinshan tile, or a tile beside its
        hand that an ability offers instead (``before_draw`` with source "rinshan"; the rinshan
        tile then stays, and so does the live wall: rule K-07 moves a tile only with a draw)."""
        if self.abilities:
            offered = self._offered_draw(seat, _RINSHAN)
            if offered is not None:
                return offered
            replaced = self._replaced_draw(seat, _RINSHAN)
            if replaced is not None:  # the rinshan tile stays, as above
                return replaced, _RINSHAN
        return self.wall.draw_rinshan(), _RINSHAN

    @cython.ccall
    def _replaced_draw(self: HandState, seat: int, source: str) -> int | None:
        """A draw the seat's ability makes in its own way (``replace_draw``), if any."""
        own = self._own_listeners("replace_draw", seat)  # kept per seat (hot path: each draw)
        if not own:
            return None
        view = DrawView(seat, self.wall.live_left, self._pond_tiles(), source=source,
                        ippatsu=self.players[seat].ippatsu)
        for ability in own:
            tile = ability.replace_draw(view, WallControls(self))
            if tile is not None:
                return tile
        return None

    @cython.ccall
    def _offered_draw(self: HandState, seat: int, source: str) -> tuple[int, DrawSource] | None:
        """A draw from a source the seat's abilities offer (a pond tile, or on a rinshan draw
        only a tile beside the hand), if the seat takes one."""
        own = self._own_listeners("before_draw", seat)  # kept per seat (hot path: each draw)
        if not own:
            return None
        view = DrawView(seat, self.wall.live_left, self._pond_tiles(), None, source)
        beside = self.aside.get(seat, [])
        offers = [a for ability in own for a in ability.before_draw(view)
                  if source == "wall" or a.tile in beside]
        if not offers:
            return None
        # draw-instead offers replace the wall draw (no pass); their tiles lie face up
        forced = not [a for a in offers if a.tag is not AbilityTag.DRAW_INSTEAD]
        choice = self.ask(seat, offers if forced else [*offers, Action(ActionKind.PASS, seat)])
        if choice.kind != ActionKind.ABILITY or choice.tag not in _DRAWS:
            return None
        owner = self._owner(seat, choice)
        owner.action_taken(choice)
        if forced and choice.tile in beside:  # a face-up tile: the log names it
            beside.remove(choice.tile)
            self.log("ability", seat, choice.tile, detail=f"{owner.name}: draws a face-up tile "
                     "beside her hand", tag=AbilityTag.DRAW, card=owner.name)
            return choice.tile, DrawSource.ASIDE
        if choice.tile in beside:  # private: the log names no tile
            beside.remove(choice.tile)
            self.log("ability", seat, detail=f"{owner.name}: draws the tile beside her hand",
                     tag=AbilityTag.DRAW, card=owner.name)
            return choice.tile, DrawSource.ASIDE
        pond = self._take_from_pond(choice.tile)
        self.log("ability", seat, choice.tile, detail=f"{owner.name}: draws from P{pond}'s pond",
                 tag=AbilityTag.FROM_POND, card=owner.name, payload=pond)
        return choice.tile, DrawSource.POND

    @cython.ccall
    def _after_draw(self: HandState, seat: int, tile: int, source: str) -> None:
        listening = self._listening("after_draw")
        if not listening:
            return
        view = DrawView(seat, self.wall.live_left, self._pond_tiles(), tile, source)
        for ability in listening:
            ability.after_draw(view)

    # ------------------------------------------------------------------ discards

    @cython.ccall
    def _discard_made(self: HandState, seat: int, tile: int, tsumogiri: bool,
                      after_call: tuple[str, int] | None, face_down: bool) -> None:
        """Every ability's ``discard_made`` hook, before the claims on the discard."""
        listening = self._listening("discard_made")
        if not listening:
            return
        view = self._discard_view(seat, tile, tsumogiri, after_call, face_down)
        controls = TableControls(self)
        for ability in listening:
            ability.discard_made(view, controls)

    @cython.ccall
    def _discard_passed(self: HandState, seat: int, tile: int) -> None:
        """Every ability's ``discard_passed`` hook, once nobody claimed or ronned the discard."""
        listening = self._listening("discard_passed")
        if not listening:
            return
        last = self.players[seat].discards[-1]
        view = self._discard_view(seat, tile, last.tsumogiri, None, last.face_down)
        controls = TableControls(self)
        for ability in listening:
            ability.discard_passed(view, controls)

    def _repeat_offer(self: HandState, seat: int, view: DiscardView) -> Action | None:
        """A repeated discard the seat's ability offers after its unclaimed discard, if chosen."""
        offers = [a for ability in self._own_listeners("discard_actions", seat)
                  for a in ability.discard_actions(view)]
        if not offers:
            return None
        choice = self.ask(seat, [*offers, Action(ActionKind.PASS, seat)])
        if choice.kind != ActionKind.ABILITY or choice.tag is not AbilityTag.REPEAT:
            return None
        owner = self._owner(seat, choice)
        owner.action_taken(choice)
        self.log("ability", seat, choice.tile, detail=f"{owner.name}: repeated discard",
                 tag=AbilityTag.REPEAT, card=owner.name)
        return choice

    def _replacement_draw(self: HandState, seat: int) -> None:
        """After a repeated discard the seat draws a tile from the wall to keep its hand size;
        its turn then ends (no tsumo: the hand holds 3k+1 tiles)."""
        if not self.wall.live_left:
            return
        p = self.players[seat]
        tile = self.wall.draw()
        p.concealed.append(tile)
        self.log("draw", seat, tile, detail="replacement", drawn_from=DrawSource.REPLACEMENT)
        self._after_draw(seat, tile, DrawSource.WALL)

    @cython.ccall
    def _others_closed(self: HandState, seat: int) -> bool:
        """Whether every other seat's hand is closed (a loop: no generator, compiled)."""
        for q in self.players:
            if q.seat != seat and not q.is_closed:
                return False
        return True

    @cython.ccall
    def _discard_view(self: HandState, seat: int, tile: int, tsumogiri: bool,
                      after_call: tuple[str, int] | None, face_down: bool,
                      previous: int | None = None) -> DiscardView:
        p = self.players[seat]
        # made at every discard: by position (keywords cost a third of a microsecond more
        # each, compiled), every argument a name of the field it fills
        scores, start_points, dealer = tuple(self.scores), self.preset.start_points, self.dealer
        others_closed, first_discard, concealed = (self._others_closed(seat), p.turns == 1,
                                                   tuple(p.concealed))
        return DiscardView(seat, tile, tsumogiri, after_call, face_down, scores, start_points,
                           others_closed, first_discard, dealer, concealed, previous)

    # ------------------------------------------------------------------ late claims

    def _late_ron(self: HandState, discarder: int, tile: int) -> HandRecord | None:
        """After a discard nobody claimed: the rons abilities offer on an earlier tile of the
        discarder's pond (``late_claims``), checked like any ron (waits, furiten, a yaku, the
        claim filters) and asked in turn order from the discarder; the first taken wins. A seat
        that declines lets its winning tile go by (furiten, rule H-09)."""
        listening = self._listening("late_claims")
        if not listening:
            return None
        p = self.players[discarder]
        last = p.discards[-1]
        prev = p.discards[-2] if len(p.discards) > 1 else None
        previous = prev.tile if prev and not prev.called and not prev.face_down else None
        view = self._discard_view(discarder, tile, last.tsumogiri, None, last.face_down,
                                  previous)
        lying: set[int] | None = None  # the pond's tiles, gathered once an offer needs them
        for s in self._others(discarder):
            offers = [a for ability in listening if ability.seat == s
                      for a in ability.late_claims(view)
                      if a.kind == ActionKind.RON and a.seat == s]
            if not offers:
                continue
            if lying is None:
                lying = set(self._pond_tiles()[discarder])
            offers = [a for a in offers if a.tile in lying]
            if not offers:
                continue
            self.late_claim = True  # no houtei: the tile is not the last discard
            legal = [a for a in offers if self._can_ron(s, a.tile)]
            legal = [a for a in legal if a in self._filter_claims(s, discarder, a.tile, [a])]
            if legal:
                choice = self.ask(s, [*legal, Action(ActionKind.PASS, s)])
                if choice.kind == ActionKind.RON:
                    owner = self._owner(s, choice)
                    self.log("ability", s, choice.tile, detail=f"{owner.name}: ron on "
                             f"P{discarder}'s previous discard",
                             tag=AbilityTag.LATE, card=owner.name, payload=discarder)
                    return self._finish_ron([s], discarder, choice.tile)
                for a in legal:
                    self._missed(s, a.tile)
            self.late_claim = False
        return None

    # ------------------------------------------------------------------ abilities switched off

    def _riichi_choices(self: HandState, seat: int) -> None:
        """Choices the seat's abilities require as it declares riichi (``riichi_choices``)."""
        p = self.players[seat]
        view = OwnTurnView(seat=seat, discard_tiles=(), drew=p.drawn is not None,
                           in_riichi=True, turns=p.turns, opponents_ippatsu=(),
                           scores=tuple(self.scores))
        for ability in list(self.abilities):
            offers = ability.riichi_choices(view) if ability.seat == seat else []
            if offers:
                choice = self.ask(seat, offers)
                ability.action_taken(choice)
                self.log("ability", seat, detail=f"{ability.name}: "
                         f"{choice.detail.split(':', 1)[1].replace(':', ' ')}",
                         tag=choice.tag, card=ability.name, payload=choice.payload)
        self._refresh_active()

    def _refresh_active(self: HandState) -> None:
        """Which seats' abilities work now (``switched_off``, rule C-20). Switches apply in the
        order they began; a switcher whose own ability is off by an earlier switch does
        nothing. A switched-off ability is left out of ``self.abilities`` (no hook asks it)
        and its seat's extra sequences no longer count; both come back when it is switched on.
        Each change is logged."""
        kept = vars(self)  # what this method keeps in the instance dict (not declared)
        every = kept.get("every_ability")
        if every is None:  # the first call (the deal): remember the hand's abilities
            every = kept["every_ability"] = list(self.abilities)
            kept["_switchers"] = [a for a in every if listens(a, "switched_off")]
        if not kept["_switchers"]:  # nobody can switch an ability off this hand
            return
        base = kept.get("_base_shapes")
        if base is None:
            base = kept["_base_shapes"] = [q.shapes for q in self.players]
        found = []
        for a in kept["_switchers"]:
            got = a.switched_off()
            if got is not None:
                found.append((got[0], a.seat, a.name, got[1]))
        off: dict[int, tuple[int, str]] = {}  # seat switched off -> (switcher's seat, name)
        for _, seat, name, seats in sorted(found, key=lambda f: (f[0], f[1])):
            if seat not in off:
                off.update({s: (seat, name) for s in sorted(seats)
                            if s != seat and s not in off})
        before: dict[int, tuple[int, str]] = kept.get("_switched_off", {})
        if off.keys() == before.keys():
            return
        for s in sorted(off.keys() - before.keys()):  # logged as the switcher's doing
            self.log("ability", off[s][0], detail=f"{off[s][1]}: P{s}'s ability switched off",
                     tag=AbilityTag.SWITCHED_OFF, card=off[s][1], payload=s)
        for s in sorted(before.keys() - off.keys()):
            self.log("ability", before[s][0],
                     detail=f"{before[s][1]}: P{s}'s ability works again",
                     tag=AbilityTag.SWITCHED_ON, card=before[s][1], payload=s)
        self._switched_off = off
        self.abilities = [a if a.seat not in off else a.while_switched_off() for a in every]
        self.abilities = [a for a in self.abilities if a is not None]
        for q in self.players:
            q.shapes = NO_SHAPES if q.seat in off else base[q.seat]
            q.forget()  # the waits change with the shapes
