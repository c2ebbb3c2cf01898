"""Every card states its bot policy where its ability is implemented.

A policy is a sentence ``Bot policy (Card Name[, Card Name]): ...`` in a docstring (module,
class or function) of ``pipeline/cards``: what the heuristic bot chooses for the card's choices
and why, or, for a card that offers none, "no decision" and how the pick values it. A new card
without such a sentence fails here, with the fix in the message.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import pipeline.cards
from pipeline.cards.catalog import Card, load_catalog
from pipeline.cards.effects.registry import EFFECTS

CARDS_DIR = Path(pipeline.cards.__file__).resolve().parent
CATALOG = load_catalog("1.2")
MARKER = re.compile(r"Bot policy \(([^()]*)\):\s*(.*?)(?=Bot policy \(|$)")
NO_DECISION = "no decision"
MIN_WORDS = 8

# Effects that give the player a choice in play (an optional action offered with a pass, a
# player, family, tile or declaration to name, or a copy to choose) are those whose class says
# so (``choices``, ``offers_choice``). A card holding any of these must say what the bot
# chooses; a card holding none says "no decision".


@dataclass(frozen=True)
class Policy:
    module: Path
    names: tuple[str, ...]
    text: str


def policies_in(doc: str, module: Path) -> list[Policy]:
    """The policy sentences of one docstring (line breaks and indents read as spaces)."""
    flat = " ".join(doc.split())
    return [Policy(module, tuple(n.strip() for n in m.group(1).split(",")),
                   m.group(2).strip(" -"))
            for m in MARKER.finditer(flat)]


def all_policies() -> list[Policy]:
    found: list[Policy] = []
    for path in sorted(CARDS_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    found.extend(policies_in(doc, path))
    return found


def card_named(name: str) -> Card | None:
    return next((c for c in CATALOG if name in (c.name, c.id)), None)


def offers_choice(card: Card) -> bool:
    return any(e.kind in EFFECTS and EFFECTS[e.kind].offers_choice(e.params)
               for e in card.effects)


POLICIES = all_policies()


def policies_of(card: Card) -> list[Policy]:
    return [p for p in POLICIES if card.name in p.names or card.id in p.names]


def test_the_marker_is_read_from_a_docstring() -> None:
    doc = """Effects.

    - Bot policy (Nodoka Haramura, kana_ikeda): the bot keeps its face-down discard for a
      dangerous tile. Bot policy (Saki Miyanaga): no decision: every win is taken.
    - Not a policy (Kei Arakawa): text.
    """
    found = policies_in(doc, Path("x.py"))
    assert [p.names for p in found] == [("Nodoka Haramura", "kana_ikeda"), ("Saki Miyanaga",)]
    assert found[0].text == "the bot keeps its face-down discard for a dangerous tile."
    assert found[1].text.startswith(NO_DECISION)
    assert policies_in("Bot policy: no card named here.", Path("x.py")) == []


@pytest.mark.parametrize("card_id", CATALOG.ids)
def test_every_card_states_its_bot_policy(card_id: str) -> None:
    card = CATALOG.card(card_id)
    found = policies_of(card)
    assert found, (f"{card.name} ({card.id}): no 'Bot policy ({card.name}): ...' sentence in "
                   f"any docstring of {CARDS_DIR}; add one to the docstring of the module that "
                   "implements its effects, saying what the heuristic bot chooses and why (or "
                   "'no decision' and how the pick values it)")
    for policy in found:
        assert len(policy.text.split()) >= MIN_WORDS, \
            f"{card.name}: the policy in {policy.module.name} says too little: {policy.text!r}"


@pytest.mark.parametrize("card_id", CATALOG.ids)
def test_a_card_with_choices_says_what_the_bot_chooses(card_id: str) -> None:
    card = CATALOG.card(card_id)
    for policy in policies_of(card):
        says_none = policy.text.lower().startswith(NO_DECISION)
        if offers_choice(card):
            assert not says_none, (f"{card.name} offers a choice, but its policy in "
                                   f"{policy.module.name} says 'no decision'")
        else:
            assert says_none, (f"{card.name} offers no choice: start its policy in "
                               f"{policy.module.name} with 'no decision'")


@pytest.mark.parametrize("card_id", CATALOG.ids)
def test_the_policy_sits_with_the_cards_effects(card_id: str) -> None:
    # the docstring stating it belongs to a module that handles one of the card's effect kinds
    card = CATALOG.card(card_id)
    kinds = {e.kind for e in card.effects}
    homes = {p.module for p in policies_of(card)}
    assert any(re.search(rf"\b({'|'.join(kinds)})\b", m.read_text(encoding="utf-8"))
               for m in homes), (f"{card.name}: its policy is in {sorted(m.name for m in homes)}, "
                                 f"none of which handles its effects {sorted(kinds)}")


def test_every_policy_names_catalog_cards() -> None:
    unknown = sorted({f"{p.module.name}: {n}" for p in POLICIES for n in p.names
                      if card_named(n) is None})
    assert not unknown, f"policies naming no card of catalog 1.2 (use the name or id): {unknown}"


def test_the_catalog_and_the_classes_choices_agree() -> None:
    # some cards offer a choice and some none, by what their classes declare
    assert any(not offers_choice(c) for c in CATALOG)
    assert offers_choice(CATALOG.card("kana_ikeda"))      # the Inazuma riichi
    assert not offers_choice(CATALOG.card("hitomi_ezaki"))  # stakes forced by the result
    assert offers_choice(CATALOG.card("kasumi_iwato"))    # the family she names
    assert not offers_choice(CATALOG.card("komaki_jindai"))  # her own open hand
