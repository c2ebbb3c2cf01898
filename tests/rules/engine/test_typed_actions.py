"""Typed ability actions: what an action or event is travels in its tag, owning card and
payload, never in its ``detail`` text (which is for people).

A static check reads the engine, the cards and the bots: ``.detail`` is read only to print
(``__str__``, a hand's summary) or to word a new event's text. The behaviour checks: the tags
the engine acts on, an offer's record, Teru's honba and the draws the table recognises come
from tags whatever the text says."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.cards.effects.face_down_discard import last_discards
from pipeline.cards.effects.honba_by_han import added_honba
from pipeline.cards.moves import Move
from pipeline.cards.table_reading import ippatsu_alive
from pipeline.rules.actions import AbilityTag, Action, ActionKind, ability_action
from pipeline.rules.records import Event

ROOT = Path(__file__).resolve().parents[3]
PRINTING = {"__str__", "summary"}


# where a read of ``.detail`` only passes the text along: formatted into new text, put in a
# row or a record as it is, or tested for being empty
PASSING = (ast.FormattedValue, ast.Tuple, ast.List, ast.Dict, ast.Assign)


def detail_reads(path: Path) -> list[int]:
    """Lines where ``.detail`` is read for anything but printing, new text or passing the text
    along (a table's text column, an export's text field)."""
    tree = ast.parse(path.read_text())
    allowed: set[int] = set()
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.FunctionDef) and node.name in PRINTING:
            allowed.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.keyword) and node.arg == "detail":
            allowed.update(id(n) for n in ast.walk(node.value))

    def passed_along(node: ast.AST) -> bool:
        parent = parents.get(id(node))
        return isinstance(parent, PASSING) or (isinstance(parent, ast.IfExp)
                                               and parent.test is node)

    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "detail"
            and isinstance(node.ctx, ast.Load) and id(node) not in allowed
            and not passed_along(node)]


@pytest.mark.parametrize("layer", ["rules", "cards", "bots", "sim", "replay", "analytics",
                                   "report"])
def test_no_meaning_is_read_out_of_detail_text(layer: str) -> None:
    found = {str(p.relative_to(ROOT)): lines for p in (ROOT / "pipeline" / layer).rglob("*.py")
             if (lines := detail_reads(p))}
    assert not found


def test_the_static_check_finds_a_reading_of_the_text(tmp_path: Path) -> None:
    source = tmp_path / "reader.py"
    source.write_text("def f(e):\n    row = (e.seat, e.detail)\n"
                      "    return row, e.detail.startswith('x'), 'y' in e.detail\n")
    assert detail_reads(source) == [3, 3]


def test_an_ability_action_says_what_it_is_and_whose() -> None:
    a = ability_action(2, "megan_davin", Move.DUEL, payload=1, detail="megan_davin:duel:P1")
    assert (a.kind, a.tag, a.card, a.payload) == (ActionKind.ABILITY, Move.DUEL, "megan_davin", 1)
    assert str(a) == "P2 ability megan_davin:duel:P1"
    plain = ability_action(0, "nodoka_haramura", AbilityTag.FACE_DOWN, 5)
    assert plain.detail == "nodoka_haramura:face_down"  # wording: the default text, for people
    assert plain != Action(ActionKind.ABILITY, 0, 5, detail="nodoka_haramura:face_down")


def test_events_print_as_before_their_tags() -> None:
    e = Event("ability", 1, detail="haru_takimi: extra turn", tag=AbilityTag.EXTRA_TURN,
              card="haru_takimi")
    assert str(e) == "P1 ability haru_takimi: extra turn"
    assert repr(e) == repr(Event("ability", 1, detail="haru_takimi: extra turn"))


def test_teru_counts_tagged_events_whatever_their_words() -> None:
    worded = [Event("ability", 1, detail="x: extra turn"), Event("ability", 1, detail="x: swap")]
    tagged = [Event("ability", 1, detail="x: again", tag=AbilityTag.EXTRA_TURN),
              Event("ability", 1, detail="x: exchanged", tag=AbilityTag.SWAPPED),
              Event("ability", 1, detail="x: flips back", tag=Move.FLIP_AFTER_EXTRA_TURN),
              Event("ability", 1, detail="x: flips", tag=Move.FLIP)]
    assert added_honba(worded) == 0
    assert added_honba(tagged) == 2  # the extra turn and the swap; flips are no extra turn


def test_teru_counts_a_two_sided_card_s_extra_turn_once() -> None:
    # card Teru ("takes an extra turn"): Himeko's extra turn taken adds one honba, and the flip
    # back after it none; an extra turn offered and declined adds none
    taken = [Event("ability", 2, detail="himeko_tsuruta: extra turn", tag=AbilityTag.EXTRA_TURN),
             Event("discard", 2, 40),
             Event("ability", 2, detail="himeko_tsuruta: flips to mairu_shirouzu (the extra "
                   "turn over)", tag=Move.FLIP_AFTER_EXTRA_TURN)]
    declined = [Event("offer", 2, detail="himeko_tsuruta: offered extra_turn; declined"),
                Event("ability", 2, detail="himeko_tsuruta: flips to mairu_shirouzu (the extra "
                      "turn declined)", tag=Move.FLIP_AFTER_EXTRA_TURN)]
    assert added_honba(taken) == 1
    assert added_honba(declined) == 0


def test_ippatsu_and_pond_tiles_read_tags() -> None:
    riichi = [Event("riichi", 3), Event("discard", 3, 0)]
    text_only = [*riichi, Event("ability", 3, detail="x: extra turn"), Event("discard", 3, 4)]
    assert not ippatsu_alive(text_only, 3)
    tagged = [*riichi, Event("ability", 3, tag=AbilityTag.EXTRA_TURN), Event("discard", 3, 4)]
    assert ippatsu_alive(tagged, 3)
    events = [Event("discard", 0, 8), Event("discard", 1, 12, detail="face down (x)"),
              Event("discard", 2, 16, tag=AbilityTag.FACE_DOWN),
              Event("ability", 3, 8, detail="x: draws from P0's pond"),
              Event("discard", 3, 20), Event("ability", 3, 20, tag=AbilityTag.FROM_POND)]
    latest, lying = last_discards(events)
    assert latest == [2, 3, None, 5]   # only the tagged face-down discard is hidden
    assert lying == [2, 3, None, None]  # only the tagged draw took its tile from the pond
