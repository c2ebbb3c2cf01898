"""The meta cards (a copy, a two-sided card) are built by their own effect classes
(``CardEffect.build_ability``) and answer the hooks as the card in play does, with no
forwarding by attribute lookup: the card table names no meta kind, and the two-sided card
reads no other effect's state (it asks its front's ability, ``turns_card_over``)."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.base import CARD_LAYER_HOOKS, CardEffect
from pipeline.cards.effects.copy_ability import CopiedAbility, CopyAbility
from pipeline.cards.effects.flip_card import FlipAbility, FlipCard
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.forwarding import ForwardingAbility
from pipeline.cards.table import CardTable
from pipeline.rules.hooks import HOOKS, AbilityHooks
from pipeline.rules.preset import load_preset

ROOT = Path(__file__).resolve().parents[3]
CATALOG = load_catalog("1.2")
# the hooks the two-sided card answers itself (each also asks the side up)
FLIP_OWN = {name for name in (*HOOKS, *CARD_LAYER_HOOKS) if name in vars(FlipAbility)}
META_NAMES = ("copy_ability", "flip_card", "CopiedAbility", "FlipAbility", "CopyAbility",
              "FlipCard", "two_sided", "copies")


class Build:
    """A stand-in for what the card table hands a building effect."""

    def __init__(self, drawn: tuple[str, ...] = (), chosen: str | None = None) -> None:
        self.seat = 0
        self.drawn = drawn
        self.chosen = chosen
        self.asked: list[tuple[str, Any]] = []

    def known(self, card_id: str) -> bool:
        return card_id in CATALOG.ids

    def plain(self, card_id: str) -> AbilityHooks:
        return CardAbility(CATALOG.card(card_id), self.seat)

    def ability(self, card_id: str) -> AbilityHooks:
        self.asked.append(("ability", card_id))
        return CardAbility(CATALOG.card(card_id), self.seat)

    def draw(self, count: int) -> tuple[str, ...]:
        self.asked.append(("draw", count))
        return self.drawn[:count]

    def choose(self, cards: Any) -> str | None:
        self.asked.append(("choose", tuple(cards)))
        return self.chosen


def test_only_the_meta_kinds_build_their_card_s_ability() -> None:
    builders = {kind for kind, cls in EFFECTS.items()
                if cls.build_ability.__func__ is not CardEffect.build_ability.__func__}
    assert builders == {"copy_ability", "flip_card"}


def test_the_card_table_names_no_meta_kind() -> None:
    source = (ROOT / "pipeline" / "cards" / "table.py").read_text(encoding="utf-8")
    names = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(ast.parse(source))
             if isinstance(n, (ast.Name, ast.Attribute))}
    modules = {a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)
               for a in n.names}
    assert not (names | modules) & set(META_NAMES)


def test_the_two_sided_card_reads_no_other_effect_s_state() -> None:
    source = (ROOT / "pipeline" / "cards" / "effects" / "flip_card.py").read_text("utf-8")
    tree = ast.parse(source)
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(m.startswith("pipeline.cards.effects.") and m != "pipeline.cards.effects.base"
                   for m in imported if m)
    assert "__getattr__" not in source and "__getattr__" not in (
        ROOT / "pipeline" / "cards" / "effects" / "copy_ability.py").read_text("utf-8")


@pytest.mark.parametrize("hook", [*HOOKS, *CARD_LAYER_HOOKS])
def test_a_meta_ability_forwards_every_hook_to_the_card_in_play(hook: str) -> None:
    calls: list[tuple[str, tuple[Any, ...]]] = []

    class Inner(AbilityHooks):
        name = "inner"
        seat = 2

    def record(*args: Any) -> str:
        calls.append((hook, args))
        return "answer"

    inner = Inner()
    setattr(inner, hook, record)
    copied = CopiedAbility(inner, "maho_yumeno", "inner", ("inner", "other"))
    if hook != "hand_start":  # the copy's own: it notes the copy, then starts the inner
        assert getattr(copied, hook)("x") == "answer"
        assert calls == [(hook, ("x",))]
    mairu = CATALOG.card("mairu_shirouzu")
    back = next(e.params["to"] for e in mairu.effects if e.kind == "flip_card")
    flip = FlipAbility(CardAbility(mairu, 0), CardAbility(CATALOG.card(back), 0))
    setattr(flip.sides[0], hook, record)
    if hook not in FLIP_OWN:  # the flips' own hooks act, then ask the side up
        calls.clear()
        assert getattr(flip, hook)("y") == "answer"
        assert calls == [(hook, ("y",))]
    assert copied.name == "inner" and copied.seat == 2
    assert isinstance(copied, ForwardingAbility)


def test_the_copy_builds_the_chosen_card_s_ability_and_notes_it() -> None:
    maho = CATALOG.card("maho_yumeno")
    params = next(e.params for e in maho.effects if e.kind == "copy_ability")
    build = Build(drawn=("nodoka_haramura", "saki_miyanaga"), chosen="saki_miyanaga")
    built = CopyAbility.build_ability(params, maho, build)
    assert isinstance(built, CopiedAbility)
    assert built.copied == "saki_miyanaga" and built.name == "saki_miyanaga"
    assert build.asked == [("draw", 2), ("choose", ("nodoka_haramura", "saki_miyanaga")),
                           ("ability", "saki_miyanaga")]
    notes: list[str] = []
    table = SimpleNamespace(note=lambda seat, card, text, *a, **k: notes.append(
        f"{card}: {text}"))
    built.inner.hand_start = lambda t: notes.append("inner started")  # type: ignore[method-assign]
    built.hand_start(table)  # type: ignore[arg-type]
    assert notes == ["maho_yumeno: draws nodoka_haramura and saki_miyanaga, copies "
                     "saki_miyanaga", "inner started"]


def test_a_copy_with_nothing_drawn_or_no_choice() -> None:
    maho = CATALOG.card("maho_yumeno")
    params = next(e.params for e in maho.effects if e.kind == "copy_ability")
    assert CopyAbility.build_ability(params, maho, Build()) is None  # an empty deck
    drawn = ("nodoka_haramura", "saki_miyanaga")
    built = CopyAbility.build_ability(params, maho, Build(drawn=drawn))
    assert isinstance(built, CopiedAbility) and built.copied == "nodoka_haramura"  # the first


def test_the_two_sided_card_is_built_from_both_sides_when_the_catalog_has_the_back() -> None:
    mairu = CATALOG.card("mairu_shirouzu")
    params = next(e.params for e in mairu.effects if e.kind == "flip_card")
    built = FlipCard.build_ability(params, mairu, Build())
    assert isinstance(built, FlipAbility) and built.name == "mairu_shirouzu"
    assert built.sides[1].name == params["to"]

    class NoBack(Build):
        def known(self, card_id: str) -> bool:
            return False

    assert FlipCard.build_ability(params, mairu, NoBack()) is None


def test_the_card_table_builds_every_card_through_its_effects() -> None:
    table = CardTable(load_preset("cards-hanchan"), [], 0, 0)
    for card in CATALOG:
        built = table._ability(0, card.id)
        kinds = {e.kind for e in card.effects}
        if "flip_card" in kinds:
            assert isinstance(built, FlipAbility), card.id
        elif "copy_ability" in kinds:  # nothing drawn this hand: the card plays no effect
            assert isinstance(built, CardAbility), card.id
        else:
            assert type(built) is CardAbility and built.card == card, card.id
