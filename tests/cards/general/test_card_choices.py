"""A card's choices are declared once, on its effect class (``choices``: the tags of the
actions it offers its player; ``offers_choice``), and everything else follows or is checked
here: every tag an effect module offers is declared by its class, and every ``Move`` is offered
by some class (or only logged). That the bots have one policy for every tag declared is
``tests/bots/test_choice_policies.py``'s check."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag

ROOT = Path(__file__).resolve().parents[3]
EFFECTS_DIR = ROOT / "pipeline" / "cards" / "effects"
TAGS = {"Move": Move, "AbilityTag": AbilityTag}


def tag_of(node: ast.expr) -> Move | AbilityTag | None:
    """``Move.X`` or ``AbilityTag.X`` as written, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id in TAGS:
        return TAGS[node.value.id][node.attr]
    return None


def offered_in(path: Path) -> set[Move | AbilityTag]:
    """The tags a module's ``ability_action(seat, card, tag, ...)`` calls offer."""
    found: set[Move | AbilityTag] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ability_action":
            args = [*node.args[2:3], *(k.value for k in node.keywords if k.arg == "tag")]
            found |= {t for t in map(tag_of, args) if t is not None}
    return found


@pytest.mark.parametrize("kind", sorted(EFFECTS))
def test_every_tag_an_effect_offers_is_declared_by_its_class(kind: str) -> None:
    offered = offered_in(EFFECTS_DIR / f"{kind}.py") - {AbilityTag.CHOMBO}  # a ron, marked
    assert offered <= EFFECTS[kind].choices, (
        f"{kind}: offers {sorted(offered - EFFECTS[kind].choices)} without declaring them in "
        "its class's `choices`")


def test_every_move_is_offered_by_a_class_or_only_logged() -> None:
    declared = set().union(*(cls.choices for cls in EFFECTS.values()))
    assert {m for m in Move if m.offered} <= declared
    assert not {m for m in Move if not m.offered} & declared
