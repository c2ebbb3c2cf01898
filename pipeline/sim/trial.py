"""Card trials: every card measured for what its ability is worth, whoever would pick it.

A natural run (:func:`pipeline.sim.run.simulate`) tells how the bots did on the hands where
they chose a card; a card the bots rarely choose is hardly measured, and a card chosen on
particular hands (Kana when last) is measured on those. A trial measures the ability itself:
for each card, matches in which one seat holds that card alone and plays it every hand (the
seat is ``match % 4``, so seats and dealer turns are balanced), the three other seats playing
ordinary teams of the same preset dealt from the deck without it. Every hand of the holder is
also played again from the same start with the ability off (the paired replay,
:mod:`pipeline.sim.paired`); the card's **ability value** is the mean paired difference in
points per hand, with an interval clustered by match.

Match ``i`` of every card uses the same walls and bot streams (``(seed, i)``), so the cards are
compared on common deals. Matches are played in blocks of :data:`BLOCK` (one per seat), one
shard per block and card, by the same shard player and executors as a run
(:func:`pipeline.sim.run.play_shard` with ``ShardTask.holder``). Sample sizes are allocated
in rounds: every card starts with :data:`FIRST_BLOCKS` blocks; after each round, each card
whose interval half-width is above the target (or measured on fewer than :data:`MIN_BLOCKS`
blocks) gets the blocks its spread says it needs (at
most as many again as it has), within what is left of the hand budget. A round's plan reads
only the blocks of the rounds before it, so the result is a function of the configuration,
whatever the number of workers, and a killed trial resumes (finished shards are kept) to the
same tables. The folder::

    trial.json                        configuration, rounds, status
    cards/<card>/hands/part-00000.parquet   a run's tables for that card's matches (the pairs
    cards/<card>/pairs/part-00000.parquet   table holds the holder's hands only), with a
    cards/<card>/manifest/part-00000.json   manifest per shard as in a run folder

The same folder serves a later trial of the same preset, catalog, seed and bots with a larger
target, a larger budget or more cards: the shards already played are reused.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

import polars as pl

from pipeline.bots.policies import UnknownPolicyError, check_policy
from pipeline.bots.registry import check_kind
from pipeline.cards.catalog import Catalog
from pipeline.cards.table import table_deck
from pipeline.cards.teams import cards_needed
from pipeline.rules.preset import Preset
from pipeline.sim import SimError
from pipeline.sim.card_value import check_measure, value_clusters
from pipeline.sim.executor import DaskExecutor, LocalExecutor, with_own_pool
from pipeline.sim.output_lock import LOCK_FILE, OutputLock
from pipeline.sim.pair_value import pair_value_expr
from pipeline.sim.provenance import card_measures
from pipeline.sim.run import (
    MANIFEST_DIR,
    PROGRESS_SECONDS,
    RUNS_DIR,
    ShardOutput,
    ShardTask,
    _canonical,
    _now,
    atomic_write,
    code_version,
    files_intact,
    load_shards,
    play_shard,
    read_manifest,
    source_hash,
    write_shard,
)
from pipeline.sim.run_folder import load_blocks
from pipeline.sim.tables import PAIRS, SCHEMA_VERSION, WHOLE
from pipeline.stats import Z95, clustered_ratio
from pipeline.verdicts import (
    DOUBLING_GRID,
    LOOK_GRID,
    LOOK_SHAPE,
    MAX_LOOKS,
    RACE_BUDGET_HANDS,
    VERDICTS,
    BandSpec,
    Evidence,
    Reference,
    Verdict,
    decide,
)

TRIAL_FILE = "trial.json"
CARDS_DIR = "cards"
BLOCK = 4            # matches per shard: the holder sits once in every seat
FIRST_BLOCKS = 2     # every card's first round (a racing trial's first look: LOOK_GRID[0])
MIN_BLOCKS = 4       # a card meets the target only with this many (16 matches: fewer
#                      clusters make the clustered interval itself unreliable)
MIN_CHANGED = 10     # ... and with this many pairs that differ: an interval from a handful of
#                      nonzero differences is too narrow to trust
MAX_ROUNDS = 12
DEFAULT_TARGET = 150.0        # points per hand: the interval half-width aimed at
DEFAULT_BUDGET_HANDS = 20_000  # hands of trial matches in all (each match also played without)
CHANGED_QUANTILE = 0.99        # what a changed hand is worth, for the few-changes bound
OVERSHOOT = 1.15     # ask for a little more than the spread says, to save rounds
# a card's blocks whose hands are all replayed without the ability (64 matches): what the
# in-hand figures read (pair value, changed hands, rates without the ability); later blocks
# play the match with the ability and without it only, which is what the value reads
REPLAYED_BLOCKS = 16


@dataclass(frozen=True)
class TrialConfig:
    """What decides a trial's tables (``cards``, ``target`` and ``budget_hands`` decide how
    much of them is played)."""

    preset: Preset
    catalog: Catalog
    seed: int
    cards: tuple[str, ...]
    bots: tuple[str, str, str, str] = ("heuristic",) * 4
    target: float = DEFAULT_TARGET
    budget_hands: int = DEFAULT_BUDGET_HANDS
    # the holder's policy (pipeline/bots/policies.py: saki bots gap); "": its seat's bot
    holder_policy: str = ""
    band: BandSpec | None = None   # set: a racing trial, hands only for undecided cards
    measure: str = "points"        # what the rounds read: pipeline.sim.card_value.MEASURES
    # a card's first blocks replayed hand by hand (None: every block; a card whose replays
    # show fewer than MIN_CHANGED changed hands keeps replaying, for the few-changes bound)
    replayed_blocks: int | None = REPLAYED_BLOCKS

    @property
    def racing(self) -> bool:
        return self.band is not None

    def __post_init__(self) -> None:
        if not self.preset.cards.enabled:
            raise SimError(f"--preset {self.preset.name!r} plays without cards, and a trial "
                           "measures a card; choose a card preset, e.g. --preset cards-hanchan")
        if not self.cards:
            raise SimError("no cards to try; name some with --only, e.g. --only nodoka_haramura")
        check_target(self.target, self.budget_hands)
        check_measure(self.measure)
        for kind in self.bots:
            check_kind(kind)
        if self.holder_policy:
            try:
                check_policy(self.holder_policy)
            except UnknownPolicyError as exc:
                raise SimError(f"--policies: {exc}") from None
        deck = trial_deck(self.catalog, self.preset)
        for card in self.cards:
            if card not in deck and self.preset.players == 3:
                from pipeline.cards.sanma import SANMA_UNPLAYABLE

                if card in SANMA_UNPLAYABLE:
                    raise SimError(f"--only: {card!r} cannot be played with three players "
                                   f"({SANMA_UNPLAYABLE[card]}); leave it out of a "
                                   f"three-player trial")
            if card not in deck:
                known = ", ".join(deck[:4])
                raise SimError(f"--only: {card!r} is not a card of catalog "
                               f"{self.catalog.version}'s deck for preset {self.preset.name!r} "
                               f"(e.g. {known}; 'saki cards list' shows them all)")
        draft = self.preset.cards.team_mode == "draft"  # the draft deals every seat a pile
        dealt = self.preset.players - (not draft)
        need = cards_needed(self.preset.cards, seats=dealt)
        if len(deck) - 1 < need:
            where = self.preset.source or f"preset {self.preset.name!r}"
            raise SimError(f"{where}: the deck has {len(deck)} cards; a trial deals "
                           f"{'piles to' if draft else 'teams to'} {dealt} seats from the deck "
                           f"without the card tried and needs {need + 1}; set a smaller "
                           "[cards] team_size")

    def identity(self) -> dict[str, Any]:
        """What the shards depend on: equal identities play equal shards."""
        return json.loads(self._identity_json)

    @cached_property
    def _identity_json(self) -> str:
        return _canonical({
            "schema_version": SCHEMA_VERSION,
            "kind": "trial",
            "preset": self.preset.to_dict(),
            "catalog": {"version": self.catalog.version,
                        "content_hash": self.catalog.content_hash()},
            "seed": self.seed,
            "bots": list(self.bots),
            "block": self.block,
            "replayed_blocks": self.replayed_blocks,
            # named only when set, so a plain trial's folder and shards are those of before
            **({"holder_policy": self.holder_policy} if self.holder_policy else {}),
        })

    @property
    def block(self) -> int:
        """Matches a block: one per seat, so the holder sits once in each (three with three
        players, S-01; :data:`BLOCK` with four)."""
        return self.preset.players

    def run_id(self, card: str) -> str:
        digest = hashlib.sha256((self._identity_json + card).encode()).hexdigest()[:10]
        return f"trial-{card}-{digest}"

    def default_out(self) -> Path:
        return RUNS_DIR / f"trial-{self.preset.name}-{self.catalog.version}-s{self.seed}"

    def task(self, out: Path, card: str, block: int, rare: bool = False) -> ShardTask:
        """The shard of ``card``'s block ``block`` (matches ``4 block`` to ``4 block + 3``);
        its hands replayed without the ability among the card's first
        :attr:`replayed_blocks`, or when the card's replays so far changed too few hands to
        judge it by (``rare``)."""
        replay = rare or self.replayed_blocks is None or block < self.replayed_blocks
        return ShardTask(out=str(card_folder(out, card)), run_id=self.run_id(card),
                         index=block, start=block * self.block, stop=(block + 1) * self.block,
                         seed=self.seed, preset=self.preset, bots=self.bots,
                         catalog_path=str(self.catalog.path), catalog_toml=self._catalog_toml,
                         paired=True, holder=card, holder_policy=self.holder_policy,
                         whole=True, replay=replay)

    @cached_property
    def _catalog_toml(self) -> bytes:
        return self.catalog.path.read_bytes()


def check_target(target: float, budget_hands: int) -> None:
    """A trial's stopping rule must be a number it can reach: a half-width above 0 (not nan,
    not infinite) and a budget of at least one hand."""
    if not (math.isfinite(target) and target > 0):
        raise SimError(f"--target must be above 0 points per hand (a finite number), got "
                       f"{target:g}; e.g. --target 150")
    if budget_hands < 1:
        raise SimError(f"--budget-hands must be at least 1, got {budget_hands}")


def trial_deck(catalog: Catalog, preset: Preset) -> list[str]:
    """The cards a trial of this preset can try: the preset's deck (for three players, without
    the cards that cannot be played for three: :mod:`pipeline.cards.sanma`)."""
    return table_deck(catalog, preset)


def card_folder(out: Path, card: str) -> Path:
    return Path(out) / CARDS_DIR / card


@dataclass(frozen=True)
class CardProgress:
    """One card's measurement after a round: the paired value and its interval."""

    card: str
    blocks: int
    matches: int
    hands: int
    value: float
    lo: float          # nan when the interval is undefined (one match, or all pairs equal)
    hi: float
    changed: int       # pairs whose two sides differ in points
    replayed: int | None = None  # hands replayed without the ability (None: every hand)

    @property
    def replayed_hands(self) -> int:
        return self.hands if self.replayed is None else self.replayed

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2 if math.isfinite(self.lo) else math.nan

    @property
    def degenerate(self) -> bool:
        """All pairs equal: the spread is zero, which says nothing about the ability."""
        return self.replayed_hands > 0 and self.changed == 0

    def meets(self, target: float) -> bool:
        return (self.blocks >= MIN_BLOCKS and self.changed >= MIN_CHANGED
                and math.isfinite(self.half_width) and self.half_width <= target)


