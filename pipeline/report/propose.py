"""``saki propose``: from the verdicts of a catalog to a proposed catalog whose cards are all
inside the balance band, proved on seeds the search never saw.

The steps (docs/propose.md says why this search and what it costs):

1. **Verdicts** of the catalog: a racing trial of the cards on the search seed.
2. **Search** per card out of the band (:mod:`pipeline.analytics.proposal`): each of its
   numbers played at its value and one step each way on the same matches (a sweep,
   :func:`pipeline.sim.tune.run_tune`), the curve fitted, the smallest change predicted to
   land the card inside the band chosen; locked cards and cards past ``--max-changes`` are
   left alone and listed.
3. **Joint round**: the proposed deck's racing trial on the search seed of the changed cards
   (:func:`joint_cards`), the others' first measurements carried: every card judged against
   the proposed deck's own band (the deck average and the picks move with
   the changes); the cards still out are searched once more from the proposal. Two rounds at
   most.
4. **Confirmation** on a fresh seed (:attr:`ProposeConfig.confirm_seed`): the final deck's
   racing trial and its verdicts. ``confirmed`` only if every changed card is inside (or at
   an edge) there and no card that was inside left the band.

Everything played goes into the proposal folder, one trial folder per step, each resumable, so
a killed proposal resumes with the same command; every decision is a function of the trials'
tables, which do not depend on the number of workers, so neither does the proposal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.analytics.proposal import (
    Axis,
    CardSearch,
    Change,
    Point,
    axes_of,
    search_card,
    target_of,
    zeroes,
)
from pipeline.analytics.verdict import (
    card_values,
    folder_evidence,
    joint_verdict_table,
    verdict_table,
)
from pipeline.cards.catalog import Catalog, load_catalog
from pipeline.cards.writer import catalog_toml, with_card
from pipeline.datafiles import USER_DATA, show_value
from pipeline.rules.preset import Preset
from pipeline.sim import SimError
from pipeline.sim.executor import DaskExecutor, LocalExecutor, with_own_pool
from pipeline.sim.output_lock import OutputLock
from pipeline.sim.run import _canonical, atomic_write, code_version, source_hash
from pipeline.sim.trial import TrialConfig, TrialRound, run_trial
from pipeline.sim.tune import Lever, TuneConfig, run_tune, slug_of
from pipeline.verdicts import RACE_BUDGET_HANDS, BandSpec

PROPOSALS_DIR = USER_DATA / "proposals"
PROPOSE_FILE = "propose.json"
CONFIRM_OFFSET = 1_000_003   # the confirmation's seed: the search seed plus this
ROUNDS = 2                   # searches at most: the first, and one after the joint round
VERDICT_BUDGET = RACE_BUDGET_HANDS  # hands of a racing trial of the deck (saki balance's)
PROBE_BUDGET = 1_500         # hands of trial matches per value a search plays
PROBE_TARGET = 150.0         # ... or fewer, once the value's half-width is this (points)
MAX_STEP = 3                 # steps of saki tune a number may move, by default
OUT_OF_BAND = ("above", "below")
IN_BAND = ("inside", "at_edge")


@dataclass(frozen=True)
class ProposeConfig:
    """What a proposal plays and may change."""

    preset: Preset
    catalog: Catalog
    seed: int
    cards: tuple[str, ...]
    band: BandSpec
    whole_deck: bool = True
    measure: str = "points"
    locks: tuple[str, ...] = ()
    max_changes: int | None = None
    max_step: int = MAX_STEP
    bots: tuple[str, str, str, str] = ("heuristic",) * 4
    verdict_budget: int = VERDICT_BUDGET
    probe_budget: int = PROBE_BUDGET
    probe_target: float = PROBE_TARGET

    def __post_init__(self) -> None:
        if self.max_step < 1:
            raise SimError(f"--max-step must be at least 1 step, got {self.max_step}")
        if self.max_changes is not None and self.max_changes < 0:
            raise SimError(f"--max-changes must be 0 or more cards, got {self.max_changes}")
        for card in self.locks:
            if card not in self.catalog.ids:
                raise SimError(f"--lock: {card!r} is not a card of catalog "
                               f"{self.catalog.version}; 'saki cards list' shows the ids")

    @property
    def confirm_seed(self) -> int:
        """A seed the search never plays, derived from the search's alone."""
        return self.seed + CONFIRM_OFFSET

    def identity(self) -> dict[str, Any]:
        """What decides the proposal (its folder's record; equal identities, equal results)."""
        b = self.band
        return {"kind": "proposal", "preset": self.preset.to_dict(),
                "catalog": {"version": self.catalog.version,
                            "content_hash": self.catalog.content_hash()},
                "seed": self.seed, "confirm_seed": self.confirm_seed, "cards": list(self.cards),
                "band": {"lo": b.lo, "hi": b.hi, "threshold": b.threshold, "zone": b.zone},
                "measure": self.measure, "locks": sorted(self.locks),
                "max_changes": self.max_changes, "max_step": self.max_step,
                "bots": list(self.bots), "verdict_budget": self.verdict_budget,
                "probe_budget": self.probe_budget, "probe_target": self.probe_target}

    def default_out(self) -> Path:
        """``data/proposals/<catalog>-<preset>-s<seed>-<digest>``: the digest of the identity,
        so another configuration never meets this one's trials."""
        digest = hashlib.sha256(_canonical(self.identity()).encode()).hexdigest()[:8]
        return PROPOSALS_DIR / f"{self.catalog.version}-{self.preset.name}-s{self.seed}-{digest}"


