"""riichienv as a second engine: games it plays checked by ours, and ours checked by it.

riichienv (a Rust riichi engine with a Python front, on PyPI) is an optional dependency: every
function here imports it when called and :func:`riichienv_missing` says why it cannot be used.

* :func:`riichienv_games` has riichienv play seeded hanchan between :class:`CaseHunter` agents,
  which call, riichi, kan and abort often enough that the rare cases (chankan, rinshan, four
  kans, double ron, nagashi mangan, nine terminals) occur; the mjai logs it writes are replayed
  by our engine (``saki replay`` reads them) and :func:`count_cases` counts what they hold.
* :func:`referee_hand` gives one of our hands to riichienv: the same wall, then every recorded
  action chosen among riichienv's own legal ones, and compares the events riichienv writes and
  the deltas it pays with ours.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.bots.shanten import discard_shanten
from pipeline.rules.records import HandRecord
from pipeline.rules.wall import DEAL_SIZE, INDICATORS, LIVE_END, RINSHAN, URA

RIICHIENV_VERSION = "0.4.11"  # the version the preset and docs/riichienv.md were checked with
TERMINALS = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])


def riichienv_missing() -> str | None:
    """Why riichienv cannot be used here (not installed, or fails to load), or None."""
    try:
        import riichienv  # noqa: F401
    except Exception as exc:  # an import error or a wheel that does not load on this machine
        return (f"riichienv is not installed or does not load ({type(exc).__name__}: {exc}); "
                f"install it with: pip install riichienv=={RIICHIENV_VERSION}")
    return None


@dataclass(frozen=True)
class Style:
    """How often a :class:`CaseHunter` seat takes each kind of optional action."""

    call: float      # pon / chi when offered
    kan: float       # any kan when offered
    riichi: float
    ron: float       # a seat that passes a ron becomes furiten (rule H-09)
    abort: float     # nine terminals
    nagashi: float   # chance to throw a terminal or honor first, whatever shanten says


STYLES = (
    Style(call=0.5, kan=0.95, riichi=0.9, ron=0.97, abort=0.9, nagashi=0.0),
    Style(call=0.15, kan=0.8, riichi=1.0, ron=1.0, abort=0.7, nagashi=0.0),
    Style(call=0.0, kan=0.5, riichi=0.5, ron=0.9, abort=0.0, nagashi=0.97),
    Style(call=0.8, kan=1.0, riichi=0.8, ron=1.0, abort=1.0, nagashi=0.2),
)


class CaseHunter:
    """A seeded riichienv agent that plays for the rare cases: it wins whenever it may (mostly),
    kans whenever it may, riichis, calls and aborts by its :class:`Style`, and discards by
    shanten (a nagashi-minded seat throws terminals and honors first)."""

    def __init__(self, seed: int, style: Style) -> None:
        self.rng = random.Random(seed)
        self.style = style

    def act(self, obs: Any) -> Any:
        from riichienv import ActionType as T

        legal = obs.legal_actions()
        by: dict[Any, list[Any]] = {}
        for a in legal:
            by.setdefault(a.action_type, []).append(a)
        r = self.rng.random
        s = self.style
        for kind, chance in ((T.TSUMO, 1.0), (T.RON, s.ron), (T.KITA, 0.9),
                             (T.KYUSHU_KYUHAI, s.abort),
                             (T.ANKAN, s.kan), (T.KAKAN, s.kan), (T.DAIMINKAN, s.kan),
                             (T.RIICHI, s.riichi)):
            if kind in by and r() < chance:
                return self.rng.choice(by[kind])
        calls = [a for a in by.get(T.PON, []) + by.get(T.CHI, []) if self._keeps_yaku(a, obs)]
        if calls and r() < s.call:
            return self.rng.choice(calls)
        discards = by.get(T.DISCARD)
        if not discards:
            return by[T.PASS][0] if T.PASS in by else legal[0]
        hand = list(obs.hand)
        if r() < s.nagashi:
            honest = [a for a in discards if a.tile // 4 in TERMINALS]
            if honest:
                return self.rng.choice(honest)
        counts = [0] * 34
        for t in hand:
            counts[t // 4] += 1
        melds = (14 - len(hand)) // 3
        after = discard_shanten(counts, melds) if len(hand) % 3 == 2 else {}
        return min(discards, key=lambda a: (after.get(a.tile // 4, 9), r()))


    def _keeps_yaku(self, call: Any, obs: Any) -> bool:
        """A call that leaves a likely yaku: a value honor pon, or a hand of simples only
        (open tanyao); a caller-minded seat sometimes calls anyway (yaku-less hands happen)."""
        tile = call.tile // 4
        if tile >= 31 or (tile >= 27 and self.rng.random() < 0.5):
            return True
        rest = list(obs.hand)
        for t in call.consume_tiles:
            if t in rest:
                rest.remove(t)
        simple = all(t // 4 not in TERMINALS for t in [*rest, call.tile])
        return simple or self.rng.random() < self.style.call / 4


def riichienv_game(seed: int, *, length: str = "hanchan", players: int = 4
                   ) -> list[dict[str, Any]]:
    """One riichienv game (Tenhou rules) between four (or three: sanma, with kita) seeded
    :class:`CaseHunter` seats, as the mjai events riichienv logs."""
    from riichienv import GameRule, RiichiEnv

    mode = (2 if length == "hanchan" else 1) + (3 if players == 3 else 0)
    env = RiichiEnv(game_mode=mode, seed=seed, rule=GameRule.default_tenhou())
    rng = random.Random(seed)
    agents = [CaseHunter(rng.getrandbits(32), STYLES[rng.randrange(len(STYLES))])
              for _ in range(players)]
    obs = env.reset()
    steps = 0
    while not env.done():
        actions = {pid: agents[pid].act(o) for pid, o in obs.items() if o.legal_actions()}
        obs = env.step(actions)
        steps += 1
        if steps > 20000:
            raise RuntimeError(f"riichienv game {seed} did not end")
    return [dict(e) for e in env.mjai_log]


def riichienv_games(count: int, seed: int = 0, *, length: str = "hanchan", players: int = 4
                    ) -> list[list[dict[str, Any]]]:
    """``count`` riichienv games, game ``i`` from seed ``seed * 100003 + i``."""
    return [riichienv_game(seed * 100003 + i, length=length, players=players)
            for i in range(count)]


_REASON_NAMES = {"exhaustive_draw": "exhaustive", "kyushu_kyuhai": "nine_terminals",
                 "sufuurenta": "four_winds", "suucha_riichi": "four_riichi",
                 "suukansansen": "four_kans_abort", "sanchaho": "triple_ron",
                 "nagashimangan": "nagashi_mangan"}
_KANS = ("ankan", "kakan", "daiminkan")


def count_cases(games: Iterable[Sequence[dict[str, Any]]]) -> Counter[str]:
    """How often each case occurs in mjai logs: hands, wins, riichi, each kind of kan, and the
    rare ones: double ron, chankan, rinshan, hands with four kans, and each kind of draw
    (exhaustive, nine terminals, four winds, four riichi, four kans, triple ron, nagashi)."""
    out: Counter[str] = Counter()
    for events in games:
        hand: list[dict[str, Any]] = []
        for e in events:
            kind = e["type"]
            if kind == "start_kyoku":
                hand = []
                out["hands"] += 1
            hand.append(e)
            if kind in (*_KANS, "reach_accepted", "kita"):
                out["riichi" if kind == "reach_accepted" else kind] += 1
            elif kind == "ryukyoku":
                out[_REASON_NAMES.get(e.get("reason", ""), "other_draw")] += 1
            if kind != "end_kyoku":
                continue
            horas = [x for x in hand if x["type"] == "hora"]
            out["wins"] += len(horas)
            out["double_ron"] += len(horas) == 2
            plays = [x["type"] for x in hand if x["type"] not in ("dora", "hora", "end_kyoku",
                                                                  "reach_accepted")]
            if horas and plays[-1] == "kakan":
                out["chankan"] += 1
            if horas and horas[0]["actor"] == horas[0]["target"] and len(plays) > 1 and \
                    plays[-2] in _KANS:
                out["rinshan"] += 1
            out["four_kans"] += sum(t in _KANS for t in plays) == 4
    return out


def riichienv_wall(start_wall: Sequence[int]) -> list[int]:
    """Our wall order (:mod:`pipeline.rules.wall` layout) in the order ``RiichiEnv.reset``
    takes: the deal 4-4-4-1 from the front starting with the dealer, the live wall from
    index 52, replacement tiles from the end (135, 134, ...), indicators at 131, 129, ...
    with their ura tiles at 130, 128, ... (found by dealing ``range(136)``). Both orders start
    with the dealer's hand."""
    w: list[int | None] = [None] * 136
    for k in range(4):
        hand = start_wall[13 * k: 13 * k + 13]
        for i, tile in enumerate(hand):
            if i < 12:
                w[16 * (i // 4) + 4 * k + i % 4] = tile
            else:
                w[48 + k] = tile
    for i in range(DEAL_SIZE, LIVE_END):
        w[i] = start_wall[i]
    for i, tile in enumerate(start_wall[RINSHAN]):
        w[135 - i] = tile
    for i, tile in enumerate(start_wall[INDICATORS]):
        w[131 - 2 * i] = tile
    for i, tile in enumerate(start_wall[URA]):
        w[130 - 2 * i] = tile
    assert all(t is not None for t in w)
    return [t for t in w if t is not None]


def _plays(events: Sequence[dict[str, Any]], *, bookkeeping: bool = True
           ) -> list[dict[str, Any]]:
    """The events both engines must write alike, in the fields both write (without
    ``bookkeeping``: also without ``dora`` and ``reach_accepted``, whose place differs)."""
    keep = {"tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "reach", "hora",
            "ryukyoku"}
    if bookkeeping:
        keep |= {"reach_accepted", "dora"}
    out = []
    for e in events:
        if e["type"] not in keep:
            continue
        e = {k: v for k, v in e.items() if k in ("type", "actor", "target", "pai", "consumed",
                                                   "tsumogiri", "dora_marker", "reason")}
        if e["type"] == "ankan":
            e.pop("pai", None)  # riichienv names the kan tile, our log does not
        if "consumed" in e:
            e["consumed"] = sorted(e["consumed"])
        out.append(e)
    return out


def riichienv_read(text: str, end_scores: Sequence[Sequence[int]]) -> list[str]:
    """Load an mjai log with riichienv's own reader (``MjaiReplay``) and step through every
    hand (riichienv stops on a desync); each hand must end with ``end_scores[i]``. Returns
    the disagreements (empty: none)."""
    import tempfile
    from pathlib import Path

    from riichienv import MjaiReplay

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        path.write_text(text)
        try:
            kyokus = list(MjaiReplay.from_jsonl(str(path)).take_kyokus())
            problems = []
            for i, kyoku in enumerate(kyokus):
                for _ in kyoku.steps():
                    pass
                if i < len(end_scores) and list(kyoku.end_scores) != list(end_scores[i]):
                    problems.append(f"hand {i}: riichienv ends with {list(kyoku.end_scores)}, "
                                    f"ours with {list(end_scores[i])}")
        except Exception as exc:  # riichienv reports a desync or an unreadable event so
            return [f"riichienv could not step through the log: {exc}"]
    if len(kyokus) != len(end_scores):
        problems.append(f"riichienv read {len(kyokus)} hands, the log has {len(end_scores)}")
    return problems


@dataclass
class Verdict:
    """riichienv's view of one of our hands: what it disagreed with, and the hand as it logged
    it (``start_kyoku`` to ``end_kyoku``, in riichienv's own words)."""

    problems: list[str]
    events: list[dict[str, Any]]

    @property
    def ok(self) -> bool:
        return not self.problems


def referee_hand(rec: HandRecord, events: Sequence[dict[str, Any]]) -> Verdict:
    """Play one of our hands in riichienv and list every disagreement (empty: none).

    ``events`` is the hand as our mjai export writes it (``start_kyoku`` to ``end_kyoku``).
    riichienv gets the hand's wall and starting state; each seat then takes the action our log
    shows from riichienv's legal actions (an action riichienv does not offer is a desync).
    After the hand the two logs must hold the same events, and each hora and ryukyoku the same
    deltas.
    """
    from riichienv import ActionType as T
    from riichienv import GameRule, RiichiEnv

    env_box: list[Any] = []
    problems = _referee(rec, events, env_box, T, GameRule, RiichiEnv)
    env, start = env_box
    hand = [env.mjai_log[start], *_one_hand(env.mjai_log[start + 1:]), {"type": "end_kyoku"}]
    return Verdict(problems, [dict(e) for e in hand])


def _referee(rec: HandRecord, events: Sequence[dict[str, Any]], env_box: list[Any], T: Any,
             GameRule: Any, RiichiEnv: Any) -> list[str]:
    if rec.start is None:
        raise ValueError("the hand record holds no starting state to replay")
    wall = riichienv_wall(rec.start.wall)
    env = RiichiEnv(game_mode=2, seed=0, rule=GameRule.default_tenhou())
    obs = env.reset(oya=rec.dealer, wall=wall, round_wind=rec.round_wind,
                    scores=[s.start_score for s in rec.seats], honba=rec.honba,
                    kyotaku=rec.sticks_start)
    start = max(i for i, e in enumerate(env.mjai_log) if e["type"] == "start_kyoku")
    env_box.extend([env, start])
    ours = [e for e in events if e["type"] not in ("start_kyoku", "end_kyoku")]
    mine = _plays(ours, bookkeeping=False)
    problems: list[str] = []
    for _ in range(2000):
        log = _one_hand(env.mjai_log[start + 1:])
        theirs = _plays(log, bookkeeping=False)
        for i, (x, y) in enumerate(zip(mine, theirs, strict=False)):
            if x != y and not (x["type"] == y["type"] == "hora"):
                return [f"event {i}: ours {x}, riichienv {y}"]
        if env.done() or any(e["type"] in ("hora", "ryukyoku") for e in log):
            break
        pending = mine[len(theirs):]
        actions = {}
        for pid, o in obs.items():
            legal = o.legal_actions()
            if not legal:
                continue
            choice = _choose(pid, legal, pending, T, env.drawn_tile)
            if choice is None:
                shown = ", ".join(str(a.to_mjai()) for a in legal[:8])
                return [f"P{pid}: our next event {pending[:1]} is not among riichienv's legal "
                        f"actions ({shown})"]
            actions[pid] = choice
        obs = env.step(actions)
    theirs_all = _one_hand(env.mjai_log[start + 1:])
    a, b = _plays(ours, bookkeeping=False), _plays(theirs_all, bookkeeping=False)
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y and not (x["type"] == y["type"] == "hora"):
            problems.append(f"event {i}: ours {x}, riichienv {y}")
            return problems
    if len(a) != len(b):
        extra = a[len(b):][:2] or b[len(a):][:2]
        problems.append(f"ours has {len(a)} events, riichienv {len(b)} (first extra {extra})")
    for kind in ("dora", "reach_accepted"):  # the same ones, wherever each log puts them
        mine_k = [e for e in _plays(ours) if e["type"] == kind]
        theirs_k = [e for e in _plays(theirs_all) if e["type"] == kind]
        if mine_k != theirs_k:
            problems.append(f"{kind}: ours {mine_k}, riichienv {theirs_k}")
    ends = [e for e in ours if e["type"] in ("hora", "ryukyoku")]
    our_deltas = [(e["type"], e.get("actor"), e.get("deltas")) for e in ends]
    their_deltas = [(e["type"], e.get("actor"), e.get("deltas")) for e in theirs_all
                    if e["type"] in ("hora", "ryukyoku")]
    if our_deltas != their_deltas:
        problems.append(f"deltas ours {our_deltas}, riichienv {their_deltas}")
    return problems


def _one_hand(log: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """riichienv's events up to its first ``end_kyoku`` (it deals on by itself after it)."""
    out = []
    for e in log:
        if e["type"] in ("end_kyoku", "start_kyoku"):
            break
        out.append(e)
    return out


def _choose(pid: int, legal: list[Any], pending: list[dict[str, Any]], T: Any,
            drawn: int | None) -> Any:
    """The riichienv action of seat ``pid`` that plays our next event, or None (a desync).
    A discard of a tile the seat holds twice takes the drawn copy or the other by the event's
    ``tsumogiri``."""
    def find(kind: Any) -> Any:
        return next((a for a in legal if a.action_type == kind), None)

    nxt = pending[0] if pending else None
    if nxt is not None and nxt["type"] == "hora":
        wins = [e for e in pending if e["type"] == "hora"]
        if any(e["actor"] == pid for e in wins):
            return find(T.TSUMO) if nxt["actor"] == nxt["target"] == pid else find(T.RON)
        return find(T.PASS)
    if nxt is not None and nxt["type"] == "ryukyoku":
        reason = nxt.get("reason")
        nine = find(T.KYUSHU_KYUHAI)
        if nine is not None and reason in ("kyushu_kyuhai", None):
            return nine
        ron = find(T.RON)
        if ron is not None and reason == "sanchaho":  # three rons on one discard
            return ron
        return find(T.PASS)
    if nxt is None or nxt.get("actor") != pid or nxt["type"] == "tsumo":
        return find(T.PASS)
    fits = [a for a in legal if _same(a.to_mjai(), nxt)]
    if nxt["type"] == "dahai" and len(fits) > 1:
        fits.sort(key=lambda a: (a.tile == drawn) != bool(nxt.get("tsumogiri")))
    return fits[0] if fits else None


def _same(mjai: Any, event: dict[str, Any]) -> bool:
    import json

    theirs = json.loads(mjai) if isinstance(mjai, str) else dict(mjai)
    if theirs.get("type") != event["type"]:
        return False
    for key in ("pai", "target"):
        if key in event and key in theirs and theirs[key] != event[key]:
            return False
    if "consumed" in event and "consumed" in theirs and \
            sorted(theirs["consumed"]) != sorted(event["consumed"]):
        return False
    return True
