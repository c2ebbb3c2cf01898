"""The vocabulary of card effects: every effect kind a catalog may use, with its parameters.

A card in `data/cards/<version>.toml` lists effects; each effect names a kind from this table and
gives its parameters. Loading a catalog checks every effect against this table (unknown kind,
missing or wrongly typed parameter, a value outside its choices), so a designer's typo is caught
before a simulation runs. Which kinds have an implementation is decided by the card code
(:func:`pipeline.cards.registry.effect_is_implemented`), not here: a card is playable when all
its effects are.

Parameter types: ``int``, ``float``, ``bool``, ``str``, ``list[int]``, ``list[str]``.

A *reading* is a ``str`` parameter whose choices are the ways a card text can be read where it
leaves a case open (an always-winning tile on a hand that is not ready, what a honba is worth).
Each choice carries what it does and why someone would read the card that way; the first choice
is the default, the reading most faithful to the 1.2 text and the rulebook's clarifications.
``saki cards readings`` lists them and ``docs/readings.md`` documents them (a test keeps the two
in step), so a designer switches a reading as easily as a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Choice:
    """One way of reading a card clause: the value written in the catalog, what the engine then
    does, why a reader would take the text that way, and (for a choice other than the default)
    the words added to the rendered card text so the text says what is played."""

    value: str
    meaning: str
    why: str
    text: str = ""


@dataclass(frozen=True)
class Param:
    type: str                         # int, float, bool, str, list[int], list[str]
    doc: str
    default: object = None            # None: the parameter is required
    choices: tuple[object, ...] = ()  # allowed values (for str, or list members)
    low: float | None = None          # inclusive range for numbers / list members
    high: float | None = None
    readings: tuple[Choice, ...] = ()  # a reading option: its choices, the default first
    # a reading that only concerns some effects of its kind: (param, values) the effect must
    # have (a list param: one of its members); elsewhere the option may not be set
    only_for: tuple[str, tuple[object, ...]] | None = None

    @property
    def required(self) -> bool:
        return self.default is None

    @property
    def is_reading(self) -> bool:
        return bool(self.readings)

    def choice(self, value: object) -> Choice:
        """The reading choice with this value (KeyError for a value that is none)."""
        for c in self.readings:
            if c.value == value:
                return c
        raise KeyError(value)


def reading(doc: str, *choices: Choice,
            only_for: tuple[str, tuple[object, ...]] | None = None) -> Param:
    """A reading option: a ``str`` parameter whose default is its first choice."""
    return Param("str", doc, default=choices[0].value, choices=tuple(c.value for c in choices),
                 readings=choices, only_for=only_for)


def applies(param: Param, params: dict[str, object] | object) -> bool:
    """Whether a reading option concerns an effect with these parameters (``only_for``)."""
    if param.only_for is None:
        return True
    name, values = param.only_for
    value = params[name]  # type: ignore[index]
    if isinstance(value, tuple | list):
        return any(v in values for v in value)
    return value in values


@dataclass(frozen=True)
class EffectKind:
    name: str
    family: str                       # scoring, payment, tempo, wall, claim, tiles, meta
    doc: str
    params: dict[str, Param] = field(default_factory=dict)


YAKU_NAMES = (
    "Menzen Tsumo", "Riichi", "Double Riichi", "Ippatsu", "Pinfu", "Tanyao", "Iipeiko",
    "Ryanpeikou", "Chiitoitsu", "Sanshoku Doujun", "Ittsu", "Honitsu", "Chinitsu", "Chantai",
    "Junchan", "Toitoi", "San Ankou", "Haitei Raoyue", "Houtei Raoyui", "Rinshan Kaihou",
    "Chankan",
)
CONDITIONS = ("always", "closed", "last_place", "chasing_riichi", "damaten", "in_riichi")
FAMILIES = ("man", "pin", "sou", "honors")

_ALWAYS_WINNING = reading(
    "how an always-winning tile wins",
    Choice("wildcard",
           "the tile stands for the tile that completes a ready hand, and the win is scored "
           "as the best such completion; a hand that is not ready cannot win on it; furiten "
           "applies as to any winning tile, and a tile type that is always a winning tile "
           "makes the hand furiten when it lies in her own pond",
           "a hand that is not ready has no winning tiles, so 'always her winning tile' can "
           "only add a tile to a ready hand's waits; the community's digital version plays "
           "it so"),
    Choice("shapeless",
           "the tile wins even when the hand is not ready, scored from the yaku that need no "
           "shape (riichi, ippatsu, menzen tsumo, haitei, houtei, rinshan, chankan) and dora "
           "at 30 fu; furiten comes only from the hand's real waits",
           "'always her winning tile' read literally: the tile wins whatever the hand holds",
           text="(Read as: the tile wins even when the hand is not ready.)"),
)
_TABLE_POINTS = reading(
    "what counts as points on the table",
    Choice("sticks_and_stakes",
           "riichi sticks and every stake lying on the table count",
           "the rules call a stake points put on the table like a riichi stick"),
    Choice("sticks_only",
           "only riichi sticks count",
           "'points on the table' read as the riichi sticks alone, as in ordinary mahjong",
           text="(Read as: only riichi sticks count as points on the table.)"),
    only_for=("when", ("ron_on_riichi_discard_per_stick",)),
)
_DEAL_IN_STAKE = reading(
    "what each player stakes when a player deals in while she is tenpai",
    Choice("tsumo_share",
           "each other player stakes what they would pay on her tsumo and she stakes "
           "nothing: one tsumo value on the table in all",
           "'all players must stake the value of her tsumo' read at its smallest: the "
           "value of her tsumo, as the players would pay it"),
    Choice("whole_value",
           "each player, she included, stakes her whole tsumo value (about four tsumo "
           "values on the table)",
           "'all players must stake the value' read as each player staking all of it",
           text="(Read as: each player stakes her whole tsumo value.)"),
    only_for=("when", ("deal_in_while_tenpai",)),
)

_HAN = Param("int", "han", low=0, high=13)
_COND = Param("str", "when the effect applies", default="always", choices=CONDITIONS)

_KINDS = [
    # ---------------------------------------------------------------- scoring
    EffectKind("yaku_value", "scoring", "A yaku is worth this many han instead of its usual "
               "value (rule C-11: set, not added).", {
                   "yaku": Param("str", "the yaku", choices=YAKU_NAMES),
                   "han": _HAN,
                   "closed_only": Param("bool", "only when the hand is closed", default=False),
                   "condition": _COND,
               }),
    EffectKind("one_han_yaku_value", "scoring", "Every 1-han yaku is worth this many han (dora "
               "are not yaku).", {
                   "han": _HAN, "condition": _COND,
                   "counts": reading(
                       "which yaku count as 1-han yaku",
                       Choice("in_hand",
                              "every yaku worth 1 han in the hand at hand, open reduced yaku "
                              "included (an open sanshoku or ittsu)",
                              "'every 1-han yaku' read as the yaku's value in that hand"),
                       Choice("closed_value",
                              "only yaku whose closed value is 1 han (an open sanshoku, worth "
                              "1 han there, is not doubled)",
                              "'a 1-han yaku' read as the yaku's value in the yaku list",
                              text="(Read as: only yaku worth 1 han closed.)"),
                   ),
               }),
    EffectKind("dora_multiplier", "scoring", "Each dora, red five and ura-dora counts this many "
               "times.", {
                   "factor": Param("int", "multiplier", low=0, high=5),
                   "lost_on_dora_discard": Param(
                       "bool", "discarding a known dora outside riichi sets dora to 0 han for "
                       "the rest of the match", default=False),
               }),
    EffectKind("count_bonus", "scoring", "Extra han by how many of something there are; extra "
               "han are not a yaku (rule C-12).", {
                   "count": Param("str", "what is counted", choices=(
                       "warm_tiles", "pinzu_tiles", "open_pons_kans", "triples_in_discards",
                       "face_down_in_other_discards", "face_down_in_own_discards",
                       "pairs_in_own_discards", "shown_family_tiles")),
                   "at": Param("list[int]", "counts that give the next han", low=1, high=40),
                   "han": Param("list[int]", "han for each threshold reached", low=0, high=13),
                   "condition": _COND,
               }),
    EffectKind("condition_bonus", "scoring", "Extra han when a condition holds on the win.", {
        "when": Param("str", "the condition", choices=(
            "only_3_to_7", "wait_three_types", "single_wait", "tsumo", "white_dragon_tsumo",
            "ron_on_riichi_discard_per_stick", "early_riichi_after_dealing_in")),
        "han": _HAN,
        "turn": Param("int", "latest riichi turn for the bonus, where used", default=0, low=0,
                      high=30),
        "table_points": _TABLE_POINTS,
    }),
    EffectKind("win_multiplier", "scoring", "The win's value is multiplied.", {
        "factor": Param("int", "multiplier", low=1, high=4),
        "when": Param("str", "the condition", choices=(
            "always", "damaten_hell_wait", "ippatsu_threat")),
    }),
    EffectKind("local_yaku", "scoring", "A local yaku only this character may score (rule C-25).", {
        "yaku": Param("str", "the local yaku", choices=("shiiaru_raotai", "uumensai")),
        "han": _HAN,
        "ura": Param("bool", "the yaku counts ura-dora like riichi", default=False),
    }),
    EffectKind("ura_rule", "scoring",
               "Ura-dora changes: others get none; more on her riichi win.", {
        "others_get_none": Param("bool", "other players get no ura-dora", default=False),
        "extra_indicators": Param("int", "extra ura indicators on her riichi win", default=0,
                                  low=0, high=4),
    }),
    EffectKind("win_without_yaku", "scoring", "She may win with no yaku (0 han counts as 1).", {}),
    EffectKind("open_keeps_value", "scoring", "Yaku that lose a han when open keep it.", {}),
    EffectKind("score_as_dealer", "scoring", "A riichi win is scored as a dealer win; as dealer, "
               "mangan or more counts one limit higher.", {
                   "limit_step": reading(
                       "whether the limit step needs her to be the real dealer",
                       Choice("real_dealer",
                              "only when she is the dealer of the hand; a riichi win scored as "
                              "if she were the dealer gets no limit step",
                              "'as dealer' read as the seat she holds; the two sentences are "
                              "two separate effects"),
                       Choice("also_scored_as_dealer",
                              "also on a riichi win scored as if she were the dealer",
                              "'as dealer' read as 'scored as the dealer', so the first effect "
                              "feeds the second",
                              text="(Read as: a riichi win scored as dealer also counts one "
                                   "rank higher.)"),
                   ),
               }),
    EffectKind("honba_by_han", "scoring", "Each honba is multiplied by her han; calls, riichi, "
               "swaps and extra turns add honba.", {
                   "honba": reading(
                       "what one honba is worth on her win",
                       Choice("total",
                              "each honba is worth 100 x her han in all, paid by the discarder "
                              "on a ron and split between the payers on a tsumo (each rounded "
                              "up to 100)",
                              "the card's worked example: 2 honba and 5 han, each honba worth "
                              "500, +1,000 in total"),
                       Choice("per_payer",
                              "each honba is worth 100 x her han from each payer (300 x han on "
                              "a ron, as an ordinary honba is 300 on a ron)",
                              "'each honba is multiplied' read as the honba's 300 (ron) or "
                              "100 per payer (tsumo) multiplied by her han",
                              text="(Read as: 100 x han per honba from each payer.)"),
                   ),
                   "added_for": reading(
                       "whose win the honba she adds count for (and so who pays them)",
                       Choice("any_win",
                              "the added honba are honba on the table: any winner collects "
                              "them, at the usual 300 a honba (100 from each payer of a "
                              "tsumo), from the win's payers, and on her own win each is "
                              "multiplied by her han; she pays them when she deals in or pays "
                              "a tsumo",
                              "'add 1 honba' adds to the table's honba count, and the rulebook's "
                              "honba (M-03) are paid on any win; only the first sentence, "
                              "'multiplied by the number of han in her hand', is tied to her win"),
                       Choice("her_win",
                              "the added honba count only on her own win; another winner "
                              "collects only the hand's ordinary honba",
                              "the honba are added by her ability to serve its first sentence, "
                              "which only acts on her win; an ability is not read as paying "
                              "her opponents",
                              text="(Read as: the added honba count only on her win.)"),
                   ),
                   "added_last": reading(
                       "whether the honba she adds last beyond the hand",
                       Choice("this_hand",
                              "the added honba count for this hand's win only; the next hand "
                              "starts from the ordinary count (M-03: +1 after a draw or a "
                              "dealer's win, 0 after another win)",
                              "a character acts in the hand it is picked for (C-03, C-04); where "
                              "an effect outlasts the hand the rulebook or the text says so "
                              "(Kuro's lasts to the end of the match, C-22; Kirame's floor is "
                              "once per match), and Teru's text names no duration"),
                       Choice("counter",
                              "the added honba join the table's honba count and stay as "
                              "ordinary honba: the next hand starts with them after a draw or "
                              "a dealer's win (plus the usual 1), and they are gone after "
                              "another player's win (M-03), whoever is picked then",
                              "'add 1 honba' read as the rulebook's honba counter, which lasts "
                              "from hand to hand",
                              text="(Read as: the added honba stay on the table's count.)"),
                   ),
               }),
    EffectKind("double_wind", "scoring", "Her seat-wind triplet is a double yakuhai; any wind "
               "meld gives her yakuhai.", {}),
    EffectKind("always_riichi", "scoring", "A closed win always has riichi and ura-dora; her third "
               "row of discards is face down.", {}),
    EffectKind("dora_both_ways", "scoring", "With a closed hand, the tile before each indicator "
               "is dora too.", {}),
    EffectKind("ignore_dora", "scoring", "Dora give no han and she never pays or receives at an "
               "exhaustive draw; she ignores furiten and may not riichi.", {}),
    # ---------------------------------------------------------------- payments and stakes
    EffectKind("payment_per_out", "payment", "Each other player pays per live out on her win; a "
               "winner pays her per winning tile she holds.", {
                   "per_out": Param("int", "points per live out", low=0, high=10000),
                   "per_tile": Param("int", "points per winning tile in her hand", low=0,
                                     high=10000),
               }),
    EffectKind("tsumo_full_ron", "payment", "On her tsumo every player pays the full ron value "
               "plus a bonus.", {"bonus": Param("int", "points", low=0, high=10000)}),
    EffectKind("stake_rule", "payment", "Stakes put on the table (collected by the next winner).", {
        "when": Param("str", "what triggers the stake", choices=(
            "open_hand_vs_aislinn", "deal_in_while_tenpai", "tsumo_below_her_value",
            "inazuma_riichi")),
        "amount": Param("int", "points (0: the rule's own amount)", default=0, low=0,
                        high=100000),
        "han": Param("int", "han of the declared hand, where used", default=0, low=0, high=13),
        "stake": _DEAL_IN_STAKE,
    }),
    EffectKind("table_sweep", "payment", "When she deals in or the hand is drawn she takes the "
               "sticks and stakes, and every player pays her.", {
                   "each_pays": Param("int", "points", low=0, high=10000),
                   "draws": reading(
                       "which drawn hands trigger the sweep",
                       Choice("any_draw",
                              "every drawn hand: an exhaustive draw and an abortive one (nine "
                              "terminals, four winds, four riichi, four kans, triple ron)",
                              "the text says 'the hand ends in a draw' without naming a kind"),
                       Choice("exhaustive_only",
                              "only an exhaustive draw (the wall ran out)",
                              "'a draw' read as the ordinary ryuukyoku; the community's digital "
                              "version plays it so",
                              text="(Read as: only an exhaustive draw triggers the sweep.)"),
                   ),
               }),
    EffectKind("floor_at_zero", "payment", "The first time in the match she would drop below 0 "
               "she stays at 0.", {}),
    EffectKind("extra_dora_stake", "payment", "On riichi below a score she may stake half her "
               "points to reveal more dora indicators.", {
                   "below": Param("int", "points", low=0, high=100000),
                   "indicators": Param("int", "indicators revealed", low=1, high=4),
               }),
    EffectKind("dama_protection", "payment", "In damaten she does not pay others' tsumo; a "
               "higher player's ippatsu draw is her winning tile; in riichi no furiten.", {}),
    EffectKind("duel", "meta", "She names a duel opponent: their ability is off, they pay each "
               "other double.", {"factor": Param("int", "payment multiplier", low=1, high=4)}),
    EffectKind("double_from_chi_sources", "payment", "On her tsumo the players she called chi "
               "from pay double.", {}),
    EffectKind("noten_double_wall", "payment", "The player on whose wall the hand ends pays "
               "double; noten payments double.", {
                   "own_wall_dora": Param("int", "extra dora indicators revealed when she wins "
                                          "on her own wall", default=0, low=0, high=4),
               }),
    # ---------------------------------------------------------------- tempo
    EffectKind("extra_turn", "tempo", "An optional extra turn (rules C-14..C-17).", {
        "when": Param("str", "what earns it", choices=(
            "discard_2_or_8", "call_souzu_or_green", "discard_white_dragon", "after_call",
            "tedashi_all_closed_behind", "suji_or_genbutsu_vs_riichi", "new_family_discard")),
        "points_below_start": Param("bool", "only while below the starting points",
                                    default=False),
    }),
    EffectKind("face_down_discard", "tempo", "She may discard a tile face down (no furiten, "
               "cannot be called or ronned; rule C-13).", {
                   "when": Param("str", "when it is allowed", choices=(
                       "once_per_hand", "after_chi", "ippatsu_threat", "third_row",
                       "matching_last_discard", "broke_ippatsu", "with_extra_turn")),
               }),
    EffectKind("repeat_discard", "tempo", "When her discard is not called she may discard a "
               "second identical tile at once and draw again; nobody may claim it.", {}),
    EffectKind("call_payment", "tempo", "After her call the player she called from pays her.", {
        "amount": Param("int", "points", low=0, high=10000)}),
    # ---------------------------------------------------------------- wall and draws
    EffectKind("wall_exchange", "wall", "Before her first discard she puts tiles back at the end "
               "of a wall and draws as many.", {
                   "tiles": Param("int", "how many", low=1, high=13),
                   "wall": Param("str", "where they go", choices=("live", "dead")),
                   "round": Param("str", "round wind it works in", choices=("east", "south")),
                   "draw_first": Param("bool", "she draws the tiles first, then puts as many "
                                       "back", default=False),
                   "repeat_after_second_row": Param(
                       "bool", "repeat once per hand, on her own turn, after any player "
                       "completes a second row of discards", default=False),
               }),
    EffectKind("last_tile_mastery", "wall", "The last wall tile and last discard are her winning "
               "tiles; her closed discards shorten the wall.", {
                   "always_winning": _ALWAYS_WINNING}),
    EffectKind("wall_to_indicator", "wall", "The wall is drawn up to the last dora indicator "
               "(two haitei chances).", {}),
    EffectKind("rinshan_reveal", "wall", "Instead of rinshan and ippatsu draws she reveals three "
               "tiles and chooses; her kans are closed.", {}),
    EffectKind("private_extra_tile", "wall", "She keeps an extra tile only she sees and may swap "
               "or draw it.", {}),
    EffectKind("declared_pool", "wall", "She sets aside wall tiles, declares yaku, draws from "
               "the pool and may win only with the declared yaku.", {
                   "tiles": Param("int", "pool size", low=1, high=20),
                   "declarations": reading(
                       "which combinations of yaku she may declare",
                       Choice("any_combination",
                              "any combination of the yaku she could make from the tiles set "
                              "aside and her hand",
                              "the text says 'a combination of yaku' without a list"),
                       Choice("five_fixed",
                              "one of five fixed combinations: riichi, tanyao, menzen tsumo, "
                              "riichi + tanyao, riichi + menzen tsumo",
                              "a short list of the declarations players make in practice",
                              text="(Read as: one of five fixed declarations.)"),
                   ),
               }),
    EffectKind("draw_from_discards", "wall", "She may draw from her own discards instead of the "
               "wall, then discards another tile.", {
                   "taken_tile_tsumo": reading(
                       "whether a tile taken back from her own discards can win by tsumo",
                       Choice("allowed",
                              "the tile is her draw: it may complete the hand and win by tsumo "
                              "(menzen tsumo included); she may not discard a tile of its type "
                              "on that turn",
                              "the text replaces the wall draw by this draw and forbids only "
                              "discarding the same tile; the community's digital version lets "
                              "her win on it"),
                       Choice("forbidden",
                              "she may not declare tsumo on a tile taken back from her discards "
                              "(she must discard a tile of another type)",
                              "a tile she discarded is furiten for her, so taking it back "
                              "should not win",
                              text="(Read as: a tile taken back cannot win by tsumo.)"),
                   ),
               }),
    EffectKind("peek_and_swap", "wall", "When others act she looks at the next wall tile and may "
               "swap it into her hand.", {}),
    EffectKind("set_aside_draw", "wall", "After a pon whose fourth copy lies in a discard pile "
               "she may take it as her next draw.", {}),
    EffectKind("family_guess", "meta", "Before each draw she names a family; right guesses "
               "turn discards face down and flip the card.", {
                   "riichi_face_down": Param("int", "on her riichi this many of her first "
                                             "discards turn face down and the card flips",
                                             default=0, low=0, high=6),
               }),
    # ---------------------------------------------------------------- claims and wins
    EffectKind("priority_call", "claim", "A call with priority over other claims, even ron.", {
        "call": Param("str", "which call", choices=("pon_red_dragon_from_pond", "chi_any"))}),
    EffectKind("late_ron", "claim", "She may ron a player's previous discard when the latest was "
               "not claimed.", {"han": _HAN}),
    EffectKind("always_winning_tile", "claim", "A tile that is always her winning tile.", {
        "tile": Param("str", "which tile", choices=("rinshan", "white_dragon_in_riichi")),
        "always_winning": _ALWAYS_WINNING}),
    EffectKind("blocks_calls", "claim", "On her riichi she names a player who may not call or ron "
               "unless in riichi; her riichi switches other abilities off.", {}),
    EffectKind("blocks_wins_with_wind", "claim", "Others cannot win (except yakuman) holding her "
               "seat wind; she may swap winds discarded by others.", {}),
    EffectKind("unclaimable_repeat", "claim", "A discard already in her pond cannot be called or "
               "ronned.", {}),
    # ---------------------------------------------------------------- tiles and melds
    EffectKind("swap_with_discard", "tiles", "She may swap a hand tile with a discarded tile.", {
        "when": Param("str", "when", choices=("after_call", "pond_6_or_12_or_riichi")),
        "match": Param("str", "what must match", choices=("family", "number")),
    }),
    EffectKind("meld_swap", "tiles", "When she calls she may swap a meld with another player's "
               "and turn a discard face down.", {}),
    EffectKind("wrap_sequences", "tiles", "She may build wrap-around sequences; she may not pon "
               "or kan.", {
                   "switched_off": reading(
                       "what happens to 'she may not pon or kan' while another card switches "
                       "her ability off (Megan's duel, Sae's riichi)",
                       Choice("restriction_lifts",
                              "the restriction is part of the ability and lifts with it: she "
                              "may pon and kan while it is off",
                              "rule C-20 treats a switched-off ability as absent; the whole "
                              "card text stops applying"),
                       Choice("restriction_stays",
                              "only the benefits are lost: she still may not pon or kan",
                              "the restriction is the price of the ability, and losing the "
                              "ability should not also remove its cost",
                              text="(Read as: she may not pon or kan even while her ability "
                                   "is switched off.)"),
                   ),
               }),
    EffectKind("honor_sequences", "tiles", "She may build sequences of winds and of dragons.", {}),
    EffectKind("winds_as_west", "tiles", "All winds in her hand may count as West.", {}),
    EffectKind("open_hands", "tiles", "Hands played face up.", {
        "who": Param("str", "whose hands", choices=("self", "others_while_last",
                                                      "others_family")),
    }),
    EffectKind("copy_ability", "meta", "She draws two cards and copies one for the hand.", {}),
    EffectKind("flip_card", "meta", "The card turns to its other side.", {
        "to": Param("str", "the other side's card id"),
        "when": Param("list[str]", "what flips it (empty: only other effects of the card)",
                      default=(), choices=("right_guess", "own_riichi",
                                           "after_new_family_discard", "any_call_or_riichi")),
        "flip_back": reading(
            "when the card flips back after a discard of a new family",
            Choice("after_extra_turn",
                   "she stays on this side through the extra turn (its draw and win count "
                   "this side's ability) and flips back when it ends or is declined",
                   "'she gets an extra turn, then flips back'"),
            Choice("when_offered",
                   "she flips back as soon as the extra turn is offered, so the extra turn is "
                   "played with the other side's ability",
                   "the flip read as part of earning the extra turn",
                   text="(Read as: she flips back as soon as the extra turn is offered.)"),
            only_for=("when", ("after_new_family_discard",)),
        ),
    }),
    # ---------------------------------------------------------------- added with catalog 1.2
    EffectKind("han_per_count", "scoring", "Extra han for every full group of something counted "
               "(not a yaku, rule C-12); count_bonus is for fixed thresholds.", {
                   "count": Param("str", "what is counted", choices=(
                       "warm_tiles", "pinzu_tiles", "open_pons_kans", "triples_in_discards",
                       "face_down_in_other_discards", "face_down_in_own_discards",
                       "pairs_in_own_discards", "shown_family_tiles")),
                   "per": Param("int", "how many counted make one group", default=1, low=1,
                                high=40),
                   "han": Param("int", "han per group", low=0, high=13),
                   "condition": _COND,
                   "yaku": Param("str", "only on a win with this yaku (empty: any win)",
                                 default="", choices=("", *YAKU_NAMES)),
               }),
]

EFFECT_KINDS: dict[str, EffectKind] = {k.name: k for k in _KINDS}
