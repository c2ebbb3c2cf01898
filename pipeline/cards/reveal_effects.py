"""Revealed draws and kans that close: a card that sees three wall tiles instead of one.

:class:`RevealEffects` holds one card's effect of this family for one seat and one hand; the
:class:`~pipeline.cards.abilities.CardAbility` hooks delegate to it. The primitive, by kind:

- ``rinshan_reveal``: instead of her rinshan draw, and of her ippatsu draw (her first draw after
  her riichi, while ippatsu is alive; C-22 Awai: once ippatsu is broken the draw is an ordinary
  one), she reveals the next ``tiles`` (3) live-wall tiles, may swap them with dora indicators
  (each a choice ``"<card>:dora_swap"`` offered with a pass: the revealed tile becomes the
  indicator, the indicator joins the revealed tiles; each indicator at most once, which reaches
  every set of indicators worth having), then takes one (``"<card>:take"``, no pass); the rest
  go, in order, to the end of the live wall. The rinshan tile she did not draw stays in the dead
  wall. Every open or added kan she makes becomes a closed kan once made (an added kan can
  still be robbed before: C-22 Awai); in riichi she may declare a kan on a discard that leaves
  her wait unchanged (C-22 Awai: a concealed kan on another player's discard).

Bot policy (Awai Oohoshi): a revealed tile is swapped with an indicator when the new indicator
makes more of her tiles dora than the old one did and the best tile to take stays as good; she
then takes the revealed tile that leaves her hand closest to tenpai after her best discard (the
best connected on a tie). Her kans follow the bot's usual kan rules, which call no kan on a
discard with a closed hand: the kan on a discard her riichi allows is never taken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.cards.catalog import Card
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ActionKind, ability_action
from pipeline.rules.hooks import DrawView, WallControls

# Effect kinds implemented here, for every value of their parameters.
REVEAL_KINDS = frozenset(("rinshan_reveal",))
# Optional choices offered with a pass (registered in abilities.OPTIONAL_EFFECTS).
OPTIONAL = frozenset(("dora_swap",))
REVEALED = 3              # wall tiles revealed when the card gives no count


class RevealEffects:
    """One card's revealed draws and closing kans for one seat and one hand."""

    def __init__(self, card: Card, seat: int) -> None:
        self.seat = seat
        self.name = card.id
        found = [e.params for e in card.effects if e.kind == "rinshan_reveal"]
        self.on = bool(found)
        self.count = int(found[0].get("tiles", REVEALED)) if found else REVEALED

    def __bool__(self) -> bool:
        return self.on

    def kans_closed(self) -> bool:
        return self.on

    def replace_draw(self, view: DrawView, wall: WallControls) -> int | None:
        """Her rinshan draw, or her ippatsu draw, made by revealing tiles."""
        if not self.on or view.seat != self.seat:
            return None
        if view.source != "rinshan" and not view.ippatsu:
            return None

        def decide(revealed: tuple[int, ...], swap: Callable[[int, int], None]) -> int:
            return self._choose(wall, list(revealed), swap)

        return wall.reveal_take(self.seat, self.count, self.name, decide)

    def _choose(self, wall: WallControls, shown: list[int], swap: Callable[[int, int], None]
                ) -> int:
        free = list(range(len(wall.dora_indicators())))  # indicator places not swapped yet
        while free:
            indicators = wall.dora_indicators()
            offers = [ability_action(self.seat, self.name, Move.DORA_SWAP, t,
                                     tiles=(indicators[i],)) for i in free for t in shown]
            choice = wall.choose(self.seat, [*offers, Action(ActionKind.PASS, self.seat)])
            if choice.kind != ActionKind.ABILITY:
                break
            i = indicators.index(choice.tiles[0])
            swap(choice.tile, indicators[i])
            shown[shown.index(choice.tile)] = indicators[i]
            free.remove(i)
        return wall.choose(self.seat, take_offers(self.seat, self.name, shown)).tile


def take_offers(seat: int, name: str, shown: Sequence[int]) -> list[Action]:
    """The required choice of the revealed tile to take."""
    return [ability_action(seat, name, Move.TAKE, t) for t in shown]
