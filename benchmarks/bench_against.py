"""This tree's play beside an older commit's, alternating in one run: the speed-up and the digests.

The machine this project is measured on is shared: the same command moves by 20% from run to
run, and by more from day to day, so a speed-up is only worth the side-by-side figure. This
script checks the older commit out once (a ``git worktree`` under ``build/against/``), builds
its compiled parts there with this Python (whatever that commit's ``setup.py`` builds), and
then, round after round, plays the same warm matches with each tree in a fresh process, the
older first in one round and this one first in the next. Each process plays them exactly as
``benchmarks/bench_bots.py`` does (its ``play``, with the older tree's ``pipeline`` package),
after one cold match.

Printed per preset: each tree's CPU seconds per round (the fastest and the median round), the
speed-up (older over this tree) by the fastest rounds and by the medians, and whether the log
digests agree (the same decisions). The fastest round is the steadier figure on a busy machine:
other work only ever adds time. The default older commit is the one before the compiled
modules and the kept state (``BEFORE_SPEED_WORK``), the baseline the README's speed targets
are counted from.

    python benchmarks/bench_against.py [--old 97bcf90] [--rounds 5] [--matches 15]
                                       [--preset cards-hanchan --preset online-hanchan]
                                       [--no-build] [--save]

Exit status 1 when the digests differ (the trees decide differently), 2 on bad input (an
unknown commit, a tree that cannot be checked out). With ``--save`` the
figures go to ``benchmarks/results/against.json`` for the README's table.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# the commit before the compiled engine, card and bot modules and the state kept between
# decisions: the baseline of the README's speed targets
BEFORE_SPEED_WORK = "97bcf90"
DEFAULT_PRESETS = ("cards-hanchan", "online-hanchan")
BUILT_MARK = ".bench-against-built"


class AgainstError(Exception):
    """Bad input: the message says what to fix."""


def _git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise AgainstError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def prepare(rev: str, where: Path, *, build: bool = True) -> tuple[Path, str]:
    """The older tree, checked out (once) under ``where``; built in place unless ``build`` is
    off or a build was tried before. Returns the tree and how it was built."""
    try:
        sha = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except AgainstError:
        raise AgainstError(f"--old {rev}: no such commit in {ROOT}; give a commit id or tag "
                           f"that `git log` shows") from None
    tree = where / sha[:12]
    if not (tree / "pipeline").is_dir():
        where.mkdir(parents=True, exist_ok=True)
        _git("worktree", "add", "--force", "--detach", str(tree), sha)
    mark = tree / BUILT_MARK
    if build and not mark.exists():
        print(f"building {sha[:12]}'s compiled parts in {tree} (a few minutes, once)", flush=True)
        done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                              cwd=tree, capture_output=True, text=True)
        mark.write_text("built\n" if done.returncode == 0 else "build failed\n")
    how = mark.read_text().strip() if mark.exists() else "not built"
    return tree, how


def play_tree(tree: Path, preset: str, matches: int, seed: int) -> dict[str, Any]:
    """One process playing ``matches`` warm matches with ``tree``'s package; its figures."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--play", str(tree),
                           preset, str(matches), str(seed)],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise AgainstError(f"{tree}: playing {preset} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _play_here(tree: Path, preset_name: str, matches: int, seed: int) -> None:
    """The child process: import ``pipeline`` from ``tree``, then time bench_bots' play."""
    import hashlib

    import benchmarks.results  # noqa: F401  (this tree's, which bench_bots imports)

    sys.path.insert(0, str(tree))
    import pipeline  # the tree's package: bench_bots' own imports then resolve inside it

    if not Path(pipeline.__file__).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"pipeline came from {pipeline.__file__}, not from {tree}")
    spec = importlib.util.spec_from_file_location("bench_bots", Path(__file__).with_name(
        "bench_bots.py"))
    assert spec is not None and spec.loader is not None
    bench = sys.modules["bench_bots"] = importlib.util.module_from_spec(spec)  # its dataclass
    spec.loader.exec_module(bench)
    from pipeline.bots.shanten import KERNEL
    from pipeline.rules.preset import load_preset

    try:
        from pipeline import _compiled
        compiled = len(_compiled.compiled_modules())
    except ImportError:  # a tree from before the compiled modules
        compiled = 0
    preset = load_preset(preset_name)
    bench.play(preset, "heuristic", seed, range(0, 1))  # cold memos and tables, not timed
    digest = hashlib.sha256()
    run, _ = bench.play(preset, "heuristic", seed, range(1, matches + 1), digest)
    print(json.dumps({"cpu_s": run.cpu, "wall_s": run.seconds, "hands": run.hands,
                      "decisions": run.decisions, "digest": digest.hexdigest()[:16],
                      "kernel": KERNEL is not None, "compiled_modules": compiled}))


