"""Tuning sweeps: a card's trial played once per candidate value of one of its parameters.

A designer who reads "Komaki is too strong" asks what the number should be. A sweep plays the
card's trial (:mod:`pipeline.sim.trial`) with each value on the same matches: a trial's match
``i`` is dealt from the seed and ``i`` alone, whatever the catalog, so the values meet the same
walls and the differences between them are measured with the luck of the deal shared (common
random numbers). Each value is a catalog of its own, written as a catalog file in the sweep's
folder (``catalogs/``), and its trial is a trial folder of its own (``values/<value>/``), so a
killed sweep resumes, and a sweep that adds a value reuses the others.

The balance band comes from a trial of the whole deck with the same catalog and preset (the
folder ``saki trial`` writes by default, reused when it is there): the mean of the cards'
values plus or minus the report's flag threshold.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.cards.catalog import Card, Catalog, CatalogError, Effect, allowed, load_catalog
from pipeline.cards.effects import Param
from pipeline.cards.writer import catalog_toml, with_card
from pipeline.datafiles import show_value
from pipeline.rules.preset import Preset
from pipeline.sim import SimError
from pipeline.sim.executor import DaskExecutor, LocalExecutor, with_own_pool
from pipeline.sim.output_lock import LOCK_FILE, OutputLock
from pipeline.sim.provenance import MismatchError, folder_kind, of_record, read_record
from pipeline.sim.run import atomic_write
from pipeline.sim.trial import (
    TrialConfig,
    TrialRound,
    check_target,
    read_trial,
    run_trial,
    trial_deck,
)

TUNE_FILE = "tune.json"
BAND_TRIAL_BUDGET = 1   # the band's deck trial: its first round only (8 matches a card)
BAND_TRIAL_TARGET = 1e9


@dataclass(frozen=True)
class Lever:
    """One parameter of a card and the values a sweep plays for it (in order)."""

    card: str
    effect: str
    param: str
    values: tuple[Any, ...]
    current: Any

    @property
    def address(self) -> str:
        return f"{self.card}.{self.effect}.{self.param}"


@dataclass(frozen=True)
class Variant:
    """One value of one lever: the catalog that plays it and where its trial goes."""

    lever: Lever
    value: Any
    slug: str
    catalog: Catalog
    card: Card

    @property
    def is_current(self) -> bool:
        return _same(self.value, self.lever.current)


def parse_address(catalog: Catalog, address: str) -> tuple[Card, Effect | None, str | None]:
    """``CARD``, ``CARD.EFFECT.PARAM``: the card, and the effect and parameter when named.
    Errors list what the card has, so the fix is in the message."""
    parts = address.split(".")
    if len(parts) not in (1, 3) or not all(parts):
        raise SimError(f"tune: {address!r} is not CARD or CARD.EFFECT.PARAM, e.g. "
                       "kasumi_iwato.shown.han")
    try:
        card = catalog.card(parts[0])
    except CatalogError as exc:
        raise SimError(f"tune: {exc}") from None
    if len(parts) == 1:
        return card, None, None
    try:
        eff = card.effect(parts[1])
    except CatalogError:
        raise SimError(f"tune: card {card.id!r} has no effect {parts[1]!r}; its parameters: "
                       f"{describe_params(card)}") from None
    if parts[2] not in eff.spec.params:
        raise SimError(f"tune: effect {card.id}.{eff.id} has no parameter {parts[2]!r}; its "
                       f"parameters: {describe_params(card)}")
    return card, eff, parts[2]


def describe_params(card: Card) -> str:
    """Every parameter of the card as ``effect.param = value (allowed)``."""
    out = []
    for eff in card.effects:
        for name, spec in eff.spec.params.items():
            out.append(f"{eff.id}.{name} = {show_value(eff.params[name])} ({allowed(spec)})")
    return "; ".join(out) or "none"


def sweep_values(card: Card, eff: Effect, param: str, values: str | None,
                 range_text: str | None) -> tuple[Any, ...]:
    """The values to play: ``--values V1,V2``, ``--range A:B[:STEP]``, or for a reading
    option with neither, every choice. Each is checked as a catalog value is."""
    spec = eff.spec.params[param]
    if values is not None and range_text is not None:
        raise SimError("tune: give --values or --range, not both")
    if values is not None:
        out = tuple(_parse_value(spec, v.strip(), card, eff, param)
                    for v in values.split(";" if spec.type.startswith("list") else ",")
                    if v.strip())
    elif range_text is not None:
        out = _range(spec, range_text, card, eff, param)
    elif spec.is_reading or spec.choices:
        out = tuple(spec.choices)
    else:
        raise SimError(f"tune: say which values of {card.id}.{eff.id}.{param} to play, e.g. "
                       f"--values 1,2 or --range 1:3 ({allowed(spec)})")
    if not out:
        raise SimError("tune: no values to play; e.g. --values 1,2")
    if len({show_value(v) for v in out}) != len(out):
        raise SimError(f"tune: a value is given twice in {', '.join(map(show_value, out))}")
    for v in out:
        _checked(card, eff, param, v)
    return out


def levers_of(card: Card) -> list[Lever]:
    """Every numeric parameter of the card's text one step down and one step up from its value
    (``saki tune CARD``): steps the catalog would accept, the current value in the middle. A
    parameter the text does not show (left at its kind's default) is no lever: a catalog that
    changed it would have to say so in the text (the catalog refuses it otherwise)."""
    levers = []
    for eff in card.effects:
        for name, spec in eff.spec.params.items():
            if spec.type not in ("int", "list[int]") or not shown_in_text(card, eff, name):
                continue
            current = eff.params[name]
            steps = [s for s in (_step(spec, current, -1), _step(spec, current, +1))
                     if s is not None and _valid(card, eff, name, s)]
            if steps:
                ordered = sorted({show_value(v): v for v in (*steps, current)}.values(),
                                 key=_order)
                levers.append(Lever(card.id, eff.id, name, tuple(ordered), current))
    return levers


def shown_in_text(card: Card, eff: Effect, param: str) -> bool:
    """Whether the card's text names the parameter (``{effect.param}``), so a new value of it
    is a new text, not a change the text would hide."""
    return "{" + f"{eff.id}.{param}" + "}" in card.text_template


def variants(catalog: Catalog, levers: Sequence[Lever]) -> list[Variant]:
    """One catalog per lever value; the current value is one shared variant."""
    out: list[Variant] = []
    seen: set[str] = set()
    for lever in levers:
        card = catalog.card(lever.card)
        for value in lever.values:
            slug = slug_of(lever, value)
            if slug in seen:
                continue
            seen.add(slug)
            changed = card.with_param(lever.effect, lever.param, value)
            version = catalog.version if slug == "current" else \
                f"{catalog.version}~{lever.address}={show_value(value)}"
            out.append(Variant(lever, value, slug, with_card(catalog, changed, version),
                               changed))
    return out


def slug_of(lever: Lever, value: Any) -> str:
    """The folder name of a lever value's trial and catalog (the current value: ``current``,
    shared by every lever)."""
    if _same(value, lever.current):
        return "current"
    return _slug(f"{lever.effect}.{lever.param}={show_value(value)}")


@dataclass(frozen=True)
class TuneConfig:
    """What a sweep plays: one card's trial per value, with the trial's own settings."""

    preset: Preset
    catalog: Catalog
    seed: int
    card: str
    levers: tuple[Lever, ...]
    bots: tuple[str, str, str, str] = ("heuristic",) * 4
    target: float = 150.0
    budget_hands: int = 20_000

    def __post_init__(self) -> None:
        check_target(self.target, self.budget_hands)  # before any catalog copy is written


@dataclass(frozen=True)
class TuneResult:
    out: Path
    config: TuneConfig
    variants: tuple[Variant, ...]
    band_out: Path | None


def run_tune(config: TuneConfig, out: Path, *, band_out: Path | None = None,
             band: tuple[float, float] | None = None,
             executor: LocalExecutor | DaskExecutor | None = None,
             workers: int | None = None, force: bool = False,
             say: Callable[[str], None] | None = None,
             on_match: Callable[[int], None] | None = None) -> TuneResult:
    """Play every value's trial into ``out/values/<value>`` (resumable), then the deck trial
    for the band into ``band_out`` unless ``band`` is given. Writes ``out/tune.json``.
    ``on_match(hands)`` hears each finished match of the values' trials."""
    if executor is None:  # one pool for every trial and round, stopped at the end
        return with_own_pool(workers, lambda pool: run_tune(
            config, out, band_out=band_out, band=band, executor=pool, force=force, say=say,
            on_match=on_match))
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SimError(f"--out {out} is a file, not a folder; choose another --out")
    _check_folder(out, config, force)  # before the lock file goes in
    with OutputLock(out, what="sweep"):
        _check_folder(out, config, force)  # again, now that no one else writes it
        if force:
            for name in ("values", "catalogs"):
                shutil.rmtree(out / name, ignore_errors=True)
        return _run_tune(config, out, band_out, band, executor, force, say, on_match)