def measure(pairs: pl.DataFrame, card: str, blocks: int, block: int = BLOCK,
            whole: pl.DataFrame | None = None, measure_: str = "points") -> CardProgress:
    """The card's value in ``measure_`` (:mod:`pipeline.sim.card_value`, what the trial's
    table reports) from its first ``blocks`` blocks of ``block`` matches (cluster = match);
    ``changed`` counts the pairs that differ (of the hands replayed)."""
    matches = blocks * block
    rows = pairs.filter(pl.col("match_id") < matches)
    if whole is not None:
        whole = whole.filter(pl.col("match_id") < matches)
    clusters = value_clusters(rows, whole, measure_)
    est = clustered_ratio(clusters["s"].to_list(), clusters["n"].to_list())
    value = pair_value_expr(rows.columns)
    changed = int(rows.select((value != 0).sum()).item()) if rows.height else 0
    lo, hi = (est.low, est.high) if changed else (math.nan, math.nan)
    hands = int(whole["hands_with"].sum()) if whole is not None and whole.height \
        else rows.height
    return CardProgress(card, blocks, matches, hands, est.value, lo, hi, changed, rows.height)


def plan_round(progress: Sequence[CardProgress], target: float, hands_left: float
               ) -> dict[str, int]:
    """Blocks to add per card: each card above the target asks for what its spread says it
    needs (at most as many blocks again as it has; a card with no interval yet doubles), and
    when the asks cost more hands than are left, every ask is scaled down alike."""
    asks: dict[str, int] = {}
    for p in progress:
        if p.meets(target):
            continue
        if p.changed < MIN_CHANGED or not math.isfinite(p.half_width):
            want = p.blocks
        elif p.half_width <= target:  # narrow enough, but on too few matches
            want = MIN_BLOCKS - p.blocks
        else:
            need = p.blocks * (p.half_width / target) ** 2 * OVERSHOOT
            want = min(p.blocks, max(1, math.ceil(need - p.blocks)))
        asks[p.card] = want
    cost = {p.card: BLOCK * max(p.hands / max(p.matches, 1), 1.0) for p in progress}
    total = sum(asks[c] * cost[c] for c in asks)
    if total <= hands_left:
        return asks
    scale = hands_left / total if total else 0.0
    scaled = {c: math.floor(n * scale) for c, n in asks.items()}
    if not any(scaled.values()):  # not enough for every card: one block each, widest first
        left = hands_left
        widest = sorted(asks, key=lambda c: -_width_key(progress, c))
        for c in widest:
            if cost[c] <= left:
                scaled[c] = 1
                left -= cost[c]
    return {c: n for c, n in scaled.items() if n > 0}


