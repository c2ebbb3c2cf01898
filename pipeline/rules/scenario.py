"""Exact situations from mpsz text: a wall with given hands and draws, and scripted players.

Tests (and notebooks) build a hand tile by tile::

    start = scenario_start(hands=["123m456p789s1122z", ...], draws="1z2z3z...", dora="1m")
    agents = [ScriptAgent(["riichi 3z", "tsumo"]), ScriptAgent(), ScriptAgent(), ScriptAgent()]

A script lists the decisions of one seat in order: ``"discard 3m"`` (or just ``"3m"``),
``"riichi 3m"``, ``"tsumo"``, ``"ron"``, ``"pon"``, ``"chi"`` (optionally with the two hand tiles,
``"chi 46m"``), ``"minkan"``, ``"ankan 1m"``, ``"kakan 1m"``, ``"nine"``, ``"pass"``. With its
script used up (or when the next step is not offered), a seat passes on claims and discards the
tile it just drew (or its first legal discard).
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandStart, play_hand
from pipeline.rules.preset import Preset
from pipeline.rules.records import HandRecord
from pipeline.rules.wall import DEAL_SIZE, INDICATORS, LIVE_END, RINSHAN, URA
from pipeline.tiles import (
    NUM_TILES,
    NUM_TYPES,
    SANMA_TILES,
    parse_tiles,
    parse_types,
    tile_type,
    type_to_str,
)

_KIND_WORDS = {
    "discard": ActionKind.DISCARD, "riichi": ActionKind.RIICHI, "tsumo": ActionKind.TSUMO,
    "ron": ActionKind.RON, "pon": ActionKind.PON, "chi": ActionKind.CHI,
    "minkan": ActionKind.MINKAN, "ankan": ActionKind.ANKAN, "kakan": ActionKind.KAKAN,
    "nine": ActionKind.NINE_TERMINALS, "pass": ActionKind.PASS, "kita": ActionKind.KITA,
}


class ScenarioError(ValueError):
    """A scenario that cannot be laid out (too many copies, too many draws...)."""


def scenario_wall(hands: Sequence[str], draws: str = "", *, dealer: int = 0, rinshan: str = "",
                  dora: str = "", ura: str = "") -> tuple[int, ...]:
    """A wall order dealing ``hands[seat]`` (13 tiles each) and drawing ``draws`` in order.

    Every tile not named fills the remaining places in a fixed order, avoiding the named types
    where it can, so a scenario is not disturbed by surprise tiles. Three hands lay out a
    three-player wall of the 108 tiles without 2m-8m (rule S-01).
    """
    seats = len(hands)
    tiles = list(range(NUM_TILES)) if seats == 4 else list(SANMA_TILES)
    size = len(tiles)
    end = size - 14
    order: list[int | None] = [None] * size
    taken: list[int] = []

    def place(text: str, start: int, limit: int, what: str) -> list[int]:
        named_tiles = parse_tiles(text, taken)
        if len(named_tiles) > limit:
            raise ScenarioError(f"{what}: {len(named_tiles)} tiles given, room for {limit}")
        if seats == 3 and any(1 <= t // 4 <= 7 for t in named_tiles):
            raise ScenarioError(f"{what}: 2m-8m are not in the three-player set (rule S-01)")
        taken.extend(named_tiles)
        for i, t in enumerate(named_tiles):
            order[start + i] = t
        return named_tiles

    if seats not in (3, 4):
        raise ScenarioError("give four hands, or three for three players (an empty string "
                            "deals filler tiles)")
    for seat, text in enumerate(hands):
        place(text, 13 * ((seat - dealer) % seats), 13, f"hand of P{seat}")
    if seats == 4:
        place(draws, DEAL_SIZE, LIVE_END - DEAL_SIZE, "draws")
        place(rinshan, RINSHAN.start, 4, "rinshan")
        place(dora, INDICATORS.start, 5, "dora indicators")
        place(ura, URA.start, 5, "ura indicators")
    else:
        place(draws, 39, end - 39, "draws")
        place(rinshan, end, 4, "rinshan")
        place(dora, end + 4, 5, "dora indicators")
        place(ura, end + 9, 5, "ura indicators")
    named = {tile_type(t) for t in taken}
    rest = sorted(set(tiles) - set(taken),
                  key=lambda t: (tile_type(t) in named, (t * 37) % NUM_TILES))
    filler = iter(rest)
    return tuple(t if t is not None else next(filler) for t in order)


def scenario_start(hands: Sequence[str], draws: str = "", *, dealer: int = 0, rinshan: str = "",
                   dora: str = "", ura: str = "", round_wind: int = 0, honba: int = 0,
                   sticks: int = 0, scores: tuple[int, ...] | None = None
                   ) -> HandStart:
    wall = scenario_wall(hands, draws, dealer=dealer, rinshan=rinshan, dora=dora, ura=ura)
    if scores is None:
        scores = (25000,) * 4 if len(hands) == 4 else (35000,) * 3
    return HandStart(wall=wall, dealer=dealer, round_wind=round_wind, hand_number=dealer,
                     honba=honba, sticks=sticks, scores=scores)


class ScriptAgent:
    """Plays a written script of decisions; records every set of legal actions it was offered."""

    def __init__(self, script: Sequence[str] = ()) -> None:
        self.script = list(script)
        self.offers: list[list[Action]] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.offers.append(legal)
        if self.script:
            chosen = _match(self.script[0], legal)
            if chosen is not None:
                self.script.pop(0)
                return chosen
        passing = [a for a in legal if a.kind == ActionKind.PASS]
        if passing:
            return passing[0]
        drawn = obs.drawn
        for a in legal:
            if a.kind == ActionKind.DISCARD and a.tile == drawn:
                return a
        # unscripted: a plain discard, or the first option of a choice a card forces first
        return next((a for a in legal if a.kind == ActionKind.DISCARD), legal[0])

    def was_offered(self, kind: ActionKind) -> bool:
        return any(a.kind == kind for offer in self.offers for a in offer)


def _match(step: str, legal: list[Action]) -> Action | None:
    words = step.split()
    if words[0] in _KIND_WORDS:
        kind = _KIND_WORDS[words[0]]
        arg = words[1] if len(words) > 1 else None
    else:
        kind, arg = ActionKind.DISCARD, words[0]
    types = [tile_type(t) for t in parse_tiles(arg)] if arg else None
    red = arg is not None and "0" in arg
    for a in legal:
        if a.kind != kind:
            continue
        if types is None:
            return a
        if kind in (ActionKind.DISCARD, ActionKind.RIICHI, ActionKind.KAKAN, ActionKind.KITA):
            if tile_type(a.tile) == types[0] and (a.tile in (16, 52, 88)) == red:
                return a
        elif kind == ActionKind.ANKAN:
            if tile_type(a.tiles[0]) == types[0]:
                return a
        elif sorted(tile_type(t) for t in a.tiles) == sorted(types):
            return a
    return None


class WatchingScriptAgent(ScriptAgent):
    """A :class:`ScriptAgent` that also notes, at every decision, what the seat could see.

    ``views[i]`` belongs to ``offers[i]``: ``(tiles_left, drawn, dora indicators shown)``.
    """

    def __init__(self, script: Sequence[str] = ()) -> None:
        super().__init__(script)
        self.views: list[tuple[int, int | None, int]] = []

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        self.views.append((obs.tiles_left, obs.drawn, len(obs.dora_indicators)))
        return super().decide(obs, legal)


def play_scenario(start: HandStart, preset: Preset, scripts: Sequence[Sequence[str]] = ()
                  ) -> tuple[HandRecord, list[WatchingScriptAgent]]:
    """Play ``start`` with one scripted agent per seat (missing scripts are empty)."""
    seats = preset.players
    agents = [WatchingScriptAgent(s) for s in [*scripts, *([()] * (seats - len(scripts)))]]
    return play_hand(start, preset, agents), agents


def spare_tiles(count: int, *used: str, avoid: str = "") -> str:
    """``count`` tiles as mpsz text (one tile per suit letter, in draw order) for padding draws.

    Copies named in ``used`` are left alone, no type of ``avoid`` is taken (name the waits
    there), and the types cycle, so neighbours differ and padded discards abort nothing.
    """
    left = [4] * NUM_TYPES
    for text in used:
        for t in parse_types(text):
            left[t] -= 1
    banned = set(parse_types(avoid))
    out: list[str] = []
    while len(out) < count:
        before = len(out)
        for t in range(NUM_TYPES):
            if len(out) < count and t not in banned and left[t] > 0:
                left[t] -= 1
                out.append(type_to_str(t))
        if len(out) == before:
            raise ScenarioError(f"not {count} spare tiles left outside {avoid!r}")
    return "".join(out)

