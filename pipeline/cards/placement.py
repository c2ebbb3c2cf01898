"""A card placed in one seat's team, the rest of the deal as the team mode made it.

A team trial (:mod:`pipeline.sim.team_trial`) measures what holding a card is worth to a team:
the holder's team must contain it, and everything else must stay an ordinary team of the
preset's mode. The card takes the place of the seat's last team card, which goes where the card
was (the deck, or the other seat's team that was dealt it), so every card is still in exactly
one place (:mod:`pipeline.cards.teams`).
"""

from __future__ import annotations

from pipeline.cards.teams import TeamError, TeamState

# Modes that deal a team once, before the match: the placed card is in it from the first hand.
# Rapid deals fresh cards every hand and the draft picks its teams, so no card can be placed.
PLACEABLE_MODES = ("standard", "winner-rotation", "tenpai-replacement")


def place_card(state: TeamState, seat: int, card: str) -> None:
    """Put ``card`` in ``seat``'s team in place of its last card (nothing when it is there)."""
    if state.mode not in PLACEABLE_MODES:
        raise TeamError(f"team mode {state.mode!r} deals no team to place a card in "
                        f"(modes that do: {', '.join(PLACEABLE_MODES)})")
    team = state.teams[seat]
    if card in team:
        return
    if not team:
        raise TeamError(f"seat {seat} holds no team to place {card!r} in")
    given = team[-1]
    if card in state.deck:
        state.deck[state.deck.index(card)] = given
    else:
        other = next((t for t in state.teams if card in t), None)
        if other is None:
            raise TeamError(f"{card!r} is not in this match's deck or teams")
        other[other.index(card)] = given
    team[-1] = card
