"""The policy gap: how much of a card's value its holder's bot leaves on the table.

A card's value is the card as the bots play it. To see whether the bot limits it, the card's
trial is played again with the holder following a simple alternative policy
(:mod:`pipeline.bots.policies`: its tile incentives ignored, every optional offer taken, every
one declined), on the same matches: match ``i`` has the same walls, the same other seats and
the same bot streams under every policy, so a policy's gap to the shipped one is a paired
difference. The matches of one policy diverge from the shipped play once the holder chooses
otherwise, so the pair is the match, not the hand: the gap is the difference of the two values
(points per hand over the same matches), with a 95% interval from resampling the matches
(:data:`RESAMPLES` paired bootstrap resamples, percentile interval; seeded, so a run is
repeatable). A policy beats the shipped one significantly when its whole interval is above 0:
"this card's value is limited by the bots".

``hindsight`` is no bot: on each match it keeps the policy that did best there, knowing how
the match went (the same walls under every policy), so it is an upper bound on what choosing
among the played policies could give: the best option on each deal. Its row is built from the
other policies' matches (:func:`hindsight_matches`), with the same paired interval; being a
maximum over noisy values it is biased upwards, and it never counts as beating the shipped
policy (no bot could play it).

Each policy's trial is a trial folder of its own under ``out`` (``<out>/<policy>``, the shipped
one being a plain trial), so a killed run resumes and a later run with more matches reuses the
matches played.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.bots.pick import card_incentives, side_incentives
from pipeline.bots.policies import HINDSIGHT, POLICIES, SHIPPED
from pipeline.cards.catalog import Catalog
from pipeline.cards.effects.registry import EFFECTS
from pipeline.rules.preset import Preset
from pipeline.sim import SimError
from pipeline.sim.executor import DaskExecutor, LocalExecutor, with_own_pool
from pipeline.sim.pair_value import pair_value_expr
from pipeline.sim.run import RUNS_DIR, load_shards
from pipeline.sim.tables import PAIRS
from pipeline.sim.trial import (
    TrialConfig,
    _play,
    _prepare,
    _write_doc,
    card_folder,
    measure,
)

RESAMPLES = 2000
DEFAULT_BLOCKS = 16  # 64 matches of four players (about 700 hands of the holder)


@dataclass(frozen=True)
class PolicyRow:
    """One policy's value for the card, and its gap to the shipped policy on the same
    matches (0 for the shipped policy itself)."""

    policy: str
    hands: int
    matches: int
    value: float
    value_lo: float
    value_hi: float
    gap: float
    gap_lo: float
    gap_hi: float

    @property
    def beats_shipped(self) -> bool:
        """Whether this playable policy is significantly better than the shipped one (95%);
        never hindsight, an upper bound no bot plays."""
        return self.policy not in (SHIPPED, HINDSIGHT) and self.gap_lo > 0

    def as_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "hands": self.hands, "matches": self.matches,
                "value": self.value, "value_lo": _finite(self.value_lo),
                "value_hi": _finite(self.value_hi), "gap": self.gap,
                "gap_lo": _finite(self.gap_lo), "gap_hi": _finite(self.gap_hi),
                "beats_shipped": self.beats_shipped}


@dataclass(frozen=True)
class PolicyGap:
    """A card's value under each policy on the same matches (of ``preset`` with catalog
    ``catalog``)."""

    card: str
    seed: int
    rows: tuple[PolicyRow, ...]
    preset: str = ""
    catalog: str = ""

    @property
    def best(self) -> PolicyRow:
        """The playable policy of highest value (the shipped one on a tie; not hindsight)."""
        return max((r for r in self.rows if r.policy != HINDSIGHT),
                   key=lambda r: (r.value, r.policy == SHIPPED))

    @property
    def limited_by_bots(self) -> bool:
        """Whether some simple policy beats the shipped one significantly."""
        return any(r.beats_shipped for r in self.rows)

    @property
    def beating(self) -> tuple[PolicyRow, ...]:
        """The playable policies significantly better than the shipped one, best first."""
        return tuple(sorted((r for r in self.rows if r.beats_shipped), key=lambda r: -r.gap))

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card, "seed": self.seed, "preset": self.preset,
                "catalog": self.catalog, "best": self.best.policy,
                "limited_by_bots": self.limited_by_bots,
                "rows": [r.as_dict() for r in self.rows]}


class GapFileError(ValueError):
    """A ``saki bots gap --format json`` file that cannot be read back."""


def _number(x: Any) -> float:
    return math.nan if x is None else float(x)


def load_gaps(path: Path) -> list[PolicyGap]:
    """The gaps a ``saki bots gap --format json`` file holds (one card's, or ``--all``'s
    list); :class:`GapFileError` with one line naming the file when it is not one."""
    fix = "write it with 'saki bots gap CARD --format json > FILE' (or --all)"
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GapFileError(f"{path}: not a readable JSON file ({exc}); {fix}") from None
    docs = doc if isinstance(doc, list) else [doc]
    out = []
    try:
        for d in docs:
            rows = tuple(PolicyRow(str(r["policy"]), int(r["hands"]), int(r["matches"]),
                                   float(r["value"]), _number(r["value_lo"]),
                                   _number(r["value_hi"]), float(r["gap"]),
                                   _number(r["gap_lo"]), _number(r["gap_hi"]))
                         for r in d["rows"])
            out.append(PolicyGap(str(d["card"]), int(d["seed"]), rows,
                                 str(d.get("preset", "")), str(d.get("catalog", ""))))
    except (KeyError, TypeError, ValueError) as exc:
        raise GapFileError(f"{path}: not the policy gap of a card (missing or bad "
                           f"{exc}); {fix}") from None
    return out


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def card_policies(catalog: Catalog, card: str) -> tuple[str, ...]:
    """The policies worth comparing for a card: the shipped one, ``no-incentives`` when its
    effects declare tile incentives, ``always`` and ``never`` when one offers an optional
    choice; only the shipped one for a card with neither."""
    out = [SHIPPED]
    if card_incentives(card) is not None or any(
            inc is not None for _, inc in side_incentives(card)):
        out.append("no-incentives")
    kinds = [e.kind for e in catalog.card(card).effects]
    if any(EFFECTS[k].optional for k in kinds if k in EFFECTS):
        out += ["always", "never"]
    if len(out) > 1:
        out.append(HINDSIGHT)
    return tuple(out)


def gap_cards(catalog: Catalog, deck: Sequence[str]) -> list[str]:
    """The cards of ``deck`` with a choice or an incentive (``--all``)."""
    return [c for c in deck if len(card_policies(catalog, c)) > 1]


def _per_match(pairs: pl.DataFrame, matches: int) -> dict[int, tuple[float, int]]:
    """Each match's sum of paired values and its hands (the first ``matches`` matches)."""
    rows = pairs.filter(pl.col("match_id") < matches)
    value = pair_value_expr(rows.columns).alias("value")
    per = rows.group_by("match_id").agg(value.sum().alias("total"),
                                        pl.len().alias("hands"))
    return {int(m): (float(t), int(n)) for m, t, n in per.iter_rows()}


