"""Time the replayer: hands per second for Tenhou XML, Tenhou JSON and mjai records.

Each format is timed over its files read into memory (so disk speed is not measured), parsed
and replayed through the engine with every check (`replay_game`, as `saki replay` does),
``--repeat`` times; parsing and replaying are also timed apart. The Tenhou records are the
validation games in ``../shared/validation`` (``--tenhou DIR`` to point elsewhere; skipped with a
message where absent). The mjai logs are riichienv's own games (``--mjai-games`` hanchan from
seeded agents, as the referee tests play them; skipped with a message where riichienv is not
installed) and the same number of our own matches exported as mjai. Every replay must show zero
mismatches, or the script says so and exits 1. Rates are per CPU second of this process.

    python benchmarks/bench_replay.py [--repeat 3] [--mjai-games 20] [--tenhou DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.bots.registry import make_agent  # noqa: E402
from pipeline.replay.mjai_log import parse_mjai  # noqa: E402
from pipeline.replay.record import RecordedGame  # noqa: E402
from pipeline.replay.replayer import ReplayReport, replay_game  # noqa: E402
from pipeline.replay.tenhou_json import parse_tenhou_json  # noqa: E402
from pipeline.replay.tenhou_xml import parse_tenhou_xml  # noqa: E402
from pipeline.rules.match import derive_seed, play_match  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.mjai import match_events, to_jsonl  # noqa: E402
from pipeline.sim.referee import riichienv_games, riichienv_missing  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
Parser = Callable[[bytes, str], RecordedGame]


FIGURES: dict[str, dict[str, float]] = {}


def bench(name: str, files: list[tuple[str, bytes]], parse: Parser, preset_name: str,
          repeat: int) -> bool:
    """Parse and replay ``files`` ``repeat`` times; print one line (its figures kept in
    ``FIGURES``); True when all passed."""
    preset = load_preset(preset_name)
    parse_cpu = replay_cpu = 0.0
    report = ReplayReport()
    for _ in range(repeat):
        report = ReplayReport()
        t0 = time.process_time()
        games = [parse(data, source) for source, data in files]
        t1 = time.process_time()
        for game in games:
            report.merge(replay_game(game, preset))
        t2 = time.process_time()
        parse_cpu += t1 - t0
        replay_cpu += t2 - t1
    hands = report.hands * repeat
    total = parse_cpu + replay_cpu
    print(f"{name:<17} {len(files):>4} files {report.hands:>6} hands {report.actions:>8} actions"
          f"  {hands / total:>7.1f} hands/s  (parse {hands / parse_cpu:>8.1f}, replay "
          f"{hands / replay_cpu:>6.1f} hands/s; {report.actions * repeat / total:>8.0f} "
          f"actions/s)  {len(report.mismatches)} mismatches")
    FIGURES[name] = {"files": len(files), "hands": report.hands,
                     "hands_per_cpu_s": round(hands / total, 1),
                     "parse_per_cpu_s": round(hands / parse_cpu, 1),
                     "replay_per_cpu_s": round(hands / replay_cpu, 1),
                     "mismatches": len(report.mismatches)}
    for m in report.mismatches[:5]:
        print(f"  MISMATCH {m}")
    return report.ok


def _read(folder: Path, suffix: str) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(folder.glob(f"*{suffix}"))]


def _own_mjai(count: int) -> list[tuple[str, bytes]]:
    preset = load_preset("online-hanchan")
    out = []
    for m in range(count):
        agents = [make_agent("heuristic", derive_seed(3, m, s)) for s in range(4)]
        result = play_match(preset, agents, 3, m)
        text = to_jsonl(match_events(result, names="abcd", seed=[3, m], preset=preset))
        out.append((f"own{m}.jsonl", text.encode()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="passes over each set of files")
    parser.add_argument("--mjai-games", type=int, default=20,
                        help="riichienv hanchan and our own hanchan written as mjai")
    parser.add_argument("--tenhou", type=Path, default=ROOT.parent / "shared" / "validation",
                        help="folder with tenhou-xml/ and tenhou-json/ records")
    results.add_save_option(parser)
    args = parser.parse_args()
    ok = True
    if (args.tenhou / "tenhou-xml").is_dir():
        ok &= bench("Tenhou XML", _read(args.tenhou / "tenhou-xml", ".xml"), parse_tenhou_xml,
                    "online-hanchan", args.repeat)
        ok &= bench("Tenhou JSON", _read(args.tenhou / "tenhou-json", ".json"),
                    parse_tenhou_json, "online-hanchan", args.repeat)
    else:
        print(f"Tenhou records not found in {args.tenhou}: XML and JSON skipped")
    missing = riichienv_missing()
    if missing is None:
        games = riichienv_games(args.mjai_games, seed=11)
        files = [(f"riichienv{i}.jsonl", to_jsonl(g).encode()) for i, g in enumerate(games)]
        ok &= bench("mjai (riichienv)", files, parse_mjai, "riichienv", args.repeat)
    else:
        print(f"mjai from riichienv skipped: {missing}")
    ok &= bench("mjai (ours)", _own_mjai(args.mjai_games), parse_mjai, "online-hanchan",
                args.repeat)
    results.save_if(args.save, "replay", {"repeat": args.repeat, "sets": FIGURES, "ok": ok})
    if not ok:
        print("some replays did not match: the figures above are not valid")
        sys.exit(1)


if __name__ == "__main__":
    main()
