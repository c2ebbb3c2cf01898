"""Shared set-up of the test suite.

The helpers several test files build their situations with live in ``tests/support/`` (plain
functions, agents and constants, imported as ``tests.support.<topic>``); a test module never
imports another test module (``project/test_suite_layout.py`` checks it). The root is put
on the import path here, so ``tests.support`` and the benchmarks import the same way under
``pytest`` and ``python -m pytest``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
