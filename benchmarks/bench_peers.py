"""Our engine's speed beside riichienv's: hands per CPU second for the same number of hanchan.

Four players are timed, each over ``--matches`` hanchan, round by round in turn (one hanchan of
each, then the next), so a change in the shared machine's speed touches all of them alike:

- ``riichienv``: riichienv's Rust engine (Tenhou rules) with a shanten-greedy Python agent per
  seat: it wins whenever it may, declares riichi whenever offered, never calls, and otherwise
  discards the tile that leaves the lowest shanten (our shanten function, the compiled kernel
  where it is built, so the agent is as cheap as a Python agent can be);
- ``greedy``: our engine with four greedy bots (lowest shanten, then widest acceptance);
- ``heuristic``: our engine with four heuristic bots (online-hanchan);
- ``cards``: four heuristic bots on cards-hanchan (teams, picks and abilities).

Each figure is hands per CPU second of this process (CPU time, not wall time: other work on the
machine does not count against it), and its ratio to riichienv's.

    python benchmarks/bench_peers.py [--matches 10] [--seed 1] [--save]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import results  # noqa: E402
from pipeline.bots.registry import make_agent  # noqa: E402
from pipeline.bots.shanten import KERNEL, discard_shanten  # noqa: E402
from pipeline.cards.catalog import load_catalog  # noqa: E402
from pipeline.cards.table import CardTable  # noqa: E402
from pipeline.rules.match import derive_seed, play_match  # noqa: E402
from pipeline.rules.preset import load_preset  # noqa: E402
from pipeline.sim.referee import riichienv_missing  # noqa: E402
from pipeline.workers import settle_long_lived  # noqa: E402


class GreedyRiichienvAgent:
    """Wins when it may, riichis when it may, never calls, discards for the lowest shanten."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        from riichienv import ActionType
        self.T = ActionType

    def act(self, obs: Any) -> Any:
        T = self.T
        legal = obs.legal_actions()
        discards = []
        passes = None
        for a in legal:
            kind = a.action_type
            if kind in (T.TSUMO, T.RON, T.RIICHI):
                return a
            if kind == T.DISCARD:
                discards.append(a)
            elif kind == T.PASS:
                passes = a
        if not discards:
            return passes if passes is not None else legal[0]
        hand = list(obs.hand)
        counts = [0] * 34
        for t in hand:
            counts[t // 4] += 1
        melds = (14 - len(hand)) // 3
        after = discard_shanten(counts, melds) if len(hand) % 3 == 2 else {}
        return min(discards, key=lambda a: (after.get(a.tile // 4, 9), self.rng.random()))


def riichienv_hanchan(seed: int) -> int:
    """One riichienv hanchan between four greedy agents; returns the hands it dealt."""
    from riichienv import GameRule, RiichiEnv

    env = RiichiEnv(game_mode=2, seed=seed, rule=GameRule.default_tenhou())
    agents = [GreedyRiichienvAgent(seed * 4 + s) for s in range(4)]
    obs = env.reset()
    steps = 0
    while not env.done():
        actions = {pid: agents[pid].act(o) for pid, o in obs.items() if o.legal_actions()}
        obs = env.step(actions)
        steps += 1
        if steps > 20000:
            raise RuntimeError(f"riichienv game {seed} did not end")
    return sum(1 for e in env.mjai_log if e.get("type") == "start_kyoku")


def ours(preset_name: str, bot: str) -> Callable[[int, int], int]:
    """A player of one of our matches (match ``i`` of seed ``seed``); returns its hands."""
    preset = load_preset(preset_name)
    catalog = load_catalog(preset.cards.catalog) if preset.cards.enabled else None

    def one(seed: int, i: int) -> int:
        agents = [make_agent(bot, derive_seed(seed, i, "agent", s)) for s in range(4)]
        table = CardTable(preset, agents, seed, i, catalog) if preset.cards.enabled else None
        return len(play_match(preset, agents, seed, i, table=table).hands)
    return one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10, help="hanchan per player")
    parser.add_argument("--seed", type=int, default=1)
    results.add_save_option(parser)
    args = parser.parse_args()
    missing = riichienv_missing()
    if missing:
        sys.exit(missing)

    players: dict[str, Callable[[int, int], int]] = {
        "riichienv": lambda seed, i: riichienv_hanchan(seed * 100003 + i),
        "greedy": ours("online-hanchan", "greedy"),
        "heuristic": ours("online-hanchan", "heuristic"),
        "cards": ours("cards-hanchan", "heuristic"),
    }
    labels = {"riichienv": "riichienv (Rust) + shanten-greedy Python agent",
              "greedy": "ours, greedy bots, online-hanchan",
              "heuristic": "ours, heuristic bots, online-hanchan",
              "cards": "ours, heuristic bots, cards-hanchan"}
    print(f"{args.matches} hanchan per player, seed {args.seed}, shanten "
          f"{'compiled kernel' if KERNEL else 'pure Python'}, Python {sys.version.split()[0]}")
    for play in players.values():  # warm: memos, tables and catalogs read, imports done
        play(args.seed, 10_000)
    # the process then settles as a simulator's worker does before its shards (the young
    # generation collected less often, what the warm process holds frozen): for every player
    # alike, since they share the process
    settle_long_lived()
    settle_long_lived()
    hands = dict.fromkeys(players, 0)
    cpu = dict.fromkeys(players, 0.0)
    for i in range(args.matches):
        for name, play in players.items():
            start = time.process_time()
            hands[name] += play(args.seed, i)
            cpu[name] += time.process_time() - start
    base = hands["riichienv"] / cpu["riichienv"]
    figures: dict[str, Any] = {"matches": args.matches, "seed": args.seed,
                               "kernel": bool(KERNEL)}
    for name in players:
        rate = hands[name] / cpu[name]
        print(f"{labels[name]:<48} {hands[name]:>5} hands in {cpu[name]:6.2f} CPU s: "
              f"{rate:6.1f} hands per CPU second, {rate / base:4.2f}x riichienv")
        figures[name] = {"hands": hands[name], "cpu_s": round(cpu[name], 3),
                         "hands_per_cpu_s": round(rate, 1), "ratio": round(rate / base, 3)}
    results.save_if(args.save, "peers", figures)


if __name__ == "__main__":
    main()
