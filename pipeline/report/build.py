"""Assemble a balance report: the analytics tables of a run (and optionally of a reference run),
the card texts of its catalog, the figures, rendered to one self-contained HTML page.

:func:`build_report` calls :mod:`pipeline.analytics` (the one place metrics are computed) and
hands the results to :func:`render_inputs`, which only lays them out: it formats, sorts and
labels, and never computes a metric. :class:`Report` renders the single-file page and, for a
static site, one page per card.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

import pipeline
from pipeline.cards.catalog import Card, Catalog
from pipeline.datafiles import REPORTS_DIR
from pipeline.report import ReportError, fmt
from pipeline.report import figures as figs
from pipeline.report.pages import css, environment
from pipeline.sim.output_lock import OutputLock
from pipeline.sim.provenance import (
    check_same_deck,
    config_digest,
    describe_trial,
    of_record,
    read_record,
    report_config,
)

DEFAULT_THRESHOLD = 300.0
DEFAULT_MIN_HANDS = 200
DELTA_METRICS = (  # Comparison.metrics prefixes, their label and how they are shown
    ("swing", "point swing per hand", "pts"),
    ("win_rate", "win rate", "pct"),
    ("deal_in_rate", "deal-in rate", "pct"),
    ("avg_place", "average placement", "num"),
)


@dataclass(frozen=True)
class ReportInputs:
    """Everything a report shows, already computed: the run's ``run.json``, its
    ``character_table`` and ``calibration_table``, optionally a ``Comparison`` with a reference
    run (A) in which this run is B, and the catalogs that hold the card texts."""

    meta: dict[str, Any]
    label: str
    path: Path
    table: pl.DataFrame
    calibration: pl.DataFrame
    comparison: Any = None            # pipeline.analytics Comparison, or None
    cards: dict[str, Card] | None = None  # the run's cards by id, in catalog order
    reference_cards: dict[str, Card] | None = None  # the reference run's cards
    catalog_warnings: tuple[str, ...] = ()
    reference_meta: dict[str, Any] | None = None
    threshold: float = DEFAULT_THRESHOLD
    min_hands: int = DEFAULT_MIN_HANDS
    trial: pl.DataFrame | None = None  # report_trial_rows(...): ability values and verdicts
    levers: dict[str, str] | None = None  # card id -> its tuning page, relative to the report
    trial_source: str | None = None    # the trial used: path, seed, cards, hands, measure
    worked: pl.DataFrame | None = None  # compare_verdicts(...): each card's trial on both sides
    gaps: tuple[Any, ...] = ()  # pipeline.sim.policy_gap.PolicyGap: saki bots gap's results
    gap_source: str | None = None  # the gap file read


@dataclass(frozen=True)
class Figure:
    key: str
    uri: str
    alt: str
    caption: str


@dataclass
class CardView:
    """One card's section: text, metrics and, in a comparison, what changed."""

    id: str
    name: str
    slug: str
    school: str = ""
    text: str = ""
    text_note: str = ""
    clarifications: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    metrics: list[dict[str, str]] = field(default_factory=list)
    summary: str = ""
    headline: str = ""
    changes: list[dict[str, Any]] = field(default_factory=list)
    diff_rows: list[dict[str, Any]] = field(default_factory=list)  # old/new side by side
    deltas: list[dict[str, str]] = field(default_factory=list)
    delta_flag: str = ""


@dataclass
class Report:
    """A rendered-on-demand report: :meth:`html` for one file, :meth:`card_html` per card."""

    title: str
    subtitle: str
    context: dict[str, Any]
    cards: list[CardView]

    def html(self, site: bool = False) -> str:
        """The whole report as one page; ``site`` lists the cards with links to their pages
        (``cards/<id>.html``) instead of holding every card section."""
        href = (lambda cid: f"cards/{slug(cid)}.html") if site else (
            lambda cid: f"#card-{slug(cid)}")
        return environment().get_template("main.html").render(
            **self.context, site=site, card_href=href)

    def card_html(self, card_id: str) -> str:
        """One card's page of a site (links back to ``../index.html``), with a figure of
        where the card stands among the characters (and how it moved, in a comparison)."""
        card = next(c for c in self.cards if c.id == card_id)
        cmp = self.context["cmp"]
        trial = self.context.get("trial") or []
        if trial:  # the page plots the ability value its table leads with
            rows = [{"group": r["card"], "name": r["name"], "swing": r.get("relative"),
                     "swing_lo": r.get("relative_lo"), "swing_hi": r.get("relative_hi"),
                     "flag": r.get("flag")} for r in trial]
            strip = figs.card_strip(rows, card_id, cmp["rows"] if cmp else (),
                                    label="ability value against the deck's average card")
            what = "card of the trial"
        else:
            strip = figs.card_strip(self.context["tiers"], card_id, cmp["rows"] if cmp else ())
            what = "character of the run"
        figure = Figure(key=f"card-{card.slug}", uri=figs.png_data_uri(strip),
                        alt=f"Where {card.name} stands", caption=(
                            f"{card.name} (coloured, with its 95% interval) among every "
                            f"{what} (grey)" + (
                                "; below, the in-deck change from A to B" if cmp else "")
                            + "."))
        recorded = {k: self.context[k] for k in ("config_digest", "config_words")
                    if k in self.context}
        return environment().get_template("card.html").render(
            title=f"{card.name}: {self.title}", subtitle=self.subtitle, card=card,
            cmp=cmp, css=self.context["css"], generator=self.context["generator"],
            card_figure=figure, **recorded)


def slug(card_id: str) -> str:
    """A card id as a safe anchor and file name."""
    return re.sub(r"[^a-z0-9_-]+", "-", card_id.lower()).strip("-") or "none"


