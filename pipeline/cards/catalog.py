"""The card catalog: every character card of one card version, read from a catalog TOML file
(shipped in ``pipeline/data/cards/``, the designer's own drafts in ``data/cards/``).

A card is data plus code (architecture decision 4). The data side lives here: a card has an id, a
name, a school, a text and a list of effects, each effect a kind from the vocabulary in
:mod:`pipeline.cards.effects` with its parameters. The card text is a template: every number an
effect parameter holds is written as a placeholder ``{effect_id.param}`` and rendered from the
parameter, so the text a designer reads and the value the code plays cannot drift apart.

Loading is strict. Malformed TOML, an unknown key, a missing field, a duplicate id, an unknown
effect kind or parameter, a wrong type, a value out of range, a placeholder that names nothing, a
number parameter the text does not show, an unknown flag or a ``flip_card`` to no card each raise
:class:`CatalogError` with one line naming the file, the card (and effect), the field, the bad
value and what is allowed.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date as Date
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pipeline.cards.effects import EFFECT_KINDS, Choice, EffectKind, Param, applies
from pipeline.datafiles import (
    data_names,
    display_path,
    find_data_file,
    plain,
    read_toml,
    shipped_dir,
    show_value,
)
from pipeline.errors import LabError

CATALOG_DIR = shipped_dir("cards")

TOP_KEYS = ("version", "date", "source", "card")
CARD_KEYS = ("id", "name", "school", "text", "clarifications", "flags", "effect")
FLAGS: dict[str, str] = {
    "never_in_deck": "never shuffled into the deck (enters play only through another card)",
    "excluded_east_only": "the rulebook removes it from the deck in East-only games (rule "
                          "C-10); a preset does so by listing it in [cards] exclude",
    "two_sided": "the card has a second side it can flip to",
}

_ID = re.compile(r"[a-z][a-z0-9_]*")
_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PLACEHOLDER_BODY = re.compile(r"([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)")
_NUMERIC = ("int", "float", "list[int]")


class CatalogError(LabError):
    """A catalog file that cannot be loaded; the message names file, card, field and value."""


# --- the model ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One effect of a card: a kind from the vocabulary with all its parameters resolved
    (defaults filled in; lists as tuples)."""

    id: str
    kind: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    @property
    def spec(self) -> EffectKind:
        """The vocabulary entry of this effect's kind."""
        return EFFECT_KINDS[self.kind]

    def describe(self) -> str:
        """Parameters as written in the catalog file: ``yaku = "Pinfu", han = 2``."""
        return ", ".join([f"{name} = {show_value(value)}" for name, value in self.params.items()])

    def readings(self) -> tuple[tuple[str, Param, Choice], ...]:
        """The reading options of this effect (those that concern it): name, option, the
        choice in force."""
        return tuple([(name, spec, spec.choice(self.params[name]))
                     for name, spec in self.spec.params.items()
                     if spec.is_reading and applies(spec, self.params)])


# What counts as implemented: a check of one effect with its parameters (the card layer's), or
# the kinds implemented for every value.
Implemented = Callable[["Effect"], bool] | Iterable[str]


