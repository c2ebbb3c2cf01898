"""The `saki` command: a thin layer over `pipeline`, with friendly errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from pipeline.datafiles import check_writable
from pipeline.errors import LabError
from pipeline.replay.record import RecordError
from pipeline.report import ReportError
from pipeline.report.balance import (
    DEFAULT_GAMES,
    DEFAULT_PRESET,
    TRIAL_HANDS_PER_SECOND,
)
from pipeline.rules.preset import describe_options, list_presets, load_preset
from pipeline.sim import SimError
from pipeline.verdicts import RACE_BUDGET_HANDS

app = typer.Typer(
    help="Saki Mahjong Cards balance lab: rules engine, simulations and balance reports.",
    no_args_is_help=True, add_completion=False,
)
presets_app = typer.Typer(help="Rule presets: list them, or show every option of one.",
                          no_args_is_help=True)
app.add_typer(presets_app, name="presets")
bots_app = typer.Typer(help="Bots: check how they play against human reference figures.",
                       no_args_is_help=True)
app.add_typer(bots_app, name="bots")
cards_app = typer.Typer(
    help="Character cards: list a catalog, show one card, start a draft, validate a file.\n\n"
    "Examples: saki cards list; saki cards show nodoka_haramura --catalog 1.2; "
    "saki cards new 1.3-draft --from 1.2; saki cards validate 1.3-draft",
    no_args_is_help=True,
)
app.add_typer(cards_app, name="cards")

F = TypeVar("F", bound=Callable[..., object])


# Options several commands take, declared once: one name, one help text
ExecutorOption = Annotated[str, typer.Option(
    help="Where matches are played: local (processes on this machine) or dask (a Dask "
    "cluster, with --scheduler; docs/cluster.md)")]
SchedulerOption = Annotated[str | None, typer.Option(
    help="Dask scheduler address for --executor dask, e.g. --scheduler tcp://10.0.0.5:8786")]

# finished work survives Ctrl-C:
RESUMABLE = frozenset(("simulate", "balance", "trial", "tune", "propose"))
INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C (128 + SIGINT)


def friendly(func: F) -> F:
    """Turn the project's known errors into one clear line and exit code 2, and Ctrl-C into
    one line (with how to resume, where the work resumes) and exit code 130."""

    @wraps(func)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            return func(*args, **kwargs)
        except (LabError, FileNotFoundError) as exc:
            typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            how = ": run the same command to resume" if func.__name__ in RESUMABLE else ""
            typer.secho(f"\ninterrupted{how}", fg=typer.colors.YELLOW, err=True)
            raise typer.Exit(INTERRUPTED) from None

    return wrapper  # type: ignore[return-value]


@presets_app.command("list")
@friendly
def presets_list() -> None:
    """List the shipped presets with their one-line description."""
    for name in list_presets():
        typer.echo(f"{name:<18} {load_preset(name).description}")


@presets_app.command("show")
@friendly
def presets_show(name: Annotated[str, typer.Argument(help="Preset name or path to a .toml file")]
                 ) -> None:
    """Show every option of a preset, with its meaning."""
    preset = load_preset(name)
    typer.echo(f"{preset.name}: {preset.description}\n")
    values = preset.to_dict()
    values.update({f"cards.{k}": v for k, v in values.pop("cards", {}).items()})
    for row in describe_options():
        key = row["key"]
        if key in ("name", "description"):
            continue
        value = values.get(key)
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        note = "" if shown == row["default"].strip('"') else f"   (default {row['default']})"
        typer.echo(f"{key:<28} {shown}{note}")
        rules = f" [{row['rules']}]" if row["rules"] else ""
        typer.echo(f"{'':<28}   {row['meaning']}; allowed: {row['allowed']}{rules}")


@app.command()
@friendly
def play(
    preset: Annotated[str, typer.Option(help="Preset name or .toml path")] = "online-hanchan",
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same match")] = 1,
    log: Annotated[bool, typer.Option(help="Also print every hand's full event log")] = False,
    bots: Annotated[str, typer.Option(
        help="Players at the table: heuristic, greedy or random; heuristic:STYLE plays a style "
        "of pipeline/data/bots/styles.toml, e.g. heuristic:careful")] = "heuristic",
) -> None:
    """Play one match and print it hand by hand with the final standings.

    Example: saki play --preset online-tonpuusen --seed 7 --bots random
    """
    from pipeline.bots.registry import make_agent
    from pipeline.rules.match import derive_seed, play_match

    rules = load_preset(preset)
    agents = [make_agent(bots, derive_seed(seed, 0, "agent", s))
              for s in range(rules.players)]
    table = None
    if rules.cards.enabled:
        from pipeline.cards.table import CardTable

        table = CardTable(rules, agents, seed, 0)

    def show(rec) -> None:
        if log:
            if rec.picks:  # the characters picked after the deal come first, as at the table
                typer.echo("picks " + ", ".join(f"P{s} {c}" for s, c in enumerate(rec.picks)))
            typer.echo(rec.log_text())
        typer.echo(rec.summary())

    result = play_match(rules, agents, seed, 0, on_hand=show, table=table)
    typer.echo("\nFinal standings (rank, seat, points, result):")
    typer.echo(result.standings())


@app.command()
@friendly
def replay(
    paths: Annotated[list[Path], typer.Argument(
        help="Record files or folders: Tenhou XML (.xml, .mjlog), Tenhou JSON (.json) or mjai "
        "(.jsonl, .json), each also as .gz")],
    preset: Annotated[str | None, typer.Option(
        help="Preset for the records' rules; its player count must be the records' (mjai logs "
        "hold no rules: name the ones they were played by). Default: each record under its "
        "own player count, online-hanchan for four players and tenhou-sanma for three")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="A record that stops mid-hand is refused instead of a hand counted "
        "as incomplete")] = False,
) -> None:
    """Replay game records through the engine and check every action and payment.

    Each file is replayed under the rules of its own player count (and the record's own rule
    flags); a file that cannot be replayed is refused and named, and the others still run.
    Exit code: 0 clean, 1 a mismatch, 2 a file refused (and no mismatch).

    Example: saki replay ../shared/validation/tenhou-xml; saki replay --preset riichienv
    games/*.jsonl
    """
    from pipeline.replay.replayer import replay_paths

    for p in paths:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or folder")
    from pipeline.sim.card_log import check_card_log

    report = replay_paths(list(paths), preset, strict=strict, card_checker=check_card_log)
    if not report.files and len(report.refused) == 1:
        raise RecordError(report.refused[0])  # the one file given: one line, exit 2
    for m in report.skipped:
        typer.echo(f"SKIPPED {m}")
    for m in report.incomplete:
        typer.echo(f"INCOMPLETE {m}")
    for m in report.mismatches:
        typer.echo(f"MISMATCH {m}")
    for line in report.refused:
        typer.echo(f"REFUSED {line}")
    typer.echo(report.summary())
    if report.mismatches:
        raise typer.Exit(1)
    if report.refused:
        raise typer.Exit(2)


@bots_app.command("calibrate")
@friendly
def bots_calibrate(
    preset: Annotated[str, typer.Option(help="Preset name or .toml path")] = "online-hanchan",
    games: Annotated[int, typer.Option(min=1, help="Matches to play")] = 100,
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same matches")] = 1,
    bot: Annotated[str, typer.Option(
        help="Bot kind under test, e.g. heuristic or heuristic:caller (a style of "
        "pipeline/data/bots/styles.toml)")] = "heuristic",
    vs: Annotated[str | None, typer.Option(
        help="Baseline kind (greedy, random, or a heuristic style such as heuristic:careful): "
        "two of each, seats rotating")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Processes playing matches")] = 1,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
) -> None:
    """Play matches and compare win, deal-in, riichi, call and draw rates with human play.

    Example: saki bots calibrate --preset online-hanchan --games 200 --vs greedy --workers 4
    """
    import json

    from pipeline.bots.calibrate import calibrate

    if fmt not in ("table", "json"):
        typer.secho(f"error: unknown format {fmt!r} (known: table, json)",
                    fg=typer.colors.RED, err=True)
        raise typer.Exit(2)
    rules = load_preset(preset)
    report = calibrate(rules, games, seed, seats=(bot,) * rules.players, vs=vs,
                       workers=workers)
    if fmt == "json":
        typer.echo(json.dumps(report.as_dict(), indent=2))
        return
    typer.echo(report.as_table())
    if vs is not None:
        typer.echo("\nAverage placement per bot kind (1 = first):")
        typer.echo(report.placement_table())


@bots_app.command("fit-picks")
@friendly
def bots_fit_picks(
    trial: Annotated[Path, typer.Argument(help="A trial folder (saki trial --out) of the deck")],
    catalog: Annotated[str, typer.Option(help="Catalog version or .toml path")] = "1.2",
    hands: Annotated[int, typer.Option(
        min=10, help="Starting situations the estimates are averaged over")] = 400,
    out: Annotated[Path | None, typer.Option(
        help="Write the offsets file here, e.g. pipeline/data/bots/pick_offsets.toml (the "
        "shipped one); without it the fit is only shown")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
) -> None:
    """Fit the pick estimates to a card trial: each card's estimate, trial value and offset,
    each effect kind's gap, and the rank correlations on held-out matches.

    Example: saki bots fit-picks data/runs/trial-cards-hanchan-1.2-s1 --out
    pipeline/data/bots/pick_offsets.toml
    """
    import json

    from pipeline.analytics.pick_fit import fit_trial, kind_summary, offsets_toml
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.run import atomic_write

    _check_format(fmt, ("table", "json"))
    if out is not None:
        check_writable(out, "--out", SimError, folder=False)
    table, check = fit_trial(trial, load_catalog(catalog), hands)
    if out is not None:
        atomic_write(out, offsets_toml(table, trial, check, hands).encode())
    if fmt == "json":
        typer.echo(json.dumps({"cards": table.to_dicts(), "check": check.as_dict()}, indent=2))
        return
    typer.echo(f"{'card':24} {'estimate':>9} {'trial value':>12} {'+-':>6} {'offset':>8}  "
               "effects")
    for r in table.sort("value", descending=True).iter_rows(named=True):
        half = "     -" if r["half_width"] is None else f"{r['half_width']:6,.0f}"
        typer.echo(f"{r['name'][:24]:24} {r['estimate']:+9,.0f} {r['value']:+12,.0f} {half} "
                   f"{r['offset']:+8,.0f}  {r['kinds']}")
    typer.echo("\nBy effect kind (mean gap = trial value - estimate):")
    for r in kind_summary(table).iter_rows(named=True):
        typer.echo(f"  {r['kind']:24} gap {r['gap']:+7,.0f}  ({r['cards']})")
    typer.echo(
        f"\nRank correlation (Spearman) with the trial values, {check.cards} cards: raw "
        f"estimates {check.raw:.2f}; on held-out matches raw {check.held_out_raw:.2f}, fitted "
        f"{check.held_out_fitted:.2f} (two halves of the trial against each other: "
        f"{check.halves:.2f}, for scale)")
    if out is not None:
        typer.echo(f"offsets written to {out}")


@bots_app.command("gap")
@friendly
def bots_gap(
    card: Annotated[str | None, typer.Argument(
        help="The card's id, e.g. kuro_matsumi (or --all)")] = None,
    all_cards: Annotated[bool, typer.Option(
        "--all", help="Every card of the deck with a choice or a tile incentive")] = False,
    policies: Annotated[str | None, typer.Option(
        help="Policies to compare with the shipped one, comma-separated: no-incentives, "
        "always, never, expert (the expert style's rollouts; slow), and hindsight (the best of "
        "the others on each match, an upper bound) (default: those that apply to the card, "
        "with hindsight, without expert)")] = None,
    seed: Annotated[int, typer.Option(
        help="Seed: the same seed plays the same matches, e.g. --seed 2")] = 1,
    matches: Annotated[int, typer.Option(
        min=1, help="Matches per policy (rounded up to whole blocks, one per seat)")] = 64,
    preset: Annotated[str, typer.Option(help="Card preset name or .toml path")] =
        "cards-hanchan",
    cards: Annotated[str | None, typer.Option(
        "--cards", "--catalog", help="Card catalog version or .toml path (default: the "
        "preset's catalog)")] = None,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Processes playing matches (default: all cores); the result does not "
        "depend on it")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Folder of the policies' trials (default: data/runs/gap-<preset>-<catalog>-"
        "s<seed>)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
) -> None:
    """A card's value under the shipped bot policy and under simple alternatives (its tile
    incentives ignored, every optional offer taken, every one declined) on the same matches,
    and in hindsight (the best of them on each match: an upper bound), with paired intervals:
    whether the bots limit the card's value (docs/trials.md).

    Example: saki bots gap kuro_matsumi --seed 1 --format json
    """
    import json

    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.policy_gap import card_policies, gap_cards, policy_gap
    from pipeline.sim.trial import trial_deck

    _check_format(fmt, ("table", "json"))
    if (card is None) == (not all_cards):
        raise SimError("name one card (e.g. saki bots gap kuro_matsumi) or use --all")
    rules = load_preset(preset)
    catalog = load_catalog(cards or rules.cards.catalog)
    deck = trial_deck(catalog, rules)
    chosen = gap_cards(catalog, deck) if all_cards else [card]
    if card is not None and card not in deck:
        raise SimError(f"{card!r} is not a card of catalog {catalog.version}'s deck for preset "
                       f"{rules.name!r} ('saki cards list' shows them)")
    blocks = -(-matches // rules.players)
    results = []
    for c in chosen:
        names = (tuple(p.strip() for p in policies.split(",") if p.strip()) if policies
                 else card_policies(catalog, c))
        results.append(policy_gap(rules, catalog, c, names, seed=seed, blocks=blocks,
                                  out=out, workers=workers))
    if fmt == "json":
        docs = [r.as_dict() for r in results]
        typer.echo(json.dumps(docs[0] if card is not None else docs, indent=2))
        return

    def interval(lo: float, hi: float) -> str:
        return "[no interval]" if lo != lo else f"[{lo:+,.0f}, {hi:+,.0f}]"

    for r in results:
        typer.echo(f"{r.card} (seed {r.seed}): points per hand on the same matches")
        typer.echo(f"  {'policy':14} {'hands':>6} {'value':>7} {'interval':>18} {'gap':>7} "
                   f"{'gap interval':>18}")
        for row in r.rows:
            gap = "    (reference)" if row.policy == r.rows[0].policy else \
                f"{row.gap:+7,.0f} {interval(row.gap_lo, row.gap_hi):>18}"
            typer.echo(f"  {row.policy:14} {row.hands:6,} {row.value:+7,.0f} "
                       f"{interval(row.value_lo, row.value_hi):>18} {gap}")
        verdict = ("this card's value is limited by the bots: "
                   + ", ".join(x.policy for x in r.rows if x.beats_shipped)
                   + " beats the shipped policy") if r.limited_by_bots else \
            "no simple policy beats the shipped one significantly (95%)"
        typer.echo(f"  best: {r.best.policy}; {verdict}")


@cards_app.command("list")
@friendly
def cards_list(
    catalog: Annotated[str, typer.Option(help="Catalog version or .toml path")] = "1.2",
) -> None:
    """List every card of a catalog: id, name, school, implemented or not, flags.

    Example: saki cards list --catalog 1.2
    """
    from pipeline.cards.catalog import load_catalog
    from pipeline.cards.registry import playable

    cat = load_catalog(catalog)
    rows = [("id", "name", "school", "implemented", "flags")]
    rows += [(c.id, c.name, c.school, "yes" if playable(c) else "no",
              ", ".join(c.flags) or "-") for c in cat]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        typer.echo("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=False))
                   + "  " + row[4])
    done = sum(playable(c) for c in cat)
    typer.echo(f"\n{len(cat)} cards in catalog {cat.version}, {done} implemented")


@cards_app.command("show")
@friendly
def cards_show(
    card_id: Annotated[str, typer.Argument(metavar="ID", help="Card id, e.g. nodoka_haramura")],
    catalog: Annotated[str, typer.Option(help="Catalog version or .toml path")] = "1.2",
) -> None:
    """Show one card: rendered text, clarifications, effects and implementation status.

    Example: saki cards show nodoka_haramura --catalog 1.2
    """
    import textwrap

    from pipeline.cards.catalog import load_catalog
    from pipeline.cards.registry import missing_kinds

    cat = load_catalog(catalog)
    card = cat.card(card_id)
    typer.echo(f"{card.id}: {card.name} ({card.school}), catalog {cat.version}\n")
    typer.echo(textwrap.fill(card.text, 98, initial_indent="  ", subsequent_indent="  "))
    if card.clarifications:
        typer.echo("\nClarifications:")
        for note in card.clarifications:
            typer.echo(textwrap.fill(note, 98, initial_indent="  - ", subsequent_indent="    "))
    typer.echo(f"\nFlags: {', '.join(card.flags) or 'none'}")
    typer.echo("\nEffects:")
    for eff in card.effects:
        typer.echo(f"  {eff.id}: {eff.kind} ({eff.spec.family})")
        if eff.params:
            typer.echo(f"      {eff.describe()}")
    missing = missing_kinds(card)
    status = "yes" if not missing else f"no; missing kinds: {', '.join(missing)}"
    typer.echo(f"\nImplemented: {status}")


@cards_app.command("readings")
@friendly
def cards_readings(
    catalog: Annotated[str, typer.Option(help="Catalog version or .toml path")] = "1.2",
    format: Annotated[str, typer.Option("--format", help="table or json")] = "table",
) -> None:
    """List every reading option: where a card text leaves a case open, the choices the lab
    can play, the one this catalog plays (default first) and what each means.

    Change one by setting the option in a copy of the catalog, e.g. always_winning =
    "shapeless" under Koromo's last_tile effect.

    Example: saki cards readings --catalog 1.2 --format json
    """
    import json
    import textwrap

    from pipeline.cards.catalog import load_catalog
    from pipeline.cards.readings import reading_rows

    _check_format(format, ("table", "json"))
    rows = reading_rows(load_catalog(catalog))
    if format == "json":
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for row in rows:
        marker = "" if row["value"] == row["default"] else "  (not the default)"
        typer.echo(f"{row['card']}.{row['effect']}.{row['option']} = {row['value']}{marker}")
        for choice in row["choices"]:
            mark = "*" if choice["value"] == row["value"] else " "
            typer.echo(textwrap.fill(f"{choice['value']}: {choice['meaning']}", 98,
                                     initial_indent=f"  {mark} ", subsequent_indent="      "))
    typer.echo(f"\n{len(rows)} readings; * marks the one played")


@cards_app.command("validate")
@friendly
def cards_validate(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="Catalog file (.toml path) or version")],
) -> None:
    """Check a catalog file: "ok: N cards", or the one-line error and exit code 2.

    The error names the file, the card, the effect and the field at fault.

    Example: saki cards validate data/cards/1.3-draft.toml
    """
    from pipeline.cards.catalog import load_catalog

    typer.echo(f"ok: {len(load_catalog(file))} cards")


@cards_app.command("new")
@friendly
def cards_new(
    name: Annotated[str, typer.Argument(metavar="NAME",
                                        help="The draft's version, e.g. 1.3-draft")],
    source: Annotated[str, typer.Option(
        "--from", help="Catalog to copy: a version or a .toml path")] = "1.2",
) -> None:
    """Start a draft catalog: data/cards/NAME.toml, a copy of --from with its version set to
    NAME, ready to edit and to compare with the original.

    Example: saki cards new 1.3-draft --from 1.2
    """
    from pipeline.cards.drafts import new_draft
    from pipeline.datafiles import display_path

    path = display_path(new_draft(name, source))
    typer.echo(f"wrote {path}: catalog {source} with its version set to {name!r}\n")
    typer.echo("next:")
    typer.echo(f"  1. edit a card's parameters or text in {path}")
    typer.echo(f"  2. check it:       saki cards validate {name}")
    typer.echo(f"  3. see a card:     saki cards show nodoka_haramura --catalog {name}")
    typer.echo(f"  4. measure it:     saki balance --cards {name} --compare-cards {source}")


@app.command()
@friendly
def simulate(
    preset: Annotated[str, typer.Option(
        help="Preset name or .toml path, e.g. --preset online-hanchan")] = "online-hanchan",
    cards: Annotated[str | None, typer.Option(
        help="Card catalog version or .toml path, e.g. --cards 1.2 "
        "(default: the preset's catalog)")] = None,
    games: Annotated[int, typer.Option(min=1, help="Matches to play, e.g. --games 1000")] = 100,
    seed: Annotated[int, typer.Option(
        help="Run seed: the same seed plays the same matches, e.g. --seed 7")] = 1,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Processes playing matches (default: all cores); the tables do not depend "
        "on it, e.g. --workers 4")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Run folder (default: data/runs/<preset>-<catalog>-s<seed>-n<games>), "
        "e.g. --out data/runs/trial")] = None,
    bots: Annotated[str, typer.Option(
        help="Bot kind for all four seats, or four kinds seat 0 first, e.g. --bots heuristic "
        "or --bots heuristic,greedy,greedy,greedy; heuristic:STYLE plays a style of "
        "pipeline/data/bots/styles.toml, e.g. --bots heuristic,heuristic:careful,heuristic:caller,"
        "heuristic:pusher")] = "heuristic",
    force: Annotated[bool, typer.Option(
        "--force", help="Delete a run of another configuration in the out folder (or this "
        "run's finished shards) and start again")] = False,
    shard_size: Annotated[int, typer.Option(
        min=1, help="Advanced: matches per shard file; part of the run's identity, "
        "e.g. --shard-size 25")] = 25,
    paired: Annotated[bool, typer.Option(
        "--paired", help="Also play every hand with a character again without its ability "
        "and write both outcomes to a pairs table (card presets; docs/paired.md)")] = False,
    executor: ExecutorOption = "local",
    scheduler: SchedulerOption = None,
) -> None:
    """Play many matches of bots and write their hands, matches and events as Parquet tables.

    Running the same command again resumes an interrupted run where it stopped; the tables end
    up the same as an uninterrupted run's, whatever the number of workers.

    Example: saki simulate --preset online-tonpuusen --cards 1.2 --games 1000 --seed 7
    """
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.executor import make_executor
    from pipeline.sim.run import ProgressBar, RunConfig, parse_bots
    from pipeline.sim.run import simulate as run_simulation

    if out is not None:
        check_writable(out, "--out", SimError, folder=True)
    rules = load_preset(preset)
    config = RunConfig(preset=rules, catalog=load_catalog(cards or rules.cards.catalog),
                       seed=seed, games=games, bots=parse_bots(bots), shard_size=shard_size,
                       paired=paired)
    runner = make_executor(executor, workers=workers, scheduler=scheduler)
    try:
        with ProgressBar() as bar:
            summary = run_simulation(config, out, force=force, progress=bar, executor=runner)
    finally:
        runner.close()
    typer.echo(summary.describe())


@app.command()
@friendly
def trial(
    cards: Annotated[str | None, typer.Option(
        "--cards", "--catalog", help="Card catalog version or .toml path (default: the "
        "preset's catalog), e.g. --cards data/cards/1.3-draft.toml")] = None,
    preset: Annotated[str, typer.Option(
        help="Card preset name or .toml path, e.g. --preset cards-tonpuusen")] = "cards-hanchan",
    only: Annotated[str | None, typer.Option(
        help="Cards to try, comma-separated ids (default: every card of the deck), e.g. "
        "--only nodoka_haramura,kasumi_iwato")] = None,
    target: Annotated[float | None, typer.Option(
        help="A precision run instead of racing to verdicts: the interval half-width to reach "
        "per card, in points per hand, e.g. --target 100")] = None,
    budget_hands: Annotated[int | None, typer.Option(
        min=1, help="Most hands of trial matches in all (each match also played without the "
        f"ability; default {RACE_BUDGET_HANDS:,} racing, 20,000 with --target), e.g. "
        "--budget-hands 50000")
    ] = None,
    band: Annotated[str | None, typer.Option(
        help="The balance band LO:HI in points per hand (default: the deck's average card "
        "plus or minus --threshold), e.g. --band 300:1100")] = None,
    threshold: Annotated[float | None, typer.Option(
        help="Half-width of the balance band around the deck's average, in the measure's "
        "unit (default 300 points per hand, 5 result points per match)")] = None,
    zone: Annotated[float | None, typer.Option(
        help="Indifference zone around each band edge, in the measure's unit: a card within "
        "it is reported at the edge (default 100 points per hand, 1.5 result points)")
    ] = None,
    measure: Annotated[str, typer.Option(
        help="What the verdicts are asked on: points (per hand, over the whole match) or "
        "placement (result points per match under the preset's uma and oka)")] = "points",
    seed: Annotated[int, typer.Option(
        help="Seed: the same seed plays the same matches, e.g. --seed 7")] = 1,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Processes playing matches (default: all cores); the result does not "
        "depend on it")] = None,
    bots: Annotated[str, typer.Option(
        help="Bot kind for all four seats, or four kinds seat 0 first, e.g. "
        "--bots heuristic:careful")] = "heuristic",
    holder_policy: Annotated[str | None, typer.Option(
        help="The holder's policy instead of its seat's bot (saki bots gap's: no-incentives, "
        "always, never, expert); expert gives each card's value for an expert player "
        "(expert_value; slow: rollouts at the card's choices)")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Trial folder (default: data/runs/trial-<preset>-<catalog>-s<seed>)")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Delete a trial of another configuration in the out folder")] = False,
    executor: ExecutorOption = "local",
    scheduler: SchedulerOption = None,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
    kind: Annotated[str, typer.Option(
        help="ability: the card played every hand against no ability; team: the card in an "
        "ordinary team, each hand it is picked against the team's next choice (its worth in "
        "a team; a precision run judged against the team band, default folder "
        "data/runs/team-trial-<preset>-<catalog>-s<seed>)")] = "ability",
) -> None:
    """Measure each card's ability value and decide it against the balance band: one seat
    holds the card and plays it every hand, each match is played again without the ability
    (and the hands of a card's first 64 matches replayed without it, for the in-hand figures),
    and hands go to the cards still undecided until every card is above, inside, below or at an
    edge of the band (docs/trials.md). --target makes it a precision run instead. --kind team
    measures each card's worth in a team instead: team_value, team_lo, team_hi, pick_share.

    Running the same command again resumes or reuses the trial's matches.

    Example: saki trial --only kasumi_iwato,teru_miyanaga,kei_arakawa --band 300:1100 --seed 5
    """
    from pipeline.analytics.render import render_trial
    from pipeline.analytics.verdict import verdict_table
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.executor import make_executor
    from pipeline.sim.run import parse_bots
    from pipeline.sim.trial import (
        DEFAULT_BUDGET_HANDS,
        DEFAULT_TARGET,
        TrialConfig,
        TrialTicker,
        run_trial,
        trial_deck,
    )

    if fmt not in ("table", "json"):
        raise SimError(f"--format {fmt!r} is not known; use --format table or --format json")
    if kind not in ("ability", "team"):
        raise SimError(f"--kind {kind!r} is not known; use --kind ability or --kind team")
    if holder_policy is not None:
        from pipeline.bots.policies import UnknownPolicyError, check_policy

        if kind == "team":
            raise SimError("--holder-policy applies to --kind ability trials only")
        try:
            check_policy(holder_policy)
        except UnknownPolicyError as exc:
            raise SimError(f"--holder-policy: {exc}") from None
    if kind == "team":  # a precision run; its verdicts are read against the team band
        _team_trial(cards, preset, only, target, budget_hands, seed, workers, bots, out, force,
                    executor, scheduler, fmt, _band_spec(band, threshold, zone))
        return
    spec = _band_spec(band, threshold, zone, measure)
    rules = load_preset(preset)
    catalog = load_catalog(cards or rules.cards.catalog)
    chosen = (tuple(c.strip() for c in only.split(",") if c.strip()) if only is not None
              else tuple(trial_deck(catalog, rules)))  # --only "" names no card: refused
    if only is None and not chosen:
        raise SimError(f"{rules.source or rules.name}: the deck has no cards to try (catalog "
                       f"{catalog.version} without [cards] exclude); exclude fewer cards")
    racing = target is None
    budget = budget_hands or (RACE_BUDGET_HANDS if racing else DEFAULT_BUDGET_HANDS)
    config = TrialConfig(preset=rules, catalog=catalog, seed=seed, cards=chosen,
                         bots=parse_bots(bots), target=DEFAULT_TARGET if racing else target,
                         budget_hands=budget, band=spec if racing else None,
                         measure=measure, holder_policy=holder_policy or "")
    out = out or config.default_out()
    check_writable(out, "--out", SimError, folder=True)
    runner = make_executor(executor, workers=workers, scheduler=scheduler)
    ticker = TrialTicker(lambda text: typer.echo(text, err=True))

    def say(r) -> None:
        ticker.round(r)
        if r.verdicts:
            open_ = sum(not v.decided for v in r.verdicts)
            typer.echo(f"round {r.index + 1}: {sum(r.added.values()) * config.block} matches "
                       f"for {len(r.added)} cards; {len(r.verdicts) - open_} decided, "
                       f"{open_} undecided", err=True)
            return
        widths = [p.half_width for p in r.progress if p.half_width == p.half_width]
        widest = f"{max(widths):,.0f}" if widths else "-"
        typer.echo(f"round {r.index + 1}: {sum(r.added.values()) * config.block} matches for "
                   f"{len(r.added)} cards; widest half-width {widest}", err=True)

    try:
        summary = run_trial(config, out, executor=runner, force=force, say=say,
                            on_match=ticker.match)
    finally:
        runner.close()
    table = verdict_table(summary.out, spec, config.cards, measure=measure)
    typer.echo(render_trial(table, fmt, _printed_config(summary.out, "trial", config.cards,
                                                        spec, measure)))
    if fmt == "table":
        typer.echo(summary.describe())


def _team_trial(cards: str | None, preset: str, only: str | None, target: float | None,
                budget_hands: int | None, seed: int, workers: int | None, bots: str,
                out: Path | None, force: bool, executor: str, scheduler: str | None,
                fmt: str, spec) -> None:
    """``saki trial --kind team``: each card's worth in a team, and its verdict against the
    team band (docs/trials.md)."""
    from pipeline.analytics.team import render_team, team_band_table
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.executor import make_executor
    from pipeline.sim.run import parse_bots
    from pipeline.sim.team_trial import TeamTrialConfig, run_team_trial
    from pipeline.sim.trial import DEFAULT_BUDGET_HANDS, DEFAULT_TARGET, TrialTicker, trial_deck

    rules = load_preset(preset)
    catalog = load_catalog(cards or rules.cards.catalog)
    chosen = (tuple(c.strip() for c in only.split(",") if c.strip()) if only is not None
              else tuple(trial_deck(catalog, rules)))  # --only "" names no card: refused
    config = TeamTrialConfig(preset=rules, catalog=catalog, seed=seed, cards=chosen,
                             bots=parse_bots(bots),
                             target=DEFAULT_TARGET if target is None else target,
                             budget_hands=budget_hands or DEFAULT_BUDGET_HANDS)
    runner = make_executor(executor, workers=workers, scheduler=scheduler)
    ticker = TrialTicker(lambda text: typer.echo(text, err=True))  # a line every 5 s

    def say(r) -> None:
        ticker.round(r)
        widths = [p.half_width for p in r.progress if p.half_width == p.half_width]
        widest = f"{max(widths):,.0f}" if widths else "-"
        typer.echo(f"round {r.index + 1}: {sum(r.added.values()) * config.block} matches for "
                   f"{len(r.added)} cards; widest half-width {widest}", err=True)

    try:
        summary = run_team_trial(config, out, executor=runner, force=force, say=say,
                                 on_match=ticker.match)
    finally:
        runner.close()
    typer.echo(render_team(team_band_table(summary.out, spec, config.cards), fmt,
                           _printed_config(summary.out, "trial", config.cards, spec)))
    if fmt == "table":
        typer.echo(summary.describe())


def _band_spec(band: str | None, threshold: float | None, zone: float | None,
               measure: str = "points"):
    """The band of --band LO:HI, or the deck's average card +/- --threshold; --zone; both in
    the unit of --measure (their defaults too)."""
    from pipeline.sim.card_value import DEFAULT_THRESHOLD, DEFAULT_ZONE, UNITS, check_measure
    from pipeline.verdicts import BandSpec

    check_measure(measure)
    threshold = DEFAULT_THRESHOLD[measure] if threshold is None else threshold
    zone = DEFAULT_ZONE[measure] if zone is None else zone
    if threshold <= 0:
        raise SimError(f"--threshold must be above 0 {UNITS[measure]}, got {threshold:g}")
    if zone < 0:
        raise SimError(f"--zone must be 0 or more {UNITS[measure]}, got {zone:g}")
    lo, hi = _parse_band(band) if band is not None else (None, None)
    return BandSpec(threshold=threshold, lo=lo, hi=hi, zone=zone, unit=UNITS[measure],
                    digits=1 if measure == "placement" else 0)


@app.command()
@friendly
def tune(
    address: Annotated[str, typer.Argument(
        metavar="CARD[.EFFECT.PARAM]", help="What to sweep: a card's parameter, e.g. "
        "kasumi_iwato.shown.han, or a card alone for every number one step down and up")],
    values: Annotated[str | None, typer.Option(
        help="Values to play, comma-separated (a list value as 1/2/3, lists ';'-separated), "
        "e.g. --values 1,2")] = None,
    value_range: Annotated[str | None, typer.Option(
        "--range", help="Values A to B in steps, e.g. --range 1:3 or --range 1000:3000:500")
    ] = None,
    cards: Annotated[str | None, typer.Option(
        "--cards", "--catalog", help="Card catalog version or .toml path (default: the "
        "preset's catalog)")] = None,
    preset: Annotated[str, typer.Option(help="Card preset name or .toml path")] = "cards-hanchan",
    target: Annotated[float, typer.Option(
        help="Interval half-width to reach per value, points per hand")] = 150.0,
    budget_hands: Annotated[int | None, typer.Option(
        min=1, help="Most hands of trial matches per value (default: 20,000, fewer when "
        "there are many values, so a sweep stays within 120,000 hands, about 5 minutes on 2 "
        "cores)")] = None,
    seed: Annotated[int, typer.Option(help="Seed: every value plays the same matches")] = 1,
    workers: Annotated[int | None, typer.Option(min=1, help="Processes playing matches")] = None,
    bots: Annotated[str, typer.Option(help="Bot kind for all four seats, or four kinds")
    ] = "heuristic",
    band: Annotated[str | None, typer.Option(
        help="The balance band LO:HI in points per hand (default: the deck's average card "
        "value from a deck trial, plus or minus --threshold)")] = None,
    threshold: Annotated[float, typer.Option(
        help="Half-width of the balance band around the deck's average, points per hand")
    ] = 300.0,
    out: Annotated[Path | None, typer.Option(
        help="Sweep folder (default: data/runs/tune-<address>-<catalog>-s<seed>)")] = None,
    page: Annotated[Path | None, typer.Option(
        help="Also write the tuning page (HTML) here, e.g. --page reports/tune-kasumi.html")
    ] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace trials of another configuration in the folder")] = False,
    executor: ExecutorOption = "local",
    scheduler: SchedulerOption = None,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
) -> None:
    """Which value of a card's number balances it: the card's trial played once per value on
    the same matches, each value's ability value with its interval, each step's difference,
    and the values inside the balance band (docs/tuning.md).

    Examples: saki tune kasumi_iwato.shown.han --values 1,2 --target 400;
    saki tune koromo_amae.last_tile.always_winning (every reading); saki tune komaki_jindai
    """
    from pipeline.analytics.render import render_tune
    from pipeline.analytics.tune import sweep_band, tune_table
    from pipeline.cards.catalog import load_catalog
    from pipeline.sim.executor import make_executor
    from pipeline.sim.run import parse_bots
    from pipeline.sim.tune import (
        Lever,
        TuneConfig,
        default_folder,
        levers_of,
        parse_address,
        read_tune,
        run_tune,
        sweep_values,
    )

    _check_format(fmt, ("table", "json"))
    rules = load_preset(preset)
    catalog = load_catalog(cards or rules.cards.catalog)
    card, eff, param = parse_address(catalog, address)
    if eff is None:
        if values is not None or value_range is not None:
            raise SimError("tune: --values and --range need a parameter, e.g. "
                           f"{card.id}.EFFECT.PARAM ('saki cards show {card.id}' lists them)")
        levers = levers_of(card)
        if not levers:
            raise SimError(f"tune: card {card.id!r} has no number to step; sweep a reading "
                           f"instead, e.g. {card.id}.EFFECT.OPTION ('saki cards readings')")
    else:
        chosen = sweep_values(card, eff, param, values, value_range)
        levers = [Lever(card.id, eff.id, param, chosen, eff.params[param])]
    fixed_band = _parse_band(band) if band is not None else None
    if budget_hands is None:  # a sweep of many values must not run for an hour by mistake
        count = sum(len(lv.values) for lv in levers)
        budget_hands = max(1_000, min(TUNE_VALUE_BUDGET, TUNE_TOTAL_BUDGET // max(count, 1)))
    config = TuneConfig(preset=rules, catalog=catalog, seed=seed, card=card.id,
                        levers=tuple(levers), bots=parse_bots(bots), target=target,
                        budget_hands=budget_hands)
    folder = out or default_folder(address, catalog.version, seed)
    check_writable(folder, "--out", SimError, folder=True)
    if page is not None:  # refused now, not after the whole sweep
        check_writable(page, "--page", SimError, folder=False)
    runner = make_executor(executor, workers=workers, scheduler=scheduler)
    try:
        result = run_tune(config, folder, band=fixed_band, executor=runner, force=force,
                          say=lambda text: typer.echo(text, err=True))
    finally:
        runner.close()
    doc = read_tune(result.out)
    drawn = sweep_band(doc, threshold, result.out)
    table = tune_table(result.out, doc, drawn)
    typer.echo(render_tune(table, drawn, card.name, fmt,
                           _printed_config(result.out, "sweep", (doc["card"],))))
    if page is not None:
        from pipeline.report.tuning import write_tuning_page

        written = write_tuning_page(table, drawn, doc, card.name, page)
        typer.echo(f"tuning page: {written.resolve().as_uri()}", err=True)


TUNE_VALUE_BUDGET = 20_000    # hands of trial matches per value of a sweep, by default
TUNE_TOTAL_BUDGET = 120_000   # ... and at most this many in all (about 5 minutes on 2 cores)


@app.command()
@friendly
def propose(
    cards: Annotated[str | None, typer.Option(
        "--cards", "--catalog", help="Card catalog version or .toml path to start from "
        "(default: the preset's catalog)")] = None,
    preset: Annotated[str, typer.Option(help="Card preset name or .toml path")] = "cards-hanchan",
    only: Annotated[str | None, typer.Option(
        help="Cards to judge and change, comma-separated ids (default: every card of the "
        "deck), e.g. --only kasumi_iwato")] = None,
    band: Annotated[str | None, typer.Option(
        help="The balance band LO:HI (default: the deck's average card plus or minus "
        "--threshold), e.g. --band 0:900")] = None,
    threshold: Annotated[float | None, typer.Option(
        help="Half-width of the band around the deck's average, in the measure's unit")] = None,
    zone: Annotated[float | None, typer.Option(
        help="Indifference zone around each band edge, in the measure's unit")] = None,
    out: Annotated[Path | None, typer.Option(
        help="The proposed catalog to write (a draft; default: data/cards/<catalog>-"
        "proposal.toml); its patch notes go beside it")] = None,
    max_changes: Annotated[int | None, typer.Option(
        help="Change at most this many cards (the farthest out first)")] = None,
    lock: Annotated[str | None, typer.Option(
        help="Cards never to change, comma-separated ids, e.g. --lock nodoka_haramura")] = None,
    max_step: Annotated[int | None, typer.Option(
        help="Most steps a number may move (saki tune's step: 1, or about a fifth of an "
        "amount in points; default 3)")] = None,
    measure: Annotated[str, typer.Option(
        help="What the verdicts are asked on: points or placement")] = "points",
    seed: Annotated[int, typer.Option(
        help="Search seed; the confirmation plays seed + 1,000,003")] = 1,
    budget_hands: Annotated[int | None, typer.Option(
        min=1, help="Most hands of each racing trial of the verdicts (default "
        f"{RACE_BUDGET_HANDS:,})")] = None,
    probe_hands: Annotated[int | None, typer.Option(
        min=1, help="Most hands of trial matches per value the search plays (default "
        "1,500)")] = None,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Processes playing matches; the result does not depend on it")] = None,
    bots: Annotated[str, typer.Option(help="Bot kind for all four seats, or four kinds")
    ] = "heuristic",
    folder: Annotated[Path | None, typer.Option(
        help="Proposal folder (default: data/proposals/<catalog>-<preset>-s<seed>-<digest>)")
    ] = None,
    executor: ExecutorOption = "local",
    scheduler: SchedulerOption = None,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
) -> None:
    """Propose the fewest and smallest changes of the cards' numbers that bring every card
    inside the balance band, and prove them on fresh seeds (docs/propose.md): the verdicts,
    a search per card out of the band, a joint round of the proposed deck, a confirmation on
    a seed the search never played; writes the proposed catalog (a draft) and its patch notes.

    Running the same command again resumes it.

    Example: saki propose --only kasumi_iwato --band 0:900 --seed 3 --out P.toml
    """
    from pipeline.cards.catalog import load_catalog
    from pipeline.report.patch_notes import check_out, write_proposal
    from pipeline.report.propose import (
        MAX_STEP,
        PROBE_BUDGET,
        VERDICT_BUDGET,
        ProposeConfig,
        plan_words,
        run_propose,
    )
    from pipeline.sim.executor import make_executor
    from pipeline.sim.run import parse_bots
    from pipeline.sim.trial import TrialTicker, trial_deck

    _check_format(fmt, ("table", "json"))
    spec = _band_spec(band, threshold, zone, measure)
    rules = load_preset(preset)
    catalog = load_catalog(cards or rules.cards.catalog)
    deck = tuple(trial_deck(catalog, rules))
    chosen = (tuple(c.strip() for c in only.split(",") if c.strip()) if only is not None
              else deck)
    for c in chosen:
        if c not in deck:
            raise SimError(f"--only: {c!r} is not a card of catalog {catalog.version}'s deck "
                           f"for preset {rules.name!r}; 'saki cards list' shows the ids")
    locks = tuple(c.strip() for c in (lock or "").split(",") if c.strip())
    config = ProposeConfig(
        preset=rules, catalog=catalog, seed=seed, cards=chosen, band=spec,
        whole_deck=only is None, measure=measure, locks=locks, max_changes=max_changes,
        max_step=MAX_STEP if max_step is None else max_step, bots=parse_bots(bots),
        verdict_budget=budget_hands or VERDICT_BUDGET, probe_budget=probe_hands or PROBE_BUDGET)
    where = folder or config.default_out()
    check_writable(where, "--folder", SimError, folder=True)
    target = check_out(out, catalog.version)
    as_json = fmt == "json"

    def say(text: str) -> None:
        typer.echo(text, err=True)
        ticker.phase("playing")  # a search or the next trial: not the last trial's round

    ticker = TrialTicker(lambda text: typer.echo(text, err=True))
    say(plan_words(config, workers))
    runner = make_executor(executor, workers=workers, scheduler=scheduler)
    try:
        result = run_propose(config, where, executor=runner, say=say, on_match=ticker.match,
                             on_round=ticker.round)
    finally:
        runner.close()
    written = write_proposal(result, target)
    if as_json:
        import json

        typer.echo(json.dumps({"kind": "propose", "config": {
            **config.identity(), "folder": str(result.out)},
            **written.printed()}, indent=2, default=str))
    else:
        typer.echo(written.text())


def _parse_band(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in text.split(":"))
    except ValueError:
        raise SimError(f"--band {text!r} is not LO:HI in points per hand, e.g. --band "
                       "-200:400") from None
    if lo >= hi:
        raise SimError(f"--band {text!r}: LO must be below HI")
    return lo, hi


def _run_folder(run: Path) -> Path:
    """A run folder given as a path, or as a name under data/runs."""
    from pipeline.sim.run import RUNS_DIR

    if run.is_dir() or run.is_absolute():
        return run
    named = RUNS_DIR / run
    return named if named.is_dir() else run


def _replayed_hand_index(result, run: Path, match: int, hand: int) -> int:
    if not 0 <= hand < len(result.hands):
        raise SimError(f"run {run} match {match} has no hand {hand} "
                       f"(hands 0-{len(result.hands) - 1})")
    return hand


@app.command()
@friendly
def show(
    run: Annotated[Path, typer.Argument(help="Run folder, or a run name under data/runs")],
    match: Annotated[int, typer.Option(help="Match index within the run, e.g. --match 0")],
    hand: Annotated[int, typer.Option(help="Hand index within the match, e.g. --hand 3")],
) -> None:
    """Replay one hand of a finished run and print its full event log and summary.

    Example: saki show data/runs/online-tonpuusen-1.2-s7-n1000 --match 12 --hand 3
    """
    from pipeline.sim.replay_run import replay_match

    folder = _run_folder(run)
    result = replay_match(folder, match)
    rec = result.hands[_replayed_hand_index(result, folder, match, hand)]
    scores = " ".join(str(s.start_score) for s in rec.seats)
    typer.echo(f"match {match} hand {hand}: {rec.name}, honba {rec.honba}, "
               f"sticks {rec.sticks_start}, dealer P{rec.dealer}, scores {scores}")
    typer.echo(rec.log_text())
    typer.echo(rec.summary())


@app.command()
@friendly
def export(
    run: Annotated[Path, typer.Argument(help="Run folder, or a run name under data/runs")],
    match: Annotated[int, typer.Option(help="Match index within the run, e.g. --match 0")],
    hand: Annotated[int | None, typer.Option(
        help="Only this hand of the match, e.g. --hand 3 (default: the whole match)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="Output format: mjai")] = "mjai",
    out: Annotated[Path | None, typer.Option(
        help="File to write (default: standard output), e.g. --out match0.jsonl")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Standard mjai only: refuse a card game, whose abilities need the "
        "saki extension (docs/mjai-extension.md)")] = False,
) -> None:
    """Replay a match (or one hand) of a finished run and write it as mjai JSON lines.

    A card game's picks and ability events are written as the saki extension of mjai
    (docs/mjai-extension.md); the line on standard error says which was written.

    Example: saki export data/runs/online-tonpuusen-1.2-s7-n1000 --match 12 --format mjai
    """
    from pipeline.sim.mjai import is_card_game, match_events, to_jsonl
    from pipeline.sim.replay_run import replay_match, run_bots, run_preset
    from pipeline.sim.run import read_run

    if fmt != "mjai":
        raise SimError(f"unknown format {fmt!r} (known: mjai)")
    if out is not None:
        check_writable(out, "--out", SimError, folder=False)
    folder = _run_folder(run)
    info = read_run(folder)
    preset = run_preset(info)
    if strict and preset.cards.enabled:
        raise SimError(f"{folder}: a card game (preset {preset.name}): standard mjai cannot "
                       "hold its abilities, so another engine would not follow it; export "
                       "without --strict for mjai with the saki card extension "
                       "(docs/mjai-extension.md)")
    result = replay_match(folder, match)
    hands = None if hand is None else [_replayed_hand_index(result, folder, match, hand)]
    text = to_jsonl(match_events(result, names=run_bots(info), seed=[info["seed"], match],
                                 hands=hands, red_fives=preset.red_fives, preset=preset))
    kind = ("mjai with the saki card extension (saki_picks, saki_ability: "
            "docs/mjai-extension.md)" if is_card_game(result) else "standard mjai")
    count = text.count(chr(10))
    if out is None:
        typer.echo(text, nl=False)
        typer.echo(f"wrote {count} events as {kind}", err=True)
    else:
        out.write_text(text)
        typer.echo(f"wrote {count} events as {kind} to {out}", err=True)


@app.command()
@friendly
def stats(
    run: Annotated[Path, typer.Argument(help="Run folder, or a run name under data/runs")],
    by: Annotated[str, typer.Option(help="Group by character, seat or preset")] = "character",
    min_hands: Annotated[int, typer.Option(
        min=1, help="Groups with fewer seat-hands are shown but never ranked or flagged")] = 200,
    threshold: Annotated[float, typer.Option(
        help="Points per hand of swing a flagged group must differ by, e.g. --threshold 300")]
    = 300.0,
    baseline: Annotated[Path | None, typer.Option(
        help="A run to compare against instead of the field, e.g. a run without cards")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, csv or json")] = "table",
) -> None:
    """Per-character balance table of a finished run: win, deal-in, riichi and call rates,
    point swing and placement, with 95% intervals and strong/weak flags.

    Example: saki stats data/runs/cards-hanchan-1.2-s1-n1000 --by character --min-hands 200
    """
    from pipeline.analytics import character_table, open_run
    from pipeline.analytics.render import frame_json, stats_text

    _check_format(fmt)
    data = open_run(_run_folder(run))
    base = open_run(_run_folder(baseline)) if baseline is not None else None
    df = character_table(data, by=by, min_hands=min_hands, threshold=threshold, baseline=base)
    if fmt == "csv":
        typer.echo(df.write_csv(), nl=False)
    elif fmt == "json":
        typer.echo(frame_json(df, run=data.label, by=by, min_hands=min_hands,
                              threshold=threshold, baseline=base.label if base else None))
    else:
        typer.echo(stats_text(df, label=data.label, by=by, min_hands=min_hands,
                              threshold=threshold, baseline=base.label if base else None))


@app.command()
@friendly
def compare(
    run_a: Annotated[Path, typer.Argument(help="The first run (before), folder or name")],
    run_b: Annotated[Path, typer.Argument(help="The second run (after), folder or name")],
    min_hands: Annotated[int, typer.Option(
        min=1, help="Groups with fewer seat-hands in either run are never flagged")] = 200,
    threshold: Annotated[float, typer.Option(
        help="Points per hand a swing change must exceed to be flagged")] = 300.0,
    fmt: Annotated[str, typer.Option("--format", help="table, csv or json")] = "table",
) -> None:
    """How each character changed from run A to run B (with 95% intervals and flags), and
    which cards and preset options differ between the two runs.

    Example: saki compare data/runs/cards-hanchan-1.2-s1-n1000 data/runs/cards-hanchan-1.3-s1-n1000
    """
    from pipeline.analytics import compare_runs, open_run
    from pipeline.analytics.render import compare_json, compare_text

    _check_format(fmt)
    cmp = compare_runs(open_run(_run_folder(run_a)), open_run(_run_folder(run_b)),
                       threshold=threshold, min_hands=min_hands)
    if fmt == "csv":
        typer.echo(cmp.metrics.write_csv(), nl=False)
    elif fmt == "json":
        typer.echo(compare_json(cmp))
    else:
        typer.echo(compare_text(cmp))


def _check_format(fmt: str, known: tuple[str, ...] = ("table", "csv", "json")) -> None:
    if fmt not in known:
        raise SimError(f"unknown format {fmt!r} (known: {', '.join(known)})")


@app.command()
@friendly
def report(
    run: Annotated[Path, typer.Argument(help="Run folder, or a run name under data/runs")],
    compare: Annotated[Path | None, typer.Option(
        help="A reference run (A) to compare this run (B) with: card text changes, rule "
        "changes and per-character shifts, e.g. --compare data/runs/cards-hanchan-1.2-s1-n300"
        )] = None,
    out: Annotated[Path | None, typer.Option(
        help="HTML file to write (default: reports/<run>.html, or "
        "reports/<reference>-vs-<run>.html), e.g. --out reports/nodoka-buff.html")] = None,
    site: Annotated[Path | None, typer.Option(
        help="Also write a static site into this folder: index.html and one page per card, "
        "e.g. --site public")] = None,
    threshold: Annotated[float, typer.Option(
        help="Points per hand against the field beyond which a character is flagged")] = 300.0,
    min_hands: Annotated[int, typer.Option(
        min=1, help="Fewest hands a character needs before it is judged")] = 200,
    trial: Annotated[Path | None, typer.Option(
        help="A saki trial folder of the same preset and catalog: the report then leads with "
        "each card's ability value, e.g. --trial data/runs/trial-cards-hanchan-1.2-s1")] = None,
    measure: Annotated[str, typer.Option(
        help="With --trial: what the verdicts are asked on, points (per hand, over the whole "
        "match) or placement (result points per match)")] = "points",
    team_trial: Annotated[Path | None, typer.Option(
        help="A saki trial --kind team folder of the same preset and catalog (with --trial): "
        "each card's worth in a team beside its ability value, e.g. --team-trial "
        "data/runs/team-trial-cards-hanchan-1.2-s1")] = None,
    gap: Annotated[Path | None, typer.Option(
        help="A saki bots gap --format json file of the same preset and catalog: the report "
        "names the cards whose value is limited by the bots, e.g. --gap gap.json")] = None,
    expert_trial: Annotated[Path | None, typer.Option(
        help="A saki trial --holder-policy expert folder of the same preset and catalog (with "
        "--trial): each card's value for an expert player beside its ability value")] = None,
) -> None:
    """Write a balance report of a finished run as one HTML file that opens from disk.

    Example: saki report data/runs/cards-hanchan-1.2-s1-n300 --out reports/hanchan.html
    """
    from pipeline.report.build import build_report, default_report_path, write_report, write_site

    if out is not None:
        check_writable(out, "--out", ReportError, folder=False)
    if site is not None:
        check_writable(site, "--site", ReportError, folder=True)
    folder = _run_folder(run)
    reference = _run_folder(compare) if compare is not None else None
    from pipeline.sim.card_value import check_measure

    check_measure(measure)
    built = build_report(folder, reference, threshold=threshold, min_hands=min_hands,
                         trial=trial, measure=measure, team_trial=team_trial, gap=gap,
                         expert_trial=expert_trial)
    if out is not None or site is None:
        target = write_report(built, out or default_report_path(folder, reference),
                              apart=out is None, say=lambda line: typer.echo(line, err=True))
        typer.echo(f"report written to {target}")
    if site is not None:
        typer.echo(f"site written to {write_site(built, site)}")


@app.command()
@friendly
def balance(
    preset: Annotated[str, typer.Option(
        help="Card preset name or .toml path, e.g. --preset cards-tonpuusen")] = DEFAULT_PRESET,
    cards: Annotated[str | None, typer.Option(
        "--cards", "--catalog", help="Card catalog version or .toml path (default: the "
        "preset's catalog, 1.2), e.g. --cards data/cards/1.3-draft.toml")] = None,
    games: Annotated[int, typer.Option(
        min=1, help="Matches per run; the default gives a useful report in a few minutes on a "
        "2-core laptop, e.g. --games 2000 for narrower intervals")] = DEFAULT_GAMES,
    seed: Annotated[int, typer.Option(help="Run seed, e.g. --seed 7")] = 1,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Processes playing matches (default: all cores)")] = None,
    out: Annotated[Path | None, typer.Option(
        help="HTML report to write (default: reports/<run>.html)")] = None,
    site: Annotated[Path | None, typer.Option(
        help="Also write a static site (index.html and a page per card) into this folder")
    ] = None,
    compare_preset: Annotated[str | None, typer.Option(
        help="Also simulate this preset and compare against it, e.g. "
        "--compare-preset cards-tonpuusen")] = None,
    compare_cards: Annotated[str | None, typer.Option(
        help="Also simulate this catalog and compare against it, e.g. --compare-cards 1.2 "
        "(with --cards data/cards/1.3-draft.toml)")] = None,
    runs: Annotated[Path | None, typer.Option(
        help="Folder that keeps the runs (default: data/runs)")] = None,
    paired: Annotated[bool, typer.Option(
        "--paired", help="Also replay every hand with a character without its ability, for "
        "the ability's effect with the luck of the deal removed (about twice as long)")] = False,
    trials: Annotated[bool, typer.Option(
        "--trials/--no-trials", help="Also play card trials of every card (each card's "
        "ability value, which the report leads with; docs/trials.md)")] = True,
    trial_target: Annotated[float | None, typer.Option(
        help="Trials: a precision run instead of racing to verdicts, the interval half-width "
        "to reach per card, in points per hand")] = None,
    trial_budget: Annotated[int | None, typer.Option(
        min=1, help="Trials: most hands of trial matches in all (default "
        f"{RACE_BUDGET_HANDS:,} racing, about "
        f"{RACE_BUDGET_HANDS / TRIAL_HANDS_PER_SECOND / 60:.0f} minutes at most on 2 cores; "
        "5,000 with --trial-target)")] = None,
    band: Annotated[str | None, typer.Option(
        help="The balance band LO:HI in points per hand (default: the deck's average card "
        "plus or minus --threshold), e.g. --band 0:600")] = None,
    threshold: Annotated[float | None, typer.Option(
        help="Half-width of the balance band around the deck's average, in the measure's "
        "unit (default 300 points per hand, 5 result points per match)")] = None,
    zone: Annotated[float | None, typer.Option(
        help="Indifference zone around each band edge, in the measure's unit (default 100 "
        "points per hand, 1.5 result points)")] = None,
    measure: Annotated[str, typer.Option(
        help="What the verdicts are asked on: points (per hand, over the whole match) or "
        "placement (result points per match under the preset's uma and oka)")] = "points",
    quick: Annotated[bool, typer.Option(
        "--quick", help="A preview of about a minute (100 matches, small trials): it decides "
        "nothing")] = False,
    fmt: Annotated[str, typer.Option(
        "--format", help="table (messages and the report's link) or json (one row per card "
        "on standard output, messages on standard error)")] = "table",
    levers: Annotated[bool, typer.Option(
        "--levers", help="Also step every number of each nerf or buff candidate one down and "
        "one up (saki tune CARD) and link each candidate's tuning page from the report")
    ] = False,
) -> None:
    """Simulate a card preset, compute every character's statistics and write the report.

    Starting the same command again resumes an interrupted simulation and rewrites the report.

    Example: saki balance --cards data/cards/1.3-draft.toml --compare-cards 1.2
    """
    from pipeline.report.balance import plan_balance, run_balance
    from pipeline.sim.run import ProgressBar

    for path, option, folder in ((out, "--out", False), (site, "--site", True),
                                 (runs, "--runs", True)):
        if path is not None:
            check_writable(path, option, SimError, folder=folder)
    _check_format(fmt, ("table", "json"))
    spec = _band_spec(band, threshold, zone, measure)
    plan = plan_balance(preset, cards, games, seed, compare_preset, compare_cards, runs, paired,
                        trials=trials, trial_target=trial_target, trial_budget=trial_budget,
                        band=spec, quick=quick, measure=measure)
    if levers and not trials:
        raise SimError("--levers needs the card trials (its band and candidates come from "
                       "them); drop --no-trials")
    as_json = fmt == "json"

    def say(text: str) -> None:
        typer.echo(text, err=as_json)

    say(plan.projection(workers))
    result = run_balance(plan, out=out, site=site, workers=workers, progress=ProgressBar,
                         say=say, levers=levers)
    if result.verdicts is not None:
        _say_verdicts(result.verdicts, say, quick)
    for r in result.worked:
        if r["changed"]:
            say(_worked_line(r))
    if as_json and result.verdicts is not None:
        typer.echo(_verdict_json(result.verdicts, _printed_config(
            result.run, "run", tuple(result.verdicts["card"]), plan.trial.band,
            plan.trial.measure)))
    say(f"report written to {result.report}")
    say(f"open it: {result.report.resolve().as_uri()}")  # a terminal makes it a link
    if site is not None:
        index = site / "index.html"
        say(f"site written to {index}: {index.resolve().as_uri()}")


def _say_verdicts(df, say, quick: bool) -> None:
    """The counts of each verdict, the nerf and buff candidates by name, and each undecided
    card's reason."""
    from pipeline.analytics.verdict import verdict_counts

    counts = verdict_counts(df)
    say(f"verdicts for {df.height} cards: {counts['above']} above the band (nerf), "
        f"{counts['below']} below (buff), {counts['inside']} inside, {counts['at_edge']} at an "
        f"edge, {counts['undecided']} undecided")
    for kind, label in (("above", "nerf candidates"), ("below", "buff candidates")):
        names = df.filter(df["verdict"] == kind)["name"].to_list()
        if names:
            say(f"{label}: {', '.join(names)}")
    for r in df.filter(df["verdict"] == "undecided").iter_rows(named=True):
        more = (f"; about {r['settle_hands']:,} more hands would settle it"
                if r["settle_hands"] is not None else "")
        say(f"undecided: {r['name']}, {r['reason']}{more}")
    if quick:
        say("this was a quick preview: it decides nothing; run saki balance without --quick "
            "for the verdicts")


def _worked_line(r: dict) -> str:
    """Did the change work? A changed card's value and verdict on both sides, the change."""
    from pipeline.analytics.render import _pts, _span

    return (f"changed: {r['name']}: {_pts(r['value'])} {_span(r['value_lo'], r['value_hi'])} "
            f"{r['verdict']} -> {_pts(r['value_b'])} {_span(r['value_lo_b'], r['value_hi_b'])} "
            f"{r['verdict_b']}; change {_pts(r['change'])} "
            f"{_span(r['change_lo'], r['change_hi'])}; inside the band now? {r['inside_now']}")


def _printed_config(folder: Path, kind: str, cards: tuple[str, ...], band=None,
                    measure: str | None = None) -> dict:
    """What a JSON output belongs to (:func:`pipeline.sim.provenance.output_config`): the
    folder's catalog content, preset, player count and seed, with the cards, the band and the
    measure the rows were judged on."""
    from pipeline.sim.provenance import output_config

    extra: dict = {"cards": list(cards)}
    if band is not None:
        extra["band"] = {"lo": band.lo, "hi": band.hi, "threshold": band.threshold,
                         "zone": band.zone, "unit": band.unit}
    if measure is not None:
        extra["measure"] = measure
    return output_config(folder, kind, **extra)


def _verdict_json(df, config: dict | None = None) -> str:
    import json
    import math

    keys = ("card", "name", "measure", "value", "value_lo", "value_hi", "verdict", "band_lo",
            "band_hi", "reason", "settle_hands", "pair_value", "placement_value",
            "placement_lo", "placement_hi", "rank_gain")
    rows = [{k: (None if isinstance(r[k], float) and not math.isfinite(r[k]) else r[k])
             for k in keys} for r in df.iter_rows(named=True)]
    return json.dumps({"kind": "balance", **({"config": config} if config else {}),
                       "rows": rows}, indent=2)


def main() -> None:
    app()


if __name__ == "__main__":
    sys.exit(main())
