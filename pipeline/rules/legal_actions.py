"""The actions a seat may take on its own turn: tsumo, kans, kita, nine terminals, riichi and
the discards the rules allow (furiten, kuikae and the riichi lock applied), then those its
abilities add.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pipeline.rules.actions import Action, ActionKind, MeldKind
from pipeline.rules.agari import (
    count_terminal_honor_kinds,
    winning_types,
)
from pipeline.rules.hand_shapes import (
    shaped_winning_types,
)
from pipeline.rules.hooks import (
    AbilityHooks,
    OwnTurnView,
    WinTileView,
)
from pipeline.tiles import (
    HAND_MEMO,
    NORTH_TYPE,
    NUM_TILES,
    counts34,
)

if TYPE_CHECKING:
    pass  # imported here for the annotations only

from pipeline.rules.hand_controls import HandControls
from pipeline.rules.seats import PlayerState

# Actions are immutable values, so the discard and riichi action of each seat and tile are built
# once and offered again on every turn.
_DISCARDS = tuple([tuple([Action(ActionKind.DISCARD, s, t) for t in range(NUM_TILES)])
                  for s in range(4)])
_RIICHIS = tuple([tuple([Action(ActionKind.RIICHI, s, t) for t in range(NUM_TILES)])
                 for s in range(4)])
# Kinds bound once: looking a member up on its enum class costs more than the hot check itself.
_DISCARD, _RIICHI, _TSUMO, _KITA = (ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.TSUMO,
                                    ActionKind.KITA)
_PON_MELD = MeldKind.PON


@lru_cache(maxsize=HAND_MEMO)
def _offer(kind: ActionKind, seat: int, tile: int, tiles: tuple[int, ...] = ()) -> Action:
    """The win or call action of that kind, seat, tile and tiles, built once while it is offered
    again and again (actions are immutable values; hot path: the calls on a discard). The memo
    keeps the most recently offered: a long run meets 20,000-30,000 of them, some 360 bytes
    each, and the last few thousand keep most of the hits."""
    return Action(kind, seat, tile, tiles)


def _holds_four(counts: list[int]) -> bool:
    """Whether a type is held four times (``4 in counts``, as a loop over C ints where
    compiled, legal_actions.pxd: ``in`` compares each of the 34 counts as Python objects; hot
    path, every turn asks whether a concealed kan is possible)."""
    for c in counts:
        if c == 4:
            return True
    return False


def _any_always_wins(abilities: list[AbilityHooks], view: WinTileView) -> bool:
    """Whether one of the abilities makes the view's tile an always-winning tile (asked in
    turn, stopping at the first; a loop rather than any() over a generator, compiled)."""
    for a in abilities:
        if a.always_wins(view):
            return True
    return False


class LegalActions(HandControls):
    """A seat's own-turn actions: the rules' ones, then its abilities'."""

    def self_actions(self, seat: int, drew: bool, rinshan: bool) -> list[Action]:
        """Actions on the seat's own turn: the rules' ones, then any its ability adds (its
        arguments positional: compiled, called straight from C, hand.pxd)."""
        acts = self._rule_actions(seat, drew, rinshan)
        if not self.abilities:
            return acts
        own = self._own_listeners("own_actions", seat)
        if own:
            p = self.players[seat]
            view = OwnTurnView(
                seat, tuple([a.tile for a in acts if a.kind == _DISCARD]), drew=drew,
                in_riichi=p.riichi, turns=p.turns,
                opponents_ippatsu=tuple([q.seat for q in self.players
                                         if q.seat != seat and q.ippatsu]),
                after_call=p.last_call[0] if p.last_call else None,
                riichi_tiles=tuple([a.tile for a in acts if a.kind == _RIICHI]),
                scores=tuple(self.scores))
            for ability in own:
                acts.extend(ability.own_actions(view))
        return self._filter_own_kans(seat, acts)

    def _rule_actions(self, seat: int, drew: bool, rinshan: bool) -> list[Action]:
        """Actions the rules give: win, kans, nine terminals, riichi, discards."""
        p = self.players[seat]
        acts: list[Action] = []
        counts = p.held()
        complete = drew and p.drawn_completes()
        if complete or (drew and self.abilities
                        and self._always_wins_drawn(p, rinshan and not self.kita_draw)):
            ctx = self.win_context(seat, p.drawn, tsumo=True, rinshan=rinshan)
            value = self._win_value(seat, ctx, None, complete=complete)
            if value is not None and self._win_allowed(seat, ctx, None, value.yakuman):
                acts.append(_offer(_TSUMO, seat, p.drawn))
        if (drew and not rinshan and p.turns == 0 and self.uninterrupted
                and self.preset.abortive_draws and count_terminal_honor_kinds(counts) >= 9):
            acts.append(Action(ActionKind.NINE_TERMINALS, seat))  # rule M-04, K-11
        if drew:
            acts.extend(self._kan_actions(seat, counts))
            if self.preset.kita and counts[NORTH_TYPE]:
                acts.extend(self._kita_actions(p))
        offer = _DISCARDS[seat]
        if p.riichi:
            acts.append(offer[p.drawn])
            return acts
        kuikae = p.kuikae
        discards = [t for t in p.concealed if t // 4 not in kuikae] if kuikae else p.concealed
        acts.extend([offer[t] for t in discards])
        if self._may_riichi(seat):
            ready = p.ready()
            if ready:
                offer = _RIICHIS[seat]
                acts.extend([offer[t] for t in discards if t // 4 in ready])
        return acts

    def _may_riichi(self, seat: int) -> bool:
        p = self.players[seat]
        return (p.is_closed and not p.riichi
                and self.scores[seat] >= self.preset.riichi_min_points
                and self.wall.live_left >= self.preset.riichi_min_wall  # rule H-08, K-02
                and (not self.abilities or self._abilities_allow_riichi(seat)))

    def _abilities_allow_riichi(self, seat: int) -> bool:
        """Whether every ability of the seat allows its riichi (a loop, not ``all()`` over a
        generator, which costs more compiled: asked on every turn of a closed hand)."""
        for a in self.abilities:
            if a.seat == seat and not a.riichi_allowed():
                return False
        return True

    def _kan_room(self) -> bool:
        # rule H-06: a kan needs a replacement tile; K-03: none on the last draw
        return self.wall.rinshan_left > 0 and self.wall.live_left > 0 and self.kan_count < 4

    def _kan_actions(self, seat: int, counts: list[int]) -> list[Action]:
        p = self.players[seat]
        four = _holds_four(counts)
        if not (four or (p.melds and not p.riichi)):  # nothing to declare (hot path)
            return []
        if not self._kan_room() or p.kans >= 4:  # rule K-08
            return []
        acts = []
        if four:
            for t in range(34):
                if counts[t] == 4 and self._ankan_allowed(p, t):
                    tiles = tuple(sorted([x for x in p.concealed if x // 4 == t]))
                    acts.append(Action(ActionKind.ANKAN, seat, tiles=tiles))
        if not p.riichi:
            for m in p.melds:
                if m.kind == _PON_MELD:
                    t = m.tile_type  # read once, not for every tile held
                    for x in p.concealed:
                        if x // 4 == t:
                            acts.append(Action(ActionKind.KAKAN, seat, x))
        return acts

    def _kita_actions(self, p: PlayerState) -> list[Action]:
        """Rule S-03: on one's own turn a North may be set aside, while the live wall has a
        tile for the dead wall to take; in riichi only the drawn North (the wait stays)."""
        if not self.wall.live_left or not self.wall.rinshan_left:
            return []
        if p.riichi:
            return [_offer(_KITA, p.seat, p.drawn)] if p.drawn // 4 == NORTH_TYPE else []
        return [_offer(_KITA, p.seat, x) for x in p.concealed if x // 4 == NORTH_TYPE]

    def _ankan_allowed(self, p: PlayerState, t: int) -> bool:
        if not p.riichi:
            return True
        if self.preset.kan_after_riichi == "none":  # rule H-08
            return False
        # In riichi: only with the drawn tile, and only if the wait does not change (K-09).
        if p.drawn is None or p.drawn // 4 != t:
            return False
        before = counts34(x for x in p.concealed if x != p.drawn)
        after = list(before)
        after[t] = 0
        if p.shapes:
            return bool(shaped_winning_types(before, p.shapes)) and \
                shaped_winning_types(before, p.shapes) == shaped_winning_types(after, p.shapes)
        return bool(winning_types(before)) and winning_types(before) == winning_types(after)

    def _always_wins_drawn(self, p: PlayerState, rinshan: bool) -> bool:
        """Whether the seat's drawn tile, which does not complete the hand, is an
        always-winning tile; the waits before the draw are worked out only for a seat whose
        ability has such tiles."""
        own = self._own_listeners("always_wins", p.seat)
        if not own:
            return False
        view = WinTileView(p.seat, p.drawn, tsumo=True, in_riichi=p.riichi, rinshan=rinshan,
                           last=self.wall.at_last_tile and not rinshan,
                           waits=p.waits_before_draw(), closed=p.is_closed)
        return _any_always_wins(own, view)
