"""The policy gap (``saki bots gap``): a card's value under the shipped bot and under simple
alternatives on the same matches, with a paired interval from resampling the matches."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

import cli
from pipeline.bots.policies import (
    POLICIES,
    AlwaysBot,
    NeverBot,
    NoIncentivesBot,
    _optional,
    _same_tile,
    holder_bot,
)
from pipeline.cards.catalog import load_catalog
from pipeline.rules.actions import AbilityTag, Action, ActionKind
from pipeline.rules.preset import load_preset
from pipeline.sim.policy_gap import (
    card_policies,
    gap_cards,
    hindsight_matches,
    hindsight_row,
    paired_gap,
    policy_gap,
)
from pipeline.sim.trial import TrialConfig, trial_deck
from pipeline.tiles import parse_tiles
from tests.support.cli_errors import assert_one_line_error

CATALOG = load_catalog("1.2")
PRESET = load_preset("cards-hanchan")


def test_a_constant_gap_is_measured_exactly() -> None:
    # a policy worth 50 points a hand more on every match: the gap is 50, whatever the resample
    rng = random.Random(3)
    shipped = {m: (rng.gauss(0, 3000), rng.randint(8, 14)) for m in range(40)}
    better = {m: (t + 50 * n, n) for m, (t, n) in shipped.items()}
    gap, lo, hi = paired_gap(better, shipped, seed=1)
    assert abs(gap - 50) < 1e-9 and abs(lo - 50) < 1e-9 and abs(hi - 50) < 1e-9


def test_the_paired_interval_covers_the_true_gap_about_95_in_100() -> None:
    # simulation with a known answer: matches of 8-14 hands, a true gap of 100 points a hand
    # and match-level noise shared by both policies (the deal) plus noise of their own. The
    # 95% percentile interval must cover 100 in about 95 of 100 replications (the error rate
    # the docs name): 86 or more here (a binomial 1st percentile at 95%)
    covered = 0
    reps = 100
    for rep in range(reps):
        rng = random.Random(rep)
        shipped, other = {}, {}
        for m in range(30):
            n = rng.randint(8, 14)
            deal = rng.gauss(0, 400)
            shipped[m] = (sum(deal + rng.gauss(0, 1500) for _ in range(n)), n)
            other[m] = (sum(deal + 100 + rng.gauss(0, 1500) for _ in range(n)), n)
        _, lo, hi = paired_gap(other, shipped, seed=rep, resamples=400)
        covered += lo <= 100 <= hi
    assert covered >= 86, covered


def test_hindsight_keeps_the_best_policy_of_each_match() -> None:
    # a constructed case with a known best option per match: "never" is worth +300 a hand on
    # the even matches and -300 on the odd ones, "always" the reverse, both around a shipped
    # policy worth 0. In hindsight each match keeps the +300 one: a value of exactly +300 and
    # a gap of +300 to the shipped policy, though neither policy alone differs from it
    shipped = {m: (0.0, 10) for m in range(40)}
    never = {m: ((300.0 if m % 2 == 0 else -300.0) * 10, 10) for m in range(40)}
    always = {m: ((-300.0 if m % 2 == 0 else 300.0) * 10, 10) for m in range(40)}
    best = hindsight_matches([shipped, never, always])
    assert best == {m: (3000.0, 10) for m in range(40)}
    row = hindsight_row([shipped, never, always], shipped, seed=1)
    assert row.policy == "hindsight" and row.hands == 400 and row.matches == 40
    assert abs(row.value - 300) < 1e-9 and abs(row.gap - 300) < 1e-9
    assert abs(row.gap_lo - 300) < 1e-9 and abs(row.value_lo - 300) < 1e-9
    assert not row.beats_shipped  # an upper bound, not a policy a bot can play
    assert abs(paired_gap(never, shipped, seed=1)[0]) < 1e-9


def test_hindsight_per_match_is_at_least_every_policy() -> None:
    # on matches of different lengths the choice is by value per hand, and the hindsight value
    # is never below any played policy's on the same matches
    rng = random.Random(5)
    played = [{m: (rng.gauss(0, 5000), rng.randint(6, 14)) for m in range(30)}
              for _ in range(3)]
    best = hindsight_matches(played)
    for m, (total, hands) in best.items():
        assert all(total / hands >= p[m][0] / p[m][1] for p in played)
    row = hindsight_row(played, played[0], seed=2)
    assert row.value_lo <= row.value <= row.value_hi and row.matches == 30


def test_no_common_match_gives_no_gap() -> None:
    gap, lo, hi = paired_gap({1: (10.0, 2)}, {2: (0.0, 2)}, seed=1)
    assert gap != gap and lo != lo and hi != hi


def test_policies_by_card() -> None:
    # Kuro: no choice, an incentive; Nodoka: a choice (her face-down discard), no incentive;
    # Haru: both; Saki: neither
    assert card_policies(CATALOG, "kuro_matsumi") == ("shipped", "no-incentives", "hindsight")
    assert card_policies(CATALOG, "nodoka_haramura") == ("shipped", "always", "never",
                                                         "hindsight")
    assert card_policies(CATALOG, "haru_takimi") == ("shipped", "no-incentives", "always",
                                                     "never", "hindsight")
    # a two-sided card's incentives are its back's (Mairu: Himeko's new family)
    assert "no-incentives" in card_policies(CATALOG, "mairu_shirouzu")
    assert card_policies(CATALOG, "saki_miyanaga") == ("shipped",)
    every = gap_cards(CATALOG, trial_deck(CATALOG, PRESET))
    assert "kuro_matsumi" in every and "saki_miyanaga" not in every


def test_always_and_never_take_or_decline_the_offer_on_the_same_tile() -> None:
    tiles = parse_tiles("1m2m")
    plain = [Action(ActionKind.DISCARD, 0, tile=t) for t in tiles]
    hidden = [Action(ActionKind.ABILITY, 0, tile=t, tag=AbilityTag.FACE_DOWN) for t in tiles]
    offers, plains = _optional([*plain, *hidden])
    assert offers == hidden and plains == plain
    assert _same_tile(hidden, plain[1]) is hidden[1]
    assert _same_tile(plain, hidden[1]) is plain[1]
    assert _optional(plain) == ([], []) and _optional(hidden) == ([], [])
    assert isinstance(holder_bot("always", 1), AlwaysBot)
    assert isinstance(holder_bot("never", 1), NeverBot)
    assert set(POLICIES) == {"shipped", "no-incentives", "always", "never", "expert"}


def test_the_no_incentives_policy_forgets_the_cards_incentives_at_its_pick() -> None:
    bot = NoIncentivesBot(0)
    assert bot.pick(tuple(parse_tiles("123m456p789s23s66s")), ("kuro_matsumi",)) == \
        "kuro_matsumi"
    assert bot.incentives is None and "dora_multiplier" in bot.playing


def test_a_plain_trial_keeps_its_identity() -> None:
    # a trial with no holder policy names none: its folders and shards are those of before
    plain = TrialConfig(preset=PRESET, catalog=CATALOG, seed=1, cards=("kuro_matsumi",))
    other = TrialConfig(preset=PRESET, catalog=CATALOG, seed=1, cards=("kuro_matsumi",),
                        holder_policy="no-incentives")
    assert "holder_policy" not in plain.identity()
    assert other.identity()["holder_policy"] == "no-incentives"
    assert plain.run_id("kuro_matsumi") != other.run_id("kuro_matsumi")


def test_gap_plays_each_policy_on_the_same_matches(tmp_path) -> None:
    # card kuro_matsumi: one block of four matches per policy; the shipped row is the plain
    # trial's value on those matches, and a second run reuses every match
    gap = policy_gap(PRESET, CATALOG, "kuro_matsumi", ["no-incentives", "hindsight"], seed=1,
                     blocks=1, out=tmp_path, workers=1)
    shipped, plain, hindsight = gap.rows
    assert (shipped.policy, plain.policy) == ("shipped", "no-incentives")
    assert shipped.matches == plain.matches == 4 and shipped.gap == 0
    assert abs(plain.gap - (plain.value - shipped.value)) < 1e-6
    assert hindsight.policy == "hindsight" and hindsight.matches == 4
    again = policy_gap(PRESET, CATALOG, "kuro_matsumi", ["no-incentives", "hindsight"], seed=1,
                       blocks=1, out=tmp_path, workers=1)
    assert again == gap
    doc = json.dumps(gap.as_dict())
    assert json.loads(doc)["best"] in ("shipped", "no-incentives")


def test_cli_gap_errors_are_one_line() -> None:
    result = CliRunner().invoke(cli.app, ["bots", "gap", "kuro_matsumi", "--policies",
                                          "sometimes"])
    assert_one_line_error(result, "sometimes")
    result = CliRunner().invoke(cli.app, ["bots", "gap", "kuro_matsumi", "--policies",
                                          "hindsight"])
    assert_one_line_error(result, "hindsight")
    result = CliRunner().invoke(cli.app, ["bots", "gap"])
    assert_one_line_error(result, "--all")
    result = CliRunner().invoke(cli.app, ["bots", "gap", "no_such_card"])
    assert_one_line_error(result, "no_such_card")
