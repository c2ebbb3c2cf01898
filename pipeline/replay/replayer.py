"""Replay real game records through the engine and report every disagreement.

The wall is rebuilt from the record (starting hands, draws, replacement draws, indicators), each
seat is played by a scripted agent that takes the recorded action from the engine's legal ones,
and the engine's results are compared with the record's: winners, han, fu, points, every seat's
delta, the next hand's dealer, honba and sticks, and the final scores. This is the engine's
reference test: when a rule is wrong, a real game shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from pipeline.replay.record import (
    RECORD_SUFFIXES,
    Call,
    Discard,
    DoraReveal,
    Draw,
    RecordedGame,
    RecordedHand,
    RecordError,
    load_record,
)
from pipeline.rules.actions import Action, ActionKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import HandStart, HandState
from pipeline.rules.match import MatchProgress, advance
from pipeline.rules.preset import Preset, load_preset
from pipeline.rules.records import HandRecord
from pipeline.tiles import NUM_TILES, SANMA_TILES, WIND_NAMES, tile_to_str

KAN_KINDS = ("minkan", "ankan", "kakan")
CALL_ACTIONS = {"chi": ActionKind.CHI, "pon": ActionKind.PON, "minkan": ActionKind.MINKAN,
                "ankan": ActionKind.ANKAN, "kakan": ActionKind.KAKAN}


class ReplayMismatch(Exception):
    """The record did something the engine does not allow."""


class RecordEnded(Exception):
    """The record of a hand it stops in the middle of has no more actions to play."""


@dataclass
class Mismatch:
    source: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.source}: {self.where}: {self.what}"


@dataclass
class ReplayReport:
    files: int = 0
    hands: int = 0
    actions: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    skipped: list[Mismatch] = field(default_factory=list)  # hands whose record contradicts itself
    incomplete: list[Mismatch] = field(default_factory=list)  # hands the record stops midway
    passed: int = 0  # hands replayed whole with no mismatch
    refused: list[str] = field(default_factory=list)  # files not replayed: one line each, why

    @property
    def ok(self) -> bool:
        """Every file replayed and no mismatch."""
        return not self.mismatches and not self.refused

    def summary(self) -> str:
        """One line: files, hands (passed, incomplete, skipped), actions, mismatches and the
        files refused."""
        parts = [f"{self.files} files, {self.hands} hands ({self.passed} passed"]
        if self.incomplete:
            parts.append(f", {len(self.incomplete)} incomplete (the record stops before its end)")
        if self.skipped:
            parts.append(f", {len(self.skipped)} skipped (record defects)")
        parts.append(f"), {self.actions} actions checked, {len(self.mismatches)} mismatches")
        if self.refused:
            parts.append(f", {len(self.refused)} "
                         f"{'file' if len(self.refused) == 1 else 'files'} refused")
        return "".join(parts)

    def merge(self, other: ReplayReport) -> None:
        self.files += other.files
        self.hands += other.hands
        self.actions += other.actions
        self.mismatches.extend(other.mismatches)
        self.skipped.extend(other.skipped)
        self.incomplete.extend(other.incomplete)
        self.passed += other.passed
        self.refused.extend(other.refused)


def hand_name(h: RecordedHand) -> str:
    return f"{WIND_NAMES[h.round_wind]} {h.hand_number + 1}, honba {h.honba}"


def build_wall(h: RecordedHand) -> tuple[int, ...]:
    """A wall order that deals the recorded hands and draws (see pipeline.rules.wall): 136
    tiles, or 108 for three players, whose replacement draws past the four rinshan tiles come
    from the end of the live wall (rule S-03)."""
    seats = len(h.hands)
    all_tiles = range(NUM_TILES) if seats == 4 else SANMA_TILES
    size = len(all_tiles)
    end = size - 14
    order: list[int | None] = [None] * size
    for seat, tiles in enumerate(h.hands):
        base = 13 * ((seat - h.dealer) % seats)
        for i, t in enumerate(tiles):
            order[base + i] = t
    live, rinshan, replaced = 13 * seats, end, 0
    after_kan = False
    for e in h.events:
        if isinstance(e, Call):
            after_kan = e.kind in KAN_KINDS or e.kind == "kita"
        elif isinstance(e, Draw):
            if after_kan:
                replaced += 1
                order[rinshan if replaced <= 4 else end - (replaced - 4)] = e.tile
                rinshan += 1
            else:
                order[live] = e.tile
                live += 1
            after_kan = False
        elif isinstance(e, Discard):
            after_kan = False
    for i, t in enumerate(h.dora_indicators):
        order[end + 4 + i] = t
    ura = next((w.ura_indicators for w in h.wins if w.ura_indicators), ())
    for i, t in enumerate(ura):
        order[end + 9 + i] = t
    placed = [t for t in order if t is not None]
    if len(placed) != len(set(placed)):
        raise ReplayMismatch("the record uses one physical tile twice")
    rest = iter(sorted(set(all_tiles) - set(placed)))
    return tuple(t if t is not None else next(rest) for t in order)


class ScriptedTable:
    """Plays all four seats from the record: each decision takes the recorded action."""

    def __init__(self, hand: RecordedHand) -> None:
        self.hand = hand
        self.events = list(hand.events)
        self.pos = 0
        self.actions = 0
        self.state: HandState | None = None

    def agents(self) -> list[_SeatAgent]:
        return [_SeatAgent(self, s) for s in range(len(self.hand.hands))]

    def _skip_to_decision(self, seat: int) -> None:
        while self.pos < len(self.events):
            e = self.events[self.pos]
            if isinstance(e, DoraReveal):
                self.pos += 1
            elif isinstance(e, Draw):
                drawn = self.state.players[e.seat].drawn if self.state else None
                if e.seat != seat or drawn != e.tile:
                    raise ReplayMismatch(
                        f"record draws {tile_to_str(e.tile)} for P{e.seat}, engine gave P{seat} "
                        f"{tile_to_str(drawn) if drawn is not None else 'no draw'}")
                self.pos += 1
            else:
                return

    def _next(self):
        return self.events[self.pos] if self.pos < len(self.events) else None

    def decide(self, seat: int, legal: list[Action]) -> Action:
        kinds = {a.kind for a in legal}
        if ActionKind.PASS in kinds:
            return self._claim(seat, legal)
        self._skip_to_decision(seat)
        e = self._next()
        if isinstance(e, Discard) and e.seat == seat:
            want = Action(ActionKind.RIICHI if e.riichi else ActionKind.DISCARD, seat, e.tile)
        elif isinstance(e, Call) and e.seat == seat and e.kind == "ankan":
            want = Action(ActionKind.ANKAN, seat, tiles=tuple(sorted(e.tiles)))
        elif isinstance(e, Call) and e.seat == seat and e.kind == "kakan":
            want = Action(ActionKind.KAKAN, seat, e.called)
        elif isinstance(e, Call) and e.seat == seat and e.kind == "kita":
            want = Action(ActionKind.KITA, seat, e.called)
        elif e is None and any(w.seat == seat and w.from_seat == seat for w in self.hand.wins):
            want = Action(ActionKind.TSUMO, seat, self.state.players[seat].drawn)
        elif e is None and self.hand.draw and self.hand.draw.kind == "nine_terminals":
            want = Action(ActionKind.NINE_TERMINALS, seat)
        elif e is None and not self.hand.complete:
            raise RecordEnded
        else:
            raise ReplayMismatch(f"engine asks P{seat} to act, record has {e or 'nothing more'}")
        return self._take(want, legal)

    def _claim(self, seat: int, legal: list[Action]) -> Action:
        tile = legal[0].tile
        e = self._next()
        if isinstance(e, Call) and e.seat == seat and e.kind in ("chi", "pon", "minkan") \
                and e.called == tile:
            hand_tiles = list(e.tiles)
            hand_tiles.remove(tile)
            want = Action(CALL_ACTIONS[e.kind], seat, tile, tuple(sorted(hand_tiles)))
            return self._take(want, legal)
        if e is None or isinstance(e, DoraReveal):
            ron = any(w.seat == seat and w.from_seat != seat for w in self.hand.wins)
            draw = self.hand.draw
            if draw is not None and draw.kind == "triple_ron":
                ron = seat in draw.tenpai or not draw.tenpai
            if ron:
                return self._take(Action(ActionKind.RON, seat, tile), legal)
        return Action(ActionKind.PASS, seat)

    def _take(self, want: Action, legal: list[Action]) -> Action:
        if want not in legal:
            shown = ", ".join(str(a) for a in legal[:12])
            raise ReplayMismatch(f"recorded action {want} is not legal in the engine "
                                 f"(legal: {shown}{'...' if len(legal) > 12 else ''})")
        if want.kind not in (ActionKind.RON, ActionKind.TSUMO, ActionKind.NINE_TERMINALS):
            self.pos += 1
        self.actions += 1
        return want


class _SeatAgent:
    def __init__(self, table: ScriptedTable, seat: int) -> None:
        self.table = table
        self.seat = seat

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        return self.table.decide(self.seat, legal)


# Tenhou ended the match on the last dealer's tenpai at a draw (first with the target) from
# June 2010; before, the dealer kept the deal. Announced on Tenhou's blog on 2010-05-18
# ("2010年6月から「ラス親トップの自動聴牌止め」を導入します"), without the day: records of June
# 2010 do not say which rule they were played under (docs/records.md).
TENHOU_TENPAI_YAME_MONTH = (2010, 6)


def tenhou_tenpai_yame(played_on: date) -> bool | None:
    """Whether a Tenhou game of that day ended on the last dealer's tenpai while first (the
    preset option ``tenpai_yame``); None for the month of the change, which the record's day
    cannot settle."""
    month = (played_on.year, played_on.month)
    if month == TENHOU_TENPAI_YAME_MONTH:
        return None
    return month > TENHOU_TENPAI_YAME_MONTH


def preset_for(game: RecordedGame, base: Preset) -> Preset:
    """The base preset adjusted to the record's own rules: its flags (red fives, open tanyao,
    length) and, for a Tenhou record whose log id gives its day, the all-last rule of that
    day (:func:`tenhou_tenpai_yame`)."""
    rules = game.rules
    changes = {"red_fives": bool(rules.get("red_fives", base.red_fives)),
               "kuitan": bool(rules.get("kuitan", base.kuitan)),
               "length": rules.get("length", base.length)}
    played_on = rules.get("date")
    if isinstance(played_on, date):
        yame = tenhou_tenpai_yame(played_on)
        if yame is not None:
            changes["tenpai_yame"] = yame
    return replace(base, **changes)


def _riichi_paid(rec: HandRecord) -> list[int]:
    return [1000 if s.riichi else 0 for s in rec.seats]


def replay_hand(h: RecordedHand, preset: Preset, source: str, report: ReplayReport
                ) -> HandRecord | None:
    where = hand_name(h)
    table = ScriptedTable(h)
    try:
        start = HandStart(wall=build_wall(h), dealer=h.dealer, round_wind=h.round_wind,
                          hand_number=h.hand_number, honba=h.honba, sticks=h.sticks,
                          scores=tuple(h.scores))
        state = HandState(start, preset, table.agents())
        table.state = state
        rec = state.play()
    except ReplayMismatch as exc:
        report.actions += table.actions
        report.mismatches.append(Mismatch(source, f"{where}, event {table.pos}", str(exc)))
        return None
    except RecordEnded:
        rec = None
    report.actions += table.actions
    while table.pos < len(table.events) and isinstance(table.events[table.pos], DoraReveal):
        table.pos += 1  # an indicator shown before a win that ended the hand
    if not h.complete:  # every recorded action was legal; there is no result to compare
        report.incomplete.append(Mismatch(
            source, where, f"the record stops mid-hand after {len(table.events)} events "
            f"({table.actions} actions checked)"))
        if table.pos != len(table.events):
            report.mismatches.append(Mismatch(source, where, f"hand ended after event "
                                              f"{table.pos} of {len(table.events)}"))
        return None
    if rec is None:
        raise AssertionError("a complete record cannot run out of actions")
    problems = compare_result(h, rec)
    report.mismatches.extend(Mismatch(source, where, p) for p in problems)
    if table.pos != len(table.events):
        report.mismatches.append(Mismatch(source, where, f"hand ended after event {table.pos} "
                                          f"of {len(table.events)}"))
    return rec


def record_defect(h: RecordedHand) -> str | None:
    """Why a hand's record contradicts itself (points appear or vanish), or None.

    Real game logs always conserve points; hand-made test records sometimes do not, and an
    engine cannot be checked against a result that no rules could produce.
    """
    for w in h.wins:
        if w.scored and w.points <= 0:
            return f"the win of P{w.seat} has no recorded value"
        if w.deltas[w.seat] <= 0:
            return f"the winner P{w.seat} does not gain points in the recorded deltas"
    paid = len(h.riichi_sticks_paid())
    seats = range(len(h.scores))
    deltas = [sum(w.deltas[s] for w in h.wins) for s in seats] if h.wins else \
        list(h.draw.deltas) if h.draw else [0] * len(seats)
    expected = 1000 * (h.sticks + paid) if h.wins else 0
    if sum(deltas) != expected:
        return (f"recorded deltas sum to {sum(deltas)}, but {h.sticks + paid} riichi sticks "
                f"were on the table")
    return None


def compare_result(h: RecordedHand, rec: HandRecord) -> list[str]:
    problems = []
    paid = _riichi_paid(rec)
    ours = [s.delta + paid[s.seat] for s in rec.seats]
    if h.wins:
        want = [sum(w.deltas[s] for w in h.wins) for s in range(len(h.scores))]
        got_wins = [(w.seat, w.from_seat) for w in rec.wins]
        rec_wins = [(w.seat, w.from_seat) for w in h.wins]
        if sorted(got_wins) != sorted(rec_wins):
            problems.append(f"winners {got_wins} (record {rec_wins})")
        for rw in h.wins:
            w = next((x for x in rec.wins if x.seat == rw.seat), None)
            if w is None or not rw.scored:  # mjai: the value is checked by the deltas
                continue
            if rw.yakuman:
                if not w.yakuman:
                    problems.append(f"P{w.seat} not scored as yakuman ({w.han} han)")
            elif w.han != rw.han or (rw.fu and w.fu != rw.fu):  # limit hands may omit fu
                problems.append(f"P{w.seat} scored {w.han} han {w.fu} fu "
                                f"(record {rw.han} han {rw.fu} fu)")
            if w.points != rw.points:
                problems.append(f"P{w.seat} win worth {w.points} (record {rw.points})")
    else:
        want = list(h.draw.deltas) if h.draw else [0] * len(h.scores)
        kind = h.draw.kind if h.draw else None
        got = rec.draw_kind
        if kind and got != kind and not (kind == "exhaustive" and got == "exhaustive"):
            problems.append(f"hand ended as {got} (record {kind})")
    if ours != want:
        problems.append(f"deltas {ours} (record {want})")
    return problems


CardChecker = Callable[[RecordedGame, Preset], "ReplayReport"]


def replay_game(game: RecordedGame, base: Preset, card_checker: CardChecker | None = None
                ) -> ReplayReport:
    """Replay every hand of a recorded game and check it (see the module docstring). A card
    game's mjai log goes to ``card_checker`` (the simulation layer plays such a match again:
    :func:`pipeline.sim.card_log.check_card_log`), or else only its chain of scores is
    checked."""
    if game.rules.get("cards"):
        return card_checker(game, base) if card_checker else check_card_game(game)
    report = ReplayReport(files=1)
    preset = preset_for(game, base)
    first = game.hands[0] if game.hands else None
    progress = MatchProgress(scores=[]) if first is None else MatchProgress(
        scores=list(first.scores), dealer=first.dealer, round_wind=first.round_wind,
        hand_number=first.hand_number, honba=first.honba, sticks=first.sticks)
    for i, h in enumerate(game.hands):
        report.hands += 1
        defect = record_defect(h)
        if defect is not None:
            report.skipped.append(Mismatch(game.source, hand_name(h), defect))
            continue
        before = len(report.mismatches)
        rec = replay_hand(h, preset, game.source, report)
        if rec is None:
            continue
        advance(progress, rec, preset)
        nxt = game.hands[i + 1] if i + 1 < len(game.hands) else None
        if nxt is not None:
            got = (progress.dealer, progress.round_wind, progress.hand_number, progress.honba,
                   progress.sticks, list(progress.scores))
            want = (nxt.dealer, nxt.round_wind, nxt.hand_number, nxt.honba, nxt.sticks,
                    list(nxt.scores))
            if progress.finished:
                report.mismatches.append(Mismatch(game.source, hand_name(h),
                                                  "engine ended the match, record goes on"))
            elif got != want:
                report.mismatches.append(Mismatch(
                    game.source, hand_name(h),
                    f"next hand (dealer, wind, number, honba, sticks, scores) {got} "
                    f"(record {want})"))
            progress = MatchProgress(scores=list(nxt.scores), dealer=nxt.dealer,
                                     round_wind=nxt.round_wind, hand_number=nxt.hand_number,
                                     honba=nxt.honba, sticks=nxt.sticks)
        elif game.match_over and len(game.hands) > 1:
            if not progress.finished:
                report.mismatches.append(Mismatch(game.source, hand_name(h),
                                                  "record ends the match, engine goes on"))
        if nxt is None and game.final_scores is not None and len(game.hands) > 1:
            scores = list(progress.scores)
            if progress.sticks and preset.leftover_sticks_to_first:
                top = max(range(len(scores)), key=lambda s: (scores[s], -s))
                scores[top] += 1000 * progress.sticks
            if scores != list(game.final_scores):
                report.mismatches.append(Mismatch(game.source, "end of match",
                                                  f"final scores {scores} (record "
                                                  f"{list(game.final_scores)})"))
        if len(report.mismatches) == before:
            if nxt is None and game.cut:
                # the file was cut off after this hand's result: what comes next (dealer,
                # honba, scores, the end of the match) cannot be checked
                report.incomplete.append(Mismatch(game.source, hand_name(h), (
                    "the record is cut off after this hand (no next hand or end of match)")))
            else:
                report.passed += 1
    return report


CARD_GAME = ("a card game: its abilities (saki_ability events) are not replayed from mjai, only "
             "the chain of scores is checked; replay its run's match with `saki show`")


def check_card_game(game: RecordedGame) -> ReplayReport:
    """A card game's mjai log (docs/mjai-extension.md): each hand is skipped (abilities cannot
    be replayed from the log), but each hand must start from the scores the one before ended
    with (every ability's payment is in the deltas)."""
    report = ReplayReport(files=1)
    for h, nxt in zip(game.hands, [*game.hands[1:], None], strict=True):
        report.hands += 1
        if not h.complete:
            report.incomplete.append(Mismatch(game.source, hand_name(h),
                                              "the log stops mid-hand"))
            continue
        report.skipped.append(Mismatch(game.source, hand_name(h), CARD_GAME))
        if nxt is not None and h.end_scores is not None and list(h.end_scores) != \
                list(nxt.scores):
            report.mismatches.append(Mismatch(
                game.source, hand_name(h), f"the next hand starts from {list(nxt.scores)}, "
                f"the deltas give {list(h.end_scores)}"))
    return report


# The rules a record is replayed under when no preset is named, by its number of players.
DEFAULT_PRESETS = {4: "online-hanchan", 3: "tenhou-sanma"}


def replay_paths(paths: list[str | Path], preset_name: str | None = None, *,
                 strict: bool = False, card_checker: CardChecker | None = None
                 ) -> ReplayReport:
    """Replay every record file under the given files or folders, each under the rules of its
    own number of players: ``preset_name`` (whose count must be the record's), or else
    :data:`DEFAULT_PRESETS`, adjusted to the record's rule flags (:func:`preset_for`).

    A file that cannot be replayed (unreadable or damaged, a preset of another player count, or
    with ``strict`` a record that stops mid-hand) is refused: named with the reason in
    ``report.refused``, and the other files are still replayed. A record that stops mid-hand is
    otherwise replayed up to its last action and that hand counted as incomplete.
    """
    named = load_preset(preset_name) if preset_name is not None else None
    defaults: dict[int, Preset] = {}
    report = ReplayReport()
    files = _expand(paths)
    if not files:
        shown = ", ".join(str(p) for p in paths)
        raise FileNotFoundError(f"{shown}: no game records ({', '.join(RECORD_SUFFIXES)}) "
                                "found")
    for path in files:
        try:
            game = load_record(path)
        except RecordError as exc:
            report.refused.append(str(exc))
            continue
        if named is None:
            if game.seats not in defaults:
                defaults[game.seats] = load_preset(DEFAULT_PRESETS[game.seats])
            base = defaults[game.seats]
        elif named.players != game.seats:
            report.refused.append(
                f"{game.source}: a {_count(game.seats)}-player record, but preset "
                f"{named.name} is for {_count(named.players)} players; name a "
                f"{_count(game.seats)}-player preset (such as "
                f"{DEFAULT_PRESETS[game.seats]}) or leave --preset out to replay each record "
                "under its own player count")
            continue
        else:
            base = named
        cut = next((h for h in game.hands if not h.complete), None)
        if strict and (cut is not None or game.cut):
            if cut is not None:
                where = f"{hand_name(cut)}: the record stops mid-hand (no win or draw recorded)"
            else:
                where = (f"after {hand_name(game.hands[-1])}: the record is cut off before the "
                         "end of the match")
            report.refused.append(f"{game.source}: {where}; replay without --strict to check "
                                  "it up to its last action")
            continue
        report.merge(replay_game(game, base, card_checker))
    return report


def _count(players: int) -> str:
    return {3: "three", 4: "four"}.get(players, str(players))


def _expand(paths: list[str | Path]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*") if x.is_file()
                                and x.name.lower().endswith(RECORD_SUFFIXES)))
        else:
            files.append(p)
    return files