@dataclass
class ProposeResult:
    """A finished proposal: its record (``doc``, what the patch notes show), the final
    catalog (loaded from the folder's ``proposal.toml``) and the folder."""

    out: Path
    doc: dict[str, Any]
    catalog: Catalog
    hands: int = 0
    searches: dict[str, CardSearch] = field(default_factory=dict)


def run_propose(config: ProposeConfig, out: Path | None = None, *,
                executor: LocalExecutor | DaskExecutor | None = None,
                workers: int | None = None, say: Callable[[str], None] | None = None,
                on_match: Callable[[int], None] | None = None,
                on_round: Callable[[TrialRound], None] | None = None) -> ProposeResult:
    """Play the proposal into ``out`` (default :meth:`ProposeConfig.default_out`), reusing
    every trial already there; write ``propose.json`` and ``proposal.toml`` there."""
    if executor is None:
        return with_own_pool(workers, lambda pool: run_propose(
            config, out, executor=pool, say=say, on_match=on_match, on_round=on_round))
    out = Path(out) if out is not None else config.default_out()
    if out.exists() and not out.is_dir():
        raise SimError(f"--folder {out} is a file, not a folder; choose another --folder")
    with OutputLock(out, what="proposal", option="--folder"):
        _check_record(out, config)
        return _Proposal(config, out, executor, say or (lambda _t: None), on_match,
                         on_round).run()


def _check_record(out: Path, config: ProposeConfig) -> None:
    path = out / PROPOSE_FILE
    if not path.is_file():
        if out.is_dir() and any(p.name != ".saki-lock" for p in out.iterdir()):
            raise SimError(f"--folder {out} is not empty and holds no {PROPOSE_FILE}; choose "
                           "another --folder (a proposal writes a folder of its own)")
        return
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SimError(f"{path}: unreadable ({exc}); delete the folder or choose another "
                       "--folder") from None
    there = doc.get("config", {})
    played_by = (doc.get("code") or {}).get("source_hash")
    if played_by is not None and played_by != source_hash():
        raise SimError(f"--folder {out} holds a proposal played by another version of the "
                       f"lab's code ({played_by} there, {source_hash()} here): its trials "
                       "cannot be resumed; choose another --folder, or delete that one")
    mine = config.identity()
    differ = [k for k in mine if _canonical(there.get(k)) != _canonical(mine[k])]
    if differ:
        raise SimError(f"--folder {out} holds a proposal of another configuration "
                       f"({', '.join(differ)} differ); choose another --folder")


