"""The hook contract is written once (``EFFECT_HOOK_TABLE`` in ``pipeline/cards/effects/base.py``)
and everything else agrees with it: ``CardEffect``'s no-op hooks and their contexts, the engine's
``AbilityHooks``, the delivery by ``CardAbility`` (every hook declared reaches the effect that
overrides it, with its context, and the answers combine as declared), an effect's ``hooks``
(what it overrides) and the list in ``docs/architecture.md``."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import Card, Effect
from pipeline.cards.effects import base
from pipeline.cards.effects.base import (
    CARD_LAYER_HOOKS,
    EFFECT_HOOK_TABLE,
    EFFECT_HOOKS,
    NOT_FOR_EFFECTS,
    CardEffect,
    Combine,
    EffectHook,
    hook_table_markdown,
)
from pipeline.cards.effects.registry import EFFECTS
from pipeline.rules.hooks import HOOKS, AbilityHooks
from pipeline.rules.scoring import ScoringModifiers

ROOT = Path(__file__).resolve().parents[3]
BY_NAME = {hook.name: hook for hook in EFFECT_HOOK_TABLE}
# the methods of CardEffect that are not hooks: the class's own protocol
NOT_HOOKS = {"__init__", "__init_subclass__", "implements", "incentives", "build_ability",
             "offers_choice"}


def methods_of(path: Path, class_name: str) -> dict[str, ast.FunctionDef]:
    """A class's methods as written in its module (the same whether or not it is compiled)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}


def probe_ability(hook: EffectHook, answers: list[Any]) -> tuple[CardAbility, list[Any]]:
    """A card ability whose effects (one per answer) take ``hook`` alone, each recording the
    context it was handed and giving its answer."""
    seen: list[Any] = []

    def make(answer: Any) -> type[CardEffect]:
        def hooked(self: CardEffect, *args: Any) -> Any:
            seen.append(args)
            if hook.combine is Combine.CHAIN:
                return [*args[0].actions, answer]
            return answer
        return type(f"Probe_{hook.name}", (CardEffect,), {"kind": "probe", hook.name: hooked})

    card = Card(id="probe", name="Probe", school="", text_template="",
                effects=tuple(Effect(id=f"e{i}", kind="probe", params={})
                              for i in range(len(answers))))
    classes = [make(answer) for answer in answers]
    made = iter(classes)
    ability = CardAbility.__new__(CardAbility)
    saved = EFFECTS.get("probe")
    EFFECTS["probe"] = lambda *args: next(made)(*args)  # type: ignore[assignment]
    try:
        ability.__init__(card, 0)  # type: ignore[misc]
    finally:
        if saved is None:
            del EFFECTS["probe"]
    return ability, seen


def ask(ability: CardAbility, hook: EffectHook) -> Any:
    """Call the ability's method that brings ``hook``, with a stand-in for each argument."""
    params = ability_params()[hook.asked_by]
    stand_in = SimpleNamespace(seat=0, face_down=False)
    args = [[] if name == "actions" else stand_in for name in params]
    return getattr(ability, hook.asked_by)(*args)


def ability_params() -> dict[str, list[str]]:
    """Each ``CardAbility`` method's parameters after ``self``."""
    found = methods_of(ROOT / "pipeline" / "cards" / "abilities.py", "CardAbility")
    return {name: [a.arg for a in fn.args.args[1:]] for name, fn in found.items()}


def test_every_hook_is_declared_once_with_a_context_and_a_combination() -> None:
    assert len(set(EFFECT_HOOKS)) == len(EFFECT_HOOKS) == len(EFFECT_HOOK_TABLE)
    for hook in EFFECT_HOOK_TABLE:
        assert isinstance(hook.combine, Combine), hook.name
        assert hook.context is None or hook.context.__module__ == base.__name__, hook.name


def test_the_base_class_has_a_no_op_for_every_declared_hook_and_no_other() -> None:
    methods = methods_of(ROOT / "pipeline" / "cards" / "effects" / "base.py", "CardEffect")
    assert set(methods) - NOT_HOOKS == set(EFFECT_HOOKS)
    for name in EFFECT_HOOKS:
        args = methods[name].args.args[1:]
        context = BY_NAME[name].context
        if context is None:
            assert not args or args[0].arg in ("action", "memory"), name
        else:
            assert len(args) == 1 and ast.unparse(args[0].annotation) == context.__name__, name
        assert ast.get_docstring(methods[name]), name


def test_every_engine_hook_is_brought_to_the_effects_but_the_one_none_takes() -> None:
    asked = {hook.asked_by for hook in EFFECT_HOOK_TABLE} - set(CARD_LAYER_HOOKS)
    assert asked == set(HOOKS) - NOT_FOR_EFFECTS
    assert set(CARD_LAYER_HOOKS) <= {hook.asked_by for hook in EFFECT_HOOK_TABLE}
    assert not set(CARD_LAYER_HOOKS) & set(HOOKS)
    assert NOT_FOR_EFFECTS <= set(HOOKS)
    # the card's ability answers each of them itself (its own method, not the no-op)
    for name in asked:
        assert getattr(CardAbility, name) is not getattr(AbilityHooks, name), name