def _run_tune(config: TuneConfig, out: Path, band_out: Path | None,
              band: tuple[float, float] | None, executor: LocalExecutor | DaskExecutor,
              force: bool, say: Callable[[str], None] | None,
              on_match: Callable[[int], None] | None = None) -> TuneResult:
    chosen = variants(config.catalog, config.levers)
    _write_record(out, config, chosen, None, band, "running")
    (out / "catalogs").mkdir(parents=True, exist_ok=True)
    for n, v in enumerate(chosen, 1):
        path = out / "catalogs" / f"{v.slug}.toml"
        text = catalog_toml(v.catalog)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic_write(path, text.encode("utf-8"))
        catalog = load_catalog(str(path))  # the file is what the trial plays and records
        trial = TrialConfig(preset=config.preset, catalog=catalog, seed=config.seed,
                            cards=(config.card,), bots=config.bots, target=config.target,
                            budget_hands=config.budget_hands)
        if say is not None:
            say(f"value {n} of {len(chosen)}: {v.lever.address} = {show_value(v.value)}")

        def round_done(r: TrialRound) -> None:
            if say is not None:
                p = r.progress[0]
                say(f"  round {r.index + 1}: {p.hands:,} hands, ±{p.half_width:,.0f}")

        run_trial(trial, out / "values" / v.slug, executor=executor, force=force,
                  say=round_done, on_match=on_match)
    used_band = None
    if band is None:
        used_band = band_out or TrialConfig(
            preset=config.preset, catalog=config.catalog, seed=config.seed,
            cards=(config.card,), bots=config.bots).default_out()
        deck_trial(config, used_band, executor, say)
    _write_record(out, config, chosen, used_band, band, "complete")
    return TuneResult(out, config, tuple(chosen), used_band)


