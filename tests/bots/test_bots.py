"""The bots as players: the registry, the style file, the pick hook, legality over whole matches,
determinism, and a short run of the calibration against the greedy baseline."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.bots.calibrate import calibrate
from pipeline.bots.greedy import GreedyBot
from pipeline.bots.heuristic import HeuristicBot
from pipeline.bots.registry import BOT_KINDS, UnknownBotError, make_agent
from pipeline.bots.style import STYLES_FILE, BotStyle, StyleError, load_styles, style
from pipeline.cards.moves import Move
from pipeline.rules.actions import Action, ability_action
from pipeline.rules.agents import Agent, Observation, RandomAgent
from pipeline.rules.match import MatchResult, derive_seed, play_match
from pipeline.rules.preset import load_preset
from pipeline.tiles import parse_tiles

PRESET = load_preset("online-tonpuusen")
KNOBS = ("aggression", "call_appetite", "riichi_appetite", "value_weight")

# ----------------------------------------------------------------------------- registry


@pytest.mark.parametrize(("kind", "cls"), [
    ("heuristic", HeuristicBot), ("greedy", GreedyBot), ("random", RandomAgent),
])
def test_make_agent_builds_each_kind(kind: str, cls: type) -> None:
    assert kind in BOT_KINDS
    agent = make_agent(kind, 5)
    assert isinstance(agent, cls)
    assert callable(agent.decide)


def test_registry_lists_exactly_the_known_kinds() -> None:
    assert set(BOT_KINDS) == {"heuristic", "greedy", "random"}


def test_make_agent_gives_each_seed_its_own_stream() -> None:
    a, b, c = make_agent("heuristic", 1), make_agent("heuristic", 1), make_agent("heuristic", 2)
    assert a is not b
    assert a.rng.random() == b.rng.random()
    assert make_agent("heuristic", 1).rng.random() != c.rng.random()


def test_unknown_bot_kind_names_the_kind_and_the_known_ones() -> None:
    with pytest.raises(UnknownBotError) as info:
        make_agent("mortal", 0)
    message = str(info.value)
    assert "'mortal'" in message
    for kind in BOT_KINDS:
        assert kind in message
    assert isinstance(info.value, ValueError)


def test_styled_kind_plays_that_style() -> None:
    """heuristic:STYLE is the heuristic bot with a style of pipeline/data/bots/styles.toml, so
    different player types can sit at one table."""
    careful, caller = make_agent("heuristic:careful", 3), make_agent("heuristic:caller", 3)
    assert (careful.style, caller.style) == (style("careful"), style("caller"))
    assert make_agent("heuristic:default", 3).style == make_agent("heuristic", 3).style
    assert careful.rng.random() == make_agent("heuristic", 3).rng.random()  # same seed stream


@pytest.mark.parametrize(("kind", "expected"), [
    ("heuristic:sleepy",
     "unknown style 'sleepy' (styles in pipeline/data/bots/styles.toml: default"),
    ("greedy:careful", "only heuristic takes a style"),
    ("heuristic:", "name a style after the colon"),
    ("mortal:careful", "unknown bot kind 'mortal'"),
])
def test_bad_styled_kind_says_what_to_fix(kind: str, expected: str) -> None:
    with pytest.raises(UnknownBotError, match=expected.replace("(", r"\(")):
        make_agent(kind, 0)


def test_styled_kinds_in_a_run_and_a_calibration() -> None:
    """--bots takes styled kinds seat by seat; the calibration labels placements by kind."""
    from pipeline.rules.preset import load_preset
    from pipeline.sim.run import parse_bots

    assert parse_bots("heuristic,heuristic:careful,greedy,heuristic:caller") == (
        "heuristic", "heuristic:careful", "greedy", "heuristic:caller")
    with pytest.raises(UnknownBotError, match="sleepy"):
        parse_bots("heuristic,heuristic:sleepy,greedy,greedy")
    report = calibrate(load_preset("online-tonpuusen"), 2, 5, seats=("heuristic:pusher",) * 4,
                       vs="heuristic:careful")
    assert set(report.placement) == {"heuristic:pusher", "heuristic:careful"}


# ----------------------------------------------------------------------------- styles


def test_shipped_styles_load() -> None:
    styles = load_styles()
    assert STYLES_FILE.is_file()
    assert {"default", "careful", "pusher", "caller"} <= set(styles)
    for name, s in styles.items():
        assert isinstance(s, BotStyle) and s.name == name
        for knob in KNOBS:
            assert 0 <= getattr(s, knob) <= 5
    assert styles["default"] == BotStyle(name="default")  # every knob defaults to 1
    assert styles["careful"].aggression < 1 < styles["pusher"].aggression
    assert styles["caller"].call_appetite > 1


def test_bot_takes_a_style_by_name_or_object() -> None:
    assert HeuristicBot(0).style == style("default")
    assert HeuristicBot(0, "careful").style.aggression == load_styles()["careful"].aggression
    custom = BotStyle(name="mine", aggression=2.0)
    assert HeuristicBot(0, custom).style is custom
    with pytest.raises(StyleError, match="unknown bot style 'reckless'"):
        HeuristicBot(0, "reckless")


def write_styles(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "styles.toml"
    path.write_text(text)
    return path


def test_style_file_with_an_unknown_key_names_file_style_and_key(tmp_path: Path) -> None:
    path = write_styles(tmp_path, "[default]\n\n[bold]\naggression = 1.2\nbluff = 2\n")
    with pytest.raises(StyleError) as info:
        load_styles(path)
    message = str(info.value)
    assert str(path) in message and "[bold]" in message and "'bluff'" in message
    assert "aggression" in message  # the allowed keys are listed


@pytest.mark.parametrize("value", ['"high"', "true", "[1, 2]", "7", "-0.5"])
def test_style_file_with_a_bad_value_names_file_style_and_key(tmp_path: Path,
                                                             value: str) -> None:
    path = write_styles(tmp_path, f"[shy]\ncall_appetite = 0.5\nriichi_appetite = {value}\n")
    with pytest.raises(StyleError) as info:
        load_styles(path)
    message = str(info.value)
    assert str(path) in message and "[shy]" in message and "riichi_appetite" in message
    assert "expected a number" in message


def test_style_file_that_is_missing_or_not_toml(tmp_path: Path) -> None:
    with pytest.raises(StyleError, match="not found"):
        load_styles(tmp_path / "absent.toml")
    path = write_styles(tmp_path, "[broken\naggression = 1\n")
    with pytest.raises(StyleError, match="not valid TOML") as info:
        load_styles(path)
    assert str(path) in str(info.value)


def test_style_file_entry_must_be_a_table(tmp_path: Path) -> None:
    path = write_styles(tmp_path, "aggression = 1.5\n")
    with pytest.raises(StyleError, match=r"\[aggression\] must be a table"):
        load_styles(path)


def test_style_values_may_be_integers(tmp_path: Path) -> None:
    path = write_styles(tmp_path, "[calm]\naggression = 0\nvalue_weight = 2\n")
    calm = load_styles(path)["calm"]
    assert calm == BotStyle(name="calm", aggression=0.0, value_weight=2.0)


# ----------------------------------------------------------------------------- pick hook


@pytest.mark.parametrize("team", [("Saki",), ("Nodoka", "Yuuki", "Mako")])
def test_pick_returns_a_member_of_the_team(team: tuple[str, ...]) -> None:
    hand = parse_tiles("123m456p789s1122z")
    for bot in (HeuristicBot(3), GreedyBot(3)):
        assert bot.pick(hand, team) in team


# ----------------------------------------------------------------------------- legality


class LegalityCheck:
    """Passes every decision to a bot and checks that the answer is one of the offered ones."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.decisions = 0
        self.kinds: set[str] = set()

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        assert legal, "the engine offered no action"
        choice = self.agent.decide(obs, legal)
        assert choice in legal, f"{choice} is not among {[str(a) for a in legal]}"
        assert choice.seat == obs.seat
        self.decisions += 1
        self.kinds.add(choice.kind.value)
        return choice


