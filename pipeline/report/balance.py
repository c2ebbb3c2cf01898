"""The one-command balance job: simulate a card preset, compute its statistics, write the report.

:func:`run_balance` reuses the simulator (:func:`pipeline.sim.run.simulate`, so a killed job
resumes where it stopped when started again with the same options) and the analytics, and
writes the HTML report. With a second preset or catalog it plays a second run and writes a
comparison report: the second run is the reference (A) the main run (B) is compared against.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.cards.catalog import load_catalog
from pipeline.cards.table import check_deck
from pipeline.rules.preset import load_preset
from pipeline.sim import SimError
from pipeline.verdicts import RACE_BUDGET_HANDS

DEFAULT_PRESET = "cards-hanchan"
DEFAULT_CATALOG = "1.2"
# A few minutes on a 2-core laptop. Measured with the defaults (cards-hanchan, 4-card teams, 16
# cards implemented): 400 matches are 4,220 hands, played in 349 s by two workers (12 hands/s)
# while the machine's two cores were shared with other jobs (load average 3 to 7); on an idle
# machine the rate is about twice that. 13 of the 16 characters got 200 or more hands, the
# frequently picked ones 2,000 or more, with swing intervals of about +-350 points per hand.
DEFAULT_GAMES = 400
DEFAULT_SEED = 1
# The card trials of the job: every card of the deck, first round only at this budget (8
# matches a card, about 4,700 hands and as many replays; about 1 minute on 2 cores), which
# gives every card a value with a half-width of some 600-1,000 points per hand. A larger
# budget (saki balance --trial-budget 50000) or a smaller target narrows them.
DEFAULT_TRIAL_BUDGET = 5000
DEFAULT_TRIAL_TARGET = 150.0
# The job's default decides: racing trials until every card has a verdict, within the racing
# trials' default budget (pipeline.verdicts.RACE_BUDGET_HANDS). Each trial match is also played
# to its end without the ability (benchmarks/bench_whole_match.py --cost-only). Measured on 2
# quiet cores (2026-12-06, the default job, seed 1, a card's hands replayed on its first 64
# matches only, the looks about x1.41 apart): every card decided in 120,592 trial hands in 15
# rounds at 225.5 and 226.3 hands/s (two runs), 9 min 23 s and 9 min 31 s in all. (Before,
# every hand replayed and the looks doubling: 133,753 hands at 194.7 hands/s, 12 min 8 s.)
DEFAULT_RACE_BUDGET = RACE_BUDGET_HANDS
TRIAL_HANDS_PER_SECOND = 220.0   # on 2 quiet cores, for the projected time
RUN_HANDS_PER_SECOND = 630.0
HANDS_PER_MATCH = 10.9           # cards-hanchan
# --quick: a preview of about a minute that decides nothing
QUICK_GAMES = 100
QUICK_TRIAL_BUDGET = 5000


@dataclass(frozen=True)
class BalancePlan:
    """What the job will play: the main run and, for a comparison, the reference run."""

    main: Any                  # pipeline.sim.run.RunConfig
    reference: Any = None      # RunConfig or None
    runs_dir: Path | None = None
    trial: Any = None          # pipeline.sim.trial.TrialConfig of the main run, or None
    quick: bool = False        # a preview: decides nothing

    def projection(self, workers: int | None = None) -> str:
        """What the job will play and about how long it takes (on 2 quiet cores, at most:
        a racing trial stops as soon as every card has a verdict)."""
        import os

        cores = min(workers or os.cpu_count() or 2, os.cpu_count() or 2)
        speed = cores / 2
        runs = [c for c in (self.main, self.reference) if c is not None]
        hands = sum(c.games for c in runs) * HANDS_PER_MATCH
        seconds = hands / (RUN_HANDS_PER_SECOND * speed)
        parts = [" and ".join(f"{c.games:,} matches of {c.preset.name} with catalog "
                              f"{c.catalog.version}" for c in runs)]
        if self.trial is not None:
            seconds += self.trial.budget_hands / (TRIAL_HANDS_PER_SECOND * speed)
            how = ("racing every card to a verdict against "
                   f"{self.trial.band.describe()}" if self.trial.racing else
                   f"to half-width {self.trial.target:g} points per hand")
            parts.append(f"card trials of {len(self.trial.cards)} cards {how}, at most "
                         f"{self.trial.budget_hands:,} hands")
        preview = "; a quick preview: it decides nothing" if self.quick else ""
        return (f"will play {'; '.join(parts)}: about {_minutes(seconds)} at most on "
                f"{cores} core{'s' if cores > 1 else ''}{preview}")

    def trial_folder(self) -> Path:
        """``<runs>/trial-<preset>-<catalog>-s<seed>``, as ``saki trial`` names it."""
        default = self.trial.default_out()
        return self.runs_dir / default.name if self.runs_dir is not None else default

    def folder(self, config: Any) -> Path:
        """``<runs>/<label>`` as ``saki simulate`` names it; when both runs share a label (a
        draft catalog that kept its version number) each gets its catalog's content hash
        (``...-s1-n400-catalog-1a2b3c4d``), or its full run id when the catalogs agree."""
        from pipeline.sim.run import RUNS_DIR

        ref = self.reference
        name = config.label
        if ref is not None and ref.label == self.main.label:
            hashes = {c.catalog.content_hash() for c in (ref, self.main)}
            name = (f"{config.label}-catalog-{config.catalog.content_hash()[:8]}"
                    if len(hashes) == 2 else config.run_id)
        return (self.runs_dir if self.runs_dir is not None else RUNS_DIR) / name

    def default_report(self) -> Path:
        """``reports/<run>.html``, or for a comparison a name that says what differs
        (``reports/cards-hanchan-1.2-vs-1.3-draft-s1-n400.html``)."""
        from pipeline.report.build import REPORTS_DIR, comparison_names, default_report_path

        ref = self.reference
        if ref is None:
            return default_report_path(self.folder(self.main))
        name = comparison_names(ref.identity(), self.main.identity())[0]
        return REPORTS_DIR / f"{name}.html"


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


@dataclass(frozen=True)
class BalanceResult:
    report: Path
    run: Path
    reference: Path | None
    summaries: tuple[str, ...]        # one line per simulated run
    nerfs: tuple[str, ...]            # names flagged as too strong
    buffs: tuple[str, ...]            # names flagged as too weak
    verdicts: Any = None              # the trial's verdict table (pipeline.analytics.verdict)
    worked: list[dict[str, Any]] = ()  # a comparison's cards on both sides (compare_verdicts)


def plan_balance(preset: str = DEFAULT_PRESET, cards: str | None = None,
                 games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED,
                 compare_preset: str | None = None, compare_cards: str | None = None,
                 runs_dir: Path | None = None, paired: bool = False, trials: bool = True,
                 trial_target: float | None = None,
                 trial_budget: int | None = None, band: Any = None,
                 quick: bool = False, measure: str = "points") -> BalancePlan:
    """Load and check everything before anything is played: presets, catalogs, decks.

    A mistake in the second preset or catalog is reported before the first run starts.
    ``paired`` also replays every hand with a character without its ability (the report's
    "with minus without ability" column; about twice the playing time). ``trials`` (default)
    also plays card trials of every card of the main run's deck (:mod:`pipeline.sim.trial`),
    racing every card to a verdict against ``band`` (a :class:`pipeline.verdicts.BandSpec`,
    default the deck's average card +/- 300) within ``trial_budget`` hands; a
    ``trial_target`` makes them a precision run instead (every half-width at most the
    target). ``quick`` is a preview of about a minute (fewer matches, a small precision
    trial) that decides nothing. ``measure``: what the verdicts are asked on (``points`` per
    hand over the whole match, or ``placement``). The report leads with the verdicts.
    """
    if quick:
        games = min(games, QUICK_GAMES)
        trial_target = trial_target or DEFAULT_TRIAL_TARGET
        trial_budget = trial_budget or QUICK_TRIAL_BUDGET
    racing = trial_target is None
    trial_budget = trial_budget or (DEFAULT_RACE_BUDGET if racing else DEFAULT_TRIAL_BUDGET)
    from pipeline.sim.run import RunConfig

    def config(preset_name: str, catalog_name: str | None) -> RunConfig:
        rules = load_preset(preset_name)
        if not rules.cards.enabled:
            raise SimError(f"preset {rules.name!r} plays without character cards; a balance "
                           "run needs a card preset such as cards-hanchan or cards-tonpuusen "
                           "(or a file that extends one)")
        catalog = load_catalog(catalog_name or rules.cards.catalog or DEFAULT_CATALOG)
        cfg = RunConfig(preset=rules, catalog=catalog, seed=seed, games=games, paired=paired)
        _check_deck(cfg)
        return cfg

    main = config(preset, cards)
    reference = None
    if compare_preset is not None or compare_cards is not None:
        reference = config(compare_preset or preset, compare_cards or cards)
        if reference.run_id == main.run_id:
            raise SimError("--compare-preset/--compare-cards name the same preset and catalog "
                           "as the main run; give another preset or catalog to compare against")
    trial = None
    if trials:
        from pipeline.sim.trial import TrialConfig, trial_deck

        trial = TrialConfig(preset=main.preset, catalog=main.catalog, seed=seed,
                            cards=tuple(trial_deck(main.catalog, main.preset)),
                            target=trial_target or DEFAULT_TRIAL_TARGET,
                            budget_hands=trial_budget,
                            band=(band or _default_band(measure)) if racing else None,
                            measure=measure)
    return BalancePlan(main=main, reference=reference, runs_dir=runs_dir, trial=trial,
                       quick=quick)


def _check_deck(config: Any) -> None:
    """Refuse a deck too small for the preset's teams before any run starts (the simulator
    checks each run too, but only when it starts it)."""
    check_deck(config.catalog, config.preset)


def run_balance(plan: BalancePlan, *, out: Path | None = None, site: Path | None = None,
                workers: int | None = None,
                progress: Callable[[], AbstractContextManager[Any]] | None = None,
                say: Callable[[str], None] = lambda _: None,
                levers: bool = False) -> BalanceResult:
    """Play the plan's runs (resuming finished shards), analyse them and write the report.
    With ``levers``, every nerf or buff candidate's numbers are each stepped one down and
    one up (:mod:`pipeline.sim.tune`), and the report links each candidate's tuning page.

    ``progress`` makes a fresh progress callback context per run (the simulator's
    :class:`~pipeline.sim.run.ProgressBar`); ``say`` receives a line per step.
    """
    from pipeline.report.build import build_report, write_report, write_site
    from pipeline.sim.run import RUNS_DIR, played_by_other_code, reusable_run, run_folders, simulate

    summaries = []
    folders: dict[str, Path] = {}
    kept = run_folders(plan.runs_dir if plan.runs_dir is not None else RUNS_DIR)
    for role, config in (("main", plan.main), ("reference", plan.reference)):
        if config is None:
            continue
        folder = plan.folder(config)
        found = reusable_run(config, [folder, *(f for f in kept if f != folder)])
        if found is not None:
            line = (f"reused {config.label}: the complete run in {found} has the same preset, "
                    "catalog content, seed, size and code")
            summaries.append(line)
            say(line)
            folders[role] = found
            continue
        say(f"simulating {config.label} ({config.games} matches) into {folder}")
        force = played_by_other_code(folder)
        if force:
            say(f"{folder} was played by another version of the lab's code: playing it again")
        if progress is None:
            summary = simulate(config, folder, workers=workers, force=force)
        else:
            with progress() as bar:
                summary = simulate(config, folder, workers=workers, progress=bar, force=force)
        summaries.append(summary.describe())
        say(summary.describe())
        folders[role] = folder
    trial_folder = None
    if plan.trial is not None:
        trial_folder = _run_trials(plan, workers, say)
        summaries.append(f"trial of {len(plan.trial.cards)} cards in {trial_folder}")
    four_trial = None
    ref_trial = None
    if trial_folder is not None and plan.reference is not None:
        ref_trial = _run_reference_trials(plan, workers, say)
        summaries.append(f"trial of {plan.reference.label}'s cards in {ref_trial}")
    if ref_trial is not None and plan.main.preset.players == 3 \
            and plan.reference.preset.players == 4:
        four_trial = ref_trial
    elif trial_folder is not None and plan.main.preset.players == 3:
        four_trial = _kept_four_trial(plan)
        if four_trial is not None:
            say(f"four-player values beside the sanma ones from the kept trial {four_trial}")
    say("computing statistics and drawing the report")
    measure = plan.trial.measure if plan.trial is not None else "points"
    report = build_report(folders["main"], folders.get("reference"), trial=trial_folder,
                          measure=measure, reference_trial=ref_trial)
    target = Path(out) if out is not None else plan.default_report()
    if levers and trial_folder is not None:
        ctx = report.context
        candidates = [c["id"] for c in (*ctx["nerfs"], *ctx["buffs"]) if c.get("id")]
        links = _levers(plan, trial_folder, candidates, target, workers, say)
        if links:
            report = build_report(folders["main"], folders.get("reference"),
                                  trial=trial_folder, levers=links, measure=measure,
                                  reference_trial=ref_trial)
    if trial_folder is not None and plan.main.preset.players == 3:
        _add_sanma(report, trial_folder, four_trial, plan, say)
    report.context["patch_notes"] = _patch_notes_link(plan.main.catalog, target)
    target = write_report(report, target, apart=out is None, say=say)
    if site is not None:
        write_site(report, site)
    ctx = report.context
    verdicts = None
    if trial_folder is not None:
        from pipeline.analytics.verdict import verdict_table

        verdicts = verdict_table(trial_folder, plan.trial.band or _default_band(measure),
                                 plan.trial.cards, measure=measure)
    return BalanceResult(
        report=target, run=folders["main"], reference=folders.get("reference"),
        summaries=tuple(summaries),
        nerfs=tuple(c["name"] for c in ctx["nerfs"]), buffs=tuple(c["name"] for c in ctx["buffs"]),
        verdicts=verdicts, worked=ctx.get("worked") or [],
    )


def _patch_notes_link(catalog: Any, report: Path) -> str | None:
    """The patch notes of the catalog played, when ``saki propose`` wrote it (and it was not
    edited since): a link from the report's folder."""
    import os

    from pipeline.report.patch_notes import patch_notes_for

    notes = patch_notes_for(getattr(catalog, "path", None), catalog.content_hash())
    if notes is None:
        return None
    try:
        return Path(os.path.relpath(notes.resolve(), Path(report).resolve().parent)).as_posix()
    except ValueError:  # another drive
        return notes.resolve().as_uri()


