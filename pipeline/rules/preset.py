"""Rule presets: named option sets read from TOML files (shipped in ``pipeline/data/presets/``,
or the designer's own in ``data/presets/`` or at any path; see :mod:`pipeline.datafiles`).

Rules are data (architecture decision 2): a designer copies a preset file, changes an option and
reruns, without touching code. Every option is described once, in :data:`OPTIONS` (type, default,
allowed values, meaning, rule ids); that table drives validation and ``saki presets show``.

A preset file holds top-level options, an optional ``[cards]`` table, and optionally
``extends = "<preset name>"`` (or a path ending in ``.toml``, relative to the file) to start from
another preset's values; ``name`` and ``description`` are never inherited. A ``[cards] exclude``
list adds to the one inherited (a preset extending cards-tonpuusen keeps its C-10 exclusions),
unless the file also sets ``[cards] replace_exclude = true``. Loading is strict: an
unknown key, a wrong type (``true`` is not an integer), a value out of range, a malformed or
missing file each raise :class:`PresetError` with a one-line message naming the file, the key,
the bad value and what is allowed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, fields, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

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
from pipeline.rules.scoring import ScoringRules

PRESET_DIR = shipped_dir("presets")
REPLACE_EXCLUDE = "replace_exclude"  # [cards] directive: exclude replaces the inherited list


class PresetError(LabError):
    """A preset file or dict that cannot be loaded; the message names file, key and value."""


@dataclass(frozen=True)
class OptionSpec:
    """One preset option: how it is written, what it may hold and what it means."""

    kind: str  # "bool" | "int" | "str" | "uma" (3 or 4 integers) | "ids" (list of card ids)
    default: Any
    meaning: str
    rules: str = ""  # rule ids from the spec, e.g. "M-06, K-13"
    choices: tuple[Any, ...] = ()  # allowed values, when the option is a closed set
    min: int | None = None
    max: int | None = None
    step: int | None = None  # the value must be a multiple of this
    pattern: str | None = None  # regular expression a string must match in full

    @property
    def type_name(self) -> str:
        """The option's type as a preset author writes it in TOML."""
        return {
            "bool": "boolean",
            "int": "integer",
            "str": "string",
            "uma": "array of 4 integers (3 with three players)",
            "ids": "array of strings",
        }[self.kind]

    def allowed(self) -> str:
        """What values are accepted, in words (used in error messages and the options table)."""
        if self.choices:
            return "one of " + ", ".join(show_value(c) for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            text = f"an integer from {self.min} to {self.max}"
            return text + (f", a multiple of {self.step}" if self.step else "")
        if self.kind == "uma":
            return (
                f"4 integers from {self.min} to {self.max}, first to fourth place (3 with "
                "three players), non-increasing, summing to 0"
            )
        if self.kind == "ids":
            return "a list of distinct card ids (lowercase letters, digits, '_')"
        if self.pattern == _NAME_PATTERN:
            return "a non-empty string of letters, digits, '.', '_' or '-'"
        if self.pattern:
            return f"a string matching {self.pattern}"
        return "a string"


_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]*"
_CARD_ID_PATTERN = r"[a-z][a-z0-9_]*"
_POINTS = {"min": 100, "max": 1_000_000, "step": 100}

