"""Playing-style knobs of the heuristic bot, read from ``pipeline/data/bots/styles.toml``.

Different player types (a careful player, a caller, a pusher) are simulated by changing these
numbers, not the code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

from pipeline.datafiles import shipped_dir

STYLES_FILE = shipped_dir("bots") / "styles.toml"


class StyleError(ValueError):
    """A style file or entry that cannot be used."""


@dataclass(frozen=True)
class BotStyle:
    name: str = "default"
    aggression: float = 1.0        # weight on own hand value against danger when pushing
    call_appetite: float = 1.0     # how readily it calls (see pipeline/data/bots/styles.toml)
    riichi_appetite: float = 1.0   # below 1 stays dama more often with a good hand
    value_weight: float = 1.0      # how much dora, red fives and value honors are kept
    measured_picks: float = 1.0    # weight of the pick offsets fitted from trials (0: raw)
    lookahead: float = 0.0         # rollouts per option of a card's choice (0: none; expert.py)


def load_styles(path: Path = STYLES_FILE) -> dict[str, BotStyle]:
    """Every style in the file, by name; a bad entry names the file, style and key."""
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise StyleError(f"{path}: style file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise StyleError(f"{path}: not valid TOML ({exc})") from None
    known = {f.name for f in fields(BotStyle)} - {"name"}
    styles = {}
    for name, entry in data.items():
        if not isinstance(entry, dict):
            raise StyleError(f"{path}: [{name}] must be a table of knobs")
        for key, value in entry.items():
            if key not in known:
                raise StyleError(f"{path}: [{name}] unknown key {key!r} "
                                 f"(allowed: {', '.join(sorted(known))})")
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0 <= value <= 5:
                raise StyleError(f"{path}: [{name}] {key} = {value!r}: "
                                 "expected a number from 0 to 5")
        styles[name] = BotStyle(name=name, **{k: float(v) for k, v in entry.items()})
    return styles


@cache
def style(name: str = "default") -> BotStyle:
    styles = load_styles()
    if name not in styles:
        raise StyleError(f"unknown bot style {name!r} (known: {', '.join(styles)})")
    return styles[name]