def card_evidence(p: CardProgress, looks: int = 1, magnitude: float = math.nan,
                  shape: float = LOOK_SHAPE) -> Evidence:
    """What the verdicts read of a card's measurement (the interval's standard error, and
    where on the grid of ``looks`` its blocks are)."""
    se = p.half_width / Z95 if math.isfinite(p.half_width) else math.nan
    return Evidence(p.card, p.value, se, p.matches, p.hands, p.changed, looks, magnitude,
                    grid_fraction(p.blocks, looks), shape, p.replayed_hands)


def grid_fraction(blocks: int, looks: int, grid: tuple[int, ...] = LOOK_GRID) -> float:
    """A card's information fraction on the racing grid: its blocks over the last look's."""
    return blocks / grid[min(max(looks, 1), len(grid)) - 1]


def changed_magnitude(frames: Iterable[pl.DataFrame]) -> float:
    """The 99th percentile of |value| over the pairs that differ, all cards pooled: what a
    changed hand is worth, for the few-changes bound (``nan`` with no pair differing)."""
    parts = [f.select(pair_value_expr(f.columns).abs().alias("v")).filter(pl.col("v") > 0)
             for f in frames if f.height]
    pooled = pl.concat(parts) if parts else pl.DataFrame({"v": []}, schema={"v": pl.Float64})
    if not pooled.height:
        return math.nan
    return float(pooled["v"].quantile(CHANGED_QUANTILE, interpolation="higher"))