def hindsight_matches(played: Sequence[dict[int, tuple[float, int]]]
                      ) -> dict[int, tuple[float, int]]:
    """On each match all the policies played, the (sum, hands) of the one with the highest
    value per hand there (the first on a tie): the best option on each deal, in hindsight."""
    common = set(played[0]).intersection(*played[1:]) if played else set()
    out = {}
    for m in sorted(common):
        out[m] = max((p[m] for p in played), key=lambda th: th[0] / th[1] if th[1] else -math.inf)
    return out


def value_interval(per_match: dict[int, tuple[float, int]], seed: int,
                   resamples: int = RESAMPLES) -> tuple[float, float, float]:
    """The value (points per hand) over the matches and its 95% percentile interval from
    ``resamples`` bootstrap resamples of the matches."""
    empty: dict[int, tuple[float, int]] = {m: (0.0, n) for m, (_, n) in per_match.items()}
    return paired_gap(per_match, empty, seed, resamples)


def paired_gap(policy: dict[int, tuple[float, int]], shipped: dict[int, tuple[float, int]],
               seed: int, resamples: int = RESAMPLES) -> tuple[float, float, float]:
    """The difference of two values (points per hand) over the matches both played, and its
    95% percentile interval from ``resamples`` paired bootstrap resamples of the matches."""
    matches = sorted(set(policy) & set(shipped))
    if not matches:
        return math.nan, math.nan, math.nan
    a = [policy[m] for m in matches]
    b = [shipped[m] for m in matches]

    def diff(idx: Sequence[int]) -> float:
        na = sum(a[i][1] for i in idx)
        nb = sum(b[i][1] for i in idx)
        if not na or not nb:
            return math.nan
        return sum(a[i][0] for i in idx) / na - sum(b[i][0] for i in idx) / nb

    point = diff(range(len(matches)))
    rng = random.Random(seed)
    n = len(matches)
    stats = sorted(d for d in (diff([rng.randrange(n) for _ in range(n)])
                               for _ in range(resamples)) if math.isfinite(d))
    if len(stats) < 2:
        return point, math.nan, math.nan
    lo = stats[int(0.025 * (len(stats) - 1))]
    hi = stats[int(math.ceil(0.975 * (len(stats) - 1)))]
    return point, lo, hi


