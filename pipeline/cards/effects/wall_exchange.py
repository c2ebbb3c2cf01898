"""``wall_exchange``: tiles of her hand put at the end of a wall for as many drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, TurnContext
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import ability_action
from pipeline.rules.hooks import WallControls

SECOND_ROW = 12          # tiles lying in a pond once its second row of six is complete

# The round wind each ``round`` value works in.
ROUNDS = {"east": 0, "south": 1}


class WallExchange(CardEffect):
    """In the round named (``round``: East or South), before her first discard she puts
    ``tiles`` tiles of her hand at the end of the live or dead wall (``wall``) and draws as many
    from the live wall; with ``draw_first`` she draws first and then puts back. With
    ``repeat_after_second_row`` she does it once more, on her own turn, once any pond holds two
    full rows (12 tiles lying in it; C-22 Kazue: once per hand, on her own turn). She picks each
    tile to put back (one choice per tile, no pass). In riichi her hand is locked: a draw-first
    exchange puts back the tiles just drawn, a put-first one does not happen. The steps are
    made as her turn begins (``turn_start``), before she acts.

    Bot policy: each tile she puts back is the least useful one by the bot's own discard
    judgment (shanten, then how well it connects, keeping dora, red fives and value pairs)."""

    kind = "wall_exchange"
    choices = frozenset({Move.PUT_LIVE, Move.PUT_DEAD})

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.exchanged = 0          # exchanges done this hand

    def turn_start(self, ctx: TurnContext) -> None:
        if ctx.table is None or ctx.view.seat != self.seat:
            return
        wall = ctx.table.wall()
        if self._due(wall, ctx.view.turns):
            self.exchanged += 1
            self._exchange(wall, ctx.view.in_riichi)

    def _due(self, wall: WallControls, turns: int) -> bool:
        if ROUNDS[self.params["round"]] != wall.round_wind():
            return False
        if self.exchanged == 0:
            return turns == 0
        return (self.params["repeat_after_second_row"] and self.exchanged == 1
                and max(wall.pond_sizes()) >= SECOND_ROW)

    def _exchange(self, wall: WallControls, in_riichi: bool) -> None:
        count = self.params["tiles"]
        where = Move.PUT_LIVE if self.params["wall"] == "live" else Move.PUT_DEAD
        if self.params["draw_first"]:
            drawn = wall.draw(self.seat, count, self.card)
            self._put_back(wall, where, len(drawn), drawn if in_riichi else None)
        elif not in_riichi and wall.live_left() >= count:
            self._put_back(wall, where, count, None)
            wall.draw(self.seat, count, self.card)

    def _put_back(self, wall: WallControls, where: Move, count: int,
                  only: tuple[int, ...] | None) -> None:
        """She picks ``count`` tiles one by one (of ``only`` when given) and puts them back."""
        chosen: list[int] = []
        for _ in range(count):
            held = [t for t in wall.concealed(self.seat) if t not in chosen
                    and (only is None or t in only)]
            options = [ability_action(self.seat, self.card, where, t) for t in held]
            chosen.append(wall.choose(self.seat, options).tile)
        if where is Move.PUT_LIVE:
            wall.put_live_end(self.seat, chosen, self.card)
        else:
            wall.put_dead_end(self.seat, chosen, self.card)