def build_report(run: Any, reference: Any = None, *, catalog: Catalog | None = None,
                 threshold: float = DEFAULT_THRESHOLD, min_hands: int = DEFAULT_MIN_HANDS,
                 trial: Path | None = None, levers: dict[str, str] | None = None,
                 measure: str = "points", reference_trial: Path | None = None,
                 team_trial: Path | None = None, gap: Path | None = None) -> Report:
    """The report of ``run`` (a run folder or an opened ``RunData``); with ``reference``, also
    what changed from the reference run (A) to this run (B). With ``trial`` (a ``saki trial``
    folder of the same preset and catalog) the report leads with each card's ability value:
    the tier view, the nerf and buff candidates and the card sections use it, and the in-deck
    figures of the run stand beside it. With ``reference_trial`` too (the reference run's
    trial), the comparison opens with "did it work?": each card's ability value and verdict
    on both sides and the change between them.

    ``catalog`` holds the card texts to show; by default the cards the run recorded (the
    snapshot in its ``run.json``, or the shipped catalog file of its version). ``measure``:
    what the trial's verdicts are asked on (``points`` per hand over the whole match, or
    ``placement``, result points per match, against the deck's average card +/- 5).

    ``team_trial`` (a ``saki trial --kind team`` folder of the same preset and catalog, beside
    ``trial``) adds each card's worth in a team next to its ability value.

    ``gap`` (a ``saki bots gap --format json`` file of the same preset and catalog) names the
    cards whose value is limited by the bots: a simple policy beats the shipped one.
    """
    from pipeline.analytics import (
        calibration_table,
        character_table,
        compare_runs,
        open_run,
    )
    from pipeline.analytics.catalogs import run_catalog

    run = open_run(run) if isinstance(run, str | Path) else run
    ref = open_run(reference) if isinstance(reference, str | Path) else reference
    comparison = (compare_runs(ref, run, threshold=threshold, min_hands=min_hands)
                  if ref is not None else None)
    if catalog is not None:
        cards, warnings = {c.id: c for c in catalog}, []
    else:
        recorded = run_catalog(run.meta, run.label)
        cards, warnings = recorded.cards, recorded.warnings
    ref_cards = run_catalog(ref.meta, ref.label).cards if ref is not None else None
    trial_rows = None
    trial_doc = None
    trial_source = None
    if trial is not None:
        trial_doc = check_trial(run, Path(trial))
        trial_rows = report_trial_rows(Path(trial), threshold, measure)
        trial_source = describe_trial(Path(trial), trial_doc, trial_rows["card"].to_list(),
                                      int(trial_rows["hands"].sum()))
    worked = None
    if trial is not None and reference_trial is not None:
        from pipeline.analytics.verdict import compare_verdicts

        changed = {str(c.get("card")) for c in comparison.card_changes} \
            if comparison is not None else set()
        worked = compare_verdicts(Path(reference_trial), Path(trial),
                                  measure_band(threshold, measure), changed, measure)
    team_doc = None
    if team_trial is not None:
        if trial_rows is None:
            raise ReportError("--team-trial goes beside --trial: the worth in a team stands "
                              "next to each card's ability value; give both folders")
        team_doc = check_team_trial(run, Path(team_trial))
        trial_rows = with_team_values(trial_rows, Path(team_trial))
        trial_source = (f"{trial_source}; worth in a team from {team_trial} (seed "
                        f"{team_doc.get('seed')})")
    gaps = read_gaps(run, Path(gap)) if gap is not None else ()
    inputs = ReportInputs(
        worked=worked, gaps=gaps, gap_source=str(gap) if gap is not None else None,
        meta=run.meta, label=run.label, path=Path(run.path),
        table=character_table(run, by="character", min_hands=min_hands, threshold=threshold),
        calibration=calibration_table(run), comparison=comparison,
        cards=cards or None, catalog_warnings=tuple(warnings), reference_cards=ref_cards,
        reference_meta=ref.meta if ref is not None else None,
        threshold=threshold, min_hands=min_hands, trial=trial_rows, levers=levers,
        trial_source=trial_source,
    )
    report = render_inputs(inputs)
    config = report_config(run.meta, ref.meta if ref is not None else None, trial_doc,
                           {"threshold": threshold, "min_hands": min_hands})
    if gaps:  # a report of other gap results is another configuration
        config = {**config, "gap": sorted((g.card, g.seed, tuple(
            (r.policy, r.matches, round(r.gap, 6)) for r in g.rows)) for g in gaps)}
    if team_doc is not None:  # a report of another team trial is another configuration
        config = {**config, "team_trial": {k: team_doc.get(k) for k in
                                           ("kind", "seed", "bots", "blocks")}}
    words = f"run {run.label}" + (f" against {ref.label}" if ref is not None else "") + (
        f"; trial {trial_source}" if trial_source else "; no trial")
    set_config(report, config, words)
    return report


def check_trial(run: Any, trial: Path) -> dict[str, Any]:
    """The trial's record, once it is known to belong with the run: the same catalog
    content, preset and player count (else one line naming both)."""
    doc = read_record(trial, "trial")
    mine = of_record("run", Path(run.path), run.meta)
    check_same_deck("--trial", mine, of_record("trial", trial, doc),
                    f"give a trial of the run's catalog and preset, e.g. 'saki trial --cards "
                    f"{mine.catalog} --preset {mine.preset}'")
    return doc


def read_gaps(run: Any, path: Path) -> tuple[Any, ...]:
    """The policy gaps of a ``saki bots gap --format json`` file, once they are known to be of
    the run's preset and catalog version (else one line naming both)."""
    from pipeline.sim.policy_gap import GapFileError, load_gaps

    try:
        gaps = load_gaps(path)
    except GapFileError as exc:
        raise ReportError(f"--gap {exc}") from None
    preset = (run.meta.get("preset") or {}).get("name")
    catalog = (run.meta.get("catalog") or {}).get("version")
    for g in gaps:
        if (g.preset and g.preset != preset) or (g.catalog and g.catalog != catalog):
            raise ReportError(f"--gap {path}: {g.card}'s gap was measured with preset "
                              f"{g.preset!r}, catalog {g.catalog!r}, the run with preset "
                              f"{preset!r}, catalog {catalog!r}; measure it with 'saki bots gap "
                              f"--all --preset {preset} --format json'")
    return tuple(gaps)


def _bots_limited(inputs: ReportInputs) -> list[dict[str, Any]]:
    """The cards whose value is limited by the bots (a simple policy beats the shipped one
    significantly), each with its best such policy and the gap."""
    out = []
    for g in inputs.gaps:
        if not g.beating:
            continue
        r = g.beating[0]
        card = (inputs.cards or {}).get(g.card)
        out.append({"id": g.card, "name": card.name if card is not None else g.card,
                    "policy": r.policy, "gap": r.gap, "gap_lo": r.gap_lo, "gap_hi": r.gap_hi,
                    "seed": g.seed, "matches": r.matches})
    return out


def check_team_trial(run: Any, folder: Path) -> dict[str, Any]:
    """The team trial's record, once it is known to be a team trial of the run's catalog
    content, preset and player count (else one line naming both)."""
    doc = check_trial(run, folder)
    if doc.get("kind") != "team":
        raise ReportError(f"--team-trial {folder}: a card trial, not a team trial; give the "
                          "folder of 'saki trial --kind team'")
    return doc


def with_team_values(rows: Any, folder: Path) -> Any:
    """The trial's rows with each card's worth in a team (``team_value``, ``team_lo``,
    ``team_hi``, ``pick_share``; null for a card the team trial did not measure)."""
    from pipeline.analytics.team import team_table

    team = team_table(folder).select("card", "team_value", "team_lo", "team_hi",
                                     "pick_share")
    return rows.join(team, on="card", how="left", maintain_order="left")


def set_config(report: Report, config: dict[str, Any], words: str) -> None:
    """Record what the report shows (:func:`pipeline.sim.provenance.report_config`) in the
    report and in its pages, so a writer can tell a report of another configuration."""
    report.context["config"] = config
    report.context["config_digest"] = config_digest(config)
    report.context["config_words"] = words


# --- layout ---------------------------------------------------------------------------------