class _Proposal:
    """One proposal's steps over its folder (see the module docstring)."""

    def __init__(self, config: ProposeConfig, out: Path,
                 executor: LocalExecutor | DaskExecutor, say: Callable[[str], None],
                 on_match: Callable[[int], None] | None,
                 on_round: Callable[[TrialRound], None] | None) -> None:
        self.config, self.out, self.executor, self.say = config, out, executor, say
        self.on_match, self.on_round = on_match, on_round
        self.hands = 0        # played by this command
        self.measured = 0     # of trial matches read, every step (reused ones too)

    def run(self) -> ProposeResult:
        c = self.config
        self._record("running", {})
        band = c.band
        changes: dict[str, Change] = {}
        searches: dict[str, CardSearch] = {}
        skipped: dict[str, str] = {}
        rounds: list[dict[str, Any]] = []
        before: list[dict[str, Any]] = []
        catalog = c.catalog
        for r in range(1, ROUNDS + 1):
            catalog = self._catalog(self.out / f"round-{r}" / "catalog.toml", changes,
                                    f"{c.catalog.version}~proposal-round-{r}")
            folder = self.out / f"round-{r}" / "verdicts"
            if r == 1:
                table = self._verdicts(catalog, c.seed, band, folder,
                                       f"round 1 (the catalog's verdicts, seed {c.seed})")
            else:
                table = self._joint(catalog, band, folder, before, changes, r)
            rows = table.to_dicts()
            if r == 1:
                before = rows
                band = self._fixed_band(band, rows)
            out_rows = sorted((x for x in rows if x["verdict"] in OUT_OF_BAND),
                              key=lambda x: -_distance(x))
            rounds.append({"round": r, "seed": c.seed, "catalog": catalog.version,
                           "out_of_band": [x["card"] for x in out_rows],
                           "verdicts": {x["card"]: x["verdict"] for x in rows}})
            if not out_rows:
                break
            found_new = False
            for x in out_rows:
                card = x["card"]
                why = self._left_alone(card, changes)
                if why:
                    skipped[card] = why
                    continue
                s = self._search(catalog, x, r)
                searches[card] = s
                if s.change is not None:
                    # searched again after the joint round: on the catalog with its earlier
                    # change made, which the new one keeps (else the proposal would drop it)
                    earlier = changes.get(card)
                    changes[card] = s.change if earlier is None else s.change.on_top_of(earlier)
                    skipped.pop(card, None)
                    found_new = True
            if not found_new:
                break
        final = self._catalog(self.out / "proposal.toml", changes, f"{c.catalog.version}~proposal")
        confirm = None
        if changes:
            confirm = self._verdicts(final, c.confirm_seed, band, self.out / "confirm",
                                     f"confirmation (fresh seed {c.confirm_seed})").to_dicts()
        doc = self._summary(before, confirm, changes, searches, skipped, rounds, band)
        self._record("complete", doc)
        return ProposeResult(self.out, doc, final, self.hands, searches)

    # --- steps ---------------------------------------------------------------------------

    def _catalog(self, path: Path, changes: dict[str, Change], version: str) -> Catalog:
        """The starting catalog with ``changes``, written to ``path`` (a trial plays a file)
        and loaded back from it."""
        catalog = self.config.catalog
        if changes:
            catalog = apply_changes(catalog, changes.values(), version)
        text = catalog_toml(catalog) if changes else \
            self.config.catalog.path.read_text(encoding="utf-8")
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic_write(path, text.encode("utf-8"))
        return load_catalog(str(path))

    def _verdicts(self, catalog: Catalog, seed: int, band: BandSpec, folder: Path,
                  what: str) -> Any:
        c = self.config
        self.say(f"{what}: a racing trial of {len(c.cards)} card(s) in {folder}")
        self._race(catalog, seed, band, folder, c.cards)
        table = verdict_table(folder, band, c.cards, measure=c.measure)
        self.measured += int(table["hands"].sum())
        return table

    def _race(self, catalog: Catalog, seed: int, band: BandSpec, folder: Path,
              cards: tuple[str, ...], carried: Sequence[Any] = ()) -> None:
        """A racing trial of ``cards`` into ``folder`` (``carried``: the deck's other cards'
        measurements, :func:`pipeline.sim.trial.run_trial`)."""
        c = self.config
        trial = TrialConfig(preset=c.preset, catalog=catalog, seed=seed, cards=cards,
                            bots=c.bots, budget_hands=c.verdict_budget, band=band,
                            measure=c.measure)
        summary = run_trial(trial, folder, executor=self.executor, say=self.on_round,
                            on_match=self.on_match, carried=carried)
        self.hands += summary.hands_played

    def _joint(self, catalog: Catalog, band: BandSpec, folder: Path,
               before: Sequence[dict[str, Any]], changes: dict[str, Change], r: int) -> Any:
        """The joint round: a racing trial of the proposed deck's changed cards
        (:func:`joint_cards`); the others' first measurements are carried, and every card
        judged as one deck (its average card, Benjamini-Hochberg)."""
        c = self.config
        played = joint_cards(before, changes)
        carried = tuple(x["card"] for x in before if x["card"] not in played)
        first = self.out / "round-1" / "verdicts"
        self.say(f"round {r} (the joint round, seed {c.seed}): {len(played)} card(s) played "
                 f"again (the changed ones), {len(carried)} carried from round 1 and judged "
                 "again against the proposed deck's band")
        evidence = folder_evidence(first, carried, c.measure) if carried else []
        self._race(catalog, c.seed, band, folder, played, evidence)
        table = joint_verdict_table([(folder, played), (first, carried)], band, c.measure)
        self.measured += int(table.filter(pl.col("card").is_in(played))["hands"].sum())
        return table

    def _fixed_band(self, band: BandSpec, rows: Sequence[dict[str, Any]]) -> BandSpec:
        """With ``--only`` and the deck's band, the band the catalog's verdicts were judged
        on, kept fixed: the other trials play only those cards, so no deck to draw it from."""
        if band.absolute or self.config.whole_deck:
            return band
        edges = next(((x["band_lo"], x["band_hi"]) for x in rows
                      if x["band_lo"] is not None and x["band_hi"] is not None), None)
        if edges is None:
            raise SimError(f"--only without --band needs a trial of the whole deck of catalog "
                           f"{self.config.catalog.version} to draw the band from (run 'saki "
                           "trial' first), or give the band, e.g. --band 0:900")
        self.say(f"the band is kept at {edges[0]:+,.0f} to {edges[1]:+,.0f} (the deck's, from "
                 "the stored deck trial)")
        return replace(band, lo=float(edges[0]), hi=float(edges[1]))

    def _left_alone(self, card: str, changes: dict[str, Change]) -> str:
        c = self.config
        if card in c.locks:
            return "locked (--lock)"
        if c.max_changes is not None and card not in changes and len(changes) >= c.max_changes:
            return f"left out: --max-changes {c.max_changes} cards already changed"
        return ""

    def _search(self, catalog: Catalog, row: dict[str, Any], r: int) -> CardSearch:
        c = self.config
        card = catalog.card(row["card"])
        axes = axes_of(card, c.max_step, origin=c.catalog.card(card.id))
        target = target_of(row["band_lo"], row["band_hi"], c.band.zone)
        self.say(f"round {r}: searching {card.name} ({row['verdict']} the band, "
                 f"{row['value']:+,.0f}): {len(axes)} number(s), aiming at "
                 f"{target[0]:+,.0f} to {target[1]:+,.0f}")
        folder = self.out / f"round-{r}" / "levers" / card.id

        def play(axis: Axis, values: Sequence[Any]) -> dict[str, Point]:
            return self._probe(catalog, axis, values, (row["band_lo"], row["band_hi"]), folder)

        def play_pair(a: Change, b: Change) -> Point:
            return self._probe_pair(catalog, (a, b), folder)

        found = search_card(card, axes, target, play, (row["band_lo"], row["band_hi"]),
                            play_pair)
        if found.change is not None:
            ch = found.change
            moves = " and ".join(f"{p.effect}.{p.param} {show_value(p.current)} -> "
                                 f"{show_value(p.value)}" for p in ch.parts)
            self.say(f"round {r}: {card.name}: {moves} (predicted {ch.predicted:+,.0f})")
        else:
            self.say(f"round {r}: {card.name}: {found.note}")
        return found

    def _probe(self, catalog: Catalog, axis: Axis, values: Sequence[Any],
               band: tuple[float, float], folder: Path) -> dict[str, Point]:
        """The card measured at each value of one number, on the same matches (a sweep)."""
        c = self.config
        lever = Lever(axis.card, axis.effect, axis.param, tuple(values), axis.present)
        self.say(f"  {axis.address}: playing {', '.join(show_value(v) for v in values)}")
        tune = TuneConfig(preset=c.preset, catalog=catalog, seed=c.seed, card=axis.card,
                          levers=(lever,), bots=c.bots, target=c.probe_target,
                          budget_hands=c.probe_budget)
        before = _played(folder)
        run_tune(tune, folder, band=band, executor=self.executor, on_match=self.on_match)
        self.hands += _played(folder) - before
        out = {}
        for v in values:
            row = card_values(folder / "values" / slug_of(lever, v), (axis.card,),
                              c.measure).row(0, named=True)
            out[show_value(v)] = Point(row["value"], row["value_lo"], row["value_hi"])
            self.measured += int(row["hands"])
        return out

    def _probe_pair(self, catalog: Catalog, pair: Sequence[Change], folder: Path) -> Point:
        """The card measured with two of its numbers changed together, on the sweeps'
        matches (the same seed: common random numbers)."""
        c = self.config
        card = pair[0].card
        slug = "+".join(slug_of(Lever(p.card, p.effect, p.param, (p.value,), None), p.value)
                         for p in pair)
        both = apply_changes(catalog, pair, f"{catalog.version}~{slug}")
        path = folder / "pairs" / f"{slug}.toml"
        text = catalog_toml(both)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic_write(path, text.encode("utf-8"))
        both_values = " and ".join(f"{p.effect}.{p.param} = {show_value(p.value)}" for p in pair)
        self.say(f"  {card}: playing {both_values} together")
        trial = TrialConfig(preset=c.preset, catalog=load_catalog(str(path)), seed=c.seed,
                            cards=(card,), bots=c.bots, target=c.probe_target,
                            budget_hands=c.probe_budget)
        summary = run_trial(trial, folder / "pairs" / slug, executor=self.executor,
                            on_match=self.on_match)
        self.hands += summary.hands_played
        row = card_values(folder / "pairs" / slug, (card,), c.measure).row(0, named=True)
        self.measured += int(row["hands"])
        return Point(row["value"], row["value_lo"], row["value_hi"])

    # --- the record ----------------------------------------------------------------------

    def _summary(self, before: list[dict[str, Any]], confirm: list[dict[str, Any]] | None,
                 changes: dict[str, Change], searches: dict[str, CardSearch],
                 skipped: dict[str, str], rounds: list[dict[str, Any]], band: BandSpec
                 ) -> dict[str, Any]:
        c = self.config
        was = {x["card"]: x for x in before}
        now = {x["card"]: x for x in confirm or []}
        left = [card for card, x in now.items() if card not in changes
                and was.get(card, {}).get("verdict") in IN_BAND and x["verdict"] in OUT_OF_BAND]
        missed = [card for card in changes if now.get(card, {}).get("verdict") not in IN_BAND]
        if not changes:
            status = ("nothing to change" if not any(x["verdict"] in OUT_OF_BAND
                                                     for x in before) else "no proposal")
        else:
            status = "confirmed" if not left and not missed else "not confirmed"
        rework = []
        for card, s in searches.items():
            if card not in changes:
                rework.append({"card": card, "name": c.catalog.card(card).name,
                               "why": s.note, "tried": _tried(s)})
        return {
            "status": status, "seed": c.seed, "confirm_seed": c.confirm_seed,
            "band": {"lo": band.lo, "hi": band.hi, "threshold": band.threshold,
                     "zone": band.zone, "unit": band.unit, "absolute": band.absolute},
            "changes": [_change_doc(c.catalog, ch, was.get(card), now.get(card),
                                    searches.get(card)) for card, ch in changes.items()],
            "rework": rework,
            "left_alone": [{"card": k, "name": c.catalog.card(k).name, "why": v}
                           for k, v in skipped.items()],
            "left_the_band": left, "missed": missed, "rounds": rounds,
            "undecided": [x["card"] for x in before if x["verdict"] == "undecided"],
            "cards": [_card_row(x, now.get(x["card"])) for x in before],
            "cost": {"hands_played_now": self.hands, "hands_total": self.measured},
            "config": c.identity(),
        }

    def _record(self, status: str, doc: dict[str, Any]) -> None:
        body = {"kind": "proposal", "status": status, "config": self.config.identity(),
                "code": code_version(),
                **({"result": doc} if doc else {})}
        atomic_write(self.out / PROPOSE_FILE,
                     (json.dumps(body, indent=2, default=str) + "\n").encode())


