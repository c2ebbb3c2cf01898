"""The card layer's own action tags: the choices a card offers that only the card (and the
players) act on. The engine's tags, those it carries out itself (a face-down discard, an extra
turn, a priority call...), are :class:`pipeline.rules.actions.AbilityTag`.

Each value is also the word the log's ``offer`` events print for the choice."""

from __future__ import annotations

from enum import StrEnum


class Move(StrEnum):
    """A choice a card offers (``Action.tag``); the payload each carries is noted."""

    FAMILY = "family"            # a family named (payload: "man", "pin", "sou" or "honors")
    DUEL = "duel"                # a player challenged to a duel (payload: the seat)
    BLOCK = "block"              # a player whose calls are blocked (payload: the seat)
    DECLARE = "declare"          # yaku declared for a pool of tiles (payload: the yaku labels)
    PUT_LIVE = "put_live"        # a hand tile put at the end of the live wall
    PUT_DEAD = "put_dead"        # a hand tile put at the end of the dead wall
    SWAP_ASIDE = "swap"          # the tile beside her hand for this hand tile
    SWAP_POND = "swap_pond"      # this hand tile for a tile lying in a pond (tiles: both)
    SWAP_WALL = "swap_wall"      # this hand tile for the next wall tile
    SWAP_MELD = "swap_meld"      # her meld for another player's
    TURN_DOWN = "turn_down"      # a tile lying in a pond turned face down
    MOVE_TWO = "move_two"        # a second live-wall tile moved to the dead wall
    DORA_SWAP = "dora_swap"      # a revealed wall tile for a dora indicator
    TAKE = "take"                # the revealed wall tile taken
    FLIP = "flip"                # an event: a two-sided card turned to its other side
    # an event: the flip back that an extra turn causes (offered and declined, or over); it
    # is not an extra turn (Teru's honba count the extra turn taken, once)
    FLIP_AFTER_EXTRA_TURN = "flip_after_extra_turn"
    COPY = "copy"                # an event: a card copied for the hand (payload: its id)
    DUEL_ENDED = "duel_ended"    # an event: a riichi ended the duel (payload: whose riichi)
    # an event: a known dora discarded outside riichi, her dora give 0 han for the match
    DORA_LOST = "dora_lost"
    STAKE_DUE = "stake_due"      # an event: a stake due next hand (payload: the points)

    @property
    def offered(self) -> bool:
        """Whether actions carry it (a choice an effect class offers: its ``choices``), not only
        the events a card logs (``tests/cards/general/test_card_choices.py``)."""
        return self not in _EVENTS_ONLY

    @property
    def bookkeeping(self) -> bool:
        """Whether an event tagged so only keeps the card's state (a family named, a side
        flipped): the tables count it apart from the triggers that change play or points."""
        return self in _BOOKKEEPING


_BOOKKEEPING = frozenset({Move.FAMILY, Move.FLIP, Move.FLIP_AFTER_EXTRA_TURN, Move.DORA_LOST})
_EVENTS_ONLY = frozenset({Move.FLIP, Move.FLIP_AFTER_EXTRA_TURN, Move.COPY, Move.DUEL_ENDED,
                          Move.DORA_LOST, Move.STAKE_DUE})