def summarise(old: list[float], new: list[float]) -> dict[str, float]:
    """Fastest and median CPU seconds of each side, and the speed-ups (older over newer)."""
    if not old or not new:
        raise ValueError("summarise needs at least one round of each tree")
    fast_old, fast_new = min(old), min(new)
    med_old, med_new = statistics.median(old), statistics.median(new)
    return {"old_min_s": round(fast_old, 3), "new_min_s": round(fast_new, 3),
            "old_median_s": round(med_old, 3), "new_median_s": round(med_new, 3),
            "speedup_min": round(fast_old / fast_new, 2),
            "speedup_median": round(med_old / med_new, 2)}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--play"]:
        _play_here(Path(argv[1]), argv[2], int(argv[3]), int(argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=BEFORE_SPEED_WORK,
                        help=f"the older commit (default {BEFORE_SPEED_WORK}, before the speed "
                             "work)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of both trees per preset")
    parser.add_argument("--matches", type=int, default=15, help="warm matches per round")
    parser.add_argument("--preset", action="append", dest="presets",
                        help="a preset to play (repeat for more; default cards-hanchan and "
                             "online-hanchan)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-build", action="store_true",
                        help="time the older tree as checked out (its pure-Python code)")
    parser.add_argument("--worktrees", type=Path, default=ROOT / "build" / "against",
                        help="where the older tree is checked out")
    from benchmarks import results

    results.add_save_option(parser)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.matches < 1:
        parser.error("--rounds and --matches must be at least 1")
    presets = args.presets or list(DEFAULT_PRESETS)

    try:
        old_tree, how = prepare(args.old, args.worktrees, build=not args.no_build)
    except AgainstError as error:
        print(f"bench_against: {error}", file=sys.stderr)
        return 2
    here = results.commit()
    old_name, new_name = old_tree.name, here["commit"] + (" (changed)" if here["dirty"] else "")
    print(f"older tree {old_name} ({how}) against this tree {new_name}: "
          f"{args.rounds} rounds of {args.matches} warm matches, seed {args.seed}, alternating")
    figures: dict[str, Any] = {"old": old_name, "old_build": how, "rounds": args.rounds,
                               "matches": args.matches, "seed": args.seed, "presets": {}}
    same = True
    for preset in presets:
        runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
                try:
                    got = play_tree(old_tree if side == "old" else ROOT, preset, args.matches,
                                    args.seed)
                except AgainstError as error:
                    print(f"bench_against: {error}", file=sys.stderr)
                    return 2
                runs[side].append(got)
                print(f"  {preset} round {r + 1} {side}: CPU {got['cpu_s']:.2f} s, "
                      f"{got['hands'] / got['cpu_s']:.1f} hands per CPU second", flush=True)
        summary = summarise([g["cpu_s"] for g in runs["old"]], [g["cpu_s"] for g in runs["new"]])
        digests = {g["digest"] for g in runs["old"] + runs["new"]}
        agree = len(digests) == 1
        same = same and agree
        hands = runs["new"][0]["hands"]
        print(f"{preset}, {hands} hands a round:\n"
              f"  older {old_name}: fastest round {summary['old_min_s']:.2f} s, median "
              f"{summary['old_median_s']:.2f} s ({hands / summary['old_median_s']:.1f} hands "
              f"per CPU second)\n"
              f"  this  {new_name}: fastest round {summary['new_min_s']:.2f} s, median "
              f"{summary['new_median_s']:.2f} s ({hands / summary['new_median_s']:.1f} hands "
              f"per CPU second)\n"
              f"  speed-up {summary['speedup_min']:.2f}x by the fastest rounds, "
              f"{summary['speedup_median']:.2f}x by the medians; log digests "
              + (f"the same ({digests.pop()})" if agree else
                 "DIFFER: " + ", ".join(sorted(digests)) + " (the trees decide differently)"))
        figures["presets"][preset] = {**summary, "hands": hands, "digests_agree": agree,
                                      "digest": runs["new"][0]["digest"],
                                      "old_kernel": runs["old"][0]["kernel"],
                                      "new_compiled_modules": runs["new"][0]["compiled_modules"]}
    results.save_if(args.save, "against", figures)
    return 0 if same else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
