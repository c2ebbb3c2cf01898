"""Team trials: what holding a card is worth to a team of the preset's own mode.

A card trial (:mod:`pipeline.sim.trial`) plays the card on every hand and measures its ability
against no ability. The game the designers balance is played with a team: four cards, one
picked after the deal (C-02, C-03). A team trial measures the card as one of four: in match
``i`` the seat ``i % 4`` is dealt an ordinary team with the card placed in it
(:func:`pipeline.cards.placement.place_card`), and every hand its bot picks the card is played
again from the same deal with its next choice (:class:`pipeline.sim.team_pair.TeamPairTable`).
Per hand of the holder the ``team_pairs`` table holds the card's gain over that choice (0 on the
hands it was not picked); the card's **team value** is the mean over all the holder's hands,
clustered by match, which is the pick share times the gain when picked.

The machinery is the card trial's: the same seeds (match ``i`` of every card is dealt alike),
blocks of one match per seat, one shard per block and card written with a manifest, rounds
that add blocks until every interval's half-width is at most the target or the budget is
spent, reading only the rounds before them, so the tables are a function of the configuration
whatever the number of workers or the executor (local or Dask), and a killed trial resumes.
The folder has the card trial's layout and record (``trial.json``, whose ``kind`` is
``team``); its shards hold the ``team_pairs`` table only.
"""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import ClassVar

import polars as pl

import pipeline
from pipeline.bots.registry import make_agent
from pipeline.cards.placement import PLACEABLE_MODES
from pipeline.cards.table import CardTable
from pipeline.cards.teams import cards_needed
from pipeline.rules.match import derive_seed, play_match
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandRecord
from pipeline.sim import SimError
from pipeline.sim.executor import DaskExecutor, LocalExecutor, with_own_pool
from pipeline.sim.output_lock import OutputLock
from pipeline.sim.run import (
    MANIFEST_DIR,
    RUNS_DIR,
    ShardOutput,
    _canonical,
    _catalog,
    _peak_rss_kb,
    load_shards,
    shard_name,
)
from pipeline.sim.tables import SCHEMA_VERSION
from pipeline.sim.team_pair import TeamPair, TeamPairTable
from pipeline.sim.trial import (
    FIRST_BLOCKS,
    MAX_ROUNDS,
    CardProgress,
    TrialConfig,
    TrialRound,
    TrialSummary,
    _check_strangers,
    _play,
    _prepare,
    _write_doc,
    card_folder,
    measure,
    plan_round,
    trial_deck,
)
from pipeline.workers import settle_long_lived

TEAM_PAIRS = "team_pairs"
KIND = "team"

_STR, _I8, _I16, _I32 = pl.String, pl.Int8, pl.Int16, pl.Int32
TEAM_PAIRS_SCHEMA: dict[str, pl.DataType] = {
    "run_id": _STR,
    "match_id": _I32,
    "hand_index": _I16,
    "seat": _I8,
    "bot": _STR,
    "card": _STR,
    "held": pl.Boolean,          # the card was among the seat's options
    "picked": _STR,              # the seat's pick in the real hand
    "picked_card": pl.Boolean,   # ... and it was the card
    "alternative": _STR,         # the replay's pick: the bot's next choice (null: no replay)
    "is_dealer": pl.Boolean,
    "start_score": _I32,
    "delta_with": _I32,          # the seat's points in the real hand
    "delta_other": _I32,         # ... with the other pick (= delta_with without a replay)
    "delta_diff": _I32,
    "outcome_with": _STR,
    "outcome_other": _STR,
    "sticks_end_with": _I16,
    "sticks_end_other": _I16,
    "stakes_end_with": _I32,
    "stakes_end_other": _I32,
}

# the other pick's columns under the names the pair-value rule reads
_AS_PAIRS = {"sticks_end_other": "sticks_end_without", "stakes_end_other": "stakes_end_without",
             "delta_other": "delta_without", "outcome_other": "outcome_without"}


def as_pairs(team_pairs: pl.DataFrame) -> pl.DataFrame:
    """The team pairs with the other pick as a pair's "without" side, so a team pair's value
    is read by the one pair-value rule (:func:`pipeline.sim.pair_value.pair_value_expr`:
    the points, and the quarter share of what the hand left on the table)."""
    return team_pairs.rename({k: v for k, v in _AS_PAIRS.items() if k in team_pairs.columns})


