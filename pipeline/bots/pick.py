"""The bots' pick policy: which character of the team to play with this starting hand.

Each effect kind has a rough estimate of what it adds to the seat's expected result this hand,
in points: the chance the hand is won (from its shanten), times the chance the effect applies
on a win, times what it adds (extra han are priced as a share of an average win). Effects that
act outside wins (defence, extra turns, table-wide rules) get a small fixed worth. The numbers
are deliberately rough and cheap: the pick only has to rank a handful of cards sensibly.

:func:`choose` takes the option with the highest estimate; ties keep the team's order, so the
pick is deterministic; :func:`ranking` lists every option in that order. An id the catalog does
not hold is worth nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pipeline.bots.pick_offsets import load_offsets
from pipeline.bots.shanten import discard_shanten, shanten
from pipeline.cards.catalog import Card
from pipeline.cards.effects import registry as fx
from pipeline.cards.effects.base import CardEffect
from pipeline.cards.effects.flip_card import two_sided
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.incentives import TileIncentives, combine
from pipeline.rules.hooks import PickView
from pipeline.tiles import RECENT_MEMO, RED_FIVE_IDS, counts34

# Chance the hand is won, by shanten of the starting hand (dealer's 14 tiles: after a discard).
WIN_CHANCE = {-1: 0.7, 0: 0.55, 1: 0.42, 2: 0.3, 3: 0.2, 4: 0.12}
LOW_WIN_CHANCE = 0.07
AVERAGE_WIN = 5200          # a non-dealer's average win (the dealer's is 1.5 times that)
HAN_SHARE = 0.45            # one extra han adds about this share of an average win
CLOSED_SHARE = 0.6          # wins with a closed hand
RIICHI_SHARE = 0.5          # wins with riichi
TSUMO_SHARE = 0.35          # wins by tsumo

# Usual closed han and a base chance of being in a win, per yaku a card may revalue.
YAKU_BASE: dict[str, tuple[int, float]] = {
    "Menzen Tsumo": (1, 0.25), "Riichi": (1, RIICHI_SHARE), "Double Riichi": (2, 0.01),
    "Ippatsu": (1, 0.08), "Pinfu": (1, 0.22), "Tanyao": (1, 0.25), "Iipeiko": (1, 0.07),
    "Ryanpeikou": (3, 0.01), "Chiitoitsu": (2, 0.05), "Sanshoku Doujun": (2, 0.05),
    "Ittsu": (2, 0.05), "Honitsu": (3, 0.08), "Chinitsu": (6, 0.02), "Chantai": (2, 0.04),
    "Junchan": (3, 0.02), "Toitoi": (2, 0.05), "San Ankou": (2, 0.03),
    "Haitei Raoyue": (1, 0.04), "Houtei Raoyui": (1, 0.03), "Rinshan Kaihou": (1, 0.02),
    "Chankan": (1, 0.005),
}
CONDITION_CHANCE = {"always": 1.0, "closed": CLOSED_SHARE, "in_riichi": RIICHI_SHARE,
                    "damaten": 0.15, "chasing_riichi": 0.25}
ONE_HAN_YAKU_PER_WIN = 1.8


@dataclass(frozen=True)
class HandFeatures:
    """What the estimates read from a starting hand, computed once per hand."""

    counts: tuple[int, ...]
    shanten: int
    pairs: int
    pinzu: int
    simples_3_to_7: int
    families: int
    largest_suit: int
    honors: int
    red_fives: int = 0

    @property
    def win_chance(self) -> float:
        return WIN_CHANCE.get(self.shanten, LOW_WIN_CHANCE)


@lru_cache(maxsize=RECENT_MEMO)
def features(hand: tuple[int, ...]) -> HandFeatures:
    """The features of a starting hand (13 tiles, or the dealer's 14)."""
    counts = counts34(hand)
    if sum(counts) % 3 == 2:   # the dealer discards first: count the hand after its best discard
        sh = min(discard_shanten(counts).values())  # each held type's discard, as shanten
    else:
        sh = shanten(counts)
    suits = [sum(counts[9 * k:9 * k + 9]) for k in range(3)]
    honors = sum(counts[27:])
    families = sum(1 for n in suits if n) + (sum(counts[27:31]) > 0) + (sum(counts[31:]) > 0)
    return HandFeatures(
        counts=tuple(counts), shanten=sh, pairs=sum(1 for c in counts if c >= 2),
        pinzu=suits[1], simples_3_to_7=sum(counts[t] for t in range(27) if 2 <= t % 9 <= 6),
        families=families, largest_suit=max(suits), honors=honors,
        red_fives=sum(1 for x in hand if x in RED_FIVE_IDS))


def _win_value(view: PickView) -> float:
    return AVERAGE_WIN * (1.5 if view.seat == view.dealer else 1.0)


def han_points(han: float, view: PickView) -> float:
    """What ``han`` extra han add to a win, roughly (limits flatten the gain)."""
    if han <= 0:
        return han * HAN_SHARE * _win_value(view)
    return _win_value(view) * HAN_SHARE * min(han, 4.0)


def _on_win(f: HandFeatures, chance: float, han: float, view: PickView) -> float:
    return f.win_chance * chance * han_points(han, view)


Estimate = Callable[[Mapping[str, Any], HandFeatures, PickView], float]


def _condition(params: Mapping[str, Any], view: PickView) -> float:
    cond = params.get("condition", "always")
    if cond == "last_place":
        return 1.0 if view.placement() == len(view.scores) else 0.1
    return CONDITION_CHANCE.get(cond, 0.5)


def _yaku_chance(yaku: str, f: HandFeatures) -> float:
    base = YAKU_BASE.get(yaku, (1, 0.05))[1]
    if yaku == "Iipeiko" and any(f.counts[t] >= 2 and f.counts[t + 1] >= 2 for t in range(26)
                                 if t % 9 < 8):
        return 0.25
    if yaku == "Chiitoitsu" and f.pairs >= 4:
        return 0.3
    if yaku == "Tanyao":
        return 0.45 if f.simples_3_to_7 >= 9 else base
    if yaku in ("Honitsu", "Chinitsu") and f.largest_suit + f.honors >= 10:
        return 0.35 if yaku == "Honitsu" else 0.1
    return base


def yaku_value(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    usual = YAKU_BASE.get(params["yaku"], (1, 0.05))[0]
    chance = _yaku_chance(params["yaku"], f) * _condition(params, view)
    if params.get("closed_only"):
        chance *= CLOSED_SHARE
    return _on_win(f, chance, params["han"] - usual, view)


def one_han_yaku_value(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    extra = ONE_HAN_YAKU_PER_WIN * (params["han"] - 1)
    return _on_win(f, _condition(params, view), extra, view)


def _threshold_han(count: float, at: Sequence[int], han: Sequence[int]) -> int:
    return max([h for a, h in zip(at, han, strict=True) if count >= a], default=0)


def count_bonus(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if params["count"] == "pinzu_tiles":
        expected = f.pinzu + (1 if f.pinzu >= 5 else 0)   # a leaning hand gathers a few more
        return _on_win(f, 0.8 * _condition(params, view),
                       _threshold_han(expected, params["at"], params["han"]), view)
    first = params["han"][0] if params["han"] else 0
    return _on_win(f, 0.25 * _condition(params, view), first, view)


def han_per_count(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return _on_win(f, 0.25 * _condition(params, view), params["han"], view)


BONUS_CHANCE = {"single_wait": 0.2, "wait_three_types": 0.08, "tsumo": TSUMO_SHARE,
                "white_dragon_tsumo": 0.03, "ron_on_riichi_discard_per_stick": 0.12,
                "early_riichi_after_dealing_in": 0.03}


def condition_bonus(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    when = params["when"]
    chance = BONUS_CHANCE.get(when, 0.05)
    han = params["han"]
    if when == "only_3_to_7":
        chance = 0.4 if f.simples_3_to_7 >= 11 else 0.12 if f.simples_3_to_7 >= 9 else 0.01
    if when == "ron_on_riichi_discard_per_stick":
        han *= 1.5 + view.sticks
    return _on_win(f, chance, han, view)


def win_multiplier(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    chance = {"always": 1.0, "damaten_hell_wait": 0.01, "ippatsu_threat": 0.05}.get(
        params["when"], 0.05)
    return f.win_chance * chance * _win_value(view) * (params["factor"] - 1)


def local_yaku(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if params["yaku"] == "uumensai":
        chance = 0.3 if f.families == 5 else 0.08 if f.families == 4 else 0.01
    else:   # shiiaru raotai: four calls and a pair wait
        chance = 0.03 if f.pairs >= 4 else 0.01
    return _on_win(f, chance, params["han"] + (0.4 if params.get("ura") else 0), view)


def ura_rule(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    value = _on_win(f, RIICHI_SHARE, 0.4 * params["extra_indicators"], view)
    if params["others_get_none"]:   # three others' riichi wins lose about 0.4 han of ura
        value += 3 * 0.2 * RIICHI_SHARE * 0.4 * HAN_SHARE * AVERAGE_WIN / 3
    return value


def score_as_dealer(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if view.seat == view.dealer:   # mangan or more paid one limit higher
        return f.win_chance * 0.3 * 0.4 * _win_value(view)
    return f.win_chance * RIICHI_SHARE * 0.5 * _win_value(view)


def double_wind(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    seat_wind = 27 + (view.seat - view.dealer) % len(view.scores)
    held = f.counts[seat_wind]
    chance = 0.5 if held >= 2 else 0.1 if held == 1 else 0.02
    return _on_win(f, chance, 1, view) + _on_win(f, 0.3, 1, view)   # others' wind melds


def always_riichi(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # riichi yaku and ura on closed wins that would not have riichi, no stick at risk
    return _on_win(f, CLOSED_SHARE - RIICHI_SHARE / 2, 1.4, view) + 150


def open_keeps_value(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    chance = 0.3 if f.largest_suit + f.honors >= 10 else 0.05
    return _on_win(f, chance, 1, view)


FACE_DOWN_WORTH = {"once_per_hand": 200.0, "ippatsu_threat": 80.0, "after_chi": 100.0}


def face_down_discard(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return FACE_DOWN_WORTH.get(params["when"], 100.0)


def extra_turn(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    when = params["when"]
    if when == "discard_2_or_8":
        n = sum(f.counts[t] for t in range(27) if t % 9 in (1, 7))
        return 120.0 * n
    if when == "discard_white_dragon":
        return 250.0 * f.counts[31]
    return 120.0


def open_hands(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return -600.0 if params["who"] == "self" else 300.0


def _dora_held(f: HandFeatures, view: PickView) -> int:
    """Dora in the starting hand (indicated and red fives)."""
    held = sum(f.counts[_next_type(x // 4)] for x in view.dora_indicators)
    return held + f.red_fives


def _next_type(t: int) -> int:
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    if t < 31:
        return 27 + (t - 27 + 1) % 4
    return 31 + (t - 31 + 1) % 3


def dora_both_ways(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # tiles just before an indicator held now, and about half a tile gathered, on closed wins
    held = sum(f.counts[_previous_type(x // 4)] for x in view.dora_indicators)
    return _on_win(f, CLOSED_SHARE, held + 0.5, view)


def _previous_type(t: int) -> int:
    if t < 27:
        return t - t % 9 + (t % 9 - 1) % 9
    if t < 31:
        return 27 + (t - 27 - 1) % 4
    return 31 + (t - 31 - 1) % 3


def call_payment(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # about one call a hand (more with pairs to pon), each paid by the player called from
    return (0.6 + 0.1 * f.pairs) * params["amount"]


def always_winning_tile(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # in riichi (about 4 hands in 10 for her) each unseen white dragon wins whatever the wait
    if params["tile"] == "white_dragon_in_riichi":
        return 0.4 * 0.08 * (4 - f.counts[31]) * _win_value(view)  # riichi: always ready
    ready = 1.0 if params["always_winning"] == "shapeless" else READY_SHARE
    return 0.05 * ready * _win_value(view)


def dora_multiplier(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if "dora_multiplier" in view.spent and params.get("lost_on_dora_discard"):
        # she discarded a known dora earlier in the match: her dora give nothing from now on
        return -_on_win(f, 1.0, _dora_held(f, view) + 0.5, view)
    extra = (_dora_held(f, view) + 0.5) * (params["factor"] - 1)
    return _on_win(f, 1.0, extra, view)


def ignore_dora(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # her dora count for nothing and she may not riichi; no furiten and no noten payments
    return -_on_win(f, 1.0, _dora_held(f, view) + 0.5, view) - 50


def extra_dora_stake(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if view.scores[view.seat] >= params["below"]:
        return 0.0
    return _on_win(f, RIICHI_SHARE, 0.4 * params["indicators"], view)


def floor_at_zero(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if "floor_at_zero" in view.spent:  # once per match, and used
        return 0.0
    return 1500.0 if view.scores[view.seat] < 8000 else 100.0


def honba_by_han(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # each honba pays 100 x her han (about 3) per payer; play adds a few honba
    return f.win_chance * (view.honba + 1.5) * 100 * 3 * 3


def payment_per_out(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # about 6 live outs on her wins; others' winning tiles in her hand now and then
    return f.win_chance * params["per_out"] * 6 * 3 + 0.6 * 0.3 * params["per_tile"]


def tsumo_full_ron(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return f.win_chance * TSUMO_SHARE * (2 * _win_value(view) + 3 * params["bonus"])


def table_sweep(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # draws and her deal-ins (about a quarter of hands) pay her the sweep and the sticks
    return 0.27 * (3 * params["each_pays"] + 1000 * view.sticks)


def win_without_yaku(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return f.win_chance * 0.2 * _win_value(view)


@lru_cache(maxsize=RECENT_MEMO)
def _shaped_start(counts: tuple[int, ...], kind: str) -> int:
    """Shanten of a starting hand counting the extra sequences of an effect kind (after the
    best discard for the dealer's 14 tiles)."""
    from pipeline.bots.shaped import extra_sequences, shaped_discard_shanten, shaped_shanten

    extra = extra_sequences((kind,))
    if sum(counts) % 3 == 2:
        return min(shaped_discard_shanten(counts, 0, extra).values())
    return shaped_shanten(counts, 0, extra)


def _sequences_gain(f: HandFeatures, kind: str, view: PickView) -> float:
    """What extra sequences are worth with this starting hand: the win chance they add (the
    hand is nearer to winning when her sequences count), times a win."""
    gain = WIN_CHANCE.get(_shaped_start(f.counts, kind), LOW_WIN_CHANCE) - f.win_chance
    return gain * _win_value(view)


def honor_sequences(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return _sequences_gain(f, "honor_sequences", view)


def wrap_sequences(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    return _sequences_gain(f, "wrap_sequences", view) - 100  # no pon or kan for her


STAKE_WORTH = {"inazuma_riichi": 200.0, "deal_in_while_tenpai": 150.0,
               "tsumo_below_her_value": 150.0, "open_hand_vs_aislinn": 100.0}


def stake_rule(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    if f"stake_rule:{params['when']}" in view.spent:  # a once-per-match stake already made
        return 0.0
    return STAKE_WORTH.get(params["when"], 100.0)


def late_ron(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # a second chance at each tenpai player's earlier discard: a few more rons, each with han
    return f.win_chance * 0.1 * _win_value(view) + _on_win(f, 0.1, params["han"], view)


def double_from_chi_sources(params: Mapping[str, Any], f: HandFeatures, view: PickView
                            ) -> float:
    # her tsumo wins after a chi: one payer (a third of the win) pays again
    return f.win_chance * TSUMO_SHARE * 0.3 * _win_value(view) / 3


# Rough shares for Hiroe's damaten (the bot stays dama with a yaku, see heuristic.DAMA_CARD): the
# hands in which she sits in damaten tenpai, and among those the ones in which a higher-placed
# player declares riichi and lets its ippatsu draw go (her win).
DAMA_TENPAI_SHARE = 0.2
IPPATSU_TILE_SHARE = 0.25


def dama_protection(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # others' tsumo while she is damaten (saved payment), riichi wins despite furiten, and the
    # higher players' ippatsu draws that win for her (none while she is first)
    higher = view.placement() - 1
    ippatsu = DAMA_TENPAI_SHARE * IPPATSU_TILE_SHARE * min(1.0, higher / 2) * _win_value(view)
    return 0.25 * 0.15 * 2000 + _on_win(f, RIICHI_SHARE * 0.1, 1, view) + ippatsu


def duel(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # payments with one player multiplied: worth it with a hand likely to win; the opponent's
    # ability is switched off
    return (params["factor"] - 1) * (f.win_chance - 0.2) * 0.35 * _win_value(view) + 200


EXCHANGE_ROUNDS = {"east": 0, "south": 1}
# Points a tile traded for a fresh one is worth, far from tenpai and near it.
EXCHANGE_PER_TILE = {True: 60.0, False: 30.0}
LAST_TILE_SHARE = 0.15  # the hands that reach the last tile, where hers always wins
READY_SHARE = 0.45      # of those, the share in which her hand is ready (the wildcard reading)


def wall_exchange(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    """Her worst tiles traded for fresh ones; nothing outside her round."""
    if EXCHANGE_ROUNDS[params["round"]] != view.round_wind:
        return 0.0
    times = 1.5 if params["repeat_after_second_row"] else 1.0
    return EXCHANGE_PER_TILE[f.shanten >= 2] * params["tiles"] * times


def last_tile_mastery(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    ready = 1.0 if params["always_winning"] == "shapeless" else READY_SHARE
    return LAST_TILE_SHARE * ready * _win_value(view)


# A swap with a pond tile: a few tiles improved per hand; after calls only when she calls.
POND_SWAP_WORTH = {"pond_6_or_12_or_riichi": 250.0, "after_call": 150.0}


# A declared pool (Ryuuka): no win before the pool is drawn, so the wins a hand would make in
# its first draws are delayed (some lost); the pool's tiles are known and drawn in her order.
# Either reading's bot mostly declares riichi (the yaku its play makes anyway); a free
# declaration adds a sure yaku now and then (a value-honor triplet). Measured with Ryuuka at
# every hand (heuristic bots, 60 matches): about even with no card at all.
POOL_EARLY_WINS = {-1: 0.8, 0: 0.75, 1: 0.6, 2: 0.45, 3: 0.3}  # wins within ten draws
EARLY_LOW = 0.15
POOL_DELAY_LOSS = 0.7      # of the wins delayed past the pool, the share that never comes
POOL_TILE_WORTH = 5.0      # a pool tile drawn in her order instead of blind
POOL_DECLARED_HAN = {"any_combination": 0.1, "five_fixed": 0.0}  # han gained by declaring


def declared_pool(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    """Worth more the farther the hand is from tenpai (it loses fewer early wins) and with a
    free declaration; the dealer's wins weigh more either way."""
    share = POOL_EARLY_WINS.get(f.shanten, EARLY_LOW) * min(1.0, params["tiles"] / 10)
    lost = f.win_chance * share * POOL_DELAY_LOSS * _win_value(view)
    han = POOL_DECLARED_HAN.get(params["declarations"], 0.0)
    return f.win_chance * han_points(han, view) + POOL_TILE_WORTH * params["tiles"] - lost


def swap_with_discard(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    """A known tile for a useless one, worth more while the hand is far from tenpai."""
    return POND_SWAP_WORTH[params["when"]] * (1.5 if f.shanten >= 2 else 1.0)


def winds_as_west(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # every wind held pairs with every other: loose winds turn into pairs and West triplets
    winds = sum(f.counts[27:31])
    return f.win_chance * 150.0 * winds


REVEAL_WIN_GAIN = 0.15      # three looks instead of one at her ippatsu draw: extra win chance
REVEAL_DORA_SHARE = 0.5     # wins where a swapped indicator makes one more of her tiles dora
REVEAL_PER_TRIPLET = 100.0  # a kan she may make, closed, with a revealed replacement draw


def rinshan_reveal(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    """Three looks at her ippatsu and rinshan draws and dora steered to her tiles: worth more
    for a hand likely to reach riichi and one holding triplets."""
    looks = f.win_chance * REVEAL_WIN_GAIN * AVERAGE_WIN
    dora = f.win_chance * REVEAL_DORA_SHARE * HAN_SHARE * AVERAGE_WIN
    return looks + dora + REVEAL_PER_TRIPLET * sum(1 for c in f.counts if c >= 3)


def own_wall_dora(params: Mapping[str, Any], f: HandFeatures, view: PickView) -> float:
    # the hand ends on her wall about one time in four: her wins there get the extra
    # indicators (about a third of a han each), her payments there are doubled
    on_her_wall = 0.25
    gain = f.win_chance * on_her_wall * params["own_wall_dora"] * 0.3 * _win_value(view) / 4
    return gain - on_her_wall * (1 - f.win_chance) * 0.3 * 2000


def _flat(worth: float) -> Estimate:
    return lambda params, f, view: worth


# What each effect class is worth with a starting hand, by class.
ESTIMATES: dict[type[CardEffect], Estimate] = {
    fx.DoraMultiplier: dora_multiplier,
    fx.DoraBothWays: dora_both_ways,
    fx.CallPayment: call_payment,
    fx.AlwaysWinningTile: always_winning_tile,
    fx.IgnoreDora: ignore_dora,
    fx.ExtraDoraStake: extra_dora_stake,
    fx.FloorAtZero: floor_at_zero,
    fx.HonbaByHan: honba_by_han,
    fx.PaymentPerOut: payment_per_out,
    fx.TsumoFullRon: tsumo_full_ron,
    fx.TableSweep: table_sweep,
    fx.WinWithoutYaku: win_without_yaku,
    fx.HonorSequences: honor_sequences,
    fx.WrapSequences: wrap_sequences,
    fx.StakeRule: stake_rule,
    fx.PriorityCall: _flat(150.0),
    fx.LateRon: late_ron,
    fx.DoubleFromChiSources: double_from_chi_sources,
    fx.DamaProtection: dama_protection,
    fx.BlocksCalls: _flat(250.0),   # in riichi: one player blocked, every other ability off
    fx.Duel: duel,
    fx.RepeatDiscard: _flat(150.0),
    fx.SetAsideDraw: _flat(100.0),
    fx.WallExchange: wall_exchange,
    fx.DrawFromDiscards: _flat(200.0),
    fx.PrivateExtraTile: _flat(400.0),
    fx.DeclaredPool: declared_pool,
    fx.LastTileMastery: last_tile_mastery,
    fx.WallToIndicator: _flat(100.0),  # eight more draws for everyone: more wins, hers too
    fx.NotenDoubleWall: own_wall_dora,
    fx.RinshanReveal: rinshan_reveal,
    fx.SwapWithDiscard: swap_with_discard,
    fx.BlocksWinsWithWind: _flat(300.0),  # others' wins blocked, winds swapped in
    fx.PeekAndSwap: _flat(200.0),  # a known wall tile for a hand tile, a few times a hand
    fx.MeldSwap: _flat(150.0),      # a better meld taken, tiles turned face down for her han
    fx.UnclaimableRepeat: _flat(100.0),
    fx.YakuValue: yaku_value,
    fx.OneHanYakuValue: one_han_yaku_value,
    fx.CountBonus: count_bonus,
    fx.HanPerCount: han_per_count,
    fx.ConditionBonus: condition_bonus,
    fx.WinMultiplier: win_multiplier,
    fx.LocalYakuEffect: local_yaku,
    fx.UraRule: ura_rule,
    fx.ScoreAsDealer: score_as_dealer,
    fx.DoubleWind: double_wind,
    fx.AlwaysRiichi: always_riichi,
    fx.OpenKeepsValue: open_keeps_value,
    fx.FaceDownDiscard: face_down_discard,
    fx.ExtraTurn: extra_turn,
    fx.OpenHands: open_hands,
    fx.WindsAsWest: winds_as_west,
    fx.CopyAbility: _flat(400.0),   # the better of two cards drawn blind, chosen with this hand
    fx.FamilyGuess: _flat(300.0),   # about one right guess in three draws: han on the back side
    fx.FlipCard: _flat(0.0),        # the worth is in the other side's effects
}


def effect_value(kind: str, params: Mapping[str, Any], hand: Sequence[int], view: PickView
                 ) -> float:
    """The rough worth in points of one effect this hand (0 for a kind with no estimate)."""
    effect = EFFECTS.get(kind)
    estimate = ESTIMATES.get(effect) if effect is not None else None
    if estimate is None:
        return 0.0
    return estimate(params, features(tuple(sorted(hand))), view)


def card_value(card: Card, hand: Sequence[int], view: PickView) -> float:
    """The sum of the card's implemented effects' rough worth in points with this starting
    hand: what the bot expects the character to add this hand."""
    return _card_worth(card, features(tuple(sorted(hand))), view)


def _card_worth(card: Card, f: HandFeatures, view: PickView) -> float:
    """:func:`card_value` with the hand's features read once (by the caller, for every option):
    each implemented effect's estimate (:func:`effect_value`), summed in the card's order."""
    worths = []
    for estimate, params in _estimates_of(card):
        worths.append(0.0 if estimate is None else estimate(params, f, view))
    return sum(worths)  # as ``sum`` adds (not a running ``+=``: 3.12 compensates)


def _estimates_of(card: Card) -> tuple[tuple[Estimate | None, Mapping[str, Any]], ...]:
    """The card's implemented effects (``effect_is_implemented``; the others are worth
    nothing) as (estimate, parameters), in the card's order: worked out once per card, not at
    every pick (:data:`_ESTIMATES_KEPT`, by the card's identity: cards are immutable)."""
    kept = _ESTIMATES_KEPT.get(id(card))
    if kept is not None and kept[0] is card:
        return kept[1]
    steps = []
    for e in card.effects:
        effect = EFFECTS.get(e.kind)
        if effect is not None and effect.implements(e.params):
            steps.append((ESTIMATES.get(effect), e.params))
    if len(_ESTIMATES_KEPT) >= RECENT_MEMO:  # bounded: a few catalogs' cards
        _ESTIMATES_KEPT.clear()
    _ESTIMATES_KEPT[id(card)] = (card, tuple(steps))  # the card held: its id stays its own
    return tuple(steps)


# each card's implemented effects' estimates, by the card's id (see _estimates_of)
_ESTIMATES_KEPT: dict[int, tuple[Card, tuple]] = {}


def default_view(seat: int = 0) -> PickView:
    """The situation when none is given: an even table, East round, seat 0 dealing."""
    return PickView(seat=seat, dealer=0, scores=(30000,) * 4)


def choose(hand: Sequence[int], options: Sequence[str], view: PickView | None = None,
           offsets: Mapping[str, float] | None = None) -> str:
    """The option worth most with this hand and situation: its estimate plus the card's
    offset fitted from trials (``offsets``, default the shipped ones of
    :mod:`pipeline.bots.pick_offsets`; ``{}`` for the raw estimates); the first of equals."""
    return ranking(hand, options, view, offsets)[0]


def ranking(hand: Sequence[int], options: Sequence[str], view: PickView | None = None,
            offsets: Mapping[str, float] | None = None) -> list[str]:
    """Every option, the one worth most first (as :func:`choose` weighs them; equals keep the
    team's order): a team trial replays a hand with the second of them."""
    view = view or default_view()
    catalog = _catalog_of(view)
    offsets = load_offsets() if offsets is None else offsets
    known = catalog.id_set
    f = features(tuple(sorted(hand)))  # once for every option
    values = []
    for card_id in options:
        value = 0.0  # an id the catalog does not hold: nothing known to gain
        if card_id in known:
            value = _card_worth(catalog.card(card_id), f, view) + offsets.get(card_id, 0.0)
        values.append(value)
    order = sorted(range(len(options)), key=lambda i: -values[i])  # stable: equals in order
    return [options[i] for i in order]


def raw_value(catalog: Any, card_id: str, hand: Sequence[int], view: PickView) -> float:
    """A card's estimate with this hand and situation, before its fitted offset."""
    return card_value(catalog.card(card_id), hand, view)


def effect_kinds(card_id: str, view: PickView | None = None) -> frozenset[str]:
    """The effect kinds of a card (none for an id the catalog does not hold): what a bot's
    play policy looks at once the character is picked."""
    catalog = _catalog_of(view or default_view())
    if card_id not in catalog.ids:
        return frozenset()
    return frozenset([e.kind for e in catalog.card(card_id).effects])


def card_incentives(card_id: str, view: PickView | None = None) -> TileIncentives | None:
    """What a card rewards or punishes in its holder's tile choices (its effects' declared
    incentives combined, :mod:`pipeline.cards.incentives`), given what the seat has used up
    (``view.spent``); None for a card without any, or an id the catalog does not hold."""
    view = view or default_view()
    catalog = _catalog_of(view)
    if card_id not in catalog.ids:
        return None
    return combine([EFFECTS[e.kind].incentives(e.params, view)
                    for e in catalog.card(card_id).effects if e.kind in EFFECTS])


def side_incentives(card_id: str, view: PickView | None = None
                    ) -> tuple[tuple[str, TileIncentives | None], ...]:
    """For a two-sided card, each side's id and incentives (:func:`card_incentives`), the
    front first: the bot plays the side lying face up (``Observation.cards_up``), since the
    flips are public but the pick is the front. Empty for a one-sided card."""
    view = view or default_view()
    catalog = _catalog_of(view)
    if card_id not in catalog.ids:
        return ()
    back = two_sided(catalog.card(card_id))
    if back is None or back not in catalog.ids:
        return ()
    return ((card_id, card_incentives(card_id, view)), (back, card_incentives(back, view)))


def _catalog_of(view: PickView) -> Any:
    """The catalog the options come from: the view's, else the default one."""
    from pipeline.cards.catalog import Catalog

    return view.catalog if isinstance(view.catalog, Catalog) else _default_catalog()


@lru_cache(maxsize=1)
def _default_catalog() -> Any:
    from pipeline.cards.catalog import load_catalog

    return load_catalog("1.2")
