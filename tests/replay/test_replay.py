"""Real games replayed through the engine: every action legal, every payment equal.

This is the engine's reference test (its perft): the Tenhou records in ../shared/validation are
replayed hand by hand and must show zero mismatches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.replay.record import load_record
from pipeline.replay.replayer import record_defect, replay_paths
from tests.support.shared_data import REAL_GAMES, VALIDATION

needs_records = pytest.mark.skipif(
    not VALIDATION.is_dir(), reason=f"validation records not found at {VALIDATION}")


def _files(folder: str) -> list[Path]:
    return sorted((VALIDATION / folder).glob("*")) if VALIDATION.is_dir() else []


@needs_records
@pytest.mark.parametrize("path", _files("tenhou-xml") + _files("tenhou-json"),
                         ids=lambda p: p.name)
def test_record_replays_without_mismatch(path: Path) -> None:
    # rules H-03..H-12, M-03..M-08, K-05..K-07 are exercised by real play here
    report = replay_paths([path])
    assert report.hands > 0
    assert report.actions > 0 or report.skipped
    assert not report.mismatches, "\n".join(str(m) for m in report.mismatches)


@needs_records
def test_all_real_games_checked_with_every_hand() -> None:
    report = replay_paths([VALIDATION / "tenhou-xml"])
    assert (report.files, report.hands) == REAL_GAMES
    assert not report.skipped  # real games never contradict themselves
    assert report.ok


@needs_records
def test_only_hand_made_records_are_skipped_as_defective() -> None:
    defective = []
    for path in _files("tenhou-json"):
        for hand in load_record(path).hands:
            if record_defect(hand) is not None:
                defective.append(path.name)
    assert all(name.startswith("edge_") for name in defective)
    assert len(defective) <= 2


@needs_records
def test_replay_detects_a_wrong_result(tmp_path: Path) -> None:
    """A record whose payment was tampered with must produce a mismatch, not pass silently."""
    src = (VALIDATION / "tenhou-xml" / "2019021004gm-00a9-0000-e2f6516d.xml").read_text()
    start = src.index('<AGARI')
    ten = src.index('ten="', start) + len('ten="')
    end = src.index('"', ten)
    fu, points, limit = src[ten:end].split(",")
    tampered = src[:ten] + f"{fu},{int(points) + 1000},{limit}" + src[end:]
    path = tmp_path / "tampered.xml"
    path.write_text(tampered)
    report = replay_paths([path])
    assert not report.ok
    assert any("worth" in m.what for m in report.mismatches)


@needs_records
def test_replay_detects_an_illegal_action(tmp_path: Path) -> None:
    """Swapping a recorded discard for a tile the player does not hold is caught."""
    src = (VALIDATION / "tenhou-json" / "edge_chankan.json").read_text()
    path = tmp_path / "bad.json"
    # the first seat's first discard (44 = 4z) becomes 11 (1m), which it does not hold
    path.write_text(src.replace("[44,21,60", "[11,21,60", 1))
    from pipeline.replay.record import RecordError

    try:
        report = replay_paths([path])
    except RecordError:
        return  # the parser already refuses the impossible record
    assert not report.ok