def render_inputs(inputs: ReportInputs) -> Report:
    """Lay the computed tables out as a :class:`Report` (figures drawn, texts formatted)."""
    meta = inputs.meta
    table = inputs.table
    rows = table.to_dicts()
    preset = meta.get("preset") or {}
    cmp = _comparison_view(inputs)
    title = f"Balance report: {preset.get('name', '?')}, catalog " \
            f"{(meta.get('catalog') or {}).get('version', '?')}"
    if cmp:
        try:
            words = comparison_names(inputs.reference_meta or {}, meta)[1]
        except (KeyError, TypeError, AttributeError):  # an old or partial run.json
            words = f"{cmp['label_a']} → {cmp['label_b']}"
        title = f"Balance comparison: {words}"
    subtitle = f"run {inputs.label}" + (
        f", compared with {inputs.comparison.label_a}" if cmp else "")
    cards = _card_views(inputs, rows)
    flagged = [r for r in rows if r.get("group") != "(none)"]
    trial = _trial_rows(inputs)
    context: dict[str, Any] = {
        "title": title,
        "subtitle": subtitle,
        "css": css(),
        "generator": getattr(pipeline, "__version__", ""),
        "nav": _nav(cmp),
        "overview": _overview(inputs),
        "levers": dict(inputs.levers or {}),
        "notes": _notes(inputs),
        "calibration": _calibration_rows(inputs.calibration),
        "verdict": _verdict(flagged, inputs),
        "nerfs": _trial_candidates(trial, "above") if trial else _candidates(flagged, "strong"),
        "buffs": _trial_candidates(trial, "below") if trial else _candidates(flagged, "weak"),
        "edges": _trial_candidates(trial, "at_edge"),
        "open": _trial_open(trial),
        "trial": trial,
        "bots_limited": _bots_limited(inputs),
        "gap_cards": len(inputs.gaps),
        "gap_source": inputs.gap_source,
        "trial_measure": trial[0].get("measure", "points") if trial else "points",
        "trial_team": bool(trial) and "team_value" in trial[0],
        "trial_note": TRIAL_NOTE,
        "trial_verdict": _trial_verdict(trial, inputs) if trial else "",
        "tiers": [dict(r, id=None if r.get("group") == "(none)" else r.get("group"),
                       name=_name(r), flag=r.get("flag") if not trial or
                       r.get("flag") == "not enough data" else "") for r in rows],
        "caveats": caveats(inputs.threshold, inputs.min_hands),
        "figures": _figures(inputs, cmp),
        "cmp": cmp,
        "cards": cards,
        "unplayed": _unplayed(inputs, rows),
        "worked": inputs.worked.to_dicts() if inputs.worked is not None else [],
    }
    return Report(title=title, subtitle=subtitle, context=context, cards=cards)


VERDICT_ORDER = {"above": 0, "below": 1, "at_edge": 2, "undecided": 3, "inside": 4}
VERDICT_FLAGS = {"above": "strong", "below": "weak", "undecided": "not enough data"}


def measure_band(threshold: float, measure: str = "points") -> Any:
    """The deck's band a report judges ``measure`` by: +/- ``threshold`` points per hand, or
    the placement measure's own default half-width, zone and unit."""
    from pipeline.sim.card_value import DEFAULT_THRESHOLD, DEFAULT_ZONE, UNITS
    from pipeline.verdicts import BandSpec

    if measure == "points":
        return BandSpec(threshold=threshold)
    return BandSpec(threshold=DEFAULT_THRESHOLD[measure], zone=DEFAULT_ZONE[measure],
                    unit=UNITS[measure], digits=1)


def report_trial_rows(trial: Path, threshold: float, measure: str = "points") -> Any:
    """The trial's cards with their verdicts against the deck's band in ``measure`` (read from
    the one place, :func:`pipeline.analytics.verdict.verdict_table`; ``threshold`` is in
    points per hand, the placement band's is its default), the position's 95% interval, and
    the figures' colour key (``flag``: a nerf, a buff, or hollow while undecided)."""
    import polars as pl

    from pipeline.analytics.verdict import verdict_table

    table = verdict_table(trial, measure_band(threshold, measure), measure=measure)
    return table.with_columns(
        relative_lo=pl.col("relative") - 1.96 * pl.col("relative_se"),
        relative_hi=pl.col("relative") + 1.96 * pl.col("relative_se"),
        flag=pl.col("verdict").replace_strict(VERDICT_FLAGS, default="",
                                              return_dtype=pl.String))


def _trial_rows(inputs: ReportInputs) -> list[dict[str, Any]]:
    """The trial's cards in the order of their verdicts (nerfs, buffs, at an edge, undecided,
    inside), best ability value first within each (empty without a trial)."""
    if inputs.trial is None:
        return []
    rows = inputs.trial.sort("value", descending=True, nulls_last=True).to_dicts()
    return sorted(rows, key=lambda r: VERDICT_ORDER.get(r.get("verdict") or "", 5))


def _trial_verdict(rows: list[dict[str, Any]], inputs: ReportInputs) -> str:
    count = {k: sum(r.get("verdict") == k for r in rows) for k in VERDICT_ORDER}
    first = rows[0] if rows else {}
    band = ""
    if fmt.value(first.get("band_lo")) is not None:
        se = fmt.value(first.get("edge_se")) or 0.0
        placement = first.get("measure") == "placement"
        kind, unit = ("result", "result points per match") if placement else \
            ("pts", "points per hand")
        half = (first["band_hi"] - first["band_lo"]) / 2
        band = (f" The band: {fmt.show(first['band_lo'], kind, True)} to "
                f"{fmt.show(first['band_hi'], kind, True)} {unit}, the deck's average card "
                f"±{fmt.show(half, kind)} (each edge known to ±{fmt.show(1.96 * se, kind)}; "
                f"the average from {first.get('reference')}).")
    return (f"Verdicts from card trials: {len(rows)} cards, each held by one seat and played "
            "every hand, each match played again with the ability off throughout (its value "
            "over the whole match), every hand replayed without it (the hands alone). "
            f"{count['above']} above the balance band (nerf candidates), {count['below']} "
            f"below it (buff candidates), {count['inside']} inside, {count['at_edge']} at an "
            f"edge, {count['undecided']} undecided; among the verdicts given, at most 5% are "
            f"expected to be wrong (Benjamini-Hochberg).{band}")


def _trial_candidates(rows: list[dict[str, Any]], verdict: str) -> list[dict[str, str]]:
    return [{"id": r["card"], "name": r["name"],
             "why": f"ability value {fmt.pts(r.get('relative'), True)} per hand against the "
                    f"deck's average card "
                    f"{fmt.interval(r.get('relative_lo'), r.get('relative_hi'), 'pts', True)}"
                    .strip() if r.get("bound") is None else str(r.get("reason"))}
            for r in rows if r.get("verdict") == verdict]


