"""Named conditions on a win: the predicates the ``condition`` and ``when`` values of effects
name (the vocabulary's ``CONDITIONS``). An effect looks its value up here; a value with no
predicate is not implemented."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.rules.hooks import WinView

Predicate = Callable[[WinView, int], bool]


def _closed(win: WinView, seat: int) -> bool:
    return all(not m.is_open for m in win.ctx.melds)


def _in_riichi(win: WinView, seat: int) -> bool:
    return win.ctx.riichi or win.ctx.double_riichi


def placement_order(scores: tuple[int, ...], dealer: int) -> list[int]:
    """Seats from first to last (rule C-21: on equal points, farther from the dealer is lower)."""
    n = len(scores)  # three or four seats (rule S-01)
    return sorted(range(n), key=lambda s: (-scores[s], (s - dealer) % n))


def _last_place(win: WinView, seat: int) -> bool:
    return placement_order(win.scores, win.dealer)[-1] == seat


def _chasing_riichi(win: WinView, seat: int) -> bool:
    return seat in win.riichi_seats and win.riichi_seats.index(seat) > 0


WIN_CONDITIONS: dict[str, Predicate] = {
    "always": lambda win, seat: True,
    "closed": _closed,
    "in_riichi": _in_riichi,
    "damaten": lambda win, seat: _closed(win, seat) and not _in_riichi(win, seat),
    "last_place": _last_place,
    "chasing_riichi": _chasing_riichi,
}


def condition_holds(condition: str, win: WinView, seat: int) -> bool | None:
    """Whether a named condition holds for this seat's win; None when it has no predicate."""
    holds = WIN_CONDITIONS.get(condition)
    return None if holds is None else holds(win, seat)
