"""What an output belongs to, and the check every reader makes before it uses one.

Every folder the lab writes records its configuration: a run in ``run.json``, a trial in
``trial.json``, a tuning sweep in ``tune.json`` (catalog version and content hash, preset and
player count, seed, the cards and the measure). A command that is handed one output to read
beside another (a report's trial beside its run, a fit's trial beside its catalog, the
four-player trial beside a sanma one, a sweep folder for another card) checks here that they
belong together, and refuses with one line naming both configurations before it writes
anything.

A trial folder's record also keeps, per card, the measure it was measured with (target and
budget). Commands that only need some cards' values (the balance job's trials, a sweep's band,
a sanma comparison's four-player values) play the cards the record lacks or holds with a
weaker measure, and leave the others as they are: a record never moves under its reader.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.sim import SimError

RECORDS = {"run": "run.json", "trial": "trial.json", "sweep": "tune.json"}


class MismatchError(SimError):
    """Two outputs of different configurations handed to one command."""


@dataclass(frozen=True)
class Provenance:
    """The configuration an output folder belongs to, as its record states it."""

    kind: str                  # "run", "trial" or "sweep"
    path: Path
    catalog: str               # catalog version
    catalog_hash: str          # the catalog's content hash (a draft differs from its base)
    preset: str
    players: int
    seed: int | None
    preset_options: Mapping[str, Any] | None = None   # every option, where recorded

    def describe(self) -> str:
        """``trial data/runs/x: catalog 1.2 (content 1a2b3c4d), preset cards-hanchan (4
        players), seed 1``."""
        return f"{self.kind} {self.path}: {self.words()}"

    def words(self) -> str:
        """``catalog 1.2 (content 1a2b3c4d), preset cards-hanchan (4 players), seed 1``."""
        seed = f", seed {self.seed}" if self.seed is not None else ""
        return (f"catalog {self.catalog} (content {self.catalog_hash[:8]}), preset "
                f"{self.preset} ({self.players} players){seed}")

    def deck_key(self) -> tuple[str, str, int]:
        return (self.catalog_hash, self.preset, self.players)


def folder_kind(folder: Path) -> str | None:
    """Which record ``folder`` holds ("run", "trial", "sweep"), or None."""
    for kind, name in RECORDS.items():
        if (Path(folder) / name).is_file():
            return kind
    return None


def read_record(folder: Path, kind: str) -> dict[str, Any]:
    """The record of the output ``folder`` of ``kind``; one clear line when it is missing or
    damaged."""
    path = Path(folder) / RECORDS[kind]
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        there = folder_kind(folder)
        holds = f"it holds a {there}" if there else f"no {RECORDS[kind]}"
        raise MismatchError(f"{folder}: no {kind} here ({holds}); run 'saki "
                            f"{_command(kind)}' first, or give the folder it wrote") from None
    except (OSError, ValueError) as exc:
        raise MismatchError(f"{path}: unreadable ({exc}); run 'saki {_command(kind)}' again "
                            "to rewrite it") from None
    if not isinstance(doc, dict):
        raise MismatchError(f"{path}: not a {kind} record; run 'saki {_command(kind)}' again")
    return doc


def of_folder(folder: Path, kind: str) -> Provenance:
    """The provenance of the output ``folder`` of ``kind`` (read from its record)."""
    return of_record(kind, Path(folder), read_record(folder, kind))


def of_record(kind: str, path: Path, doc: Mapping[str, Any]) -> Provenance:
    """The provenance a record states (``run.json``, ``trial.json``, ``tune.json``)."""
    preset = doc.get("preset")
    catalog = doc.get("catalog")
    if isinstance(preset, Mapping):  # run and trial records keep every option
        name, players, options = str(preset.get("name")), int(preset.get("players") or 4), preset
    else:                            # a sweep names its preset
        name, players, options = str(preset), int(doc.get("players") or 4), None
    if isinstance(catalog, Mapping):
        version, content = str(catalog.get("version")), str(catalog.get("content_hash") or "")
    else:
        version, content = str(catalog), str(doc.get("catalog_hash") or "")
    seed = doc.get("seed")
    return Provenance(kind, path, version, content, name, players,
                      int(seed) if isinstance(seed, int) else None, options)


def check_same_deck(reader: str, base: Provenance, other: Provenance, fix: str) -> None:
    """Refuse ``other`` unless it was played with ``base``'s catalog content, preset and
    player count (and, where both records keep them, the same preset options)."""
    same = base.deck_key() == other.deck_key()
    if same and base.preset_options is not None and other.preset_options is not None:
        shared = set(base.preset_options) & set(other.preset_options)
        same = all(_canonical(base.preset_options[k]) == _canonical(other.preset_options[k])
                   for k in shared)
    if not same:
        raise MismatchError(f"{reader}: {other.describe()} does not belong with "
                            f"{base.describe()}; {fix}")


# --- a trial's measure per card ------------------------------------------------------------


def card_measures(doc: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Per card of a trial record: the ``target`` and ``budget_hands`` it was measured with
    (an older record without them: the trial's own)."""
    measures = doc.get("measures") or {}
    default = {"target": doc.get("target"), "budget_hands": doc.get("budget_hands")}
    return {card: dict(measures.get(card) or default) for card in doc.get("blocks", {})}


