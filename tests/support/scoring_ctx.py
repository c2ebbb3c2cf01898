"""Win contexts built from tile text, scored with a card's ability."""

from __future__ import annotations

from pipeline.cards.abilities import CardAbility
from pipeline.rules.actions import Meld
from pipeline.rules.hooks import WinView
from pipeline.rules.preset import load_preset
from pipeline.rules.scoring import WinContext, score_win
from pipeline.tiles import parse_tiles

PRESET = load_preset("online-hanchan")

RULES = PRESET.scoring_rules()

def ctx_of(concealed: str, win: str, *, melds: tuple[Meld, ...] = (), taken: list[int] | None
           = None, tsumo: bool = False, seat_wind: int = 1, dealer: bool = False,
           dora: str = "1z", ura: str = "", spare: str = "", **kw) -> WinContext:
    taken = list(taken or [])
    tiles = parse_tiles(concealed, taken=taken)
    taken.extend(tiles)
    win_tile = parse_tiles(win, taken=taken)[0]
    taken.append(win_tile)
    indicators = parse_tiles(dora, taken=taken)
    taken.extend(indicators)
    ura_tiles = parse_tiles(ura, taken=taken) if ura else []
    taken.extend(ura_tiles)
    spare_tiles = parse_tiles(spare, taken=taken) if spare else []
    return WinContext(concealed=(*tiles, win_tile), melds=melds, win_tile=win_tile,
                      is_tsumo=tsumo, seat_wind=seat_wind, round_wind=0, is_dealer=dealer,
                      dora_indicators=tuple(indicators), ura_indicators=tuple(ura_tiles),
                      spare_ura=tuple(spare_tiles), **kw)


def view(ctx: WinContext, seat: int = 1, *, discarder: int | None = 0, riichi=(),
         table_points: int = 0, melds=(), seen=(), dealer: int = 0) -> WinView:
    return WinView(seat, ctx, None if ctx.is_tsumo else discarder, (30000,) * 4, dealer,
                   tuple(riichi), table_points=table_points, melds=tuple(melds),
                   seen=tuple(seen))


def scored(ability: CardAbility, ctx: WinContext, **kw):
    return score_win(ctx, RULES, ability.scoring(view(ctx, seat=ability.seat, **kw)))


PINFU = ("234m456p678s99p23s", "4s")   # closed pinfu, 1-4s wait, no dora