def policy_gap(preset: Preset, catalog: Catalog, card: str, policies: Sequence[str], *,
               seed: int = 1, blocks: int = DEFAULT_BLOCKS, out: Path | None = None,
               executor: LocalExecutor | DaskExecutor | None = None, workers: int | None = None
               ) -> PolicyGap:
    """Play ``card``'s trial under each policy on the same ``blocks`` blocks of matches and
    compare each with the shipped one."""
    for p in policies:
        if p not in POLICIES and p != HINDSIGHT:
            raise SimError(f"--policies: unknown policy {p!r} (known: "
                           f"{', '.join([*POLICIES, HINDSIGHT])})")
    if HINDSIGHT in policies and len({p for p in policies} - {SHIPPED, HINDSIGHT}) < 1:
        raise SimError("--policies: hindsight chooses among played policies: name at least "
                       "one besides shipped (e.g. --policies never,hindsight)")
    if blocks < 1:
        raise SimError(f"--matches must be at least one block of {preset.players}")
    names = [SHIPPED, *(p for p in policies if p not in (SHIPPED, HINDSIGHT))]
    if executor is None:
        return with_own_pool(workers, lambda pool: policy_gap(
            preset, catalog, card, policies, seed=seed, blocks=blocks, out=out,
            executor=pool))
    base = Path(out) if out is not None else \
        RUNS_DIR / f"gap-{preset.name}-{catalog.version}-s{seed}"
    per_policy: dict[str, tuple[dict[int, tuple[float, int]], Any]] = {}
    for name in names:
        config = TrialConfig(preset=preset, catalog=catalog, seed=seed, cards=(card,),
                             replayed_blocks=None,  # the gap reads the pairs of every match
                             holder_policy="" if name == SHIPPED else name)
        folder = base / name
        previous = _prepare(folder, config, False)
        _play(folder, config, executor, {card: blocks}, {card: blocks}, None)
        _write_doc(folder, config, previous, [{"round": 0, "added": {card: blocks},
                                               "blocks": {card: blocks}}], "complete")
        pairs = load_shards(card_folder(folder, card), PAIRS)
        progress = measure(pairs, card, blocks, config.block)
        per_policy[name] = (_per_match(pairs, blocks * config.block), progress)
    shipped = per_policy[SHIPPED][0]
    rows = []
    for name in names:
        matches, progress = per_policy[name]
        gap = (0.0, 0.0, 0.0) if name == SHIPPED else paired_gap(matches, shipped, seed)
        rows.append(PolicyRow(name, progress.hands, progress.matches, progress.value,
                              progress.lo, progress.hi, *gap))
    if HINDSIGHT in policies:
        rows.append(hindsight_row([per_policy[n][0] for n in names], shipped, seed))
    return PolicyGap(card, seed, tuple(rows), preset.name, catalog.version)


def hindsight_row(played: Sequence[dict[int, tuple[float, int]]],
                  shipped: dict[int, tuple[float, int]], seed: int) -> PolicyRow:
    """The hindsight row: the best played policy on each match, its value with its interval
    and its paired gap to the shipped policy."""
    best = hindsight_matches(played)
    value, lo, hi = value_interval(best, seed)
    return PolicyRow(HINDSIGHT, sum(n for _, n in best.values()), len(best), value, lo, hi,
                     *paired_gap(best, shipped, seed))
