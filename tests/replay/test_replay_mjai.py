"""mjai logs replayed by `saki replay` with the same checks as Tenhou records.

Our own matches written as mjai (every call, kan, riichi, double ron the bots happen to play)
must replay with zero mismatches under the preset they were played by, and the riichienv game
in ../shared/validation/mjai too. Broken logs give one line naming the file and the line.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.bots.registry import make_agent
from pipeline.replay.mjai_log import parse_mjai, tile_kind
from pipeline.replay.record import RecordError, load_record
from pipeline.replay.replayer import replay_game, replay_paths
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.sim.mjai import match_events, to_jsonl

VALIDATION = Path(__file__).resolve().parents[3] / "shared" / "validation" / "mjai"
ONLINE = load_preset("online-hanchan")


def _own_match(match: int, preset=ONLINE) -> tuple[str, object]:
    agents = [make_agent("heuristic", derive_seed(9, match, s)) for s in range(4)]
    result = play_match(preset, agents, 9, match)
    return to_jsonl(match_events(result, names=["a", "b", "c", "d"], seed=[9, match],
                                 preset=preset)), result


@pytest.fixture(scope="module")
def own_log() -> str:
    return _own_match(0)[0]


def test_own_matches_exported_as_mjai_replay_without_mismatch() -> None:
    # rules H-03..H-12, M-03..M-06: every action, delta and next-hand start of 6 matches
    hands = 0
    for match in range(6):
        text, result = _own_match(match)
        report = replay_game(parse_mjai(text, f"match{match}.jsonl"), ONLINE)
        assert report.ok, "\n".join(map(str, report.mismatches))
        assert report.passed == report.hands == len(result.hands)
        hands += report.hands
    assert hands > 50


def test_mjai_tiles_get_physical_ids_and_red_fives_their_own() -> None:
    assert tile_kind("5mr") == (4, True) and tile_kind("5p") == (13, False)
    assert tile_kind("E") == (27, False) and tile_kind("C") == (33, False)
    for bad in ("0m", "5z", "6mr", "", 5):
        with pytest.raises(ValueError):
            tile_kind(bad)


def test_hora_has_no_value_so_the_deltas_are_checked(own_log: str) -> None:
    game = parse_mjai(own_log, "own.jsonl")
    wins = [w for h in game.hands for w in h.wins]
    assert wins and not any(w.scored for w in wins)
    assert game.ended and game.players == ("a", "b", "c", "d")
    # a wrong delta is caught
    lines = own_log.splitlines()
    i = next(i for i, line in enumerate(lines) if '"hora"' in line)
    event = json.loads(lines[i])
    event["deltas"] = [d + (100 if s == event["actor"] else 0) for s, d in
                       enumerate(event["deltas"])]
    event["deltas"][event["target"] if event["target"] != event["actor"]
                    else (event["actor"] + 1) % 4] -= 100
    lines[i] = json.dumps(event)
    report = replay_game(parse_mjai("\n".join(lines) + "\n", "bad.jsonl"), ONLINE)
    assert any("deltas" in m.what for m in report.mismatches)


def test_mjai_in_every_container(own_log: str, tmp_path: Path) -> None:
    events = [json.loads(line) for line in own_log.splitlines()]
    files = {
        "a.jsonl": own_log.encode(),
        "b.jsonl.gz": gzip.compress(own_log.encode()),
        "c.json": json.dumps(events).encode(),
        "d.json.gz": gzip.compress(json.dumps(events).encode()),
        "e.json": own_log.encode(),  # JSON lines saved as .json
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    report = replay_paths([tmp_path])
    assert report.files == 5 and report.ok
    assert report.passed == report.hands == 5 * len(load_record(tmp_path / "a.jsonl").hands)


def test_mjai_cut_mid_line_replays_up_to_the_cut(own_log: str, tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text(own_log[: len(own_log) // 2])
    report = replay_paths([path])
    assert report.ok and len(report.incomplete) == 1
    assert report.passed == report.hands - 1 >= 1


@pytest.mark.parametrize(("change", "message"), [
    (lambda lines: lines.insert(3, "{not json"), r"bad\.jsonl: line 4: not a JSON event"),
    (lambda lines: lines.insert(3, '{"type": "dahai", "actor": 7, "pai": "1m"}'),
     r"bad\.jsonl: line 4: actor 7 is not a seat"),
    (lambda lines: lines.insert(3, '{"type": "dahai", "actor": 0, "pai": "9z"}'),
     r"bad\.jsonl: line 4: tile '9z' is not an mjai tile name"),
    (lambda lines: lines.insert(3, '{"type": "nuki", "actor": 0}'),
     r"bad\.jsonl: line 4: unknown event type 'nuki'"),
    (lambda lines: lines.__setitem__(1, lines[1].replace('"tehais":[[', '"tehais":[["?",', 1)),
     r"bad\.jsonl: line 2: tehais"),
])
def test_broken_mjai_is_one_line_naming_file_and_line(own_log: str, tmp_path: Path, change,
                                                      message: str) -> None:
    lines = own_log.splitlines()
    change(lines)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=message):
        load_record(path)
    result = CliRunner().invoke(cli.app, ["replay", str(path)])
    assert result.exit_code == 2 and "bad.jsonl" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_saki_replay_takes_the_rules_from_the_preset(own_log: str, tmp_path: Path) -> None:
    # rule H-01: the same log under a preset without red fives scores the hands differently
    path = tmp_path / "own.jsonl"
    path.write_text(own_log)
    ok = CliRunner().invoke(cli.app, ["replay", "--preset", "online-hanchan", str(path)])
    assert ok.exit_code == 0 and ok.output.strip().endswith("0 mismatches")
    if '5mr' in own_log or '5pr' in own_log or '5sr' in own_log:
        other = CliRunner().invoke(cli.app, ["replay", "--preset", "tournament-2022", str(path)])
        assert other.exit_code == 1 and "MISMATCH" in other.output


@pytest.mark.skipif(not VALIDATION.is_dir(), reason=f"no mjai validation logs in {VALIDATION}")
def test_riichienv_validation_game_replays_without_mismatch() -> None:
    report = replay_paths([VALIDATION])
    assert report.files >= 1 and report.ok
    assert report.passed == report.hands >= 12


def test_log_cut_between_two_rons_is_incomplete_not_a_mismatch() -> None:
    # rule H-11: P2 and P3 ron P0's 5p; a log that stops after the first hora cannot say
    # whether a second followed, so the hand is replayed up to the discard and counted apart
    from pipeline.rules.scenario import play_scenario, scenario_start
    from pipeline.sim.mjai import hand_events

    start = scenario_start(["", "", "345m567s444s67p22m", "234s456m777m666s5p"], "1z2z3z4z5p",
                           dora="9m", honba=1, sticks=1)
    rec, _ = play_scenario(start, ONLINE, [(), (), ["ron"], ["ron"]])
    events = [{"type": "start_game"}, *hand_events(rec, True, ONLINE), {"type": "end_game"}]
    whole = to_jsonl(events)
    assert replay_game(parse_mjai(whole, "whole.jsonl"), ONLINE).passed == 1
    first = next(i for i, e in enumerate(events) if e["type"] == "hora")
    report = replay_game(parse_mjai(to_jsonl(events[:first + 1]), "cut.jsonl"), ONLINE)
    assert report.ok and len(report.incomplete) == 1 and report.passed == 0