def _default_band(measure: str = "points") -> Any:
    """The deck's band in ``measure``'s unit, with its default half-width and zone."""
    from pipeline.sim.card_value import DEFAULT_THRESHOLD, DEFAULT_ZONE, UNITS
    from pipeline.verdicts import BandSpec

    return BandSpec(threshold=DEFAULT_THRESHOLD[measure], zone=DEFAULT_ZONE[measure],
                    unit=UNITS[measure], digits=1 if measure == "placement" else 0)


def _run_reference_trials(plan: BalancePlan, workers: int | None, say: Callable[[str], None]
                          ) -> Path:
    """The reference run's card trials (same seed, band and budget), each side's verdicts
    against its own deck: a comparison's "did it work?", and a three-player job's "four
    players" column."""
    from pipeline.sim.trial import TrialConfig, TrialTicker, trial_deck

    ref = plan.reference
    config = TrialConfig(preset=ref.preset, catalog=ref.catalog, seed=plan.trial.seed,
                         cards=tuple(trial_deck(ref.catalog, ref.preset)),
                         target=plan.trial.target, budget_hands=plan.trial.budget_hands,
                         band=plan.trial.band, measure=plan.trial.measure)
    default = config.default_out()
    folder = plan.runs_dir / default.name if plan.runs_dir is not None else default
    if folder == plan.trial_folder():  # a draft that kept its version number
        folder = folder.with_name(f"{folder.name}-catalog-{ref.catalog.content_hash()[:8]}")
    ticker = TrialTicker(say)
    _play_needed(config, folder, workers, say, f"card trials of {ref.label}",
                 said=ticker.round, on_match=ticker.match)
    return folder


