"""Pick estimates anchored on measurement: per-card offsets fitted from card trials.

The estimates in :mod:`pipeline.bots.pick` say how much an ability should add with a given
starting hand and situation; their level for a card can be far off (a flat guess, a rough
share). A card trial measures the level: the mean points per hand the ability adds over the
hands its holder plays. The offset of a card is that measured value minus the estimate's own
mean over typical starting situations (:func:`estimate_means`), shrunk towards zero by how
noisy the measurement is, so the pick keeps the estimate's sense of which hands suit the card
and takes its average worth from the trial.

The shipped offsets are in ``pipeline/data/bots/pick_offsets.toml``; regenerate them with
``saki bots fit-picks TRIAL_DIR --out pipeline/data/bots/pick_offsets.toml`` after a trial of
the whole deck (``docs/trials.md``). A card the file does not name gets no offset (a new card
is picked on its estimate alone); a card whose text a draft changes keeps its offset, which
corrects the estimate's bias for that card's mechanism while the estimate follows the change.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.datafiles import shipped_dir
from pipeline.rules.hooks import PickView

OFFSETS_FILE = shipped_dir("bots") / "pick_offsets.toml"

# Score tables the sampled situations are drawn from (points of seat 0 first; rotated): an even
# start, a spread middle of the match, and one with a seat near zero.
SCORE_TABLES = ((30000, 30000, 30000, 30000), (38000, 31000, 27000, 24000),
                (45000, 33000, 26000, 16000), (52000, 34000, 28000, 6000))


class PickOffsetsError(ValueError):
    """A pick offsets file that cannot be read: names the file and the entry to fix."""


@lru_cache(maxsize=8)
def load_offsets(path: Path = OFFSETS_FILE) -> Mapping[str, float]:
    """Card id -> offset in points per hand (empty when the file does not exist)."""
    if not path.exists():
        return {}
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PickOffsetsError(f"{path}: unreadable ({exc}); regenerate it with 'saki bots "
                               "fit-picks'") from None
    offsets = {}
    for card, entry in doc.get("cards", {}).items():
        value = entry.get("offset") if isinstance(entry, dict) else None
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise PickOffsetsError(f"{path}: [cards.{card}] needs a number 'offset' (points "
                                   "per hand)")
        offsets[card] = float(value)
    return offsets


@lru_cache(maxsize=8)
def weighted_offsets(weight: float, path: Path = OFFSETS_FILE) -> Mapping[str, float]:
    """The offsets times ``weight`` (a bot style's ``measured_picks``)."""
    return {card: weight * value for card, value in load_offsets(path).items()}


def situations(count: int, seed: int = 1) -> list[tuple[tuple[int, ...], PickView]]:
    """``count`` starting hands with their pick situations, seeded: every seat and dealer, the
    dealer's 14 tiles, East and South rounds, the score tables above."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        seat, dealer = rng.randrange(4), rng.randrange(4)
        deal = rng.sample(range(136), 18)
        hand = tuple(sorted(deal[:14 if seat == dealer else 13]))
        table = SCORE_TABLES[rng.randrange(len(SCORE_TABLES))]
        shift = rng.randrange(4)
        scores = tuple(table[(s + shift) % 4] for s in range(4))
        out.append((hand, PickView(seat=seat, dealer=dealer, scores=scores,
                                   round_wind=rng.randrange(2), dora_indicators=(deal[17],))))
    return out


def estimate_means(catalog: Any, cards: Iterable[str], count: int = 400, seed: int = 1
                   ) -> dict[str, float]:
    """Each card's raw pick estimate (no offset) averaged over :func:`situations`."""
    from pipeline.bots.pick import raw_value

    sample = situations(count, seed)
    means = {}
    for card in cards:
        total = 0.0
        for hand, view in sample:
            total += raw_value(catalog, card, hand, view)
        means[card] = total / len(sample)
    return means


__all__ = ["OFFSETS_FILE", "PickOffsetsError", "SCORE_TABLES", "estimate_means",
           "load_offsets", "situations", "weighted_offsets"]
