"""Determinized rollouts: a hand played out from a decision, its hidden tiles drawn afresh.

The expert style (:mod:`pipeline.bots.expert`) weighs a decision's options by playing the
hand on from it a few times. The engine cannot resume a copied hand mid-turn (its loop holds
its place), so a rollout replays the deal from its start with every choice made so far fed
back, as the paired replay does (:mod:`pipeline.sim.prefix`), takes the option at the
decision, and lets the ordinary bots play to the hand's end.

The deal replayed is not the real one: every tile the seat cannot see is drawn afresh
(:func:`determinize`). The tiles it has seen (its hand and draws, every pond, meld, North set
aside and tile shown face up, the dora indicators) stay where they lie in the wall, so the
other seats' past choices (their discards and calls, all of public tiles) replay as they
were; the rest, the unseen tiles, are dealt at random to the other seats' hidden hands and the
undrawn wall. A seat in riichi is dealt a hand that is tenpai (a complete hand less one tile),
as its riichi says. Which tiles are unseen and how many each seat hides are public, so the
draw depends on what the seat sees and the stream alone (``tests/bots/test_expert.py`` checks that
two states that differ only in hidden tiles draw the same deal). What the seat knows beyond
sight (a tile it handed to another seat) is not used.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pipeline.cards.lookahead import HandContext
from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import IllegalActionError, play_hand

_PASS = ActionKind.PASS
TENPAI_TRIES = 50  # attempts at a tenpai hand for a seat in riichi before a random one


class RolloutBroken(RuntimeError):
    """A replayed choice is not offered on the drawn deal: the rollout is dropped."""


@dataclass(frozen=True)
class Determinization:
    """One drawn deal: the wall order to replay, and each real tile's stand-in there
    (``mapping``: the hidden tiles only; a seen tile stands for itself)."""

    wall: tuple[int, ...]
    mapping: dict[int, int]


def seen_tiles(obs: Observation) -> frozenset[int]:
    """Every tile the seat has seen: its hand, the tiles beside it, every pond (its own
    face-down discards included), meld and North set aside, what others show face up, the
    dora indicators; and, from the hand's log, every tile it was dealt or drew and every
    discard made face up (a tile it saw move on: taken from a pond, handed over)."""
    seat = obs.seat
    seen = set(obs.concealed)
    for e in obs._state.events:
        kind = e.kind
        if kind == "draw" or kind == "deal":
            if e.seat == seat:
                seen.update(e.tiles if kind == "deal" else (e.tile,))
        elif kind == "discard":
            if e.seat == seat or e.tag is not AbilityTag.FACE_DOWN:
                seen.add(e.tile)
    seen.update(obs.aside)
    for s in range(obs.players):
        for m in obs.melds(s):
            seen.update(m.tiles)
            if m.called is not None:
                seen.add(m.called)
            if m.added is not None:
                seen.add(m.added)
        seen.update(obs.discards(s))
        seen.update(obs.kita(s))
        if s != seat:
            seen.update(obs.shown_tiles(s))
            seen.update(obs.face_up_aside(s))
    seen.update(obs.dora_indicators)
    return frozenset(seen)


def _tenpai_ids(pool: list[int], size: int, rng: random.Random) -> list[int] | None:
    """``size`` tiles of ``pool`` forming a tenpai hand (a complete hand of ``size + 1``
    tiles, sequences and triplets and a pair, less one tile at random); None when no such
    hand was found in a few tries (too few tiles of a kind left)."""
    by_type: dict[int, list[int]] = {}
    for t in pool:
        by_type.setdefault(t // 4, []).append(t)
    groups = (size - 1) // 3
    for _ in range(TENPAI_TRIES):
        left = {t: len(ids) for t, ids in by_type.items()}
        types: list[int] = []
        ok = True
        for _ in range(groups):
            t = rng.randrange(34)
            if t < 27 and t % 9 <= 6 and rng.random() < 0.75:
                need = (t, t + 1, t + 2)
            else:
                need = (t, t, t)
            if any(left.get(x, 0) < need.count(x) for x in set(need)):
                ok = False
                break
            for x in need:
                left[x] -= 1
            types += need
        if not ok:
            continue
        pairs = [t for t, n in sorted(left.items()) if n >= 2]
        if not pairs:
            continue
        pair = rng.choice(pairs)
        types += [pair, pair]
        del types[rng.randrange(len(types))]
        chosen: list[int] = []
        for t in sorted(types):
            free = [x for x in by_type[t] if x not in chosen]
            chosen.append(rng.choice(free))
        return chosen
    return None


def determinize(obs: Observation, start_wall: Sequence[int], rng: random.Random
                ) -> Determinization:
    """A deal like the real one in everything the seat sees, its unseen tiles drawn from
    ``rng``: the other seats' hidden hands first (seat order; a seat in riichi tenpai), then
    their other hidden tiles (face-down discards), then the undrawn wall in wall order."""
    state = obs._state  # where each hidden place is; what lies there is drawn afresh
    seen = seen_tiles(obs)
    seat = obs.seat
    wall = state.wall
    undrawn = {*wall.live, *wall.rinshan, *wall.indicators, *wall.ura,
               *getattr(wall, "reserve", ())}
    holder: dict[int, int] = {}
    for s in range(obs.players):
        if s != seat:
            for t in state.players[s].concealed:
                holder[t] = s
    hands: dict[int, list[int]] = {}
    other_places: list[int] = []
    wall_places: list[int] = []
    for p, t in enumerate(start_wall):
        if t in seen:
            continue
        if t in holder:
            hands.setdefault(holder[t], []).append(p)
        elif t in undrawn:
            wall_places.append(p)
        else:
            other_places.append(p)
    pool = sorted(t for t in start_wall if t not in seen)
    rng.shuffle(pool)
    order = list(start_wall)
    mapping: dict[int, int] = {}

    def lay(places: list[int], tiles: list[int]) -> None:
        for p, t in zip(places, tiles, strict=True):
            mapping[order[p]] = t
            order[p] = t

    for s in sorted(hands):
        places = hands[s]
        tiles = None
        melds = obs.melds(s)
        riichi = obs.in_riichi(s) or obs.riichi_order(s) is not None  # declared: tenpai
        if riichi and len(places) == 13 - 3 * len(melds):
            tiles = _tenpai_ids(pool, len(places), rng)
        if tiles is None:
            tiles = pool[:len(places)]
        chosen = set(tiles)
        pool = [t for t in pool if t not in chosen]
        lay(places, tiles)
    lay(other_places, pool[:len(other_places)])
    lay(wall_places, pool[len(other_places):])
    return Determinization(tuple(order), mapping)


def _same(a: Action, b: Action) -> bool:
    """The same decision (its text aside, which may name a tile drawn afresh)."""
    return (a.kind is b.kind and a.tile == b.tile and a.tiles == b.tiles and a.tag == b.tag
            and a.payload == b.payload)


def _offered(legal: list[Action], wanted: Action) -> Action | None:
    for a in legal:
        if _same(a, wanted):
            return a
    return None


def _translated(action: Action, mapping: dict[int, int]) -> Action:
    """The action on the drawn deal: each hidden tile it names replaced by its stand-in."""
    if not mapping:
        return action
    tile = action.tile if action.tile is None else mapping.get(action.tile, action.tile)
    tiles = tuple([mapping.get(t, t) for t in action.tiles])
    return Action(action.kind, action.seat, tile, tiles, detail=action.detail, tag=action.tag,
                  card=action.card, payload=action.payload)


class _Point:
    """Whether the replay has reached the decision (shared by the seats of one rollout)."""

    reached = False


class _OwnSeat:
    """The deciding seat in a rollout: its own choices fed back exactly (it sees the same
    deal), then the option, then the ordinary bot."""

    def __init__(self, choices: Sequence[Action], option: Action, then: Any,
                 point: _Point) -> None:
        self._choices = deque(choices)
        self._option = option
        self._then = then
        self._point = point

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if self._choices:
            made = _offered(legal, self._choices.popleft())
            if made is None:
                raise RolloutBroken("the seat's own choice is not offered again")
            return made
        if not self._point.reached:
            self._point.reached = True
            chosen = _offered(legal, self._option)
            if chosen is None:
                raise RolloutBroken("the option is not offered at the decision")
            return chosen
        return self._then.decide(obs, legal)


class _OtherSeat:
    """Another seat in a rollout: until the decision, its actions of the real hand (calls,
    discards, its card's steps) taken where offered and every other offer passed; from the
    decision on, its own bot."""

    def __init__(self, actions: Sequence[Action], then: Any, point: _Point) -> None:
        self._actions = deque(actions)
        self._then = then
        self._point = point

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if self._point.reached:
            if self._actions:
                raise RolloutBroken("another seat did not replay all its choices")
            return self._then.decide(obs, legal)
        if self._actions:
            made = _offered(legal, self._actions[0])
            if made is not None:
                self._actions.popleft()
                return made
        if legal[-1].kind is _PASS:
            return legal[-1]
        raise RolloutBroken("another seat's choice is not offered on the drawn deal")


def play_out(context: HandContext, seat: int, option: Action, deal: Determinization,
             own_bot: Any) -> int:
    """The seat's points from this hand (its delta) when the drawn deal is replayed to the
    decision, ``option`` is taken and the bots play on: ``own_bot`` for the seat, a copy of
    each other seat's agent as it is now. Raises :class:`RolloutBroken` when the replay
    cannot follow the real hand on this deal."""
    point = _Point()
    agents: list[Any] = []
    for s in range(context.preset.players):
        if s == seat:
            own = [a for who, a in context.choices if who == s]
            agents.append(_OwnSeat(own, option, own_bot, point))
        else:
            theirs = [_translated(a, deal.mapping) for who, a in context.choices
                      if who == s and a.kind is not _PASS]
            agents.append(_OtherSeat(theirs, copy.deepcopy(context.agents[s]), point))
    start = replace(context.start, wall=deal.wall)
    try:
        record = play_hand(start, context.preset, agents, context.abilities())
    except IllegalActionError as exc:
        raise RolloutBroken(str(exc)) from exc
    if not point.reached:
        raise RolloutBroken("the drawn deal ended before the decision")
    return record.seats[seat].delta
