"""Scoring a win on top of the `mahjong` package, with a seam for card modifiers.

The package (``mahjong`` 2.x) finds the yaku, fu and points of a hand; this module converts the
engine's :class:`WinContext` into the package's input and its answer into a :class:`WinResult`.

Two paths give the same answer for an unmodified win:

- without modifiers, the package's own ``estimate_hand_value`` is called (fast, and the reference);
- with modifiers (card abilities), every decomposition of the hand is valued here, yaku by yaku,
  with the package's divider, yaku checks, fu and score tables, the modifiers are applied to each
  decomposition, and the best one is kept. A modifier can change which reading of a hand is worth
  most, so the package's own choice of decomposition cannot be reused.

Points never include honba or riichi sticks; the engine adds those.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import copy
from dataclasses import dataclass, field, replace
from functools import cache

from mahjong.constants import AKA_DORAS, CHUN, EAST, HAKU, HATSU, NORTH
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.fu import FuCalculator, FuDetail
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator, ScoresResult
from mahjong.hand_calculating.yaku import Yaku
from mahjong.meld import Meld as PkgMeld
from mahjong.utils import build_dora_count_map, classify_hand_suits, count_dora_for_hand

from pipeline.rules.actions import Meld, MeldKind
from pipeline.tiles import TERMINAL_HONOR_TYPES, counts34


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
    north_yakuhai: bool = False          # three players: a North set is yakuhai (S-04)


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
    ura_indicators: tuple[int, ...] = ()  # under the revealed indicators (count with riichi)
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
    spare_ura: tuple[int, ...] = ()      # further ura indicators an ability may reveal, in order
    kita: int = 0                        # Norths set aside as nukidora, one dora each (S-04)
    sanma: bool = False                  # three players: a 1m indicator points to 9m (S-05)


@dataclass(frozen=True)
class LocalYaku:
    """A yaku the `mahjong` package does not know, defined by a card (C-25).

    A local yaku worth 13 han or more is a yakuman: it scores alone, like the package's yakuman.
    """

    name: str
    han_closed: int
    han_open: int  # 0 = not allowed open

    def applies(self, ctx: WinContext, decomposition: list[list[int]]) -> bool:  # pragma: no cover
        """Whether the yaku is present in this reading of the hand.

        ``decomposition`` lists the groups as 34-types, melds included, as the package's
        ``HandDivider`` gives them (seven pairs for chiitoitsu; for kokushi, twelve single tiles
        and the pair).
        """
        raise NotImplementedError


@dataclass(frozen=True)
class ScoringModifiers:
    """What card abilities may change about scoring (the seam; no card code here).

    - ``yaku_values``: a yaku's han replaced (C-11), keyed by the yaku name as reported in
      :class:`WinResult` (e.g. ``"Pinfu"``); the value applies open and closed. A value of 0
      removes the yaku; a value of 13 or more makes it a yakuman (it then scores alone).
    - ``extra_han``: han that are not a yaku, like dora (C-12): they never make a win legal, and
      like dora they are not added to a yakuman.
    - ``dora_multiplier``: every dora (indicated, red, ura) counts this many han.
    - ``local_yaku``: extra yaku the cards define (C-25).
    - ``allowed_yaku``: when set, only these yaku count (others are ignored).
    - ``value_multiplier``: the win's points (before honba and sticks) are multiplied.
    - ``ura_dora``: None keeps the rule (ura-dora with riichi); True counts ura-dora without
      riichi too, False counts none.
    - ``extra_ura_indicators``: that many more ura indicators (``WinContext.spare_ura``) count.
    - ``as_dealer``: the win is paid as a dealer's win (each payer of a tsumo pays the same).
    - ``limit_steps``: a win of mangan or more is paid that many limits higher, up to a
      (kazoe) yakuman.
    - ``extra_sequences``: sequences the winner may build beyond the rules' own (type triples
      in order, see :mod:`pipeline.rules.hand_shapes`); readings using them are valued too.
    - ``win_without_yaku``: a reading with no yaku still wins; exactly 0 han counts as 1.
    - ``extra_han_with``: ``(yaku, name, han)``: extra han (not a yaku, C-12) that count only on
      a reading holding that yaku.
    - ``alias``: ``(type, read as)``: concealed tiles of that type may each be read as the other
      type (:func:`pipeline.rules.hand_shapes.alias_readings`); dora count the tiles as they are.
    - ``one_han_yaku``: when not 0, every yaku worth exactly 1 han in this hand (after
      ``yaku_values``, an open hand's reduced yaku included) is worth this many han.
    """

    yaku_values: dict[str, int] = field(default_factory=dict)
    extra_han: tuple[tuple[str, int], ...] = ()
    dora_multiplier: int = 1
    local_yaku: tuple[LocalYaku, ...] = ()
    allowed_yaku: frozenset[str] | None = None
    value_multiplier: int = 1
    ura_dora: bool | None = None
    extra_ura_indicators: int = 0
    as_dealer: bool = False
    limit_steps: int = 0
    extra_sequences: frozenset[tuple[int, int, int]] = frozenset()
    win_without_yaku: bool = False
    extra_han_with: tuple[tuple[str, str, int], ...] = ()
    alias: tuple[tuple[int, int], ...] = ()  # concealed types the winner may read as another
    one_han_yaku: int = 0


NO_MODIFIERS = ScoringModifiers()


@dataclass(frozen=True)
class WinResult:
    """The value of a win, before honba and sticks.

    ``ron_points`` is what the discarder pays on a ron. On a tsumo it is what the same han and
    fu would pay as a ron, for a tsumo settled by one player (pao, a rinshan off a fed kan). On a
    tsumo, each non-dealer pays ``tsumo_nondealer`` and the dealer pays ``tsumo_dealer`` (for a
    dealer win, every payer pays ``tsumo_nondealer``; ``tsumo_dealer`` is 0); both are 0 on a ron.
    ``pao_yakuman`` uses the stable names of :data:`PAO_NAMES` ("Daisangen", "Daisuushii").
    """

    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]    # (name, han) of the yaku that count, dora excluded
    dora: int                             # han from indicated dora (after multiplier)
    aka: int                              # han from red fives
    ura: int                              # han from ura dora
    limit: str                            # "", mangan, haneman, baiman, sanbaiman, yakuman
    yakuman: int                          # yakuman multiple (0 when not a yakuman)
    ron_points: int
    tsumo_dealer: int
    tsumo_nondealer: int
    pao_yakuman: tuple[str, ...] = ()     # daisangen / daisuushii among the yakuman, for pao
    extra: tuple[tuple[str, int], ...] = ()  # (name, han) of modifier han that are not yaku
    is_tsumo: bool = False

    @property
    def total(self) -> int:
        """Points the winner collects (ron: from the discarder; tsumo: from all payers)."""
        if not self.is_tsumo:
            return self.ron_points
        if self.tsumo_dealer:
            return self.tsumo_dealer + 2 * self.tsumo_nondealer
        return 3 * self.tsumo_nondealer

    def yaku_names(self) -> list[str]:
        return [name for name, _ in self.yaku]


# The yakuman that carry pao (responsibility payment): package name -> stable name.
PAO_NAMES = {"Daisangen": "Daisangen", "Dai Suushii": "Daisuushii"}

_DORA_ID, _AKA_ID, _URA_ID = 120, 121, 122   # yaku_id of the package's Dora, AkaDora, UraDora
_LOCAL_YAKU_ID = 1000                         # local yaku sort after every package yaku
_YAKUMAN_HAN = 13
_MAX_HAN = 78                                 # the package caps a hand at six yakuman

_KAZOE = {
    "yakuman": HandConstants.KAZOE_LIMITED,
    "sanbaiman": HandConstants.KAZOE_SANBAIMAN,
    "none": HandConstants.KAZOE_NO_LIMIT,
}
_RENHOU = ("off", "mangan", "yakuman")
_LIMITS = {"mangan": "mangan", "kiriage mangan": "mangan", "haneman": "haneman",
           "baiman": "baiman", "sanbaiman": "sanbaiman"}

# The package's errors for a win it refuses to value; anything else is a contradiction.
_NOT_A_WIN = (HandCalculator.ERR_HAND_NOT_WINNING, HandCalculator.ERR_NO_YAKU)


def score_win(
    ctx: WinContext, rules: ScoringRules, modifiers: ScoringModifiers = NO_MODIFIERS
) -> WinResult | None:
    """Value of a win, or None when the hand is not complete or has no yaku.

    Raises ValueError when the context contradicts itself (riichi with an open hand, rinshan on a
    ron, a winning tile that is not in the hand...): such a context is an engine bug, not a hand
    that fails to win.
    """
    if modifiers == NO_MODIFIERS and not ctx.sanma:
        return _score_with_package(ctx, rules)
    seated_dealer = ctx.is_dealer
    if modifiers.as_dealer and not seated_dealer:
        ctx = replace(ctx, is_dealer=True)
    result = score_win_exhaustive(ctx, rules, modifiers)
    if result is not None and result.is_tsumo and ctx.is_dealer and not seated_dealer:
        result = replace(result, tsumo_dealer=result.tsumo_nondealer)  # the dealer pays alike
    if result is None or modifiers.value_multiplier == 1:
        return result
    m = modifiers.value_multiplier
    return replace(result, ron_points=result.ron_points * m,
                   tsumo_dealer=result.tsumo_dealer * m,
                   tsumo_nondealer=result.tsumo_nondealer * m)


def score_win_exhaustive(
    ctx: WinContext, rules: ScoringRules, modifiers: ScoringModifiers = NO_MODIFIERS
) -> WinResult | None:
    """Value of a win found by valuing every decomposition here, with the modifiers applied.

    This is the path :func:`score_win` takes when modifiers are active; it is public so it can be
    checked against the package's own answer on unmodified hands.
    """
    setup = _Setup.build(ctx, rules, modifiers)
    best: _Candidate | None = None
    for read in (setup, *_alias_setups(setup, rules, modifiers)):
        for candidate in _candidates(read, modifiers):
            if best is None or candidate.priority > best.priority:
                best = candidate   # strict: the first of equals wins, as in the package
    return None if best is None else best.result


def _alias_setups(setup: _Setup, rules: ScoringRules, modifiers: ScoringModifiers
                  ) -> list[_Setup]:
    """The win read with aliased concealed tiles (``modifiers.alias``), one setup per reading
    besides the plain one; the tiles' own dora, red fives and ura-dora still count."""
    if not modifiers.alias:
        return []
    from pipeline.rules.hand_shapes import alias_readings

    ctx = setup.ctx
    closed = counts34(ctx.concealed)
    out = []
    for reading in alias_readings(closed, modifiers.alias)[1:]:
        own = ctx.win_tile // 4  # the winning tile read as itself, or as its alias
        read_as = [t for s, t in modifiers.alias if s == own and reading[t] > closed[t]]
        for win_type in ([own] if reading[own] else []) + read_as:
            tiles = [t * 4 + i % 4 for i, t in enumerate(
                x for x in range(34) for _ in range(reading[x]))]
            win = next(x for x in tiles if x // 4 == win_type)
            read = _Setup.build(replace(ctx, concealed=tuple(tiles), win_tile=win), rules,
                                modifiers)
            out.append(replace(read, dora=setup.dora, aka=setup.aka, ura=setup.ura))
    return out


# --- conversion ------------------------------------------------------------------------------


def to_package_meld(meld: Meld) -> PkgMeld:
    """The package's form of a declared meld (kakan is a SHOUMINKAN, ankan a closed KAN)."""
    tiles = sorted(meld.tiles)
    if meld.kind == MeldKind.CHI:
        return PkgMeld(PkgMeld.CHI, tiles, opened=True, called_tile=meld.called)
    if meld.kind == MeldKind.PON:
        return PkgMeld(PkgMeld.PON, tiles, opened=True, called_tile=meld.called)
    if meld.kind == MeldKind.MINKAN:
        return PkgMeld(PkgMeld.KAN, tiles, opened=True, called_tile=meld.called)
    if meld.kind == MeldKind.KAKAN:
        return PkgMeld(PkgMeld.SHOUMINKAN, tiles, opened=True, called_tile=meld.called)
    return PkgMeld(PkgMeld.KAN, tiles, opened=False)


@cache
def _prepared(rules: ScoringRules) -> tuple[HandConfig, HandConfig, HandConfig]:
    """The package's configs for one set of rules, built once: a config with every win flag
    off (copied for each win), and the ron configs of a non-dealer and a dealer (shared).

    Building a ``HandConfig`` builds every yaku object anew, which costs more than valuing
    most hands. Sharing the yaku objects is safe: the package rewrites only the han of Dora,
    Aka Dora and Ura Dora on each call (read at once, see :func:`_score_with_package`) and
    sets the double yakuman to single ones here, as it would itself; the engine never enables
    paarenchan or daisharin, the only yaku that change otherwise.
    """
    if rules.kazoe_limit not in _KAZOE:
        raise ValueError(f"kazoe_limit must be one of {sorted(_KAZOE)}, not {rules.kazoe_limit!r}")
    if rules.renhou not in _RENHOU:
        raise ValueError(f"renhou must be one of {_RENHOU}, not {rules.renhou!r}")
    options = OptionalRules(
        has_open_tanyao=rules.kuitan,
        has_aka_dora=rules.red_fives,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=_KAZOE[rules.kazoe_limit],
        kiriage=rules.kiriage,
        renhou_as_yakuman=rules.renhou == "yakuman",
    )
    base = HandConfig(options=options)
    if not rules.double_yakuman:       # as the package does inside estimate_hand_value
        for yaku in (base.yaku.daburu_kokushi, base.yaku.suuankou_tanki,
                     base.yaku.daburu_chuuren_poutou):
            yaku.han_closed = _YAKUMAN_HAN
        base.yaku.daisuushi.han_closed = _YAKUMAN_HAN
        base.yaku.daisuushi.han_open = _YAKUMAN_HAN
    ron_dealer = copy(base)
    ron_dealer.is_dealer = True
    return base, copy(base), ron_dealer


def hand_config(ctx: WinContext, rules: ScoringRules) -> HandConfig:
    """The package's config for this win: a copy of the rules' prepared config (its yaku
    objects shared, see :func:`_prepared`) with the win's flags set."""
    config = copy(_prepared(rules)[0])
    config.is_tsumo = ctx.is_tsumo
    config.is_riichi = ctx.riichi or ctx.double_riichi
    config.is_daburu_riichi = ctx.double_riichi
    config.is_ippatsu = ctx.ippatsu and rules.ippatsu
    config.is_rinshan = ctx.rinshan
    config.is_chankan = ctx.chankan
    config.is_haitei = ctx.haitei
    config.is_houtei = ctx.houtei
    config.is_tenhou = ctx.tenhou
    config.is_chiihou = ctx.chiihou
    config.is_renhou = ctx.renhou and rules.renhou != "off"
    config.player_wind = EAST + ctx.seat_wind
    config.round_wind = EAST + ctx.round_wind
    config.is_dealer = ctx.is_dealer   # the package would guess it from the seat wind
    return config


def _all_tiles(ctx: WinContext) -> list[int]:
    tiles = list(ctx.concealed)
    for meld in ctx.melds:
        tiles.extend(meld.tiles)
    return tiles


def _ura_indicators(ctx: WinContext, rules: ScoringRules,
                    modifiers: ScoringModifiers = NO_MODIFIERS) -> list[int]:
    """The ura indicators that count: with riichi (or as a modifier says), plus any extra."""
    riichi = ctx.riichi or ctx.double_riichi
    if not rules.ura_dora or not (riichi if modifiers.ura_dora is None else modifiers.ura_dora):
        return []
    return [*ctx.ura_indicators, *ctx.spare_ura[:modifiers.extra_ura_indicators]]


def _check_context(ctx: WinContext, rules: ScoringRules) -> None:
    """Refuse contradictory contexts with the same checks the package makes."""
    is_open = any(m.is_open for m in ctx.melds)
    renhou = ctx.renhou and rules.renhou != "off"
    ippatsu = ctx.ippatsu and rules.ippatsu
    problems = [
        (ctx.win_tile not in ctx.concealed, "the winning tile is not among the concealed tiles"),
        ((ctx.riichi or ctx.double_riichi) and is_open, "riichi with an open hand"),
        (ippatsu and not (ctx.riichi or ctx.double_riichi), "ippatsu without riichi"),
        (ctx.chankan and ctx.is_tsumo, "chankan on a tsumo"),
        (ctx.rinshan and not ctx.is_tsumo, "rinshan on a ron"),
        (ctx.haitei and not ctx.is_tsumo, "haitei on a ron"),
        (ctx.houtei and ctx.is_tsumo, "houtei on a tsumo"),
        (ctx.haitei and ctx.rinshan, "haitei and rinshan together"),
        (ctx.houtei and ctx.chankan, "houtei and chankan together"),
        (ctx.tenhou and (not ctx.is_dealer or not ctx.is_tsumo or bool(ctx.melds)),
         "tenhou needs a closed dealer tsumo"),
        (ctx.chiihou and (ctx.is_dealer or not ctx.is_tsumo or bool(ctx.melds)),
         "chiihou needs a closed non-dealer tsumo"),
        (renhou and (ctx.is_dealer or ctx.is_tsumo or bool(ctx.melds)),
         "renhou needs a closed non-dealer ron"),
    ]
    for bad, what in problems:
        if bad:
            raise ValueError(f"contradictory win context: {what}")


# --- results ---------------------------------------------------------------------------------


def ron_config(rules: ScoringRules, is_dealer: bool) -> HandConfig:
    """A win read as a ron, to price a tsumo that one player pays in full (shared: only read)."""
    return _prepared(rules)[2 if is_dealer else 1]


def _points(
    han: int, fu: int, yaku: Sequence[tuple[str, int]], cost: ScoresResult, ron: HandConfig, *,
    is_tsumo: bool, is_dealer: bool, is_yakuman: bool, dora: int = 0, aka: int = 0, ura: int = 0,
    extra: Sequence[tuple[str, int]] = (),
) -> WinResult:
    level = cost["yaku_level"]
    multiple = 0
    if "yakuman" in level:
        limit = "yakuman"
        multiple = int(level.split("x")[0]) if "x " in level else 1
    else:
        limit = _LIMITS.get(level, "")
    names = [name for name, _ in yaku]
    pao = tuple([stable for name, stable in PAO_NAMES.items() if is_yakuman and name in names])
    tsumo_dealer = tsumo_nondealer = 0
    if not is_tsumo:
        ron_points = cost["main"]
    else:
        ron_points = ScoresCalculator.calculate_scores(han, fu, ron, is_yakuman)["main"]
        if is_dealer:
            tsumo_nondealer = cost["main"]
        else:
            tsumo_dealer, tsumo_nondealer = cost["main"], cost["additional"]
    return WinResult(
        han=han, fu=fu, yaku=tuple(yaku), dora=dora, aka=aka, ura=ura, limit=limit,
        yakuman=multiple, ron_points=ron_points, tsumo_dealer=tsumo_dealer,
        tsumo_nondealer=tsumo_nondealer, pao_yakuman=pao, extra=tuple(extra), is_tsumo=is_tsumo,
    )


def _score_with_package(ctx: WinContext, rules: ScoringRules) -> WinResult | None:
    _check_context(ctx, rules)
    config = hand_config(ctx, rules)
    melds = [to_package_meld(m) for m in ctx.melds]
    response = HandCalculator.estimate_hand_value(
        _all_tiles(ctx), ctx.win_tile, melds=melds, dora_indicators=list(ctx.dora_indicators),
        config=config, ura_dora_indicators=_ura_indicators(ctx, rules),
    )
    if response.error in _NOT_A_WIN:
        return None
    if response.error:
        raise ValueError(f"the mahjong package refused the win: {response.error}")
    assert response.cost is not None and response.han is not None and response.fu is not None
    is_open = response.is_open_hand
    yaku: list[tuple[str, int]] = []
    dora = aka = ura = 0
    is_yakuman = False
    # Dora, Aka Dora and Ura Dora are shared objects rewritten on each call: read them now.
    for item in response.yaku or ():
        han = item.han_open if is_open and item.han_open else item.han_closed
        if item.yaku_id == _DORA_ID:
            dora = han
        elif item.yaku_id == _AKA_ID:
            aka = han
        elif item.yaku_id == _URA_ID:
            ura = han
        else:
            yaku.append((item.name, han))
            is_yakuman = is_yakuman or item.is_yakuman
    return _points(
        response.han, response.fu, yaku, response.cost, ron_config(rules, ctx.is_dealer),
        is_tsumo=ctx.is_tsumo, is_dealer=ctx.is_dealer, is_yakuman=is_yakuman, dora=dora,
        aka=aka, ura=ura,
    )


# --- every decomposition ---------------------------------------------------------------------


_WEST = 29  # the indicator type whose dora is North


def _counted(indicators: Sequence[int], sanma: bool) -> list[int]:
    """Indicators as the package counts them: with three players a 1m indicator is given as
    an 8m (a tile not in play) so that it points to 9m (rule S-05)."""
    if not sanma:
        return list(indicators)
    return [i + 28 if i < 4 else i for i in indicators]


@dataclass
class _Setup:
    """What stays the same across the decompositions of one win."""

    ctx: WinContext
    config: HandConfig
    ron: HandConfig
    melds: list[PkgMeld]
    opened_melds: list[list[int]]
    tiles_34: list[int]
    is_open: bool
    dora: int
    aka: int
    ura: int
    north: bool = False  # three players with North as a value wind (S-04)

    @classmethod
    def build(cls, ctx: WinContext, rules: ScoringRules,
              modifiers: ScoringModifiers = NO_MODIFIERS) -> _Setup:
        _check_context(ctx, rules)
        config = hand_config(ctx, rules)
        melds = [to_package_meld(m) for m in ctx.melds]
        tiles = _all_tiles(ctx)
        tiles_34 = counts34(tiles)
        opened = [m.tiles_34 for m in melds if m.opened]
        indicators = _counted(ctx.dora_indicators, ctx.sanma)
        dora = count_dora_for_hand(tiles_34, build_dora_count_map(indicators))
        aka = sum(t in AKA_DORAS for t in tiles) if rules.red_fives else 0
        ura_indicators = _counted(_ura_indicators(ctx, rules, modifiers), ctx.sanma)
        ura = count_dora_for_hand(tiles_34, build_dora_count_map(ura_indicators))
        if ctx.kita:  # rule S-04: each North set aside is a dora, and a North for indicators
            dora += ctx.kita * (1 + sum(i // 4 == _WEST for i in indicators))
            ura += ctx.kita * sum(i // 4 == _WEST for i in ura_indicators)
        return cls(ctx, config, ron_config(rules, ctx.is_dealer), melds, opened, tiles_34,
                   bool(opened), dora, aka, ura, rules.north_yakuhai and ctx.sanma)


@dataclass
class _Candidate:
    priority: tuple[int, bool, int, int, int]
    result: WinResult


def _candidates(setup: _Setup, modifiers: ScoringModifiers):
    """Each valid reading of the hand (decomposition and winning group), valued."""
    config, ctx = setup.config, setup.ctx
    valued_tiles = [HAKU, HATSU, CHUN, config.player_wind, config.round_wind]
    if setup.north:  # rule S-04 option: a North pair is a value pair too
        valued_tiles.append(NORTH)
    extra = modifiers.extra_sequences
    if extra:  # readings with wrap-around or honor sequences, which the package cannot split
        from pipeline.rules import scoring_shapes as shaped
    if max(setup.tiles_34) > 4:  # a reading with aliased tiles: more copies than the package splits
        from pipeline.rules import scoring_shapes as shaped
    hands = shaped.shaped_hands(setup, extra) if extra or max(setup.tiles_34) > 4 \
        else HandDivider.divide_hand(setup.tiles_34, setup.melds)
    for hand in hands:
        for win_group in _win_groups(ctx.win_tile, hand, setup.opened_melds):
            if extra and shaped.has_extra(hand, extra):
                fu_details, fu, base = shaped.shaped_reading(setup, hand, win_group, extra)
            else:
                fu_details, fu = FuCalculator.calculate_fu(
                    hand, ctx.win_tile, win_group, config, valued_tiles, setup.melds
                )
                base = _package_yaku(setup, hand, fu_details)
            candidate = _value(setup, modifiers, hand, base, fu, fu_details)
            if candidate is not None:
                yield candidate
    if not setup.is_open and config.yaku.kokushi.is_condition_met(None, setup.tiles_34):
        candidate = _value(setup, modifiers, _kokushi_groups(setup.tiles_34),
                           _kokushi_yaku(setup), 0, [])
        if candidate is not None:
            yield candidate


def _win_groups(win_tile: int, hand: list[list[int]], opened: list[list[int]]) -> list[list[int]]:
    """Distinct concealed groups that can hold the winning tile (as the package reads them)."""
    left = [list(m) for m in opened]
    seen: list[list[int]] = []
    for group in hand:
        if group in left:
            left.remove(group)
            continue
        if win_tile // 4 in group and group not in seen:
            seen.append(group)
    return seen


def _package_yaku(setup: _Setup, hand: list[list[int]], fu_details: list[FuDetail]) -> list[Yaku]:
    """The yaku the package finds in one reading, in the package's own order of checks."""
    config, y, ctx = setup.config, setup.config.yaku, setup.ctx
    is_open, melds, win_tile = setup.is_open, setup.melds, ctx.win_tile
    chi_sets = [g for g in hand if len(g) == 3 and g[0] != g[1]]
    pon_or_kan = [g for g in hand if len(g) >= 3 and g[0] == g[1]]
    is_chiitoitsu = y.chiitoitsu.is_condition_met(hand)
    is_tanyao_hand = y.tanyao.is_condition_met(hand)
    suit_mask, honor_count = classify_hand_suits(hand)
    has_honors = honor_count > 0
    found: list[Yaku] = []
    if config.is_tsumo and not is_open:
        found.append(y.tsumo)
    if len(fu_details) == 1 and not is_chiitoitsu and not is_open:
        found.append(y.pinfu)
    if is_chiitoitsu:
        found.append(y.chiitoitsu)
    if (not is_open or config.options.has_open_tanyao) and is_tanyao_hand:
        found.append(y.tanyao)
    if config.is_riichi and not config.is_daburu_riichi:
        found.append(y.riichi)
    if config.is_daburu_riichi:
        found.append(y.daburu_riichi)
    flags = ((config.is_ippatsu, y.ippatsu), (config.is_rinshan, y.rinshan),
             (config.is_chankan, y.chankan), (config.is_haitei, y.haitei),
             (config.is_houtei, y.houtei))
    found.extend([yaku for on, yaku in flags if on])
    if config.is_renhou:
        found.append(y.renhou_yakuman if config.options.renhou_as_yakuman else y.renhou)
    if config.is_tenhou:
        found.append(y.tenhou)
    if config.is_chiihou:
        found.append(y.chiihou)
    if y.chinitsu.is_condition_met(hand):
        found.append(y.chinitsu)
    elif y.honitsu.is_condition_met(hand):
        found.append(y.honitsu)
    if not chi_sets:
        if has_honors and y.tsuisou.is_condition_met(hand):
            found.append(y.tsuisou)
        if not is_tanyao_hand:
            if y.honroto.is_condition_met(hand):
                found.append(y.honroto)
            if not has_honors and y.chinroto.is_condition_met(hand):
                found.append(y.chinroto)
    if y.ryuisou.is_condition_met(hand):
        found.append(y.ryuisou)
    if chi_sets:
        if not is_tanyao_hand:
            found.extend([k for k in (y.chantai, y.junchan, y.ittsu) if k.is_condition_met(hand)])
        if not is_open:
            if y.ryanpeiko.is_condition_met(hand):
                found.append(y.ryanpeiko)
            elif y.iipeiko.is_condition_met(hand):
                found.append(y.iipeiko)
        if suit_mask == 7 and y.sanshoku.is_condition_met(hand):
            found.append(y.sanshoku)
    if pon_or_kan:
        if y.toitoi.is_condition_met(hand):
            found.append(y.toitoi)
        if y.sanankou.is_condition_met(hand, win_tile, melds, config.is_tsumo):
            found.append(y.sanankou)
        if suit_mask == 7 and y.sanshoku_douko.is_condition_met(hand):
            found.append(y.sanshoku_douko)
        if has_honors:
            found.extend([k for k in (y.shosangen, y.haku, y.hatsu, y.chun)
                         if k.is_condition_met(hand)])
            seat = (y.seat_wind_east, y.seat_wind_south, y.seat_wind_west, y.seat_wind_north)
            found.extend([k for k in seat if k.is_condition_met(hand, config.player_wind)])
            if setup.north and y.seat_wind_north.is_condition_met(hand, NORTH):
                found.append(y.seat_wind_north)  # rule S-04 option: North as a value wind
            prevalent = (y.round_wind_east, y.round_wind_south, y.round_wind_west,
                         y.round_wind_north)
            found.extend([k for k in prevalent if k.is_condition_met(hand, config.round_wind)])
            found.extend([k for k in (y.daisangen, y.shosuushi, y.daisuushi)
                         if k.is_condition_met(hand)])
        win_count = setup.tiles_34[win_tile // 4]
        if not melds and not is_tanyao_hand and y.chuuren_poutou.is_condition_met(hand):
            found.append(y.daburu_chuuren_poutou if win_count in (2, 4) else y.chuuren_poutou)
        if not is_open and y.suuankou.is_condition_met(hand, win_tile, config.is_tsumo):
            found.append(y.suuankou_tanki if win_count == 2 else y.suuankou)
        if y.sankantsu.is_condition_met(hand, melds):
            found.append(y.sankantsu)
        if y.suukantsu.is_condition_met(hand, melds):
            found.append(y.suukantsu)
    return found


def _kokushi_yaku(setup: _Setup) -> list[Yaku]:
    config, y = setup.config, setup.config.yaku
    double = setup.tiles_34[setup.ctx.win_tile // 4] == 2
    found = [y.daburu_kokushi if double else y.kokushi]
    if config.is_renhou and config.options.renhou_as_yakuman:
        found.append(y.renhou_yakuman)
    if config.is_tenhou:
        found.append(y.tenhou)
    if config.is_chiihou:
        found.append(y.chiihou)
    return found


def _kokushi_groups(tiles_34: list[int]) -> list[list[int]]:
    return [[t] * tiles_34[t] for t in sorted(TERMINAL_HONOR_TYPES)]


@dataclass(frozen=True)
class _Counted:
    name: str
    han: int
    order: int


def _value(
    setup: _Setup, modifiers: ScoringModifiers, hand: list[list[int]], base: list[Yaku],
    fu: int, fu_details: list[FuDetail],
) -> _Candidate | None:
    """One reading valued with the modifiers; None when it has no yaku left."""
    is_open, config = setup.is_open, setup.config
    counted = [
        _Counted(k.name, k.han_open if is_open and k.han_open else k.han_closed, k.yaku_id)
        for k in base
    ]
    for i, local in enumerate(modifiers.local_yaku):
        han = local.han_open if is_open else local.han_closed
        if han > 0 and local.applies(setup.ctx, [list(g) for g in hand]):
            counted.append(_Counted(local.name, han, _LOCAL_YAKU_ID + i))
    if modifiers.allowed_yaku is not None:
        counted = [c for c in counted if c.name in modifiers.allowed_yaku]
    counted = [_Counted(c.name, modifiers.yaku_values.get(c.name, c.han), c.order)
               for c in counted]
    if modifiers.one_han_yaku:
        counted = [_Counted(c.name, modifiers.one_han_yaku, c.order) if c.han == 1 else c
                   for c in counted]
    counted = [c for c in counted if c.han > 0]
    yakuman = [c for c in counted if c.han >= _YAKUMAN_HAN]
    if yakuman:
        counted = yakuman
    if not counted and not modifiers.win_without_yaku:
        return None
    counted.sort(key=lambda c: c.order)
    han = sum(c.han for c in counted)
    dora = aka = ura = 0
    extra: tuple[tuple[str, int], ...] = ()
    if not yakuman:
        dora, aka, ura = (n * modifiers.dora_multiplier for n in (setup.dora, setup.aka, setup.ura))
        names = {c.name for c in counted}
        extra = modifiers.extra_han + tuple([
            (name, h) for yaku, name, h in modifiers.extra_han_with if yaku in names and h])
        han += dora + aka + ura + sum(h for _, h in extra)
        if han == 0:  # a win without yaku (an ability allows it): exactly 0 han counts as 1
            extra += (("win_without_yaku", 1),)
            han = 1
    if config.options.limit_to_sextuple_yakuman:
        han = min(han, _MAX_HAN)
    cost = ScoresCalculator.calculate_scores(han, fu, config, bool(yakuman))
    if modifiers.limit_steps and not yakuman:
        cost = _raise_limit(cost, fu, config, modifiers.limit_steps)
    result = _points(
        han, fu, [(c.name, c.han) for c in counted], cost, setup.ron, is_tsumo=config.is_tsumo,
        is_dealer=setup.ctx.is_dealer, is_yakuman=bool(yakuman), dora=dora, aka=aka, ura=ura,
        extra=extra,
    )
    fu_sum = sum(d["fu"] for d in fu_details)
    return _Candidate((cost["total"], bool(yakuman), han, fu, fu_sum), result)


# han that reach each limit, in order; a step from sanbaiman reaches a (kazoe) yakuman
_LIMIT_HAN = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11, "yakuman": 13}
_LIMIT_ORDER = tuple(_LIMIT_HAN)


def _raise_limit(cost: ScoresResult, fu: int, config: HandConfig, steps: int) -> ScoresResult:
    """The payment of a win of mangan or more, ``steps`` limits higher (at most a yakuman)."""
    level = _LIMITS.get(cost["yaku_level"].replace("kazoe ", ""), "")
    if "yakuman" in cost["yaku_level"] or not level:
        return cost
    target = _LIMIT_ORDER[min(_LIMIT_ORDER.index(level) + steps, len(_LIMIT_ORDER) - 1)]
    return ScoresCalculator.calculate_scores(_LIMIT_HAN[target], fu, config,
                                             is_yakuman=target == "yakuman")