# Every preset option, in the order presets and `saki presets show` list them. Keys under the
# `[cards]` table are written "cards.<name>". Defaults equal the dataclass defaults below.
OPTIONS: dict[str, OptionSpec] = {
    "name": OptionSpec(
        "str", "custom", "preset name, as recorded with every run (defaults to the file name)",
        pattern=_NAME_PATTERN,
    ),
    "description": OptionSpec("str", "", "one-line summary of the preset and where it comes from"),
    "players": OptionSpec(
        "int", 4, "number of players: four, or three (sanma: 108 tiles without 2m-8m, seats "
        "East, South and West, no chi)", "H-01, C-23, S-01, S-02", choices=(3, 4),
    ),
    "kita": OptionSpec(
        "bool", False,
        "three players: a North may be set aside on one's own turn as nukidora (one dora "
        "each) and a replacement tile drawn from the dead wall", "C-23, S-03, S-04",
    ),
    "north_yakuhai": OptionSpec(
        "bool", False,
        "three players: a North triplet or kan is yakuhai (one han) and a North pair earns "
        "value fu; off, North is a guest wind and only a nukidora (Tenhou)", "S-04",
    ),
    "tsumo_payment": OptionSpec(
        "str", "tsumo-loss",
        "three players, a tsumo: each payer pays its four-player share and the missing seat's "
        "share is lost (Tenhou), or that share is split evenly between the two payers",
        "S-06", choices=("tsumo-loss", "split"),
    ),
    "start_points": OptionSpec(
        "int", 25000, "points each player starts with", "H-01, M-08, C-01", **_POINTS
    ),
    "return_points": OptionSpec(
        "int", 30000, "points subtracted from each final score before uma is added", "M-07",
        **_POINTS,
    ),
    "uma": OptionSpec(
        "uma", (15, 5, -5, -15), "placement bonus in thousands of points, first to last (one "
        "entry per player)", "M-07, M-09, S-10", min=-100, max=100,
    ),
    "oka": OptionSpec(
        "bool", True,
        "first place takes (return_points - start_points) times the number of players; if "
        "false, start and return must be equal so results sum to 0", "M-07, S-10",
    ),
    "length": OptionSpec(
        "str", "hanchan", "match length: one hand, East round only, or East and South rounds",
        "M-01", choices=("single", "tonpuusen", "hanchan"),
    ),
    "west_extension": OptionSpec(
        "bool", True,
        "if nobody has target_points after the last hand, play on into the next wind and stop "
        "as soon as someone has it; never past West", "M-06, K-13",
    ),
    "extension_renchan": OptionSpec(
        "str", "ends",
        "in the extension, when someone has target_points but the dealer keeps the deal (a "
        "win, tenpai at a draw, an abortive draw): the match ends at once, or the dealer plays "
        "on unless first with target_points (Tenhou)", "M-06, K-13",
        choices=("ends", "plays-on"),
    ),
    "target_points": OptionSpec(
        "int", 30000, "points first place needs for the match to end (extension, agari-yame)",
        "M-06, K-13", min=0, max=1_000_000, step=100,
    ),
    "agari_yame": OptionSpec(
        "bool", True,
        "the match ends when the last hand's dealer wins or is tenpai at a draw while first "
        "with target_points or more (for tenpai only with tenpai_yame)", "M-06, K-13",
    ),
    "tenpai_yame": OptionSpec(
        "bool", True,
        "with agari_yame: the last dealer's tenpai at an exhaustive draw (or nagashi mangan) "
        "while first with target_points ends the match too (Tenhou from June 2010); false: "
        "only a win does and the tenpai dealer plays on (Tenhou before)", "M-06, K-13",
    ),
    "tobi": OptionSpec(
        "bool", True, "a score below 0 ends the match at once; exactly 0 plays on", "M-06, K-13"
    ),
    "red_fives": OptionSpec(
        "bool", True, "one red five per suit, each worth one han of dora", "H-01, M-08"
    ),
    "kuitan": OptionSpec("bool", True, "all simples (tanyao) counts in an open hand", "M-08"),
    "double_ron": OptionSpec(
        "bool", True,
        "several players may ron one discard; if false only the first in turn order after the "
        "discarder wins (head bump)", "H-11, M-08",
    ),
    "triple_ron_abort": OptionSpec(
        "bool", True, "three rons on one discard abort the hand instead of scoring", "M-04, M-08"
    ),
    "multi_ron_honba": OptionSpec(
        "str", "each",
        "with several rons on one discard, the honba (300 a count) is paid to each winner, or "
        "only to the winner nearest after the discarder (Tenhou)", "H-11, M-03",
        choices=("each", "nearest"),
    ),
    "multi_ron_sticks": OptionSpec(
        "str", "nearest",
        "with several rons on one discard, the riichi sticks on the table go to the winner "
        "nearest after the discarder (Tenhou), or are split evenly among the winners (in "
        "hundreds, any remainder to the nearest)", "H-10, H-11", choices=("nearest", "split"),
    ),
    "multi_ron_renchan": OptionSpec(
        "str", "any-winner",
        "with several rons on one discard, the dealer keeps the deal when among the winners "
        "(Tenhou), or only when the dealer is the winner nearest after the discarder",
        "M-03, H-11", choices=("any-winner", "nearest-winner"),
    ),
    "double_yakuman": OptionSpec(
        "bool", False,
        "kokushi 13-sided wait, suuankou tanki and similar hands count as double yakuman", "M-09",
    ),
    "kazoe_limit": OptionSpec(
        "str", "yakuman",
        "cap on 13+ han without a real yakuman: yakuman, sanbaiman, or none (every 13 han is "
        "another yakuman)", "M-08", choices=("yakuman", "sanbaiman", "none"),
    ),
    "kiriage": OptionSpec(
        "bool", False, "4 han 30 fu and 3 han 60 fu are rounded up to mangan", "M-09"
    ),
    "ippatsu": OptionSpec(
        "bool", True, "a riichi win within one go-around scores one extra han", "H-08, M-08"
    ),
    "ura_dora": OptionSpec(
        "bool", True, "a riichi winner reveals the indicators under the dora indicators",
        "H-10, M-08",
    ),
    "kan_dora": OptionSpec(
        "bool", True, "each kan reveals another dora indicator", "H-10, M-08"
    ),
    "kan_dora_open_after_discard": OptionSpec(
        "bool", True,
        "an open or added kan's new indicator is revealed after the kan player's discard "
        "(a concealed kan's at once); if false every indicator is revealed at once", "K-05",
    ),
    "kan_after_riichi": OptionSpec(
        "str", "concealed-unchanged-wait",
        "kans allowed after riichi: none, or a concealed kan that leaves the wait unchanged",
        "H-08, K-09", choices=("none", "concealed-unchanged-wait"),
    ),
    "kan_dora_before_rob": OptionSpec(
        "bool", False,
        "a kan declared while an earlier open or added kan's indicator still waits for the "
        "discard turns that indicator over before the new kan can be robbed (riichienv); off, "
        "it waits until the new kan stands, so a robbed kan reveals none (Tenhou)", "K-05, H-06",
    ),
    "kokushi_robs_concealed_kan": OptionSpec(
        "bool", False, "kokushi musou may rob a concealed kan; the kan player pays it all",
        "H-06, K-06",
    ),
    "abortive_draws": OptionSpec(
        "bool", True,
        "nine terminals, four winds, four riichi and four kans abort the hand (triple ron: "
        "see triple_ron_abort)", "M-04, K-11",
    ),
    "nagashi_mangan": OptionSpec(
        "bool", True,
        "at an exhaustive draw, all-terminal/honor discards none of which was called are paid "
        "as a mangan tsumo", "M-05",
    ),
    "pao": OptionSpec(
        "bool", True, "the player who fed the last set of daisangen or daisuushii pays for it",
        "M-08",
    ),
    "pao_rinshan": OptionSpec(
        "bool", False,
        "a rinshan win off an open kan fed by a discard is paid by the feeder as a ron", "K-06",
    ),
    "riichi_min_points": OptionSpec(
        "int", 1000, "points a player needs to declare riichi", "H-08",
        min=0, max=1_000_000, step=100,
    ),
    "riichi_min_wall": OptionSpec(
        "int", 4, "tiles that must be left in the live wall to declare riichi: at least one "
        "tile a player, so the riichi player draws again (K-02)", "H-08, K-02",
        min=3, max=69,
    ),
    "noten_payment": OptionSpec(
        "int", 3000,
        "total noten players pay tenpai players at an exhaustive draw (a multiple of 600 so "
        "every split is whole hundreds; of 200 with three players)", "H-12, S-07",
        min=0, max=30000, step=200,
    ),
    "return_deposits_on_draw": OptionSpec(
        "bool", False, "riichi deposits go back to their owners after a draw", "H-12"
    ),
    "leftover_sticks_to_first": OptionSpec(
        "bool", True, "riichi sticks still on the table at the end go to first place",
        "M-07, K-14",
    ),
    "renhou": OptionSpec(
        "str", "off", "value of a win on a discard before one's first draw", "K-01",
        choices=("off", "mangan", "yakuman"),
    ),
    "cards.enabled": OptionSpec(
        "bool", False, "players have character cards and pick one every hand", "C-02, C-03"
    ),
    "cards.team_mode": OptionSpec(
        "str", "standard",
        "how teams are dealt: 4-card team, winner rotation, tenpai replacement, 2 fresh cards "
        "per hand, or team draft", "C-02, C-05, C-06, C-07, C-08",
        choices=("standard", "winner-rotation", "tenpai-replacement", "rapid", "draft"),
    ),
    "cards.team_size": OptionSpec(
        "int", 4, "cards per player (standard 4, rapid 2, draft 6)", "C-02, C-07, C-08",
        min=1, max=13,
    ),
    "cards.catalog": OptionSpec(
        "str", "1.2", "card catalog version: a shipped catalog, or a draft's name "
        "(data/cards/<name>.toml, as 'saki cards new' writes it)", "C-26",
        pattern=_NAME_PATTERN,
    ),
    "cards.exclude": OptionSpec(
        "ids", (), "card ids removed from the deck before dealing (the C-10 East-only "
        "exclusions apply only when listed here); a preset that extends another adds its "
        "list to the inherited one, unless it sets replace_exclude = true", "C-10"
    ),
}


