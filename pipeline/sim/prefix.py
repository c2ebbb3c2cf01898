"""The shared start of a paired hand: what the hand without an ability need not play again.

A paired replay (:mod:`pipeline.sim.paired`) plays a deal again with one seat's ability off.
Until that ability first makes a difference, both sides are the same game: the same tiles
drawn, the same actions offered, the same choices made. So the real hand is watched:

- :class:`WatchedAbility` stands in for the seat's ability and compares each hook's answer
  with the answer of no ability (:class:`~pipeline.rules.hooks.AbilityHooks`' defaults); a
  different answer, an event the ability logged (every use of the table controls is logged),
  or any change a payment hook made to the settlement (a transfer, a multiplier's extra
  payments, the table's collector, an exemption, a floor at zero: :func:`settlement_state`)
  marks the first difference;
- :class:`DecisionTap` stands in for each seat's agent and writes down every choice; it marks
  the first difference before a choice asked from inside a watched hook (an ability asking a
  player to choose: no such choice is asked without it), and before the seat's first choice
  when its bot plays for its ability (:func:`plays_for_ability`: a bot that counts extra
  sequences chooses otherwise without it).

At the first difference the agents are copied as they are then (between two choices). The
hand without the ability is then played from the deal with the choices made before the
difference fed back (:class:`PrefixAgent`; the engine and every other ability play as
usual, so nothing of the state needs copying) and the copied agents take over from there:
the bots' thinking on the shared start is not done twice. A hand where the ability never made
a difference is its own replay. Both give what a replay from the deal gives, decision for
decision (``tests/sim/test_prefix.py`` plays every card both ways).
"""

from __future__ import annotations

import copy
import dataclasses
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from pipeline.rules.actions import Action
from pipeline.rules.agents import Observation
from pipeline.rules.hooks import AbilityHooks, TableControls
from pipeline.rules.scoring import NO_MODIFIERS


class PrefixBroken(RuntimeError):
    """A choice fed back is not among the actions offered: the two sides parted earlier than
    the watch saw (an ability acting through a channel it does not watch)."""


def plays_for_ability(agent: object) -> bool:
    """Whether the agent's choices may depend on what it knows of its ability. An agent that
    says so itself (``plays_for_ability()``) is believed; one that can forget an ability
    (``play_without_ability``) but does not say is assumed to; any other knows nothing."""
    ask = getattr(agent, "plays_for_ability", None)
    if ask is not None:
        return bool(ask())
    return hasattr(agent, "play_without_ability")


class PrefixWatch:
    """Where one seat's ability first made a difference in the real hand: how many choices had
    been made (``at``) and the agents as they were then (``agents``); ``None`` while none."""

    def __init__(self, seat: int, choices: list[tuple[int, Action]],
                 snapshot: Callable[[], list[Any]], knowing: bool) -> None:
        self.seat = seat
        self.knowing = knowing  # the seat's bot plays for its ability: its first choice differs
        self._choices = choices
        self._snapshot = snapshot
        self.at: int | None = None
        self.agents: list[Any] | None = None
        self.inside = 0  # watched hook calls under way (an ability may ask for a choice)

    def differs(self) -> None:
        """The ability makes a difference now (the first time counts)."""
        if self.at is None:
            self.at = len(self._choices)
            self.agents = self._snapshot()


class DecisionTap:
    """A seat's agent in the real hand of a pair: each choice is written down; a bot that plays
    for its ability marks its watch before its first choice."""

    def __init__(self, agent: Any, seat: int, choices: list[tuple[int, Action]],
                 watches: Sequence[PrefixWatch]) -> None:
        self.agent = agent
        self.seat = seat
        self._choices = choices
        self._watches = tuple(watches)
        self._knowing = [w for w in watches if w.seat == seat and w.knowing]

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        for watch in self._watches:
            if watch.inside:
                watch.differs()
        if self._knowing:
            for watch in self._knowing:
                watch.differs()
            self._knowing = []
        choice = self.agent.decide(obs, legal)
        self._choices.append((self.seat, choice))
        return choice

    def __getattr__(self, name: str) -> Any:
        if name == "agent":  # not set yet (copying): no recursion
            raise AttributeError(name)
        return getattr(self.agent, name)


class PrefixAgent:
    """A seat's agent in the hand without the ability: its choices of the shared start fed
    back, then its copy from the first difference plays on."""

    def __init__(self, choices: Sequence[Action], live: Any) -> None:
        self._choices = deque(choices)
        self.live = live

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        if not self._choices:
            return self.live.decide(obs, legal)
        made = self._choices.popleft()
        for action in legal:  # the engine offers the same objects again (discards, passes)
            if action is made:
                return action
        for action in legal:
            if action == made:
                return action
        raise PrefixBroken(f"P{obs.seat}: {made} was chosen in the real hand but is not "
                           "offered in the hand without the ability")

    def __getattr__(self, name: str) -> Any:
        if name == "live":
            raise AttributeError(name)
        return getattr(self.live, name)


