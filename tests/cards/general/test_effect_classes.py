"""The effect classes: one per kind, in ``pipeline/cards/effects/<kind>.py``, listed in
``EFFECTS``, each naming the hooks it takes, the parameter values it plays and its bot policy;
a card's ability sends each hook only to the effects that name it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards import registry, table
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects import EFFECT_KINDS, copy_ability, flip_card
from pipeline.cards.effects.base import EFFECT_HOOKS, CardEffect, HandStartContext
from pipeline.cards.effects.registry import EFFECTS
from pipeline.rules.preset import load_preset

CATALOG = load_catalog("1.2")
# Kinds whose card the card table builds another way (a copied card, a two-sided card): their
# class declares the kind and takes no hook.
BUILT_BY_THE_TABLE = frozenset({"copy_ability", "flip_card"})
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
    assert cls.hooks == overridden and (cls.hooks or kind in BUILT_BY_THE_TABLE)


def test_a_kind_with_no_hook_is_built_by_the_card_table() -> None:
    assert not EFFECTS["copy_ability"].hooks and not EFFECTS["flip_card"].hooks
    for card in CATALOG:
        kinds = {e.kind for e in card.effects}
        assert copy_ability.copies(card) == ("copy_ability" in kinds), card.id
        assert (flip_card.two_sided(card) is not None) == ("flip_card" in kinds), card.id
    mairu = CATALOG.card("mairu_shirouzu")
    built = table.CardTable(load_preset("cards-hanchan"), [], 0, 0)._card_ability(mairu.id, 0)
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


def test_a_hook_goes_only_to_the_effects_that_name_it(monkeypatch) -> None:
    calls: list[str] = []

    class Deaf(CardEffect):
        kind = "open_hands"
        hooks = frozenset()

        def hand_start(self, ctx: HandStartContext) -> None:
            calls.append("deaf")

    class Hearing(Deaf):
        hooks = frozenset({"hand_start"})

        def hand_start(self, ctx: HandStartContext) -> None:
            calls.append("hearing")

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
        CardAbility(komaki, 0).hand_start(Table())
        assert calls == heard