@dataclass(frozen=True)
class Card:
    """One character card. ``text_template`` holds ``{effect_id.param}`` placeholders;
    :attr:`text` is the card text with the parameter values filled in."""

    id: str
    name: str
    school: str
    text_template: str
    clarifications: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()

    @property
    def text(self) -> str:
        """The card text as a player reads it (``1,500`` for 1500, ``1/2/3`` for lists), with
        a sentence for every reading other than the default, so the text says what is played."""
        notes = [choice.text for _, _, spec, choice in self.readings()
                 if choice.value != spec.default and choice.text]
        return " ".join((_render(self.text_template, self.effects), *notes))

    def readings(self) -> tuple[tuple[Effect, str, Param, Choice], ...]:
        """Every reading option of the card's effects: effect, option name, option, the
        choice in force."""
        return tuple([(eff, name, spec, choice) for eff in self.effects
                     for name, spec, choice in eff.readings()])

    def effect(self, effect_id: str) -> Effect:
        """The effect with this id; CatalogError naming the card's effect ids otherwise."""
        for eff in self.effects:
            if eff.id == effect_id:
                return eff
        known = [e.id for e in self.effects]
        raise CatalogError(
            f"card {self.id!r}: no effect {effect_id!r}{_did_you_mean(effect_id, known)}; "
            f"effects: {', '.join(known) or 'none'}"
        )

    def with_param(self, effect_id: str, name: str, value: Any) -> Card:
        """This card with one effect parameter (a number or a reading) set to ``value``,
        checked as a catalog file's value is (CatalogError naming what is allowed)."""
        eff = self.effect(effect_id)
        where = f"card {self.id!r}, effect {effect_id!r}"
        spec = eff.spec.params.get(name)
        if spec is None:
            raise CatalogError(
                f"{where}: unknown param {name!r}{_did_you_mean(name, eff.spec.params)}; "
                f"{eff.kind} params: {', '.join(eff.spec.params) or 'none'}")
        if not _fits(spec, value):
            raise CatalogError(
                f"{where}: param {name!r} expected {_allowed(spec)}, got {show_value(value)}")
        params = dict(eff.params)
        params[name] = _frozen(value)
        if spec.only_for is not None and not applies(spec, params):
            raise CatalogError(f"{where}: param {name!r} is a reading that does not concern "
                               "this effect")
        problem = _cross_check(eff.kind, params)
        if problem:
            raise CatalogError(f"{where}: {problem}")
        new = Effect(eff.id, eff.kind, MappingProxyType(params))
        effects = tuple([new if e.id == effect_id else e for e in self.effects])
        return replace(self, effects=effects)

    @property
    def in_deck(self) -> bool:
        """False for a card that is never shuffled into the deck (Himeko, the back of Mairu)."""
        return "never_in_deck" not in self.flags

    @property
    def kinds(self) -> tuple[str, ...]:
        """The distinct effect kinds of the card, in the order they first appear."""
        return tuple(dict.fromkeys(e.kind for e in self.effects))

    def missing_kinds(self, implemented: Implemented) -> tuple[str, ...]:
        """Effect kinds of the card without an implementation: ``implemented`` checks each
        effect with its parameters (the card layer's check,
        :func:`pipeline.cards.registry.effect_is_implemented`: some kinds are implemented for
        some values only), or is a set of kinds implemented for every value."""
        check = _effect_check(implemented)
        return tuple(dict.fromkeys([e.kind for e in self.effects if not check(e)]))

    def playable(self, implemented: Implemented) -> bool:
        """True when every effect of the card is implemented (by ``implemented``, as in
        :meth:`missing_kinds`): asked of every card for every match's deck."""
        check = _effect_check(implemented)
        for e in self.effects:
            if not check(e):
                return False
        return True