LINEUPS = [
    lambda seed: [HeuristicBot(seed), GreedyBot(seed + 1), RandomAgent(seed + 2),
                  HeuristicBot(seed + 3, "caller")],
    lambda seed: [HeuristicBot(seed, "pusher"), HeuristicBot(seed + 1, "careful"),
                  GreedyBot(seed + 2), HeuristicBot(seed + 3)],
    lambda seed: [RandomAgent(seed), HeuristicBot(seed + 1, "caller"),
                  HeuristicBot(seed + 2), GreedyBot(seed + 3)],
]


@pytest.mark.parametrize("match_index", range(2 * len(LINEUPS)))
def test_every_bot_returns_only_legal_actions(match_index: int) -> None:
    seed = 700 + match_index
    checks = [LegalityCheck(a) for a in LINEUPS[match_index % len(LINEUPS)](seed)]
    result = play_match(PRESET, checks, seed, match_index)
    assert result.hands
    assert all(c.decisions > 0 for c in checks)
    assert all({"discard"} <= c.kinds for c in checks)


# ----------------------------------------------------------------------------- determinism


def heuristic_match(seed: int, match_index: int = 0) -> MatchResult:
    agents = [make_agent("heuristic", derive_seed(seed, match_index, "agent", s))
              for s in range(4)]
    return play_match(PRESET, agents, seed, match_index)


