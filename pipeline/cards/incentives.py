"""What a card's text rewards or punishes in its holder's tile choices, as the bots read it.

A card may make a tile worth more or less to its holder than to anyone else: Kuro's dora give
her 2 han, and one of them discarded outside riichi makes all her dora worth nothing for the
rest of the match; Haru's 2s and 8s earn an extra turn when discarded; Arata's pinzu add han.
The bots build hands by the ordinary game's values, so such a text is played only where it
says so. Each effect class declares what its parameters reward
(:meth:`~pipeline.cards.effects.base.CardEffect.incentives`, a :class:`TileIncentives` or
None); a card's are combined (:func:`combine`) and handed to the bot once it has picked
(:func:`pipeline.bots.pick.card_incentives`). The bot's discard, call and riichi evaluation
read them through this one type and never name a card.

Worths are in the bot's keep units (:func:`pipeline.bots.heuristic.keep_values`: an ordinary
dora is worth 3 to keep, a red five 2.5, a value-honor pair 2); a negative worth is a reason to
let the tile go. They break ties among discards that leave the hand equally far from tenpai,
so no incentive makes a hand slower; only the dora guard forbids a discard outright.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.tiles import NUM_TYPES

NO_WORTH: tuple[float, ...] = (0.0,) * NUM_TYPES
# A discard that earns an extra turn (a free draw): worth about two and a half tiles of
# acceptance among discards that keep the hand as close to tenpai.
EXTRA_TURN_SHED = 1.0
# A tile outside a shape a card's han reward (only 3-7 tiles), per han of the reward.
OUTSIDE_SHAPE = 0.7
# A tile that counts towards a card's han thresholds (pinzu, warm tiles).
COUNTED_TILE = 0.7
# The last tile of one of the families a card's yaku needs all of (uumensai).
LAST_OF_FAMILY = 1.5
# A discard of a type already in her pond, where the card counts groups lying there.
POND_GROUP = 0.8
# A call that earns an extra turn, in han of the open hand it shows (a free draw): taken as
# if it showed one han more.
CALLED_EXTRA_TURN = 1.0
# The families of a card that rewards a discard of a family not yet in her pond (manzu, pinzu,
# souzu, honors), by tile type.
FAMILY_OF_TYPE: tuple[int, ...] = tuple([t // 9 if t < 27 else 3 for t in range(NUM_TYPES)])


@dataclass(frozen=True)
class TileIncentives:
    """How a card's holder should value tiles beyond the ordinary game (keep units).

    ``dora_weight``: her dora (red fives included) are worth this many ordinary dora (0: she
    cannot score them). ``dora_guard``: she never discards a known dora or red five outside
    riichi while another discard is legal. ``keep``: by tile type, the extra worth of keeping
    it (negative: of letting it go). ``repeat_safe``: her discard of a type already lying in
    her pond cannot be called or ronned, so it cannot deal in. ``repeat_worth``: the extra
    worth of keeping a type already in her pond (negative: discarding it adds to a group her
    card counts there). ``last_of_family``: the worth of keeping the only tile of one of the
    five families (manzu, pinzu, souzu, winds, dragons). ``closed_dora_before``: with a closed
    hand, the tile type just before each dora indicator is a dora to her as well.
    ``call_worth``: by the called tile's type, what a chi or pon of it is worth to her beyond
    the han it shows (in han). ``open_full_han``: her yaku that lose a han when open keep it
    (a call on the way to a flush counts the flush's closed han). ``riichi_kan``: a kan on a
    discard offered while she is in riichi is taken (the engine offers it only where her card
    keeps the kan closed and the wait unchanged, like a concealed kan in riichi).
    ``new_family_worth``: the extra worth of keeping a tile of a family (:data:`FAMILY_OF_TYPE`)
    none of her face-up pond tiles shows (negative: its discard earns her something).
    ``held_wait_points``: the points each tile of another seat's winning types held in her hand
    earns her when that seat wins (weighed by the chance that a threat waits on it)."""

    dora_weight: float = 1.0
    dora_guard: bool = False
    keep: tuple[float, ...] = NO_WORTH
    repeat_safe: bool = False
    repeat_worth: float = 0.0
    last_of_family: float = 0.0
    closed_dora_before: bool = False
    call_worth: tuple[float, ...] = NO_WORTH
    open_full_han: bool = False
    riichi_kan: bool = False
    new_family_worth: float = 0.0
    held_wait_points: float = 0.0

    def __post_init__(self) -> None:
        for name in ("keep", "call_worth"):
            table = getattr(self, name)
            if len(table) != NUM_TYPES:
                raise ValueError(f"{name} needs one worth per tile type ({NUM_TYPES}), "
                                 f"got {len(table)}")


def worth_of(types: Iterable[int], worth: float) -> tuple[float, ...]:
    """A ``keep`` table: ``worth`` for each of ``types``, 0 elsewhere."""
    chosen = frozenset(types)
    return tuple([worth if t in chosen else 0.0 for t in range(NUM_TYPES)])


def combine(parts: Iterable[TileIncentives | None]) -> TileIncentives | None:
    """One card's incentives from its effects' (None when none has any): dora weights
    multiply, worths add, guards and safeties hold when any effect says so."""
    found = [p for p in parts if p is not None]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    weight = 1.0
    for p in found:
        weight *= p.dora_weight
    return TileIncentives(
        dora_weight=weight,
        dora_guard=any(p.dora_guard for p in found),
        keep=tuple([sum(p.keep[t] for p in found) for t in range(NUM_TYPES)]),
        repeat_safe=any(p.repeat_safe for p in found),
        repeat_worth=sum(p.repeat_worth for p in found),
        last_of_family=sum(p.last_of_family for p in found),
        closed_dora_before=any(p.closed_dora_before for p in found),
        call_worth=tuple([sum(p.call_worth[t] for p in found) for t in range(NUM_TYPES)]),
        open_full_han=any(p.open_full_han for p in found),
        riichi_kan=any(p.riichi_kan for p in found),
        new_family_worth=sum(p.new_family_worth for p in found),
        held_wait_points=sum(p.held_wait_points for p in found))
