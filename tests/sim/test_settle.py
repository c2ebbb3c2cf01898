"""A process about to play collects its young objects less often, a warm one freezes what it
holds for good, and both play exactly as before (pipeline/workers.py, settle_long_lived)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipeline.workers import YOUNG_COLLECTION_EVERY

ROOT = Path(__file__).resolve().parents[2]

# one card trial shard played three times in a fresh process: the second one begins by freezing
SCRIPT = """
import dataclasses, gc, sys, tempfile
from pathlib import Path

from pipeline.workers import YOUNG_COLLECTION_EVERY
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.run import play_shard
from pipeline.sim.trial import TrialConfig
preset = load_preset("cards-hanchan")
catalog = load_catalog(preset.cards.catalog)
config = TrialConfig(preset=preset, catalog=catalog, seed=3, cards=("kei_arakawa",))
with tempfile.TemporaryDirectory() as tmp:
    task = dataclasses.replace(config.task(Path(tmp), "kei_arakawa", 0), paired=True)
    young = gc.get_threshold()[0]
    outputs, frozen = [], []
    for _ in range(3):
        outputs.append(play_shard(task).files)
        frozen.append(gc.get_freeze_count())
print(*frozen, outputs[0] == outputs[1] == outputs[2], young, gc.get_threshold()[0])
"""


def test_second_shard_freezes_once_and_plays_the_same() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True)
    first, second, third, same, young_before, young_after = done.stdout.split()
    assert int(first) == 0  # nothing frozen before a shard has been played
    assert int(second) > 10_000  # the warm process's modules, catalog and memos
    # no second freeze: what the third shard leaves behind is not frozen (only what the
    # frozen objects hold on to, such as entries of the memos, can change)
    assert abs(int(third) - int(second)) < int(second) // 10
    assert same == "True"  # tables byte for byte the same, frozen or not
    assert int(young_before) == 700  # the interpreter's default
    assert int(young_after) == YOUNG_COLLECTION_EVERY  # raised once play began


def test_young_threshold_is_raised_once_and_never_lowered() -> None:
    script = (
        "import gc\n"
        "from pipeline import workers\n"
        "gc.set_threshold(50_000, 10, 10)\n"
        "workers.settle_long_lived()\n"
        "kept = gc.get_threshold()\n"
        "gc.set_threshold(0)\n"
        "workers._pieces_begun = 0\n"
        "workers.settle_long_lived()\n"
        "print(*kept, gc.get_threshold()[0])\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    young, middle, old, off = (int(x) for x in done.stdout.split())
    assert (young, middle, old) == (50_000, 10, 10)  # a higher threshold is kept as set
    assert off == 0  # automatic collection turned off stays off
