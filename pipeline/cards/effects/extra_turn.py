"""``extra_turn``: an optional extra turn after a discard (rules C-14..C-17)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pipeline.cards.effects.base import CardEffect, DiscardContext
from pipeline.rules.hooks import DiscardView

WHITE_DRAGON, GREEN_DRAGON = 31, 32


def _two_or_eight(view: DiscardView, params: Mapping[str, Any]) -> bool:
    t = view.tile // 4
    return t < 27 and t % 9 in (1, 7)


def _souzu_or_green_called(view: DiscardView, params: Mapping[str, Any]) -> bool:
    called = view.after_call
    return called is not None and (18 <= called[1] // 4 < 27 or called[1] // 4 == GREEN_DRAGON)


def _tedashi_all_closed_behind(view: DiscardView, params: Mapping[str, Any]) -> bool:
    # C-22 Aislinn: no extra turn from a discard after a call; the dealer's first discard
    # counts as tedashi
    tedashi = not view.tsumogiri or (view.first_discard and view.seat == view.dealer)
    below = view.scores[view.seat] < view.start_points or not params["points_below_start"]
    return view.after_call is None and view.others_closed and tedashi and below


# The discards that earn the turn, by ``when`` value: (the discard, the effect's parameters).
WHEN: dict[str, Callable[[DiscardView, Mapping[str, Any]], bool]] = {
    "discard_2_or_8": _two_or_eight,
    "discard_white_dragon": lambda view, params: view.tile // 4 == WHITE_DRAGON,
    "call_souzu_or_green": _souzu_or_green_called,
    "after_call": lambda view, params: view.after_call is not None,
    "tedashi_all_closed_behind": _tedashi_all_closed_behind,
}


class ExtraTurn(CardEffect):
    """Her discard that nobody claimed earns an extra turn when ``when`` holds (:data:`WHEN`);
    the engine offers it with a pass (C-17), never after a face-down discard or an extra turn
    (C-15). ``suji_or_genbutsu_vs_riichi`` is played by the table effects and
    ``new_family_discard`` by the two-sided card.

    Bot policy: the extra turn is taken unless a threat is on the table (a riichi, or an
    opponent with three open melds, or two late in the hand) while her hand is two or more
    steps from tenpai: a folding hand would only risk one more discard."""

    kind = "extra_turn"
    hooks = frozenset({"extra_turn"})
    supported = {"when": frozenset(WHEN)}

    def extra_turn(self, ctx: DiscardContext) -> bool:
        earned = WHEN.get(self.params["when"])
        return earned is not None and earned(ctx.view, self.params)
