"""Tenhou three-player records, folders that mix four and three players, refused files, and the
all-last rule of older Tenhou games.

The records in ``tests/fixtures/records/sanma`` are real Tenhou houou sanma games (sources:
``tests/fixtures/records/README.md``); every action and payment of theirs must replay.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.replay.record import Call, RecordError, load_record, tenhou_log_date
from pipeline.replay.replayer import (
    preset_for,
    replay_game,
    replay_paths,
    tenhou_tenpai_yame,
)
from pipeline.replay.tenhou_json import parse_tenhou_json
from pipeline.replay.tenhou_xml import decode_meld
from pipeline.rules.agents import RandomAgent
from pipeline.rules.match import final_results, play_match
from pipeline.rules.preset import PresetError, load_preset, preset_from_dict
from pipeline.rules.scenario import play_scenario, scenario_start
from pipeline.sim.mjai import match_events
from tests.support.shared_data import FIXTURES

SANMA = FIXTURES / "records" / "sanma"
SANMA_FILES = sorted(SANMA.glob("*"))
FOUR_XML = sorted((FIXTURES / "validation" / "tenhou-xml").glob("*.xml"))
XML_3P = SANMA / "2014091101gm-00b9-0000-5ca6b487.xml"
JSON_3P = SANMA / "2025020508gm-00b9-0000-79ddbd9d.json"
DRAWS_3P = SANMA / "2025040519gm-00b9-0000-5f46d99c.json"


def run(*args: object):
    return CliRunner().invoke(cli.app, ["replay", *map(str, args)])


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


# --------------------------------------------------------------------------- real sanma games


@pytest.mark.parametrize("path", SANMA_FILES, ids=lambda p: p.name)
def test_tenhou_three_player_record_replays_without_mismatch(path: Path) -> None:
    # rules S-01..S-10: 108 tiles, no chi, kita and nukidora, 1m-9m indicators, tsumo loss,
    # noten payments, three hands a wind, tobi, every one met in real play
    report = replay_paths([path])
    assert report.ok, "\n".join(map(str, report.mismatches)) + "\n".join(report.refused)
    assert report.passed == report.hands > 0 and report.actions > 100
    assert load_record(path).seats == 3


HANDS = json.loads((FIXTURES / "records" / "sanma-hands.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(HANDS["hands"]))
def test_single_real_sanma_hands_replay_without_mismatch(name: str) -> None:
    # hands that another converter's ordering got wrong (a pon across a kita, a riichi set-up,
    # an added kan): the order here is searched, so each must replay clean (S-02, S-03)
    doc = {"log": [HANDS["hands"][name]], "name": ["A", "B", "C", ""],
           "rule": {"disp": "三鳳南喰赤", "aka51": 1, "aka52": 1, "aka53": 1}}
    report = replay_game(parse_tenhou_json(json.dumps(doc), f"{name}.json"),
                         load_preset("tenhou-sanma"))
    assert report.ok and report.passed == 1 and report.actions > 15, report.mismatches


def test_the_sanma_records_hold_the_three_player_cases() -> None:
    games = [load_record(p) for p in SANMA_FILES]
    assert {p.suffix for p in SANMA_FILES} == {".xml", ".json"}
    hands = [h for g in games for h in g.hands]
    assert all(len(h.hands) == 3 and len(h.scores) == 3 for h in hands)
    kitas = [e for h in hands for e in h.events if isinstance(e, Call) and e.kind == "kita"]
    assert len(kitas) == 110 and all(e.tiles[0] // 4 == 30 for e in kitas)  # rule S-03
    assert not any(isinstance(e, Call) and e.kind == "chi" for h in hands for e in h.events)
    kinds = {e.kind for h in hands for e in h.events if isinstance(e, Call)}
    assert {"pon", "minkan", "ankan"} <= kinds
    # a ron on a North just set aside (S-03: no chankan)
    last = load_record(JSON_3P).hands[-1]
    assert isinstance(last.events[-1], Call) and last.events[-1].kind == "kita"
    assert not last.wins[0].tsumo and last.wins[0].from_seat == last.events[-1].seat
    # a rinshan win on the replacement after a kita (S-03), tsumos paid by two (S-06)
    assert any(dict(w.yaku).get("嶺上開花") for h in hands for w in h.wins)
    tsumos = [w for h in hands for w in h.wins if w.tsumo]
    assert tsumos and all(sum(1 for d in w.deltas if d < 0) == 2 for w in tsumos)
    # exhaustive draws with one and with two players tenpai (S-07)
    tenpai = {len(h.draw.tenpai) for h in hands if h.draw and h.draw.kind == "exhaustive"}
    assert {1, 2} <= tenpai
    # a match ended by a score below 0, South 1 (S-10 with tobi)
    assert min(load_record(DRAWS_3P).final_scores) < 0


def test_s07_tenhou_sanma_noten_payment_is_1000_from_each_noten_to_each_tenpai() -> None:
    # sanma-hanchan's 3,000 on the table disagrees with every exhaustive draw of the records
    sanma = replay_paths([XML_3P, DRAWS_3P], "sanma-hanchan")
    draws = {h.label for p in (XML_3P, DRAWS_3P) for h in load_record(p).hands
             if h.draw and h.draw.kind == "exhaustive" and h.draw.tenpai}
    assert sanma.mismatches and draws
    assert all("deltas" in m.what or "next hand" in m.what for m in sanma.mismatches)
    assert replay_paths([XML_3P, DRAWS_3P], "tenhou-sanma").ok
    assert load_preset("tenhou-sanma").noten_payment == 2000


@pytest.mark.parametrize("path", [p for p in SANMA_FILES if p.suffix == ".json"],
                         ids=lambda p: p.name)
def test_s10_tenhou_sanma_results_have_uma_20(path: Path) -> None:
    # the 2025 records print unrounded results: (score - 40,000) / 1,000 + uma, oka to first
    game = load_record(path)
    results = final_results(list(game.final_scores), load_preset("tenhou-sanma"))
    assert results == list(game.final_results)


def test_xml_kita_code_decodes_to_the_north_set_aside() -> None:
    # rule S-03: bit 0x20 of a call code is a kita, the tile id in the high byte
    assert decode_meld(0, 31264) == Call(0, "kita", (122,), 122, None)
    with pytest.raises(ValueError, match="not a North"):
        decode_meld(0, (40 << 8) | 0x20)


def test_json_kita_entry_must_set_aside_a_north() -> None:
    text = JSON_3P.read_text(encoding="utf-8")
    with pytest.raises(RecordError, match=r"f45.*North"):
        parse_tenhou_json(text.replace('"f44"', '"f45"', 1), "bad.json")


def test_json_three_player_rule_with_four_hands_is_refused() -> None:
    src = (FIXTURES / "validation" / "tenhou-json" / "2019021004gm-00a9-0000-e2f6516d.json")
    doc = json.loads(src.read_text(encoding="utf-8"))
    doc["rule"] = {"disp": "三鳳南喰赤", "aka": 1}
    with pytest.raises(RecordError, match="three-player one but the hands deal four"):
        parse_tenhou_json(json.dumps(doc), "mixed.json")


def test_json_three_player_record_with_three_scores_reads_the_same() -> None:
    # some converters write three scores and deltas where Tenhou writes a fourth 0
    doc = json.loads(DRAWS_3P.read_text(encoding="utf-8"))
    for entry in doc["log"]:
        entry[1], entry[16][1] = entry[1][:3], entry[16][1][:3]
    doc["sc"], doc["name"] = doc["sc"][:6], doc["name"][:3]
    three = parse_tenhou_json(json.dumps(doc), "three.json")
    four = load_record(DRAWS_3P)
    assert three.hands == four.hands
    assert (three.final_scores, three.players) == (four.final_scores, four.players)


def test_json_three_player_record_paying_the_empty_seat_is_refused() -> None:
    doc = json.loads(JSON_3P.read_text(encoding="utf-8"))
    doc["log"][0][16][1][3] = 1000
    with pytest.raises(RecordError, match="empty fourth seat"):
        parse_tenhou_json(json.dumps(doc), "bad.json")


# --------------------------------------------------------------------------- mixed folders


def test_a_mixed_folder_replays_each_record_under_its_own_rules(tmp_path: Path) -> None:
    for path in [*SANMA_FILES, *FOUR_XML]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    result = run(tmp_path)
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith(f"{len(SANMA_FILES) + len(FOUR_XML)} files") and "refused" not in last
    assert last.endswith(" 0 mismatches")


def test_a_refused_file_is_named_and_the_others_still_replay(tmp_path: Path) -> None:
    for path in [XML_3P, *FOUR_XML]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "a_broken.xml").write_text("<mjloggm ver=\"2.3\"><GO type=\"169\"")
    result = run(tmp_path)
    assert result.exit_code == 2, result.output  # refused, nothing mismatched
    lines = result.output.strip().splitlines()
    refused = [line for line in lines if line.startswith("REFUSED ")]
    assert len(refused) == 1
    assert refused[0].startswith(f"REFUSED {tmp_path / 'a_broken.xml'}: not well-formed XML")
    assert lines[-1].startswith(f"{1 + len(FOUR_XML)} files")
    assert lines[-1].endswith("0 mismatches, 1 file refused")


def test_a_preset_of_the_other_count_refuses_those_files_only(tmp_path: Path) -> None:
    for path in [XML_3P, JSON_3P, *FOUR_XML]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    result = run("--preset", "online-hanchan", tmp_path)
    assert result.exit_code == 2, result.output
    refused = [line for line in result.output.splitlines() if line.startswith("REFUSED ")]
    assert len(refused) == 2 and all("three-player record" in line for line in refused)
    assert result.output.strip().splitlines()[-1].startswith(f"{len(FOUR_XML)} files")


def test_a_mismatch_and_a_refusal_exit_1(tmp_path: Path) -> None:
    src = FOUR_XML[0].read_text()
    start = src.index('<AGARI')
    ten = src.index('ten="', start) + len('ten="')
    end = src.index('"', ten)
    fu, points, limit = src[ten:end].split(",")
    (tmp_path / "tampered.xml").write_text(src[:ten] + f"{fu},{int(points) + 1000},{limit}"
                                           + src[end:])
    (tmp_path / "broken.json").write_text("{")
    result = run(tmp_path)
    assert result.exit_code == 1
    assert "MISMATCH" in result.output and "REFUSED" in result.output


# --------------------------------------------------------------------------- player counts


def _sanma_mjai(tmp_path: Path) -> Path:
    preset = load_preset("sanma-tonpuusen")
    agents = [RandomAgent(seed) for seed in range(3)]
    result = play_match(preset, agents, 5, 0)
    path = tmp_path / "sanma.jsonl"
    events = match_events(result, names=["random"] * 3, seed=[5, 0], preset=preset)
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def test_three_player_records_under_a_four_player_preset_exit_2_with_one_line(
        tmp_path: Path) -> None:
    # the player count of a record decides its rules; before, this crashed ("a wall of 108
    # tiles cannot deal 4 players", exit 1)
    for path in (XML_3P, JSON_3P, _sanma_mjai(tmp_path)):
        line = one_line_error(run("--preset", "online-hanchan", path))
        assert str(path) in line and "three-player record" in line
        assert "online-hanchan is for four players" in line and "leave --preset out" in line


def test_a_three_player_mjai_log_replays_under_its_preset(tmp_path: Path) -> None:
    path = _sanma_mjai(tmp_path)
    result = run("--preset", "sanma-tonpuusen", path)
    assert result.exit_code == 0, result.output
    assert "0 mismatches" in result.output


def test_a_three_player_mjai_log_may_name_its_norths_nukidora(tmp_path: Path) -> None:
    # Mortal's three-player converter writes nukidora where riichienv writes kita (S-03)
    path = _sanma_mjai(tmp_path)
    text = path.read_text()
    assert '"kita"' in text
    renamed = tmp_path / "nukidora.jsonl"
    renamed.write_text(text.replace('"type": "kita"', '"type": "nukidora"'))
    assert load_record(renamed).hands == load_record(path).hands
    assert replay_paths([renamed], "sanma-tonpuusen").ok


def test_four_player_record_under_a_three_player_preset_exits_2(tmp_path: Path) -> None:
    line = one_line_error(run("--preset", "sanma-hanchan", FOUR_XML[0]))
    assert "four-player record" in line and "sanma-hanchan is for three players" in line


# --------------------------------------------------------------------------- cut records


def test_xml_cut_inside_a_tag_after_a_hand_is_incomplete_not_passed(tmp_path: Path) -> None:
    src = FOUR_XML[0].read_text()
    second = src.index("<INIT", src.index("<INIT") + 1)
    path = tmp_path / "cut.xml"
    path.write_text(src[:second + 12])  # inside the second hand's INIT tag
    report = replay_paths([path])
    assert report.passed == 0 and len(report.incomplete) == 1 and report.hands == 1
    assert "cut off after this hand" in report.incomplete[0].what
    line = one_line_error(run("--strict", path))
    assert "cut.xml" in line and "cut off before the end of the match" in line


def test_xml_cut_in_its_closing_tag_is_complete(tmp_path: Path) -> None:
    src = FOUR_XML[0].read_text()
    path = tmp_path / "cut.xml"
    path.write_text(src[:src.rindex("</mjloggm>") + 5])
    report = replay_paths([path], strict=True)
    assert report.ok and not report.incomplete and report.passed == report.hands


def test_mjai_log_cut_mid_line_after_a_hand_is_incomplete(tmp_path: Path) -> None:
    path = _sanma_mjai(tmp_path)
    lines = path.read_text().splitlines()
    end = next(i for i, line in enumerate(lines) if '"end_kyoku"' in line)
    path.write_text("\n".join(lines[:end + 1]) + "\n" + lines[end + 1][:10])
    report = replay_paths([path], "sanma-tonpuusen")
    assert report.passed == 0 and len(report.incomplete) == 1 and not report.mismatches


# --------------------------------------------------------------------------- all-last rule


def test_tenhou_log_ids_give_the_day_played() -> None:
    assert tenhou_log_date("2009082014gm-00a9-0000-abcdef01") == date(2009, 8, 20)
    assert tenhou_log_date("logs/2014091101gm-00b9-0000-5ca6b487.xml") == date(2014, 9, 11)
    assert tenhou_log_date("edge_chankan.json") is None
    assert tenhou_log_date("2009133014gm-00a9-0000-abcdef01") is None


def test_m06_tenhou_ended_on_the_last_dealers_tenpai_from_june_2010() -> None:
    # Tenhou's blog, 2010-05-18: "2010年6月から「ラス親トップの自動聴牌止め」を導入します"
    assert tenhou_tenpai_yame(date(2009, 8, 20)) is False
    assert tenhou_tenpai_yame(date(2010, 5, 31)) is False
    assert tenhou_tenpai_yame(date(2010, 6, 15)) is None  # the day is not known
    assert tenhou_tenpai_yame(date(2010, 7, 1)) is True
    assert tenhou_tenpai_yame(date(2025, 2, 15)) is True


def test_the_replay_takes_the_all_last_rule_from_the_record_or_the_preset() -> None:
    game = load_record(FOUR_XML[0])
    online = load_preset("online-hanchan")
    assert preset_for(game, online).tenpai_yame is True
    old = replace(game, rules={**game.rules, "date": date(2009, 8, 20)})
    assert preset_for(old, online).tenpai_yame is False
    june = replace(game, rules={**game.rules, "date": date(2010, 6, 10)})
    assert preset_for(june, replace(online, tenpai_yame=False)).tenpai_yame is False
    assert preset_for(june, online).tenpai_yame is True
    assert all(load_preset(n).tenpai_yame for n in ("online-hanchan", "online-tonpuusen",
                                                    "tenhou-sanma", "riichienv"))


def test_tenpai_yame_is_a_checked_preset_option() -> None:
    with pytest.raises(PresetError, match="key 'tenpai_yame': expected true or false"):
        preset_from_dict({"extends": "online-hanchan", "tenpai_yame": "no"}, "x.toml")
    assert "tenpai_yame" in CliRunner().invoke(cli.app, ["presets", "show",
                                                         "online-hanchan"]).output


def _all_last_record(path: Path) -> Path:
    """An mjlog of South 4 under the older rule, built by the engine from exact hands (no public
    2009 record with this case was found): the dealer, first with 40,000, is tenpai at an
    exhaustive draw and keeps the deal; the next hand all are noten and the match ends."""
    preset = replace(load_preset("online-hanchan"), tenpai_yame=False)
    others = ["3579m3579p3579s7z", "2468m2468p2468s5z", "2468m2468p2468s6z"]
    tenpai, start = play_scenario(scenario_start(
        [*others, "123m456p789s1122z"], dealer=3, round_wind=1,
        scores=(20000, 20000, 20000, 40000)), preset)[0], (20000, 20000, 20000, 40000)
    assert tenpai.draw_kind == "exhaustive" and tenpai.dealer_continues
    middle = tuple(s.end_score for s in tenpai.seats)
    noten = play_scenario(scenario_start(
        [*others, "1357m1357p1357s1z"], dealer=3, round_wind=1, honba=1, scores=middle),
        preset)[0]
    assert noten.draw_kind == "exhaustive" and not noten.dealer_continues
    parts = ['<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/>',
             '<TAIKYOKU oya="0"/>']
    for rec, scores, last in ((tenpai, start, False), (noten, middle, True)):
        deal = {e.seat: e.tiles for e in rec.events if e.kind == "deal"}
        dora = next(e.tile for e in rec.events if e.kind == "dora")
        hai = " ".join(f'hai{s}="{",".join(map(str, deal[s]))}"' for s in range(4))
        parts.append(f'<INIT seed="7,{rec.honba},0,0,0,{dora}" '
                     f'ten="{",".join(str(v // 100) for v in scores)}" oya="3" {hai}/>')
        for e in rec.events:
            if e.kind == "draw":
                parts.append(f"<{'TUVW'[e.seat]}{e.tile}/>")
            elif e.kind == "discard":
                parts.append(f"<{'DEFG'[e.seat]}{e.tile}/>")
        sc = ",".join(f"{s.end_score // 100 - s.delta // 100},{s.delta // 100}"
                      for s in rec.seats)
        shown = " ".join(f'hai{s.seat}="{",".join(map(str, deal[s.seat]))}"'
                         for s in rec.seats if s.delta > 0)
        ends = [s.end_score for s in rec.seats]
        owari = (' owari="' + ",".join(f"{v // 100},{r}" for v, r in
                                       zip(ends, final_results(ends, preset), strict=True))
                 + '"') if last else ""
        parts.append(f'<RYUUKYOKU ba="{rec.honba},0" sc="{sc}" {shown}{owari}/>')
    path.write_text("".join(parts) + "</mjloggm>")
    return path


def test_a_2009_record_with_the_last_dealer_tenpai_at_a_draw_replays_clean(
        tmp_path: Path) -> None:
    # rule M-06: under Tenhou's rule of its day (from the log id), the match goes on
    old = _all_last_record(tmp_path / "2009082014gm-00a9-0000-00000000.xml")
    report = replay_paths([old])
    assert report.ok and report.passed == report.hands == 2
    # the same play dated after June 2010 contradicts the rule of its day
    new = tmp_path / "2019082014gm-00a9-0000-00000000.xml"
    new.write_bytes(old.read_bytes())
    report = replay_paths([new])
    assert [m.what for m in report.mismatches] == ["engine ended the match, record goes on"]
    # without a date the preset decides
    plain = tmp_path / "game.xml"
    plain.write_bytes(old.read_bytes())
    assert not replay_paths([plain]).ok
    older = tmp_path / "older.toml"
    older.write_text('extends = "online-hanchan"\ntenpai_yame = false\n')
    assert replay_paths([plain], str(older)).ok
