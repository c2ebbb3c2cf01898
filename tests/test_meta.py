"""Every H-, M- and K- rule of the spec is cited by some test, so `grep -r "H-12" tests/`
finds its proof."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec" / "rules.md"
RULE_ID = re.compile(r"\b([HMK])-(\d{2})\b")
SERIES = "HMK"


def spec_rule_ids(text: str) -> list[str]:
    """Rule ids defined in the spec: a list item that starts with the id (``- H-01 ...``)."""
    ids = re.findall(r"^\s*[-*]\s+([HMK]-\d{2})\b", text, flags=re.MULTILINE)
    return sorted(set(ids), key=lambda i: (SERIES.index(i[0]), int(i[2:])))


def cited_ids(texts: list[str]) -> set[str]:
    """Ids cited in the tests: written ``H-09`` anywhere, or ``h09`` as a part of a test name
    (``def test_h09_furiten...``)."""
    found: set[str] = set()
    for text in texts:
        found.update(f"{s}-{n}" for s, n in RULE_ID.findall(text))
        for name in re.findall(r"\bdef\s+(test_\w+)", text):
            for part in name.split("_"):
                if re.fullmatch(r"[hmk]\d{2}", part):
                    found.add(f"{part[0].upper()}-{part[1:]}")
    return found


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
    texts = [p.read_text(encoding="utf-8") for p in sorted(TESTS_DIR.rglob("*.py"))
             if p.resolve() != Path(__file__).resolve()]
    uncited = [i for i in spec_ids if i not in cited_ids(texts)]
    assert not uncited, f"rule ids of {SPEC.name} not cited in tests/: {', '.join(uncited)}"
