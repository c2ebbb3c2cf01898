"""``condition_bonus``: extra han when a named condition holds on the win."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.cards import scoring_effects
from pipeline.cards.effects.base import CardEffect, ScoringContext
from pipeline.cards.effects.count_bonus import all_tiles
from pipeline.rules.agari import winning_types
from pipeline.rules.hooks import WinView
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


class ConditionBonus(CardEffect):
    """``han`` extra han when ``when`` holds on her win (:data:`CONDITIONS`), or ``han`` per
    counted unit (:data:`pipeline.cards.scoring_effects.COUNTED_CONDITIONS`, sticks on the
    table). Extra han are no yaku (rule C-12). A condition on the match's memory
    (``early_riichi_after_dealing_in``) is played by the payment effects.

    Bot policy: no decision; the bot builds its hand as usual, and the pick prices the bonus
    by a rough chance of the condition."""

    kind = "condition_bonus"
    hooks = frozenset({"scoring"})
    supported = {"when": frozenset(CONDITIONS) | frozenset(scoring_effects.COUNTED_CONDITIONS)}

    def scoring(self, ctx: ScoringContext) -> ScoringModifiers | None:
        p, win = self.params, ctx.win
        counted = scoring_effects.COUNTED_CONDITIONS.get(p["when"])
        if counted is not None:
            han = p["han"] * counted(win, ctx.seat, p)
            return ScoringModifiers(extra_han=((p["when"], han),)) if han else None
        holds = CONDITIONS.get(p["when"])
        if holds is not None and holds(win):
            return ScoringModifiers(extra_han=((p["when"], p["han"]),))
        return None