@dataclass(frozen=True)
class Catalog:
    """All cards of one catalog version, in the file's order."""

    version: str
    source: str
    path: Path
    cards: tuple[Card, ...]
    date: str = ""

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple([c.id for c in self.cards])

    @cached_property
    def id_set(self) -> frozenset[str]:
        """The ids, for asking whether one is here (every seat's pick asks for each option)."""
        return frozenset(self.ids)

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        """Each id's first card (asked for every seat's ability every hand)."""
        index: dict[str, Card] = {}
        for card in self.cards:
            index.setdefault(card.id, card)
        return index

    def card(self, card_id: str) -> Card:
        """The card with this id; CatalogError with close matches otherwise."""
        card = self._by_id.get(card_id)
        if card is not None:
            return card
        close = [i for i in self.ids if card_id and card_id in i][:3]
        hint = (f" (did you mean {', '.join([repr(i) for i in close])}?)" if close
                else _did_you_mean(card_id, self.ids))
        raise CatalogError(
            f"catalog {self.version}: no card {card_id!r}{hint}; 'saki cards list' shows the ids"
        )

    def deck(
        self,
        exclude: Iterable[str] = (),
        implemented: Implemented | None = None,
    ) -> tuple[Card, ...]:
        """The cards to shuffle for a match, in catalog order.

        Never a card flagged ``never_in_deck``; without the ``exclude`` ids (each must be a card
        of the catalog: the preset's ``[cards] exclude``, where the C-10 exclusions of East-only
        games are switched, see :meth:`east_only_exclusions`); given ``implemented`` (as in
        :meth:`Card.missing_kinds`), only the cards whose effects are all implemented.
        """
        excluded = set(exclude)
        for card_id in excluded:
            self.card(card_id)  # an unknown id is an error, not a silent no-op
        return tuple([
            c for c in self.cards
            if c.in_deck
            and c.id not in excluded
            and (implemented is None or c.playable(implemented))
        ])

    def east_only_exclusions(self) -> tuple[str, ...]:
        """The cards the rulebook removes in East-only games (flag ``excluded_east_only``, rule
        C-10). The catalog only names them: a preset removes them by listing them in
        ``[cards] exclude`` (cards-tonpuusen does), so a preset may also keep them."""
        return tuple([c.id for c in self.cards if "excluded_east_only" in c.flags])

    def canonical(self) -> str:
        """The catalog's content as canonical JSON: independent of comments, key order, line
        breaks inside texts and parameters written at their default value."""
        data = {
            "version": self.version,
            "date": self.date,
            "source": self.source,
            "cards": [_card_dict(c) for c in self.cards],
        }
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def content_hash(self) -> str:
        """sha256 (hex) of :meth:`canonical`, recorded with every run for provenance."""
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()

    def diff(self, other: Catalog) -> list[tuple[str, str]]:
        """What changed from this catalog to ``other``: ``(card id, what)`` pairs, where what is
        ``removed``, ``added``, ``name``, ``school``, ``text`` (the template), ``params`` (the
        effects: ids, kinds or values), ``clarifications`` or ``flags``. A changed parameter
        shows as ``params``; the rendered text follows it."""
        mine = {c.id: c for c in self.cards}
        theirs = {c.id: c for c in other.cards}
        changes: list[tuple[str, str]] = []
        for card in self.cards:
            new = theirs.get(card.id)
            if new is None:
                changes.append((card.id, "removed"))
                continue
            for what, old_value, new_value in (
                ("name", card.name, new.name),
                ("school", card.school, new.school),
                ("text", card.text_template, new.text_template),
                ("params", _effects_list(card), _effects_list(new)),
                ("clarifications", card.clarifications, new.clarifications),
                ("flags", card.flags, new.flags),
            ):
                if old_value != new_value:
                    changes.append((card.id, what))
        changes.extend([(c.id, "added") for c in other.cards if c.id not in mine])
        return changes


# --- loading --------------------------------------------------------------------------------


def list_catalogs() -> list[str]:
    """Versions of the shipped catalogs and the designer's own (``data/cards/``: "1.2",
    "1.3-draft", ...), oldest first."""
    return sorted(data_names("cards"), key=_version_key)


def load_catalog(version_or_path: str | Path) -> Catalog:
    """Load a catalog by version ("1.2" shipped, "1.3-draft" from data/cards/) or any
    catalog file by a path ending in ``.toml``."""
    path = _locate(str(version_or_path))
    return _build(read_toml(path, CatalogError), display_path(path), path)


def _locate(version_or_path: str) -> Path:
    if version_or_path.endswith(".toml"):
        path = Path(version_or_path)
        if not path.is_file():
            raise CatalogError(f"{display_path(path)}: no such catalog file")
        return path.resolve()
    path = find_data_file("cards", version_or_path, CatalogError)
    if path is None:
        known = list_catalogs()
        raise CatalogError(
            f"unknown catalog version {version_or_path!r}"
            f"{_did_you_mean(version_or_path, known)} (known: {', '.join(known) or 'none'}; "
            "or give a path ending in .toml)"
        )
    return path




def _build(data: dict[str, Any], src: str, path: Path) -> Catalog:
    for key in data:
        if key not in TOP_KEYS:
            raise CatalogError(f"{src}: {_unknown('top-level key', key, TOP_KEYS)}")
    for key in TOP_KEYS:
        if key not in data:
            raise CatalogError(f"{src}: missing top-level key '{key}'")
    version = _text(data["version"], f"{src}: key 'version'")
    source = _text(data["source"], f"{src}: key 'source'")
    date = _date(data["date"], f"{src}: key 'date'")
    raw_cards = data["card"]
    if not (isinstance(raw_cards, list) and raw_cards and all(isinstance(c, dict)
                                                                for c in raw_cards)):
        raise CatalogError(
            f"{src}: key 'card' expected one or more [[card]] tables, got {show_value(raw_cards)}"
        )
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(raw_cards, start=1):
        card = _card(raw, src, number)
        if card.id in seen:
            raise CatalogError(
                f"{src}: card '{card.id}': key 'id' duplicates card #{seen[card.id]}; "
                "card ids must be unique"
            )
        seen[card.id] = number
        cards.append(card)
    for card in cards:
        for eff in card.effects:
            if eff.kind == "flip_card":
                target = eff.params["to"]
                if target not in seen or target == card.id:
                    others = [i for i in seen if i != card.id]
                    raise CatalogError(
                        f"{src}: card '{card.id}', effect '{eff.id}': param 'to' expected the id "
                        f"of another card of this catalog{_did_you_mean(target, others)}, "
                        f"got {show_value(target)}"
                    )
    return Catalog(version=version, source=source, path=path, cards=tuple(cards), date=date)


