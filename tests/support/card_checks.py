"""The table checks of the conformance test, with every card's own checks written once.

:class:`ConformanceChecker` runs the generic checks of ``tests/support/invariant_checks.py`` at
every decision, then the checks that belong to one card, each applied to the seats dealt that card
(a seat playing a copy of it is checked by the generic checks only):

- Awai Oohoshi: at most three tiles revealed for her draw; her kans are all closed kans
  (but a kan another seat's meld swap handed her, or one made while her ability was off);
- Yukiko Maya: her priority chi takes the discard on offer;
- the duel and block cards: the player named is one of the other three, each offered once;
- Ryuuka Shimizudani: her pool is public; no win and no wall draw while it holds tiles (and
  her ability is not switched off);
- the pond swaps: a hand tile for a tile lying face up in a pond;
- Kaori Senoo and Yuuko Mase (among one family's cards): only their seats hold chis that are
  not plain sequences; Yuuko never pons or kans.

The checks that hold only among the cards of one effect family (a seat's 13 or 14 tiles at a
choice of ability steps; with four players, every kan's replacement from the rinshan tiles)
apply when every card at the table belongs to one family of :data:`FAMILIES`; with any card of
the deck, a choice may come amid another card's steps (a seat holds 12 tiles between Yoshiko
Kainou's second discard and her draw) and Awai's replacement draws come from the live wall.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.cards.moves import Move
from pipeline.rules.actions import AbilityTag, Action, ActionKind, MeldKind
from pipeline.rules.agents import Agent, Observation
from pipeline.rules.hand import HandState
from pipeline.rules.hand_shapes import STANDARD_SEQUENCES
from pipeline.rules.hooks import PickView
from pipeline.rules.preset import Preset
from tests.support.invariant_checks import (
    TableChecker,
    Tally,
    check_hand_sizes,
    last_discard,
    melds_swapped,
    step_name,
)


@dataclass(frozen=True)
class Family:
    """Cards of one effect kind, dealt together at the family table, and the ability steps
    they offer during a seat's turn (the seat on turn may then hold 14 tiles)."""

    cards: tuple[str, ...]
    turn_steps: frozenset[str] = frozenset()
    replacements: bool = True  # every kan's replacement comes from the rinshan tiles (K-07)


AWAI = "awai_oohoshi"
RYUUKA = "ryuuka_shimizudani"
YUUKO = "yuuko_mase"
SHAPED_CHI = ("kaori_senoo", YUUKO)
NAMING = (Move.DUEL, Move.BLOCK)  # the player named: the action's payload
REVEAL_STEPS = ("take", "dora_swap")
PLAIN_SEQUENCES = {tuple(s) for s in STANDARD_SEQUENCES}

FAMILIES = {
    "payments": Family(("kei_arakawa", "hitomi_ezaki", "nelly_virsaladze", "huiyu_hao",
                        "kirame_hanada", "teru_miyanaga", "kana_ikeda", "kuro_matsumi")),
    "duels": Family(("sumire_hirose", "yukiko_maya", "hiroe_atago", "sae_usuzawa",
                     "megan_davin", "aislinn_wishart"), frozenset({"duel", "block"})),
    "families": Family(("shiromi_kosegawa", "mihoko_fukuji", "kasumi_iwato", "tomoe_karijuku",
                        "jun_inoue"), frozenset({"family"})),
    "walls": Family(("yuuki_kataoka", "kazue_nanpo", "takami_shibuya", "toki_onjouji",
                     "koromo_amae")),
    "reveals": Family((AWAI, "yuuki_kataoka", "toki_onjouji", "kazue_nanpo"),
                      replacements=False),
    "pools": Family((RYUUKA, "toki_onjouji", "takami_shibuya")),
    "past the wall": Family(("satomi_kanbara", "koromo_amae", "kirame_hanada",
                             "yuuki_kataoka", "toki_onjouji", "huiyu_hao")),
    "shapes": Family(("kaori_senoo", YUUKO, "yuu_matsumi", "seiko_matano", "kurumi_kakura",
                      "yoshiko_kainou")),
    "swaps": Family(("hajime_kunihiro", "ako_atarashi", "myeonghwa_choe", "satoha_tsujigaito",
                     "yumi_kajiki", "teru_miyanaga", "nodoka_haramura", "tomoe_karijuku"),
                    frozenset({"swap_pond", "swap_wall", "swap_meld", "turn_down"})),
}


def family_of(card: str) -> Family | None:
    """The first family that deals ``card`` (None: the card is dealt with the whole deck)."""
    return next((f for f in FAMILIES.values() if card in f.cards), None)


def one_family(cards: Sequence[str]) -> Family | None:
    """The family every card at the table belongs to, if there is one."""
    return next((f for f in FAMILIES.values() if set(cards) <= set(f.cards)), None)


@dataclass
class Dealt:
    """The card each seat was dealt this hand (its own, not a copy), shared by the table that
    deals and the checkers that read it, and the seats whose ability the checkers saw switched
    off during the hand (C-20: such a seat plays as without it)."""

    cards: dict[int, str] = field(default_factory=dict)
    switched_off: set[int] = field(default_factory=set)

    def deal(self, cards: dict[int, str]) -> None:
        """A new hand's cards."""
        self.cards = cards
        self.switched_off = set()

    def seats(self, card: str) -> set[int]:
        return {s for s, c in self.cards.items() if c == card}