def event_log(result: MatchResult) -> list[str]:
    return [hand.log_text() for hand in result.hands]


def test_heuristic_match_is_a_function_of_its_seed() -> None:
    a, b = heuristic_match(21), heuristic_match(21)
    assert event_log(a) == event_log(b)
    assert a.final_scores == b.final_scores and a.ranks == b.ranks
    assert event_log(heuristic_match(22)) != event_log(a)


# ----------------------------------------------------------------------------- strength (short)


def test_calibration_against_greedy_places_both_kinds() -> None:
    # A smoke run only: the strength claim itself is measured by `saki bots calibrate --vs`.
    games = 3
    report = calibrate("online-tonpuusen", games, 5, vs="greedy")
    assert set(report.placement) == {"heuristic", "greedy"}
    for est in report.placement.values():
        assert est.n == 2 * games
        assert 1.0 <= est.value <= 4.0
    total = sum(est.value * est.n for est in report.placement.values())
    assert total == pytest.approx(games * (1 + 2 + 3 + 4))
    assert "heuristic" in report.placement_table() and "greedy" in report.placement_table()


def test_baseline_bots_answer_a_choice_a_card_forces_before_the_discard() -> None:
    """A turn that offers only ability actions (a family to name) is answered with one of them,
    by the greedy baseline and by scripted players."""
    from pipeline.rules.scenario import ScriptAgent

    choices = [ability_action(0, "kasumi_iwato", Move.FAMILY, payload=f,
                              detail=f"kasumi_iwato:family:{f}")
               for f in ("man", "pin", "sou", "honors")]
    obs = _observation_for_choice()
    assert GreedyBot(1).decide(obs, list(choices)) in choices
    assert ScriptAgent().decide(obs, list(choices)) in choices


def _observation_for_choice() -> Observation:
    """Any real observation of seat 0 at its first turn (the choice does not depend on it)."""
    seen: list[Observation] = []

    class Spy(RandomAgent):
        def decide(self, obs: Observation, legal: list[Action]) -> Action:
            if not seen:
                seen.append(obs)
            return super().decide(obs, legal)

    play_match(load_preset("single-hand"), [Spy(1), Spy(2), Spy(3), Spy(4)], seed=1,
               match_index=0)
    return seen[0]
