"""One deal, from the wall to the payments: the engine's core loop.

The loop asks each seat's agent for a decision, offering only legal actions (candidates first,
then the rule filters: furiten, kuikae, riichi lock, last-tile limits). Claims on a discard are
collected from every seat and resolved together (rule H-05). Nothing here knows about cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum
from functools import cache, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind, ability_action
from pipeline.rules.agari import (
    count_terminal_honor_kinds,
    is_complete,
    tenpai_discards,
    winning_types,
)
from pipeline.rules.agents import Observation
from pipeline.rules.hand_shapes import (
    NO_SHAPES,
    HandShapes,
    shaped_is_complete,
    shaped_tenpai_discards,
    shaped_winning_types,
)
from pipeline.rules.hook_points import HookPoints
from pipeline.rules.hooks import (
    AbilityHooks,
    DiscardView,
    OwnTurnView,
    TableControls,
    WinTileView,
    WinView,
    scoring_modifiers,
)
from pipeline.rules.preset import Preset
from pipeline.rules.records import (
    AbilityEffect,
    Event,
    HandRecord,
    HandStart,
    Outcome,
    SeatRecord,
    WinRecord,
)
from pipeline.rules.scoring import (
    NO_MODIFIERS,
    ScoringModifiers,
    ScoringRules,
    WinContext,
    WinResult,
    score_win,
)
from pipeline.rules.settlement import (
    HandEndView,
    RiichiView,
    Settlement,
    SettlementView,
    Transfer,
    noten_transfers,
    table_shares,
)
from pipeline.rules.shapeless import score_always_winning, value_always_winning
from pipeline.rules.wall import Wall
from pipeline.tiles import (
    HAND_MEMO,
    NORTH_TYPE,
    NUM_TILES,
    RED_FIVE_IDS,
    WIND_TYPES,
    counts34,
    is_terminal_or_honor_type,
    type_to_str,
)

if TYPE_CHECKING:  # agents.py reads this module's types where compiled (agents.pxd):
    from pipeline.rules.agents import Agent  # imported here for the annotations only

KOKUSHI_NAME = "Kokushi Musou"

# Actions are immutable values, so the discard and riichi action of each seat and tile are built
# once and offered again on every turn.
_DISCARDS = tuple([tuple([Action(ActionKind.DISCARD, s, t) for t in range(NUM_TILES)])
                  for s in range(4)])
_RIICHIS = tuple([tuple([Action(ActionKind.RIICHI, s, t) for t in range(NUM_TILES)])
                 for s in range(4)])
_PASSES = tuple([Action(ActionKind.PASS, s) for s in range(4)])
_OTHERS = tuple([tuple([(s + i) % 4 for i in (1, 2, 3)]) for s in range(4)])  # in turn order
_OTHERS_3 = tuple([tuple([(s + i) % 3 for i in (1, 2)]) for s in range(3)])  # three players, S-01
# Kinds bound once: looking a member up on its enum class costs more than the hot check itself.
_PASS, _DISCARD, _RIICHI, _RON = (ActionKind.PASS, ActionKind.DISCARD, ActionKind.RIICHI,
                                  ActionKind.RON)
_TSUMO, _NINE_TERMINALS, _ABILITY = ActionKind.TSUMO, ActionKind.NINE_TERMINALS, ActionKind.ABILITY
_KITA = ActionKind.KITA
_NO_TYPES: frozenset[int] = frozenset()
_CHI, _PON, _MINKAN = ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN
_OWN_KANS = (ActionKind.ANKAN, ActionKind.KAKAN)
_CALLS_BY_PRIORITY = ((ActionKind.PON, ActionKind.MINKAN), (ActionKind.CHI,))  # rule H-05
_PON_MELD, _ANKAN_MELD = MeldKind.PON, MeldKind.ANKAN
# The log detail of a plain discard, by (tsumogiri, riichi)
_DISCARD_DETAILS = {(False, False): "", (True, False): "tsumogiri", (False, True): " riichi",
                    (True, True): "tsumogiri riichi"}
# For each type: the sequences a chi on it may make, lowest first, as (lowest type, the two
# other types); none for honors.
_CHI_PARTNERS = tuple([
    tuple([(lo, *(x for x in (lo, lo + 1, lo + 2) if x != t)) for lo in (t - 2, t - 1, t)
          if lo >= 0 and lo // 9 == t // 9 and lo % 9 <= 6]) if t < 27 else ()
    for t in range(34)])


@lru_cache(maxsize=HAND_MEMO)
def _offer(kind: ActionKind, seat: int, tile: int, tiles: tuple[int, ...] = ()) -> Action:
    """The win or call action of that kind, seat, tile and tiles, built once while it is offered
    again and again (actions are immutable values; hot path: the calls on a discard). The memo
    keeps the most recently offered: a long run meets 20,000-30,000 of them, some 360 bytes
    each, and the last few thousand keep most of the hits."""
    return Action(kind, seat, tile, tiles)


@cache
def kuikae_types(called: int, chi_low: int | None) -> frozenset[int]:
    """Tile types that may not be discarded right after a call (rule H-07).

    After a pon: the called type. After a chi: the called type and, when the called tile ends
    the sequence, the type that would complete the same sequence from the other end.
    """
    forbidden = {called}
    if chi_low is not None:
        if called == chi_low and called % 9 <= 5:
            forbidden.add(called + 3)
        if called == chi_low + 2 and called % 9 >= 3:
            forbidden.add(called - 3)
    return frozenset(forbidden)


def _holds_four(counts: list[int]) -> bool:
    """Whether a type is held four times (``4 in counts``, as a loop over C ints where
    compiled, hand.pxd: ``in`` compares each of the 34 counts as Python objects; hot path,
    every turn asks whether a concealed kan is possible)."""
    for c in counts:
        if c == 4:
            return True
    return False


def _holds_all(concealed: list[int], tiles: tuple[int, ...]) -> bool:
    """Whether every one of ``tiles`` is still in the hand (a loop: no generator, compiled)."""
    for x in tiles:
        if x not in concealed:
            return False
    return True


def _any_always_wins(abilities: list[AbilityHooks], view: WinTileView) -> bool:
    """Whether one of the abilities makes the view's tile an always-winning tile (asked in
    turn, stopping at the first; a loop rather than any() over a generator, compiled)."""
    for a in abilities:
        if a.always_wins(view):
            return True
    return False


class IllegalActionError(ValueError):
    """An agent returned an action that was not among the legal ones."""


_DISCARD_FIELDS = ("tile", "tsumogiri", "riichi", "called", "order", "face_down")


class DiscardInfo:
    """One tile in a pond. ``order`` counts discards across the table, so a seat can tell which
    tiles went out after someone's riichi (safe against that player).

    One per discard, read at every decision: slots, and an extension type where compiled
    (``hand.pxd``). Compared field by field."""

    __slots__ = _DISCARD_FIELDS

    def __init__(self, tile: int, tsumogiri: bool, riichi: bool, called: bool = False,
                 order: int = 0, face_down: bool = False) -> None:
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.riichi = riichi
        self.called = called
        self.order = order
        self.face_down = face_down   # rule C-13: no furiten, cannot be called or ronned

    def _fields(self) -> tuple[object, ...]:
        return self.tile, self.tsumogiri, self.riichi, self.called, self.order, self.face_down

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiscardInfo):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}"
                          for name, value in zip(_DISCARD_FIELDS, self._fields(), strict=True))
        return f"DiscardInfo({shown})"


_PLAYER_FIELDS = ("seat", "concealed", "melds", "discards", "drawn", "riichi", "riichi_accepted",
                  "double_riichi", "riichi_turn", "ippatsu", "temp_furiten", "riichi_furiten",
                  "kuikae", "turns", "calls", "kans", "kita", "last_call", "extra_turn_now",
                  "shapes")


class PlayerState:
    """One seat in a hand: its tiles, melds, pond and the flags the rules keep for it.

    Slots, and an extension type where compiled (``hand.pxd``): the engine reads and writes
    these fields at every step of play, the bots read them through every observation."""

    __slots__ = (*_PLAYER_FIELDS, "_held_key", "_held", "_waits_key", "_waits", "_ready_key",
                 "_ready")

    def __init__(self, seat: int, concealed: list[int], melds: list[Meld] | None = None,
                 discards: list[DiscardInfo] | None = None, drawn: int | None = None,
                 riichi: bool = False, riichi_accepted: bool = False,
                 double_riichi: bool = False, riichi_turn: int | None = None,
                 ippatsu: bool = False, temp_furiten: bool = False,
                 riichi_furiten: bool = False, kuikae: frozenset[int] = frozenset(),
                 turns: int = 0, calls: int = 0, kans: int = 0, kita: list[int] | None = None,
                 last_call: tuple[str, int] | None = None, extra_turn_now: bool = False,
                 shapes: HandShapes = NO_SHAPES) -> None:
        self.seat = seat
        self.concealed = concealed
        self.melds = [] if melds is None else melds
        self.discards = [] if discards is None else discards
        self.drawn = drawn
        self.riichi = riichi
        self.riichi_accepted = riichi_accepted
        self.double_riichi = double_riichi
        self.riichi_turn = riichi_turn
        self.ippatsu = ippatsu
        self.temp_furiten = temp_furiten
        self.riichi_furiten = riichi_furiten
        self.kuikae = kuikae
        self.turns = turns
        self.calls = calls
        self.kans = kans
        self.kita = [] if kita is None else kita  # Norths set aside as nukidora (S-03)
        self.last_call = last_call  # (meld kind, called tile) until the next discard
        self.extra_turn_now = extra_turn_now  # this turn is an ability's extra turn
        self.shapes = shapes  # extra sequences an ability lets the seat build
        # Caches keyed on the concealed tiles in hand order (hot path): the type counts, the
        # waits of a 3k+1 hand and the tenpai discards of a 3k+2 hand, each kept until the
        # tiles change; forget() drops them when the seat's shapes change. The keys are copies
        # of the concealed list (never the list itself, never changed): comparing the list with
        # one builds nothing, where a tuple key would be built anew from the list on every
        # look-up.
        self._held_key: list[int] | None = None
        self._held: list[int] = []
        self._waits_key: list[int] | None = None
        self._waits: frozenset[int] = frozenset()
        self._ready_key: list[int] | None = None
        self._ready: dict[int, frozenset[int]] = {}

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _PLAYER_FIELDS)
        return f"PlayerState({shown})"

    @property
    def is_closed(self) -> bool:
        # Meld.is_open, without its lookups, in a loop rather than all() over a generator
        # (hot path: asked for every seat on every discard)
        for m in self.melds:
            if m.kind != _ANKAN_MELD:
                return False
        return True

    def counts(self) -> list[int]:
        return counts34(self.concealed)

    def forget(self) -> None:
        """Drop the cached counts, waits and tenpai discards (the seat's shapes changed)."""
        self._held_key = self._waits_key = self._ready_key = None

    def held(self) -> list[int]:
        """Type counts of the concealed tiles, cached until the hand changes (hot path: read
        only, never modify the list)."""
        tiles = self.concealed
        before = self._held_key
        if tiles != before:
            key = list(tiles)
            if before is not None and key[:-1] == before:  # one tile drawn
                held = self._held.copy()
                held[key[-1] // 4] += 1
            else:
                held = counts34(key)
            self._held_key, self._held = key, held
        return self._held

    def waits(self) -> frozenset[int]:
        """Winning tile types of a 3k+1 hand; cached until the hand changes (hot path). A hand
        that comes back (after a tsumogiri) finds its waits still cached."""
        if self.concealed != self._waits_key:
            held = self.held()
            self._waits = (shaped_winning_types(held, self.shapes) if self.shapes
                           else winning_types(held))
            self._waits_key = list(self.concealed)
        return self._waits

    def ready(self) -> dict[int, frozenset[int]]:
        """For a 3k+2 hand: each discard type that leaves it tenpai, with its waits; cached
        until the hand changes."""
        if self.concealed != self._ready_key:
            held = self.held()
            self._ready = (shaped_tenpai_discards(held, self.shapes) if self.shapes
                           else tenpai_discards(held))
            self._ready_key = list(self.concealed)
        return self._ready

    def waits_before_draw(self) -> frozenset[int]:
        """The winning types of the hand without its drawn tile (whether it was ready before
        the draw): usually cached, as every discard checks the waits for a ron."""
        tiles = self.concealed
        if self.drawn is None:
            return frozenset()
        if tiles and tiles[-1] == self.drawn and self._waits_key == tiles[:-1]:
            return self._waits
        rest = list(tiles)
        rest.remove(self.drawn)
        held = counts34(rest)
        return shaped_winning_types(held, self.shapes) if self.shapes else winning_types(held)

    def drawn_completes(self) -> bool:
        """Whether the hand with its drawn tile is complete. The waits of the hand before the
        draw are usually cached (every discard checks them for a ron), and the drawn tile
        completes the hand exactly when its type is one of them."""
        tiles = self.concealed
        if (self.drawn is not None and tiles and tiles[-1] == self.drawn
                and self._waits_key == tiles[:-1]):
            return self.drawn // 4 in self._waits
        held = self.held()
        return shaped_is_complete(held, self.shapes) if self.shapes else is_complete(held)

    def remove_discard(self, tile: int) -> None:
        """Take a discarded tile out of the hand. When the tenpai discards of the hand were
        worked out (to offer riichi), they hold the waits left by this discard: an absent type
        leaves no wait."""
        before = list(self.concealed)
        held = self._held if self._held_key == before else None
        self.concealed.remove(tile)
        after = list(self.concealed)
        if held is not None:  # the counts follow without counting again
            held = held.copy()
            held[tile // 4] -= 1
            self._held_key, self._held = after, held
        if self._ready_key == before:
            self._waits_key = after
            self._waits = self._ready.get(tile // 4, frozenset())

    def discard_furiten(self, waits: frozenset[int]) -> bool:
        # rule C-13: tiles discarded face down do not count for furiten (a loop: no generator)
        for d in self.discards:
            if d.tile // 4 in waits and not d.face_down:
                return True
        return False


# the dragon and wind types whose last set fed decides pao (rule M-08)
_PAO_SETS = (("Daisangen", range(31, 34)), ("Daisuushii", range(27, 31)))


class HandState(HookPoints):
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

    # ------------------------------------------------------------------ helpers

    def log(self, kind: str, seat: int | None = None, tile: int | None = None,
            tiles: tuple[int, ...] = (), detail: str = "", *, tag: StrEnum | None = None,
            card: str = "", effect: AbilityEffect | None = None, source: int | None = None,
            tsumogiri: bool = False) -> None:
        if kind == "ability":
            # a tag may say it only keeps its card's state (``bookkeeping``)
            effect = effect or (AbilityEffect.BOOKKEEPING if getattr(tag, "bookkeeping", False)
                                else AbilityEffect.PLAY)
        self.events.append(Event(kind, seat, tile, tiles, detail, tag, card, effect, source,
                                 tsumogiri))

    def pond_view(self, seat: int, own: bool) -> tuple[tuple[DiscardInfo, ...],
                                                       tuple[int, ...]]:
        """A seat's pond as the table sees it (``own``: as the seat itself sees it, face-down
        tiles included) and its tiles. Agents read every pond at every decision, so both are
        kept until the pond grows or changes (``pond_changes``; hot path). A pond that only grew
        keeps what was kept and adds its new discards. ``own`` is positional (a call with a
        keyword builds a dict that the compiled method then parses)."""
        discards = self.pond_lists[seat]  # the seat's discards
        kept = self._pond_views[seat][own]
        size, changes = len(discards), self.pond_changes
        if kept[0] != size or kept[1] != changes:
            if kept[1] == changes and 0 <= kept[0] < size:  # grown by discards only
                new = [d for d in discards[kept[0]:] if own or not d.face_down]
                pond = kept[2][0] + tuple(new)
                tiles = kept[2][1] + tuple([d.tile for d in new])
            else:
                pond = tuple([d for d in discards if own or not d.face_down])
                tiles = tuple([d.tile for d in pond])
            kept = self._pond_views[seat][own] = (size, changes, (pond, tiles))
        return kept[2]

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

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % self.n

    def win_context(self, seat: int, tile: int, *, tsumo: bool, rinshan: bool = False,
                    chankan: bool = False, concealed: list[int] | None = None) -> WinContext:
        p = self.players[seat]
        hand = list(p.concealed if concealed is None else concealed)
        if not tsumo:
            hand.append(tile)
        first = p.turns == 0 and self.uninterrupted and not rinshan
        last = self.wall.at_last_tile
        ura = self.wall.ura_indicators if self.rules.ura_dora else ()  # counted with riichi
        spare = self.wall.spare_ura(4) if self.abilities and self.rules.ura_dora else ()
        dora = self.wall.dora_indicators if self.preset.kan_dora else self.wall.dora_indicators[:1]
        return WinContext(
            concealed=tuple(hand), melds=tuple(p.melds), win_tile=tile, is_tsumo=tsumo,
            seat_wind=self.seat_wind(seat), round_wind=self.round_wind,
            is_dealer=seat == self.dealer, dora_indicators=dora, ura_indicators=ura,
            riichi=p.riichi and not p.double_riichi, double_riichi=p.double_riichi,
            ippatsu=p.ippatsu and self.rules.ippatsu, rinshan=rinshan and tsumo,
            chankan=chankan, haitei=tsumo and last and not rinshan,
            houtei=(not tsumo) and last and not chankan and not self.late_claim,
            tenhou=tsumo and first and seat == self.dealer,
            chiihou=tsumo and first and seat != self.dealer,
            renhou=(not tsumo) and first and seat != self.dealer and self.rules.renhou != "off",
            spare_ura=spare, kita=len(p.kita), sanma=self.sanma,
        )

    # ------------------------------------------------------------------ legal actions

    def self_actions(self, seat: int, drew: bool, rinshan: bool) -> list[Action]:
        """Actions on the seat's own turn: the rules' ones, then any its ability adds (its
        arguments positional: compiled, called straight from C, hand.pxd)."""
        acts = self._rule_actions(seat, drew, rinshan)
        if not self.abilities:
            return acts
        own = self._own_listeners("own_actions", seat)
        if own:
            p = self.players[seat]
            # seat, discard_tiles, drew, in_riichi, turns, opponents_ippatsu, after_call,
            # riichi_tiles, scores: positional, as the hot hooks' views are (a class called
            # with keywords gets them in a new dict, which its compiled __init__ parses)
            discard_tiles = tuple([a.tile for a in acts if a.kind == _DISCARD])
            after_call = p.last_call[0] if p.last_call else None
            view = OwnTurnView(
                seat, discard_tiles, drew, p.riichi, p.turns,
                tuple([q.seat for q in self.players if q.seat != seat and q.ippatsu]),
                after_call, tuple([a.tile for a in acts if a.kind == _RIICHI]),
                tuple(self.scores))
            for ability in own:
                acts.extend(ability.own_actions(view))
        return self._filter_own_kans(seat, acts)

    def _rule_actions(self, seat: int, drew: bool, rinshan: bool) -> list[Action]:
        """Actions the rules give: win, kans, nine terminals, riichi, discards."""
        p = self.players[seat]
        acts: list[Action] = []
        counts = p.held()
        complete = drew and p.drawn_completes()
        if complete or (drew and self.abilities
                        and self._always_wins_drawn(p, rinshan and not self.kita_draw)):
            ctx = self.win_context(seat, p.drawn, tsumo=True, rinshan=rinshan)
            value = self._win_value(seat, ctx, None, complete=complete)
            if value is not None and self._win_allowed(seat, ctx, None, value.yakuman):
                acts.append(_offer(_TSUMO, seat, p.drawn))
        if (drew and not rinshan and p.turns == 0 and self.uninterrupted
                and self.preset.abortive_draws and count_terminal_honor_kinds(counts) >= 9):
            acts.append(Action(ActionKind.NINE_TERMINALS, seat))  # rule M-04, K-11
        if drew:
            acts.extend(self._kan_actions(seat, counts))
            if self.preset.kita and counts[NORTH_TYPE]:
                acts.extend(self._kita_actions(p))
        offer = _DISCARDS[seat]
        if p.riichi:
            acts.append(offer[p.drawn])
            return acts
        kuikae = p.kuikae
        discards = [t for t in p.concealed if t // 4 not in kuikae] if kuikae else p.concealed
        acts.extend([offer[t] for t in discards])
        if self._may_riichi(seat):
            ready = p.ready()
            if ready:
                offer = _RIICHIS[seat]
                acts.extend([offer[t] for t in discards if t // 4 in ready])
        return acts

    def _may_riichi(self, seat: int) -> bool:
        p = self.players[seat]
        return (p.is_closed and not p.riichi
                and self.scores[seat] >= self.preset.riichi_min_points
                and self.wall.live_left >= self.preset.riichi_min_wall  # rule H-08, K-02
                and (not self.abilities or self._abilities_allow_riichi(seat)))

    def _abilities_allow_riichi(self, seat: int) -> bool:
        """Whether every ability of the seat allows its riichi (a loop, not ``all()`` over a
        generator, which costs more compiled: asked on every turn of a closed hand)."""
        for a in self.abilities:
            if a.seat == seat and not a.riichi_allowed():
                return False
        return True

    def _kan_room(self) -> bool:
        # rule H-06: a kan needs a replacement tile; K-03: none on the last draw
        return self.wall.rinshan_left > 0 and self.wall.live_left > 0 and self.kan_count < 4

    def _kan_actions(self, seat: int, counts: list[int]) -> list[Action]:
        p = self.players[seat]
        four = _holds_four(counts)
        if not (four or (p.melds and not p.riichi)):  # nothing to declare (hot path)
            return []
        if not self._kan_room() or p.kans >= 4:  # rule K-08
            return []
        acts = []
        if four:
            for t in range(34):
                if counts[t] == 4 and self._ankan_allowed(p, t):
                    tiles = tuple(sorted([x for x in p.concealed if x // 4 == t]))
                    acts.append(Action(ActionKind.ANKAN, seat, tiles=tiles))
        if not p.riichi:
            for m in p.melds:
                if m.kind == _PON_MELD:
                    t = m.tile_type  # read once, not for every tile held
                    for x in p.concealed:
                        if x // 4 == t:
                            acts.append(Action(ActionKind.KAKAN, seat, x))
        return acts

    def _kita_actions(self, p: PlayerState) -> list[Action]:
        """Rule S-03: on one's own turn a North may be set aside, while the live wall has a
        tile for the dead wall to take; in riichi only the drawn North (the wait stays)."""
        if not self.wall.live_left or not self.wall.rinshan_left:
            return []
        if p.riichi:
            return [_offer(_KITA, p.seat, p.drawn)] if p.drawn // 4 == NORTH_TYPE else []
        return [_offer(_KITA, p.seat, x) for x in p.concealed if x // 4 == NORTH_TYPE]

    def _ankan_allowed(self, p: PlayerState, t: int) -> bool:
        if not p.riichi:
            return True
        if self.preset.kan_after_riichi == "none":  # rule H-08
            return False
        # In riichi: only with the drawn tile, and only if the wait does not change (K-09).
        if p.drawn is None or p.drawn // 4 != t:
            return False
        before = counts34(x for x in p.concealed if x != p.drawn)
        after = list(before)
        after[t] = 0
        if p.shapes:
            return bool(shaped_winning_types(before, p.shapes)) and \
                shaped_winning_types(before, p.shapes) == shaped_winning_types(after, p.shapes)
        return bool(winning_types(before)) and winning_types(before) == winning_types(after)

    def claim_actions(self, seat: int, discarder: int, tile: int) -> list[Action]:
        """Claims one seat may make on a discard: ron, pon, open kan, chi (rule H-05)."""
        p = self.players[seat]
        acts: list[Action] = []
        t = tile // 4
        # a tile that is not a wait is asked about only for a seat whose ability may have
        # always-winning tiles (otherwise _can_ron says no at once: a call saved per seat and
        # discard)
        if (t in p.waits() or (self.abilities and self._own_listeners("always_wins", seat))) \
                and self._can_ron(seat, tile):
            acts.append(_offer(_RON, seat, tile))
        last = self.wall.last_discard
        if p.riichi and not last and self.abilities and self._riichi_kan(p, t):
            same = tuple(sorted([x for x in p.concealed if x // 4 == t]))
            acts.append(_offer(_MINKAN, seat, tile, same))
        if p.riichi or last:  # rule K-03: no open calls on the last discard
            return acts
        held = p.held()
        if held[t] >= 2:
            same = tuple(sorted([x for x in p.concealed if x // 4 == t]))
            forbidden = kuikae_types(t, None)
            for pair in combinations(same, 2):  # distinct ids, in order
                if self._leaves_discard(p, pair, forbidden):
                    acts.append(_offer(_PON, seat, tile, pair))
            if len(same) == 3 and self._kan_room() and p.kans < 4:
                acts.append(_offer(_MINKAN, seat, tile, same))
        if self.n == 4 and seat == (discarder + 1) % 4:  # rule S-02: no chi with three
            if t < 27:
                acts.extend(self._chi_actions(p, tile))
            if p.shapes:
                acts.extend(self._shaped_chi(p, tile))
        return acts

    def _chi_actions(self, p: PlayerState, tile: int) -> list[Action]:
        t = tile // 4
        held = p.held()
        acts = []
        for lo, need_a, need_b in _CHI_PARTNERS[t]:
            if not (held[need_a] and held[need_b]):
                continue
            a = sorted([x for x in p.concealed if x // 4 == need_a])  # tile ids are unique
            b = sorted([x for x in p.concealed if x // 4 == need_b])
            forbidden = kuikae_types(t, lo)
            for x in a:
                for y in b:
                    if self._leaves_discard(p, (x, y), forbidden):
                        acts.append(_offer(_CHI, p.seat, tile, (x, y)))
        return acts

    @staticmethod
    def _leaves_discard(p: PlayerState, used: tuple[int, ...], forbidden: frozenset[int]) -> bool:
        """Whether the hand keeps a tile it may discard after a call using ``used`` (H-07)."""
        for x in p.concealed:
            if x // 4 not in forbidden and x not in used:
                return True
        return False

    def _can_ron(self, seat: int, tile: int, *, chankan: bool = False,
                 kokushi_only: bool = False, face_down: bool = False) -> bool:
        p = self.players[seat]
        waits = p.waits()
        complete = tile // 4 in waits
        always = bool(self.abilities) and not kokushi_only and (face_down or not complete) \
            and self._always_wins(seat, tile, p, waits, face_down=face_down, chankan=chankan)
        if not always and (face_down or not complete):  # rule C-13: face down, only always
            return False
        if (p.temp_furiten or p.riichi_furiten or p.discard_furiten(waits)
                or (self.abilities and self._always_furiten(p, waits))) and not any(
                a.ignores_furiten(p.riichi) for a in self.abilities if a.seat == seat):  # H-09
            return False
        ctx = self.win_context(seat, tile, tsumo=False, chankan=chankan)
        result = self._win_value(seat, ctx, self._discarder(seat), complete=complete)
        if result is None:
            return False
        if not self._win_allowed(seat, ctx, self._discarder(seat), result.yakuman):
            return False
        return not kokushi_only or any(n.startswith(KOKUSHI_NAME) for n in result.yaku_names())

    # ------------------------------------------------------------------ the loop

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
                self.log("draw", seat, tile, detail="rinshan" if draw_kind == "rinshan" else "")
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
                self.log("draw", seat, tile, detail="rinshan")
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
        self.log("draw", seat, tile, detail="kita")
        if self.abilities:
            self._after_draw(seat, tile, "kita")
        return None

    def _turn_choices(self, seat: int, drew: bool) -> None:
        """Choices the seat's abilities require before it acts (``turn_choices``): one is
        asked for each ability that offers some, then logged."""
        own = self._own_listeners("turn_choices", seat)
        if not own:
            return
        p = self.players[seat]
        view = OwnTurnView(seat, (), drew, p.riichi, p.turns, (), None, (),
                           tuple(self.scores))  # positional (see self_actions)
        for ability in own:
            offers = ability.turn_choices(view)
            if offers:
                choice = self.ask(seat, offers)
                ability.action_taken(choice)
                self.log("ability", seat, detail=f"{ability.name}: "
                         f"{choice.detail.split(':', 1)[1].replace(':', ' ')}",
                         tag=choice.tag, card=ability.name)

    def _forced_face_down(self, seat: int, tile: int) -> str | None:
        """The ability that forces this plain discard face down, if any (rule C-13)."""
        own = self._own_listeners("forced_face_down", seat)
        if not own:
            return None
        p = self.players[seat]
        view = OwnTurnView(seat, (tile,), p.drawn is not None, p.riichi, p.turns, ())
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

    def _kan_done(self, seat: int, meld: Meld, *, concealed: bool) -> None:
        p = self.players[seat]
        if not concealed and self.abilities and self._kans_closed(seat):
            p.melds[p.melds.index(meld)] = Meld(MeldKind.ANKAN, meld.tiles)
            concealed = True
            self.log("ability", seat, tiles=meld.tiles, detail="the kan becomes a closed kan")
        p.kans += 1
        self.kan_count += 1
        self._interrupt()
        self._flush_pending_dora()  # an earlier kan's indicator comes first; none if robbed
        if self.preset.kan_dora:
            if concealed or not self.preset.kan_dora_open_after_discard:  # rule K-05
                if self.wall.can_reveal():  # rule C-19: extra indicators may use them up
                    self.log("dora", tile=self.wall.reveal_indicator())
            else:
                self.pending_dora += 1

    def _flush_pending_dora(self) -> None:
        while self.pending_dora:
            self.pending_dora -= 1
            if self.wall.can_reveal():
                self.log("dora", tile=self.wall.reveal_indicator())

    def _interrupt(self) -> None:
        """Any call or kan: the first go-around is broken and ippatsu ends (rule K-01)."""
        self.uninterrupted = False
        for q in self.players:
            q.ippatsu = False

    def _offer_rob(self, kan_seat: int, tile: int, *, kokushi_only: bool, kita: bool = False
                   ) -> HandRecord | None:
        winners = []
        self.current_claim_from = kan_seat
        for s in self._others(kan_seat):
            robbing = [Action(ActionKind.RON, s, tile)] if self._can_ron(
                s, tile, chankan=not kita, kokushi_only=kokushi_only) else []
            if robbing and self.abilities:  # the claim filters may block a ron on the kan tile
                robbing = [a for a in self._filter_claims(s, kan_seat, tile, robbing, False,
                                                          True)  # a kan's tile
                           if a.kind == ActionKind.RON]
            if robbing:
                choice = self.ask(s, [robbing[0], Action(ActionKind.PASS, s)])
                if choice.kind == ActionKind.RON:
                    winners.append(s)
                    continue
            self._missed(s, tile)
        if not winners:
            return None
        return self._finish_ron(winners, kan_seat, tile, chankan=not kita)

    def _others(self, seat: int) -> tuple[int, ...]:
        return self._others_of[seat]

    def _missed(self, seat: int, tile: int) -> None:
        """A winning tile went by without a ron: furiten (rule H-09)."""
        p = self.players[seat]
        if tile // 4 in p.waits() or (self.abilities and self._own_listeners("always_wins", seat)
                                      and self._always_type(p, tile)):
            if p.riichi:
                p.riichi_furiten = True
            else:
                p.temp_furiten = True

    def _owner(self, seat: int, act: Action) -> AbilityHooks:
        return next(a for a in self.abilities if a.seat == seat and a.name == act.card)

    def _discard(self, seat: int, act: Action, face_down: str = "", unclaimable: str = ""
                 ) -> HandRecord | tuple[int, str]:
        """The seat discards (face down, or a repeat nobody may claim, when an ability says
        so: its name); the claims on the tile, then whose turn is next. Positional: compiled,
        called straight from C with the seat's state typed (hand.pxd)."""
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

        claims: dict[int, Action] = {}
        self.current_claim_from = seat
        others = self._others_of[seat]
        for s in others:
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
        if self.abilities:  # a ron an ability allows on an earlier discard
            late = self._late_ron(seat, tile)
            if late is not None:
                return late
            self._discard_passed(seat, tile)  # a swap with the discard, for example
        if unclaimable:  # a repeated discard: the seat draws a replacement, play goes on
            self._replacement_draw(seat)
            return (seat + 1) % self.n, "live"
        if self.abilities and self.wall.live_left and not p.riichi and self._own_listeners(
                "discard_actions", seat):
            view = self._discard_view(seat, tile, tsumogiri, after_call, bool(face_down))
            repeat = self._repeat_offer(seat, view)
            if repeat is not None:
                plain = Action(ActionKind.DISCARD, seat, repeat.tile)
                return self._discard(seat, plain, "", repeat.card)
        # rule C-15, decided here alone: no extra turn after an extra turn, a face-down
        # discard or the last live tile; the abilities say only whether the discard earns one
        earners = self._own_listeners("extra_turn", seat) if self.abilities and not was_extra \
            and not face_down and self.wall.live_left else []
        if earners:
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
                        return seat, "live"
                    ability.offer_declined(offer)
                    break
        return (seat + 1) % self.n, "live"

    def _four_winds(self) -> bool:
        if not (self.preset.abortive_draws and self.uninterrupted and self.discard_count == 4
                and all(q.discards for q in self.players)):  # an extra turn breaks the pattern
            return False
        first = {q.discards[0].tile // 4 for q in self.players if q.discards}
        return len(first) == 1 and first.pop() in WIND_TYPES

    def _call(self, seat: int, discarder: int, act: Action) -> tuple[int, str]:
        p = self.players[seat]
        tile = act.tile
        self._take_from_pond(tile)  # the last discard, or the pond tile of a priority call
        for x in act.tiles:
            p.concealed.remove(x)
        tiles = tuple(sorted((*act.tiles, tile)))
        kind = {ActionKind.CHI: MeldKind.CHI, ActionKind.PON: MeldKind.PON,
                ActionKind.MINKAN: MeldKind.MINKAN}[act.kind]
        meld = Meld(kind, tiles, tile, discarder)
        p.melds.append(meld)
        p.calls += 1
        self.record.seats[seat].calls += 1
        self.log(kind.value, seat, tile, tiles=tiles, detail=f"from P{discarder}",
                 source=discarder)
        self._interrupt()
        if kind == MeldKind.MINKAN:
            p.last_call = (kind.value, tile)
            self._flush_pending_dora()
            self._kan_done(seat, meld, concealed=False)
            self.last_kan_from = discarder
            if self.abilities:
                self._claim_made(seat, meld, discarder)
            return seat, "rinshan"
        p.kuikae = kuikae_types(tile // 4, tiles[0] // 4 if kind == MeldKind.CHI else None)
        if kind == MeldKind.CHI and p.shapes:
            p.kuikae = self._chi_kuikae(p, tile, act.tiles)
        p.last_call = (kind.value, tile)
        if self.abilities:
            self._claim_made(seat, meld, discarder)
        return seat, "none"

    # ------------------------------------------------------------------ endings

    def _score(self, seat: int, tile: int, *, tsumo: bool, rinshan: bool = False,
               chankan: bool = False) -> WinResult:
        ctx = self.win_context(seat, tile, tsumo=tsumo, rinshan=rinshan, chankan=chankan)
        modifiers = self._modifiers(seat, ctx, None if tsumo else self._discarder(seat))
        result = self._score_win(ctx, modifiers)
        if result is None and self.abilities:  # an always-winning tile on an incomplete hand
            result, note = value_always_winning(ctx, self.rules, modifiers)
            self.log("ability", seat, tile, detail=note, effect=AbilityEffect.POINTS)
        assert result is not None, "a win was offered that does not score"
        if modifiers != NO_MODIFIERS:
            plain = score_win(ctx, self.rules)
            base_han, base_points = (plain.han, plain.total) if plain else (0, 0)
            if (result.han, result.total) != (base_han, base_points):  # a trigger changes value
                names = self._scorers(seat, ctx, None if tsumo else self._discarder(seat))
                self.log("ability", seat, detail=f"scoring: {result.han - base_han:+d} han, "
                         f"{result.total - base_points:+d} points ({', '.join(names)})",
                         card=names[0] if names else "", effect=AbilityEffect.POINTS)
            if modifiers.ura_dora is not None or modifiers.extra_ura_indicators:
                self._ura_done.add(seat)  # an ability decides which ura indicators show
                riichi = ctx.riichi or ctx.double_riichi
                if self.rules.ura_dora and (riichi if modifiers.ura_dora is None
                                            else modifiers.ura_dora):
                    self.log("ura", seat, tiles=ctx.ura_indicators
                             + ctx.spare_ura[:modifiers.extra_ura_indicators])
        return result

    def reveal_hand(self, seat: int, by: str) -> None:
        """Through :class:`TableControls`: the seat's tiles become public for this hand."""
        self.revealed.add(seat)
        self._revealed_by.setdefault(seat, set()).add(by)
        self.log("ability", seat, detail=f"{by}: hand revealed, played face up", card=by)

    def hide_hand(self, seat: int, by: str) -> None:
        """Through :class:`TableControls`: the seat's tiles are hidden again, unless another
        ability still reveals them."""
        sources = self._revealed_by.get(seat, set())
        if by not in sources:
            return
        sources.discard(by)
        self.log("ability", seat, detail=f"{by}: hand hidden again", card=by,
                 effect=AbilityEffect.BOOKKEEPING)
        if not sources:
            self.revealed.discard(seat)

    def show_types(self, seat: int, types: frozenset[int], by: str) -> None:
        """Through :class:`TableControls`: the seat's tiles of these types stay face up."""
        self.shown_types[seat] = self.shown_types.get(seat, frozenset()) | types
        shown = " ".join([type_to_str(t) for t in sorted(types)])
        self.log("ability", seat, detail=f"{by}: tiles {shown} kept face up", card=by,
                 effect=AbilityEffect.BOOKKEEPING)

    def shown_tiles(self, seat: int) -> tuple[int, ...]:
        """The seat's concealed tiles lying face up now: all of them when the hand is revealed,
        else those of the types it must show and single tiles shown (while it holds them)."""
        concealed = self.players[seat].concealed
        if seat in self.revealed:
            return tuple(concealed)
        types = self.shown_types.get(seat, _NO_TYPES)
        ids = self.shown_ids.get(seat, ())
        return tuple([x for x in concealed if x // 4 in types or x in ids]) if types or ids else ()

    def transfer(self, payer: int, payee: int, points: int, by: str, what: str) -> None:
        """Through :class:`TableControls`: points paid between two seats during the hand."""
        self.scores[payer] -= points
        self.scores[payee] += points
        self.log("ability", payee, detail=f"{by}: {what}: P{payer} pays {points}, "
                 f"{points:+d} points", card=by, effect=AbilityEffect.POINTS)

    def _always_wins(self, seat: int, tile: int, p: PlayerState, waits: frozenset[int], *,
                     face_down: bool, chankan: bool) -> bool:
        """Whether one of the seat's abilities makes this discarded tile win whatever the
        hand's shape (asked of every seat at every discard: no view is built when none of its
        abilities has always-winning tiles)."""
        own = self._own_listeners("always_wins", seat)
        if not own:
            return False
        # seat, tile, tsumo, in_riichi, rinshan, face_down, last, waits, closed: positional
        # (see self_actions)
        view = WinTileView(seat, tile, False, p.riichi, False, face_down,
                           self.wall.at_last_tile and not chankan, waits, p.is_closed)
        return _any_always_wins(own, view)

    def _always_wins_drawn(self, p: PlayerState, rinshan: bool) -> bool:
        """Whether the seat's drawn tile, which does not complete the hand, is an
        always-winning tile; the waits before the draw are worked out only for a seat whose
        ability has such tiles."""
        own = self._own_listeners("always_wins", p.seat)
        if not own:
            return False
        view = WinTileView(p.seat, p.drawn, True, p.riichi, rinshan=rinshan,
                           last=self.wall.at_last_tile and not rinshan,
                           waits=p.waits_before_draw(), closed=p.is_closed)
        return _any_always_wins(own, view)

    def _always_type(self, p: PlayerState, tile: int) -> bool:
        """Whether this tile's type is always a winning tile for the seat now (a missed one
        makes the seat furiten as a missed wait does)."""
        own = self._own_listeners("always_wins", p.seat)
        if not own:
            return False
        view = WinTileView(p.seat, tile, False, p.riichi, False, False, False, p.waits(),
                           p.is_closed, True)  # positional (see _always_wins)
        return _any_always_wins(own, view)

    def _always_furiten(self, p: PlayerState, waits: frozenset[int]) -> bool:
        """Furiten from always-winning tiles (rule H-09 applied to them): a tile type in the
        seat's own face-up pond that its ability makes a winning tile now."""
        own = self._own_listeners("always_wins", p.seat)
        if not own:
            return False
        asked: set[int] = set()
        for d in p.discards:
            t = d.tile // 4
            if d.face_down or t in asked:  # rule C-13: face-down tiles are no furiten
                continue
            asked.add(t)
            view = WinTileView(p.seat, d.tile, False, p.riichi, waits=waits,
                               closed=p.is_closed, furiten_probe=True)
            if _any_always_wins(own, view):
                return True
        return False

    def _win_value(self, seat: int, ctx: WinContext, discarder: int | None, *,
                   complete: bool) -> WinResult | None:
        """A possible win's value: as a complete hand, else (an always-winning tile) by
        :func:`score_always_winning`; None when it does not score."""
        modifiers = self._modifiers(seat, ctx, discarder)
        result = self._score_win(ctx, modifiers) if complete else None
        if result is None and self.abilities and not complete:
            result = score_always_winning(ctx, self.rules, modifiers)
        return result

    def _score_win(self, ctx: WinContext, modifiers: ScoringModifiers) -> WinResult | None:
        """:func:`score_win`, remembering the last win valued: a win is valued when it is
        offered and again when it is declared, with the same context and modifiers."""
        last = self._last_valued
        if last is not None and last[0] == ctx and last[1] == modifiers:
            return last[2]
        result = score_win(ctx, self.rules, modifiers)
        self._last_valued = (ctx, modifiers, result)
        return result

    def _modifiers(self, seat: int, ctx: WinContext, discarder: int | None) -> ScoringModifiers:
        """Every ability's scoring hook for this win, merged (no abilities: no modifiers)."""
        if not self.abilities:
            return NO_MODIFIERS
        modifiers = scoring_modifiers(self.abilities, self._win_view(seat, ctx, discarder))
        shapes = self.players[seat].shapes  # readings with the seat's extra sequences count
        return replace(modifiers, extra_sequences=shapes.extra_sequences,
                       alias=shapes.alias) if shapes else modifiers

    def _scorers(self, seat: int, ctx: WinContext, discarder: int | None) -> list[str]:
        """The abilities whose scoring hook acts on this win (to name them in the log)."""
        view = self._win_view(seat, ctx, discarder)
        return [a.name for a in self.abilities
                if (m := a.scoring(view)) is not None and m != NO_MODIFIERS]

    def _win_view(self, seat: int, ctx: WinContext, discarder: int | None) -> WinView:
        declared = {q.seat: d.order for q in self.players if q.riichi_accepted
                    for d in q.discards if d.riichi}
        riichi = tuple(sorted(declared, key=declared.get))
        return WinView(seat, ctx, discarder, tuple(self.scores), self.dealer, riichi,
                       table_points=1000 * self.sticks, stakes=self.stakes,
                       melds=tuple([tuple(q.melds) for q in self.players]),
                       seen=self._seen_by(seat, ctx.win_tile),
                       ponds=self._pond_tiles(True))

    def _seen_by(self, seat: int, win_tile: int) -> tuple[int, ...]:
        """Type counts a seat could see before this win: its own tiles, every meld, face-up
        discards and dora indicators (the winning tile itself left out)."""
        tiles = [x for x in self.players[seat].concealed if x != win_tile]
        for q in self.players:
            tiles.extend(x for m in q.melds for x in m.tiles)
            tiles.extend([d.tile for d in q.discards if not d.face_down and not d.called
                         and d.tile != win_tile])
        tiles.extend(self.wall.dora_indicators)
        return tuple(counts34(tiles))

    def _discarder(self, seat: int) -> int | None:
        """The seat whose tile is being claimed: the last seat that discarded or declared a kan."""
        return self.current_claim_from

    def _ura(self, seat: int) -> None:
        if self.players[seat].riichi and self.rules.ura_dora and seat not in self._ura_done:
            self.log("ura", seat, tiles=self.wall.ura_indicators)

    def _pao_seat(self, seat: int, result: WinResult) -> int | None:
        """Who fed the third dragon or fourth wind set of a yakuman (rule M-08)."""
        if not self.preset.pao or not result.pao_yakuman:
            return None
        melds = self.players[seat].melds
        for name, types in _PAO_SETS:
            if name not in result.pao_yakuman:
                continue
            sets = [m for m in melds if m.tiles[0] // 4 in types and m.kind != MeldKind.CHI]
            if len(sets) == len(types) and sets[-1].is_open:
                return sets[-1].from_seat
        return None

    def _finish_tsumo(self, seat: int, rinshan: bool) -> HandRecord:
        p = self.players[seat]
        if self.abilities and self._chombo_winner([seat], None, p.drawn, tsumo=True) is not None:
            return self._chombo(seat, "an illegal tsumo")
        result = self._score(seat, p.drawn, tsumo=True, rinshan=rinshan)
        self._ura(seat)
        honba = self.honba
        pao = self._pao_seat(seat, result)
        fed = self.last_kan_from if (rinshan and self.preset.pao_rinshan) else None
        pay = [0] * self.n
        ron_honba = 100 * (self.n - 1) * honba  # 300 a count; 200 with three players (S-06)
        if pao is not None:  # the feeder pays the whole tsumo (as Tenhou settles it)
            total = result.ron_points + ron_honba
            pay[pao] += total
        elif fed is not None:  # rule K-06: rinshan off a fed open kan is paid as a ron
            pay[fed] += result.ron_points + ron_honba
        else:
            for s in self._others(seat):
                pay[s] += self._tsumo_share(seat, s, result) + 100 * honba
        win = self._win_record(seat, seat, result, pao if pao is not None else fed)
        self.log("tsumo", seat, p.drawn, detail=self._win_text(win))
        self._settle("tsumo", seat, seat, result,
                     [(s, seat, pay[s]) for s in range(self.n) if pay[s]])
        for s in self._others(seat):
            if pay[s]:
                self.record.seats[s].outcome = (Outcome.PAID_TSUMO if pao is None and fed is None
                                                else Outcome.PAO)
        self.record.seats[seat].outcome = Outcome.TSUMO_WIN
        self.record.wins.append(win)
        return self._close(dealer_continues=seat == self.dealer)

    def _finish_ron(self, winners: list[int], discarder: int, tile: int, *,
                    chankan: bool = False) -> HandRecord:
        chombo = self._chombo_winner(winners, discarder, tile, chankan=chankan)
        if chombo is not None:
            return self._chombo(chombo, f"an illegal ron off P{discarder}")
        shares = table_shares(1000 * self.sticks + self.stakes, len(winners),
                              self.preset.multi_ron_sticks)
        for i, seat in enumerate(winners):  # winners in turn order after the discarder
            result = self._score(seat, tile, tsumo=False, chankan=chankan)
            self._ura(seat)
            # rule H-11 options: honba to each winner, or to the nearest only (Tenhou)
            honba = self.honba if i == 0 or self.preset.multi_ron_honba == "each" else 0
            honba *= self.n - 1  # 300 a count; 200 with three players (S-06)
            pao = self._pao_seat(seat, result)
            if pao is not None and pao != discarder:  # rule M-08: feeder and discarder split
                half = result.ron_points // 2
                transfers = [(pao, seat, half),
                             (discarder, seat, result.ron_points - half + 100 * honba)]
                self.record.seats[pao].outcome = Outcome.PAO
            else:
                pao = None
                transfers = [(discarder, seat, result.ron_points + 100 * honba)]
            win = self._win_record(seat, discarder, result, pao)
            self.log("ron", seat, tile, detail=f"off P{discarder} " + self._win_text(win),
                     source=discarder)
            # sticks (and stakes) to the winner nearest the discarder, or shared out
            self._settle("ron", seat, discarder, result, transfers, collects=shares[i] > 0
                         or i == 0, table=shares[i] if len(winners) > 1 else None)
            self.record.wins.append(win)
            self.record.seats[seat].outcome = Outcome.RON_WIN
        self.record.seats[discarder].outcome = Outcome.DEALT_IN
        if self.preset.multi_ron_renchan == "nearest-winner":
            return self._close(dealer_continues=winners[0] == self.dealer)
        return self._close(dealer_continues=self.dealer in winners)

    def _win_record(self, seat: int, from_seat: int, r: WinResult, pao: int | None) -> WinRecord:
        # A tsumo that one player settles (pao, K-06 rinshan) is paid at its ron value.
        single_payer = seat != from_seat or pao is not None
        return WinRecord(seat=seat, from_seat=from_seat, han=r.han, fu=r.fu, points=r.ron_points
                         if single_payer else self._tsumo_total(seat, r), yaku=r.yaku,
                         dora=r.dora, aka=r.aka, ura=r.ura, limit=r.limit, yakuman=r.yakuman,
                         pao_seat=pao)

    def _tsumo_total(self, seat: int, r: WinResult) -> int:
        if self.n == 4:
            if seat == self.dealer:
                return 3 * r.tsumo_nondealer
            return r.tsumo_dealer + 2 * r.tsumo_nondealer
        return sum(self._tsumo_share(seat, s, r) for s in self._others(seat))

    def _tsumo_share(self, seat: int, payer: int, r: WinResult) -> int:
        """What one seat pays on a tsumo, honba aside. Four players: the dealer's or a
        non-dealer's share. Three (rule S-06): the same shares, the missing seat's lost
        ("tsumo-loss", Tenhou), or split evenly between the two payers in hundreds rounded up
        ("split")."""
        base = r.tsumo_dealer if payer == self.dealer else r.tsumo_nondealer
        if self.n == 4 or self.preset.tsumo_payment == "tsumo-loss":
            return base
        return base + -(-r.tsumo_nondealer // 200) * 100

    @staticmethod
    def _win_text(w: WinRecord) -> str:
        value = f"yakuman x{w.yakuman}" if w.yakuman else f"{w.han} han {w.fu} fu"
        yaku = ", ".join([n for n, _ in w.yaku])
        return f"{value} {w.points} ({yaku})"

    def _tenpai(self, seat: int) -> bool:
        return bool(self.players[seat].waits()) and not self._dead_hand(seat)  # rule C-20

    def _exhaustive_draw(self) -> HandRecord:
        """Rule H-12 payments, or nagashi mangan (rule M-05)."""
        seats = range(self.n)
        tenpai = [self._tenpai(s) for s in seats]
        nagashi = [s for s in seats if self.preset.nagashi_mangan and self._is_nagashi(s)]
        pay = [0] * self.n
        if nagashi:
            for s in nagashi:
                for o in self._others(s):
                    amount = 4000 if (s == self.dealer or o == self.dealer) else 2000
                    pay[o] -= amount
                    pay[s] += amount
        else:
            n = sum(tenpai)
            if 0 < n < self.n:
                total = self.preset.noten_payment
                for s in seats:
                    pay[s] = total // n if tenpai[s] else -total // (self.n - n)
        if self.abilities:  # the same payments as transfers the draw-payment hooks may adjust
            pay = self._draw_settlement(tenpai, nagashi)
        for s in seats:
            self.scores[s] += pay[s]
            rec = self.record.seats[s]
            rec.outcome = Outcome.NAGASHI if s in nagashi else (
                Outcome.DRAW_TENPAI if tenpai[s] else Outcome.DRAW_NOTEN)
        self.log("draw_end", detail="exhaustive; tenpai: "
                 + (", ".join([f"P{s}" for s in seats if tenpai[s]]) or "nobody"))
        self.record.draw_kind = "nagashi_mangan" if nagashi else "exhaustive"
        self._return_deposits()
        return self._close(dealer_continues=tenpai[self.dealer])

    def _is_nagashi(self, seat: int) -> bool:
        d = self.players[seat].discards
        return bool(d) and all(is_terminal_or_honor_type(x.tile // 4) and not x.called for x in d)

    def _return_deposits(self) -> None:
        """Rule H-12 (single-hand preset): unclaimed riichi deposits go back to their owners."""
        if not self.preset.return_deposits_on_draw or not self.sticks:  # or an ability took them
            return
        for s, p in enumerate(self.players):
            if p.riichi_accepted:
                self.scores[s] += 1000
                self.sticks -= 1

    def _draw_settlement(self, tenpai: list[bool], nagashi: list[int]) -> list[int]:
        """An exhaustive draw's payments through the ``draw_payments`` hooks, as deltas (sticks
        and stakes the hooks hand out included). A riichi hand left noten (only an ability can
        do that) is chombo instead: it pays a reverse mangan (rule C-20)."""
        ready = tuple(tenpai)
        chombo = [s for s in range(self.n) if self.players[s].riichi_accepted and not tenpai[s]]
        total = self.preset.noten_payment
        transfers: list[Transfer] = []
        if chombo:
            for s in chombo:
                transfers.extend(self._reverse_mangan(s))
                self.log("chombo", s, detail="riichi hand noten at the draw: reverse mangan")
        elif nagashi:
            for s in nagashi:
                transfers.extend([(o, s, 4000 if self.dealer in (s, o) else 2000)
                                 for o in self._others(s)])
        else:
            transfers = noten_transfers(ready, frozenset(range(self.n)), total)
        base = None if (chombo or nagashi) else (
            lambda seats: noten_transfers(ready, seats, total))
        table = 1000 * self.sticks + self.stakes
        settlement = self._settlement("exhaustive", None, None, None, transfers, None, ready, base)
        for ability in self.abilities:
            ability.draw_payments(settlement)
        return self._collect(settlement.deltas(self.scores, table), settlement.table_to)

    def _reverse_mangan(self, seat: int) -> list[Transfer]:
        """A chombo's penalty (rule C-20): a mangan paid to the others as if by tsumo (a
        non-dealer pays 4,000 to the dealer and 2,000 to the others, a dealer 4,000 to each)."""
        return [(seat, o, 4000 if self.dealer in (seat, o) else 2000) for o in self._others(seat)]

    def _chombo(self, seat: int, what: str) -> HandRecord:
        """A declared win that is illegal (rule C-20: normal chombo rules): the seat pays a
        reverse mangan and the hand is played again by the same dealer (the sticks stay on the
        table; rule K-12: the counter is not raised)."""
        self.log("chombo", seat, detail=f"{what}: reverse mangan")
        for payer, payee, points in self._reverse_mangan(seat):
            self.scores[payer] -= points
            self.scores[payee] += points
        self.record.draw_kind = "chombo"
        for rec in self.record.seats:
            rec.outcome = Outcome.ABORTIVE
        return self._close(dealer_continues=True)

    def _settlement(self, kind: str, winner: int | None, from_seat: int | None,
                    result: WinResult | None, transfers: list[Transfer],
                    collector: int | None, tenpai: tuple[bool, ...] = (),
                    base: Callable[[frozenset[int]], list[Transfer]] | None = None) -> Settlement:
        win_tile = next((e.tile for e in reversed(self.events) if e.kind in ("tsumo", "ron")),
                        None) if winner is not None else None
        view = SettlementView(
            kind=kind, winner=winner, from_seat=from_seat, result=result, honba=self.honba,
            dealer=self.dealer, scores=tuple(self.scores),
            table_points=1000 * self.sticks + self.stakes, tenpai=tenpai,
            riichi=tuple([q.riichi_accepted for q in self.players]),
            hands=tuple([tuple(q.concealed) for q in self.players]), visible=self._visible(),
            events=tuple(self.events), win_tile=win_tile)
        return Settlement(view, transfers, collector, base,
                          log=lambda seat, text, card="", tag=None, effect=None: self.log(
                              "ability", seat, detail=text, tag=tag, card=card, effect=effect))

    def _settle(self, kind: str, winner: int, from_seat: int, result: WinResult,
                transfers: list[Transfer], *, collects: bool = True,
                table: int | None = None) -> None:
        """Pay one win: the rules' transfers as the ``payments`` hooks adjust them (without
        abilities, exactly the rules' payments); the collector takes the sticks and stakes
        (``table``: only that share of them, for one of several rons)."""
        if table is None:
            table = 1000 * self.sticks + self.stakes
        collector = winner if collects else None
        if not self.abilities:
            deltas = [0] * self.n
            for payer, payee, points in transfers:
                deltas[payer] -= points
                deltas[payee] += points
            if collector is not None:
                deltas[collector] += table
        else:
            settlement = self._settlement(kind, winner, from_seat, result, transfers, collector)
            for ability in self.abilities:
                ability.payments(settlement)
            deltas = settlement.deltas(self.scores, table)
            collector = settlement.table_to
        for s, d in enumerate(self._collect(deltas, collector)):
            self.scores[s] += d

    def _collect(self, deltas: list[int], collector: int | None) -> list[int]:
        """The table is empty once someone collected it."""
        if collector is not None:
            self.sticks = 0
            self.stakes = 0
        return deltas

    def _visible(self) -> tuple[int, ...]:
        """Tiles every seat can see: face-up discards not called, meld tiles, dora indicators."""
        tiles: list[int] = []
        for q in self.players:
            tiles.extend(x for m in q.melds for x in m.tiles)
            tiles.extend([d.tile for d in q.discards if not d.face_down and not d.called])
        tiles.extend(self.wall.dora_indicators)
        return tuple(tiles)

    def stake(self, seat: int, points: int, by: str, what: str) -> int:
        """Through :class:`TableControls`: points put on the table, at most what the seat has
        (rule C-18); the next winner collects them with the sticks."""
        amount = max(0, min(points, self.scores[seat]))
        self.scores[seat] -= amount
        self.stakes += amount
        self.log("ability", seat, detail=f"{by}: stake: {what}: stakes {amount} of {points} "
                 f"points, {-amount:+d} points", card=by, effect=AbilityEffect.POINTS)
        return amount

    def reveal_extra_dora(self, seat: int, count: int, by: str) -> int:
        """Through :class:`TableControls`: more dora indicators now (rule C-19)."""
        shown = 0
        while shown < count and self.wall.can_reveal():
            self.log("dora", tile=self.wall.reveal_indicator())
            shown += 1
        self.log("ability", seat, detail=f"{by}: riichi: {shown} more dora indicators revealed",
                 card=by)
        return shown

    def tsumo_value(self, seat: int) -> int:
        """The most a tsumo on the seat's hand would be worth now, abilities included (0 when
        it is not tenpai or no tsumo would score)."""
        best = self._best_tsumo(seat)
        if best is None:
            return 0
        return best.total if self.n == 4 else self._tsumo_total(seat, best)  # S-06

    def tsumo_shares(self, seat: int) -> tuple[int, ...]:
        """What each seat would pay on the seat's most valuable tsumo now (0 for the seat
        itself; all 0 when no tsumo would score)."""
        best = self._best_tsumo(seat)
        if best is None:
            return (0,) * self.n
        return tuple([0 if s == seat else self._tsumo_share(seat, s, best) for s in range(self.n)])

    def _best_tsumo(self, seat: int) -> WinResult | None:
        p = self.players[seat]
        if len(p.concealed) % 3 != 1:
            return None
        best: WinResult | None = None
        for t in sorted(p.waits()):
            tile = next((x for x in sorted(range(4 * t, 4 * t + 4), key=RED_FIVE_IDS.__contains__)
                         if x not in p.concealed), None)  # a plain copy before a red five
            if tile is None:
                continue
            hand = [*p.concealed, tile]
            ctx = self.win_context(seat, tile, tsumo=True, concealed=hand)
            result = score_win(ctx, self.rules, self._modifiers(seat, ctx, None))
            if result is not None and (best is None or result.total > best.total):
                best = result
        return best

    def _abort(self, kind: str) -> HandRecord:
        self.log("abort", detail=kind)
        self.record.draw_kind = kind
        for s in range(self.n):
            self.record.seats[s].outcome = Outcome.ABORTIVE
        if self.abilities:  # an abortive draw is a draw too: only the hooks move points
            table = 1000 * self.sticks + self.stakes
            settlement = self._settlement(kind, None, None, None, [], None)
            for ability in self.abilities:
                ability.draw_payments(settlement)
            for s, d in enumerate(self._collect(settlement.deltas(self.scores, table),
                                                settlement.table_to)):
                self.scores[s] += d
        self._return_deposits()
        return self._close(dealer_continues=True)

    def _close(self, *, dealer_continues: bool) -> HandRecord:
        rec = self.record
        rec.dealer_continues = dealer_continues
        if self.abilities:
            view = HandEndView(rec, tuple(self.scores), self.tsumo_value, self.tsumo_shares)
            controls = TableControls(self)
            for ability in self.abilities:
                ability.hand_end(view, controls)
        rec.sticks_end = self.sticks
        rec.stakes_end = self.stakes
        for s, p in enumerate(self.players):
            seat = rec.seats[s]
            seat.end_score = self.scores[s]
            seat.turns = p.turns
            seat.kans = p.kans
            if len(p.concealed) % 3 == 1:
                seat.tenpai_at_end = self._tenpai(s)
            else:
                seat.tenpai_at_end = seat.outcome == Outcome.TSUMO_WIN
        return rec


__all__ = ["HandStart", "HandState", "IllegalActionError", "play_hand"]


def play_hand(start: HandStart, preset: Preset, agents: list[Agent],
              abilities: Sequence[AbilityHooks | None] = ()) -> HandRecord:
    """Play one deal from its starting state with the given agents (and seats' abilities)."""
    state = HandState(start, preset, agents, abilities)
    try:
        return state.play()
    finally:
        state.release_abilities()