def _card(raw: dict[str, Any], src: str, number: int) -> Card:
    where = f"{src}: card #{number}"
    if "id" not in raw:
        raise CatalogError(f"{where}: missing key 'id'")
    card_id = raw["id"]
    if not (isinstance(card_id, str) and _ID.fullmatch(card_id)):
        raise CatalogError(
            f"{where}: key 'id' expected lowercase letters, digits and '_' starting with a "
            f"letter, got {show_value(card_id)}"
        )
    where = f"{src}: card '{card_id}'"
    for key in raw:
        if key not in CARD_KEYS:
            raise CatalogError(f"{where}: {_unknown('key', key, CARD_KEYS)}")
    for key in ("name", "school", "text"):
        if key not in raw:
            raise CatalogError(f"{where}: missing key '{key}'")
    name = _text(raw["name"], f"{where}: key 'name'")
    school = _text(raw["school"], f"{where}: key 'school'")
    template = _text(raw["text"], f"{where}: key 'text'")
    clarifications = _strings(raw.get("clarifications", []), f"{where}: key 'clarifications'")
    flags = _flags(raw.get("flags", []), f"{where}: key 'flags'")
    raw_effects = raw.get("effect")
    if raw_effects is None:
        raise CatalogError(f"{where}: missing key 'effect' (one or more [[card.effect]] tables)")
    if not (isinstance(raw_effects, list) and raw_effects
            and all(isinstance(e, dict) for e in raw_effects)):
        raise CatalogError(
            f"{where}: key 'effect' expected one or more [[card.effect]] tables, "
            f"got {show_value(raw_effects)}"
        )
    effects: list[Effect] = []
    given: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for enumber, raw_effect in enumerate(raw_effects, start=1):
        eff, explicit = _effect(raw_effect, where, enumber)
        if eff.id in seen:
            raise CatalogError(
                f"{where}, effect '{eff.id}': key 'id' duplicates effect #{seen[eff.id]}; "
                "effect ids must be unique within a card"
            )
        seen[eff.id] = enumber
        effects.append(eff)
        given[eff.id] = explicit
    _check_placeholders(template, tuple(effects), given, where)
    return Card(card_id, name, school, template, clarifications, flags, tuple(effects))