@pytest.mark.parametrize("name", EFFECT_HOOKS)
def test_a_declared_hook_reaches_the_effect_that_overrides_it_with_its_context(name: str) -> None:
    hook = BY_NAME[name]
    ability, seen = probe_ability(hook, [_default_answer(hook)])
    assert ability.listens(hook.asked_by) and name in ability.effects[0].hooks
    ask(ability, hook)
    assert len(seen) == 1, f"{name}: declared but not delivered to the effect"
    (args,) = seen
    if hook.context is not None:
        assert len(args) == 1 and type(args[0]) is hook.context, name


def _default_answer(hook: EffectHook) -> Any:
    """What the base class answers (the probe changes nothing but records the call)."""
    if hook.name == "claim_filter":
        return None  # the chain appends it; nothing reads it here
    probe = CardEffect({}, 0, "probe")
    method = getattr(probe, hook.name)
    if hook.context is None:
        return method(*([None] if hook.name in ("action_taken", "offer_declined", "remember")
                        else []))  # the action, or the match's memory
    return method(hook.context.__new__(hook.context))


@pytest.mark.parametrize("name", EFFECT_HOOKS)
def test_a_hook_the_effects_do_not_take_is_not_heard(name: str) -> None:
    hook = BY_NAME[name]
    others = [h for h in EFFECT_HOOK_TABLE if h.asked_by != hook.asked_by]
    ability, seen = probe_ability(others[0], [_default_answer(others[0])])
    assert not ability.listens(hook.asked_by)
    ask(ability, hook)
    assert not seen


ACTION_A = SimpleNamespace(tag=None, name="a")
ACTION_B = SimpleNamespace(tag=None, name="b")


@pytest.mark.parametrize("name", [h.name for h in EFFECT_HOOK_TABLE
                                  if h.combine in (Combine.ANY, Combine.ALL, Combine.FIRST,
                                                   Combine.CONCAT, Combine.CHAIN)])
def test_the_answers_of_a_card_s_effects_combine_as_declared(name: str) -> None:
    hook = BY_NAME[name]
    cases: list[tuple[list[Any], Any]] = {
        Combine.ANY: [([False, True], True), ([False, False], False)],
        Combine.ALL: [([True, False], False), ([True, True], True)],
        Combine.FIRST: [([None, "b"], "b"), (["a", "b"], "a")]
        if hook.name in ("replace_draw", "switched_off", "while_switched_off")
        else [([[], [ACTION_B]], [ACTION_B]), ([[ACTION_A], [ACTION_B]], [ACTION_A])],
        Combine.CONCAT: [([[ACTION_A], [ACTION_B]], [ACTION_A, ACTION_B])],
        Combine.CHAIN: [(["a", "b"], ["a", "b"])],
    }[hook.combine]
    for answers, combined in cases:
        ability, seen = probe_ability(hook, answers)
        assert ask(ability, hook) == combined, (name, answers)
        assert len(seen) == len(answers) or hook.combine in (Combine.ANY, Combine.ALL,
                                                             Combine.FIRST)


def test_scoring_answers_merge_and_only_an_any_win_effect_values_another_seat_s_win() -> None:
    hook = BY_NAME["scoring"]
    ability, _ = probe_ability(hook, [ScoringModifiers(extra_han=(("a", 1),)),
                                      ScoringModifiers(extra_han=(("b", 2),))])
    merged = ability.scoring(SimpleNamespace(seat=0))
    assert merged is not None and merged.extra_han == (("a", 1), ("b", 2))
    assert ability.scoring(SimpleNamespace(seat=1)) is not None  # merged from nothing
    assert ability.scoring(SimpleNamespace(seat=1)).extra_han == ()


def test_the_ability_delivers_no_hook_that_is_not_declared() -> None:
    # every hook name the ability's methods look up among the effects is declared
    tree = ast.parse((ROOT / "pipeline" / "cards" / "abilities.py").read_text("utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CardAbility")
    looked_up = {node.args[0].value for node in ast.walk(cls)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and node.func.attr in ("get", "_to") and node.args
                 and isinstance(node.args[0], ast.Constant)}
    assert looked_up and looked_up <= set(EFFECT_HOOKS), looked_up - set(EFFECT_HOOKS)


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_an_effect_s_hooks_are_what_it_overrides(kind: str) -> None:
    cls = EFFECTS[kind]
    assert cls.hooks == {h for h in EFFECT_HOOKS
                         if getattr(cls, h) is not getattr(CardEffect, h)}


def test_the_architecture_page_lists_every_hook_from_the_table() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    lines = "\n".join([line.strip() for line in page.splitlines()])  # the table is indented
    assert hook_table_markdown() in lines, (
        "docs/architecture.md: the effect hook table is out of date; paste the output of "
        "`python -c 'from pipeline.cards.effects.base import hook_table_markdown as h; "
        "print(h())'` in its place")