def joint_cards(before: Sequence[dict[str, Any]], changes: dict[str, Change]
                ) -> tuple[str, ...]:
    """The cards a joint round plays again: the changed ones. Every other card is carried
    from the first round and judged again, with its own data, against the proposed deck's
    band (which moves with the changes): played again on the same seed it would give nearly
    the same data, since only its opponents' teams changed; that effect is what the
    confirmation, the whole deck on fresh seeds, measures."""
    return tuple(x["card"] for x in before if x["card"] in changes)


def apply_changes(catalog: Catalog, changes: Sequence[Change] | Any, version: str) -> Catalog:
    """The catalog with every change made, as ``version``."""
    out = catalog
    for change in changes:
        for ch in change.parts:
            out = with_card(out, out.card(ch.card).with_param(ch.effect, ch.param, ch.value),
                            version)
    return replace(out, version=version)


def _played(folder: Path) -> int:
    """Hands of trial matches in a sweep folder's shards (their manifests' counts)."""
    total = 0
    for path in folder.glob("values/*/cards/*/manifest/part-*.json"):
        try:
            tables = json.loads(path.read_text()).get("tables", {})
            total += int((tables.get("pairs") or {}).get("rows") or 0)
        except (OSError, ValueError, TypeError):
            continue
    return total


def _distance(row: dict[str, Any]) -> float:
    v, lo, hi = row["value"], row["band_lo"], row["band_hi"]
    if v is None or lo is None or hi is None:
        return 0.0
    return max(lo - v, v - hi, 0.0)