def _effect(raw: dict[str, Any], card_where: str, number: int) -> tuple[Effect, list[str]]:
    where = f"{card_where}, effect #{number}"
    if "id" not in raw:
        raise CatalogError(f"{where}: missing key 'id'")
    effect_id = raw["id"]
    if not (isinstance(effect_id, str) and _ID.fullmatch(effect_id)):
        raise CatalogError(
            f"{where}: key 'id' expected lowercase letters, digits and '_' starting with a "
            f"letter, got {show_value(effect_id)}"
        )
    where = f"{card_where}, effect '{effect_id}'"
    if "kind" not in raw:
        raise CatalogError(f"{where}: missing key 'kind'")
    kind_name = raw["kind"]
    if not isinstance(kind_name, str) or kind_name not in EFFECT_KINDS:
        close = difflib.get_close_matches(str(kind_name), EFFECT_KINDS, n=4, cutoff=0.5)
        hint = (f"close matches: {', '.join(close)}" if close
                else f"known kinds: {', '.join(EFFECT_KINDS)}")
        raise CatalogError(
            f"{where}: key 'kind' unknown effect kind {show_value(kind_name)}; {hint}")
    kind = EFFECT_KINDS[kind_name]
    values = {k: v for k, v in raw.items() if k not in ("id", "kind")}
    for name in values:
        if name not in kind.params:
            allowed = ", ".join(kind.params) or "none"
            raise CatalogError(
                f"{where}: unknown param '{name}'{_did_you_mean(name, kind.params)}; "
                f"{kind.name} params: {allowed}"
            )
    params: dict[str, Any] = {}
    for name, spec in kind.params.items():
        if name not in values:
            if spec.required:
                needed = ", ".join([n for n, p in kind.params.items() if p.required])
                raise CatalogError(
                    f"{where}: missing param '{name}' ({kind.name} needs: {needed})"
                )
            params[name] = _frozen(spec.default)
            continue
        value = values[name]
        if not _fits(spec, value):
            raise CatalogError(
                f"{where}: param '{name}' expected {_allowed(spec)}, got {show_value(value)}"
            )
        params[name] = _frozen(value)
    problem = _cross_check(kind.name, params)
    if problem:
        raise CatalogError(f"{where}: {problem}")
    for name in values:
        spec = kind.params[name]
        if spec.only_for is not None and not applies(spec, params):
            other, allowed = spec.only_for
            raise CatalogError(
                f"{where}: param '{name}' is a reading only for {other} = "
                f"{' or '.join([show_value(v) for v in allowed])}; remove it from this effect"
            )
    explicit = [n for n in values if kind.params[n].type in _NUMERIC]
    return Effect(effect_id, kind.name, MappingProxyType(params)), explicit


def _cross_check(kind: str, params: dict[str, Any]) -> str:
    """Checks that involve two parameters of one kind; the message names the param to fix."""
    if kind == "count_bonus":
        at, han = params["at"], params["han"]
        if not at:
            return "param 'at' expected at least one count, got []"
        if len(at) != len(han):
            return (f"param 'han' expected one value per count in 'at' ({len(at)}), "
                    f"got {show_value(han)}")
        if any(b <= a for a, b in zip(at, at[1:], strict=False)):
            return f"param 'at' expected increasing counts, got {show_value(at)}"
    return ""


def _check_placeholders(
    template: str, effects: tuple[Effect, ...], given: dict[str, list[str]], where: str
) -> None:
    by_id = {e.id: e for e in effects}
    used: set[tuple[str, str]] = set()
    for match in _PLACEHOLDER.finditer(template):
        body = match.group(1)
        shown = "{" + body + "}"
        parts = _PLACEHOLDER_BODY.fullmatch(body)
        if not parts:
            raise CatalogError(
                f"{where}: key 'text' placeholder {shown} expected the form "
                "{effect_id.param}"
            )
        effect_id, param = parts.groups()
        eff = by_id.get(effect_id)
        if eff is None:
            raise CatalogError(
                f"{where}: key 'text' placeholder {shown} names no effect of the card"
                f"{_did_you_mean(effect_id, by_id)}; effects: {', '.join(by_id)}"
            )
        if param not in eff.params:
            raise CatalogError(
                f"{where}: key 'text' placeholder {shown} names no param of effect "
                f"'{effect_id}'{_did_you_mean(param, eff.params)}; {eff.kind} params: "
                f"{', '.join(eff.params) or 'none'}"
            )
        used.add((effect_id, param))
    rest = _PLACEHOLDER.sub("", template)
    if "{" in rest or "}" in rest:
        raise CatalogError(
            f"{where}: key 'text' has an unmatched '{{' or '}}'; braces are only for "
            "placeholders {effect_id.param}"
        )
    for eff in effects:
        for param in given[eff.id]:
            if (eff.id, param) not in used:
                raise CatalogError(
                    f"{where}, effect '{eff.id}': param '{param}' is not shown in the text; "
                    f"write {{{eff.id}.{param}}} where the card states it"
                )


# --- values ---------------------------------------------------------------------------------


def _fits(spec: Param, value: Any) -> bool:
    t = spec.type
    if t == "int":
        return _is_int(value) and _in_range(spec, value)
    if t == "float":
        return _is_number(value) and _in_range(spec, value)
    if t == "bool":
        return isinstance(value, bool)
    if t == "str":
        return isinstance(value, str) and (not spec.choices or value in spec.choices)
    if t == "list[int]":
        return isinstance(value, list) and all(_is_int(v) and _in_range(spec, v) for v in value)
    if t == "list[str]":
        return isinstance(value, list) and all(
            isinstance(v, str) and (not spec.choices or v in spec.choices) for v in value
        ) and len(set(value)) == len(value)
    raise AssertionError(f"unknown param type {t!r}")  # pragma: no cover


