"""The effect classes: one per kind, in ``pipeline/cards/effects/<kind>.py``, listed in
``EFFECTS``, each naming the hooks it takes, the parameter values it plays and its bot policy;
a card's ability sends each hook only to the effects that name it."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from pipeline.cards import registry
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects import EFFECT_KINDS
from pipeline.cards.effects.base import EFFECT_HOOKS, CardEffect, HandStartContext
from pipeline.cards.effects.registry import EFFECTS

CATALOG = load_catalog("1.2")
EFFECTS_DIR = Path(__file__).resolve().parents[1] / "pipeline" / "cards" / "effects"


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_one_class_per_kind_in_its_own_module(kind: str) -> None:
    cls = EFFECTS[kind]
    assert cls.kind == kind and kind in EFFECT_KINDS
    assert Path(inspect.getfile(cls)) == EFFECTS_DIR / f"{kind}.py"


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_the_hooks_named_are_the_hooks_overridden(kind: str) -> None:
    cls = EFFECTS[kind]
    overridden = {h for h in EFFECT_HOOKS if getattr(cls, h) is not getattr(CardEffect, h)}
    assert cls.hooks == overridden and cls.hooks


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
