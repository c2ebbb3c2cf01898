"""The per-suit shanten table, precomputed: every suit of at most 14 tiles and its row set.

``pipeline.bots.shanten`` reduces a suit's 9 counts to its row set (the Pareto-optimal
``(sets, partial sets, pairs, isolated kind)`` results of the `mahjong` package's search within
the suit, partial sets capped). Searching a suit the first time costs far more than the rest of a
shanten, and a bot meets thousands of new suits in its first matches, so the results for all
405,350 suits are built once and shipped in ``pipeline/data/bots/suit_table.bin``.

The file is zlib-compressed: a 4-byte little-endian length, that many bytes of JSON (the list of
distinct row sets, each a list of rows), then one unsigned 16-bit little-endian entry per suit
code (``sum(count[i] * 5**i)``, 5**9 entries): the index of the suit's row set in that list, or
``0xFFFF`` for a suit of more than 14 tiles. The table only caches the search: a missing file
leaves every result the same, only slower, and ``tests/bots/test_shanten.py`` checks the shipped
file against the search. Rebuild it after any change to the search with
``python -m pipeline.bots.suit_table`` (about half a minute).
"""

from __future__ import annotations

import itertools
import json
import struct
import sys
import zlib
from array import array
from pathlib import Path

from pipeline.datafiles import shipped_dir

TABLE_FILE = shipped_dir("bots") / "suit_table.bin"
NO_ENTRY = 0xFFFF  # a suit of more than 14 tiles: no closed part holds it
NUM_CODES = 5 ** 9
MAX_SUIT_TILES = 14

Row = tuple[int, int, int, int]


def suit_code(suit: tuple[int, ...]) -> int:
    """A suit's 9 counts as one base-5 integer (the first type is the lowest digit)."""
    code = 0
    for c in reversed(suit):
        code = code * 5 + c
    return code


def load_table(path: Path = TABLE_FILE) -> tuple[list[tuple[Row, ...]], array] | None:
    """The row sets and the per-code index into them, or None when the file is absent or does
    not have the expected shape (the search then works every suit out itself)."""
    try:
        raw = zlib.decompress(path.read_bytes())
    except (OSError, zlib.error):
        return None
    (size,) = struct.unpack_from("<I", raw)
    rows = [tuple(tuple(r) for r in rs) for rs in json.loads(raw[4:4 + size])]
    index = array("H")
    index.frombytes(raw[4 + size:])
    if sys.byteorder == "big":
        index.byteswap()
    if len(index) != NUM_CODES:
        return None
    return rows, index


def build_table() -> tuple[list[tuple[Row, ...]], array]:
    """Works out every suit of at most 14 tiles with the search in ``pipeline.bots.shanten``."""
    from pipeline.bots import shanten

    positions: dict[tuple[Row, ...], int] = {}
    row_sets: list[tuple[Row, ...]] = []
    index = array("H", [NO_ENTRY]) * NUM_CODES
    for suit in itertools.product(range(5), repeat=9):
        if sum(suit) > MAX_SUIT_TILES:
            continue
        rows = shanten.suit_row_set(suit)
        found = positions.get(rows)
        if found is None:
            found = positions[rows] = len(row_sets)
            row_sets.append(rows)
        index[suit_code(suit)] = found
    return row_sets, index


def write_table(row_sets: list[tuple[Row, ...]], index: array, path: Path = TABLE_FILE) -> None:
    header = json.dumps([[list(r) for r in rs] for rs in row_sets],
                        separators=(",", ":")).encode()
    body = array("H", index)
    if sys.byteorder == "big":
        body.byteswap()
    path.write_bytes(zlib.compress(struct.pack("<I", len(header)) + header + body.tobytes(), 9))


if __name__ == "__main__":
    sets, codes = build_table()
    write_table(sets, codes)
    print(f"wrote {TABLE_FILE}: {len(sets):,} row sets, "
          f"{sum(1 for c in codes if c != NO_ENTRY):,} suits, {TABLE_FILE.stat().st_size:,} bytes")