# --- the shard ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamShardTask:
    """One block of a card's team-trial matches and where its files go (sent to workers)."""

    out: str
    run_id: str
    index: int
    start: int
    stop: int
    seed: int
    preset: Preset
    bots: tuple[str, ...]
    card: str
    catalog_path: str = ""
    catalog_toml: bytes = b""

    @property
    def name(self) -> str:
        return shard_name(self.index)

    @property
    def tables(self) -> tuple[str, ...]:
        return (TEAM_PAIRS,)


def play_team_shard(task: TeamShardTask, report: Callable[[int], None] | None = None
                    ) -> ShardOutput:
    """Play the shard's matches with the card placed in the holder's team (seat ``match %
    players``) and encode its ``team_pairs`` table (in memory); any process or machine."""
    settle_long_lived()
    began = time.perf_counter()
    catalog = _catalog(task.catalog_path, task.catalog_toml) if task.catalog_toml else None
    seats = task.preset.players
    bots = task.bots[:seats]
    rows: list[dict] = []
    match_hands: list[int] = []
    for m in range(task.start, task.stop):
        agents = [make_agent(kind, derive_seed(task.seed, m, "agent", s))
                  for s, kind in enumerate(bots)]
        table = TeamPairTable(CardTable(task.preset, agents, task.seed, m, catalog),
                              task.preset, m % seats, task.card)
        try:
            result = play_match(task.preset, agents, task.seed, m, table=table)
        except Exception as exc:
            raise RuntimeError(f"match {m} of seed {task.seed} failed: {exc!r}") from exc
        for pair in table.pairs:
            rows.append(_row(task.run_id, m, result.hands[pair.hand_index], pair, bots))
        match_hands.append(len(result.hands))
        if report is not None:
            report(len(result.hands))
    frame = pl.DataFrame(rows, schema=TEAM_PAIRS_SCHEMA, orient="row")
    buf = io.BytesIO()
    frame.write_parquet(buf, compression="zstd", statistics=True)
    return ShardOutput(index=task.index, files={TEAM_PAIRS: buf.getvalue()},
                       rows={TEAM_PAIRS: frame.height}, match_hands=match_hands,
                       seconds=time.perf_counter() - began, peak_rss_kb=_peak_rss_kb(),
                       version=pipeline.__version__)


def _row(run_id: str, match_id: int, real: HandRecord, pair: TeamPair,
         bots: tuple[str, ...]) -> dict:
    seat = pair.seat
    other = pair.other or real
    with_delta, other_delta = real.seats[seat].delta, other.seats[seat].delta
    return {
        "run_id": run_id, "match_id": match_id, "hand_index": pair.hand_index, "seat": seat,
        "bot": bots[seat], "card": pair.card, "held": pair.held, "picked": pair.picked,
        "picked_card": pair.picked == pair.card, "alternative": pair.alternative,
        "is_dealer": seat == real.dealer, "start_score": real.seats[seat].start_score,
        "delta_with": with_delta, "delta_other": other_delta,
        "delta_diff": with_delta - other_delta,
        "outcome_with": real.seats[seat].outcome, "outcome_other": other.seats[seat].outcome,
        "sticks_end_with": real.sticks_end, "sticks_end_other": other.sticks_end,
        "stakes_end_with": real.stakes_end, "stakes_end_other": other.stakes_end,
    }


# --- the configuration ----------------------------------------------------------------------


