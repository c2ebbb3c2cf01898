"""``rinshan_reveal``: her rinshan and ippatsu draws made by revealing wall tiles, and kans that
close.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pipeline.cards.effects.base import CardEffect, DrawContext
from pipeline.cards.incentives import TileIncentives
from pipeline.cards.memory import MatchMemory
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ActionKind, ability_action
from pipeline.rules.hooks import PickView, WallControls

# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("dora_swap",))
REVEALED = 3              # wall tiles revealed when the card gives no count


class RinshanReveal(CardEffect):
    """Instead of her rinshan draw, and of her ippatsu draw (her first draw after her riichi,
    while ippatsu is alive; C-22 Awai: once ippatsu is broken the draw is an ordinary one), she
    reveals the next ``tiles`` (3) live-wall tiles, may swap them with dora indicators (each a
    choice ``"<card>:dora_swap"`` offered with a pass: the revealed tile becomes the indicator,
    the indicator joins the revealed tiles; each indicator at most once, which reaches every set
    of indicators worth having), then takes one (``"<card>:take"``, no pass); the rest go, in
    order, to the end of the live wall. The rinshan tile she did not draw stays in the dead
    wall. Every open or added kan she makes becomes a closed kan once made (an added kan can
    still be robbed before: C-22 Awai); in riichi she may declare a kan on a discard that leaves
    her wait unchanged (C-22 Awai: a concealed kan on another player's discard).

    Bot policy: swaps that make more of her tiles dora, then the revealed tile that leaves her
    closest to tenpai; kans by the bot's usual rules, and a kan on a discard in riichi taken
    whenever offered (her incentives; Awai Oohoshi's policy is said in
    :mod:`pipeline.cards.abilities`)."""

    kind = "rinshan_reveal"
    choices = frozenset({Move.DORA_SWAP, Move.TAKE})
    optional = OPTIONAL

    def __init__(self, params: Mapping[str, Any], seat: int, card: str,
                 memory: MatchMemory | None = None) -> None:
        super().__init__(params, seat, card, memory)
        self.count = int(params.get("tiles", REVEALED))

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        return TileIncentives(riichi_kan=True)

    def kans_closed(self) -> bool:
        return True

    def replace_draw(self, ctx: DrawContext) -> int | None:
        view, wall = ctx.view, ctx.wall
        if view.seat != self.seat or (view.source != "rinshan" and not view.ippatsu):
            return None

        def decide(revealed: tuple[int, ...], swap: Callable[[int, int], None]) -> int:
            return self._choose(wall, list(revealed), swap)

        return wall.reveal_take(self.seat, self.count, self.card, decide)

    def _choose(self, wall: WallControls, shown: list[int], swap: Callable[[int, int], None]
                ) -> int:
        free = list(range(len(wall.dora_indicators())))  # indicator places not swapped yet
        while free:
            indicators = wall.dora_indicators()
            offers = [ability_action(self.seat, self.card, Move.DORA_SWAP, t,
                                     tiles=(indicators[i],)) for i in free for t in shown]
            choice = wall.choose(self.seat, [*offers, Action(ActionKind.PASS, self.seat)])
            if choice.kind != ActionKind.ABILITY:
                break
            i = indicators.index(choice.tiles[0])
            swap(choice.tile, indicators[i])
            shown[shown.index(choice.tile)] = indicators[i]
            free.remove(i)
        return wall.choose(self.seat, take_offers(self.seat, self.card, shown)).tile


def take_offers(seat: int, name: str, shown: Sequence[int]) -> list[Action]:
    """The required choice of the revealed tile to take."""
    return [ability_action(seat, name, Move.TAKE, t) for t in shown]
