"""The effect classes: one per kind, in ``pipeline/cards/effects/<kind>.py``, listed in
``EFFECTS``, each naming the hooks it takes, the parameter values it plays and its bot policy;
a card's ability sends each hook only to the effects that name it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards import registry, table
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects import EFFECT_KINDS, flip_card
from pipeline.cards.effects.base import (
    EFFECT_HOOKS,
    CardEffect,
    DrawnContext,
    HandStartContext,
)
from pipeline.cards.effects.registry import EFFECTS
from pipeline.rules.preset import load_preset

CATALOG = load_catalog("1.2")
# Kinds that build their card's whole ability (a copied card, a two-sided card): their class
# takes no hook.
BUILDS_ITS_ABILITY = frozenset({"copy_ability", "flip_card"})
EFFECTS_DIR = Path(__file__).resolve().parents[3] / "pipeline" / "cards" / "effects"


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_one_class_per_kind_in_its_own_module(kind: str) -> None:
    cls = EFFECTS[kind]
    assert cls.kind == kind and kind in EFFECT_KINDS
    # its module is named for its kind (compiled or not: the .py is there either way)
    assert cls.__module__ == f"pipeline.cards.effects.{kind}"
    assert (EFFECTS_DIR / f"{kind}.py").is_file()


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_the_hooks_named_are_the_hooks_overridden(kind: str) -> None:
    cls = EFFECTS[kind]
    overridden = {h for h in EFFECT_HOOKS if getattr(cls, h) is not getattr(CardEffect, h)}
    assert cls.hooks == overridden and (cls.hooks or kind in BUILDS_ITS_ABILITY)


def test_a_kind_with_no_hook_builds_its_card_s_ability() -> None:
    assert not EFFECTS["copy_ability"].hooks and not EFFECTS["flip_card"].hooks
    for card in CATALOG:
        kinds = {e.kind for e in card.effects}
        assert (flip_card.two_sided(card) is not None) == ("flip_card" in kinds), card.id
    mairu = CATALOG.card("mairu_shirouzu")
    built = table.CardTable(load_preset("cards-hanchan"), [], 0, 0)._ability(0, mairu.id)
    assert isinstance(built, flip_card.FlipAbility)


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_supported_values_are_the_vocabulary_s_and_the_policy_is_said(kind: str) -> None:
    cls = EFFECTS[kind]
    params = EFFECT_KINDS[kind].params
    for name, values in cls.supported.items():
        assert name in params
        if params[name].choices:
            assert values <= set(params[name].choices), name
    assert "Bot policy:" in (cls.__doc__ or "")


def test_every_card_with_a_classed_kind_is_still_playable() -> None:
    for card in CATALOG:
        if any(e.kind in EFFECTS for e in card.effects):
            assert registry.playable(card), card.id


def test_a_hook_goes_only_to_the_effects_that_take_it(monkeypatch) -> None:
    calls: list[str] = []

    class Deaf(CardEffect):
        kind = "open_hands"

        def after_draw(self, ctx: DrawnContext) -> None:
            calls.append("deaf")

    class Hearing(Deaf):
        def hand_start(self, ctx: HandStartContext) -> None:
            calls.append("hearing")

    assert Deaf.hooks == {"after_draw"} and Hearing.hooks == {"after_draw", "hand_start"}
    komaki = CATALOG.card("komaki_jindai")  # open_hands, herself
    assert "open_hands" in komaki.kinds

    class Table:
        def reveal_hand(self, seat: int, by: str) -> None:
            calls.append("the base hook ran")

        def __getattr__(self, name: str) -> object:
            return lambda *args, **kwargs: None  # the effect families keep what they need

    for cls, heard in ((Deaf, []), (Hearing, ["hearing"])):
        calls.clear()
        monkeypatch.setitem(EFFECTS, "open_hands", cls)
        ability = CardAbility(komaki, 0)
        assert ability.listens("hand_start") == bool(heard)
        ability.hand_start(Table())
        assert calls == heard
