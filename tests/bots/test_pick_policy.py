"""The bots' pick: each ability's rough worth with the starting hand and the seat's situation."""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.pick import ESTIMATES, card_value, choose, effect_value
from pipeline.cards import registry
from pipeline.cards.abilities import effect_implemented
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.table import CardTable
from pipeline.rules.hooks import PickView
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.scenario import scenario_wall
from pipeline.tiles import parse_tiles

CATALOG = load_catalog("1.2")
EVEN = PickView(seat=1, dealer=0, scores=(30000,) * 4)
PINZU = parse_tiles("1234566789p23m5z")       # 10 pinzu, no winds
MANZU = parse_tiles("123456m789m11z23s")      # no pinzu at all


def test_a_pinzu_heavy_hand_picks_arata_over_a_card_that_does_nothing_for_it() -> None:
    # Hatsumi's winds do nothing for a hand without winds; Arata's pinzu bonus does
    options = ("hatsumi_usuzumi", "arata_sagimori")
    assert choose(PINZU, options, EVEN) == "arata_sagimori"
    assert HeuristicBot().pick(PINZU, options, EVEN) == "arata_sagimori"
    # the same team with a hand holding no pinzu: Arata has little to offer
    assert choose(MANZU, options, EVEN) == "hatsumi_usuzumi"


def test_kana_is_picked_in_last_place_only() -> None:
    # Kana's yaku values hold only in last place (rule C-21 ranks the ties)
    options = ("hisa_takei", "kana_ikeda")
    last = PickView(seat=1, dealer=0, scores=(35000, 20000, 35000, 30000))
    first = PickView(seat=1, dealer=0, scores=(25000, 45000, 25000, 25000))
    assert choose(PINZU, options, last) == "kana_ikeda"
    assert choose(PINZU, options, first) == "hisa_takei"


def test_placement_breaks_ties_by_distance_from_the_dealer() -> None:
    # rule C-21: on equal points the seat farther from the dealer ranks lower
    view = PickView(seat=3, dealer=0, scores=(30000,) * 4)
    assert view.placement() == 4
    assert PickView(seat=0, dealer=1, scores=(30000,) * 4).placement() == 4


def test_pick_is_deterministic_and_keeps_the_first_of_equals() -> None:
    nothing = ("no_such_card_a", "no_such_card_b")  # not in the catalog: both worth 0
    assert choose(PINZU, nothing, EVEN) == "no_such_card_a"
    assert choose(PINZU, nothing[::-1], EVEN) == "no_such_card_b"
    team = tuple(c.id for c in CATALOG if registry.playable(c))[:6]
    assert len({choose(MANZU, team, EVEN) for _ in range(3)}) == 1


def test_a_hand_that_cannot_play_face_up_well_avoids_komaki_only_when_weak() -> None:
    # Komaki doubles every win: worth most with a hand close to winning; an unpromising hand
    # (five shanten) gains little from a doubled win and loses by playing face up
    good = parse_tiles("123m456p789s23s55z")
    bad = parse_tiles("147m258p369s1357z")
    assert card_value(CATALOG.card("komaki_jindai"), good, EVEN) > \
        card_value(CATALOG.card("komaki_jindai"), bad, EVEN)


def test_every_implemented_effect_kind_has_a_pick_estimate() -> None:
    # the estimates are keyed by effect class, one per class
    implemented = {e.kind for c in CATALOG for e in c.effects
                   if effect_implemented(e.kind, e.params)}
    missing = sorted(k for k in implemented if EFFECTS[k] not in ESTIMATES)
    assert not missing, f"add a pick estimate in pipeline/bots/pick.py for: {missing}"


def test_a_cards_worth_is_the_sum_of_its_implemented_effects_worths_every_time() -> None:
    """Each card's implemented effects are worked out once and kept: the card's worth stays the
    sum, in the card's order, of what each implemented effect is worth with this hand (an
    effect not implemented, with its parameters, adds nothing), asked once or again."""
    views = (EVEN, PickView(seat=0, dealer=0, scores=(18000, 32000, 25000, 25000)))
    for card in CATALOG:
        for hand in (PINZU, MANZU):
            for view in views:
                worths = [effect_value(e.kind, e.params, hand, view) for e in card.effects
                          if effect_implemented(e.kind, e.params)]
                assert card_value(card, hand, view) == sum(worths)
                assert card_value(card, hand, view) == sum(worths)  # the kept effects


