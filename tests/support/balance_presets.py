"""A card preset written into a test's folder for the balance tests."""

from __future__ import annotations

from pathlib import Path


def preset(folder: Path, base: str, **cards: str) -> Path:
    """A card preset extending ``base`` with teams of one (and any other [cards] options)."""
    lines = [f'extends = "{base}"', f'name = "{base}-solo"', "[cards]", "team_size = 1"]
    lines += [f"{k} = {v}" for k, v in cards.items()]
    path = folder / f"{base}-solo.toml"
    path.write_text("\n".join(lines) + "\n")
    return path
