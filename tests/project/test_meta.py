"""Coverage checks over the whole test suite.

- Every H-, M-, K- and C- rule of the spec is cited by some test, so `grep -r "H-12" tests/`
  finds its proof; the C- rules of parts not built yet are listed in one place below.
- Every card of the catalog is playable and cited by a test, or listed as not implemented yet.
- A card with no effects changes nothing in play.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pipeline.cards import registry
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import Card, load_catalog
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hand import play_hand
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.wall import Wall
from tests.support.shared_data import shared_path

TESTS_DIR = Path(__file__).resolve().parents[1]
SPEC = shared_path("spec/rules.md")
SERIES = "HMK"

# C- rules whose part is not built yet, each with the reason; the list shrinks as parts land
# (a listed rule that a test cites is an error: remove it from here).
C_RULES_NOT_YET = {
    "C-09": "blitz draft, global draft, canonical teams: announced as in development, not "
            "required",
}

# Cards whose effects are not implemented yet (part 2); the list shrinks as they land.
CARDS_NOT_YET = frozenset((
))


def spec_rule_ids(text: str, series: str = SERIES) -> list[str]:
    """Rule ids defined in the spec: a list item that starts with the id (``- H-01 ...``)."""
    ids = re.findall(rf"^\s*[-*]\s+([{series}]-\d{{2}})\b", text, flags=re.MULTILINE)
    return sorted(set(ids), key=lambda i: (series.index(i[0]), int(i[2:])))


def cited_ids(texts: list[str], series: str = SERIES) -> set[str]:
    """Ids cited in the tests: written ``H-09`` anywhere, or ``h09`` as a part of a test name
    (``def test_h09_furiten...``)."""
    rule_id = re.compile(rf"\b([{series}])-(\d{{2}})\b")
    lower = series.lower()
    found: set[str] = set()
    for text in texts:
        found.update(f"{s}-{n}" for s, n in rule_id.findall(text))
        for name in re.findall(r"\bdef\s+(test_\w+)", text):
            for part in name.split("_"):
                if re.fullmatch(rf"[{lower}]\d{{2}}", part):
                    found.add(f"{part[0].upper()}-{part[1:]}")
    return found


def suite_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(TESTS_DIR.rglob("*.py"))
            if p.resolve() != Path(__file__).resolve()]


def test_rule_id_patterns() -> None:
    spec = "- H-01 one\n- M-10 two\n  - K-03 three\nsee H-02 here\n- C-01 card\n"
    assert spec_rule_ids(spec) == ["H-01", "M-10", "K-03"]
    found = cited_ids(["# rule H-09, K-12\n", "def test_m06_k13_tobi(): ...", "XH-05 KH-055",
                       "value = h10_m01", "def helper_h11(): ..."])
    assert found == {"H-09", "K-12", "M-06", "K-13"}


def test_every_h_m_k_rule_is_cited_in_tests() -> None:
    if not SPEC.is_file():
        pytest.skip(f"spec not found at {SPEC}")
    spec_ids = spec_rule_ids(SPEC.read_text(encoding="utf-8"))
    assert spec_ids, f"no H-, M- or K- rule ids found in {SPEC}"
    uncited = [i for i in spec_ids if i not in cited_ids(suite_texts())]
    assert not uncited, f"rule ids of {SPEC.name} not cited in tests/: {', '.join(uncited)}"


def test_c_rule_id_patterns() -> None:
    spec = "- C-01 one\n- H-01 two\n  - C-22 three\n"
    assert spec_rule_ids(spec, "C") == ["C-01", "C-22"]
    assert cited_ids(["# C-22 Kei\n", "def test_c13_face_down(): ...", "XC-05"], "C") == {
        "C-22", "C-13"}


def test_every_c_rule_is_cited_or_listed_as_not_built_yet() -> None:
    if not SPEC.is_file():
        pytest.skip(f"spec not found at {SPEC}")
    spec_ids = spec_rule_ids(SPEC.read_text(encoding="utf-8"), "C")
    assert spec_ids, f"no C- rule ids found in {SPEC}"
    cited = cited_ids(suite_texts(), "C")
    uncited = [i for i in spec_ids if i not in cited and i not in C_RULES_NOT_YET]
    assert not uncited, (f"C- rules of {SPEC.name} not cited in tests/: {', '.join(uncited)} "
                         f"(cite them, or list them in C_RULES_NOT_YET with the reason)")
    landed = sorted(i for i in C_RULES_NOT_YET if i in cited)
    assert not landed, f"now cited by tests: remove {landed} from C_RULES_NOT_YET"
    unknown = sorted(set(C_RULES_NOT_YET) - set(spec_ids))
    assert not unknown, f"C_RULES_NOT_YET lists ids the spec does not define: {unknown}"


def test_every_sanma_rule_of_the_digest_is_cited_in_tests() -> None:
    # the three-player digest (docs/sanma.md): the seeds do not number those rules
    digest = (TESTS_DIR.parent / "docs" / "sanma.md").read_text(encoding="utf-8")
    ids = spec_rule_ids(digest, "S")
    assert ids == [f"S-{n:02d}" for n in range(1, 11)]
    uncited = [i for i in ids if i not in cited_ids(suite_texts(), "S")]
    assert not uncited, f"sanma rules of docs/sanma.md not cited in tests/: {', '.join(uncited)}"


def test_every_card_is_playable_and_tested_or_listed_as_not_implemented() -> None:
    catalog = load_catalog("1.2")
    texts = suite_texts()
    ids = set(catalog.ids)
    assert CARDS_NOT_YET <= ids, f"unknown ids in CARDS_NOT_YET: {sorted(CARDS_NOT_YET - ids)}"
    unplayable = sorted(c.id for c in catalog
                        if not registry.playable(c) and c.id not in CARDS_NOT_YET)
    assert not unplayable, (f"cards neither playable nor listed as not implemented yet: "
                            f"{unplayable} (missing: "
                            f"{ {c: registry.missing_kinds(catalog.card(c)) for c in unplayable} }"
                            ")")
    untested = sorted(c.id for c in catalog if c.id not in CARDS_NOT_YET
                      and not any(c.id in t for t in texts))
    assert not untested, f"playable cards no test file names: {untested}"
    landed = sorted(c.id for c in catalog if c.id in CARDS_NOT_YET and registry.playable(c))
    assert not landed, f"now playable: remove {landed} from CARDS_NOT_YET"


BLANK = Card(id="blank_card", name="Blank", school="none", text_template="Does nothing.")
PRESET = load_preset("online-hanchan")


@pytest.mark.parametrize("seed", range(5))
def test_a_card_with_no_effects_leaves_the_event_log_identical(seed: int) -> None:
    start = HandStart(wall=Wall.shuffled(random.Random(seed)).order, dealer=seed % 4,
                      scores=(30000, 22000, 41000, 27000), sticks=seed % 2)
    with_card = play_hand(start, PRESET, [RandomAgent(seed * 4 + s) for s in range(4)],
                          abilities=[CardAbility(BLANK, s) for s in range(4)])
    without = play_hand(start, PRESET, [RandomAgent(seed * 4 + s) for s in range(4)])
    assert with_card.log_text() == without.log_text()
    assert [s.end_score for s in with_card.seats] == [s.end_score for s in without.seats]
