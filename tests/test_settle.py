"""A warm process freezes what it holds for good, and plays exactly as before
(pipeline/workers.py, settle_long_lived)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# one card trial shard played three times in a fresh process: the second one begins by freezing
SCRIPT = """
import dataclasses, gc, sys, tempfile
from pathlib import Path
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim.run import play_shard
from pipeline.sim.trial import TrialConfig
preset = load_preset("cards-hanchan")
catalog = load_catalog(preset.cards.catalog)
config = TrialConfig(preset=preset, catalog=catalog, seed=3, cards=("kei_arakawa",))
with tempfile.TemporaryDirectory() as tmp:
    task = dataclasses.replace(config.task(Path(tmp), "kei_arakawa", 0), paired=True)
    outputs, frozen = [], []
    for _ in range(3):
        outputs.append(play_shard(task).files)
        frozen.append(gc.get_freeze_count())
print(*frozen, outputs[0] == outputs[1] == outputs[2])
"""


def test_second_shard_freezes_once_and_plays_the_same() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True)
    first, second, third, same = done.stdout.split()
    assert int(first) == 0  # nothing frozen before a shard has been played
    assert int(second) > 10_000  # the warm process's modules, catalog and memos
    # no second freeze: what the third shard leaves behind is not frozen (only what the
    # frozen objects hold on to, such as entries of the memos, can change)
    assert abs(int(third) - int(second)) < int(second) // 10
    assert same == "True"  # tables byte for byte the same, frozen or not
