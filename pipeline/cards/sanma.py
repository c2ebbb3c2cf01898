"""The cards in three-player games (rule C-23): which cannot be played for three, and why, and
how the others read their texts at a table of three.

The rulebook allows the cards for three players without having played them much there. A card
is left out of a three-player deck when its ability rests on something the three-player rules
do not have; every other card plays, and an ability that goes round the table, counts players
or names a seat wind does so for three seats (the card layer asks the table how many seats it
has). The list is data the deck, the trials and the balance report read.
"""

from __future__ import annotations

# Cards that cannot be played with three players, with the reason (rule C-23).
SANMA_UNPLAYABLE: dict[str, str] = {
    "yukiko_maya": "her ability is chi from any player (with priority) and double payments from "
                   "the players she called chi from; there is no chi with three players (S-02)",
    "satomi_kanbara": "her wall ownership (who pays double, her own wall's 2 extra indicators) "
                      "is read from four walls of 34 tiles; a three-player wall has three walls "
                      "of 36 and the dice-break layout for it is not written down",
}

# Cards that play for three, but some part of them reads differently (kept in the report so a
# designer sees why their sanma value may differ from the four-player one).
SANMA_CHANGES: dict[str, str] = {
    "haru_takimi": "her face-down discard after a chi never happens (no chi, S-02)",
    "satoha_tsujigaito": "another player's chi never triggers her look at the wall (no chi)",
    "kana_ikeda": "last place is third of three",
    "mihoko_fukuji": "last place is third of three; she reveals two hands, not three",
    "kasumi_iwato": "the man family is only 1m and 9m (S-01)",
    "yoshiko_kainou": "Uumensai needs a manzu set or pair, from 1m and 9m only (S-01)",
    "kei_arakawa": "two other players pay for her live outs, not three",
    "nelly_virsaladze": "two other players pay her 1,000, not three",
    "huiyu_hao": "on her tsumo the two others pay the full ron value plus 1,000",
    "hitomi_ezaki": "her tsumo value is the three-player tsumo (the missing seat's share lost)",
    "megan_davin": "a draw with two noten players leaves one tenpai player to route to",
    "saki_miyanaga": "a replacement draw after a kita is no rinshan tile for her (C-23)",
    "awai_oohoshi": "a replacement draw after a kita is no rinshan draw for her (C-23)",
    "toki_onjouji": "a replacement draw after a kita is no rinshan draw for her (C-23)",
}


def sanma_status(card_id: str) -> tuple[bool, str]:
    """Whether the card plays with three players, and the reason or the change (or "")."""
    if card_id in SANMA_UNPLAYABLE:
        return False, SANMA_UNPLAYABLE[card_id]
    return True, SANMA_CHANGES.get(card_id, "")
