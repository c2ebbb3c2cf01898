"""A heuristic bot that plays like a decent human: efficient, value-aware, and able to fold.

Each discard is scored as expected gain: the chance this hand wins after the discard times its
value, minus the chance the tile deals in times what the threatening hands are worth. With no
threat on the table this reduces to tile efficiency (shanten, then acceptance) with value kept
(dora, red fives, value honors, the yaku an open hand relies on), and with what the hand's card
rewards or punishes in tile choices (its tile incentives, :mod:`pipeline.cards.incentives`: a
worth per tile type, dora weighed as the card counts them, Kuro's guard on her dora). Calls are
taken when they speed up a hand that keeps a yaku and shows enough han (dora as the card
counts them, less what the card gives only a closed hand); riichi unless a scoring hand with a good
wait prefers to stay quiet (or would lock a declared yakuhai out).
It never declares a win marked as a chombo (Ryuuka's ron with menzen tsumo declared) and never
takes, by a meld swap (Yumi), a sequence only another character may build: either costs a
reverse mangan or leaves a hand that cannot win (rule C-20), for nothing in return.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its decorators do nothing (pipeline/_cython.py)
    from pipeline import _cython as cython

import random
from collections.abc import Sequence

from pipeline.bots.choices import card_step_policy, keep_chosen
from pipeline.bots.danger import (
    cleared_types,
    safe_types,
    shown_families,
    tile_danger,
    winning_types,
)
from pipeline.bots.evaluate import (
    acceptance,
    all_simples,
    discard_acceptance,
    dora_types,
    estimate_han,
    flush_suit,
    open_direction,
    points_for,
    value_types,
    winning_outs,
    yaku_path,
)
from pipeline.bots.pick import card_incentives, choose, effect_kinds, ranking, side_incentives
from pipeline.bots.pick_offsets import weighted_offsets
from pipeline.bots.shanten import discard_shanten, shanten, visible_counts
from pipeline.bots.shaped import (
    extra_sequences,
    shaped_acceptance,
    shaped_discard_acceptance,
    shaped_discard_shanten,
    shaped_shanten,
)
from pipeline.bots.style import BotStyle, style
from pipeline.cards.declarations import CLOSED_ONLY
from pipeline.cards.effects.dora_both_ways import previous_type
from pipeline.cards.effects.meld_swap import standard
from pipeline.cards.incentives import FAMILY_OF_TYPE, TileIncentives
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, Meld, MeldKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import kuikae_types
from pipeline.rules.hooks import PickView
from pipeline.tiles import (
    NORTH_TYPE,
    NUM_TYPES,
    RECENT_MEMO,
    RED_FIVE_IDS,
    RED_FIVE_SET,
    TERMINAL_HONOR_TYPES,
    counts34,
    dora_from_indicator,
)

EXACT_SHANTEN = 1
# Calibrated against Tenhou top-room rates: a style's aggression of 1 means this much weight on
# the bot's own hand value against the danger of a tile (see `saki bots calibrate`).
# Expected deal-in cost (points) above which a face-down discard is worth spending.
FACE_DOWN_MIN_DANGER = 100
BASE_AGGRESSION = 1.8
# A riichi player is already waiting: a hand two or more steps from tenpai seldom wins that race
# and has more unsafe tiles to pass before it gets there, so its chance counts this much.
FAR_VS_RIICHI = 0.25
# Riichi declared with a stake (an ability's choice): only this early, and with these points.
STAKE_RIICHI_MIN_TILES = 24
# A character whose damaten pays (Hiroe: no payment for others' tsumo, higher players' ippatsu
# draws win for her) stays dama with a yaku that needs no riichi and this many winning tiles.
DAMA_CARD = "dama_protection"
DAMA_MIN_OUTS = 2
STAKE_RIICHI_MIN_POINTS = 15000
_DISCARD, _RIICHI, _ABILITY = ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.ABILITY
_PASS = ActionKind.PASS
_NINE, _ANKAN, _KAKAN = ActionKind.NINE_TERMINALS, ActionKind.ANKAN, ActionKind.KAKAN
_TSUMO, _RON = ActionKind.TSUMO, ActionKind.RON
_PON, _CHI, _MINKAN = ActionKind.PON, ActionKind.CHI, ActionKind.MINKAN
_KITA = ActionKind.KITA
# Three players: what a riichi would cost to deal into, before the dora shown. A non-dealer
# riichi ron with three is about 6,000 without nukidora and 2,000 more for each Norths set
# aside (Tenhou houou figures in "Data de katsu sannin mahjong", ch. 14); kita are public.
SANMA_RIICHI_VALUE = 6500
# The chance that a threat's hand goes on to win, for what a card pays its holder per tile of
# that hand's waits she holds (TileIncentives.held_wait_points): about half of riichi hands win.
THREAT_WIN_SHARE = 0.5
SANMA_KITA_VALUE = 2000


@cython.ccall
def _seats(obs: Observation) -> int:
    """Seats at the table (4, or 3: S-01); an observation that does not say has four."""
    return getattr(obs, "players", 4)


@cython.ccall
def _sanma(obs: Observation) -> bool:
    """Whether the table plays three-player rules (S-01, S-05)."""
    return getattr(obs, "sanma", False)
# A known tile drawn instead of the wall's when it widens a hand near tenpai by this many tiles.
KNOWN_DRAW_MIN_GAIN = 4
# Call appetite from which a value-honor pair with a copy left backs a call (the yaku comes
# with the pair's set), and each appetite from which a tanyao or flush call may leave one more
# stray tile to shed. Calibrated with `saki bots calibrate`: the default style calls about as
# often as Tenhou's top room.
BACKING_APPETITE = 1.0
WIDER_CALLS_APPETITES = (1.0, 1.3)
# The effect kind that lets a hand win, and so call, without a yaku.
WINS_WITHOUT_YAKU = "win_without_yaku"
# Stray tiles a hand may still hold on the way to a flush a card keeps at its closed value.
FLUSH_STRAYS = 1
DEAD_MELD_GAIN = 10.0  # a meld swap that takes a dead sequence out of her hand (rule C-20)
CHOMBO = AbilityTag.CHOMBO  # a win the engine would penalise as a chombo (rule C-20)
# face-up hands' threats by what they were read from (HeuristicBot._face_up_threat)
_FACE_UP_KEPT: dict[tuple, Threat | None] = {}
# the tile types of each family a card may name (Move.FAMILY's payload)
_FAMILY_TYPES = {"man": range(0, 9), "pin": range(9, 18), "sou": range(18, 27),
                 "honors": range(27, 34)}


@cython.cclass
class Sight:
    """The tiles one seat can see, counted on first use: a discard far from tenpai with no
    threat on the table needs none."""

    __slots__ = ("_obs", "_visible", "_unseen")

    def __init__(self, obs: Observation) -> None:
        self._obs = obs
        self._visible: list[int] | None = None
        self._unseen: list[int] | None = None

    @property
    def visible(self) -> list[int]:
        if self._visible is None:
            self._visible = visible_counts(self._obs)
        return self._visible

    @property
    def unseen(self) -> list[int]:
        if self._unseen is None:
            self._unseen = [4 - v for v in self.visible]
        return self._unseen


@cython.cclass
class Threat:
    """An opponent that may be ready to win: its seat, how likely it is ready (riichi = 1),
    what a deal-in would cost, the types that cannot deal in to it, its exact winning types when
    its hand lies face up, and the types its face-up family tiles rule out."""

    # slots, and an extension type where compiled (``@cython.cclass``): threats are read at every
    # decision under a threat
    __slots__ = ("seat", "weight", "value", "safe", "waits", "cleared")

    def __init__(self, seat: int, weight: float, value: int, safe: set[int],
                 waits: frozenset[int] | None = None, cleared: frozenset[int] = frozenset()
                 ) -> None:
        self.seat = seat
        self.weight = weight
        self.value = value
        self.safe = safe
        self.waits = waits
        self.cleared = cleared

    def _fields(self) -> tuple[object, ...]:
        return self.seat, self.weight, self.value, self.safe, self.waits, self.cleared

    def __eq__(self, other: object) -> bool:
        """Field by field: what the bot keeps between decisions is checked against what it
        reads afresh (``tests/bots/test_bot_kept.py``)."""
        if not isinstance(other, Threat):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        seat, weight, value, safe, waits, cleared = self._fields()
        return (f"Threat(seat={seat!r}, weight={weight!r}, value={value!r}, safe={safe!r}, "
                f"waits={waits!r}, cleared={cleared!r})")


def _open_threat(melds: Sequence[Meld], obs: Observation) -> int:
    """A seat not in riichi threatens with three open melds, or two late in the hand: its
    open melds when they do, else 0 (one test for the threats and for whether there is one)."""
    if len(melds) < 2:
        return 0
    n_open = 0
    for m in melds:
        if m.is_open:
            n_open += 1
    return n_open if n_open >= 3 or (n_open == 2 and obs.tiles_left < 20) else 0


def _exchange_worth(c: list[int], nm: int, obs: Observation, kept: list[list[int]]
                    ) -> tuple[int, int]:
    """A hand's shanten and, one step from tenpai or closer, its acceptance (none is worked
    out beyond). ``kept`` holds the unseen counts once a hand needs them. A module function,
    not a closure: a compiled closure keeps its own scope, and the observation in it, in a
    cycle only the garbage collector frees."""
    if sum(c) % 3 == 2:
        after = discard_shanten(c, nm)
        sh = min(after.values())
        if sh > 1:
            return sh, 0
        keep = [t for t, v in after.items() if v == sh]
        wide = max(discard_acceptance(c, nm, keep, _unseen_kept(obs, kept)).values(),
                   default=0)
    else:
        sh = shanten(c, nm)
        if sh > 1:
            return sh, 0
        wide = acceptance(c, nm, _unseen_kept(obs, kept))
    return sh, wide


def _unseen_kept(obs: Observation, kept: list[list[int]]) -> list[int]:
    """The unseen counts, worked out the first time a hand of the choice needs them."""
    if not kept:
        kept.append([4 - v for v in visible_counts(obs)])
    return kept[0]


@cython.ccall
@cython.returns(cython.bint)
def _closed(melds: Sequence[Meld]) -> bool:
    """No open meld (closed kans kept): a loop, not all(...), since a compiled generator is
    an object made at every decision."""
    for m in melds:
        if m.is_open:
            return False
    return True


@cython.ccall
@cython.locals(sh=cython.int, accept=cython.double, draws_left=cython.int, players=cython.int,
               turns=object, per_turn=object)
@cython.returns(cython.double)
def win_chance(sh: int, accept: int, draws_left: int, players: int = 4) -> float:
    """Rough chance that a hand at this shanten and acceptance wins before the wall runs out
    (``players`` share the draws)."""
    turns = max(0, draws_left) / players
    if sh < 0:
        return 1.0
    if sh == 0:
        per_turn = min(0.5, accept / 30)  # own draw plus three discards to ron
        return min(0.85, 1 - (1 - per_turn) ** turns) if accept else 0.0
    if sh == 1:
        return min(0.6, accept / 40) * min(1.0, turns / 8)
    if sh == 2:
        return 0.25 * min(1.0, turns / 12)
    return 0.03 * min(1.0, turns / 14)


@cython.ccall
@cython.locals(t=cython.int, c=cython.int, n=cython.int, d=cython.int, link=cython.double,
               w=cython.double)
@cython.returns(cython.double)
def connectivity_accept(counts: Sequence[int], t: int) -> float:
    """A cheap stand-in for acceptance far from tenpai: the less a tile connects to the rest of
    the hand, the more the hand keeps by letting it go. ``counts`` still holds ``t``."""
    c = counts[t] - 1
    if t >= 27:
        link = 3.0 * c
    else:
        n = t % 9
        link = 3.0 * c
        for d, w in ((-2, 1.0), (-1, 2.0), (1, 2.0), (2, 1.0)):
            if 0 <= n + d <= 8 and counts[t + d]:
                link += w
        link += 0.6 if 2 <= n <= 6 else (0.3 if n in (1, 7) else 0.0)
    return 20.0 - 4.0 * link


# What keeping a dora and a red five is worth, in keep units (a card's incentives weigh them).
DORA_KEEP = 3.0
RED_KEEP = 2.5
# The five families of uumensai (a card's incentive to keep the last tile of each).
_FAMILIES = (range(0, 9), range(9, 18), range(18, 27), range(27, 31), range(31, 34))


@cython.ccall
@cython.locals(weight=cython.double, w=cython.double, keep=cython.double)
@cython.returns(dict)
def keep_values(weight: float, types: Sequence[int], counts: Sequence[int],
                dora: Sequence[int], values: set[int], direction: str | None,
                tiles: Sequence[int]) -> dict[int, float]:
    """How much a hand loses in value by letting each type go (in acceptance units), for a
    style's ``weight`` on value."""
    w = weight
    red = {x // 4 for x in tiles if x in RED_FIVE_SET}  # one look-up per tile held
    main = None
    if direction == "flush":
        per_suit = [sum(counts[s * 9:(s + 1) * 9]) for s in range(3)]
        main = per_suit.index(max(per_suit))  # the first of the longest suits
    out = {}
    for t in types:
        keep = 0.0
        if t in dora:
            keep += DORA_KEEP * w
        if t in red:
            keep += RED_KEEP * w
        if t in values and counts[t] >= 2:
            keep += 2.0 * w
        if direction == "tanyao" and (t in TERMINAL_HONOR_TYPES):
            keep -= 3.0
        elif direction == "flush":
            if t < 27 and t // 9 != main:
                keep -= 3.0
        elif direction is None and t >= 27 and t not in values and counts[t] == 1:
            keep -= 0.5  # lone guest winds go first
        out[t] = keep
    return out


def incentive_keeps(inc: TileIncentives, keeps: dict[int, float], weight: float,
                    counts: Sequence[int], dora: Sequence[int], tiles: Sequence[int],
                    pond: Sequence[int]) -> dict[int, float]:
    """``keeps`` (of :func:`keep_values`, for a style's ``weight`` on value) with what the
    card's incentives add to each type: its dora weighed as the card counts them, its own
    worths by type, a type already in her own pond (``pond``: its types), and the only tile of
    a family a yaku of hers needs all of, and a tile of a family her pond does not show. A new
    dict."""
    extra_dora = inc.dora_weight - 1.0
    shown = {FAMILY_OF_TYPE[t] for t in pond} if inc.new_family_worth else set()
    red = {x // 4 for x in tiles if x in RED_FIVE_SET}
    out = {}
    for t, keep in keeps.items():
        if extra_dora:
            if t in dora:
                keep += DORA_KEEP * weight * extra_dora
            if t in red:
                keep += RED_KEEP * weight * extra_dora
        keep += inc.keep[t]
        if inc.repeat_worth and t in pond:
            keep += inc.repeat_worth
        if inc.new_family_worth and FAMILY_OF_TYPE[t] not in shown:
            keep += inc.new_family_worth
        if inc.last_of_family and counts[t] == 1:
            for family in _FAMILIES:
                if t in family:
                    if sum([counts[u] for u in family]) == 1:
                        keep += inc.last_of_family
                    break
        out[t] = keep
    return out


def dora_held(tiles: Sequence[int], melds: Sequence[Meld], dora: Sequence[int]) -> int:
    """Dora and red fives among a hand's tiles and melds (a tile that is several dora counts
    each time)."""
    held = 0
    for x in (*tiles, *[y for m in melds for y in m.tiles]):
        held += dora.count(x // 4) + (1 if x in RED_FIVE_SET else 0)
    return held


def riichi_locks_out(counts: Sequence[int], melds: Sequence[Meld], needed: frozenset[int]
                     ) -> bool:
    """Whether a riichi now would leave a hand that can never hold a needed value-honor set
    (a declared yakuhai): its honor held as a single or a pair stays so once the hand is
    locked, unless a pair of it is one of the waits (a shanpon on it); ``counts`` is the hand
    after the riichi discard."""
    waits = None
    for v in needed:
        if counts[v] >= 3:
            continue
        if any(m.tile_type == v for m in melds):
            continue
        if counts[v] == 2:
            if waits is None:
                waits = winning_types(tuple(counts), len(melds))
            if v in waits:
                continue
        return True
    return False


def _guarded(options: list[Action], dora: Sequence[int]) -> list[Action]:
    """The options that let no dora or red five go; all of them when each would."""
    kept = [a for a in options if a.tile // 4 not in dora and a.tile not in RED_FIVE_SET]
    return kept or options


def _new_bot(cls: type) -> HeuristicBot:
    """An empty bot of ``cls``, its state set next by ``__setstate__`` (copy and pickle)."""
    return cls.__new__(cls)


@cython.cclass
class HeuristicBot:
    """The project's main player model. Style knobs come from ``pipeline/data/bots/styles.toml``.

    Its fields are its ``__slots__`` (in the object where compiled, an extension type whose
    decisions' methods are called from C: pipeline/_pxd.py); its instance dict holds what a
    subclass or a caller adds. A copy and a pickle carry both (``__getstate__``)."""

    __slots__ = ("__dict__", "rng", "style", "playing", "extra", "declared", "keep",
                 "incentives", "sides", "_safe_kept")
    _safe_kept: dict[int, tuple]

    def __init__(self, seed: int = 0, bot_style: BotStyle | str = "default") -> None:
        self.rng = random.Random(seed)
        self.style = style(bot_style) if isinstance(bot_style, str) else bot_style
        self.playing: frozenset[str] = frozenset()  # effect kinds of this hand's character
        self.extra: frozenset[tuple[int, int, int]] = frozenset()  # its extra sequences
        self.declared: frozenset[str] = frozenset()  # yaku this hand's card made her declare
        self.keep: frozenset[int] = frozenset()  # tile types a declared yakuhai needs kept
        # what this hand's card rewards or punishes in her tile choices (None: nothing)
        self.incentives: TileIncentives | None = None
        # a two-sided card's sides and their incentives (empty: one side); the one face up
        # sets ``incentives`` at each decision
        self.sides: tuple[tuple[str, TileIncentives | None], ...] = ()
        # by seat: (riichi order, pond changes, ponds read, safe types) (see _safe)
        self._safe_kept: dict[int, tuple] = {}

    def __getstate__(self) -> dict[str, object]:
        """A copy (the paired replay's snapshot) or a pickle leaves the kept safe tiles behind:
        they are a cache of the ponds this bot read, answers are the same without it, and
        copying the pond views it holds cost more than the rest of the bot. Its fields are
        its ``__slots__`` (in the object, where no default protocol sees them), and what a
        subclass or a caller added comes from its instance dict."""
        state: dict[str, object] = dict(getattr(self, "__dict__", None) or {})
        for name in HeuristicBot.__slots__:
            if name != "__dict__":
                state[name] = getattr(self, name)
        state["_safe_kept"] = {}
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def __reduce__(self) -> tuple[object, ...]:
        """Copied and pickled as its class and its state (an extension type where compiled,
        whose fields the default protocol would not see)."""
        return _new_bot, (type(self),), self.__getstate__()

    # ------------------------------------------------------------------ the agent contract

    @cython.ccall
    @cython.locals(a=Action, first=Action)
    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if self.sides:
            self.incentives = self._side_up(obs)
        for a in legal:  # identity checks: the kinds are enum members (hot path)
            kind = a.kind
            if (kind is _TSUMO or kind is _RON) and a.tag is not CHOMBO:
                return a
        first = legal[0]
        if first.tag is not None or first.kind is _ABILITY:  # a card's step (plain ones skip it)
            chosen = self._card_step(obs, legal)
            if chosen is not None:
                return chosen
        if legal[-1].kind is _PASS:
            return self._claim(obs, legal)
        return self._own_turn(obs, legal)

    def _side_up(self, obs: Observation) -> TileIncentives | None:
        """The incentives of the side of her two-sided card lying face up (a flip is public)."""
        up = obs.cards_up(obs.seat)
        for card, inc in self.sides:
            if card in up:
                return inc
        return self.incentives

    @cython.ccall
    def _card_step(self, obs: Observation, legal: list[Action]) -> Action | None:
        """The answer to a choice a card offers, or None when ``legal`` is none of those: the
        policy of its first action's tag (:data:`pipeline.bots.choices.CHOICE_POLICIES`), when
        the list has the shape that policy answers."""
        policy = card_step_policy(legal)
        if policy is None:
            return None
        return keep_chosen(self, obs, policy.answer(self, obs, legal))

    def _extra_turn_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """The extra turn offered first, or the pass offered last (:meth:`_wants_extra_turn`)."""
        return legal[0] if self._wants_extra_turn(obs) else legal[-1]

    def _draw_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """A tile drawn instead of the wall's, or the pass offered last: a known tile (beside
        her hand, or in her own pond) by :meth:`_known_draw_choice`, a set-aside copy by
        :meth:`_wants_set_aside`."""
        mine = (*getattr(obs, "aside", ()), *(obs.discards(obs.seat) if hasattr(
            obs, "discards") else ()))  # beside her hand, or in her own pond
        known = [a for a in legal[:-1] if a.tile in mine]
        if known:
            return self._known_draw_choice(obs, known, legal[-1])
        return legal[0] if self._wants_set_aside(obs) else legal[-1]

    @staticmethod
    def _move_two_choice(obs: Observation, legal: list[Action]) -> Action:
        """A second live-wall tile moved to the dead wall (offered first), unless the live wall
        left is a multiple of the seats, when she draws the last tile as it is (pass)."""
        left, n = obs.tiles_left, _seats(obs)  # the draws go round 4 seats, or 3
        return legal[-1] if left % n == 0 and (left - 1) % n else legal[0]

    @staticmethod
    def _family_choice(obs: Observation, legal: list[Action]) -> Action:
        """Name the family with the most copies she cannot see: the others most likely hold
        those, so the most tiles are shown (and counted for her han)."""
        visible = visible_counts(obs)  # her own tiles included
        best, most = legal[0], -1
        for action in legal:  # the first of equals
            types = _FAMILY_TYPES.get(action.payload, ())
            unseen = sum([4 - visible[t] for t in types])
            if unseen > most:
                best, most = action, unseen
        return best

    @staticmethod
    def _name_player(obs: Observation, legal: list[Action]) -> Action:
        """A player to block (riichi) or to duel. Block: a player not in riichi (one in riichi
        is not blocked), the one with the most calls (a calling hand is fast), then the points
        leader. Duel: the points leader (rule C-21 on equal points), the richest to take from
        at double payments."""
        scores = obs.scores

        def key(action: Action) -> tuple:
            s = action.payload
            rank = (-scores[s], (s - obs.dealer) % len(scores))
            if action.tag is Move.BLOCK:
                return (obs.in_riichi(s), -len(obs.melds(s)), *rank)
            return rank

        return min(legal, key=key)

    def _wants_set_aside(self, obs: Observation) -> bool:
        """Take a set-aside fourth copy instead of the wall draw when near tenpai (it extends the
        pon to a kan: a replacement draw, fu and a dora indicator) or under threat (a tile
        already seen in a pond is safer to hold than an unknown one); a slow hand would rather
        draw from the wall."""
        if self._any_threat(obs):
            return True
        return shanten(counts34(obs.concealed), len(obs.melds(obs.seat))) <= 1

    # -- wall effects: tiles put back, a known tile drawn, the tile beside the hand swapped

    def _put_back_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """The least useful tile offered, by the bot's own discard evaluation: the hand is
        padded to a full size with dead honors so that shanten can judge each tile; a hand
        above full size (extra tiles drawn first) is judged by connectivity alone."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        size = 14 - 3 * nm
        fillers = [t for t in range(27, 34) if not counts[t]][:max(0, size - sum(counts))]
        offered = sorted({a.tile // 4 for a in legal})
        padded = list(counts)
        for t in fillers:
            padded[t] += 1
        after = discard_shanten(padded, nm) if sum(padded) == size else {}
        keeps = keep_values(self.style.value_weight, offered, counts,
                            dora_types(obs.dora_indicators, _sanma(obs)),
                            value_types(obs.seat_wind, obs.round_wind), None, obs.concealed)
        best = min(offered, key=lambda t: (after.get(t, 0), -connectivity_accept(counts, t)
                                           + 2.5 * keeps[t], t))
        return self._physical([a for a in legal if a.tile // 4 == best], obs.drawn)

    @staticmethod
    def _after_draw_shanten(counts: list[int], nm: int, tile: int, barred: int | None
                            ) -> int:
        """Shanten after drawing ``tile`` and the best discard (not of type ``barred``)."""
        counts[tile // 4] += 1
        after = discard_shanten(counts, nm)
        counts[tile // 4] -= 1
        return min([sh for t, sh in after.items() if t != barred], default=9)

    def _take_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """A revealed tile to take: the one leaving her hand closest to tenpai after her best
        discard, then the best connected (the first on a tie)."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        return min(legal, key=lambda a: (self._after_draw_shanten(counts, nm, a.tile, None),
                                         -connectivity_accept(counts, a.tile // 4)))

    def _dora_swap_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """A revealed tile swapped with a dora indicator when the new indicator makes more of
        her tiles dora than the old one did, and the best tile to take stays as good."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        shown = sorted({a.tile for a in legal[:-1]})

        def best_take(tiles: Sequence[int]) -> int:
            return min([self._after_draw_shanten(counts, nm, x, None) for x in tiles], default=9)

        now = best_take(shown)

        def gain(a: Action) -> int:
            return counts[dora_from_indicator(a.tile // 4)] - \
                counts[dora_from_indicator(a.tiles[0] // 4)]

        for a in sorted(legal[:-1], key=lambda a: (-gain(a), a.tile, a.tiles)):
            if gain(a) <= 0:
                break
            if best_take([x for x in shown if x != a.tile] + [a.tiles[0]]) <= now:
                return a
        return legal[-1]

    def _pool_draw_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """A draw she must take from tiles set aside face up: the one leaving her hand closest
        to tenpai after her best discard (the first such tile on a tie). A tile completing her
        hand is kept for last: she may win only on the pool's last tile or later."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))

        def completes(tile: int) -> bool:
            counts[tile // 4] += 1
            done = shanten(counts, nm) < 0
            counts[tile // 4] -= 1
            return done

        waiting = [a for a in legal if not completes(a.tile)] or legal
        return min(waiting, key=lambda a: self._after_draw_shanten(counts, nm, a.tile, None))

    def _known_draw_choice(self, obs: Observation, known: list[Action], passing: Action
                           ) -> Action:
        """A known tile (from her own pond, or beside her hand) instead of the wall's: taken
        when it wins, or when it brings the hand closer to tenpai than it is (a wall tile only
        may); a pond tile also when it clearly widens a hand near tenpai."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        before = shanten(counts, nm)
        if obs.in_riichi(obs.seat):
            before = 0  # the hand is locked: only a win is worth it
        best = min(known, key=lambda a: self._after_draw_shanten(
            counts, nm, a.tile, None if a.tile in obs.aside else a.tile // 4))
        barred = None if best.tile in obs.aside else best.tile // 4
        after = self._after_draw_shanten(counts, nm, best.tile, barred)
        if after < before and (after < 0 or not obs.in_riichi(obs.seat)):
            return best
        if barred is None or before > 1 or after > before:
            return passing
        unseen = [4 - v for v in visible_counts(obs)]
        drawn = list(counts)
        drawn[best.tile // 4] += 1
        keeping = [t for t, sh in discard_shanten(drawn, nm).items()
                   if t != barred and sh == after]
        widened = max(discard_acceptance(drawn, nm, keeping, unseen).values(), default=0)
        now = acceptance(list(counts), nm, unseen)
        return best if widened >= now + KNOWN_DRAW_MIN_GAIN else passing

    def _swap_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """Swap the tile beside the hand in when that brings the hand closer to tenpai."""
        if not obs.aside:
            return legal[-1]
        extra = obs.aside[0] // 4
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        if sum(counts) % 3 != 2:
            return legal[-1]
        base = min(discard_shanten(counts, nm).values())
        best, best_sh = legal[-1], base
        for t in sorted({a.tile // 4 for a in legal[:-1]} - {extra}):
            counts[t] -= 1
            counts[extra] += 1
            sh = min(discard_shanten(counts, nm).values())
            counts[t] += 1
            counts[extra] -= 1
            if sh < best_sh:
                best_sh = sh
                best = self._physical([a for a in legal[:-1] if a.tile // 4 == t], obs.drawn)
        return best

    def _exchange_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """A hand tile (``tile``) for a known one (``tiles[0]``: a pond's, the wall's next):
        taken when the hand gets closer to tenpai, or stays as close (one step away or less)
        and accepts clearly more tiles (KNOWN_DRAW_MIN_GAIN). A hand tile given for the next
        wall tile is drawn next in its place (Move.SWAP_WALL): a dora, a red five or a tile a
        player in riichi may win on is handed on only for a step closer to tenpai."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        kept: list[list[int]] = []  # the unseen counts, once a hand near tenpai needs them
        base_sh, base_wide = _exchange_worth(list(counts), nm, obs, kept)
        harmful = self._harmful_to_hand_on(obs) if legal[0].tag is Move.SWAP_WALL else None
        best, best_key = legal[-1], (base_sh, -base_wide - KNOWN_DRAW_MIN_GAIN + 1, 0)
        seen: set[tuple[int, int]] = set()
        for a in legal[:-1]:
            out, into = a.tile // 4, a.tiles[0] // 4
            if (out, into) in seen:
                continue
            seen.add((out, into))
            counts[out] -= 1
            counts[into] += 1
            sh, wide = _exchange_worth(counts, nm, obs, kept)
            counts[out] += 1
            counts[into] -= 1
            harm = 0
            if harmful is not None and (out in harmful or a.tile in RED_FIVE_SET):
                if sh >= base_sh:
                    continue  # it would hand the next drawer value or a win, for no step
                harm = 1  # among equal swaps, a harmless tile goes
            if (sh, -wide, harm) < best_key:
                best, best_key = a, (sh, -wide, harm)
        return best

    def _harmful_to_hand_on(self, obs: Observation) -> set[int]:
        """The tile types a hand tile given for the next wall tile should not be, since
        another seat draws it next: the dora, and every type not safe against a player in
        riichi (it may be the winning draw)."""
        harmful = set(dora_types(obs.dora_indicators, _sanma(obs)))
        for s in range(_seats(obs)):
            # riichi seats only: the swap may come in the middle of a call, whose caller's
            # hand is not whole yet
            if s != obs.seat and obs.in_riichi(s):
                safe = self._safe(obs, s, obs.riichi_order(s))
                harmful.update([t for t in range(NUM_TYPES) if t not in safe])
        return harmful

    @staticmethod
    def _meld_swap_choice(obs: Observation, legal: list[Action]) -> Action:
        """Swap when the other meld is worth more to her than her own: a triplet of a value
        tile (a yakuhai) counts 2, each dora tile 1, a kan a half more (fu). Never for a
        sequence only another character may build; such a meld of hers goes for any other."""
        valued = value_types(obs.seat_wind, obs.round_wind)
        dora = dora_types(obs.dora_indicators, _sanma(obs))

        def worth(types: list[int]) -> float:
            triplet = len(set(types)) == 1
            return (2.0 if triplet and types[0] in valued else 0.0) + \
                sum(dora.count(x) for x in types) + (0.5 if len(types) == 4 else 0.0)

        mine = {m.tiles[0]: m.tiles for m in obs.melds(obs.seat)}
        best, gain = legal[-1], 0.0
        for a in legal[:-1]:
            if not standard(a.tiles):  # her hand would be dead (rule C-20)
                continue
            own = mine.get(a.tile, ())
            more = worth([x // 4 for x in a.tiles]) - worth([x // 4 for x in own]) + \
                (DEAD_MELD_GAIN if own and not standard(own) else 0.0)
            if more > gain:
                best, gain = a, more
        return best

    def _turn_down_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """Turn down another player's latest tile (her han count those) while her hand is near
        tenpai (the han count only if she wins); never a tile of her own pond."""
        counts = counts34(obs.concealed)
        if shanten(counts, len(obs.melds(obs.seat))) > 2:
            return legal[-1]
        own = set(obs.discards(obs.seat))
        others = [a for a in legal[:-1] if a.tile not in own]
        return others[-1] if others else legal[-1]

    @staticmethod
    def _repeat_choice(obs: Observation, legal: list[Action]) -> Action:
        """Repeat the discard (a safe, unclaimable discard and a fresh draw) when the second copy
        is useless: the hand is no further from tenpai with a dead honor in its place."""
        counts = counts34(obs.concealed)
        nm = len(obs.melds(obs.seat))
        dead = next((t for t in range(27, 34) if not counts[t]), None)
        if dead is None:
            return legal[-1]
        before = shanten(counts, nm)
        counts[legal[0].tile // 4] -= 1
        counts[dead] += 1
        return legal[0] if shanten(counts, nm) <= before else legal[-1]

    def _wants_extra_turn(self, obs: Observation) -> bool:
        """Another draw helps a hand that is still playing; a folding hand declines it, since
        the extra discard is one more chance to deal in (rule C-17: extra turns are optional)."""
        if not self._any_threat(obs):
            return True
        melds = obs.melds(obs.seat)
        return shanten(counts34(obs.concealed), len(melds)) <= 1

    def pick(self, starting_hand: Sequence[int], team: Sequence[str],
             situation: PickView | None = None) -> str:
        """The character worth most with this starting hand and the seat's situation (scores,
        dealer, round): :func:`pipeline.bots.pick.choose`; deterministic."""
        choice = choose(starting_hand, team, situation,
                        weighted_offsets(self.style.measured_picks))
        self.play_as(choice, situation)
        return choice

    def rank_picks(self, starting_hand: Sequence[int], team: Sequence[str],
                   situation: PickView | None = None) -> list[str]:
        """Every character of the team, the one :meth:`pick` would take first, then the next
        best (:func:`pipeline.bots.pick.ranking`); changes nothing of the bot."""
        return ranking(starting_hand, team, situation,
                       weighted_offsets(self.style.measured_picks))

    def play_as(self, card: str, situation: PickView | None = None) -> None:
        """Play this hand for ``card`` as if :meth:`pick` had chosen it (its extra sequences,
        dama preference, yaku-less calls; nothing declared yet): the team trial's replay with
        another pick, beside :meth:`play_without_ability`."""
        self.playing = effect_kinds(card, situation)
        self.extra = extra_sequences(self.playing)  # counted when building her hand
        self.incentives = card_incentives(card, situation)
        self.sides = side_incentives(card, situation)
        self.declared = frozenset()
        self.keep = frozenset()

    def plays_for_ability(self) -> bool:
        """Whether this hand's choices may depend on the character: extra sequences counted,
        a dama preference, yaku-less calls or the card's tile incentives (what
        :meth:`play_without_ability` forgets)."""
        return bool(self.extra) or DAMA_CARD in self.playing or \
            WINS_WITHOUT_YAKU in self.playing or self.incentives is not None or \
            any(inc is not None for _, inc in self.sides)

    def play_without_ability(self) -> None:
        """Play on as a seat with no character (the paired replay's "without" side): no extra
        sequences, no yaku-less calls, no dama preference, no tile incentives; what
        :meth:`pick` set is undone."""
        self.playing = frozenset()
        self.extra = frozenset()
        self.incentives = None
        self.sides = ()

    # ------------------------------------------------------------------ table reading

    @cython.ccall
    @cython.returns(cython.bint)
    def _any_threat(self, obs: Observation) -> bool:
        """Whether :meth:`_threats` would name any opponent, without working out what each is
        worth or which tiles are safe (a claim or a card's choice asks no more)."""
        me = obs.seat
        for s in range(_seats(obs)):
            if s == me:
                continue
            melds = obs.melds(s)
            riichi = obs.in_riichi(s)
            if len(obs.shown_types(s)) == 34:   # a face-up hand threatens only when ready
                if self._face_up_threat(obs, s, melds, riichi) is not None:
                    return True
                continue
            if riichi or _open_threat(melds, obs):
                return True
        return False

    @cython.ccall
    @cython.locals(obs=Observation)
    @cython.returns(list)
    def _threats(self, obs: Observation) -> list[Threat]:
        """The opponents that may be ready to win, each with what a deal-in would cost and the
        tiles safe against it."""
        threats = []
        dora = None
        sanma = False  # read with the dora, for the first threat
        me = obs.seat
        for s in range(_seats(obs)):
            if s == me:
                continue
            melds = obs.melds(s)
            riichi = obs.in_riichi(s)
            known = obs.shown_types(s)
            if len(known) == 34:   # a face-up hand: its waits are known, not guessed
                threat = self._face_up_threat(obs, s, melds, riichi)
                if threat is not None:
                    threats.append(threat)
                continue
            n_open = 0 if riichi else _open_threat(melds, obs)
            if not riichi and not n_open:
                continue
            # the types its shown families rule out (read only for a threat)
            cleared = cleared_types(counts34(obs.shown_tiles(s)), shown_families(known)) \
                if known else frozenset()
            if dora is None:
                sanma = _sanma(obs)
                dora = dora_types(obs.dora_indicators, sanma)
            dealer = s == obs.dealer
            shown_dora = 0
            for m in melds:
                for x in m.tiles:
                    if x // 4 in dora or x in RED_FIVE_IDS:
                        shown_dora += 1
            if riichi:
                order = obs.riichi_order(s)
                value = 6000 + 1500 * shown_dora
                if sanma:  # three players: a riichi hand is worth more (nukidora, S-04)
                    value = (SANMA_RIICHI_VALUE + SANMA_KITA_VALUE * len(obs.kita(s))
                             + 1500 * shown_dora)
                threats.append(Threat(s, 1.0, int(value * (1.5 if dealer else 1)),
                                      self._safe(obs, s, order), cleared=cleared))
            else:
                weight = 0.5 if n_open >= 3 else 0.25
                value = 3000 + 2000 * shown_dora
                threats.append(Threat(s, weight, int(value * (1.5 if dealer else 1)),
                                      self._safe(obs, s, None), cleared=cleared))
        return threats

    @cython.ccall
    @cython.locals(obs=Observation)
    def _safe(self, obs: Observation, s: int, order: int | None) -> set[int]:
        """The types safe against seat ``s`` (:func:`safe_types`): its own discards and, after
        its riichi discard numbered ``order``, every other seat's. Kept by seat between
        decisions, with the ponds it was read from: a pond that only grew since (the same
        table, no pond tile changed, ``Observation.pond_changes``) adds its new discards, and
        anything else reads the ponds afresh. The set is shared with earlier threats: no one
        changes it."""
        ponds = [obs.pond(p) for p in range(_seats(obs))]
        changes = obs.pond_changes
        kept = self._safe_kept.get(s)
        if kept is not None and kept[0] == order and kept[1] == changes:
            was = kept[2]
            new = []
            for p in range(len(ponds)):
                pond, old = ponds[p], was[p]
                if pond is old:
                    continue
                n = len(old)
                if n > len(pond) or (n and pond[n - 1] is not old[n - 1]):
                    break  # not the same pond grown: read afresh
                for i in range(n, len(pond)):
                    d = pond[i]
                    if p == s or (order is not None and d.order > order):
                        new.append(d.tile // 4)
            else:
                safe = kept[3]
                if new:
                    safe = safe | set(new)
                self._safe_kept[s] = (order, changes, ponds, safe)
                return safe
        own = [d.tile // 4 for d in ponds[s]]
        later = [] if order is None else [
            d.tile // 4 for p in range(len(ponds)) if p != s for d in ponds[p]
            if d.order > order]
        safe = safe_types(own, later)
        self._safe_kept[s] = (order, changes, ponds, safe)
        return safe

    @staticmethod
    def _face_up_threat(obs: Observation, s: int, melds: Sequence[Meld], riichi: bool
                        ) -> Threat | None:
        """A face-up hand threatens only when it is ready, and then exactly on its waits; a
        furiten wait cannot ron (a card's reveal costs its owner: nobody deals in to it).
        Kept by what it is read from (the hand shown, its melds, its pond, the dora shown,
        riichi and dealer): every other seat asks at every decision, and the hand changes only
        on its own turn (:data:`_FACE_UP_KEPT`; threats are never changed once made)."""
        tiles = obs.shown_tiles(s)
        dora_shown = obs.dora_indicators
        key = (s, riichi, s == obs.dealer, tiles, tuple([m.tiles for m in melds]),
               obs.discards(s), dora_shown)
        if key in _FACE_UP_KEPT:
            return _FACE_UP_KEPT[key]
        waits = winning_types(tuple(counts34(tiles)), len(melds))
        own = {d.tile // 4 for d in obs.pond(s)}
        threat = None
        if waits and not waits & own:
            dora = dora_types(dora_shown)
            held = sum(1 for x in (*tiles, *(x for m in melds for x in m.tiles))
                       if x // 4 in dora or x in RED_FIVE_IDS)
            value = (6000 if riichi else 3000) + 1500 * held
            threat = Threat(s, 1.0, int(value * (1.5 if s == obs.dealer else 1)), own,
                            waits=waits)
        if len(_FACE_UP_KEPT) >= RECENT_MEMO:  # bounded, as the other memos of hands
            _FACE_UP_KEPT.clear()
        _FACE_UP_KEPT[key] = threat
        return threat

    @cython.ccall
    @cython.locals(th=Threat)
    @cython.returns(cython.double)
    def _danger(self, t: int, threats: list[Threat], visible: Sequence[int]) -> float:
        danger = 0.0
        for th in threats:
            if th.waits is not None:
                if t in th.waits:
                    danger += th.weight * th.value
            elif t not in th.cleared:
                danger += th.weight * th.value * tile_danger(t, th.safe, visible)
        return danger

    @staticmethod
    def _wait_chance(t: int, threats: list[Threat], visible: Sequence[int]) -> float:
        """How likely ``t`` is among the threats' waits, each threat weighed as :meth:`_danger`
        weighs it (its chance of being ready)."""
        chance = 0.0
        for th in threats:
            if th.waits is not None:
                if t in th.waits:
                    chance += th.weight
            elif t not in th.cleared:
                chance += th.weight * tile_danger(t, th.safe, visible)
        return chance

    # ------------------------------------------------------------------ own turn

    @cython.ccall
    @cython.locals(obs=Observation, a=Action, plain=Action)
    def _own_turn(self, obs: Observation, legal: list[Action]) -> Action:
        # one pass over the legal actions (hot path): plain discards, riichi discards, and
        # face-down discards (an ability's), each in the order offered
        kinds = set()  # the kinds offered besides plain discards (most of the list)
        discards, riichi_discards, face_down = [], [], []
        for a in legal:
            kind = a.kind
            if kind is _DISCARD:
                discards.append(a)
                continue
            kinds.add(kind)
            if kind is _RIICHI:
                riichi_discards.append(a)
            elif kind is _ABILITY and a.tag is AbilityTag.FACE_DOWN:
                face_down.append(a)
        counts = counts34(obs.concealed)
        seat = obs.seat
        melds = obs.melds(seat)
        nm = len(melds)
        if _NINE in kinds:
            kinds_held = len([t for t in TERMINAL_HONOR_TYPES if counts[t]])
            if kinds_held < 11:
                return [x for x in legal if x.kind == _NINE][0]
        if _KITA in kinds:
            kita = self._kita_choice(legal, counts, nm)
            if kita is not None:
                return kita
        if obs.in_riichi(seat):
            for a in legal:
                if a.kind == _ANKAN:
                    return a  # legal in riichi only when the wait stays the same
            plain = discards[0]
            if face_down and self._danger(plain.tile // 4, self._threats(obs),
                                          visible_counts(obs)) >= FACE_DOWN_MIN_DANGER:
                return [x for x in face_down if x.tile == plain.tile][0]
            return plain
        inc = self.incentives
        if inc is not None and inc.dora_guard:
            # her card punishes a known dora let go outside riichi: none goes while another may
            dora = dora_types(obs.dora_indicators, _sanma(obs))
            safe = _guarded(discards, dora)
            if safe is not discards:  # another discard is legal: no dora goes, riichi or not
                discards = safe
                riichi_discards = [a for a in riichi_discards if a.tile // 4 not in dora
                                   and a.tile not in RED_FIVE_SET]
                face_down = [a for a in face_down if a.tile // 4 not in dora
                             and a.tile not in RED_FIVE_SET]
        sight = Sight(obs)
        threats = self._threats(obs)
        if face_down and threats:
            hidden = self._face_down_choice(obs, counts, melds, sight, threats, face_down)
            if hidden is not None:
                return hidden
        if _ANKAN in kinds or _KAKAN in kinds:
            kan = self._kan_choice(legal, counts, nm, threats)
            if kan is not None:
                return kan
        allowed = {a.tile // 4 for a in discards}
        if self.keep and allowed - self.keep:
            allowed -= self.keep  # a declared yakuhai: its honors stay in the hand
        choice_type, riichi_ok = self._best_discard(obs, counts, melds, sight, threats, allowed)
        riichi = [a for a in riichi_discards if a.tile // 4 == choice_type]
        if riichi and riichi_ok and self._wants_riichi(obs, counts, melds, sight.unseen,
                                                       choice_type, threats):
            return self._riichi_with_stake(obs, legal, self._physical(riichi, obs.drawn))
        return self._physical([a for a in discards if a.tile // 4 == choice_type], obs.drawn)

    @staticmethod
    def _riichi_with_stake(obs: Observation, legal: list[Action], riichi: Action) -> Action:
        """A riichi an ability lets the seat declare with a stake (Inazuma riichi, stake for
        extra dora). The stake returns to the seat if it wins the hand, so it is worth it while
        the riichi is early enough to win often and the seat can afford it; otherwise the
        plain riichi."""
        for a in legal:
            if a.kind != ActionKind.ABILITY or a.tile != riichi.tile or \
                    a.tag is not AbilityTag.RIICHI:
                continue
            if a.payload == "inazuma":
                affordable = obs.scores[obs.seat] >= STAKE_RIICHI_MIN_POINTS
                return a if affordable and obs.tiles_left >= STAKE_RIICHI_MIN_TILES else riichi
            if a.payload == "dora_stake":
                return a if obs.tiles_left >= STAKE_RIICHI_MIN_TILES else riichi
        return riichi

    def _face_down_choice(self, obs: Observation, counts: list[int], melds: Sequence[Meld],
                          sight: Sight, threats: list[Threat], face_down: list[Action]
                          ) -> Action | None:
        """A face-down discard cannot deal in (rule C-13): under a threat, let the most
        efficient tile go face down when it would otherwise be dangerous."""
        allowed = {a.tile // 4 for a in face_down}
        best, _ = self._best_discard(obs, counts, melds, sight, [], allowed)
        if self._danger(best, threats, sight.visible) < FACE_DOWN_MIN_DANGER:
            return None
        return self._physical([a for a in face_down if a.tile // 4 == best], obs.drawn)

    @staticmethod
    def _physical(options: list[Action], drawn: int | None) -> Action:
        """Among copies of one type: the drawn tile (tsumogiri), else a non-red copy."""
        for a in options:
            if a.tile == drawn:
                return a
        plain = [a for a in options if a.tile not in RED_FIVE_IDS]
        return (plain or options)[0]

    def _kita_choice(self, legal: list[Action], counts: list[int], nm: int) -> Action | None:
        """Three players (rule S-03, S-04): a North set aside is a dora and a free draw, so it
        pays unless the North works in the hand: kept when the hand without it is further from
        tenpai than after the best discard (a North pair or triplet on the way). In riichi
        only the drawn North is offered, and setting it aside changes nothing."""
        kita = [a for a in legal if a.kind == _KITA]
        if counts[NORTH_TYPE] == 1 or sum(a.kind == _DISCARD for a in legal) == 1:
            return kita[0]
        counts[NORTH_TYPE] -= 1
        without = self._shanten(counts, nm)
        counts[NORTH_TYPE] += 1
        if without <= min(self._discard_shanten(counts, nm).values()):
            return kita[0]
        return None

    def _kan_choice(self, legal: list[Action], counts: list[int], nm: int,
                    threats: list[Threat]) -> Action | None:
        if threats:
            return None
        base = min(self._discard_shanten(counts, nm).values())
        for a in legal:
            if a.kind == ActionKind.ANKAN:
                t = a.tiles[0] // 4
                counts[t] -= 4
                after = self._shanten(counts, nm + 1)
                counts[t] += 4
                if after <= base:
                    return a
            elif a.kind == ActionKind.KAKAN:
                t = a.tile // 4
                counts[t] -= 1
                after = self._shanten(counts, nm)
                counts[t] += 1
                if after <= base:
                    return a
        return None

    # shanten and acceptance as this hand's character counts them (extra sequences: shaped.py)

    @cython.ccall
    def _shanten(self, counts: list[int], nm: int) -> int:
        return shaped_shanten(counts, nm, self.extra) if self.extra else shanten(counts, nm)

    @cython.ccall
    def _discard_shanten(self, counts: list[int], nm: int) -> dict[int, int]:
        return (shaped_discard_shanten(counts, nm, self.extra) if self.extra
                else discard_shanten(counts, nm))

    @cython.ccall
    def _discard_acceptance(self, counts: list[int], nm: int, discards: list[int],
                            unseen: list[int]) -> dict[int, int]:
        if self.extra:
            return shaped_discard_acceptance(counts, nm, discards, unseen, self.extra)
        return discard_acceptance(counts, nm, discards, unseen)

    @cython.ccall
    def _outs(self, counts: list[int], nm: int, unseen: list[int]) -> int:
        return (shaped_acceptance(counts, nm, unseen, self.extra) if self.extra
                else winning_outs(counts, nm, unseen))

    @cython.ccall
    @cython.locals(obs=Observation, th=Threat)
    @cython.returns(tuple)
    def _best_discard(self, obs: Observation, counts: list[int], melds: Sequence[Meld],
                      sight: Sight, threats: list[Threat], allowed: set[int]
                      ) -> tuple[int, bool]:
        """The discard type with the best expected gain; and whether riichi fits with it."""
        nm = len(melds)
        seat = obs.seat
        values = value_types(obs.seat_wind, obs.round_wind)
        dora = dora_types(obs.dora_indicators, _sanma(obs))
        closed = _closed(melds)
        inc = self.incentives
        if inc is not None and inc.closed_dora_before and closed:
            # her card makes the tile before each indicator a dora too while she is closed
            dora = (*dora, *[previous_type(i // 4) for i in obs.dora_indicators])
        kuitan = True
        direction = None if closed else open_direction(counts, melds, values, kuitan)
        after = self._discard_shanten(counts, nm)
        sh_of = {t: after[t] for t in allowed}
        best_sh = min(sh_of.values())
        my_value = 0.0  # what the hand is worth, weighed against danger only under a threat
        if threats:
            han = estimate_han(counts, melds, obs.concealed, dora, values, riichi=closed)
            if inc is not None and inc.dora_weight != 1.0:  # her card counts dora otherwise
                han += (inc.dora_weight - 1.0) * dora_held(obs.concealed, melds, dora)
            # a finished hand usually scores more than is visible now (tsumo, ura, pinfu...)
            han += 1.5 if closed else 0.5
            my_value = (points_for(han, obs.dealer == seat) * self.style.aggression
                        * BASE_AGGRESSION)
        draws_left = obs.tiles_left
        exact = best_sh <= EXACT_SHANTEN  # acceptance is worth its cost only near tenpai
        far = 1.0
        if best_sh >= 2:
            for th in threats:  # a loop, not any(...): no generator made at every decision
                if th.weight >= 1.0:
                    far = FAR_VS_RIICHI
                    break
        limit = best_sh + (1 if threats else 0)
        candidates = [t for t, sh in sh_of.items() if sh <= limit]
        keeps = keep_values(self.style.value_weight, candidates, counts, dora, values, direction,
                            obs.concealed)
        repeats: set[int] = set()  # her own pond's types, where her card makes them worth more
        if inc is not None:
            if inc.repeat_safe or inc.repeat_worth or inc.new_family_worth:
                repeats = {d.tile // 4 for d in obs.pond(seat) if not d.called
                           and not d.face_down}
            keeps = incentive_keeps(inc, keeps, self.style.value_weight, counts, dora,
                                    obs.concealed, repeats)
        unclaimable = repeats if inc is not None and inc.repeat_safe else None
        # what her card pays her per tile of a winner's waits she holds, if the threat wins
        held_wait = inc.held_wait_points * THREAT_WIN_SHARE if inc is not None and threats \
            else 0.0
        if not threats and len(candidates) == 1:
            exact = False  # the only candidate: its acceptance changes nothing
        # win_chance looks at acceptance only up to one-shanten: none is worked out beyond
        accepts = self._discard_acceptance(counts, nm, [t for t in candidates
                                                  if sh_of[t] <= EXACT_SHANTEN], sight.unseen) \
            if exact or threats else {}
        seats = _seats(obs) if threats else 0  # asked in the loop only under a threat
        visible = sight.visible if threats else None  # read once, not for every candidate
        danger = self._danger
        # the best by (score, then the lower type): compared as the tuples
        # ((first, second), -t) would be, without making them (hot path)
        best = -1
        best_first = best_second = 0.0
        for t in candidates:
            sh = sh_of[t]
            if exact or threats:
                accept = accepts.get(t, 0)
            else:
                accept = connectivity_accept(counts, t)
            keep = keeps[t]
            if threats:
                gain = win_chance(sh, accept, draws_left, seats) * my_value * far
                if unclaimable is None or t not in unclaimable:  # else it cannot deal in
                    gain -= danger(t, threats, visible)
                if held_wait:
                    gain -= held_wait * self._wait_chance(t, threats, visible)
                first = gain - keep * 100
                second = 0.0
            else:
                first = -sh
                second = accept - keep * 2.5
            if best < 0 or first > best_first or (first == best_first and (
                    second > best_second or (second == best_second and t < best))):
                best, best_first, best_second = t, first, second
        return best, True  # types are distinct: no ties

    @cython.ccall
    @cython.locals(obs=Observation)
    @cython.returns(cython.bint)
    def _wants_riichi(self, obs: Observation, counts: list[int], melds: Sequence[Meld],
                      unseen: list[int], t: int, threats: list[Threat]) -> bool:
        counts[t] -= 1
        outs = self._outs(counts, len(melds), unseen)
        values = value_types(obs.seat_wind, obs.round_wind)
        dora = dora_types(obs.dora_indicators, _sanma(obs))
        han = estimate_han(counts, melds, obs.concealed, dora, values, riichi=False)
        if _sanma(obs):
            han += len(obs.kita(obs.seat))  # rule S-04: each North set aside is a dora
        dama_yaku = DAMA_CARD in self.playing and self._closed_yaku(counts, melds, values, t)
        locked = bool(self.keep) and riichi_locks_out(counts, melds, self.keep)
        counts[t] += 1
        if outs == 0 or locked:
            return False
        if "Riichi" in self.declared:
            return True  # a declared riichi: without it her hand cannot win
        if dama_yaku and outs >= DAMA_MIN_OUTS:
            return False  # her damaten is worth more than riichi's han (see DAMA_CARD)
        if threats and outs < 4 and han < 2:
            return False
        # dama with a scoring hand and a wide wait, more often for a low riichi appetite; with
        # three players from 2 han (nukidora make hands richer, and a tsumo loses a share)
        if han >= (2.0 if _sanma(obs) else 3.0) and outs >= 4:
            return self.rng.random() < 0.3 * self.style.riichi_appetite
        return self.rng.random() < min(1.0, 0.97 * self.style.riichi_appetite)

    @staticmethod
    def _closed_yaku(counts: list[int], melds: Sequence[Meld], values: set[int], t: int) -> bool:
        """Whether the hand after discarding ``t`` (``counts`` already without it) holds a yaku
        that needs no riichi: all simples, a value-honor triplet or a (half) flush."""
        return all_simples(counts, melds) or any(counts[v] >= 3 for v in values) \
            or flush_suit(counts, melds) is not None

    # ------------------------------------------------------------------ claims

    @staticmethod
    def _open_han(obs: Observation, counts: Sequence[int], melds: Sequence[Meld],
                  values: set[int]) -> float:
        """Han an open hand would show after a call: worth calling for only with some value."""
        tiles = [x for x in obs.concealed]
        dora = dora_types(obs.dora_indicators, _sanma(obs))
        return estimate_han(counts, melds, tiles, dora, values, riichi=False) + (
            len(obs.kita(obs.seat)) if _sanma(obs) else 0)

    @staticmethod
    def _call_han_change(inc: TileIncentives, obs: Observation, call: Action,
                         counts: Sequence[int], melds: Sequence[Meld]) -> float:
        """What a card's incentives add to the han a call shows (``counts`` and ``melds``: her
        hand after it): what a call of that tile earns her, a flush's closed han where her
        card keeps it open, her dora counted as her card weighs them, less the dora her card
        gives only a closed hand (the tile before each indicator), which the call gives up."""
        dora = dora_types(obs.dora_indicators, _sanma(obs))
        change = inc.call_worth[call.tile // 4]
        if inc.open_full_han and flush_suit(counts, melds, FLUSH_STRAYS) is not None:
            # the flush keeps its closed 2 han open; estimate_han counts an open flush as 1,
            # one still shedding a stray tile as none
            change += 1.0 if flush_suit(counts, melds) is not None else 2.0
        if inc.dora_weight != 1.0:
            melded = set(call.tiles)
            held = [x for x in obs.concealed if x not in melded]
            change += (inc.dora_weight - 1.0) * dora_held(held, melds, dora)
        if inc.closed_dora_before and _closed(obs.melds(obs.seat)):
            for i in obs.dora_indicators:
                before = previous_type(i // 4)
                change -= len([x for x in obs.concealed if x // 4 == before])
        return change

    @cython.ccall
    @cython.locals(obs=Observation, a=Action, passing=Action)
    def _claim(self, obs: Observation, legal: list[Action]) -> Action:
        passing = legal[-1]
        options = [a for a in legal if a.kind is _PON or a.kind is _CHI or a.kind is _MINKAN]
        inc = self.incentives
        if options and inc is not None and inc.riichi_kan and obs.in_riichi(obs.seat):
            return options[0]  # only a kan that keeps her closed and her wait is offered
        if not options or self.declared & CLOSED_ONLY:
            return passing  # a call would lose a declared yaku that needs a closed hand
        seat = obs.seat
        counts = counts34(obs.concealed)
        melds = obs.melds(seat)
        nm = len(melds)
        closed = _closed(melds)
        before = self._shanten(counts, nm)
        # whether an opponent threatens, asked only where the answer can change the choice
        # (asking reads every opponent): a hand two or more steps away passes under a threat
        threats = None
        if before >= 2:
            threats = self._any_threat(obs)
            if threats:
                return passing
        values = value_types(obs.seat_wind, obs.round_wind)
        appetite = self.style.call_appetite
        reach = 2 + (1 if appetite >= 1.3 else 0) - (1 if appetite < 0.8 else 0)
        stray = 1 + len([w for w in WIDER_CALLS_APPETITES if appetite >= w])
        backing = None  # unseen copies, where a value-honor pair may back a call
        if appetite >= BACKING_APPETITE and [v for v in values if counts[v] == 2]:
            backing = [4 - v for v in visible_counts(obs)]
        best, best_key = None, None
        for a in options:
            for x in a.tiles:
                counts[x // 4] -= 1
            if a.kind is _MINKAN:
                # the shanten after the kan matters only when everything else allows it
                ok = before == 0 and not closed
                if ok:
                    if threats is None:
                        threats = self._any_threat(obs)
                    ok = not threats
                if ok:
                    after = self._shanten(counts, nm + 1)
                    ok = after == 0
            else:
                new_meld = Meld(MeldKind.PON if a.kind is _PON else MeldKind.CHI,
                                tuple(sorted((*a.tiles, a.tile))), a.tile)
                # no yaku after the call: no call, whatever the shanten
                ok = WINS_WITHOUT_YAKU in self.playing or yaku_path(
                    counts, (*melds, new_meld), values, kuitan=True, unseen=backing, stray=stray)
                if ok:
                    forbidden = kuikae_types(a.tile // 4, min(
                        [a.tile // 4] + [x // 4 for x in a.tiles]) if a.kind is _CHI
                        else None)
                    after = min([sh for t, sh in self._discard_shanten(counts, nm + 1).items()
                                 if t not in forbidden], default=9)
                    honor_pon = a.kind is _PON and a.tile // 4 in values
                    ok = after < before and (honor_pon or after <= reach)
                    if ok and after != 0:  # under a threat only a call to tenpai
                        if threats is None:
                            threats = self._any_threat(obs)
                        ok = not threats
                    if ok and not honor_pon and not (after == 0 and obs.tiles_left < 36):
                        han = self._open_han(obs, counts, (*melds, new_meld), values)
                        if inc is not None:  # what her card counts, and what a call loses
                            han += self._call_han_change(inc, obs, a, counts, (*melds, new_meld))
                        ok = han >= (1.0 if after <= 1 else 2.0) / self.style.call_appetite
            for x in a.tiles:
                counts[x // 4] += 1
            if ok:
                key = (after, a.kind is _PON)
                if best_key is None or key < best_key:
                    best, best_key = a, key
        return best if best is not None else passing
