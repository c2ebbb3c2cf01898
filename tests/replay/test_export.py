"""Replaying a match of a finished run, `saki show`, and `saki export --format mjai`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset
from pipeline.sim import SimError
from pipeline.sim import replay_run as replay_module
from pipeline.sim.mjai import MJAI_TILES, hand_events, mjai_tile
from pipeline.sim.replay_run import replay_match
from pipeline.sim.run import RunConfig, load_table, simulate
from tests.support.shared_data import VALIDATION

VALIDATION_MJAI = VALIDATION / "mjai"
# Standard mjai events the engine can log that a given validation game may not contain.
MJAI_ONLY_IF_PLAYED = {"daiminkan", "kakan"}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    preset = load_preset("online-tonpuusen")
    config = RunConfig(preset=preset, catalog=load_catalog(preset.cards.catalog), seed=3,
                       games=2, bots=("greedy",) * 4)
    out = tmp_path_factory.mktemp("export") / "run"
    simulate(config, out, workers=1)
    return out


def invoke(*args: str):
    return CliRunner().invoke(cli.app, [str(a) for a in args])


def export_lines(run_dir: Path, *extra: str) -> list[dict]:
    result = invoke("export", run_dir, "--match", "0", "--format", "mjai", *extra)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def kyokus(events: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            out.append([])
        if out:
            out[-1].append(e)
    return out


def test_replay_reproduces_the_stored_scores(run_dir: Path) -> None:
    hands = load_table(run_dir, "hands")
    for match_id in (0, 1):
        result = replay_match(run_dir, match_id)
        stored = hands.filter(hands["match_id"] == match_id).sort("hand_index", "seat")
        assert len(result.hands) == stored["hand_index"].n_unique()
        replayed = [s.end_score for rec in result.hands for s in rec.seats]
        assert replayed == stored["end_score"].to_list()


def test_replay_refuses_a_result_that_differs(run_dir: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    real = replay_module.play_match

    def changed(*args, **kwargs):
        result = real(*args, **kwargs)
        return replace(result, hands=result.hands[:-1])

    monkeypatch.setattr(replay_module, "play_match", changed)
    with pytest.raises(SimError, match="does not replay to the stored result: code changed"):
        replay_match(run_dir, 0)


def test_replay_errors(run_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(SimError, match="no such run folder"):
        replay_match(tmp_path / "missing", 0)
    with pytest.raises(SimError, match="no match 7"):
        replay_match(run_dir, 7)


def test_show_prints_header_log_and_summary(run_dir: Path) -> None:
    rec = replay_match(run_dir, 0).hands[1]
    result = invoke("show", run_dir, "--match", "0", "--hand", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"match 0 hand 1: {rec.name}, honba {rec.honba}")
    assert f"dealer P{rec.dealer}" in lines[0]
    assert " ".join(str(s.start_score) for s in rec.seats) in lines[0]
    assert rec.log_text() in result.stdout
    assert rec.summary() in result.stdout
    assert any(" discard " in line for line in lines)


def test_mjai_tiles() -> None:
    assert [mjai_tile(t * 4 + 1) for t in (0, 8, 9, 17, 18, 26)] == \
        ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert [mjai_tile(t * 4) for t in range(27, 34)] == ["E", "S", "W", "N", "P", "F", "C"]
    assert [mjai_tile(t) for t in (16, 52, 88)] == ["5mr", "5pr", "5sr"]
    assert mjai_tile(16, red_fives=False) == "5m"


def test_export_structure(run_dir: Path) -> None:
    events = export_lines(run_dir)
    assert events[0]["type"] == "start_game"
    assert events[-1]["type"] == "end_game"
    starts = [e for e in events if e["type"] == "start_kyoku"]
    assert len(starts) == len(replay_match(run_dir, 0).hands)
    for start in starts:
        assert len(start["tehais"]) == 4
        assert all(len(hand) == 13 for hand in start["tehais"])
    for kyoku in kyokus(events):
        assert kyoku[-1]["type"] == "end_kyoku" or kyoku[-1]["type"] == "end_game"
        assert sum(e["type"] in ("hora", "ryukyoku") for e in kyoku) >= 1


def test_export_tiles_are_mjai_tiles(run_dir: Path) -> None:
    def tiles(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            for v in value:
                yield from tiles(v)

    seen = 0
    for e in export_lines(run_dir):
        for key in ("pai", "dora_marker", "consumed", "tehais", "ura_markers"):
            for tile in tiles(e.get(key)):
                assert tile in MJAI_TILES, (tile, e)
                seen += 1
    assert seen > 100


def test_export_deltas_match_the_stick_movement(run_dir: Path) -> None:
    events = export_lines(run_dir)
    hands = replay_match(run_dir, 0).hands
    scores = None
    for rec, kyoku in zip(hands, kyokus(events), strict=True):
        start = kyoku[0]
        if scores is not None:
            assert start["scores"] == scores  # carried on from the previous kyoku
        assert start["kyotaku"] == rec.sticks_start
        accepted = sum(e["type"] == "reach_accepted" for e in kyoku)
        results = [e for e in kyoku if e["type"] in ("hora", "ryukyoku")]
        total = [sum(e["deltas"][s] for e in results) for s in range(4)]
        assert sum(total) == 1000 * (rec.sticks_start + accepted - rec.sticks_end)
        scores = [start["scores"][s] + total[s] for s in range(4)]
        for e in kyoku:
            if e["type"] == "reach_accepted":
                scores[e["actor"]] -= 1000
        assert scores == [s.end_score for s in rec.seats]


def test_double_ron_splits_the_deltas(run_dir: Path) -> None:
    for rec in replay_match(run_dir, 0).hands:
        horas = [e for e in hand_events(rec) if e["type"] == "hora"]
        assert len(horas) == len(rec.wins)
        for e, w in zip(horas, rec.wins, strict=True):
            assert (e["actor"], e["target"]) == (w.seat, w.from_seat)
            assert e["deltas"][w.seat] >= w.points


def test_export_one_hand_to_a_file(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "hand.jsonl"
    result = invoke("export", run_dir, "--match", "1", "--hand", "0", "--out", out)
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in out.read_text().splitlines()]
    types = [e["type"] for e in events]
    assert types[0] == "start_game" and types[-1] == "end_game"
    assert types.count("start_kyoku") == 1 and types.count("end_kyoku") == 1
    assert events[0]["seed"] == [3, 1]


def test_export_keys_match_the_validation_log(run_dir: Path) -> None:
    files = sorted(VALIDATION_MJAI.glob("*.jsonl")) if VALIDATION_MJAI.is_dir() else []
    if not files:
        pytest.skip(f"no mjai validation logs in {VALIDATION_MJAI}")
    reference: dict[str, set[str]] = {}
    for path in files:
        for line in path.read_text().splitlines():
            if line.strip():
                e = json.loads(line)
                reference.setdefault(e["type"], set(e))
    ours: dict[str, set[str]] = {}
    for match in ("0", "1"):
        result = invoke("export", run_dir, "--match", match)
        for line in result.stdout.splitlines():
            e = json.loads(line)
            assert ours.setdefault(e["type"], set(e)) == set(e)  # one shape per type
    for kind, keys in ours.items():
        if kind in reference:
            assert keys == reference[kind], kind
        else:
            assert kind in MJAI_ONLY_IF_PLAYED, kind


@pytest.mark.parametrize("args", [
    ("show", "{missing}", "--match", "0", "--hand", "0"),
    ("show", "{run}", "--match", "9", "--hand", "0"),
    ("show", "{run}", "--match", "0", "--hand", "99"),
    ("export", "{missing}", "--match", "0"),
    ("export", "{run}", "--match", "-1"),
    ("export", "{run}", "--match", "0", "--hand", "99"),
    ("export", "{run}", "--match", "0", "--format", "tenhou"),
])
def test_cli_errors_exit_2(run_dir: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    filled = [a.format(run=run_dir, missing=tmp_path / "missing") for a in args]
    result = invoke(*filled)
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert text.startswith("error:") and len(text.splitlines()) == 1
    assert "Traceback" not in text


# --------------------------------------------------------------------------- card games


@pytest.fixture(scope="module")
def card_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    preset = load_preset("cards-tonpuusen")
    config = RunConfig(preset=preset, catalog=load_catalog(preset.cards.catalog), seed=4,
                       games=1, bots=("heuristic",) * 4)
    out = tmp_path_factory.mktemp("cards") / "run"
    simulate(config, out, workers=1)
    return out


def test_card_game_export_writes_picks_and_every_ability(card_run: Path) -> None:
    # rule C-02, C-03: every hand's picks, and each ability trigger in play order
    result = invoke("export", card_run, "--match", "0")
    assert result.exit_code == 0, result.output
    assert "saki card extension" in result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    hands = replay_match(card_run, 0).hands
    for rec, kyoku in zip(hands, kyokus(events), strict=True):
        assert kyoku[1] == {"type": "saki_picks", "picks": rec.picks,
                            "teams": [list(t) for t in rec.teams["teams"]]}
        logged = [e for e in rec.events if e.kind == "ability"]
        written = [e for e in kyoku if e["type"] == "saki_ability"]
        texts = [(e.seat, e.detail) for e in logged]  # wording: the text exported
        assert [(e["actor"], e["text"]) for e in written] == texts
        for e in written:
            assert e.get("card") is None or e["card"] in rec.picks or "_" in e["card"]
            assert all(t in MJAI_TILES for t in [e.get("pai", "1m"), *e.get("tiles", [])])
    assert any(e["type"] == "saki_ability" and "card" in e for e in events)


def test_card_game_export_strict_refuses_with_one_line(card_run: Path) -> None:
    result = invoke("export", card_run, "--match", "0", "--strict")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "card game" in lines[0] and "without --strict" in lines[0]


def test_card_free_export_says_it_is_standard_and_strict_allows_it(run_dir: Path) -> None:
    result = invoke("export", run_dir, "--match", "0", "--strict")
    assert result.exit_code == 0 and "standard mjai" in result.stderr
    assert not any('"saki_' in line for line in result.stdout.splitlines())


def test_card_game_log_replays_as_skipped_hands_with_the_score_chain_checked(
        card_run: Path, tmp_path: Path) -> None:
    from pipeline.replay.replayer import CARD_GAME, replay_paths

    path = tmp_path / "cards.jsonl"
    assert invoke("export", card_run, "--match", "0", "--out", path).exit_code == 0
    report = replay_paths([path], "cards-tonpuusen")
    assert report.ok and report.hands == len(replay_match(card_run, 0).hands)
    assert len(report.skipped) == report.hands and report.skipped[0].what == CARD_GAME
    # a delta changed in the log breaks the chain
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"hora"' in line or '"ryukyoku"' in line)
    event = json.loads(lines[i])
    event["deltas"][0] += 1000
    lines[i] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n")
    assert not replay_paths([path], "cards-tonpuusen").ok


def test_card_game_log_is_checked_by_playing_its_match_again(card_run: Path,
                                                             tmp_path: Path) -> None:
    # rule C-02, C-03: the picks, every ability trigger, every action and delta must be what
    # the engine plays again from the log's seed and bots (saki replay with the run's preset)
    path = tmp_path / "cards.jsonl"
    assert invoke("export", card_run, "--match", "0", "--out", path).exit_code == 0
    hands = len(replay_match(card_run, 0).hands)
    result = invoke("replay", "--preset", "cards-tonpuusen", path)
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert f"{hands} hands ({hands} passed)" in last and last.endswith(" 0 mismatches")
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"saki_ability"' in line)
    event = json.loads(lines[i])
    event["text"] += " (edited)"
    lines[i] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n")
    result = invoke("replay", "--preset", "cards-tonpuusen", path)
    assert result.exit_code == 1 and "MISMATCH" in result.output and "(edited)" in result.output


def test_card_game_log_cut_mid_hand_is_incomplete_not_a_mismatch(card_run: Path,
                                                                  tmp_path: Path) -> None:
    # an interrupted write of our export: what the log holds agrees with the match played
    # again, so the hand it stops in is incomplete (before, MISMATCH)
    path = tmp_path / "cards.jsonl"
    assert invoke("export", card_run, "--match", "0", "--out", path).exit_code == 0
    lines = path.read_text().splitlines()
    second = [i for i, line in enumerate(lines) if '"start_kyoku"' in line][1]
    cut = next(i for i in range(second, len(lines)) if '"dahai"' in lines[i]) + 3
    path.write_text("\n".join(lines[:cut]) + "\n" + lines[cut][:15])
    result = invoke("replay", "--preset", "cards-tonpuusen", path)
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.output.splitlines()
            if line.startswith("INCOMPLETE")] == [f"INCOMPLETE {path}"]
    assert "MISMATCH" not in result.output
    assert result.output.strip().splitlines()[-1].startswith("1 files, 2 hands (1 passed, 1 "
                                                             "incomplete")


@pytest.fixture(scope="module")
def sanma_card_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    preset = load_preset("cards-sanma")
    config = RunConfig(preset=preset, catalog=load_catalog(preset.cards.catalog), seed=4,
                       games=1, bots=("heuristic",) * 4)  # a run names four; three play
    out = tmp_path_factory.mktemp("cards-sanma") / "run"
    simulate(config, out, workers=1)
    path = out.parent / "sanma-cards.jsonl"
    assert invoke("export", out, "--match", "0", "--out", path).exit_code == 0
    return path


def test_three_player_card_log_under_a_four_player_preset_exits_2_with_one_line(
        sanma_card_log: Path) -> None:
    # the log's player count decides its rules: before, every hand was SKIPPED and it exited 0
    result = invoke("replay", "--preset", "cards-hanchan", sanma_card_log)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and str(sanma_card_log) in lines[0]
    assert "three-player record" in lines[0] and "cards-hanchan is for four players" in lines[0]
    result = invoke("replay", "--preset", "cards-sanma", sanma_card_log)
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(" 0 mismatches")
    assert "SKIPPED" not in result.output