def allowed(spec: Param) -> str:
    """What a parameter accepts, in words ("an integer from 0 to 13", "one of ...")."""
    return _allowed(spec)


def _allowed(spec: Param) -> str:
    """What a parameter accepts, in words (used in error messages and `saki cards show`)."""
    t = spec.type
    if t in ("int", "float", "list[int]"):
        noun = {"int": "an integer", "float": "a number", "list[int]": "a list of integers"}[t]
        if spec.low is not None and spec.high is not None:
            return f"{noun} from {_num(spec.low)} to {_num(spec.high)}"
        if spec.low is not None:
            return f"{noun} of at least {_num(spec.low)}"
        return noun
    if t == "bool":
        return "true or false"
    choices = ", ".join([show_value(c) for c in spec.choices])
    if t == "str":
        return f"one of {choices}" if spec.choices else "a string"
    return f"a list of distinct values from {choices}" if spec.choices else "a list of strings"


def _render(template: str, effects: tuple[Effect, ...]) -> str:
    by_id = {e.id: e for e in effects}

    def fill(match: re.Match[str]) -> str:
        parts = _PLACEHOLDER_BODY.fullmatch(match.group(1))
        if not parts or parts.group(1) not in by_id:
            return match.group(0)
        eff = by_id[parts.group(1)]
        if parts.group(2) not in eff.params:
            return match.group(0)
        return _render_value(eff.params[parts.group(2)])

    return _PLACEHOLDER.sub(fill, template)


def _render_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,g}"
    if isinstance(value, tuple | list):
        return "/".join([_render_value(v) for v in value])
    return str(value)


def _text(value: Any, where: str) -> str:
    """A non-empty string with runs of whitespace (line breaks in TOML) joined to one space."""
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where} expected a non-empty string, got {show_value(value)}")
    return " ".join(value.split())


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not (isinstance(value, list)
            and all(isinstance(v, str) and v.strip() for v in value)):
        raise CatalogError(f"{where} expected a list of non-empty strings, got {show_value(value)}")
    return tuple([" ".join(v.split()) for v in value])


def _flags(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise CatalogError(f"{where} expected a list of flags, got {show_value(value)}")
    for flag in value:
        if flag not in FLAGS:
            raise CatalogError(
                f"{where} unknown flag {show_value(flag)}"
                f"{_did_you_mean(flag, FLAGS) if isinstance(flag, str) else ''}; "
                f"allowed flags: {', '.join(FLAGS)}"
            )
    if len(set(value)) != len(value):
        raise CatalogError(f"{where} expected distinct flags, got {show_value(value)}")
    return tuple(value)


def _date(value: Any, where: str) -> str:
    if isinstance(value, Date):
        return value.isoformat()
    if isinstance(value, str) and _DATE.fullmatch(value):
        return value
    raise CatalogError(
        f"{where} expected a date (YYYY, YYYY-MM or YYYY-MM-DD), got {show_value(value)}")


def _effect_check(implemented: Implemented) -> Callable[[Effect], bool]:
    if callable(implemented):
        return implemented
    kinds = frozenset(implemented)
    return lambda effect: effect.kind in kinds


def _card_dict(card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.name,
        "school": card.school,
        "text": card.text_template,
        "clarifications": list(card.clarifications),
        "flags": list(card.flags),
        "effects": _effects_list(card),
    }


def _effects_list(card: Card) -> list[dict[str, Any]]:
    return [{"id": e.id, "kind": e.kind, **{k: plain(v) for k, v in e.params.items()}}
            for e in card.effects]


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value




def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _in_range(spec: Param, value: float) -> bool:
    return ((spec.low is None or value >= spec.low)
            and (spec.high is None or value <= spec.high))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _unknown(what: str, key: str, known: Iterable[str]) -> str:
    known = list(known)
    return f"unknown {what} '{key}'{_did_you_mean(key, known)}; allowed keys: {', '.join(known)}"


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(word), list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _version_key(version: str) -> tuple[Any, ...]:
    return tuple([(0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"[.-]", version)])



