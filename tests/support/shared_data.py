"""Where the tests find the project's reference material: ``../shared`` beside the checkout
when it is there (the full validation set, the spec, the roster), else the slice of it kept in
``tests/fixtures/`` (two complete games in both formats, every edge record, the mjai log, the
rule spec and the roster), so the replay and meta tests also run in a plain clone.
``SAKI_SHARED=/some/folder`` points elsewhere (``SAKI_SHARED=none``: the fixtures only, as in a
plain clone)."""

from __future__ import annotations

import os
from pathlib import Path

SHARED = Path(os.environ.get("SAKI_SHARED") or Path(__file__).resolve().parents[3] / "shared")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def shared_path(relative: str) -> Path:
    """``../shared/<relative>`` if present, else ``tests/fixtures/<relative>``."""
    full = SHARED / relative
    return full if full.exists() else FIXTURES / relative


VALIDATION = shared_path("validation")
FULL_VALIDATION = VALIDATION == SHARED / "validation"  # the six games, not the fixture slice
# complete games, their hands and their wins: the full set's six, or the fixtures' two
REAL_GAMES = (6, 70) if FULL_VALIDATION else (2, 17)
REAL_WINS = 59 if FULL_VALIDATION else 16