@dataclass(frozen=True)
class TeamTrialConfig(TrialConfig):
    """A team trial's configuration: a card trial's, with the card in a team."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.band is not None:
            raise SimError("a team trial is a precision run (--target); racing to verdicts "
                           "reads the ability value, so drop --band for --kind team")
        rules = self.preset.cards
        if rules.team_mode not in PLACEABLE_MODES:
            raise SimError(f"preset {self.preset.name!r} plays team mode {rules.team_mode!r}, "
                           "which deals no team a card can be placed in; a team trial needs "
                           f"one of {', '.join(PLACEABLE_MODES)}")
        deck = trial_deck(self.catalog, self.preset)
        need = cards_needed(rules, seats=self.preset.players)
        if len(deck) < need:
            raise SimError(f"preset {self.preset.name!r}: the deck has {len(deck)} cards and "
                           f"a team trial deals every seat a team ({need} cards)")

    @cached_property
    def _identity_json(self) -> str:
        return _canonical({
            "schema_version": SCHEMA_VERSION,
            "kind": KIND,
            "preset": self.preset.to_dict(),
            "catalog": {"version": self.catalog.version,
                        "content_hash": self.catalog.content_hash()},
            "seed": self.seed,
            "bots": list(self.bots),
            "block": self.block,
        })

    def run_id(self, card: str) -> str:
        digest = hashlib.sha256((self._identity_json + card).encode()).hexdigest()[:10]
        return f"team-{card}-{digest}"

    def default_out(self) -> Path:
        return RUNS_DIR / f"team-trial-{self.preset.name}-{self.catalog.version}-s{self.seed}"

    def task(self, out: Path, card: str, block: int) -> TeamShardTask:  # type: ignore[override]
        return TeamShardTask(out=str(card_folder(out, card)), run_id=self.run_id(card),
                             index=block, start=block * self.block,
                             stop=(block + 1) * self.block, seed=self.seed,
                             preset=self.preset, bots=self.bots, card=card,
                             catalog_path=str(self.catalog.path),
                             catalog_toml=self._catalog_toml)


def load_team_pairs(out: Path, card: str) -> pl.DataFrame:
    """A card's ``team_pairs`` from the folder's finished, intact shards (in shard order)."""
    folder = card_folder(out, card)
    if not any((folder / MANIFEST_DIR).glob("part-*.json")):
        return pl.DataFrame(schema=TEAM_PAIRS_SCHEMA)
    return load_shards(folder, TEAM_PAIRS)


@dataclass
class TeamTrialSummary(TrialSummary):
    """A team trial's figures after its rounds (:meth:`describe` says what was replayed)."""

    WHAT: ClassVar[str] = "team trial"
    HANDS: ClassVar[str] = "hands of their holders"
    REPLAYED: ClassVar[str] = ("each hand the card was picked also replayed with the next "
                               "choice")


# --- the run --------------------------------------------------------------------------------


def run_team_trial(config: TeamTrialConfig, out: Path | None = None, *,
                   executor: LocalExecutor | DaskExecutor | None = None,
                   workers: int | None = None, force: bool = False,
                   say: Callable[[TrialRound], None] | None = None,
                   on_match: Callable[[int], None] | None = None) -> TeamTrialSummary:
    """Play the team trial into ``out`` (default :meth:`TeamTrialConfig.default_out`),
    reusing every shard of the same configuration already there."""
    if executor is None:
        return with_own_pool(workers, lambda pool: run_team_trial(
            config, out, executor=pool, force=force, say=say, on_match=on_match))
    out = Path(out) if out is not None else config.default_out()
    _check_strangers(out)
    with OutputLock(out, what="trial"):
        return _run(config, out, executor, force, say, on_match)


def _run(config: TeamTrialConfig, out: Path, executor: LocalExecutor | DaskExecutor,
         force: bool, say: Callable[[TrialRound], None] | None,
         on_match: Callable[[int], None] | None) -> TeamTrialSummary:
    """The card trial's precision rounds (:func:`pipeline.sim.trial.plan_round`) over the
    team pairs."""
    previous = _prepare(out, config, force)
    began = time.perf_counter()
    blocks = {card: FIRST_BLOCKS for card in config.cards}
    added = dict(blocks)
    rounds_doc: list[dict] = []
    played = 0
    budget_spent = False
    progress: list[CardProgress] = []
    pairs: dict[str, pl.DataFrame] = {}
    for index in range(MAX_ROUNDS):
        played += _play(out, config, executor, blocks, added, on_match, play_team_shard)
        for card in added:
            pairs[card] = as_pairs(load_team_pairs(out, card))
        progress = [measure(pairs[c], c, blocks[c], config.block) for c in config.cards]
        rounds_doc.append({"round": index, "added": added, "blocks": dict(blocks)})
        _write_doc(out, config, previous, rounds_doc, "running")
        if say is not None:
            say(TrialRound(index, added, tuple(progress)))
        hands_left = config.budget_hands - sum(p.hands for p in progress)
        added = plan_round(progress, config.target, hands_left)
        budget_spent = not added and any(not p.meets(config.target) for p in progress)
        if not added:
            break
        for card, n in added.items():
            blocks[card] += n
    _write_doc(out, config, previous, rounds_doc, "complete")
    return TeamTrialSummary(out=out, config=config, progress=progress,
                            rounds=len(rounds_doc), hands=sum(p.hands for p in progress),
                            hands_played=played, seconds=time.perf_counter() - began,
                            budget_spent=budget_spent)


__all__ = ["KIND", "TEAM_PAIRS", "TEAM_PAIRS_SCHEMA", "TeamShardTask", "TeamTrialConfig",
           "as_pairs", "load_team_pairs", "play_team_shard", "run_team_trial"]