class ConformanceChecker(TableChecker):
    """The generic table checks, every card's own checks, and the bots' picks: the wrapped
    agent's pick, which must be one of the options, so the picks are what is played (an agent
    that picks nothing plays its first option, as at the table)."""

    def __init__(self, inner: Agent, preset: Preset, tally: Tally, dealt: Dealt) -> None:
        super().__init__(inner, preset, tally)
        self.dealt = dealt

    # -- the picks

    def pick(self, hand: Sequence[int], options: Sequence[str],
             situation: PickView | None = None) -> str:
        inner = getattr(self.inner, "pick", None)
        choice = options[0] if inner is None else inner(hand, options, situation)
        assert choice in options, f"picked {choice!r}, not one of {list(options)}"
        self.tally.seen["picks"] += 1
        return choice

    # -- the checks that depend on the cards at the table

    @property
    def family(self) -> Family | None:
        return one_family(list(self.dealt.cards.values())) if self.dealt.cards else None

    @property
    def replacements(self) -> bool:  # type: ignore[override]
        family = self.family
        return family is not None and family.replacements and self.preset.players == 4

    def check_sizes(self, state: HandState, seat: int, legal: list[Action]) -> None:
        on_turn = False
        if all(a.kind in (ActionKind.ABILITY, ActionKind.PASS) for a in legal):
            family = self.family
            if family is None:
                return
            steps = {step_name(a) for a in legal if a.kind == ActionKind.ABILITY}
            on_turn = bool(steps & family.turn_steps)
        check_hand_sizes(state, seat, legal, on_turn)

    def check_cards(self, obs: Observation, legal: list[Action]) -> None:
        state: HandState = obs._state
        self.dealt.switched_off |= set(getattr(state, "_switched_off", {}))
        self.check_reveals(state, legal)
        self.check_duels(obs, legal)
        self.check_pools(obs, legal)
        self.check_pond_swaps(obs, legal)
        self.check_shaped_melds(state)

    def check_reveals(self, state: HandState, legal: list[Action]) -> None:
        """Awai Oohoshi (C-22): at most three tiles revealed for her draw; the kans she holds
        are closed ones, unless a meld swap (Yumi Kajiki's) handed her another seat's kan or
        her ability was switched off this hand (C-20: she played without it)."""
        revealing = [a for a in legal if step_name(a) in REVEAL_STEPS]
        assert len({a.tile for a in revealing}) <= 3
        if melds_swapped(state):
            return
        for s in self.dealt.seats(AWAI) - self.dealt.switched_off:
            assert all(m.kind == MeldKind.ANKAN for m in state.players[s].melds if m.is_kan)

    def check_duels(self, obs: Observation, legal: list[Action]) -> None:
        """Yukiko's priority chi takes the discard on offer; a duel or a block names one of the
        other three players, each once."""
        chi = [a for a in legal if a.kind == ActionKind.CHI and a.tag is AbilityTag.PRIORITY]
        assert all(a.tile == last_discard(obs._state).tile for a in chi)
        if all(a.tag in NAMING for a in legal):
            named = [a.payload for a in legal]
            assert sorted(named) == sorted(set(range(self.preset.players)) - {obs.seat})

    def check_pools(self, obs: Observation, legal: list[Action]) -> None:
        """Ryuuka Shimizudani (C-22): her pool is public; no win and no wall draw while it
        holds tiles and her ability works (C-20: switched off, she plays as without it)."""
        pools = self.dealt.seats(RYUUKA)
        for seat in pools:
            assert obs.face_up_aside(seat) == tuple(obs._state.aside.get(seat, ()))
        working = pools - set(getattr(obs._state, "_switched_off", {}))
        if obs.seat in working and obs.face_up_aside(obs.seat):
            assert not any(a.kind in (ActionKind.TSUMO, ActionKind.RON) for a in legal)
            if any(a.tag is AbilityTag.DRAW_INSTEAD for a in legal):
                assert all(a.kind == ActionKind.ABILITY for a in legal)  # no wall draw
                self.tally.seen["pool draws"] += 1

    def check_pond_swaps(self, obs: Observation, legal: list[Action]) -> None:
        """A pond swap names a tile of the seat's hand and a tile lying face up in a pond."""
        state = obs._state
        for a in legal:
            if a.kind == ActionKind.ABILITY and a.tag is Move.SWAP_POND:
                assert a.tile in state.players[obs.seat].concealed
                assert any(a.tiles[0] in pond for pond in state._pond_tiles())

    def check_shaped_melds(self, state: HandState) -> None:
        """Only Kaori's and Yuuko's seats hold chis that are not plain sequences; Yuuko may
        not pon or kan (among one family's cards: elsewhere a meld may change seats)."""
        if self.family is None:
            return
        for seat, p in enumerate(state.players):
            card = self.dealt.cards.get(seat)
            if card is None:
                continue
            for m in p.melds:
                if m.kind == MeldKind.CHI and \
                        tuple(t // 4 for t in m.tiles) not in PLAIN_SEQUENCES:
                    assert card in SHAPED_CHI, f"P{seat} ({card}) holds a shaped chi"
                    self.tally.seen["shaped chi"] += 1
                if card == YUUKO:
                    assert m.kind == MeldKind.CHI, "Yuuko Mase pons or kans"

    def note(self, obs: Observation, choice: Action) -> None:
        if obs._state.wall.extension is not None:
            self.tally.seen["past the live wall"] += 1
