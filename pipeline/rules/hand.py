"""One deal, from the wall to the payments: the engine's core loop.

The loop asks each seat's agent for a decision, offering only legal actions (candidates first,
then the rule filters: furiten, kuikae, riichi lock, last-tile limits). Claims on a discard are
collected from every seat and resolved together (rule H-05). Nothing here knows about cards.

:class:`HandState` is built in layers, one module for each job, each class extending the one
before it: the hook calls (:mod:`~pipeline.rules.hook_points`), the log, ponds and win
contexts (:mod:`~pipeline.rules.hand_table`), valuing and paying wins and draws
(:mod:`~pipeline.rules.hand_end`), the table controls' backend
(:mod:`~pipeline.rules.hand_controls`), own-turn actions (:mod:`~pipeline.rules.legal_actions`),
claims and calls (:mod:`~pipeline.rules.claims`), and here the turns themselves. A single chain
rather than mixins: compiled, each layer is an extension type (the first, which holds the
fields of the hand's state in its ``__slots__``, by ``@cython.cclass``; each later one by the
``.pxd`` beside it, which holds its hot methods and never a field), and a hot method of an
earlier layer is called straight from C by the later ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.agents import Observation
from pipeline.rules.hooks import (
    AbilityHooks,
    DiscardView,
    OwnTurnView,
    TableControls,
)
from pipeline.rules.preset import Preset
from pipeline.rules.records import (
    DrawSource,
    Event,
    HandRecord,
    HandStart,
    SeatRecord,
)
from pipeline.rules.scoring import (
    ScoringModifiers,
    ScoringRules,
    WinContext,
    WinResult,
)
from pipeline.rules.settlement import (
    RiichiView,
)
from pipeline.rules.wall import Wall
from pipeline.tiles import (
    WIND_TYPES,
)

if TYPE_CHECKING:
    from pipeline.rules.agents import Agent  # imported here for the annotations only

from pipeline.rules.claims import KOKUSHI_NAME, Claims, kuikae_types
from pipeline.rules.legal_actions import _RIICHIS
from pipeline.rules.seats import DiscardInfo, PlayerState

_PASSES = tuple([Action(ActionKind.PASS, s) for s in range(4)])
_OTHERS = tuple([tuple([(s + i) % 4 for i in (1, 2, 3)]) for s in range(4)])  # in turn order
_OTHERS_3 = tuple([tuple([(s + i) % 3 for i in (1, 2)]) for s in range(3)])  # three players, S-01
# Kinds bound once: looking a member up on its enum class costs more than the hot check itself.
_PASS, _DISCARD, _RIICHI, _RON = (ActionKind.PASS, ActionKind.DISCARD, ActionKind.RIICHI,
                                  ActionKind.RON)
_TSUMO, _NINE_TERMINALS, _ABILITY = ActionKind.TSUMO, ActionKind.NINE_TERMINALS, ActionKind.ABILITY
_KITA = ActionKind.KITA
_OWN_KANS = (ActionKind.ANKAN, ActionKind.KAKAN)
_CALLS_BY_PRIORITY = ((ActionKind.PON, ActionKind.MINKAN), (ActionKind.CHI,))  # rule H-05
# The log detail of a plain discard, by (tsumogiri, riichi)
_DISCARD_DETAILS = {(False, False): "", (True, False): "tsumogiri", (False, True): " riichi",
                    (True, True): "tsumogiri riichi"}


class IllegalActionError(ValueError):
    """An agent returned an action that was not among the legal ones."""


def _holds_all(concealed: list[int], tiles: tuple[int, ...]) -> bool:
    """Whether every one of ``tiles`` is still in the hand (a loop: no generator, compiled)."""
    for x in tiles:
        if x not in concealed:
            return False
    return True


class HandState(Claims):
    """A deal in progress. Agents see it only through :class:`Observation`."""

    def __init__(self, start: HandStart, preset: Preset, agents: list[Agent],
                 abilities: Sequence[AbilityHooks | None] = ()) -> None:
        self.start = start
        self.abilities = [a for a in abilities if a is not None]
        # the listeners of each hook (HookPoints._listening): (abilities, by hook, by seat)
        self._listeners: tuple[list, dict, dict] | None = None
        self.preset = preset
        self.rules: ScoringRules = preset.scoring_rules()
        self.agents = agents
        self.wall = Wall(start.wall)
        self.dealer = start.dealer
        self.round_wind = start.round_wind
        self.hand_number = start.hand_number
        self.honba = start.honba
        self.sticks = start.sticks
        self.stakes = start.stakes     # points staked by abilities, collected like sticks (C-18)
        self.scores = list(start.scores)
        self.n = n = preset.players  # seats at the table: 4, or 3 (rule S-01)
        if self.wall.seats != n:
            raise ValueError(f"a wall of {len(start.wall)} tiles cannot deal {n} players")
        self._others_of = _OTHERS if n == 4 else _OTHERS_3
        self.sanma = n == 3
        self.kita_draw = False  # the seat's last draw replaced a North set aside (C-23)
        hands = self.wall.deal(start.dealer)
        self.players = [PlayerState(seat=s, concealed=hands[s]) for s in range(n)]
        self.pond_lists = tuple([p.discards for p in self.players])  # each seat's, in seat order
        # HookPoints._pond_tiles, by face_down: (ponds' total size, pond_changes, lying tiles),
        # and by face_down and seat: (pond size, pond_changes, its lying tiles)
        self._lying: list[tuple] = [(-1, -1, ()), (-1, -1, ())]
        self._lying_ponds: list[list[tuple]] = [[(-1, -1, ())] * n, [(-1, -1, ())] * n]
        self._init_shapes()
        self.events: list[Event] = []
        # Ponds grow by discards; a tile in one changes only by a call or take
        # (_take_from_pond) or by the table controls' pond swap and turn face down, which
        # count here: the caches of ponds key on this count and the ponds' sizes (other
        # ability events leave them, so the caches hold across them).
        self.pond_changes = 0
        self._last_valued: tuple[WinContext, ScoringModifiers, WinResult | None] | None = None
        # [seat][own]: (pond size, pond_changes, (pond, tiles)) of pond_view
        self._pond_views: list[list[tuple]] = [[(-1, -1, ((), ()))] * 2 for _ in range(n)]
        self.uninterrupted = True      # no call or kan yet (first go-around rules, K-01)
        self.kan_count = 0
        self.pending_dora = 0          # open/added kan indicators revealed after the discard (K-05)
        self.discard_count = 0
        self.last_kan_from: int | None = None  # feeder of an open kan, for rinshan pao (K-06)
        self.current_claim_from: int | None = None  # whose discard or kan tile is on offer
        self.revealed: set[int] = set()  # seats playing face up (a card's doing)
        self.shown_types: dict[int, frozenset[int]] = {}  # seat -> tile types kept face up
        self.shown_ids: dict[int, set[int]] = {}  # seat -> single tiles shown (revealed draws)
        self._revealed_by: dict[int, set[str]] = {}      # seat -> abilities revealing it
        self._ura_done: set[int] = set()  # winners whose ura indicators an ability showed
        self.aside: dict[int, list[int]] = {}  # tiles kept beside a seat's hand, seen by it alone
        self.aside_face_up: set[int] = set()  # seats whose tiles beside the hand lie face up
        self.late_claim = False  # a ron on an earlier discard is being checked (no houtei)
        self.record = HandRecord(
            round_wind=start.round_wind, hand_number=start.hand_number, honba=start.honba,
            sticks_start=start.sticks, dealer=start.dealer,
            seats=[SeatRecord(seat=s, start_score=start.scores[s]) for s in range(n)],
            events=self.events, start=start, stakes_start=start.stakes,
        )

    def release_abilities(self) -> None:
        """Drop this state's references to the hand's abilities, once the hand is over. The
        abilities keep the table controls they were given, which reach this state: left as
        they are, the two make a cycle that only the garbage collector frees, every pond, list
        and event of the hand with it; without them the hand is freed as soon as it is done."""
        self.abilities = []
        self._listeners = None
        for kept in ("every_ability", "_switchers"):
            vars(self).pop(kept, None)  # kept in the instance dict (hook_points.py)

    def ask(self, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1 and legal[0].kind == _PASS:
            return legal[0]
        choice = self.agents[seat].decide(Observation(self, seat), legal)
        for a in legal:  # agents return one of the offered objects: found by identity
            if a is choice:
                break
        else:
            if choice not in legal:
                raise IllegalActionError(f"P{seat} chose {choice}, which is not legal here")
        if self.abilities:
            self._note_offer(seat, legal, choice)
        return choice

    def _note_offer(self, seat: int, legal: list[Action], choice: Action) -> None:
        """Log an ``offer`` event when the choice included an ability's optional actions
        (``card:kind...`` details): what was offered and whether one was taken, so a card's
        declined options are on record as well as its triggers."""
        kinds: list[str] = []
        card = ""
        for a in legal:
            if a.kind is _ABILITY:
                card = card or a.card
                if a.tag not in kinds:
                    kinds.append(a.tag)
        if not kinds:
            return
        took = choice.kind is _ABILITY
        taken = f"took {choice.tag}" if took else "declined"
        # the event's tag is what was taken (None: declined)
        self.events.append(Event("offer", seat, detail=f"{card}: offered {', '.join(kinds)}; "
                                 f"{taken}", tag=choice.tag if took else None, card=card))

    def play(self) -> HandRecord:
        for s in range(self.n):
            self.log("deal", s, tiles=tuple(sorted(self.players[s].concealed)))
        self.log("dora", tile=self.wall.dora_indicators[0])
        if self.abilities:
            controls = TableControls(self)
            for ability in self.abilities:
                ability.hand_start(controls)
            self._refresh_active()
        seat = self.dealer
        draw_kind = "live"
        while True:
            if draw_kind == "live":
                if self.wall.in_play_left == 0:
                    return self._exhaustive_draw()
                tile, source = self._live_draw(seat)
            elif draw_kind == "rinshan":
                tile, source = self._rinshan_draw(seat)
            p = self.players[seat]
            if draw_kind != "none":
                p.concealed.append(tile)
                p.drawn = tile
                self.log("draw", seat, tile, detail="rinshan" if draw_kind == "rinshan" else "",
                         drawn_from=source)
                if self.abilities:
                    self._after_draw(seat, tile, source)
            else:
                p.drawn = None
            outcome = self._turn(seat, draw_kind != "none", draw_kind == "rinshan")
            if isinstance(outcome, HandRecord):
                return outcome
            seat, draw_kind = outcome

    def _turn(self, seat: int, drew: bool, rinshan: bool) -> HandRecord | tuple[int, str]:
        p = self.players[seat]
        if self.abilities:
            self._turn_choices(seat, drew)
            self._refresh_active()
        while True:
            act = self.ask(seat, self.self_actions(seat, drew, rinshan))
            kind = act.kind
            if kind == _TSUMO:
                return self._finish_tsumo(seat, rinshan)
            if kind == _NINE_TERMINALS:
                self.log("nine_terminals", seat, tiles=tuple(sorted(p.concealed)))
                return self._abort("nine_terminals")
            if kind == _KITA:
                robbed = self._kita(seat, act.tile)
                if robbed is not None:
                    return robbed
                drew, rinshan = True, True
                continue
            if kind == _ABILITY:
                owner = self._owner(seat, act)
                owner.action_taken(act)
                if act.tag is AbilityTag.FACE_DOWN:
                    plain = Action(ActionKind.DISCARD, seat, act.tile)
                    return self._discard(seat, plain, owner.name)
                if act.tag is AbilityTag.RIICHI:  # a riichi the ability acts on once accepted
                    return self._discard(seat, _RIICHIS[seat][act.tile])
                raise IllegalActionError(f"P{seat} chose {act}, which no hook can carry out")
            if kind == _DISCARD and self.abilities:
                forcing = self._forced_face_down(seat, act.tile)
                if forcing is not None:
                    return self._discard(seat, act, forcing)
            if kind in _OWN_KANS:
                robbed = self._declare_kan(seat, act)
                if robbed is not None:
                    return robbed
                drew, rinshan = True, True
                self.kita_draw = False
                tile, source = self._rinshan_draw(seat)
                p.concealed.append(tile)
                p.drawn = tile
                self.log("draw", seat, tile, detail="rinshan", drawn_from=source)
                if self.abilities:
                    self._after_draw(seat, tile, source)
                continue
            return self._discard(seat, act)

    def _kita(self, seat: int, tile: int) -> HandRecord | None:
        """Rules S-03, S-04: the North is set aside as nukidora; another seat may ron it; else
        the seat draws a replacement from the dead wall (a rinshan tile for the yaku, but not
        a rinshan draw for characters, C-23) and goes on with its turn. No indicator turns."""
        p = self.players[seat]
        p.concealed.remove(tile)
        p.kita.append(tile)
        p.drawn = None
        self.log("kita", seat, tile)
        self.last_kan_from = None
        self._interrupt()  # ippatsu and the first go-around end, as with a call
        robbed = self._offer_rob(seat, tile, kokushi_only=False, kita=True)
        if robbed is not None:
            return robbed
        tile = self.wall.draw_rinshan()
        p.concealed.append(tile)
        p.drawn = tile
        self.kita_draw = True
        self.log("draw", seat, tile, detail="kita", drawn_from=DrawSource.KITA)
        if self.abilities:
            self._after_draw(seat, tile, DrawSource.KITA)
        return None

    def _turn_choices(self, seat: int, drew: bool) -> None:
        """Choices the seat's abilities require before it acts (``turn_choices``): one is
        asked for each ability that offers some, then logged."""
        own = self._own_listeners("turn_choices", seat)
        if not own:
            return
        p = self.players[seat]
        view = OwnTurnView(seat, (), drew=drew, in_riichi=p.riichi, turns=p.turns,
                           opponents_ippatsu=(), scores=tuple(self.scores))
        for ability in own:
            offers = ability.turn_choices(view)
            if offers:
                choice = self.ask(seat, offers)
                ability.action_taken(choice)
                self.log("ability", seat, detail=f"{ability.name}: "
                         f"{choice.detail.split(':', 1)[1].replace(':', ' ')}",
                         tag=choice.tag, card=ability.name, payload=choice.payload)

    def _forced_face_down(self, seat: int, tile: int) -> str | None:
        """The ability that forces this plain discard face down, if any (rule C-13)."""
        own = self._own_listeners("forced_face_down", seat)
        if not own:
            return None
        p = self.players[seat]
        view = OwnTurnView(seat, (tile,), drew=p.drawn is not None, in_riichi=p.riichi,
                           turns=p.turns, opponents_ippatsu=())
        for ability in own:
            if ability.forced_face_down(view):
                return ability.name
        return None

    def _declare_kan(self, seat: int, act: Action) -> HandRecord | None:
        p = self.players[seat]
        if act.kind == ActionKind.ANKAN:
            for x in act.tiles:
                p.concealed.remove(x)
            meld = Meld(MeldKind.ANKAN, act.tiles)
            p.melds.append(meld)
            self.log("ankan", seat, tiles=act.tiles)
            if self.preset.kokushi_robs_concealed_kan:  # rule K-06
                if self.preset.kan_dora_before_rob:
                    self._flush_pending_dora()
                robbed = self._offer_rob(seat, act.tiles[0], kokushi_only=True)
                if robbed is not None:
                    return robbed
            self._kan_done(seat, meld, concealed=True)
            self.last_kan_from = None
            return None
        tile = act.tile
        idx = next(i for i, m in enumerate(p.melds)
                   if m.kind == MeldKind.PON and m.tile_type == tile // 4)
        pon = p.melds[idx]
        p.concealed.remove(tile)
        self.log("kakan", seat, tile, tiles=tuple(sorted((*pon.tiles, tile))))
        if self.preset.kan_dora_before_rob:  # an earlier kan's indicator, before the rob
            self._flush_pending_dora()
        robbed = self._offer_rob(seat, tile, kokushi_only=False)  # chankan, rule H-06
        if robbed is not None:
            return robbed
        meld = Meld(MeldKind.KAKAN, tuple(sorted((*pon.tiles, tile))), pon.called, pon.from_seat,
                    added=tile)
        p.melds[idx] = meld
        self._kan_done(seat, meld, concealed=False)
        self.last_kan_from = None
        return None

    def _owner(self, seat: int, act: Action) -> AbilityHooks:
        return next(a for a in self.abilities if a.seat == seat and a.name == act.card)

    def _discard(self, seat: int, act: Action, face_down: str = "", unclaimable: str = ""
                 ) -> HandRecord | tuple[int, str]:
        """The seat discards (face down, or a repeat nobody may claim, when an ability says
        so: its name): the tile goes to the pond, the other seats' claims on it are collected
        (:meth:`_collect_claims`) and resolved (:meth:`_resolve_claims`), and when nobody took
        it, what follows the pass (:meth:`_after_pass`) says whose turn is next. Positional:
        compiled, called straight from C with the seat's state typed (hand.pxd)."""
        p = self.players[seat]
        tile = act.tile
        riichi = act.kind == _RIICHI
        was_extra, p.extra_turn_now = p.extra_turn_now, False
        after_call, p.last_call = p.last_call, None
        if p.ippatsu and not riichi and not was_extra:  # rule C-16: extra turns keep ippatsu
            p.ippatsu = False
        if riichi:
            p.riichi = True
            p.riichi_turn = p.turns + 1
            p.double_riichi = p.turns == 0 and self.uninterrupted
            self.log("riichi", seat, detail="double" if p.double_riichi else "")
            if self.abilities:
                self._riichi_choices(seat)
        tsumogiri = tile == p.drawn
        p.remove_discard(tile)
        p.discards.append(DiscardInfo(tile, tsumogiri, riichi, order=self.discard_count,
                                      face_down=bool(face_down)))
        p.turns += 1
        p.drawn = None
        p.kuikae = frozenset()
        p.temp_furiten = False  # rule K-01: temporary furiten ends with one's own discard
        self.kita_draw = False
        self.discard_count += 1
        self.log("discard", seat, tile, detail=_DISCARD_DETAILS[tsumogiri, riichi]
                 + (f" face down ({face_down})" if face_down else "")
                 + (f" unclaimable ({unclaimable})" if unclaimable else ""),
                 tag=(AbilityTag.FACE_DOWN if face_down else AbilityTag.REPEAT if unclaimable
                      else None), card=face_down or unclaimable, tsumogiri=tsumogiri)
        if self.pending_dora:
            self._flush_pending_dora()  # rule K-05
        self.last_kan_from = None
        if self.abilities:
            self._discard_made(seat, tile, tsumogiri, after_call, bool(face_down))
        claims = self._collect_claims(seat, tile, face_down, unclaimable)
        outcome = self._resolve_claims(seat, tile, claims, riichi, face_down)
        if outcome is not None:
            return outcome
        return self._after_pass(seat, tile, tsumogiri, after_call, was_extra, face_down,
                                unclaimable)

    def _collect_claims(self, seat: int, tile: int, face_down: str, unclaimable: str
                        ) -> dict[int, Action]:
        """Each other seat's claim on the discard, asked in turn order among what it may claim
        (none on a repeat nobody may claim; only a ron by an always-winning tile on a face-down
        one, rule C-13), as the claim filters leave it; a seat that passes is left out."""
        claims: dict[int, Action] = {}
        self.current_claim_from = seat
        for s in self._others_of[seat]:
            if face_down:  # C-13: nobody may claim it, but an always-winning tile may ron it
                legal = [Action(ActionKind.RON, s, tile)] if self.abilities and \
                    self._can_ron(s, tile, face_down=True) else []
                if legal:  # the claim filters may still block that ron
                    legal = [a for a in self._filter_claims(s, seat, tile, legal)
                             if a.kind == ActionKind.RON]
            else:
                legal = [] if unclaimable else self.claim_actions(s, seat, tile)
                if self.abilities:
                    legal = self._filter_claims(s, seat, tile, legal, bool(unclaimable))
            if legal:
                choice = self.ask(s, [*legal, _PASSES[s]])
                if choice.kind != _PASS:
                    claims[s] = choice
        return claims

    def _resolve_claims(self, seat: int, tile: int, claims: dict[int, Action], riichi: bool,
                        face_down: str) -> HandRecord | tuple[int, str] | None:
        """The claims on the discard resolved together (rule H-05): a priority call beats ron,
        ron beats a call (head bump or double ron, H-11); a riichi nobody ronned is accepted;
        then the abortive draws (M-04) and the call made. None: the tile was not taken and
        the hand goes on."""
        others = self._others_of[seat]
        rons = [s for s in others if s in claims and claims[s].kind == _RON] if claims else []
        priority = self._priority_claims(claims, others) if self.abilities else []
        if priority:
            rons = []  # a priority call beats ron; the beaten seats saw their tile go by
        for s in (() if face_down else others):
            if s not in rons:
                self._missed(s, tile)
        if rons:
            if len(rons) == 3 and self.preset.triple_ron_abort and self.preset.abortive_draws:
                return self._abort("triple_ron")  # rule M-04
            if not self.preset.double_ron:
                rons = rons[:1]  # head bump, rule H-11
            return self._finish_ron(rons, seat, tile)
        if riichi:
            self._accept_riichi(seat)
            if self.abilities:
                # the riichi is accepted before calls are made, and an ability answering it
                # may change a claimant's hand (a swap): a call whose tiles left it is dropped
                claims = {s: c for s, c in claims.items()
                          if _holds_all(self.players[s].concealed, c.tiles)}
                priority = [s for s in priority if s in claims]
            if self.preset.abortive_draws and self.n == 4 and \
                    len([q for q in self.players if q.riichi]) == 4:
                return self._abort("four_riichi")  # rule M-04, K-11 (none with three: S-09)
        if self.discard_count == 4 and self.n == 4 and self._four_winds():
            return self._abort("four_winds")
        if self.kan_count == 4 and self.preset.abortive_draws and \
                max([q.kans for q in self.players]) < 4:
            return self._abort("four_kans")
        if priority:
            call = claims[priority[0]]
            self.log("ability", priority[0], call.tile,
                     detail=f"{call.card}: priority {call.kind.value}",
                     tag=AbilityTag.PRIORITY, card=call.card)
            return self._call(priority[0], seat, call)
        # calls: pon / open kan beat chi; equal priority goes in turn order (rule H-05)
        for kinds in _CALLS_BY_PRIORITY if claims else ():
            for s in others:
                if s in claims and claims[s].kind in kinds:
                    return self._call(s, seat, claims[s])  # rule C-14: a call interrupts
        return None

    def _accept_riichi(self, seat: int) -> None:
        """A riichi whose tile nobody ronned is accepted: its stick is paid, ippatsu begins,
        and the abilities answer it (rule H-08)."""
        p = self.players[seat]
        p.riichi_accepted = True
        self.scores[seat] -= 1000
        self.sticks += 1
        p.ippatsu = self.rules.ippatsu
        self.record.seats[seat].riichi = True
        self.record.seats[seat].riichi_turn = p.riichi_turn
        if self.abilities:
            view = RiichiView(seat, p.riichi_turn or 0, tuple(self.scores), p.double_riichi)
            controls = TableControls(self)
            for ability in self.abilities:
                ability.riichi(view, controls)
            self._refresh_active()

    def _after_pass(self, seat: int, tile: int, tsumogiri: bool, after_call: tuple[str, int] | None,
                    was_extra: bool, face_down: str, unclaimable: str) -> tuple[int, str]:
        """Whose turn is next once nobody took the discard: a late ron or a swap an ability
        makes, a replacement draw after a repeat, a repeated discard or an extra turn an
        ability offers (rules C-15, C-17), else the next seat draws."""
        if self.abilities:  # a ron an ability allows on an earlier discard
            late = self._late_ron(seat, tile)
            if late is not None:
                return late
            self._discard_passed(seat, tile)  # a swap with the discard, for example
        if unclaimable:  # a repeated discard: the seat draws a replacement, play goes on
            self._replacement_draw(seat)
            return (seat + 1) % self.n, "live"
        p = self.players[seat]
        if self.abilities and self.wall.live_left and not p.riichi and self._own_listeners(
                "discard_actions", seat):
            view = self._discard_view(seat, tile, tsumogiri, after_call, bool(face_down))
            repeat = self._repeat_offer(seat, view)
            if repeat is not None:
                plain = Action(ActionKind.DISCARD, seat, repeat.tile)
                return self._discard(seat, plain, "", repeat.card)
        # rule C-15, decided here alone: no extra turn after an extra turn, a face-down
        # discard or the last live tile; the abilities say only whether the discard earns one
        if self.abilities and not was_extra and not face_down and self.wall.live_left \
                and self._offer_extra_turn(seat, tile, tsumogiri, after_call, face_down):
            return seat, "live"
        return (seat + 1) % self.n, "live"

    def _offer_extra_turn(self, seat: int, tile: int, tsumogiri: bool,
                          after_call: tuple[str, int] | None, face_down: str) -> bool:
        """Whether the seat takes an extra turn now: the first of its abilities that grants one
        after this discard offers it, and the seat may decline (rules C-15, C-17)."""
        earners = self._own_listeners("extra_turn", seat)
        if not earners:
            return False
        p = self.players[seat]
        view = DiscardView(seat=seat, tile=tile, tsumogiri=tsumogiri, after_call=after_call,
                           face_down=bool(face_down), scores=tuple(self.scores),
                           start_points=self.preset.start_points,
                           others_closed=self._others_closed(seat),
                           first_discard=p.turns == 1, dealer=self.dealer)
        for ability in earners:
            if ability.extra_turn(view):
                offer = ability_action(seat, ability.name, AbilityTag.EXTRA_TURN)
                if self.ask(seat, [offer, _PASSES[seat]]) == offer:  # rule C-17: optional
                    p.extra_turn_now = True
                    ability.action_taken(offer)
                    self.log("ability", seat, detail=f"{ability.name}: extra turn",
                             tag=AbilityTag.EXTRA_TURN, card=ability.name)
                    return True
                ability.offer_declined(offer)
                return False
        return False

    def _four_winds(self) -> bool:
        if not (self.preset.abortive_draws and self.uninterrupted and self.discard_count == 4
                and all(q.discards for q in self.players)):  # an extra turn breaks the pattern
            return False
        first = {q.discards[0].tile // 4 for q in self.players if q.discards}
        return len(first) == 1 and first.pop() in WIND_TYPES


__all__ = ["DiscardInfo", "HandStart", "HandState", "IllegalActionError", "KOKUSHI_NAME",
           "PlayerState", "kuikae_types", "play_hand"]

def play_hand(start: HandStart, preset: Preset, agents: list[Agent],
              abilities: Sequence[AbilityHooks | None] = ()) -> HandRecord:
    """Play one deal from its starting state with the given agents (and seats' abilities)."""
    state = HandState(start, preset, agents, abilities)
    try:
        return state.play()
    finally:
        state.release_abilities()
