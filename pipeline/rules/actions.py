"""Typed actions and melds: what a seat may do, and what it has declared."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pipeline.tiles import format_tiles, tile_to_str


class ActionKind(StrEnum):
    """Every kind of decision a seat can make."""

    DISCARD = "discard"          # tile: the discarded tile
    RIICHI = "riichi"            # tile: the discard that declares riichi
    TSUMO = "tsumo"              # tile: the drawn winning tile
    ANKAN = "ankan"              # tiles: the four tiles
    KAKAN = "kakan"              # tile: the added tile
    NINE_TERMINALS = "nine_terminals"
    RON = "ron"                  # tile: the claimed tile
    CHI = "chi"                  # tile: claimed tile, tiles: the two tiles from hand
    PON = "pon"                  # tile: claimed tile, tiles: the two tiles from hand
    MINKAN = "minkan"            # tile: claimed tile, tiles: the three tiles from hand
    PASS = "pass"
    KITA = "kita"                # tile: the North set aside as nukidora (three players, S-03)
    # Card abilities add their own actions through hooks (later); they use this kind.
    ABILITY = "ability"


CLAIM_KINDS = frozenset({ActionKind.RON, ActionKind.CHI, ActionKind.PON, ActionKind.MINKAN})


@dataclass(frozen=True)
class Action:
    """One legal decision. Compare actions by value; agents return one of the offered ones."""

    kind: ActionKind
    seat: int
    tile: int | None = None
    tiles: tuple[int, ...] = ()
    detail: str = ""

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.tile is not None:
            parts.append(tile_to_str(self.tile))
        if self.tiles:
            parts.append("+" + format_tiles(self.tiles))
        if self.detail:
            parts.append(self.detail)
        return f"P{self.seat} " + " ".join(parts)


class MeldKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"   # open kan on a discard (daiminkan)
    KAKAN = "kakan"     # pon extended with the fourth tile (shouminkan)
    ANKAN = "ankan"     # concealed kan


@dataclass(frozen=True)
class Meld:
    """A declared set. ``tiles`` are sorted; ``called`` is the claimed tile (None for ankan)."""

    kind: MeldKind
    tiles: tuple[int, ...]
    called: int | None = None
    from_seat: int | None = None
    added: int | None = field(default=None)  # the tile added to make a kakan

    @property
    def is_kan(self) -> bool:
        return self.kind in (MeldKind.MINKAN, MeldKind.KAKAN, MeldKind.ANKAN)

    @property
    def is_open(self) -> bool:
        return self.kind != MeldKind.ANKAN

    @property
    def tile_type(self) -> int:
        return self.tiles[0] // 4

    def __str__(self) -> str:
        return f"{self.kind.value}({format_tiles(self.tiles)})"