def _tried(s: CardSearch) -> list[dict[str, Any]]:
    return [{"address": address, "crossing": s.crossings.get(address),
             "values": [{"value": k, "measured": p.value, "lo": p.lo, "hi": p.hi}
                        for k, p in sorted(points.items(), key=lambda kv: _key(kv[0]))]}
            for address, points in s.tried.items()]


def _key(text: str) -> Any:
    try:
        return (0, float(text))
    except ValueError:
        return (1, text)


def _change_doc(catalog: Catalog, ch: Change, was: dict[str, Any] | None,
                now: dict[str, Any] | None, s: CardSearch | None) -> dict[str, Any]:
    old = catalog.card(ch.card)
    new = old
    for part in ch.parts:
        new = new.with_param(part.effect, part.param, part.value)
    return {"card": ch.card, "name": old.name, "effect": ch.effect, "param": ch.param,
            "from": ch.current, "to": ch.value, "steps": ch.steps,
            "also": [{"effect": a.effect, "param": a.param, "from": a.current, "to": a.value,
                      "steps": a.steps} for a in ch.parts[1:]],
            "old_text": old.text, "new_text": new.text,
            "predicted": ch.predicted, "predicted_lo": ch.predicted_lo,
            "predicted_hi": ch.predicted_hi,
            "before": _value_doc(was), "after": _value_doc(now),
            "tried": _tried(s) if s is not None else [],
            "alternatives": [{"effect": a.effect, "param": a.param, "from": a.current,
                              "to": a.value, "steps": a.steps, "predicted": a.predicted,
                              "predicted_lo": a.predicted_lo, "predicted_hi": a.predicted_hi,
                              "switches_off": zeroes(a.current, a.value)}
                             for a in (s.alternatives if s is not None else [])]}


