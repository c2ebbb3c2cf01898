"""The effect classes by kind: every effect kind with a class of its own.

Listed here by hand, so that what a card can do is read in one place and nothing registers
itself by being imported. Every kind of the vocabulary has its class here; a card whose kinds
are all listed is played by :class:`~pipeline.cards.abilities.CardAbility`, and a kind not
listed has no code: :mod:`pipeline.cards.registry` reports such a card as not playable."""

from __future__ import annotations

from pipeline.cards.effects.always_riichi import AlwaysRiichi
from pipeline.cards.effects.always_winning_tile import AlwaysWinningTile
from pipeline.cards.effects.base import CardEffect
from pipeline.cards.effects.blocks_calls import BlocksCalls
from pipeline.cards.effects.blocks_wins_with_wind import BlocksWinsWithWind
from pipeline.cards.effects.call_payment import CallPayment
from pipeline.cards.effects.condition_bonus import ConditionBonus
from pipeline.cards.effects.copy_ability import CopyAbility
from pipeline.cards.effects.count_bonus import CountBonus
from pipeline.cards.effects.dama_protection import DamaProtection
from pipeline.cards.effects.declared_pool import DeclaredPool
from pipeline.cards.effects.dora_both_ways import DoraBothWays
from pipeline.cards.effects.dora_multiplier import DoraMultiplier
from pipeline.cards.effects.double_from_chi_sources import DoubleFromChiSources
from pipeline.cards.effects.double_wind import DoubleWind
from pipeline.cards.effects.draw_from_discards import DrawFromDiscards
from pipeline.cards.effects.duel import Duel
from pipeline.cards.effects.extra_dora_stake import ExtraDoraStake
from pipeline.cards.effects.extra_turn import ExtraTurn
from pipeline.cards.effects.face_down_discard import FaceDownDiscard
from pipeline.cards.effects.family_guess import FamilyGuess
from pipeline.cards.effects.flip_card import FlipCard
from pipeline.cards.effects.floor_at_zero import FloorAtZero
from pipeline.cards.effects.han_per_count import HanPerCount
from pipeline.cards.effects.honba_by_han import HonbaByHan
from pipeline.cards.effects.honor_sequences import HonorSequences
from pipeline.cards.effects.ignore_dora import IgnoreDora
from pipeline.cards.effects.last_tile_mastery import LastTileMastery
from pipeline.cards.effects.late_ron import LateRon
from pipeline.cards.effects.local_yaku import LocalYakuEffect
from pipeline.cards.effects.meld_swap import MeldSwap
from pipeline.cards.effects.noten_double_wall import NotenDoubleWall
from pipeline.cards.effects.one_han_yaku_value import OneHanYakuValue
from pipeline.cards.effects.open_hands import OpenHands
from pipeline.cards.effects.open_keeps_value import OpenKeepsValue
from pipeline.cards.effects.payment_per_out import PaymentPerOut
from pipeline.cards.effects.peek_and_swap import PeekAndSwap
from pipeline.cards.effects.priority_call import PriorityCall
from pipeline.cards.effects.private_extra_tile import PrivateExtraTile
from pipeline.cards.effects.repeat_discard import RepeatDiscard
from pipeline.cards.effects.rinshan_reveal import RinshanReveal
from pipeline.cards.effects.score_as_dealer import ScoreAsDealer
from pipeline.cards.effects.set_aside_draw import SetAsideDraw
from pipeline.cards.effects.stake_rule import StakeRule
from pipeline.cards.effects.swap_with_discard import SwapWithDiscard
from pipeline.cards.effects.table_sweep import TableSweep
from pipeline.cards.effects.tsumo_full_ron import TsumoFullRon
from pipeline.cards.effects.unclaimable_repeat import UnclaimableRepeat
from pipeline.cards.effects.ura_rule import UraRule
from pipeline.cards.effects.wall_exchange import WallExchange
from pipeline.cards.effects.wall_to_indicator import WallToIndicator
from pipeline.cards.effects.win_multiplier import WinMultiplier
from pipeline.cards.effects.win_without_yaku import WinWithoutYaku
from pipeline.cards.effects.winds_as_west import WindsAsWest
from pipeline.cards.effects.wrap_sequences import WrapSequences
from pipeline.cards.effects.yaku_value import YakuValue

EFFECTS: dict[str, type[CardEffect]] = {
    "yaku_value": YakuValue,
    "one_han_yaku_value": OneHanYakuValue,
    "count_bonus": CountBonus,
    "win_multiplier": WinMultiplier,
    "open_keeps_value": OpenKeepsValue,
    "open_hands": OpenHands,
    "local_yaku": LocalYakuEffect,
    "ura_rule": UraRule,
    "score_as_dealer": ScoreAsDealer,
    "double_wind": DoubleWind,
    "always_riichi": AlwaysRiichi,
    "condition_bonus": ConditionBonus,
    "dora_both_ways": DoraBothWays,
    "han_per_count": HanPerCount,
    "win_without_yaku": WinWithoutYaku,
    "extra_turn": ExtraTurn,
    "face_down_discard": FaceDownDiscard,
    "rinshan_reveal": RinshanReveal,
    "wall_to_indicator": WallToIndicator,
    "noten_double_wall": NotenDoubleWall,
    "declared_pool": DeclaredPool,
    "honor_sequences": HonorSequences,
    "winds_as_west": WindsAsWest,
    "payment_per_out": PaymentPerOut,
    "tsumo_full_ron": TsumoFullRon,
    "stake_rule": StakeRule,
    "table_sweep": TableSweep,
    "floor_at_zero": FloorAtZero,
    "extra_dora_stake": ExtraDoraStake,
    "ignore_dora": IgnoreDora,
    "honba_by_han": HonbaByHan,
    "dora_multiplier": DoraMultiplier,
    "late_ron": LateRon,
    "double_from_chi_sources": DoubleFromChiSources,
    "dama_protection": DamaProtection,
    "blocks_calls": BlocksCalls,
    "duel": Duel,
    "call_payment": CallPayment,
    "always_winning_tile": AlwaysWinningTile,
    "wrap_sequences": WrapSequences,
    "priority_call": PriorityCall,
    "unclaimable_repeat": UnclaimableRepeat,
    "set_aside_draw": SetAsideDraw,
    "repeat_discard": RepeatDiscard,
    "wall_exchange": WallExchange,
    "draw_from_discards": DrawFromDiscards,
    "private_extra_tile": PrivateExtraTile,
    "last_tile_mastery": LastTileMastery,
    "swap_with_discard": SwapWithDiscard,
    "blocks_wins_with_wind": BlocksWinsWithWind,
    "peek_and_swap": PeekAndSwap,
    "meld_swap": MeldSwap,
    "copy_ability": CopyAbility,
    "family_guess": FamilyGuess,
    "flip_card": FlipCard,
}
