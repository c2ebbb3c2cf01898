"""Scoring a win on top of the `mahjong` package, with a seam for card modifiers.

INTERFACE FILE: the data types below are the contract the engine codes against.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.rules.actions import Meld


@dataclass(frozen=True)
class ScoringRules:
    """The preset options that change how a win is valued."""

    red_fives: bool = True
    kuitan: bool = True
    double_yakuman: bool = False        # kokushi 13-wait, suuankou tanki... count double
    kazoe_limit: str = "yakuman"         # "yakuman" | "sanbaiman" | "none"
    kiriage: bool = False
    ippatsu: bool = True
    ura_dora: bool = True
    renhou: str = "off"                  # "off" | "mangan" | "yakuman"


@dataclass(frozen=True)
class WinContext:
    """Everything about one win that scoring needs. Tiles are 136-ids."""

    concealed: tuple[int, ...]           # closed tiles including the winning tile (no meld tiles)
    melds: tuple[Meld, ...]
    win_tile: int
    is_tsumo: bool
    seat_wind: int                       # 0 East .. 3 North
    round_wind: int                      # 0 East .. 3 North
    is_dealer: bool
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()  # only given for a riichi winner when ura is on
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False


@dataclass(frozen=True)
class LocalYaku:
    """A yaku the `mahjong` package does not know, defined by a card (C-25)."""

    name: str
    han_closed: int
    han_open: int  # 0 = not allowed open

    def applies(self, ctx: WinContext, decomposition: list[list[int]]) -> bool:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class ScoringModifiers:
    """What card abilities may change about scoring (the seam; no card code here).

    - ``yaku_values``: a yaku's han replaced (C-11), keyed by the yaku name as reported in
      :class:`WinResult` (e.g. ``"Pinfu"``); the value applies open and closed.
    - ``extra_han``: han that are not a yaku, like dora (C-12): they never make a win legal.
    - ``dora_multiplier``: every dora (indicated, red, ura) counts this many han.
    - ``local_yaku``: extra yaku the cards define (C-25).
    - ``allowed_yaku``: when set, only these yaku count (others are ignored).
    """

    yaku_values: dict[str, int] = field(default_factory=dict)
    extra_han: tuple[tuple[str, int], ...] = ()
    dora_multiplier: int = 1
    local_yaku: tuple[LocalYaku, ...] = ()
    allowed_yaku: frozenset[str] | None = None


NO_MODIFIERS = ScoringModifiers()


@dataclass(frozen=True)
class WinResult:
    """The value of a win, before honba and sticks.

    ``ron_points`` is what the discarder pays on a ron. On a tsumo, each non-dealer pays
    ``tsumo_nondealer`` and the dealer pays ``tsumo_dealer`` (for a dealer win, every payer pays
    ``tsumo_nondealer``; ``tsumo_dealer`` is 0).
    """

    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]    # (name, han) of the yaku that count, dora excluded
    dora: int                             # han from indicated dora (after multiplier)
    aka: int                              # han from red fives
    ura: int                              # han from ura dora
    limit: str                            # "", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"
    yakuman: int                          # yakuman multiple (0 when not a yakuman)
    ron_points: int
    tsumo_dealer: int
    tsumo_nondealer: int
    pao_yakuman: tuple[str, ...] = ()     # daisangen / daisuushii among the yakuman, for pao

    @property
    def total(self) -> int:
        return self.ron_points

    def yaku_names(self) -> list[str]:
        return [name for name, _ in self.yaku]


def score_win(
    ctx: WinContext, rules: ScoringRules, modifiers: ScoringModifiers = NO_MODIFIERS
) -> WinResult | None:
    """Value of a win, or None when the hand is not complete or has no yaku."""
    raise NotImplementedError