def _play_needed(config: Any, folder: Path, workers: int | None, say: Callable[[str], None],
                 what: str, force: bool = False, said: Callable[[Any], None] | None = None,
                 on_match: Callable[[int], None] | None = None) -> None:
    """Play the trial ``config`` into ``folder`` for the cards its record lacks or holds with
    a weaker measure (:func:`pipeline.sim.provenance.cards_to_play`); cards measured more
    precisely by another command stay as they are, so the job never rewrites them."""
    import dataclasses

    from pipeline.sim.provenance import cards_to_play, folder_kind, read_record
    from pipeline.sim.trial import other_configuration, played_by_this_code, run_trial

    doc = read_record(folder, "trial") if folder_kind(folder) == "trial" and not force else None
    if doc is not None and (other_configuration(config, doc) is not None
                            or not played_by_this_code(doc)):
        doc = None  # not a record to keep values from: the trial says why it cannot go there
    todo = cards_to_play(doc, config.cards, config.target, config.budget_hands)
    kept = len(config.cards) - len(todo)
    if kept:
        say(f"{folder}: {kept} card(s) already measured with a larger budget or a smaller "
            "target are kept as they are")
    if not todo:
        return
    how = (f"racing to verdicts against {config.band.describe()}" if config.racing
           else f"target half-width {config.target:g} points per hand")
    say(f"{what} of {len(todo)} cards into {folder} ({how}, budget "
        f"{config.budget_hands:,} hands)")
    summary = run_trial(dataclasses.replace(config, cards=todo), folder, workers=workers,
                        force=force, say=said, on_match=on_match)
    say(summary.describe())