def _trial_open(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The undecided cards with why, and what would settle them."""
    out = []
    for r in rows:
        if r.get("verdict") != "undecided":
            continue
        more = (f"; about {fmt.count(r['settle_hands'])} more of its hands would settle it"
                if r.get("settle_hands") is not None else "")
        out.append({"id": r["card"], "name": r["name"], "why": f"{r.get('reason')}{more}"})
    return out


TRIAL_NOTE = (
    "The ability value and the in-deck figures answer different questions. The ability value "
    "is what the card's ability adds on every hand to the seat that plays it (the same deal "
    "replayed without the ability), whoever would have chosen it. The in-deck figures are how "
    "the seats did on the hands where the bots chose the card: they mix in the hands it was "
    "chosen for (a card picked when behind looks weak), how often it is chosen (a card rarely "
    "picked is hardly measured), and the luck of those deals.")


def _name(row: dict[str, Any]) -> str:
    return "(no character)" if row.get("group") == "(none)" else str(row.get("name")
                                                                    or row.get("group"))


def _nav(cmp: dict[str, Any] | None) -> list[tuple[str, str]]:
    nav = [("overview", "What was simulated"), ("calibration", "Bot calibration"),
           ("tiers", "Tier view"), ("style", "How each character plays")]
    if cmp:
        nav.append(("comparison", "Comparison"))
    nav.append(("cards", "Cards"))
    return nav


def _overview(inputs: ReportInputs) -> list[tuple[str, str]]:
    meta = inputs.meta
    preset = meta.get("preset") or {}
    cards = preset.get("cards") or {}
    catalog = meta.get("catalog") or {}
    rows = meta.get("rows") or {}
    timings = meta.get("timings") or {}
    code = meta.get("code") or {}
    seats = (meta.get("bots") or {}).get("seats") or []
    out = [
        ("run", inputs.label),
        ("folder", str(inputs.path)),
        ("preset", f"{preset.get('name', '?')}: {preset.get('description', '')}".rstrip(": ")),
        ("length, start points", f"{preset.get('length', '?')}, "
                                 f"{fmt.count(preset.get('start_points'))}"),
    ]
    if cards.get("enabled"):
        excluded = ", ".join(cards.get("exclude") or []) or "none"
        size = cards.get("team_size", "?")
        out.append(("teams", f"{cards.get('team_mode', '?')}, {size} card"
                             f"{'' if size == 1 else 's'} per seat; excluded cards: {excluded}"))
    out += [
        ("catalog", f"{catalog.get('version', '?')} (content "
                    f"{str(catalog.get('content_hash', ''))[:12]})"),
        ("matches", fmt.count(meta.get("games"))),
        ("hands", fmt.count(rows["hands"] // int(preset.get("players") or 4))
         if rows.get("hands") is not None else fmt.DASH),  # the table has a row a seat
        ("seed", str(meta.get("seed", "?"))),
        ("bots", ", ".join(seats) or "?"),
        ("status", str(meta.get("status", "?"))),
        ("played", f"{timings['finished']}; {fmt.num(timings.get('play_seconds'), 0)} s of "
                   f"play, {fmt.num(timings.get('hands_per_second'), 1)} hands/s"
         if timings.get("finished") else fmt.DASH),
        ("code", f"{code.get('version') or '?'} "
                 f"({str(code.get('git_commit') or 'no commit')[:10]})"),
        ("flag rule", f"±{fmt.pts(inputs.threshold)} points per hand against the field; groups "
                      f"under {inputs.min_hands} hands are 'not enough data'"),
    ]
    if inputs.trial_source:
        out.append(("card trial", inputs.trial_source))
    if inputs.cards:
        out.append(("card readings", _readings_played(inputs.cards.values())))
    return out


def _readings_played(cards: Any) -> str:
    """The readings the run played that differ from the defaults (the faithful ones), or a
    line saying every card was read by default."""
    changed = [f"{card.name}: {option} = {choice.value} ({choice.meaning})"
               for card in cards for _, option, spec, choice in card.readings()
               if choice.value != spec.default]
    if not changed:
        return "the default (most faithful) reading of every card ('saki cards readings')"
    return "not the default: " + "; ".join(changed)


def _notes(inputs: ReportInputs) -> list[str]:
    notes = []
    if inputs.meta.get("status") != "complete":
        notes.append("This run is not complete: the figures cover only its finished matches. "
                     "Run the same simulate (or balance) command again to finish it.")
    notes.extend(inputs.catalog_warnings)
    if inputs.cards is None:
        version = (inputs.meta.get("catalog") or {}).get("version", "?")
        notes.append(f"The card texts of catalog {version} were not found, so card texts are "
                     "left out.")
    return notes


def _calibration_rows(cal: pl.DataFrame) -> list[dict[str, str]]:
    out = []
    for r in cal.to_dicts():
        kind = "pts" if figs.is_points_row(r) else "pct"
        show = fmt.pts if kind == "pts" else fmt.pct
        target = (f"{show(r.get('target_lo'))} to {show(r.get('target_hi'))}"
                  if fmt.value(r.get("target_lo")) is not None else fmt.DASH)
        out.append({"metric": str(r.get("label") or r.get("metric")),
                    "value": show(r.get("value")), "judge": str(r.get("judge") or ""),
                    "span": fmt.interval(r.get("lo"), r.get("hi"), kind),
                    "human": show(r.get("human")), "target": target})
    return out


def _verdict(rows: list[dict[str, Any]], inputs: ReportInputs) -> str:
    judged = [r for r in rows if r.get("flag") != "not enough data"]
    strong = sum(r.get("flag") == "strong" for r in judged)
    weak = sum(r.get("flag") == "weak" for r in judged)
    thin = len(rows) - len(judged)
    text = (f"{len(judged)} characters played enough hands to judge ({inputs.min_hands} or "
            f"more): {strong} look too strong (nerf candidates) and {weak} too weak (buff "
            f"candidates) at ±{fmt.pts(inputs.threshold)} points per hand against the field.")
    if thin:
        text += f" {thin} played too few hands to judge; a longer run would settle them."
    return text


def _candidates(rows: list[dict[str, Any]], flag: str) -> list[dict[str, str]]:
    return [{"id": r["group"], "name": _name(r),
             "why": f"{fmt.pts(r.get('field_diff'), True)} per hand against the field "
                    f"{fmt.interval(r.get('field_diff_lo'), r.get('field_diff_hi'), 'pts', True)}"
                    .strip()}
            for r in rows if r.get("flag") == flag]


def caveats(threshold: float, min_hands: int) -> list[str]:
    """What the intervals and flags mean, in plain words."""
    return [
        "Each figure comes with a 95% interval: the range the true value most likely lies in. "
        "If the whole run were played again with other seeds, the figure would move around "
        "inside about that range.",
        "A character whose 'against the field' interval crosses zero cannot be told apart from "
        "an average character in this run. That is not proof it is balanced: the run may be "
        "too short to see a small difference.",
        "Intervals shrink with the square root of the number of hands: four times the games "
        "halves them. A character that is rarely picked gets few hands and wide intervals.",
        "Hands of one match are not independent (same table, same score situation), so the "
        "intervals are widened for that; they are honest, not pessimistic.",
        f"With many characters some look strong or weak by luck alone. A character is flagged "
        f"only when it is more than {fmt.pts(threshold)} points per hand from the field and "
        "the difference survives a correction for the number of characters tested (q-value); "
        f"characters with fewer than {min_hands} hands are never flagged.",
        "Point swing counts every point a seat gains or pays in a hand while playing the "
        "character, riichi sticks and honba included. It measures strength per hand; "
        "placement shows whether that turns into match results.",
        "The players are bots calibrated against strong human play (see Bot calibration). A "
        "character whose value depends on judgement the bots lack may play differently in "
        "people's hands.",
    ]


def _figures(inputs: ReportInputs, cmp: dict[str, Any] | None) -> dict[str, Figure | None]:
    t = inputs.table
    if inputs.trial is not None:  # the in-deck figures flag nothing: the verdicts are the trial's
        import polars as pl

        t = t.with_columns(flag=pl.when(pl.col("flag") == "not enough data")
                           .then(pl.col("flag")).otherwise(pl.lit("")))
    out: dict[str, Figure | None] = {
        "calibration": _fig("calibration", figs.calibration_dots(inputs.calibration),
                            "Calibration: bots against human play",
                            "The bots' rates (blue) with intervals, human play (black), the "
                            "target range (green)."),
        "tiers": _fig("tiers", figs.tier_forest(t), "Tier view: point swing per character",
                      "Point swing per character with its 95% interval, best first. Red: "
                      "nerf candidate; blue: buff candidate; hollow: too few hands."),
        "scatter": _fig("scatter", figs.win_dealin_scatter(t), "Win rate against deal-in rate",
                        "Up is winning more; left is dealing in less. Lines are 95% intervals; "
                        "grey hollow points have too few hands to judge and carry no label."),
        "placement": _fig("placement", figs.placement_bars(t), "Placement per character",
                          "Left: share of matches finished first (green) to last (red) by "
                          "seats that played the character, weighted by hands played. Right: "
                          "the average placement with its 95% interval. Characters with too "
                          "few hands to judge are faded and listed last."),
        "picks": _fig("picks", figs.pick_rate_bars(t), "Pick rate per character",
                      "How often a seat holding the character picked it for the hand."),
        "triggers": _fig("triggers", figs.trigger_bars(t), "Ability triggers",
                         "How often each ability fired per hand played, and what a firing "
                         "adds where it states a value: points and han in panels of their "
                         "own."),
        "shift": None,
        "shift_scatter": None,
        "trial": None,
        "worked": None,
    }
    if inputs.trial is not None:
        out["trial"] = _fig("trial", figs.trial_forest(inputs.trial, inputs.threshold),
                            "Tier view: ability value per card against the balance band",
                            "Each card's ability value relative to the deck's average card "
                            "(points per hand, with and without the ability on the same deal) "
                            "with its 95% interval, best first. The dashed lines are the band's "
                            "edges, the shading their own 95% uncertainty (the deck's average "
                            "is measured too). Red: above the band (nerf); blue: below (buff); "
                            "hollow: undecided.")
    if inputs.worked is not None and inputs.worked.height:
        import polars as pl

        frame = inputs.worked.filter(pl.col("change").is_not_null()).select(
            group=pl.col("card"), name=pl.col("name"), swing=pl.col("change"),
            swing_lo=pl.col("change_lo"), swing_hi=pl.col("change_hi"),
            flag=pl.when(pl.col("few")).then(pl.lit("not enough data")).otherwise(pl.lit("")))
        fig = figs.tier_forest(frame)
        for ax in fig.axes:
            ax.set_xlabel("change of the ability value, B minus A: points per hand (95%)")
            ax.set_title("Did it work? Each card's change (hollow: fewer than 16 matches on "
                         "a side)", fontsize=10)
        out["worked"] = _fig("worked", fig, "Change of each card's ability value",
                             "Each card's ability value in B minus A with its 95% interval "
                             "(paired by match when both trials share the seed), one row per "
                             "card; hollow: too few matches on a side.")
    if cmp:
        a, b = cmp["label_a"], cmp["label_b"]
        metrics = inputs.comparison.metrics
        changed = {str(c.get("card")) for c in inputs.comparison.card_changes}
        out["shift"] = _fig("shift", figs.shift_forest(metrics, "swing", a, b, changed=changed),
                            "Shift of point swing per character",
                            f"Point swing in {b} minus {a} per character, with 95% intervals"
                            + ("; a ✎ and a shaded row mark the cards whose text or parameters "
                               "changed." if changed else "."))
        if cmp["preset_changes"]:
            out["shift_scatter"] = _fig(
                "shift-scatter", figs.shift_scatter(metrics, "swing", a, b),
                "Point swing under each preset",
                "Each character's point swing under both presets; above the diagonal it does "
                f"better in {b}.")
    return out


def _fig(key: str, figure: Any, alt: str, caption: str) -> Figure:
    return Figure(key=key, uri=figs.png_data_uri(figure), alt=alt, caption=caption)


# --- comparison -----------------------------------------------------------------------------


def _comparison_view(inputs: ReportInputs) -> dict[str, Any] | None:
    cmp = inputs.comparison
    if cmp is None:
        return None
    rows = cmp.metrics.to_dicts()
    for r in rows:
        r["name"] = _name(r)
    return {
        "label_a": fmt.short_label(cmp.label_a), "label_b": fmt.short_label(cmp.label_b),
        "preset_changes": [{"option": str(p.get("option")), "a": _plain(p.get("a")),
                            "b": _plain(p.get("b"))} for p in cmp.preset_changes],
        "preset_diffs": [{"what": str(p.get("option")),
                          **side_by_side(_plain(p.get("a")), _plain(p.get("b")))}
                         for p in cmp.preset_changes],
        "card_changes": [dict(c, name=c.get("name") or c.get("card")) for c in cmp.card_changes],
        "card_diffs": card_diffs(inputs),
        "reading_diffs": reading_diffs(inputs),
        "rows": rows,
        "warnings": [str(w) for w in getattr(cmp, "warnings", [])],
        "only_a": [r["name"] for r in rows if _played(r.get("hands_a"))
                   and not _played(r.get("hands_b"))],
        "only_b": [r["name"] for r in rows if _played(r.get("hands_b"))
                   and not _played(r.get("hands_a"))],
    }


def _played(hands: Any) -> bool:
    return (fmt.value(hands) or 0) > 0


def _plain(v: Any) -> str:
    if isinstance(v, list | tuple):
        return ", ".join(str(x) for x in v) or "(none)"
    if isinstance(v, bool):
        return "true" if v else "false"
    return "(not set)" if v is None else str(v)


def word_diff(before: str, after: str) -> list[tuple[str, str]]:
    """``(op, text)`` pieces turning ``before`` into ``after`` word by word; op is ``same``,
    ``del`` or ``ins``. Texts are kept as they are; the template escapes them."""
    a, b = re.findall(r"\S+|\s+", before or ""), re.findall(r"\S+|\s+", after or "")
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("del", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(("ins", "".join(b[j1:j2])))
    return out


def side_by_side(before: str, after: str) -> dict[str, list[tuple[str, str]]]:
    """The two sides of a word diff: ``a`` holds the old text with removed words marked
    (``del``), ``b`` the new text with added words marked (``ins``)."""
    pieces = word_diff(before, after)
    return {"a": [(op, t) for op, t in pieces if op != "ins"],
            "b": [(op, t) for op, t in pieces if op != "del"]}


def reading_diffs(inputs: ReportInputs) -> list[dict[str, Any]]:
    """Every reading option played differently by the reference run (A) and this run (B):
    card, option and the two choices with their meanings, side by side."""
    old_cards, new_cards = inputs.reference_cards or {}, inputs.cards or {}
    out = []
    for cid, new in new_cards.items():
        old = old_cards.get(cid)
        if old is None:
            continue
        before = {(e.id, name): c for e, name, _, c in old.readings()}
        for eff, name, _, choice in new.readings():
            was = before.get((eff.id, name))
            if was is not None and was.value != choice.value:
                out.append({"what": f"{new.name}: {eff.id}.{name}", **side_by_side(
                    f"{was.value}: {was.meaning}", f"{choice.value}: {choice.meaning}")})
    return out


def card_diffs(inputs: ReportInputs) -> list[dict[str, Any]]:
    """Every card that differs between the reference run (A) and this run (B), with its old
    and new text and each changed effect's parameters side by side, changed words marked."""
    cmp = inputs.comparison
    if cmp is None:
        return []
    old_cards, new_cards = inputs.reference_cards or {}, inputs.cards or {}
    out: dict[str, dict[str, Any]] = {}
    for ch in cmp.card_changes:
        cid = str(ch.get("card"))
        entry = out.setdefault(cid, {"card": cid, "name": ch.get("name") or cid,
                                     "changes": [], "rows": []})
        entry["changes"].append(str(ch.get("change")))
    for cid, entry in out.items():
        old, new = old_cards.get(cid), new_cards.get(cid)
        if old is None or new is None:  # added, removed, or a catalog that was not found
            ch = next(c for c in cmp.card_changes if str(c.get("card")) == cid)
            entry["rows"].append({"what": str(ch.get("change")),
                                  **side_by_side(ch.get("before") or "", ch.get("after") or "")})
            continue
        for what, a, b in (("name", old.name, new.name), ("school", old.school, new.school),
                           ("card text", _text(old), _text(new))):
            if a != b:
                entry["rows"].append({"what": what, **side_by_side(a, b)})
        before, after = _effect_texts(old), _effect_texts(new)
        for eid in dict.fromkeys([*before, *after]):
            if before.get(eid) != after.get(eid):
                entry["rows"].append({"what": f"effect {eid}", **side_by_side(
                    before.get(eid, "(none)"), after.get(eid, "(none)"))})
        for what, a, b in (("clarifications", " / ".join(old.clarifications),
                            " / ".join(new.clarifications)),
                           ("flags", ", ".join(old.flags), ", ".join(new.flags))):
            if a != b:
                entry["rows"].append({"what": what, **side_by_side(a, b)})
        if not any(r["what"].startswith("effect ") for r in entry["rows"]):
            for ch in cmp.card_changes:  # cards without their effects (an older snapshot)
                if str(ch.get("card")) == cid and ch.get("change") == "parameters":
                    entry["rows"].append({"what": "parameters", **side_by_side(
                        ch.get("before") or "", ch.get("after") or "")})
    return list(out.values())


def _text(card: Card) -> str:
    try:
        return card.text
    except (KeyError, ValueError, AttributeError, IndexError):  # a template it cannot fill
        return card.text_template


def _effect_texts(card: Card) -> dict[str, str]:
    """Each effect as ``kind: param value, ...`` (what a designer edits in the file)."""
    out = {}
    for e in card.effects:
        params = ", ".join(f"{k} {_plain(v)}" for k, v in sorted(e.params.items()))
        out[e.id] = f"{e.kind}: {params}" if params else e.kind
    return out


# --- cards ----------------------------------------------------------------------------------


def _card_views(inputs: ReportInputs, rows: list[dict[str, Any]]) -> list[CardView]:
    by_id = inputs.cards or {}
    cmp = inputs.comparison
    changes: dict[str, list[dict[str, Any]]] = {}
    deltas: dict[str, dict[str, Any]] = {}
    if cmp is not None:
        for ch in cmp.card_changes:
            changes.setdefault(str(ch.get("card")), []).append(ch)
        deltas = {str(r["group"]): r for r in cmp.metrics.to_dicts()}
    diffs = {d["card"]: d["rows"] for d in card_diffs(inputs)}
    ids = [str(r["group"]) for r in rows if r.get("group") != "(none)"]
    ids += [cid for cid in changes if cid not in ids]
    table_rows = {str(r["group"]): r for r in rows}
    trial = {str(r["card"]): r for r in _trial_rows(inputs)}
    if trial:  # the sections follow the verdicts, then the cards the trial did not try
        ids = list(trial) + [cid for cid in ids if cid not in trial]
    views = []
    for cid in ids:
        card = by_id.get(cid)
        row = table_rows.get(cid)
        view = _card_view(cid, card, row, inputs)
        if cid in trial:
            view.metrics = [*trial_metrics(trial[cid]), *view.metrics]
            in_deck = in_deck_summary(row) if row is not None else ""
            view.summary = f"{trial_summary(trial[cid])} {in_deck}".strip()
            view.headline = trial_summary(trial[cid])
        view.changes = _changes(cid, card, inputs.reference_cards, changes.get(cid, []))
        view.diff_rows = diffs.get(cid, [])
        if cid in deltas:
            view.deltas, view.delta_flag = _deltas(deltas[cid])
        views.append(view)
    return views


def _changes(cid: str, card: Card | None, reference: dict[str, Card] | None,
             changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The card's changes from the reference run: first the rendered card text, word by word
    (a changed parameter changes the text a player reads), then the comparison's entries."""
    out = []
    old = (reference or {}).get(cid)
    if old is not None and card is not None and old.text != card.text:
        out.append({"change": "card text", "before": old.text, "after": card.text,
                    "diff": word_diff(old.text, card.text)})
    for ch in changes:
        if ch.get("change") == "text" and out:
            continue  # the same change, already shown as the card text
        out.append(dict(ch, diff=word_diff(ch.get("before") or "", ch.get("after") or "")))
    return out


def _card_view(cid: str, card: Card | None, row: dict[str, Any] | None,
               inputs: ReportInputs) -> CardView:
    name = card.name if card is not None else str((row or {}).get("name") or cid)
    view = CardView(id=cid, name=name, slug=slug(cid))
    if card is not None:
        view.school, view.text = card.school, card.text
        view.clarifications, view.flags = card.clarifications, card.flags
    else:
        view.text_note = "this card is not in the catalog the run used, or that catalog was " \
                         "not found"
    if row is not None:
        view.metrics = card_metrics(row)
        view.summary = card_summary(row, inputs.min_hands)
        view.headline = view.summary
    else:
        view.headline = "not played in this run"
    return view


def trial_metrics(row: dict[str, Any]) -> list[dict[str, str]]:
    """The card's trial figures, shown first in its section."""
    degenerate = bool(row.get("degenerate"))
    placement = row.get("measure") == "placement"
    kind = "result" if placement else "pts"
    value = {"label": "placement value (trial, result points per match)" if placement else
             "ability value (trial, points per hand)",
             "value": fmt.show(row.get("value"), kind, True),
             "span": "no hand changed" if degenerate else
             fmt.interval(row.get("value_lo"), row.get("value_hi"), kind, True)}
    relative = {"label": "against the deck's average card",
                "value": fmt.show(row.get("relative"), kind, True),
                "span": "" if degenerate else
                fmt.interval(row.get("relative_lo"), row.get("relative_hi"), kind, True)}
    beside = [{"label": "the hands alone (points per hand)",
               "value": fmt.show(row.get("pair_value"), "pts", True),
               "span": fmt.interval(row.get("pair_lo"), row.get("pair_hi"), "pts", True)}]
    if not placement and fmt.value(row.get("placement_value")) is not None:
        beside.append({"label": "placement (result points per match)",
                       "value": fmt.show(row.get("placement_value"), "result", True),
                       "span": fmt.interval(row.get("placement_lo"), row.get("placement_hi"),
                                            "result", True)})
    if placement:
        beside.append({"label": "over the match (points per hand)",
                       "value": fmt.show(row.get("whole_value"), "pts", True),
                       "span": fmt.interval(row.get("whole_lo"), row.get("whole_hi"), "pts",
                                            True)})
    if fmt.value(row.get("rank_gain")) is not None:
        beside.append({"label": "rank gain (places per match)",
                       "value": fmt.show(row.get("rank_gain"), "num", True),
                       "span": fmt.interval(row.get("rank_lo"), row.get("rank_hi"), "num",
                                            True)})
    return [value, relative, *beside,
            {"label": "trial hands (matches)",
             "value": f"{fmt.count(row.get('hands'))} ({fmt.count(row.get('matches'))})",
             "span": ""},
            {"label": "trial win rate, with / without the ability",
             "value": f"{fmt.show(row.get('win_rate'), 'pct')} / "
                      f"{fmt.show(row.get('win_rate_without'), 'pct')}", "span": ""}]


def trial_summary(row: dict[str, Any]) -> str:
    """One sentence on the card's ability value that says what its number shows: the verdict
    against the band, and where it stands against the deck's average card."""
    verdict = row.get("verdict") or "undecided"
    if row.get("degenerate") and verdict == "undecided":
        return (f"In its trial no hand came out differently with the ability "
                f"({fmt.count(row.get('hands'))} hands): {row.get('reason') or 'not measured'}.")
    lo, hi = fmt.value(row.get("relative_lo")), fmt.value(row.get("relative_hi"))
    side = (", above the deck's average card" if lo is not None and lo > 0 else
            ", below the deck's average card" if hi is not None and hi < 0 else
            ", not told apart from the deck's average card")
    edge = ("upper" if (fmt.value(row.get("relative")) or 0) > 0 else "lower")
    where = {
        "above": "above the balance band: a nerf candidate",
        "below": "below the balance band: a buff candidate",
        "inside": f"inside the balance band{side}",
        "at_edge": f"at the band's {edge} edge (within its indifference zone: more hands "
                   "would not tell a difference that matters)",
    }.get(verdict)
    if where is None:
        more = (f"; about {fmt.count(row['settle_hands'])} more of its hands would settle it"
                if row.get("settle_hands") is not None else "")
        where = f"undecided ({row.get('reason')}{more})"
    if row.get("bound") is not None and verdict != "undecided":
        where += f" ({row.get('reason')})"
    span = "" if row.get("degenerate") else \
        fmt.interval(row.get("value_lo"), row.get("value_hi"), "pts", True)
    return (f"Its ability is worth {fmt.pts(row.get('value'), True)} points per hand {span} "
            f"to the seat that plays it: {where}.").replace("  ", " ")


def in_deck_summary(row: dict[str, Any]) -> str:
    """The in-deck figures in a sentence that flags nothing (the verdict is the trial's)."""
    diff = fmt.with_interval(row.get("field_diff"), row.get("field_diff_lo"),
                             row.get("field_diff_hi"), "pts", True)
    return (f"In the natural run, on the hands the bots chose it for: {diff} points per hand "
            f"against the field over {fmt.count(row.get('hands'))} hands.")


def card_metrics(row: dict[str, Any]) -> list[dict[str, str]]:
    """A ``character_table`` row as labelled, formatted values with their intervals."""
    def m(label: str, v: Any, lo: Any = None, hi: Any = None, kind: str = "pts",
          signed: bool = False) -> dict[str, str]:
        shown = fmt.count(v) if kind == "count" else fmt.show(v, kind, signed)
        span = fmt.interval(lo, hi, kind, signed) if kind in ("pct", "num", "pts") else ""
        return {"label": label, "value": shown, "span": span}

    r = row
    return [
        m("hands played", r.get("hands"), kind="count"),
        m("matches", r.get("matches"), kind="count"),
        m("pick rate", r.get("pick_rate"), r.get("pick_lo"), r.get("pick_hi"), "pct"),
        m("point swing per hand", r.get("swing"), r.get("swing_lo"), r.get("swing_hi"),
          signed=True),
        m("against the field", r.get("field_diff"), r.get("field_diff_lo"),
          r.get("field_diff_hi"), signed=True),
        m("q-value (chance of a false alarm)", r.get("q_value"), kind="prob"),
        m("spread of swing (sd)", r.get("swing_sd")),
        m("win rate", r.get("win_rate"), r.get("win_lo"), r.get("win_hi"), "pct"),
        m("deal-in rate", r.get("deal_in_rate"), r.get("deal_in_lo"), r.get("deal_in_hi"),
          "pct"),
        m("tsumo share of wins", r.get("tsumo_share"), kind="pct"),
        m("riichi rate", r.get("riichi_rate"), kind="pct"),
        m("call rate", r.get("call_rate"), kind="pct"),
        m("tenpai at exhaustive draw", r.get("draw_tenpai_rate"), kind="pct"),
        m("average win", r.get("avg_win")),
        m("average deal-in", r.get("avg_deal_in")),
        m("average placement", r.get("avg_place"), r.get("avg_place_lo"),
          r.get("avg_place_hi"), "num"),
        m("first place", r.get("top_rate"), kind="pct"),
        m("second place", r.get("second_rate"), kind="pct"),
        m("third place", r.get("third_rate"), kind="pct"),
        m("last place", r.get("last_rate"), kind="pct"),
        m("average final result (thousands)", r.get("avg_result"), kind="num", signed=True),
        m("ability triggers per hand", r.get("triggers_per_hand"), kind="num"),
        m("value of a trigger (han or points)", r.get("trigger_value"), kind="auto"),
        (m("with minus without ability", r.get("paired_effect"), r.get("paired_lo"),
           r.get("paired_hi"), signed=True) if r.get("paired_changed") != 0 else
         {**m("with minus without ability", r.get("paired_effect"), signed=True),
          "span": "no pair differed"}),
    ]


def card_summary(row: dict[str, Any], min_hands: int) -> str:
    """One sentence on where the character stands, from its flag and field difference."""
    flag = row.get("flag") or ""
    hands = fmt.count(row.get("hands"))
    diff = fmt.with_interval(row.get("field_diff"), row.get("field_diff_lo"),
                             row.get("field_diff_hi"), "pts", True)
    if flag == "not enough data":
        return f"Only {hands} hands: too few to judge (at least {min_hands} are needed)."
    lo, hi = fmt.value(row.get("field_diff_lo")), fmt.value(row.get("field_diff_hi"))
    if flag == "strong":
        return f"Nerf candidate: {diff} points per hand against the field over {hands} hands."
    if flag == "weak":
        return f"Buff candidate: {diff} points per hand against the field over {hands} hands."
    if lo is not None and hi is not None and lo <= 0 <= hi:
        return (f"Within the field: {diff} points per hand against the field over {hands} "
                "hands; the interval includes zero.")
    return f"{diff} points per hand against the field over {hands} hands; not flagged."


def _deltas(r: dict[str, Any]) -> tuple[list[dict[str, str]], str]:
    """A ``Comparison.metrics`` row as labelled values in A and B and the change with its
    interval (shares change in percentage points)."""
    out = []
    for key, label, kind in DELTA_METRICS:
        change = "pp" if kind == "pct" else kind
        out.append({
            "label": label,
            "a": fmt.show(r.get(f"{key}_a"), kind, kind == "pts"),
            "b": fmt.show(r.get(f"{key}_b"), kind, kind == "pts"),
            "delta": fmt.show(r.get(f"{key}_delta"), change, True),
            "span": fmt.interval(r.get(f"{key}_delta_lo"), r.get(f"{key}_delta_hi"), change,
                                 True),
        })
    return out, str(r.get("flag") or "")


def _unplayed(inputs: ReportInputs, rows: list[dict[str, Any]]) -> list[str]:
    played = {str(r.get("group")) for r in rows}
    return [c.name for c in (inputs.cards or {}).values() if c.id not in played]


# --- files ----------------------------------------------------------------------------------


def default_report_path(run: Path, reference: Path | None = None) -> Path:
    """``reports/<run folder>.html``; for a comparison a name that says what differs, e.g.
    ``reports/cards-hanchan-1.2-vs-1.3-draft-s1-n400.html`` (the folders' names joined by
    ``-vs-`` when a run.json cannot be read)."""
    if reference is None:
        return REPORTS_DIR / f"{Path(run).name}.html"
    try:
        metas = [json.loads((Path(p) / "run.json").read_text()) for p in (reference, run)]
        name = comparison_names(metas[0], metas[1])[0]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        name = f"{Path(reference).name}-vs-{Path(run).name}"
    return REPORTS_DIR / f"{name}.html"


def comparison_names(a: dict[str, Any], b: dict[str, Any]) -> tuple[str, str]:
    """A file name and a phrase for the comparison of run A with run B, from their run.json
    (or :meth:`RunConfig.identity`) documents: what differs, in words, then what they share.
    ``("cards-hanchan-1.2-vs-1.3-draft-s1-n400", "catalog 1.2 → 1.3-draft (preset
    cards-hanchan, seed 1, 400 matches)")``."""
    pa, pb = a["preset"]["name"], b["preset"]["name"]
    ca, cb = a["catalog"]["version"], b["catalog"]["version"]
    edited = ca == cb and a["catalog"].get("content_hash") != b["catalog"].get("content_hash")
    cb_word = f"an edited {cb}" if edited else cb
    cb_name = f"edited-{cb}" if edited else cb
    differs, shared = [], []
    if pa != pb:
        differs.append(f"preset {pa} → {pb}")
    else:
        shared.append(f"preset {pa}")
    if ca != cb or edited:
        differs.append(f"catalog {ca} → {cb_word}")
    else:
        shared.append(f"catalog {ca}")
    for key, unit in (("seed", "seed {}"), ("games", "{:,} matches")):
        if a.get(key) != b.get(key):
            differs.append(f"{unit.format(a.get(key))} → {unit.format(b.get(key))}")
        else:
            shared.append(unit.format(a.get(key)))
    words = ", ".join(differs) or "the same configuration twice"
    words += f" ({', '.join(shared)})" if shared else ""
    if pa != pb and (ca != cb or edited):
        left, right = f"{pa}-{ca}", f"{pb}-{cb_name}"
        core = f"{left}-vs-{right}"
    elif pa != pb:
        core = f"{pa}-vs-{pb}-{ca}"
    else:
        core = f"{pa}-{ca}-vs-{cb_name}"
    sizes = {f"s{a.get('seed')}-n{a.get('games')}", f"s{b.get('seed')}-n{b.get('games')}"}
    name = f"{core}-{'-vs-'.join(sorted(sizes))}"
    return name, words


def write_report(report: Report, out: Path, *, apart: bool = False,
                 say: Callable[[str], None] | None = None) -> Path:
    """Write the single-file report (folders created as needed) and return where it went.

    A file there that holds the report of another configuration (the runs, the trial and
    its measure, the flag rule: :func:`set_config`) is never replaced silently: with
    ``apart`` (a default file name) this report goes beside it, its name ending in its
    configuration's digest (``<name>-<digest>.html``); a file the user named (``--out``) is
    replaced, and ``say`` hears which configuration it held."""
    out = Path(out)
    if out.is_dir():
        raise ReportError(f"{out} is a folder; give the report a file name such as "
                          f"{out / 'report.html'} (or use --site {out} for a site)")
    other = _other_configuration(out, report)
    if other is not None:
        if apart:
            named = out.with_name(f"{out.stem}-{report.context['config_digest']}{out.suffix}")
            note = (f"{out} holds the report of another configuration ({other}); this one "
                    f"({report.context['config_words']}) goes to {named}")
            out = named
        else:
            note = f"replacing {out}, the report of another configuration ({other})"
        if say is not None:
            say(note)
    _write(out, report.html())
    return out


def write_site(report: Report, folder: Path) -> Path:
    """Write ``index.html`` and ``cards/<id>.html`` into ``folder``, for any static host: one
    writer at a time, never over the site of another configuration."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"{folder} is a file; --site takes a folder to write index.html into")
    with OutputLock(folder, what="site", option="--site"):
        other = _other_configuration(folder / "index.html", report)
        if other is not None:
            raise ReportError(
                f"--site {folder} holds the site of another configuration ({other}); this "
                f"one is {report.context['config_words']}: choose another --site, or delete "
                f"{folder}")
        _write(folder / "index.html", report.html(site=True))
        for card in report.cards:
            _write(folder / "cards" / f"{card.slug}.html", report.card_html(card.id))
    return folder / "index.html"


_RECORDED = re.compile(r'<meta name="saki-config" content="([0-9a-f]+)">\s*'
                       r'<meta name="saki-config-words" content="([^"]*)">')


def _other_configuration(path: Path, report: Report) -> str | None:
    """The words of the configuration recorded in the page at ``path`` when it differs from
    ``report``'s; None when there is no page, it records none (an older report) or the same."""
    mine = report.context.get("config_digest")
    if mine is None or not path.is_file():
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    found = _RECORDED.search(head)
    if found is None or found.group(1) == mine:
        return None
    import html

    return html.unescape(found.group(2))


def _write(path: Path, text: str) -> None:
    """Write through a temporary file renamed into place: never a half-written page."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        if tmp.parent.is_dir():
            tmp.unlink(missing_ok=True)
        raise ReportError(f"{path}: cannot write the report ({exc.strerror or exc}); choose "
                          "another --out or --site") from None