def _write_record(out: Path, config: TuneConfig, chosen: Sequence[Variant],
                  band_trial: Path | None, band: tuple[float, float] | None,
                  status: str) -> None:
    """``tune.json``: what the sweep plays (its configuration: card, catalog content, preset
    and player count, seed, bots, measure; its levers and values), written before the first
    value is played (``running``) and again at the end (``complete``)."""
    doc = {"kind": "tune", "status": status, "card": config.card, "seed": config.seed,
           "preset": config.preset.name, "players": config.preset.players,
           "catalog": config.catalog.version,
           "catalog_hash": config.catalog.content_hash(), "target": config.target,
           "budget_hands": config.budget_hands, "bots": list(config.bots),
           "levers": [{"effect": lv.effect, "param": lv.param, "current": lv.current,
                       "values": list(lv.values),
                       "slugs": [slug_of(lv, value) for value in lv.values]}
                      for lv in config.levers],
           "variants": [{"slug": v.slug, "effect": v.lever.effect, "param": v.lever.param,
                         "value": v.value, "current": v.is_current,
                         "text": v.card.text} for v in chosen],
           "band_trial": str(band_trial) if band_trial is not None else None,
           "band": list(band) if band is not None else None}
    atomic_write(out / TUNE_FILE, (json.dumps(doc, indent=2, default=list) + "\n").encode())


_SWEEP_ENTRIES = frozenset((TUNE_FILE, "catalogs", "values", LOCK_FILE))


def _check_folder(out: Path, config: TuneConfig, force: bool) -> None:
    """Refuse, before anything is written, a folder that holds another kind of output (a
    run, a trial, anything else), or a sweep of another card, catalog, preset, seed or bots
    (unless ``force``, which replaces that sweep)."""
    if not out.is_dir():
        return
    kind = folder_kind(out)
    if kind in ("run", "trial"):
        raise SimError(f"--out {out} holds a {kind}, not a sweep; choose another --out (a "
                       "sweep writes a folder of its own)")
    strangers = sorted(p.name for p in out.iterdir() if p.name not in _SWEEP_ENTRIES)
    if strangers:
        raise SimError(f"--out {out} holds files that are not a sweep's (found "
                       f"{strangers[0]!r}); choose another --out")
    if kind != "sweep" or force:
        return
    there = read_record(out, "sweep")
    mine = {"card": config.card, "catalog_hash": config.catalog.content_hash(),
            "preset": config.preset.name, "players": config.preset.players,
            "seed": config.seed, "bots": list(config.bots)}
    differ = [k for k, v in mine.items() if k in there and there[k] != v]
    if differ:
        theirs = of_record("sweep", out, there).words()
        named = ", ".join(k.replace("catalog_hash", "catalog content") for k in differ)
        raise MismatchError(
            f"--out {out} holds a sweep of another configuration ({named} "
            f"{'differs' if len(differ) == 1 else 'differ'}): card {there.get('card')}, "
            f"{theirs}; this one: card {config.card}, "
            f"catalog {config.catalog.version} (content {config.catalog.content_hash()[:8]}), "
            f"preset {config.preset.name} ({config.preset.players} players), seed "
            f"{config.seed}; choose another --out, or use --force to replace it")