def _kept_four_trial(plan: BalancePlan) -> Path | None:
    """The four-player card trial a plain ``saki balance`` keeps (cards-hanchan, same catalog
    and seed), when there is one: a three-player job without ``--compare-preset`` shows its
    values beside its own."""
    from pipeline.sim.trial import TRIAL_FILE, TrialConfig

    config = TrialConfig(preset=load_preset(DEFAULT_PRESET), catalog=plan.main.catalog,
                         seed=plan.trial.seed, cards=plan.trial.cards[:1])
    default = config.default_out()
    folder = plan.runs_dir / default.name if plan.runs_dir is not None else default
    return folder if (folder / TRIAL_FILE).is_file() else None


def _add_sanma(report: Any, trial_folder: Path, four_trial: Path | None, plan: BalancePlan,
               say: Callable[[str], None]) -> None:
    """The report's "recommended sanma exclusions" section (rule C-23)."""
    from pipeline.analytics.sanma import sanma_view
    from pipeline.report.build import set_config
    from pipeline.sim.provenance import read_record, report_config

    names = {c.id: c.name for c in plan.main.catalog}
    view = sanma_view(trial_folder, four_trial, names=names)
    report.context["sanma"] = view
    if four_trial is not None:  # the four-player values are part of what the report shows
        four = read_record(four_trial, "trial")
        config = {**report.context["config"],
                  "four_trial": report_config({}, None, four, {})["trial"]}
        set_config(report, config, f"{report.context['config_words']}; four-player trial "
                                   f"{four_trial}")
    report.context["nav"] = [*report.context.get("nav", []), ("sanma", "Sanma exclusions")]
    listed = ", ".join(e["name"] for e in view["exclusions"]) or "none"
    say(f"recommended sanma exclusions: {listed}")


