"""``always_winning_tile``: a tile that always wins for her."""

from __future__ import annotations

from pipeline.cards.effects.base import CardEffect, WinTileContext

WHITE_DRAGON = 31


class AlwaysWinningTile(CardEffect):
    """``white_dragon_in_riichi``: while she is in riichi a white dragon wins for her, by tsumo
    or ron, also discarded face down (the engine's ``always_wins`` hook). Reading
    ``always_winning``: ``wildcard`` (default) needs a ready hand, the white dragon standing
    for its best completion, and the white dragon is one of her winning tiles for furiten: one
    in her own face-up pond, or one she let go by, makes her furiten (rule H-09).
    ``shapeless`` lets any hand win on it, valued by :mod:`pipeline.rules.shapeless`, and
    furiten comes only from her hand's own waits. ``rinshan`` is played by the meta effects.

    Bot policy: no decision: the bot takes every win offered, the white dragon's included
    (Tomoe Karijuku's policy is said in :mod:`pipeline.cards.abilities`)."""

    kind = "always_winning_tile"
    hooks = frozenset({"always_wins"})
    supported = {"tile": frozenset(("white_dragon_in_riichi",))}

    def always_wins(self, ctx: WinTileContext) -> bool:
        """A white dragon while she is in riichi: to a ready hand (for furiten too), or to any
        hand under the ``shapeless`` reading (not for furiten)."""
        view = ctx.view
        if not (view.seat == self.seat and self.params["tile"] == "white_dragon_in_riichi"
                and view.in_riichi and view.tile // 4 == WHITE_DRAGON):
            return False
        if self.params["always_winning"] == "shapeless":
            return not view.furiten_probe
        return bool(view.waits)