def reference_of(progress: Sequence[CardProgress], source: str) -> Reference:
    """The deck's average card from every deck card's measurement."""
    return Reference.of({p.card: (p.value, card_evidence(p).se) for p in progress}, source)


def plan_race(progress: Sequence[CardProgress], verdicts: Sequence[Verdict],
              hands_left: float) -> dict[str, int]:
    """Racing (Maron and Moore's Hoeffding races; a thresholding bandit in Locatelli et al.'s
    terms): only the cards still undecided get hands, each up to the next look of the grid
    the verdicts' p-values count (:data:`pipeline.verdicts.LOOK_GRID`). When the budget
    cannot take them all there, the cards closest to a verdict (fewest hands to settle) go
    first, so the budget settles as many cards as it can."""
    open_cards = {v.card: v for v in verdicts}
    cost = {p.card: (next_look(p.blocks) - p.blocks) * BLOCK
            * max(p.hands / max(p.matches, 1), 1.0) for p in progress}
    todo = sorted((p for p in progress if p.card in open_cards
                   and _can_settle(open_cards[p.card], p.blocks)),
                  key=lambda p: (_settle_key(open_cards[p.card]), p.card))
    asks: dict[str, int] = {}
    left = hands_left
    for p in todo:
        if cost[p.card] <= left:
            asks[p.card] = next_look(p.blocks) - p.blocks
            left -= cost[p.card]
    return asks


def next_look(blocks: int) -> int:
    """The racing grid's next look after ``blocks`` (:data:`pipeline.verdicts.LOOK_GRID`)."""
    return next((g for g in LOOK_GRID if g > blocks), LOOK_GRID[-1])


def _can_settle(v: Verdict, blocks: int) -> bool:
    """More hands may settle an undecided card that has a band to be judged against (none
    without the deck's reference) and looks left on the grid."""
    return not v.decided and math.isfinite(v.band_lo) and blocks < LOOK_GRID[-1]


def _settle_key(v: Verdict) -> float:
    return math.inf if v.settle_hands is None else float(v.settle_hands)


def find_deck_trial(identity: dict[str, Any], deck: set[str], out: Path) -> Path | None:
    """A complete trial of every card of ``deck`` whose identity (preset, catalog, bots; any
    seed) is ``identity``'s: ``out`` itself first, then the folders beside it and under
    ``data/runs``, one of the same seed before the others, then by name."""
    mine = {k: v for k, v in identity.items() if k != "seed"}
    places = [Path(out)] + sorted(p.parent for where in {Path(out).parent, RUNS_DIR}
                                  if where.is_dir() for p in where.glob(f"*/{TRIAL_FILE}"))
    found = []
    for place in dict.fromkeys(places):
        try:
            doc = json.loads((place / TRIAL_FILE).read_text())
        except (OSError, ValueError):
            continue
        same = all(_canonical(doc.get(k)) == _canonical(v) for k, v in mine.items())
        if same and doc.get("status") == "complete" and deck <= set(doc.get("blocks", {})):
            found.append((place != Path(out), doc.get("seed") != identity.get("seed"),
                          str(place)))
    return Path(min(found)[2]) if found else None


def stored_reference(config: TrialConfig, folder: Path) -> Reference:
    """The deck's average card from a stored deck trial (every deck card, its blocks)."""
    blocks = trial_blocks(folder)
    doc = read_trial(folder)
    progress = []
    for c in trial_deck(config.catalog, config.preset):
        pairs, whole = _tables(folder, c)
        progress.append(measure(pairs, c, blocks[c], config.block, whole, config.measure))
    hands = sum(p.hands for p in progress)
    return reference_of(progress, f"the stored deck trial {folder} (seed {doc.get('seed')}, "
                                  f"{hands:,} hands)")


def _tables(folder: Path, card: str) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """A card's pairs and its whole-match table (None for a folder written without it)."""
    whole = load_shards(card_folder(folder, card), WHOLE)
    return load_shards(card_folder(folder, card), PAIRS), whole if whole.height else None


