"""Assemble a balance report: the analytics tables of a run (and optionally of a reference run),
the card texts of its catalog, the figures, rendered to one self-contained HTML page.

:func:`build_report` calls :mod:`pipeline.analytics` (the one place metrics are computed) and
hands the results to :func:`render_inputs`, which only lays them out: it formats, sorts and
labels, and never computes a metric. :class:`Report` renders the single-file page and, for a
static site, one page per card.

The laying out is cut by job: the card text diffs (:mod:`pipeline.report.diffs`), the trial's
rows and verdicts (:mod:`pipeline.report.trial_rows`), one section per card
(:mod:`pipeline.report.card_sections`), and writing the page or the site
(:mod:`pipeline.report.write`). The names the rest of the lab read from here before that cut
are still read from here (imported as ``name as name``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

import pipeline
from pipeline.cards.catalog import Card, Catalog
from pipeline.datafiles import REPORTS_DIR as REPORTS_DIR
from pipeline.report import ReportError, fmt
from pipeline.report import figures as figs
from pipeline.report.card_sections import CardView, _card_views, _unplayed, slug
from pipeline.report.diffs import _plain, card_diffs, reading_diffs, side_by_side
from pipeline.report.diffs import word_diff as word_diff
from pipeline.report.pages import css, environment
from pipeline.report.trial_rows import (
    TRIAL_NOTE,
    _trial_candidates,
    _trial_open,
    _trial_rows,
    _trial_verdict,
    measure_band,
    report_trial_rows,
)
from pipeline.report.write import _write as _write
from pipeline.report.write import comparison_names
from pipeline.report.write import default_report_path as default_report_path
from pipeline.report.write import write_report as write_report
from pipeline.report.write import write_site as write_site
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


def build_report(run: Any, reference: Any = None, *, catalog: Catalog | None = None,
                 threshold: float = DEFAULT_THRESHOLD, min_hands: int = DEFAULT_MIN_HANDS,
                 trial: Path | None = None, levers: dict[str, str] | None = None,
                 measure: str = "points", reference_trial: Path | None = None,
                 team_trial: Path | None = None, gap: Path | None = None,
                 expert_trial: Path | None = None) -> Report:
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

    ``expert_trial`` (a trial of the same preset and catalog whose holder played the expert
    style, ``saki trial --holder-policy expert``, beside ``trial``) adds each card's value for
    an expert player, the skill ceiling, next to its ability value.
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
    expert_doc = None
    if expert_trial is not None:
        if trial_rows is None:
            raise ReportError("--expert-trial goes beside --trial: the value for an expert "
                              "player stands next to each card's ability value; give both "
                              "folders")
        expert_doc = check_expert_trial(run, Path(expert_trial))
        trial_rows = with_expert_values(trial_rows, Path(expert_trial), threshold, measure)
        trial_source = (f"{trial_source}; value for an expert player from {expert_trial} "
                        f"(seed {expert_doc.get('seed')})")
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
    if expert_doc is not None:  # ... and so is a report of another expert trial
        config = {**config, "expert_trial": {k: expert_doc.get(k) for k in
                                             ("seed", "bots", "holder_policy", "blocks")}}
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


def check_expert_trial(run: Any, folder: Path) -> dict[str, Any]:
    """The expert trial's record, once it is known to be a card trial of the run's deck whose
    holder played the expert style (else one line naming the fix)."""
    from pipeline.analytics.verdict import played_by_expert

    doc = check_trial(run, folder)
    if doc.get("kind") == "team" or not played_by_expert(doc):
        raise ReportError(f"--expert-trial {folder}: its holder did not play the expert style; "
                          "give the folder of 'saki trial --holder-policy expert'")
    return doc


def with_expert_values(rows: Any, folder: Path, threshold: float, measure: str) -> Any:
    """The trial's rows with each card's value for an expert player (``expert_value``,
    ``expert_lo``, ``expert_hi``, in the trial's measure; null for a card the expert trial did
    not measure)."""
    from pipeline.analytics.verdict import EXPERT_COLUMNS

    expert = report_trial_rows(folder, threshold, measure).select("card", *EXPERT_COLUMNS)
    return rows.join(expert, on="card", how="left", maintain_order="left")


def set_config(report: Report, config: dict[str, Any], words: str) -> None:
    """Record what the report shows (:func:`pipeline.sim.provenance.report_config`) in the
    report and in its pages, so a writer can tell a report of another configuration."""
    report.context["config"] = config
    report.context["config_digest"] = config_digest(config)
    report.context["config_words"] = words


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
        "trial_expert": bool(trial) and "expert_value" in trial[0],
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