class Recording:
    """An agent whose pick takes the situation and notes it."""

    def __init__(self) -> None:
        self.seen: list[PickView] = []

    def pick(self, starting_hand, options, situation):
        self.seen.append(situation)
        return options[-1]


class TwoArguments:
    """An agent written before the situation was passed: ``pick(starting_hand, options)``."""

    def pick(self, starting_hand, options):
        return options[0]


def test_the_table_passes_the_seat_situation_and_keeps_two_argument_picks() -> None:
    preset = load_preset("cards-tonpuusen")
    from dataclasses import replace

    preset = replace(preset, cards=replace(preset.cards, team_size=1))
    agents = [Recording(), TwoArguments(), Recording(), TwoArguments()]
    table = CardTable(preset, agents, seed=1, match_index=0)
    start = HandStart(wall=scenario_wall(["", "", "", ""]), dealer=2, round_wind=0, honba=1,
                      sticks=2, scores=(31000, 29000, 20000, 40000))
    abilities = table.abilities_for(start)
    assert len(abilities) == 4
    view = agents[2].seen[0]
    assert (view.seat, view.dealer, view.scores) == (2, 2, (31000, 29000, 20000, 40000))
    assert (view.honba, view.sticks, len(view.dora_indicators)) == (1, 2, 1)
    assert view.placement() == 4 and view.catalog is table.catalog
    assert agents[0].seen[0].seat == 0


def test_play_log_shows_each_hands_picks_first_and_the_triggers() -> None:
    from typer.testing import CliRunner

    import cli

    result = CliRunner().invoke(cli.app, ["play", "--preset", "cards-tonpuusen", "--seed", "1",
                                          "--log"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("picks P0 ") and lines[1].startswith("P0 deal ")
    deals = sum(1 for line in lines if line.startswith("P0 deal "))
    assert sum(1 for line in lines if line.startswith("picks P0 ")) == deals
    assert any(" ability " in line for line in lines)     # triggers are printed in the log


def test_the_pick_remembers_what_the_match_used_up() -> None:
    """Kuro's dora once lost, Kirame's floor once used and Kana's Inazuma riichi once made are
    worth nothing for the rest of the match (Kuro's lost dora cost her), and the card table
    tells the pick what its match memory holds."""

    from pipeline.cards.memory import MatchMemory

    dora = parse_tiles("123m456p778s5551z")
    view = PickView(seat=1, dealer=0, scores=(30000, 5000, 40000, 45000),
                    dora_indicators=tuple(parse_tiles("6s")), catalog=CATALOG)

    def worth(card: str, v: PickView) -> float:
        return card_value(CATALOG.card(card), dora, v)

    memory = MatchMemory()
    assert memory.spent(1) == frozenset()
    memory.dora_lost.add(1)
    memory.floor_used.add(1)
    memory.once_used[1] = {"inazuma"}
    spent = view.replace(spent=memory.spent(1))
    assert spent.spent == {"dora_multiplier", "floor_at_zero", "stake_rule:inazuma_riichi"}
    assert worth("kuro_matsumi", view) > 0 > worth("kuro_matsumi", spent)
    kirame = CATALOG.card("kirame_hanada")
    floor = next(e for e in kirame.effects if e.kind == "floor_at_zero")
    assert ESTIMATES[EFFECTS["floor_at_zero"]](floor.params, None, view) == 1500.0
    assert ESTIMATES[EFFECTS["floor_at_zero"]](floor.params, None, spent) == 0.0
    inazuma = next(e for e in CATALOG.card("kana_ikeda").effects if e.kind == "stake_rule")
    assert ESTIMATES[EFFECTS["stake_rule"]](inazuma.params, None, view) > 0
    assert ESTIMATES[EFFECTS["stake_rule"]](inazuma.params, None, spent) == 0.0
    assert choose(dora, ("kuro_matsumi", "hisa_takei"), view) == "kuro_matsumi"
    assert choose(dora, ("kuro_matsumi", "hisa_takei"), spent) == "hisa_takei"

    preset = load_preset("cards-hanchan")
    table = CardTable(preset, [HeuristicBot()] * 4, 1, 0, CATALOG)
    table.memory.dora_lost.add(2)
    start = HandStart(wall=scenario_wall(["", "", "", ""]), dealer=0, round_wind=0, honba=0,
                      sticks=0, scores=(30000,) * 4)
    assert table._situation(start, 2).spent == {"dora_multiplier"}
    assert table._situation(start, 1).spent == frozenset()