LEVER_BUDGET = 2000  # hands of trial matches per lever value in a balance job


def _levers(plan: BalancePlan, trial_folder: Path, cards: list[str], report: Path,
            workers: int | None, say: Callable[[str], None]) -> dict[str, str]:
    """Each candidate's levers swept (the trial's band), a tuning page per card beside the
    report (``<report>-levers/<card>.html``); card id -> the page's path from the report."""
    from pipeline.analytics.tune import deck_band, tune_table
    from pipeline.report.tuning import write_tuning_page
    from pipeline.sim.tune import TuneConfig, levers_of, read_tune, run_tune

    trial = plan.trial
    band = deck_band(trial_folder)
    pages = report.parent / f"{report.stem}-levers"
    links: dict[str, str] = {}
    for card_id in dict.fromkeys(cards):
        card = trial.catalog.card(card_id)
        found = levers_of(card)
        if not found:
            say(f"levers of {card.name}: no number to step")
            continue
        say(f"levers of {card.name}: {', '.join(lv.address for lv in found)}")
        config = TuneConfig(preset=trial.preset, catalog=trial.catalog, seed=trial.seed,
                            card=card_id, levers=tuple(found), bots=trial.bots,
                            target=trial.target, budget_hands=LEVER_BUDGET)
        out = trial_folder.parent / f"levers-{trial_folder.name}-{card_id}"
        run_tune(config, out, band=(band["lo"], band["hi"]), workers=workers)
        doc = read_tune(out)
        table = tune_table(out, doc, band)
        page = write_tuning_page(table, band, doc, card.name, pages / f"{card_id}.html")
        links[card_id] = f"{pages.name}/{page.name}"
    return links


def _run_trials(plan: BalancePlan, workers: int | None, say: Callable[[str], None]) -> Path:
    """Play (or resume, or reuse) the plan's card trials; say the half-widths reached."""
    import json
    import math

    from pipeline.sim.run import source_hash
    from pipeline.sim.trial import TRIAL_FILE, TrialTicker

    folder = plan.trial_folder()
    force = False
    try:
        there = (json.loads((folder / TRIAL_FILE).read_text()).get("code") or {})
        force = there.get("source_hash") not in (None, source_hash())
    except (OSError, ValueError):
        pass
    if force:
        say(f"{folder} was played by another version of the lab's code: playing it again")
    ticker = TrialTicker(say)

    def said(r: Any) -> None:
        ticker.round(r)
        played = sum(r.added.values()) * plan.trial.block
        if r.verdicts:
            open_ = sum(not v.decided for v in r.verdicts)
            say(f"trial round {r.index + 1}: {played} matches; {len(r.verdicts) - open_} "
                f"cards decided, {open_} undecided")
            return
        widths = [p.half_width for p in r.progress if math.isfinite(p.half_width)]
        if widths:
            say(f"trial round {r.index + 1}: {played} matches; half-widths "
                f"{min(widths):,.0f} to {max(widths):,.0f} points per hand")

    _play_needed(plan.trial, folder, workers, say, "card trials", force=force, said=said,
                 on_match=ticker.match)
    return folder
