"""``face_down_discard``: she may discard a tile face down (rule C-13)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pipeline.cards.effects.base import CallContext, CardEffect, TurnContext
from pipeline.cards.memory import MatchMemory
from pipeline.cards.table_reading import CALL_EVENTS, ippatsu_alive, table_seats
from pipeline.rules.actions import AbilityTag, Action
from pipeline.rules.hooks import face_down_actions
from pipeline.rules.records import Event


def last_discards(events: Sequence[Event]) -> tuple[list[int | None], list[int | None]]:
    """Per seat: the type of its latest discard (None if none or face down), and the type of
    its latest face-up tile still lying in its pond (called or taken tiles left out)."""
    taken = {e.tile for e in events if e.tile is not None and (
        e.kind in CALL_EVENTS or (e.kind == "ability" and e.tag is AbilityTag.FROM_POND))}
    latest: list[int | None] = [None] * 4
    lying: list[int | None] = [None] * 4
    for e in events:
        if e.kind != "discard" or e.seat is None or e.tile is None:
            continue
        face_down = e.tag is AbilityTag.FACE_DOWN
        latest[e.seat] = None if face_down else e.tile // 4
        if not face_down and e.tile not in taken:
            lying[e.seat] = e.tile // 4
    return latest, lying


def _matching_last_discard(effect: FaceDownDiscard, ctx: TurnContext) -> bool:
    if ctx.table is None:
        return False
    latest, lying = last_discards(ctx.table.events())
    mine = lying[effect.seat]
    return mine is not None and any(latest[s] == mine for s in range(table_seats(ctx.table))
                                    if s != effect.seat)


# When a face-down discard is offered, by ``when`` value: (the effect, her turn).
WHEN: dict[str, Callable[[FaceDownDiscard, TurnContext], bool]] = {
    "once_per_hand": lambda effect, ctx: not effect.used,
    "ippatsu_threat": lambda effect, ctx: bool(ctx.view.opponents_ippatsu),
    "after_chi": lambda effect, ctx: ctx.view.after_call == "chi",
    "with_extra_turn": lambda effect, ctx: effect.extra_turn_at == ctx.view.turns,
    "broke_ippatsu": lambda effect, ctx: effect.broke_ippatsu
    and ctx.view.after_call is not None,
    "matching_last_discard": _matching_last_discard,
}


class FaceDownDiscard(CardEffect):
    """On her turn she may discard any tile she may discard face down when ``when`` holds
    (:data:`WHEN`): no furiten from it, and nobody may call or ron it (rule C-13). "Once per
    hand" counts every face-down discard of her card this hand. ``with_extra_turn``: the
    discard of her extra turn (a face-down discard earns no extra turn). ``broke_ippatsu``:
    the discard after her call, when that call took away another player's ippatsu chance.
    ``matching_last_discard``: her last visible discard (the latest face-up tile still lying
    in her pond) is of the same type as another player's last discard (that player's latest
    discard, called or not; a face-down one matches nothing).

    Bot policy: used only under a threat, on the tile the bot would discard anyway when that
    tile is dangerous (an expected deal-in cost of ``FACE_DOWN_MIN_DANGER``, 100 points, or
    more; in riichi, the tile she must discard)."""

    kind = "face_down_discard"
    choices = frozenset({AbilityTag.FACE_DOWN})
    optional = frozenset(("face_down",))
    supported = {"when": frozenset(WHEN)}

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.used = 0                           # face-down discards of her card this hand
        self.turns = 0                          # her discards so far, as last seen
        self.extra_turn_at: int | None = None   # her discard count during an extra turn
        self.broke_ippatsu = False              # her last call took away an ippatsu chance

    def own_actions(self, ctx: TurnContext) -> list[Action]:
        self.turns = ctx.view.turns
        allowed = WHEN.get(self.params["when"])
        if allowed is None or not allowed(self, ctx):
            return []
        return face_down_actions(ctx.view, self.card)

    def action_taken(self, action: Action) -> None:
        if action.tag is AbilityTag.EXTRA_TURN:
            self.extra_turn_at = self.turns + 1
        elif action.tag is AbilityTag.FACE_DOWN:
            self.used += 1
            self.broke_ippatsu = False

    def claim_made(self, ctx: CallContext) -> None:
        """After her call: whether it took away another player's ippatsu chance."""
        if self.params["when"] != "broke_ippatsu" or ctx.view.seat != self.seat \
                or ctx.table is None:
            return
        events = ctx.table.events()
        call = max([i for i, e in enumerate(events) if e.kind in CALL_EVENTS])
        events = events[:call]  # before this call
        self.broke_ippatsu = any(ippatsu_alive(events, s) for s in range(table_seats(ctx.table))
                                 if s != self.seat)
