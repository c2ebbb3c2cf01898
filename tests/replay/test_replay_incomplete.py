"""Records that stop in the middle of a hand: replayed up to their last action.

Test suites and interrupted downloads leave records whose last hand has no result (or whose
file ends in the middle of a tag or a line). Every action before the cut is still checked
(rules H-03..H-09 apply to it as to any hand), the hand is counted as incomplete, apart from
passes, mismatches and skips, and ``--strict`` makes it an error.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.replay.record import RecordError, load_record
from pipeline.replay.replayer import replay_paths

VALIDATION = Path(__file__).resolve().parents[3] / "shared" / "validation"
XML = VALIDATION / "tenhou-xml" / "2019021004gm-00a9-0000-e2f6516d.xml"
JSON = VALIDATION / "tenhou-json" / "2019021004gm-00a9-0000-e2f6516d.json"
needs_records = pytest.mark.skipif(
    not VALIDATION.is_dir(), reason=f"validation records not found at {VALIDATION}")


def _cut_xml_in_hand(text: str, hand: int, tags: int) -> str:
    """The mjlog text up to ``tags`` draw/discard tags into hand ``hand`` (0-based), cut in
    the middle of the next tag as a broken download would be."""
    starts = [m.start() for m in re.finditer(r"<INIT ", text)]
    body = text[starts[hand]:]
    plays = [m.end() for m in re.finditer(r"<[TUVWDEFG]\d+/>", body)]
    end = starts[hand] + plays[tags - 1]
    return text[:end] + '<N who="1" m='


@needs_records
def test_xml_cut_mid_hand_replays_the_complete_hands_and_the_cut_one(tmp_path: Path) -> None:
    text = XML.read_text()
    whole = replay_paths([XML])
    cut = tmp_path / "cut.xml"
    cut.write_text(_cut_xml_in_hand(text, 3, 25))
    report = replay_paths([cut])
    assert report.hands == 4 and report.passed == 3
    assert len(report.incomplete) == 1 and not report.mismatches and not report.skipped
    assert report.incomplete[0].where == "East 4, honba 0"
    # the cut hand's 25 draws and discards (less the draws, which are not decisions) were
    # checked: more actions than the three complete hands alone
    three = replay_paths([_first_hands(tmp_path, text, 3)])
    assert report.actions > three.actions
    assert whole.hands > report.hands


def _first_hands(tmp_path: Path, text: str, count: int) -> Path:
    starts = [m.start() for m in re.finditer(r"<INIT ", text)]
    path = tmp_path / f"first{count}.xml"
    path.write_text(text[:starts[count]] + "</mjloggm>")
    return path


@needs_records
def test_gzipped_mjlog_cut_off_mid_stream_is_read_as_far_as_it_goes(tmp_path: Path) -> None:
    data = gzip.compress(XML.read_bytes())
    cut = tmp_path / "cut.mjlog"
    cut.write_bytes(data[: len(data) // 2])
    report = replay_paths([cut])
    assert report.hands >= 1 and report.ok
    assert len(report.incomplete) <= 1 and report.passed == report.hands - len(report.incomplete)


@needs_records
def test_json_last_hand_without_result_is_incomplete(tmp_path: Path) -> None:
    doc = json.loads(JSON.read_text(encoding="utf-8"))
    doc["log"] = doc["log"][:5]
    doc["log"][-1] = doc["log"][-1][:16]  # the result never written
    doc.pop("sc", None)
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    report = replay_paths([path])
    assert (report.hands, report.passed, len(report.incomplete)) == (5, 4, 1)
    assert report.ok


@needs_records
def test_json_hand_without_result_before_another_is_an_error(tmp_path: Path) -> None:
    doc = json.loads(JSON.read_text(encoding="utf-8"))
    doc["log"][2] = doc["log"][2][:16]
    path = tmp_path / "hole.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(RecordError, match=r"hole\.json: hand 2 .*another hand follows"):
        load_record(path)


@needs_records
def test_an_illegal_action_before_the_cut_is_still_a_mismatch(tmp_path: Path) -> None:
    # H-05: P1 cannot pon a tile nobody discarded; the cut hand is not excused from checks
    text = _cut_xml_in_hand(XML.read_text(), 1, 10)
    last = list(re.finditer(r"<([DEFG])\d+/>", text))[-1]
    seat = "DEFG".index(last.group(1))
    # a riichi declared on an early discard of a hand that is not tenpai (rule H-08)
    path = tmp_path / "bad.xml"
    path.write_text(text[:last.start()] + f'<REACH who="{seat}" step="1"/>'
                    + text[last.start():])
    report = replay_paths([path])
    assert "not legal" in report.mismatches[0].what
    # a hand is counted once: this one failed, so it is not also "incomplete"
    assert report.passed == 1 and not report.incomplete


@needs_records
def test_strict_makes_an_incomplete_hand_an_error(tmp_path: Path) -> None:
    cut = tmp_path / "cut.xml"
    cut.write_text(_cut_xml_in_hand(XML.read_text(), 2, 30))
    report = replay_paths([cut], strict=True)
    assert report.files == 0 and len(report.refused) == 1
    assert re.search(r"cut\.xml: .*stops mid-hand.*without --strict", report.refused[0])
    result = CliRunner().invoke(cli.app, ["replay", "--strict", str(cut)])
    assert result.exit_code == 2
    assert "cut.xml" in result.output and "stops mid-hand" in result.output
    result = CliRunner().invoke(cli.app, ["replay", str(cut)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("INCOMPLETE ") and "cut.xml" in lines[0]
    assert lines[-1].startswith("1 files, 3 hands (2 passed, 1 incomplete")
    assert lines[-1].endswith("0 mismatches")


@needs_records
def test_complete_records_report_no_incomplete_hands() -> None:
    report = replay_paths([VALIDATION / "tenhou-xml"], strict=True)
    assert not report.incomplete and report.passed == report.hands == 70