def _value_doc(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {k: row.get(k) for k in ("value", "value_lo", "value_hi", "verdict", "band_lo",
                                    "band_hi", "matches")}


def _card_row(was: dict[str, Any], now: dict[str, Any] | None) -> dict[str, Any]:
    return {"card": was["card"], "name": was["name"], "before": _value_doc(was),
            "after": _value_doc(now)}


__all__ = ["CONFIRM_OFFSET", "PROPOSALS_DIR", "ProposeConfig", "ProposeResult",
           "apply_changes", "joint_cards", "run_propose"]


PROJECTED_OUT_CARDS = 8     # cards out of the band the plan assumes for a whole deck (1.2: 6)
PROJECTED_NUMBERS = 2       # numbers a card has, on average, and values played per number:
PROJECTED_VALUES = 4        # its value, a step each way, one value beyond


def plan_words(config: ProposeConfig, workers: int | None = None) -> str:
    """What the proposal will play and how long it takes at most on 2 quiet cores (racing
    trials stop as soon as every card has a verdict, so usually less)."""
    import os

    from pipeline.report.balance import TRIAL_HANDS_PER_SECOND, _minutes

    cores = min(workers or os.cpu_count() or 2, os.cpu_count() or 2)
    out_cards = min(len(config.cards), PROJECTED_OUT_CARDS)
    from pipeline.report.balance import HANDS_PER_MATCH
    from pipeline.verdicts import LOOK_GRID

    last = LOOK_GRID[-1] * config.preset.players
    per_trial = min(config.verdict_budget, len(config.cards) * last * HANDS_PER_MATCH)
    verdicts = (ROUNDS + 1) * per_trial
    probes = ROUNDS * out_cards * PROJECTED_NUMBERS * PROJECTED_VALUES * config.probe_budget
    seconds = (verdicts + probes) / (TRIAL_HANDS_PER_SECOND * cores / 2)
    return (f"will play: racing trials of {len(config.cards)} card(s) against "
            f"{config.band.describe()} on seed {config.seed} (the verdicts, then the joint "
            f"round of the changed cards) and on the fresh seed "
            f"{config.confirm_seed} (the confirmation), at most "
            f"{config.verdict_budget:,} hands each; a search of each card out of the band, at "
            f"most {config.probe_budget:,} hands per value played (about "
            f"{PROJECTED_NUMBERS * PROJECTED_VALUES} values a card, {out_cards} card(s) "
            f"assumed out): about {_minutes(seconds)} at most on {cores} "
            f"core{'s' if cores > 1 else ''}")