def deck_trial(config: TuneConfig, out: Path, executor: LocalExecutor | DaskExecutor,
               say: Callable[[str], None] | None = None) -> None:
    """The trial of every deck card the band is drawn from: the cards an earlier trial in
    ``out`` measured are reused, the others get one round (8 matches each)."""
    deck = trial_deck(config.catalog, config.preset)
    done: set[str] = set()
    if (out / "trial.json").is_file():
        doc = read_trial(out)
        done = set(doc.get("blocks", {}))
    missing = tuple(c for c in deck if c not in done)
    if not missing:
        return
    if say is not None:
        say(f"the balance band: a trial of {len(missing)} deck card(s) in {out}")
    trial = TrialConfig(preset=config.preset, catalog=config.catalog, seed=config.seed,
                        cards=missing, bots=config.bots, target=BAND_TRIAL_TARGET,
                        budget_hands=BAND_TRIAL_BUDGET)
    run_trial(trial, out, executor=executor)


def default_folder(address: str, catalog_version: str, seed: int) -> Path:
    """Where ``saki tune`` writes a sweep by default: ``data/runs/tune-<address>-<catalog>-
    s<seed>``."""
    from pipeline.sim.run import RUNS_DIR

    return RUNS_DIR / _slug(f"tune-{address}-{catalog_version}-s{seed}")


def read_tune(out: Path) -> dict[str, Any]:
    """The sweep's ``tune.json``."""
    path = Path(out) / TUNE_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SimError(f"{out}: no sweep here (no {TUNE_FILE}); run 'saki tune' first") \
            from None
    except (OSError, ValueError) as exc:
        raise SimError(f"{path}: unreadable ({exc}); run the sweep again") from None


# --- values ---------------------------------------------------------------------------------


def _parse_value(spec: Param, text: str, card: Card, eff: Effect, param: str) -> Any:
    try:
        if spec.type == "int":
            return int(text)
        if spec.type == "float":
            return float(text)
        if spec.type == "bool":
            if text.lower() not in ("true", "false"):
                raise ValueError(text)
            return text.lower() == "true"
        if spec.type == "list[int]":
            return [int(x) for x in text.strip("[]").split("/") if x.strip()]
        if spec.type == "list[str]":
            return [x.strip() for x in text.strip("[]").split("/") if x.strip()]
        return text
    except ValueError:
        raise SimError(f"tune: {text!r} is not a value of {card.id}.{eff.id}.{param} "
                       f"({allowed(spec)})") from None


def _range(spec: Param, text: str, card: Card, eff: Effect, param: str) -> tuple[Any, ...]:
    if spec.type not in ("int", "float"):
        raise SimError(f"tune: --range needs a number parameter; {card.id}.{eff.id}.{param} "
                       f"is {allowed(spec)}; use --values")
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise SimError(f"tune: --range {text!r} is not A:B or A:B:STEP, e.g. --range 1:3")
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        raise SimError(f"tune: --range {text!r} is not A:B or A:B:STEP, e.g. --range 1:3") \
            from None
    lo, hi = nums[0], nums[1]
    step = nums[2] if len(nums) == 3 else 1.0
    if step <= 0 or hi < lo:
        raise SimError(f"tune: --range {text!r} needs A <= B and a STEP above 0")
    count = int(round((hi - lo) / step)) + 1
    if count > 25:
        raise SimError(f"tune: --range {text!r} makes {count} values; at most 25 (use a larger "
                       "STEP)")
    values = [lo + i * step for i in range(count)]
    return tuple(int(round(v)) if spec.type == "int" else v for v in values)


def _checked(card: Card, eff: Effect, param: str, value: Any) -> Card:
    try:
        return card.with_param(eff.id, param, value)
    except CatalogError as exc:
        raise SimError(f"tune: {exc}; {card.id}'s parameters: {describe_params(card)}") \
            from None


def _valid(card: Card, eff: Effect, param: str, value: Any) -> bool:
    try:
        card.with_param(eff.id, param, value)
    except CatalogError:
        return False
    return True


def _step(spec: Param, current: Any, sign: int) -> Any:
    """One step of a number (1, or about a fifth of a large amount, in 100s)."""
    def one(x: int) -> int:
        big = spec.high is not None and spec.high > 100
        size = max(100, round(abs(x) * 0.2 / 100) * 100) if big else 1
        return x + sign * size
    if spec.type == "int":
        return one(int(current))
    if spec.type == "list[int]" and current:
        return [one(int(x)) for x in current]
    return None


def _same(a: Any, b: Any) -> bool:
    return show_value(a) == show_value(b)


def _order(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:80] or "value"


__all__ = ["Lever", "TuneConfig", "TuneResult", "Variant", "default_folder", "describe_params",
           "levers_of", "parse_address", "read_tune", "run_tune", "shown_in_text",
           "sweep_values", "variants"]