@dataclass(frozen=True)
class CardRules:
    """How the character cards are used in a match (seed 000)."""

    enabled: bool = False  # character cards in play (C-02)
    team_mode: str = "standard"  # standard | winner-rotation | tenpai-replacement | rapid | draft
    team_size: int = 4  # cards per player: standard 4, rapid 2, draft 6 (C-07, C-08)
    catalog: str = "1.2"  # card catalog version (shipped, or in data/cards/)
    exclude: tuple[str, ...] = ()  # card ids removed from the deck (C-10)


@dataclass(frozen=True)
class Preset:
    """A complete, validated rule set for one match. Build it with :func:`load_preset`."""

    name: str = "custom"  # preset name, recorded with every run
    description: str = ""  # one-line summary and source
    players: int = 4  # 4, or 3 (sanma, rules S-01..S-10)
    kita: bool = False  # three players: North set aside as nukidora (S-03, S-04)
    north_yakuhai: bool = False  # three players: North as a value wind (S-04; Tenhou: off)
    tsumo_payment: str = "tsumo-loss"  # three players: "tsumo-loss" (Tenhou) | "split" (S-06)
    start_points: int = 25000  # points each player starts with (H-01, C-01)
    return_points: int = 30000  # subtracted from final scores before uma (M-07)
    uma: tuple[int, ...] = (15, 5, -5, -15)  # placement bonus, thousands, one per player (M-07)
    oka: bool = True  # first place gets (return - start) * 4 (M-07)
    length: str = "hanchan"  # "single" one hand | "tonpuusen" | "hanchan" (M-01)
    west_extension: bool = True  # play into the next wind until someone has target_points
    extension_renchan: str = "ends"  # or "plays-on": a repeating dealer plays on (Tenhou)
    target_points: int = 30000  # first place needs this to end the match (M-06, K-13)
    agari_yame: bool = True  # last dealer first with target_points may end the match (M-06)
    tenpai_yame: bool = True  # ...also by tenpai at a draw (with agari_yame; Tenhou from 2010-06)
    tobi: bool = True  # below 0 ends the match; exactly 0 continues (M-06, K-13)
    red_fives: bool = True  # one red five per suit (H-01)
    kuitan: bool = True  # open tanyao (M-08)
    double_ron: bool = True  # several rons on one discard; else head bump (H-11)
    triple_ron_abort: bool = True  # three rons abort the hand (M-04)
    multi_ron_honba: str = "each"  # "each" | "nearest": who of several ron winners gets honba
    multi_ron_sticks: str = "nearest"  # "nearest" | "split": who gets the table's sticks
    multi_ron_renchan: str = "any-winner"  # or "nearest-winner": dealer keeps the deal if...
    double_yakuman: bool = False  # some yakuman count double (M-09)
    kazoe_limit: str = "yakuman"  # "yakuman" | "sanbaiman" | "none" cap for 13+ han
    kiriage: bool = False  # 4/30 and 3/60 rounded up to mangan (M-09)
    ippatsu: bool = True  # ippatsu yaku (H-08)
    ura_dora: bool = True  # riichi winners reveal ura-dora (H-10)
    kan_dora: bool = True  # kans reveal new dora indicators (H-10)
    kan_dora_open_after_discard: bool = True  # open/added kan indicator after discard (K-05)
    kan_after_riichi: str = "concealed-unchanged-wait"  # or "none" (H-08, K-09)
    kan_dora_before_rob: bool = False  # an earlier kan's waiting indicator shows first
    kokushi_robs_concealed_kan: bool = False  # chankan on a concealed kan for kokushi (K-06)
    abortive_draws: bool = True  # nine terminals, four winds/riichi/kans abort (M-04)
    nagashi_mangan: bool = True  # nagashi mangan at an exhaustive draw (M-05)
    pao: bool = True  # feeder pays daisangen/daisuushii (M-08)
    pao_rinshan: bool = False  # rinshan off a fed open kan is the feeder's ron (K-06)
    riichi_min_points: int = 1000  # points needed to declare riichi (H-08)
    riichi_min_wall: int = 4  # live-wall tiles needed to declare riichi (H-08, K-02)
    noten_payment: int = 3000  # total paid by noten to tenpai players (H-12)
    return_deposits_on_draw: bool = False  # riichi deposits returned after a draw (H-12)
    leftover_sticks_to_first: bool = True  # unclaimed sticks go to first place (M-07, K-14)
    renhou: str = "off"  # "off" | "mangan" | "yakuman"
    cards: CardRules = field(default_factory=CardRules)  # character-card rules (seed 000)
    source: str = field(default="", compare=False, repr=False)  # file read (messages only)

    def scoring_rules(self) -> ScoringRules:
        """The subset of options that values a win, in the form the scorer takes."""
        return ScoringRules(**{f.name: getattr(self, f.name) for f in fields(ScoringRules)})

    def to_dict(self) -> dict[str, Any]:
        """Every option resolved, JSON-ready; :func:`preset_from_dict` reads it back."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name not in ("cards", "source"):
                out[f.name] = plain(getattr(self, f.name))
        out["cards"] = {f.name: plain(getattr(self.cards, f.name)) for f in fields(self.cards)}
        return out


def list_presets() -> list[str]:
    """Names of the shipped presets and the designer's own (``data/presets/``), sorted, so a
    CLI can offer them."""
    return data_names("presets")


def load_preset(name_or_path: str) -> Preset:
    """Load a shipped preset by name, or any preset file by a path ending in ``.toml``."""
    path = _locate(name_or_path)
    source = display_path(path)
    data = read_toml(path, PresetError)
    if not data:
        raise PresetError(f"{source}: the file is empty, so it would silently play the default "
                          "rules; write at least 'extends = \"online-hanchan\"' (or another "
                          "preset) and the options to change")
    preset = _build(data, source, path.parent, (path,))
    _check_card_entries(preset, source)
    return replace(preset, source=source)


def preset_from_dict(data: dict[str, Any], source: str) -> Preset:
    """Validate a TOML-shaped dict (as from a file or :meth:`Preset.to_dict`) into a Preset.

    ``source`` names the origin in error messages; when it is a ``.toml`` path, a relative
    ``extends`` is resolved next to it.
    """
    chain: tuple[Path, ...] = ()
    base_dir = Path.cwd()
    if source.endswith(".toml"):
        src = Path(source)
        base_dir = src.resolve().parent
        chain = (src.resolve(),)
    return _build(data, source, base_dir, chain)


def _check_card_entries(preset: Preset, source: str) -> None:
    """The ``[cards]`` catalog must exist and every excluded id must be one of its cards, so a
    typo fails when the preset loads (``presets show`` included), naming the preset."""
    rules = preset.cards
    if not (rules.enabled or rules.exclude):
        return
    path = find_data_file("cards", rules.catalog, PresetError)
    if path is None:
        known = ", ".join(data_names("cards")) or "none"
        raise PresetError(f"{source}: [cards] key 'catalog': no catalog {rules.catalog!r} "
                          f"(known: {known}); name one of those")
    ids = _catalog_ids(path)
    for card_id in rules.exclude:
        if card_id not in ids:
            close = difflib.get_close_matches(card_id, sorted(ids), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise PresetError(
                f"{source}: [cards] key 'exclude': no card {card_id!r} in catalog "
                f"{rules.catalog}{hint}; the ids are listed by 'saki cards list --catalog "
                f"{rules.catalog}'")


def _catalog_ids(path: Path) -> set[str]:
    """The card ids a catalog file declares (read as plain data: the rules know no cards)."""
    cards = read_toml(path, PresetError).get("card", [])
    return {c["id"] for c in cards if isinstance(c, dict) and isinstance(c.get("id"), str)}


def describe_options() -> list[dict[str, str]]:
    """One row per option (key, type, default, allowed, meaning, rules), for display."""
    return [
        {
            "key": key,
            "type": spec.type_name,
            "default": show_value(plain(spec.default)),
            "allowed": spec.allowed(),
            "meaning": spec.meaning,
            "rules": spec.rules,
        }
        for key, spec in OPTIONS.items()
    ]


# --- loading internals ---------------------------------------------------------------------


def _locate(name_or_path: str) -> Path:
    if name_or_path.endswith(".toml"):
        path = Path(name_or_path)
        if not path.is_file():
            raise PresetError(f"{display_path(path)}: no such preset file")
        return path.resolve()
    path = find_data_file("presets", name_or_path, PresetError)
    if path is None:
        raise PresetError(f"unknown preset {name_or_path!r} (known: {', '.join(list_presets())}"
                          "; or give a path ending in .toml)")
    return path




def _build(data: dict[str, Any], source: str, base_dir: Path, chain: tuple[Path, ...]) -> Preset:
    values = _resolve(data, source, base_dir, chain)
    if "name" not in values and source.endswith(".toml"):
        values["name"] = _check(source, "name", Path(source).stem)
    _cross_check(values, source)
    top = {k: v for k, v in values.items() if not k.startswith("cards.")}
    cards = {k.removeprefix("cards."): v for k, v in values.items() if k.startswith("cards.")}
    return Preset(**top, cards=CardRules(**cards))


def _resolve(
    data: dict[str, Any], source: str, base_dir: Path, chain: tuple[Path, ...]
) -> dict[str, Any]:
    """Checked values of one layer over those of the preset it extends (flat keys)."""
    if not isinstance(data, dict):
        raise PresetError(f"{source}: expected a table of options, got {show_value(data)}")
    replace_exclude = _replace_exclude(data, source)
    own = _check_layer(data, source)
    if "extends" not in data:
        return own
    parent = _extends_path(data["extends"], source, base_dir)
    if parent in chain:
        loop = " -> ".join(display_path(p) for p in (*chain, parent))
        raise PresetError(f"{source}: key 'extends': cycle {loop}")
    inherited = _resolve(read_toml(parent, PresetError), display_path(parent), parent.parent,
                         (*chain, parent))
    inherited.pop("name", None)
    inherited.pop("description", None)
    if "cards.exclude" in own and not replace_exclude:  # the lists add up
        own["cards.exclude"] = tuple(dict.fromkeys(
            (*inherited.get("cards.exclude", ()), *own["cards.exclude"])))
    return inherited | own


def _replace_exclude(data: dict[str, Any], source: str) -> bool:
    """``[cards] replace_exclude = true``: this file's ``exclude`` list replaces the one of the
    preset it extends instead of adding to it. A directive for loading, not an option."""
    cards = data.get("cards")
    if not isinstance(cards, dict) or REPLACE_EXCLUDE not in cards:
        return False
    value = cards[REPLACE_EXCLUDE]
    if not isinstance(value, bool):
        raise PresetError(f"{source}: [cards] key '{REPLACE_EXCLUDE}': expected true or false, "
                          f"got {show_value(value)}")
    if value and "exclude" not in cards:
        raise PresetError(f"{source}: [cards] key '{REPLACE_EXCLUDE}': true needs this file's "
                          "own 'exclude' list (write exclude = [] to play every card)")
    return value


def _extends_path(value: Any, source: str, base_dir: Path) -> Path:
    known = list_presets()
    if isinstance(value, str) and value.endswith(".toml"):
        path = (base_dir / value).resolve()
        if path.is_file():
            return path
        raise PresetError(f"{source}: key 'extends': no such preset file {show_value(value)}")
    if isinstance(value, str) and value in known:
        return find_data_file("presets", value, PresetError) or PRESET_DIR / f"{value}.toml"
    raise PresetError(
        f"{source}: key 'extends': expected a preset name ({', '.join(known)}) or a path "
        f"ending in .toml, got {show_value(value)}"
    )


def _check_layer(data: dict[str, Any], source: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "extends":
            continue
        if key == "cards":
            if not isinstance(value, dict):
                raise PresetError(
                    f"{source}: key 'cards': expected a table, got {show_value(value)}")
            for sub, sub_value in value.items():
                if sub != REPLACE_EXCLUDE:  # read by _replace_exclude
                    values[f"cards.{sub}"] = _check(source, f"cards.{sub}", sub_value)
            continue
        values[key] = _check(source, key, value)
    return values


def _check(source: str, key: str, value: Any) -> Any:
    """The value in its Python form, or PresetError naming source, key, value and allowed."""
    spec = OPTIONS.get(key)
    if spec is None:
        raise PresetError(f"{source}: {_unknown_key(key)}")

    def bad(expected: str) -> PresetError:
        return PresetError(f"{source}: key '{key}': expected {expected}, got {show_value(value)}")

    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise bad(spec.allowed())
        return value
    if spec.kind == "int":
        if not _is_int(value):
            raise bad(spec.allowed())
        if spec.choices and value not in spec.choices:
            raise bad(spec.allowed())
        if spec.min is not None and not spec.min <= value <= spec.max:
            raise bad(spec.allowed())
        if spec.step and value % spec.step:
            raise bad(spec.allowed())
        return value
    if spec.kind == "str":
        if not isinstance(value, str):
            raise bad(spec.allowed())
        if spec.choices and value not in spec.choices:
            raise bad(spec.allowed())
        if spec.pattern and not re.fullmatch(spec.pattern, value):
            raise bad(spec.allowed())
        return value
    if spec.kind == "uma":
        ok = (
            isinstance(value, list | tuple)
            and len(value) in (3, 4)
            and all(_is_int(v) and spec.min <= v <= spec.max for v in value)
            and sum(value) == 0
            and all(a >= b for a, b in pairwise(value))
        )
        if not ok:
            raise bad(spec.allowed())
        return tuple(value)
    if spec.kind == "ids":
        ok = (
            isinstance(value, list | tuple)
            and all(isinstance(v, str) and re.fullmatch(_CARD_ID_PATTERN, v) for v in value)
            and len(set(value)) == len(value)
        )
        if not ok:
            raise bad(spec.allowed())
        return tuple(value)
    raise AssertionError(f"option {key!r} has unknown kind {spec.kind!r}")  # pragma: no cover


def _cross_check(values: dict[str, Any], source: str) -> None:
    """Checks that involve two options; each names the option to change."""
    players = values.get("players", OPTIONS["players"].default)
    uma = values.get("uma", OPTIONS["uma"].default)
    if len(uma) != players:
        raise PresetError(
            f"{source}: key 'uma': {players} players need {players} entries, first to last, "
            f"got {show_value(list(uma))}")
    noten = values.get("noten_payment", OPTIONS["noten_payment"].default)
    if players == 4 and noten % 600:
        raise PresetError(
            f"{source}: key 'noten_payment': expected a multiple of 600 with four players (so "
            f"every split is whole hundreds), got {noten}")
    if players == 4 and values.get("north_yakuhai", False):
        raise PresetError(
            f"{source}: key 'north_yakuhai': North as a value wind is a three-player rule (set "
            "players = 3 or north_yakuhai = false)")
    if players == 4 and values.get("kita", False):
        raise PresetError(
            f"{source}: key 'kita': nukidora needs three players (set players = 3 or kita = "
            "false)")
    wall = values.get("riichi_min_wall", OPTIONS["riichi_min_wall"].default)
    if wall < players:
        raise PresetError(
            f"{source}: key 'riichi_min_wall': a riichi needs a draw of one's own still to come "
            f"(K-02), so at least {players} tiles with {players} players, got {wall}")
    start = values.get("start_points", OPTIONS["start_points"].default)
    ret = values.get("return_points", OPTIONS["return_points"].default)
    if not values.get("oka", OPTIONS["oka"].default) and start != ret:
        raise PresetError(
            f"{source}: key 'oka': false needs return_points equal to start_points so the "
            f"results sum to 0 (M-07), got start_points {start} and return_points {ret}"
        )


def _unknown_key(key: str) -> str:
    if key.startswith("cards."):
        known = [*(k.removeprefix("cards.") for k in OPTIONS if k.startswith("cards.")),
                 REPLACE_EXCLUDE]
        shown, name = f"[cards] key '{key.removeprefix('cards.')}'", key.removeprefix("cards.")
    else:
        known = ["extends", "cards", *(k for k in OPTIONS if not k.startswith("cards."))]
        shown, name = f"key '{key}'", key
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown {shown}{hint}; allowed keys: {', '.join(known)}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)





