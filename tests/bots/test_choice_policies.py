"""Each choice a card offers has one policy in the bots' table (pipeline/bots/choices.py): every
tag an effect class declares (``choices``) has an entry, every entry's tag is declared by some
class, and a card step is answered only when the offered list has the entry's shape."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import SimpleNamespace

import pytest

from pipeline.bots.choices import (
    CHOICE_POLICIES,
    Asked,
    ChoicePolicy,
    Shape,
    adopt_declaration,
    keep_chosen,
)
from pipeline.bots.expert import ExpertBot
from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards.effects.base import CardEffect
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action

SEAT = 0
PASS = Action(ActionKind.PASS, SEAT)


def declared_choices(effects: Mapping[str, type[CardEffect]]) -> set[StrEnum]:
    """Every tag an effect class declares it offers its player."""
    return set().union(*(cls.choices for cls in effects.values()))


def unmatched(effects: Mapping[str, type[CardEffect]], table: Mapping[StrEnum, ChoicePolicy]
              ) -> tuple[set[StrEnum], set[StrEnum]]:
    """The declared tags with no policy, and the policies of tags no class declares."""
    declared = declared_choices(effects)
    return declared - set(table), set(table) - declared


def test_every_declared_choice_has_one_policy_and_every_policy_a_declaring_class() -> None:
    missing, unused = unmatched(EFFECTS, CHOICE_POLICIES)
    assert not missing, (
        f"no bot policy for {sorted(missing)}: add an entry to CHOICE_POLICIES in "
        "pipeline/bots/choices.py (a card step's answer, or where the bot weighs it)")
    assert not unused, (
        f"CHOICE_POLICIES answers {sorted(unused)}, which no effect class declares in its "
        "`choices`: remove the entry or declare the tag")


def test_the_check_names_a_missing_policy_and_an_unused_one() -> None:
    planted = {tag: p for tag, p in CHOICE_POLICIES.items() if tag is not Move.TAKE}
    assert unmatched(EFFECTS, planted) == ({Move.TAKE}, set())

    class Planted(CardEffect):  # a new kind offering a tag the table does not know
        kind = "planted"
        choices = frozenset({AbilityTag.SWAPPED})

    assert unmatched({**EFFECTS, "planted": Planted}, CHOICE_POLICIES) == (
        {AbilityTag.SWAPPED}, set())
    extra = {**CHOICE_POLICIES, Move.FLIP: ChoicePolicy(Asked.CLAIM)}
    assert unmatched(EFFECTS, extra) == (set(), {Move.FLIP})


def test_tags_are_told_apart_by_value() -> None:
    # the table is keyed by StrEnum members, which compare as their values: a Move and an
    # engine tag with the same word would share an entry
    assert not {m.value for m in Move} & {t.value for t in AbilityTag}
    assert all(isinstance(tag, Move | AbilityTag) for tag in CHOICE_POLICIES)


@pytest.mark.parametrize("tag", sorted(CHOICE_POLICIES))
def test_a_card_step_has_a_shape_and_an_answer_and_no_other_choice_has(tag: StrEnum) -> None:
    policy = CHOICE_POLICIES[tag]
    step = policy.asked is Asked.CARD_STEP
    assert (policy.answer is not None) is step
    assert (policy.shape is not None) is step
    if policy.kept is not None:
        assert step


def _offer(tag: StrEnum, kind: ActionKind = ActionKind.ABILITY, tile: int | None = 0
           ) -> Action:
    return ability_action(SEAT, "test_card", tag, tile, kind=kind, payload=None)


def _steps(shape: Shape) -> list[StrEnum]:
    return sorted(t for t, p in CHOICE_POLICIES.items() if p.shape is shape)


@pytest.mark.parametrize("tag", _steps(Shape.ABILITY_AND_PASS))
def test_an_optional_step_is_answered_only_with_a_pass_offered_last(tag: StrEnum) -> None:
    policy = CHOICE_POLICIES[tag]
    assert policy.applies([_offer(tag), PASS])
    assert not policy.applies([_offer(tag), _offer(tag, tile=1)])
    assert not policy.applies([_offer(tag, kind=ActionKind.DISCARD), PASS])
    # a list of another shape is no such step: the bot plays it as its turn or claim
    assert HeuristicBot()._card_step(None, [_offer(tag), _offer(tag, tile=1)]) is None


@pytest.mark.parametrize("tag", _steps(Shape.ABILITY))
def test_a_forced_step_is_answered_when_its_first_action_is_an_ability(tag: StrEnum) -> None:
    policy = CHOICE_POLICIES[tag]
    assert policy.applies([_offer(tag), _offer(tag, tile=1)])
    assert policy.applies([_offer(tag), PASS])
    assert not policy.applies([_offer(tag, kind=ActionKind.DISCARD), PASS])
    assert HeuristicBot()._card_step(None, [_offer(tag, kind=ActionKind.DISCARD)]) is None


@pytest.mark.parametrize("tag", _steps(Shape.TAGGED))
def test_a_named_player_or_family_is_answered_whatever_the_action_kind(tag: StrEnum) -> None:
    policy = CHOICE_POLICIES[tag]
    assert policy.applies([_offer(tag, kind=ActionKind.RIICHI)])
    assert policy.applies([_offer(tag)])


@pytest.mark.parametrize("tag", sorted(t for t, p in CHOICE_POLICIES.items()
                                       if p.asked is not Asked.CARD_STEP))
def test_a_choice_weighed_elsewhere_is_no_card_step(tag: StrEnum) -> None:
    # a face-down discard or a staked riichi (beside her discards), a marked ron or call
    for legal in ([_offer(tag), PASS], [_offer(tag)], [_offer(tag, kind=ActionKind.PON), PASS]):
        assert not CHOICE_POLICIES[tag].applies(legal)
        assert HeuristicBot()._card_step(None, legal) is None


class _DrawNoting(HeuristicBot):
    """Notes which of the two draw answers was asked (each returns the pass)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def _known_draw_choice(self, obs, known, passing):
        self.asked.append("known")
        return passing

    def _wants_set_aside(self, obs):
        self.asked.append("set aside")
        return False


