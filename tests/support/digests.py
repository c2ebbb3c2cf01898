"""Event-log digests of the benchmarks' plays and of a whole-deck run: the proof that a change
of the code's shape changed no behaviour.

Each entry plays what a benchmark plays (smaller, so the test stays quick) and hashes what it
leaves: every event of every hand (``repr``, as ``benchmarks/bench_bots.py`` prints its log
digest) with each hand's summary, or every row of a run's tables, or the pick estimates. The
whole-deck entries play every team mode with the whole deck of catalog 1.2 dealt by the real
card table, heuristic, random and eager players mixed (as
``tests/cards/general/test_deck_invariants.py`` does, without its checks), a handful of matches
each; together they play all 54 cards. A slow entry plays one trial round of every card.
``tests/sim/test_digests.py`` holds the digests recorded before the card layer was rebuilt.

Each digest hashes a text, one part a line (an event's ``repr``, a hand's summary, a table's
rows): the golden playthroughs, kept in ``tests/fixtures/golden/<entry>.txt`` beside the
digests, are those texts, so a digest that moves shows its first differing line and ``git
diff`` shows the rest. The fixtures are written only when asked:

    python -m tests.support.digests            # print every digest, as the test's table wants it
    python -m tests.support.digests --golden   # re-record every golden text (after a digest moved
                                       # on purpose and its entry was re-recorded)
"""

from __future__ import annotations

import hashlib
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import polars as pl

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.pick import card_value
from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import CardTable
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hooks import PickView
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord

MODES = {"standard": 4, "winner-rotation": 4, "tenpai-replacement": 4, "rapid": 2, "draft": 6}
DECK_MATCHES = 5   # hanchan matches per team mode
# characters the whole-deck entries picked or saw acting (a card flipped to its back acts
# without being picked); filled as they play
PLAYED: set[str] = set()


GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


