"""``condition_bonus``: extra han when a named condition holds on the win."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards import scoring_effects
from pipeline.cards.effects.base import CardEffect, RiichiContext, ScoringContext
from pipeline.cards.effects.count_bonus import all_tiles
from pipeline.cards.incentives import OUTSIDE_SHAPE, TileIncentives, worth_of
from pipeline.rules.agari import winning_types
from pipeline.rules.hooks import PickView, WinView
from pipeline.rules.scoring import ScoringModifiers
from pipeline.tiles import counts34

WHITE_DRAGON = 31


def white_dragon_tsumo(win: WinView) -> bool:
    """A win by drawing a white dragon (a rinshan draw too)."""
    return win.ctx.is_tsumo and win.ctx.win_tile // 4 == WHITE_DRAGON


def waiting_types(win: WinView) -> frozenset[int]:
    """The winner's waits without the winning tile."""
    hand = list(win.ctx.concealed)
    hand.remove(win.ctx.win_tile)
    return winning_types(counts34(hand))


# The conditions that give their han once, by ``when`` value.
CONDITIONS: dict[str, Callable[[WinView], bool]] = {
    "only_3_to_7": lambda win: all(x // 4 < 27 and 2 <= (x // 4) % 9 <= 6
                                   for x in all_tiles(win)),
    "wait_three_types": lambda win: len(waiting_types(win)) >= 3,
    "single_wait": lambda win: len(waiting_types(win)) == 1,
    "tsumo": lambda win: win.ctx.is_tsumo,
    "white_dragon_tsumo": white_dragon_tsumo,
}
# The tile types a condition's hand may not hold, by ``when`` value: a reason for the bots to
# let them go (:meth:`ConditionBonus.incentives`).
SHAPE_OUTSIDE: dict[str, frozenset[int]] = {
    "only_3_to_7": frozenset([t for t in range(34) if t >= 27 or not 2 <= t % 9 <= 6]),
}
# The conditions on the match's memory: her riichi by turn ``turn`` in the hand after she dealt
# in. Several of them on one card are tiers of one bonus: the highest she earned counts.
MEMORY_CONDITIONS = frozenset(("early_riichi_after_dealing_in",))


class ConditionBonus(CardEffect):
    """``han`` extra han when ``when`` holds on her win (:data:`CONDITIONS`), or ``han`` per
    counted unit (:data:`pipeline.cards.scoring_effects.COUNTED_CONDITIONS`, sticks on the
    table), or ``han`` for her riichi by turn ``turn`` in the hand after she dealt in
    (:data:`MEMORY_CONDITIONS`: the card's several such bonuses are tiers, and only the highest
    she earned counts). Extra han are no yaku (rule C-12).

    Bot policy: no decision; the bot builds its hand and declares riichi as usual, and the pick
    prices the bonus by a rough chance of the condition. A condition on the hand's tiles alone
    (:data:`SHAPE_OUTSIDE`) is an incentive: the tiles it excludes go first among discards that
    keep the hand as close to tenpai."""

    kind = "condition_bonus"
    supported = {"when": frozenset(CONDITIONS) | frozenset(scoring_effects.COUNTED_CONDITIONS)
                 | MEMORY_CONDITIONS}

    riichi_turn: int | None = None  # the turn of her riichi this hand

    @classmethod
    def incentives(cls, params: Mapping[str, Any], view: PickView) -> TileIncentives | None:
        outside = SHAPE_OUTSIDE.get(params["when"])
        if outside is None:
            return None
        return TileIncentives(keep=worth_of(outside, -OUTSIDE_SHAPE * params["han"]))

    def riichi(self, ctx: RiichiContext) -> None:
        if ctx.view.seat == self.seat:
            self.riichi_turn = ctx.view.turn

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p, win = self.params, ctx.win
        if p["when"] in MEMORY_CONDITIONS:
            return self._after_dealing_in()
        counted = scoring_effects.COUNTED_CONDITIONS.get(p["when"])
        if counted is not None:
            han = p["han"] * counted(win, ctx.seat, p)
            return ScoringModifiers(extra_han=((p["when"], han),)) if han else None
        holds = CONDITIONS.get(p["when"])
        if holds is not None and holds(win):
            return ScoringModifiers(extra_han=((p["when"], p["han"]),))
        return None

    def _after_dealing_in(self) -> ScoringModifiers | None:
        """The early-riichi bonus, played by the first of the card's tiers (the others add
        nothing): the highest han whose turn her riichi made."""
        when = self.params["when"]
        tiers = [e for e in self.alike if e.params["when"] == when] or [self]
        if tiers[0] is not self or self.memory is None or self.riichi_turn is None or \
                self.seat not in self.memory.dealt_in_last:
            return None
        han = max([e.params["han"] for e in tiers if self.riichi_turn <= e.params["turn"]],
                  default=0)
        return ScoringModifiers(extra_han=((when, han),)) if han else None
