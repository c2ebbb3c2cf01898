"""Time the balance table on a large run: a synthetic run of 10 million hand rows.

The run is written shard by shard into a temporary folder (memory stays bounded by one shard)
with the schema and layout of a real run: 53 characters of catalog 1.2, teams of four, eight
hands per match, one character planted strong. Then three steps are timed separately:

- ``open``: :func:`pipeline.analytics.open_run`, which checks every file's sha256 against its
  manifest before creating the DuckDB views;
- ``table``: :func:`pipeline.analytics.character_table` by character (every metric, interval,
  test and flag of the contract);
- ``seats``: the same by seat.

    python benchmarks/bench_analytics.py [--rows 10000000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.analytics import character_table, open_run  # noqa: E402
from pipeline.analytics.synthetic import (  # noqa: E402
    SyntheticSpec,
    catalog_ids,
    write_synthetic_run,
)

HANDS_PER_MATCH = 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000, help="hand rows (seat-hands)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="write the run here and keep it (default: a temporary folder); "
                        "a run already there is timed again without being rewritten")
    results.add_save_option(parser)
    args = parser.parse_args()
    matches = max(1, args.rows // (4 * HANDS_PER_MATCH))
    ids = catalog_ids(53)
    spec = SyntheticSpec(matches=matches, characters=ids, team_size=4, seed=1, catalog="1.2",
                         win_weight={ids[0]: 1.3}, pick_weight={ids[0]: 2.0},
                         trigger_rate={ids[0]: 0.5}, seat_luck=0.3, shard_matches=25_000)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp) / "run"
        began = time.perf_counter()
        reuse = (out / "run.json").is_file()
        if not reuse:
            write_synthetic_run(out, spec)
        wrote = time.perf_counter() - began
        size = sum(p.stat().st_size for p in out.rglob("*.parquet"))
        done = "found" if reuse else f"wrote in {wrote:.1f} s:"
        print(f"{done} {matches * HANDS_PER_MATCH * 4:,} hand rows ({matches:,} matches, "
              f"{size / 2**20:,.0f} MiB of Parquet)")

        began, cpu = time.perf_counter(), time.process_time()
        run = open_run(out)
        opened = time.perf_counter() - began
        began = time.perf_counter()
        table = character_table(run)
        by_character = time.perf_counter() - began
        began = time.perf_counter()
        character_table(run, by="seat")
        by_seat = time.perf_counter() - began
        cpu = time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"open (sha256 of every file): {opened:.2f} s")
        print(f"per-character table ({table.height} groups): {by_character:.2f} s")
        print(f"per-seat table: {by_seat:.2f} s")
        print(f"processor time for the three steps (all threads): {cpu:.1f} s; "
              f"peak memory of this process: {peak:,.0f} MiB")
        top = table.row(0, named=True)
        results.save_if(args.save, "analytics", {
            "rows": matches * HANDS_PER_MATCH * 4, "matches": matches,
            "open_s": round(opened, 2), "character_s": round(by_character, 2),
            "seat_s": round(by_seat, 2), "cpu_s": round(cpu, 1),
            "peak_mib": round(peak)})
        print(f"strongest: {top['name']} swing {top['swing']:+.0f} "
              f"({top['swing_lo']:+.0f} to {top['swing_hi']:+.0f}), flag {top['flag']!r}")


if __name__ == "__main__":
    main()