class CardFrames:
    """Each card's pairs and whole-match tables over the blocks measured so far, a round's new
    blocks read and appended (reading every block again after each round cost a trial of the
    deck about a minute with the workers idle)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pairs: dict[str, pl.DataFrame] = {}
        self.wholes: dict[str, pl.DataFrame] = {}
        self.read: dict[str, int] = {}  # blocks read per card

    def add(self, card: str, blocks: int) -> None:
        """Read ``card``'s blocks up to ``blocks`` not read yet."""
        start = self.read.get(card, 0)
        if blocks <= start:
            return
        where = card_folder(self.folder, card)
        for name, frames in ((PAIRS, self.pairs), (WHOLE, self.wholes)):
            new = load_blocks(where, name, range(start, blocks))
            frames[card] = pl.concat([frames[card], new]) if card in frames else new
        self.read[card] = blocks

    def whole(self, card: str) -> pl.DataFrame | None:
        """The card's whole-match table (None for a folder written without it)."""
        frame = self.wholes.get(card)
        return frame if frame is not None and frame.height else None


def _width_key(progress: Sequence[CardProgress], card: str) -> float:
    p = next(x for x in progress if x.card == card)
    return math.inf if not math.isfinite(p.half_width) else p.half_width


@dataclass(frozen=True)
class TrialRound:
    """Where a trial stands after one of its rounds (passed to ``say``)."""

    index: int
    added: dict[str, int]            # blocks played this round per card
    progress: tuple[CardProgress, ...]
    verdicts: tuple[Verdict, ...] = ()   # a racing trial's verdicts after the round


@dataclass
class TrialSummary:
    out: Path
    config: TrialConfig
    progress: list[CardProgress]
    rounds: int
    hands: int           # hands of trial matches in the tables
    hands_played: int    # hands played in this session
    seconds: float
    budget_spent: bool   # stopped by the budget with some card above the target (undecided)
    rows: dict[str, int] = field(default_factory=dict)
    verdicts: list[Verdict] = field(default_factory=list)   # a racing trial's

    # how describe() names the trial, its hands and its replays (a team trial says its own)
    WHAT: ClassVar[str] = "trial"
    HANDS: ClassVar[str] = "hands"
    REPLAYED: ClassVar[str] = "each match also played without the ability"

    def describe(self) -> str:
        if self.config.racing:
            return self._describe_race()
        met = sum(p.meets(self.config.target) for p in self.progress)
        widths = [p.half_width for p in self.progress if math.isfinite(p.half_width)]
        widest = f"{max(widths):,.0f}" if widths else "none"
        why = ("the hand budget ran out" if self.budget_spent else
               "every card reached the target" if met == len(self.progress) else
               f"the round limit ({MAX_ROUNDS}) was reached")
        rate = self.hands_played / self.seconds if self.seconds > 0 else 0.0
        return (f"{self.WHAT} complete: {len(self.progress)} cards, {self.hands:,} {self.HANDS} "
                f"in {self.rounds} rounds ({self.hands_played:,} played now, {rate:.1f} "
                f"hands/s, {self.REPLAYED}); {met} of {len(self.progress)} at "
                f"half-width <= {self.config.target:g} points per hand, widest {widest}; "
                f"stopped because {why}; in {self.out}")


    def _describe_race(self) -> str:
        counts = {k: sum(v.verdict == k for v in self.verdicts) for k in VERDICTS}
        said = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in counts.items() if n)
        open_ = [v for v in self.verdicts if not v.decided]
        last = LOOK_GRID[-1]
        why = ("every card has a verdict" if not open_ else
               "the hand budget ran out" if self.budget_spent else
               "the undecided cards cannot be settled by more hands here" if not any(
                   math.isfinite(v.band_lo) for v in open_) else
               f"the undecided cards reached the last look ({last * self.config.block} "
               "matches)")
        rate = self.hands_played / self.seconds if self.seconds > 0 else 0.0
        return (f"trial complete: {len(self.progress)} cards, {self.hands:,} hands in "
                f"{self.rounds} rounds ({self.hands_played:,} played now, {rate:.1f} hands/s, "
                f"{self.REPLAYED}); verdicts against "
                f"{self.config.band.describe() if self.config.band else ''}: {said}; "
                f"stopped because {why}; in {self.out}")