def prefix_agents(choices: Sequence[tuple[int, Action]], agents: Sequence[Any]
                  ) -> list[PrefixAgent]:
    """The hand-without agents: each seat's choices of the shared start, then its copy."""
    own: list[list[Action]] = [[] for _ in agents]
    for seat, action in choices:
        own[seat].append(action)
    return [PrefixAgent(own[seat], agent) for seat, agent in enumerate(agents)]


# The hooks of AbilityHooks by how a difference shows. Results: any answer other than the
# default's. Side effects: only through the table controls, which log an event. Payments:
# a change to the settlement's transfers or its collector, made in place.
_SIDE_EFFECTS = frozenset({"hand_start", "action_taken", "offer_declined", "riichi", "hand_end",
                           "match_end", "after_draw", "claim_made", "discard_made",
                           "discard_passed"})
_PAYMENTS = frozenset({"payments", "draw_payments"})
_OWN = frozenset({"listens"})


# What of a settlement no payment hook changes: what it reads (``view``) and how it logs
# (``log``: its uses are counted through the hand's log instead).
_SETTLEMENT_READ_ONLY = frozenset({"view", "log"})


def settlement_state(settlement: Any) -> tuple[Any, ...]:
    """Everything of a settlement a payment hook may change, copied: the rules' transfers,
    the abilities' own, who collects the table, the noten payments' rule, the exempt seats and
    the floors. Read from its fields, so an adjustment added to
    :class:`~pipeline.rules.settlement.Settlement` later is watched too; a floor or an
    exemption is applied only when the settlement is paid, after every hook, so a hook that
    sets one has changed the settlement whether or not it ends up moving points."""
    state = []
    for f in dataclasses.fields(settlement):
        if f.name in _SETTLEMENT_READ_ONLY:
            continue
        value = getattr(settlement, f.name)
        if isinstance(value, list | set | dict):
            value = copy.copy(value)
        state.append(value)
    return tuple(state)


def _hook_names() -> list[str]:
    return [name for name, value in vars(AbilityHooks).items()
            if callable(value) and not name.startswith("_") and name not in _OWN]


class WatchedAbility:
    """A seat's ability in the real hand of a pair: it answers as the ability does and tells
    its watch when an answer is not what no ability would answer."""

    def __init__(self, inner: Any, watch: PrefixWatch) -> None:
        self.inner = inner
        self.watch = watch
        self._controls: TableControls | None = None

    @property
    def seat(self) -> int:
        return self.inner.seat

    @property
    def name(self) -> str:
        """The ability's name now (a two-sided card's changes when it flips)."""
        return self.inner.name

    def listens(self, hook: str) -> bool:
        ask = getattr(self.inner, "listens", None)
        return True if ask is None else bool(ask(hook))

    def _logged(self) -> int:
        return -1 if self._controls is None else self._controls.log_size()

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def _asked(self: WatchedAbility, name: str, args: tuple[Any, ...]) -> Any:
    """The ability's own answer, with the watch told a hook call is under way."""
    watch = self.watch
    watch.inside += 1
    try:
        return getattr(self.inner, name)(*args)
    finally:
        watch.inside -= 1


def _watched(name: str) -> Callable[..., Any]:
    if name in _SIDE_EFFECTS:
        def side(self: WatchedAbility, *args: Any) -> Any:
            if name == "hand_start":
                self._controls = args[0]
            if self.watch.at is not None:
                return getattr(self.inner, name)(*args)
            before = self._logged()
            got = _asked(self, name, args)
            if self._logged() != before:
                self.watch.differs()
            return got
        return side
    if name in _PAYMENTS:
        def paying(self: WatchedAbility, settlement: Any) -> Any:
            if self.watch.at is not None:
                return getattr(self.inner, name)(settlement)
            before = (settlement_state(settlement), self._logged())
            got = _asked(self, name, (settlement,))
            if (settlement_state(settlement), self._logged()) != before:
                self.watch.differs()
            return got
        return paying
    default = getattr(AbilityHooks, name)

    def answer(self: WatchedAbility, *args: Any) -> Any:
        if self.watch.at is not None:
            return getattr(self.inner, name)(*args)
        offered = list(args[1]) if name == "claim_filter" else None  # it may change the list
        before = self._logged()
        got = _asked(self, name, args)
        if offered is not None:
            same = got == offered
        elif name == "scoring":
            same = got is None or got == NO_MODIFIERS
        else:
            same = got == default(self, *args)
        if not same or self._logged() != before:
            self.watch.differs()
        return got
    return answer


for _name in _hook_names():
    setattr(WatchedAbility, _name, _watched(_name))
del _name
