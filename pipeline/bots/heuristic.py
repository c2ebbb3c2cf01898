"""A heuristic bot that plays like a decent human: efficient, value-aware, and able to fold.

Each discard is scored as expected gain: the chance this hand wins after the discard times its
value, minus the chance the tile deals in times what the threatening hands are worth. With no
threat on the table this reduces to tile efficiency (shanten, then acceptance) with value kept
(dora, red fives, value honors, the yaku an open hand relies on). Calls are taken when they speed
up a hand that keeps a yaku; riichi unless a scoring hand with a good wait prefers to stay quiet.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.bots.danger import safe_types, tile_danger
from pipeline.bots.evaluate import (
    acceptance,
    dora_types,
    estimate_han,
    open_direction,
    points_for,
    value_types,
    winning_outs,
    yaku_path,
)
from pipeline.bots.shanten import discard_shanten, shanten, visible_counts
from pipeline.bots.style import BotStyle, style
from pipeline.rules.actions import Action, ActionKind, Meld, MeldKind
from pipeline.rules.agents import Observation
from pipeline.rules.hand import kuikae_types
from pipeline.tiles import RED_FIVE_IDS, TERMINAL_HONOR_TYPES, counts34

EXACT_SHANTEN = 1
# Calibrated against Tenhou top-room rates: a style's aggression of 1 means this much weight on
# the bot's own hand value against the danger of a tile (see `saki bots calibrate`).
# Expected deal-in cost (points) above which a face-down discard is worth spending.
FACE_DOWN_MIN_DANGER = 100
BASE_AGGRESSION = 1.8
# A riichi player is already waiting: a hand two or more steps from tenpai seldom wins that race
# and has more unsafe tiles to pass before it gets there, so its chance counts this much.
FAR_VS_RIICHI = 0.25
_CLAIMS = (ActionKind.PON, ActionKind.CHI, ActionKind.MINKAN)


@dataclass
class Threat:
    seat: int
    weight: float       # how likely the opponent is ready to win (riichi = 1)
    value: int          # what a deal-in would cost
    safe: set[int]      # types that cannot deal in to this opponent


def win_chance(sh: int, accept: int, draws_left: int) -> float:
    """Rough chance that a hand at this shanten and acceptance wins before the wall runs out."""
    turns = max(0, draws_left) / 4
    if sh < 0:
        return 1.0
    if sh == 0:
        per_turn = min(0.5, accept / 30)  # own draw plus three discards to ron
        return min(0.85, 1 - (1 - per_turn) ** turns) if accept else 0.0
    if sh == 1:
        return min(0.6, accept / 40) * min(1.0, turns / 8)
    if sh == 2:
        return 0.25 * min(1.0, turns / 12)
    return 0.03 * min(1.0, turns / 14)


def connectivity_accept(counts: Sequence[int], t: int) -> float:
    """A cheap stand-in for acceptance far from tenpai: the less a tile connects to the rest of
    the hand, the more the hand keeps by letting it go. ``counts`` still holds ``t``."""
    c = counts[t] - 1
    if t >= 27:
        link = 3.0 * c
    else:
        n = t % 9
        link = 3.0 * c
        for d, w in ((-2, 1.0), (-1, 2.0), (1, 2.0), (2, 1.0)):
            if 0 <= n + d <= 8 and counts[t + d]:
                link += w
        link += 0.6 if 2 <= n <= 6 else (0.3 if n in (1, 7) else 0.0)
    return 20.0 - 4.0 * link


class HeuristicBot:
    """The project's main player model. Style knobs come from ``data/bots/styles.toml``."""

    def __init__(self, seed: int = 0, bot_style: BotStyle | str = "default") -> None:
        self.rng = random.Random(seed)
        self.style = style(bot_style) if isinstance(bot_style, str) else bot_style

    # ------------------------------------------------------------------ the agent contract

    def decide(self, obs: Observation, legal: list[Action]) -> Action:
        for a in legal:
            if a.kind in (ActionKind.TSUMO, ActionKind.RON):
                return a
        if legal[-1].kind == ActionKind.PASS:
            if legal[0].kind == ActionKind.ABILITY and legal[0].detail.endswith(":extra_turn"):
                return legal[0] if self._wants_extra_turn(obs) else legal[-1]
            return self._claim(obs, legal)
        return self._own_turn(obs, legal)

    def _wants_extra_turn(self, obs: Observation) -> bool:
        """Another draw helps a hand that is still playing; a folding hand declines it, since
        the extra discard is one more chance to deal in (rule C-17: extra turns are optional)."""
        threats = self._threats(obs)
        if not threats:
            return True
        melds = obs.melds(obs.seat)
        return shanten(counts34(obs.concealed), len(melds)) <= 1

    def pick(self, starting_hand: Sequence[int], team: Sequence[str]) -> str:
        """The character to play this hand; cards come later, so the first of the team."""
        return team[0]

    # ------------------------------------------------------------------ table reading

    def _threats(self, obs: Observation) -> list[Threat]:
        threats = []
        dora = None
        for s in range(4):
            if s == obs.seat:
                continue
            melds = obs.melds(s)
            riichi = obs.in_riichi(s)
            if not riichi:
                n_open = sum(1 for m in melds if m.is_open)
                if not (n_open >= 3 or (n_open == 2 and obs.tiles_left < 20)):
                    continue
            if dora is None:
                dora = dora_types(obs.dora_indicators)
            own = [d.tile // 4 for d in obs.pond(s)]
            dealer = s == obs.dealer
            shown_dora = sum(1 for m in melds for x in m.tiles if x // 4 in dora or
                             x in RED_FIVE_IDS)
            if riichi:
                order = obs.riichi_order(s)
                later = [] if order is None else [
                    d.tile // 4 for p in range(4) if p != s for d in obs.pond(p)
                    if d.order > order]
                value = 6000 + 1500 * shown_dora
                threats.append(Threat(s, 1.0, int(value * (1.5 if dealer else 1)),
                                      safe_types(own, later)))
                continue
            weight = 0.5 if n_open >= 3 else 0.25
            value = 3000 + 2000 * shown_dora
            threats.append(Threat(s, weight, int(value * (1.5 if dealer else 1)), set(own)))
        return threats

    def _danger(self, t: int, threats: list[Threat], visible: Sequence[int]) -> float:
        return sum(th.weight * th.value * tile_danger(t, th.safe, visible) for th in threats)

    # ------------------------------------------------------------------ own turn

    def _own_turn(self, obs: Observation, legal: list[Action]) -> Action:
        kinds = {a.kind for a in legal}
        counts = counts34(obs.concealed)
        seat = obs.seat
        melds = obs.melds(seat)
        nm = len(melds)
        if ActionKind.NINE_TERMINALS in kinds:
            kinds_held = sum(1 for t in TERMINAL_HONOR_TYPES if counts[t])
            if kinds_held < 11:
                return next(a for a in legal if a.kind == ActionKind.NINE_TERMINALS)
        face_down = [a for a in legal
                     if a.kind == ActionKind.ABILITY and a.detail.endswith(":face_down")]
        if obs.in_riichi(seat):
            for a in legal:
                if a.kind == ActionKind.ANKAN:
                    return a  # legal in riichi only when the wait stays the same
            plain = next(a for a in legal if a.kind == ActionKind.DISCARD)
            if face_down and self._danger(plain.tile // 4, self._threats(obs),
                                          visible_counts(obs)) >= FACE_DOWN_MIN_DANGER:
                return next(a for a in face_down if a.tile == plain.tile)
            return plain
        visible = visible_counts(obs)
        unseen = [4 - v for v in visible]
        threats = self._threats(obs)
        if face_down and threats:
            hidden = self._face_down_choice(obs, counts, melds, unseen, visible, threats,
                                            face_down)
            if hidden is not None:
                return hidden
        if ActionKind.ANKAN in kinds or ActionKind.KAKAN in kinds:
            kan = self._kan_choice(legal, counts, nm, threats)
            if kan is not None:
                return kan
        discards = [a for a in legal if a.kind == ActionKind.DISCARD]
        choice_type, riichi_ok = self._best_discard(obs, counts, melds, unseen, visible,
                                                    threats, {a.tile // 4 for a in discards})
        riichi = [a for a in legal if a.kind == ActionKind.RIICHI and a.tile // 4 == choice_type]
        if riichi and riichi_ok and self._wants_riichi(obs, counts, melds, unseen, choice_type,
                                                       threats):
            return self._physical(riichi, obs.drawn)
        return self._physical([a for a in discards if a.tile // 4 == choice_type], obs.drawn)

    def _face_down_choice(self, obs: Observation, counts: list[int], melds: Sequence[Meld],
                          unseen: list[int], visible: Sequence[int], threats: list[Threat],
                          face_down: list[Action]) -> Action | None:
        """A face-down discard cannot deal in (rule C-13): under a threat, let the most
        efficient tile go face down when it would otherwise be dangerous."""
        allowed = {a.tile // 4 for a in face_down}
        best, _ = self._best_discard(obs, counts, melds, unseen, visible, [], allowed)
        if self._danger(best, threats, visible) < FACE_DOWN_MIN_DANGER:
            return None
        return self._physical([a for a in face_down if a.tile // 4 == best], obs.drawn)

    @staticmethod
    def _physical(options: list[Action], drawn: int | None) -> Action:
        """Among copies of one type: the drawn tile (tsumogiri), else a non-red copy."""
        for a in options:
            if a.tile == drawn:
                return a
        plain = [a for a in options if a.tile not in RED_FIVE_IDS]
        return (plain or options)[0]

    def _kan_choice(self, legal: list[Action], counts: list[int], nm: int,
                    threats: list[Threat]) -> Action | None:
        if threats:
            return None
        base = min(self._after_discard_shanten(counts, nm))
        for a in legal:
            if a.kind == ActionKind.ANKAN:
                t = a.tiles[0] // 4
                counts[t] -= 4
                after = shanten(counts, nm + 1)
                counts[t] += 4
                if after <= base:
                    return a
            elif a.kind == ActionKind.KAKAN:
                t = a.tile // 4
                counts[t] -= 1
                after = shanten(counts, nm)
                counts[t] += 1
                if after <= base:
                    return a
        return None

    def _after_discard_shanten(self, counts: list[int], nm: int) -> list[int]:
        return list(discard_shanten(counts, nm).values())

    def _best_discard(self, obs: Observation, counts: list[int], melds: Sequence[Meld],
                      unseen: list[int], visible: Sequence[int], threats: list[Threat],
                      allowed: set[int]) -> tuple[int, bool]:
        """The discard type with the best expected gain; and whether riichi fits with it."""
        nm = len(melds)
        seat = obs.seat
        values = value_types(obs.seat_wind, obs.round_wind)
        dora = dora_types(obs.dora_indicators)
        closed = all(not m.is_open for m in melds)
        kuitan = True
        direction = None if closed else open_direction(counts, melds, values, kuitan)
        after = discard_shanten(counts, nm)
        sh_of = {t: after[t] for t in allowed}
        best_sh = min(sh_of.values())
        han = estimate_han(counts, melds, obs.concealed, dora, values, riichi=closed)
        # a finished hand usually scores more than is visible now (tsumo, ura, pinfu, ippatsu)
        han += 1.5 if closed else 0.5
        my_value = points_for(han, obs.dealer == seat) * self.style.aggression * BASE_AGGRESSION
        draws_left = obs.tiles_left
        scored = []
        exact = best_sh <= EXACT_SHANTEN  # acceptance is worth its cost only near tenpai
        far = FAR_VS_RIICHI if best_sh >= 2 and any(th.weight >= 1.0 for th in threats) else 1.0
        limit = best_sh + (1 if threats else 0)
        candidates = [t for t, sh in sh_of.items() if sh <= limit]
        keeps = self._keep_values(candidates, counts, dora, values, direction, obs.concealed)
        if not threats and len(candidates) == 1:
            exact = False  # the only candidate: its acceptance changes nothing
        for t in candidates:
            sh = sh_of[t]
            if exact or threats:
                counts[t] -= 1
                accept = acceptance(counts, nm, unseen) if sh <= EXACT_SHANTEN else \
                    connectivity_accept(counts, t)
                counts[t] += 1
            else:
                accept = connectivity_accept(counts, t)
            keep = keeps[t]
            if threats:
                gain = win_chance(sh, accept, draws_left) * my_value * far
                gain -= self._danger(t, threats, visible)
                score = (gain - keep * 100, 0.0)
            else:
                score = (-sh, accept - keep * 2.5)
            scored.append((score, -t, t))
        scored.sort(reverse=True)
        return scored[0][2], True

    def _keep_values(self, types: Sequence[int], counts: Sequence[int], dora: Sequence[int],
                     values: set[int], direction: str | None, tiles: Sequence[int]
                     ) -> dict[int, float]:
        """How much the hand loses in value by letting each type go (in acceptance units)."""
        w = self.style.value_weight
        red = {x // 4 for x in tiles if x in RED_FIVE_IDS}
        main = None
        if direction == "flush":
            per_suit = [sum(counts[s * 9:(s + 1) * 9]) for s in range(3)]
            main = max(range(3), key=lambda s: per_suit[s])
        out = {}
        for t in types:
            keep = 0.0
            if t in dora:
                keep += 3.0 * w
            if t in red:
                keep += 2.5 * w
            if t in values and counts[t] >= 2:
                keep += 2.0 * w
            if direction == "tanyao" and (t in TERMINAL_HONOR_TYPES):
                keep -= 3.0
            elif direction == "flush":
                if t < 27 and t // 9 != main:
                    keep -= 3.0
            elif direction is None and t >= 27 and t not in values and counts[t] == 1:
                keep -= 0.5  # lone guest winds go first
            out[t] = keep
        return out

    def _wants_riichi(self, obs: Observation, counts: list[int], melds: Sequence[Meld],
                      unseen: list[int], t: int, threats: list[Threat]) -> bool:
        counts[t] -= 1
        outs = winning_outs(counts, len(melds), unseen)
        values = value_types(obs.seat_wind, obs.round_wind)
        han = estimate_han(counts, melds, obs.concealed, dora_types(obs.dora_indicators),
                           values, riichi=False)
        counts[t] += 1
        if outs == 0:
            return False
        if threats and outs < 4 and han < 2:
            return False
        # dama with a scoring hand and a wide wait, more often for a low riichi appetite
        if han >= 3.0 and outs >= 4:
            return self.rng.random() < 0.3 * self.style.riichi_appetite
        return self.rng.random() < min(1.0, 0.97 * self.style.riichi_appetite)

    # ------------------------------------------------------------------ claims

    @staticmethod
    def _open_han(obs: Observation, counts: Sequence[int], melds: Sequence[Meld],
                  values: set[int]) -> float:
        """Han an open hand would show after a call: worth calling for only with some value."""
        tiles = [x for x in obs.concealed]
        return estimate_han(counts, melds, tiles, dora_types(obs.dora_indicators), values,
                            riichi=False)

    def _claim(self, obs: Observation, legal: list[Action]) -> Action:
        passing = legal[-1]
        options = [a for a in legal if a.kind in _CLAIMS]
        if not options:
            return passing
        seat = obs.seat
        counts = counts34(obs.concealed)
        melds = obs.melds(seat)
        nm = len(melds)
        closed = all(not m.is_open for m in melds)
        threats = self._threats(obs)
        before = shanten(counts, nm)
        if threats and before >= 2:
            return passing
        values = value_types(obs.seat_wind, obs.round_wind)
        reach = 2 + (1 if self.style.call_appetite >= 1.3 else 0) \
            - (1 if self.style.call_appetite < 0.8 else 0)
        best, best_key = None, None
        for a in options:
            for x in a.tiles:
                counts[x // 4] -= 1
            if a.kind == ActionKind.MINKAN:
                # the shanten after the kan matters only when everything else allows it
                ok = before == 0 and not threats and not closed
                if ok:
                    after = shanten(counts, nm + 1)
                    ok = after == 0
            else:
                new_meld = Meld(MeldKind.PON if a.kind == ActionKind.PON else MeldKind.CHI,
                                tuple(sorted((*a.tiles, a.tile))), a.tile)
                # no yaku after the call: no call, whatever the shanten
                ok = yaku_path(counts, (*melds, new_meld), values, kuitan=True)
                if ok:
                    forbidden = kuikae_types(a.tile // 4, min(
                        [a.tile // 4, *(x // 4 for x in a.tiles)]) if a.kind == ActionKind.CHI
                        else None)
                    after = min([sh for t, sh in discard_shanten(counts, nm + 1).items()
                                 if t not in forbidden], default=9)
                    honor_pon = a.kind == ActionKind.PON and a.tile // 4 in values
                    ok = (after < before
                          and (honor_pon or after <= reach)
                          and (not threats or after == 0)
                          and (honor_pon or (after == 0 and obs.tiles_left < 36)
                               or self._open_han(obs, counts, (*melds, new_meld), values)
                               >= (1.0 if after <= 1 else 2.0) / self.style.call_appetite))
            for x in a.tiles:
                counts[x // 4] += 1
            if ok:
                key = (after, a.kind == ActionKind.PON)
                if best_key is None or key < best_key:
                    best, best_key = a, key
        return best if best is not None else passing