def cards_to_play(doc: Mapping[str, Any] | None, cards: Iterable[str], target: float,
                  budget_hands: int) -> tuple[str, ...]:
    """The ``cards`` a command that needs their values must still play in a trial folder
    with record ``doc`` (None: no trial yet): those the record lacks, or holds measured with
    a weaker measure (a smaller budget or a wider target) than ``target`` and
    ``budget_hands``. A card measured as asked resumes (its trial is played again, reusing its
    shards); one measured more precisely is left as it is."""
    if doc is None:
        return tuple(cards)
    measures = card_measures(doc)
    out = []
    for card in cards:
        m = measures.get(card)
        if m is None or m.get("target") is None or m.get("budget_hands") is None:
            out.append(card)
            continue
        same = float(m["target"]) == float(target) and int(m["budget_hands"]) == budget_hands
        weaker = float(m["target"]) > float(target) or int(m["budget_hands"]) < budget_hands
        if same or weaker:
            out.append(card)
    return tuple(out)


def describe_trial(folder: Path, doc: Mapping[str, Any], cards: Iterable[str],
                   hands: int) -> str:
    """The trial a report used, in words: its path, seed, cards and hands, and the measure
    (budget and target) its cards were measured with."""
    cards = list(cards)
    measures = card_measures(doc)
    groups: dict[tuple[Any, Any], int] = {}
    for card in cards:
        m = measures.get(card, {})
        key = (m.get("budget_hands"), m.get("target"))
        groups[key] = groups.get(key, 0) + 1
    parts = []
    for (budget, target), n in sorted(groups.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        words = (f"budget {int(budget):,} hands" if budget is not None else "budget unknown")
        if target is not None:
            words += f", target ±{float(target):,.0f}"
        parts.append(words + (f" ({n} cards)" if len(groups) > 1 else ""))
    count = f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
    return (f"{folder}: seed {doc.get('seed')}, {count}, {hands:,} hands; "
            f"{'; '.join(parts) or 'no measure recorded'}")


def output_config(folder: Path, kind: str, **extra: Any) -> dict[str, Any]:
    """The configuration a printed output (a command's JSON) belongs to, as the record of the
    folder it was read from states it, with what the command added (cards, measure, band):
    printed beside the rows, so a saved output says what it shows."""
    p = of_folder(folder, kind)
    return {"kind": p.kind, "path": str(p.path), "catalog": p.catalog,
            "catalog_hash": p.catalog_hash, "preset": p.preset, "players": p.players,
            "seed": p.seed, **extra}


# --- a report's configuration --------------------------------------------------------------


def report_config(run: Mapping[str, Any], reference: Mapping[str, Any] | None,
                  trial: Mapping[str, Any] | None, settings: Mapping[str, Any]) -> dict[str, Any]:
    """What a report shows the results of: the runs (their ids), the trial (its
    configuration and each card's measure, not its hand count: a resumed trial updates its
    report), and the report's own settings. Two reports of equal configurations may replace
    each other; others are kept apart."""
    def trial_part(doc: Mapping[str, Any]) -> dict[str, Any]:
        keys = ("schema_version", "preset", "catalog", "seed", "bots", "block")
        return {**{k: doc.get(k) for k in keys}, "measures": card_measures(doc)}

    return {"run": run.get("run_id"),
            "reference": reference.get("run_id") if reference is not None else None,
            "trial": trial_part(trial) if trial is not None else None,
            "settings": dict(settings)}


def config_digest(config: Mapping[str, Any]) -> str:
    """A short, stable digest of a configuration (for file names and comparisons)."""
    return hashlib.sha256(_canonical(config).encode()).hexdigest()[:10]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _command(kind: str) -> str:
    return {"run": "simulate", "trial": "trial", "sweep": "tune"}[kind]


__all__ = ["RECORDS", "MismatchError", "Provenance", "card_measures", "cards_to_play",
           "check_same_deck", "config_digest", "describe_trial", "folder_kind", "of_folder",
           "of_record", "output_config", "read_record", "report_config"]