class TrialTicker:
    """A progress line every :data:`PROGRESS_SECONDS` while a trial's rounds play (hands played,
    hands per second, the round, and in a racing trial the cards decided so far), so a long
    round is never silent. Pass ``on_match=ticker.match`` and call ``ticker.round`` from ``say``.
    """

    def __init__(self, write: Callable[[str], None], *, interval: float = PROGRESS_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.write, self.interval, self.clock = write, interval, clock
        self.began = self.last = clock()
        self.hands = 0
        self.rounds = 0
        self.decided: tuple[int, int] | None = None
        self.label: str | None = None  # set by :meth:`phase`: the lines name it, not a round

    def match(self, hands: int) -> None:
        self.hands += hands
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            rate = self.hands / (now - self.began) if now > self.began else 0.0
            where = (f"; {self.decided[0]} of {self.decided[1]} cards decided"
                     if self.decided and self.label is None else "")
            what = self.label or f"trial round {self.rounds + 1}"
            self.write(f"{what}: {self.hands:,} hands played ({rate:,.0f} hands/s){where}")

    def round(self, r: TrialRound) -> None:
        self.rounds = r.index + 1
        self.label = None
        if r.verdicts:
            self.decided = (sum(v.decided for v in r.verdicts), len(r.verdicts))

    def phase(self, label: str) -> None:
        """Another step plays now (a command of several trials, e.g. a proposal's search): its
        lines say ``label`` until the next trial round, not the last trial's round and cards."""
        self.label = label


def run_trial(config: TrialConfig, out: Path | None = None, *,
              executor: LocalExecutor | DaskExecutor | None = None, workers: int | None = None,
              force: bool = False, say: Callable[[TrialRound], None] | None = None,
              on_match: Callable[[int], None] | None = None,
              carried: Sequence[Evidence] = ()) -> TrialSummary:
    """Play the trial into ``out`` (default :meth:`TrialConfig.default_out`), reusing every
    shard of the same configuration already there. ``say`` hears each finished round,
    ``on_match(hands)`` each finished match. ``carried``: the other deck cards' measurements
    (from another trial of the same deck), which a racing trial of some of the cards judges
    its own against, as one deck (:func:`race_verdicts`)."""
    if executor is None:  # one pool for every round, stopped at the end
        return with_own_pool(workers, lambda pool: run_trial(
            config, out, executor=pool, force=force, say=say, on_match=on_match,
            carried=carried))
    out = Path(out) if out is not None else config.default_out()
    _check_strangers(out)  # never leave a lock file in someone else's folder
    with OutputLock(out, what="trial"):  # before --force deletes anything
        return _run_trial(config, out, executor, force, say, on_match, tuple(carried))


def _run_trial(config: TrialConfig, out: Path, executor: LocalExecutor | DaskExecutor,
               force: bool, say: Callable[[TrialRound], None] | None,
               on_match: Callable[[int], None] | None,
               carried: tuple[Evidence, ...] = ()) -> TrialSummary:
    previous = _prepare(out, config, force)
    _forget_damaged(out, config)
    began = time.perf_counter()
    blocks = {card: FIRST_BLOCKS for card in config.cards}
    added = dict(blocks)
    rounds_doc: list[dict[str, Any]] = []
    played = 0
    budget_spent = False
    progress: list[CardProgress] = []
    verdicts: list[Verdict] = []
    frames = CardFrames(out)
    stored = _stored_reference(config, out) if config.racing else None
    rare: set[str] = set()  # cards whose replays changed too few hands: they keep replaying
    for index in range(MAX_LOOKS if config.racing else MAX_ROUNDS):
        played += _play(out, config, executor, blocks, added, on_match, rare=rare)
        for card in added:
            frames.add(card, blocks[card])
        progress = [measure(frames.pairs[c], c, blocks[c], config.block, frames.whole(c),
                            config.measure) for c in config.cards]
        rare = {p.card for p in progress if p.changed < MIN_CHANGED}
        if config.racing:
            verdicts = race_verdicts(config, progress, frames.pairs.values(), stored, carried)
        rounds_doc.append({"round": index, "added": added,
                           "blocks": dict(blocks)})
        _write_doc(out, config, previous, rounds_doc, "running")
        if say is not None:
            say(TrialRound(index, added, tuple(progress), tuple(verdicts)))
        hands_left = config.budget_hands - sum(p.hands for p in progress)
        if config.racing:
            added = plan_race(progress, verdicts, hands_left)
            budget_spent = not added and any(_can_settle(v, blocks[v.card]) for v in verdicts)
        else:
            added = plan_round(progress, config.target, hands_left)
            budget_spent = not added and any(not p.meets(config.target) for p in progress)
        if not added:
            break
        for card, n in added.items():
            blocks[card] += n
    _write_doc(out, config, previous, rounds_doc, "complete")
    return TrialSummary(out=out, config=config, progress=progress, rounds=len(rounds_doc),
                        hands=sum(p.hands for p in progress), hands_played=played,
                        seconds=time.perf_counter() - began, budget_spent=budget_spent,
                        verdicts=verdicts)


def race_verdicts(config: TrialConfig, progress: Sequence[CardProgress],
                  frames: Iterable[pl.DataFrame], stored: Reference | None,
                  carried: Sequence[Evidence] = ()) -> list[Verdict]:
    """Every card's verdict after a round of a racing trial: against the trial's own deck when
    it tries every deck card (with ``carried``, the measurements of the deck's other cards
    from another trial, it and they are one deck: one average card, one Benjamini-Hochberg),
    else against the stored deck trial (none: undecided)."""
    assert config.band is not None
    magnitude = changed_magnitude(frames)
    deck = set(trial_deck(config.catalog, config.preset))
    evidence = [card_evidence(p, MAX_LOOKS, magnitude) for p in progress]
    played = {e.card for e in evidence}
    others = [e for e in carried if e.card not in played]
    reference = stored
    if not config.band.absolute and deck <= played | {e.card for e in others}:
        reference = Reference.of({e.card: (e.value, e.se) for e in [*evidence, *others]
                                  if e.card in deck},
                                 f"this trial's {len(played)} cards and {len(others)} "
                                 "carried from another trial of the deck" if others else
                                 f"this trial's {len(deck)} cards")
    verdicts = decide([*evidence, *others], config.band, reference)
    return [v for v in verdicts if v.card in played]


def _stored_reference(config: TrialConfig, out: Path) -> Reference | None:
    """The stored deck trial's reference when this racing trial does not try the whole deck
    against the deck's band."""
    assert config.band is not None
    if config.band.absolute or set(trial_deck(config.catalog, config.preset)) <= \
            set(config.cards):
        return None
    folder = find_deck_trial(config.identity(),
                             set(trial_deck(config.catalog, config.preset)), out)
    return stored_reference(config, folder) if folder is not None else None


def _forget_damaged(out: Path, config: TrialConfig) -> None:
    """A shard of the trial's cards whose files no longer match its manifest (deleted, cut,
    overwritten) loses its manifest, so the round that plans it plays it again: every round
    reads all of a card's shards, planned this time or not."""
    for card in config.cards:
        folder = card_folder(out, card)
        for path in sorted((folder / MANIFEST_DIR).glob("part-*.json")):
            try:
                manifest = json.loads(path.read_text())
            except (OSError, ValueError):
                manifest = None
            if not files_intact(folder, manifest):
                path.unlink(missing_ok=True)


def _play(out: Path, config: TrialConfig, executor: LocalExecutor | DaskExecutor,
          blocks: dict[str, int], added: dict[str, int],
          on_match: Callable[[int], None] | None,
          play: Callable[..., ShardOutput] = play_shard, rare: set[str] | None = None) -> int:
    """Play the round's new blocks that are not already in the folder, all cards in one go
    on the executor (each task by ``play``: a team trial passes its own; ``rare``: a card
    trial's cards that keep every hand replayed); return the hands played."""
    todo = []
    for card, n in added.items():
        for block in range(blocks[card] - n, blocks[card]):
            task = (config.task(out, card, block) if rare is None
                    else config.task(out, card, block, rare=card in rare))
            if read_manifest(Path(task.out), task) is None:
                todo.append(task)
    hands = 0

    def match_done(n: int) -> None:
        nonlocal hands
        hands += n
        if on_match is not None:
            on_match(n)

    def on_done(output: ShardOutput) -> None:  # the output's index is the task's number
        task = todo[output.index]
        write_shard(Path(task.out), task, output)
        if not executor.live_progress:
            for n in output.match_hands:
                match_done(n)

    executor.run(play_numbered, [NumberedShard(i, t, play) for i, t in enumerate(todo)],
                 on_match=match_done, on_done=on_done)
    return hands


@dataclass(frozen=True)
class NumberedShard:
    """A trial shard as sent to a worker: shards of several cards share block indices, so the
    output comes back under the task's number in the round. ``play`` plays the task (a card
    trial's :func:`pipeline.sim.run.play_shard`, a team trial's own)."""

    number: int
    task: Any
    play: Callable[..., ShardOutput] = play_shard

    @property
    def name(self) -> str:
        return f"{Path(self.task.out).name}-{self.task.name}"


def play_numbered(item: NumberedShard, report: Callable[[int], None] | None = None
                  ) -> ShardOutput:
    """Play one trial shard (any process or machine); its output carries the task's number."""
    output = item.play(item.task, report)
    return ShardOutput(index=item.number, files=output.files, rows=output.rows,
                       match_hands=output.match_hands, seconds=output.seconds,
                       peak_rss_kb=output.peak_rss_kb, version=output.version)


# --- the folder -----------------------------------------------------------------------------


def read_trial(out: Path) -> dict[str, Any]:
    """The trial's ``trial.json``."""
    path = Path(out) / TRIAL_FILE
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise SimError(f"{out}: no trial here (no {TRIAL_FILE}); run 'saki trial' first") \
            from None
    except (OSError, ValueError) as exc:
        raise SimError(f"{path}: unreadable ({exc}); run the trial again with --force") \
            from None


def _prepare(out: Path, config: TrialConfig, force: bool) -> dict[str, Any] | None:
    if out.exists() and not out.is_dir():
        raise SimError(f"--out {out} is a file, not a trial folder; choose another --out")
    doc_path = out / TRIAL_FILE
    if force and out.is_dir():
        import shutil

        doc_path.unlink(missing_ok=True)
        shutil.rmtree(out / CARDS_DIR, ignore_errors=True)
    if not doc_path.is_file():
        _check_strangers(out)
        out.mkdir(parents=True, exist_ok=True)
        return None
    previous = read_trial(out)
    key = other_configuration(config, previous)
    if key is not None:
        raise SimError(f"--out {out} holds a trial of another configuration ({key} differs); "
                       "choose another --out, or use --force to replace it")
    there = (previous.get("code") or {}).get("source_hash")
    if there is not None and there != source_hash():
        raise SimError(f"--out {out} holds a trial played by another version of the lab's "
                       f"code ({there} there, {source_hash()} here); use --force to play it "
                       "again, or choose another --out")
    return previous


def other_configuration(config: TrialConfig, doc: dict[str, Any]) -> str | None:
    """The first key of the configuration in which the trial record ``doc`` differs from
    ``config`` (None: the same configuration, whose shards this trial may reuse)."""
    mine = config.identity()
    return next((k for k in mine if _canonical(doc.get(k)) != _canonical(mine[k])), None)


def played_by_this_code(doc: dict[str, Any]) -> bool:
    there = (doc.get("code") or {}).get("source_hash")
    return there is None or there == source_hash()


def _check_strangers(out: Path) -> None:
    """Refuse a folder that holds no trial record but other things (a run, a sweep, files of
    one's own): a trial is written into an empty folder or a trial folder only."""
    if out.is_dir() and not (out / TRIAL_FILE).is_file():
        strangers = sorted(p.name for p in out.iterdir()
                           if p.name not in (TRIAL_FILE, CARDS_DIR, LOCK_FILE))
        if strangers:
            raise SimError(f"--out {out} is not empty and holds no {TRIAL_FILE} (found "
                           f"{strangers[0]!r}); choose another --out (a trial writes a folder "
                           "of its own)")


def _write_doc(out: Path, config: TrialConfig, previous: dict[str, Any] | None,
               rounds: list[dict[str, Any]], status: str) -> None:
    """``trial.json``: this trial's cards and rounds; ``blocks``, ``names`` and ``measures``
    (each card's target and budget) also keep the cards an earlier trial in the folder
    measured (each card's latest measurement): the record is the union, written atomically
    under the folder's lock. ``looks`` is the most looks any trial here took at a card's
    verdict (racing: the grid's; it stays, as the data were chosen by them); ``deck`` the
    cards of the preset's deck."""
    before = previous or {}
    blocks = {**before.get("blocks", {}), **(rounds[-1]["blocks"] if rounds else {})}
    names = {**before.get("names", {}),
             **{c: config.catalog.card(c).name for c in config.cards}}
    looks = max(int(before.get("looks", 1)), MAX_LOOKS if config.racing else 1)
    # the boundary of the looks the data were chosen by (a folder raced before the shape was
    # kept raced with the flat one)
    shape = LOOK_SHAPE if config.racing else look_shape(before)
    grid = LOOK_GRID if config.racing else look_grid(before)
    band = config.band
    measure = {"target": config.target, "budget_hands": config.budget_hands}
    measures = {**card_measures(before), **{c: measure for c in config.cards}}
    doc = {**config.identity(), "status": status, "cards": list(config.cards),
           "names": names, "target": config.target, "budget_hands": config.budget_hands,
           "measures": measures,
           "allocation": "racing" if config.racing else "precision", "looks": looks,
           "look_shape": shape, "look_grid": list(grid),
           "band": None if band is None else {"threshold": band.threshold, "lo": band.lo,
                                              "hi": band.hi, "zone": band.zone},
           "deck": trial_deck(config.catalog, config.preset),
           "code": code_version(), "rounds": rounds, "blocks": blocks,
           "created": before.get("created") or _now(), "updated": _now()}
    atomic_write(out / TRIAL_FILE, (json.dumps(doc, indent=2) + "\n").encode())


def look_shape(doc: dict[str, Any]) -> float:
    """The boundary shape a trial folder's looks were raced with (:data:`LOOK_SHAPE` when it
    never raced; the flat 0.5 for a folder raced before the shape was recorded)."""
    if "look_shape" in doc:
        return float(doc["look_shape"])
    return 0.5 if int(doc.get("looks", 1)) > 1 else LOOK_SHAPE


def look_grid(doc: dict[str, Any]) -> tuple[int, ...]:
    """The grid of looks a trial folder was raced on, in blocks (:data:`LOOK_GRID` when it
    never raced; for a folder raced before the grid was recorded, the doubling one, whose 8
    looks it counts)."""
    if doc.get("look_grid"):
        return tuple(int(g) for g in doc["look_grid"])
    return DOUBLING_GRID if int(doc.get("looks", 1)) == len(DOUBLING_GRID) else LOOK_GRID


def trial_blocks(out: Path) -> dict[str, int]:
    """Blocks measured per card by the trial last run in ``out``."""
    return {c: int(n) for c, n in read_trial(out).get("blocks", {}).items()}


__all__ = ["BLOCK", "DEFAULT_BUDGET_HANDS", "DEFAULT_TARGET", "RACE_BUDGET_HANDS",
           "CardProgress", "TrialConfig", "TrialRound", "TrialSummary", "TrialTicker",
           "card_evidence", "card_folder", "changed_magnitude", "find_deck_trial", "grid_fraction",
           "look_grid", "look_shape", "measure",
           "other_configuration", "plan_race", "plan_round", "played_by_this_code",
           "race_verdicts", "read_trial", "reference_of", "run_trial", "trial_blocks",
           "trial_deck"]