def test_a_draw_is_answered_as_a_known_tile_or_as_a_set_aside_copy() -> None:
    # AbilityTag.DRAW comes two ways: a tile she knows (in her own pond, beside her hand:
    # Takami, Toki) is weighed against her hand; a set-aside copy (Seiko) by her hand's speed
    obs = SimpleNamespace(seat=SEAT, aside=(40,), discards=lambda seat: (8,))
    for tile, way in ((40, "known"), (8, "known"), (77, "set aside")):
        bot = _DrawNoting()
        assert bot._card_step(obs, [_offer(AbilityTag.DRAW, tile=tile), PASS]) is PASS
        assert bot.asked == [way]


@pytest.mark.parametrize("bot", [HeuristicBot(), ExpertBot()])
def test_a_declaration_played_is_kept_by_either_style(bot: HeuristicBot) -> None:
    # Ryuuka's declaration (rule C-22): the card lists its sensible one first; what is kept
    # from it (the yaku, a yakuhai's honors) follows the option played, the heuristic bot's
    # answer or the one the expert plays instead (keep_chosen)
    obs = SimpleNamespace(seat=SEAT, seat_wind=0, round_wind=0)
    first = ability_action(SEAT, "test_card", Move.DECLARE, payload=("Riichi",))
    other = ability_action(SEAT, "test_card", Move.DECLARE,
                           payload=("Riichi", "Yakuhai (chun)"))
    assert bot._card_step(obs, [first, other]) is first
    assert bot.declared == frozenset({"Riichi"}) and bot.keep == frozenset()
    assert keep_chosen(bot, obs, other) is other
    assert bot.declared == frozenset({"Riichi", "Yakuhai (chun)"})
    assert bot.keep == frozenset({33})
    assert CHOICE_POLICIES[Move.DECLARE].kept is adopt_declaration
    assert keep_chosen(bot, obs, PASS) is PASS  # nothing kept from a pass
    assert bot.declared == frozenset({"Riichi", "Yakuhai (chun)"})