def _hash(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\n")
    return digest.hexdigest()[:16]


def text_digest(text: str) -> str:
    """The digest of a golden text: the same as :func:`_hash` of its parts."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def records_parts(records: Iterable[HandRecord]) -> Iterable[str]:
    """Every event (its ``repr``) and the summary of every hand."""
    for rec in records:
        yield from (repr(e) for e in rec.events)
        yield rec.summary()


def records_digest(records: Iterable[HandRecord]) -> str:
    """Every event (its ``repr``) and the summary of every hand, hashed."""
    return _hash(records_parts(records))


def bots_parts(preset_name: str, bot: str, matches: int, seed: int = 1) -> list[str]:
    """``benchmarks/bench_bots.py``: matches of four bots of one kind, cards dealt by the card
    table when the preset plays cards."""
    from benchmarks.bench_bots import play

    _, records = play(load_preset(preset_name), bot, seed, range(matches))
    return list(records_parts(records))


def bots_matches(preset_name: str, bot: str, matches: int, seed: int = 1) -> str:
    """The digest of :func:`bots_parts`."""
    return _hash(bots_parts(preset_name, bot, matches, seed))


def mode_preset(folder: Path, mode: str, base: str = "cards-hanchan") -> Preset:
    path = folder / f"{base}-{mode}.toml"
    path.write_text(f'extends = "{base}"\nname = "{base}-{mode}"\n[cards]\n'
                    f'team_mode = "{mode}"\nteam_size = {MODES[mode]}\n')
    return load_preset(str(path))


def deck_records(mode: str, matches: int = DECK_MATCHES) -> list[HandRecord]:
    """The hands of the whole deck in one team mode: mixed players, ``matches`` matches."""
    from tests.support.rule_checks import EagerAgent

    players = (HeuristicBot, RandomAgent, EagerAgent, RandomAgent)
    catalog = load_catalog("1.2")
    records: list[HandRecord] = []
    with tempfile.TemporaryDirectory() as tmp:
        preset = mode_preset(Path(tmp), mode)
        for i in range(matches):
            agents = [kind(derive_seed("digest", i, s)) for s, kind in enumerate(players)]
            table = CardTable(preset, agents, seed=29, match_index=i, catalog=catalog)
            records.extend(play_match(preset, agents, 29, i, table=table).hands)
    return records


def whole_deck_parts(mode: str) -> list[str]:
    """The whole deck in one team mode: mixed players, every hand's events and summary."""
    records = deck_records(mode)
    PLAYED.update(p for rec in records for p in (rec.picks or ()) if p)
    PLAYED.update(e.card for rec in records for e in rec.events
                  if e.kind == "ability" and e.card)
    return list(records_parts(records))


def whole_deck(mode: str) -> str:
    """The digest of :func:`whole_deck_parts`."""
    return _hash(whole_deck_parts(mode))


def run_tables(*, paired: bool, games: int = 2) -> list[str]:
    """``benchmarks/bench_sim.py`` and ``bench_paired.py``: a simulated run of cards-hanchan
    (paired: every hand with a character replayed without its ability), every table's rows."""
    from pipeline.sim.run import RunConfig, load_table, parse_bots, simulate
    from pipeline.sim.tables import run_tables as tables_of

    preset = load_preset("cards-hanchan")
    config = RunConfig(preset=preset, catalog=load_catalog("1.2"), seed=1, games=games,
                       bots=parse_bots("heuristic"), shard_size=2, paired=paired)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        simulate(config, out, workers=1)
        # the run id hashes every preset option, so a new option (at a value that plays as
        # before) would move the digest without a change of play: it is masked
        return [f"{name}\n{load_table(out, name).rows()}".replace(config.run_id, "RUN")
                for name in sorted(tables_of(paired))]


def trial_tables(cards: tuple[str, ...] = ("nodoka_haramura", "teru_miyanaga",
                                           "awai_oohoshi"), whole: bool = False) -> str:
    """The digest of :func:`trial_parts`."""
    return _hash(trial_parts(cards, whole))


def trial_parts(cards: tuple[str, ...] = ("nodoka_haramura", "teru_miyanaga", "awai_oohoshi"),
                whole: bool = False) -> list[str]:
    """``benchmarks/bench_trials.py``: one trial round of a few cards (each card's holder plays
    it every hand, every hand replayed without it), the trial's value table: its paired
    columns, or with ``whole`` the columns of the matches played again without the ability."""
    from pipeline.analytics.trial import COLUMNS, PAIR_COLUMNS, WHOLE_COLUMNS, trial_table
    from pipeline.sim.executor import LocalExecutor
    from pipeline.sim.trial import TrialConfig, run_trial

    config = TrialConfig(preset=load_preset("cards-hanchan"), catalog=load_catalog("1.2"),
                         seed=1, cards=cards, target=1e9, budget_hands=1)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "trial"
        run_trial(config, out, executor=LocalExecutor(1))
        table = trial_table(out)
        if whole:
            return [repr(table.select("card", *WHOLE_COLUMNS).rows())]
        # the paired measurement's columns, in the order they were recorded in (the value
        # and its interval were the pairs' then)
        paired = table.with_columns(
            value=pl.col("pair_value"), value_lo=pl.col("pair_lo"), value_hi=pl.col("pair_hi"),
            value_se=pl.col("pair_se"), half_width=(pl.col("pair_hi") - pl.col("pair_lo")) / 2)
        columns = [c for c in COLUMNS if c not in (*WHOLE_COLUMNS, *PAIR_COLUMNS)]
        return [repr(paired.select(columns).rows())]


def pick_estimates(hands: int = 40) -> list[str]:
    """The bots' raw pick estimates (``saki bots fit-picks`` fits their offsets): every card's
    estimate over the same random starting hands in an even situation."""
    catalog = load_catalog("1.2")
    rng = random.Random(1)
    deals = [rng.sample(range(136), 13) for _ in range(hands)]
    view = PickView(seat=0, dealer=1, scores=(30000,) * 4, catalog=catalog)
    return [f"{card.id} {[repr(card_value(card, h, view)) for h in deals]}"
            for card in catalog.cards]


# What each entry plays, as the parts its digest hashes (one a line of its golden text).
PLAYS: dict[str, Callable[[], list[str]]] = {
    "bench_bots online-hanchan heuristic": lambda: bots_parts("online-hanchan", "heuristic", 2),
    "bench_bots cards-hanchan heuristic": lambda: bots_parts("cards-hanchan", "heuristic", 3),
    "bench_bots cards-hanchan greedy": lambda: bots_parts("cards-hanchan", "greedy", 2),
    "bench_bots cards-hanchan random": lambda: bots_parts("cards-hanchan", "random", 2),
    "bench_sim cards-hanchan": lambda: run_tables(paired=False),
    "bench_paired cards-hanchan": lambda: run_tables(paired=True),
    "bench_trials three cards": trial_parts,
    "bench_trials three cards, whole match": lambda: trial_parts(whole=True),
    "pick estimates": pick_estimates,
    **{f"whole deck {mode}": (lambda m=mode: whole_deck_parts(m)) for mode in MODES},
}
DIGESTS: dict[str, Callable[[], str]] = {
    name: (lambda play=play: _hash(play())) for name, play in PLAYS.items()}


def golden_text(parts: Iterable[str]) -> str:
    """The text a digest hashes: every part and a newline."""
    return "".join(f"{part}\n" for part in parts)


def golden_path(name: str) -> Path:
    """``tests/fixtures/golden/<entry's name, words joined by dashes>.txt``."""
    return GOLDEN / f"{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}.txt"


def first_difference(expected: Sequence[str], got: Sequence[str]) -> tuple[int, str, str]:
    """The first line (1-based) where two golden texts' lines differ, and both lines there
    ("<end>" past a text's last line)."""
    for i in range(max(len(expected), len(got))):
        want = expected[i] if i < len(expected) else "<end>"
        seen = got[i] if i < len(got) else "<end>"
        if want != seen:
            return i + 1, want, seen
    return 0, "", ""


def write_golden(names: Iterable[str] = ()) -> None:
    """Write the golden texts of ``names`` (every entry when empty)."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in names or PLAYS:
        text = golden_text(PLAYS[name]())
        golden_path(name).write_text(text)
        print(f"{golden_path(name).name}: {text.count(chr(10))} lines, digest "
              f"{text_digest(text)}", flush=True)


def main(argv: Sequence[str] = ()) -> None:
    if "--golden" in argv:
        write_golden()
        return
    for name, compute in DIGESTS.items():
        print(f'    "{name}": "{compute()}",', flush=True)
    print(f"# whole deck: never played: {sorted(never_played()) or 'none'}")
    print(f'    "bench_trials every card": "{trial_tables(every_card())}",  # slow')


def never_played() -> set[str]:
    """The catalog's characters the whole-deck entries have not played (yet)."""
    return {c.id for c in load_catalog("1.2").cards} - PLAYED


def every_card() -> tuple[str, ...]:
    """Every card a trial of cards-hanchan measures (the deck's, one by one)."""
    from pipeline.sim.trial import trial_deck

    return tuple(trial_deck(load_catalog("1.2"), load_preset("cards-hanchan")))


if __name__ == "__main__":
    main(sys.argv[1:])
