"""The engine asks a hook only of the abilities that listen to it, with the same results.

An ability says which hooks may do anything for it (``AbilityHooks.listens``; a card ability
leaves out the hooks none of its card's effects act on), and the hand loop skips the others,
building no view when nobody listens. These tests play hands with every playable card twice,
once so and once with every hook asked of every ability, and require the same event logs (and,
on the full path, that a hook an ability does not listen to changes none of its state and
answers as a hook that does nothing); the pond tiles kept between hook calls are checked
against the ponds at every call.
"""

from __future__ import annotations

import random

import pytest

from pipeline.bots.heuristic import HeuristicBot
from pipeline.cards import registry, table
from pipeline.cards.abilities import CardAbility
from pipeline.cards.catalog import load_catalog
from pipeline.cards.effects import flip_card
from pipeline.rules import hook_points
from pipeline.rules.agents import RandomAgent
from pipeline.rules.hand import play_hand
from pipeline.rules.hooks import AbilityHooks, ClaimView, listens
from pipeline.rules.preset import load_preset
from pipeline.rules.records import HandStart
from pipeline.rules.wall import Wall

PRESET = load_preset("cards-hanchan")
CATALOG = load_catalog("1.2")
PLAYABLE = [c for c in CATALOG if registry.playable(c) and c.in_deck]
# scores vary so that effects tied to a place (last place, points below the start) come up
SCORES = ((30000, 30000, 30000, 30000), (8000, 46000, 36000, 30000),
          (46000, 8000, 30000, 36000), (36000, 30000, 8000, 46000))


def _ability(card_id: str, seat: int) -> object:
    """The seat's ability as the card table builds it: a two-sided card holds both sides."""
    card = CATALOG.card(card_id)
    back = flip_card.two_sided(card)
    front = CardAbility(card, seat)
    if back is None:
        return front
    return flip_card.FlipAbility(front, CardAbility(CATALOG.card(back), seat))


# What a hook that does nothing answers (claim_filter: the actions it was given).
QUIET_ANSWERS = {"claim_filter": "given", "claim_made": None, "before_draw": [],
                 "replace_draw": None, "after_draw": None, "discard_made": None,
                 "discard_passed": None, "discard_actions": [], "late_claims": [],
                 "win_allowed": True, "win_is_chombo": False, "always_wins": False,
                 "switched_off": None, "extra_turn": False, "forced_face_down": False}


def _holders(ability: CardAbility) -> tuple[object, ...]:
    """The ability and its effects: what may keep state."""
    return (ability, *ability.effects)


def _state(ability: CardAbility) -> list[dict]:
    """What the ability keeps (containers copied; the controls and other objects by
    identity)."""
    return [{k: v.copy() if type(v) in (set, list, dict) else v for k, v in vars(o).items()}
            for o in _holders(ability)]


def _same_state(before: list[dict], after: list[dict], ability: CardAbility) -> bool:
    """Equal states; an attribute newly set to its class default counts as unchanged."""
    if before == after:
        return True
    objects = _holders(ability)
    return all({k: v for k, v in a.items() if k in b or getattr(type(o), k, object()) != v}
               == b for o, b, a in zip(objects, before, after, strict=True))


def _quiet_checked(hook: str):
    """The card ability's hook, checked to change nothing and answer as a hook that does
    nothing wherever the ability says it does not listen."""
    original = getattr(CardAbility, hook)

    def checked(self, *args):
        if self.listens(hook):
            return original(self, *args)
        before = _state(self)
        out = original(self, *args)
        assert _same_state(before, _state(self), self), f"{self.name}: silent {hook} changed"
        quiet = args[1] if QUIET_ANSWERS[hook] == "given" else QUIET_ANSWERS[hook]
        assert out == quiet, f"{self.name}: silent {hook} answered {out}"
        return out
    return checked


def _logs(deals: list[tuple[HandStart, list[str], str]], monkeypatch: pytest.MonkeyPatch,
          *, every_hook: bool, checked: bool = False) -> list[list[str]]:
    """The event log of each deal (start, the seats' cards, the agents: "bot" or "random");
    ``checked``: the hooks an ability does not listen to are checked as they are asked."""
    with monkeypatch.context() as m:
        if every_hook:  # the full path: no ability is left out of any hook
            m.setattr(hook_points, "listens", lambda ability, hook: True)
        if checked:
            for hook in QUIET_ANSWERS:
                m.setattr(CardAbility, hook, _quiet_checked(hook))
        logs = []
        for k, (start, cards, kind) in enumerate(deals):
            agents = [HeuristicBot(7 * k + s) if kind == "bot" else RandomAgent(7 * k + s)
                      for s in range(4)]
            abilities = [_ability(c, s) for s, c in enumerate(cards)]
            rec = play_hand(start, PRESET, agents, abilities=abilities)
            logs.append([repr(e) for e in rec.events])
    return logs


def _deals(seed: int) -> list[tuple[HandStart, list[str], str]]:
    """Each playable card at all four seats (bots), then mixed tables of random cards with
    random players (every optional effect taken or declined at random)."""
    rng = random.Random(seed)
    deals = []
    for k, card in enumerate(PLAYABLE):
        start = HandStart(wall=Wall.shuffled(rng).order, dealer=k % 4, scores=SCORES[k % 4])
        deals.append((start, [card.id] * 4, "bot"))
    for k in range(len(PLAYABLE)):
        start = HandStart(wall=Wall.shuffled(rng).order, dealer=k % 4, scores=SCORES[k % 4])
        deals.append((start, [rng.choice(PLAYABLE).id for _ in range(4)], "random"))
    return deals


def test_listening_abilities_play_every_card_as_the_full_path(monkeypatch):
    # hooks left unasked change nothing: the same log as with every hook asked of everyone
    deals = _deals(seed=5)
    skipped = _logs(deals, monkeypatch, every_hook=False)
    full = _logs(deals, monkeypatch, every_hook=True)
    for (_, cards, _), a, b in zip(deals, skipped, full, strict=True):
        assert a == b, f"different logs with {cards}"
    assert sum(len(log) for log in skipped) > 50 * len(deals)  # the hands were played out


def test_hooks_not_listened_to_change_nothing(monkeypatch):
    # every hook asked, each card at all four seats: where an ability says it does not listen,
    # the hook keeps the ability's state and answers as a hook that does nothing
    deals = [d for d in _deals(seed=6) if d[2] == "bot"]
    logs = _logs(deals, monkeypatch, every_hook=True, checked=True)
    assert len(logs) == len(PLAYABLE)


def test_card_ability_is_silent_only_where_its_card_has_no_effect():
    # a card with no claim filter (Nodoka) is not asked about calls; cards with an effect on
    # a hook are asked it
    plain = CardAbility(CATALOG.card("nodoka_haramura"), 0)
    assert not plain.listens("claim_filter") and not plain.listens("late_claims")
    assert plain.listens("scoring") and plain.listens("own_actions")  # not decided here
    kinds = {c.id: {e.kind for e in c.effects} for c in PLAYABLE}
    late = next(c for c, k in kinds.items() if "late_ron" in k)
    assert CardAbility(CATALOG.card(late), 1).listens("late_claims")
    repeat = next(c for c, k in kinds.items() if "repeat_discard" in k)
    assert CardAbility(CATALOG.card(repeat), 1).listens("discard_actions")
    # wins blocked by a seat wind and a declared pool's chombo: the rare win hooks
    wind = next(c for c, k in kinds.items() if "blocks_wins_with_wind" in k)
    assert CardAbility(CATALOG.card(wind), 1).listens("win_allowed")
    pool = next(c for c, k in kinds.items() if "declared_pool" in k)
    assert all(CardAbility(CATALOG.card(pool), 1).listens(h)
               for h in ("win_allowed", "win_is_chombo", "claim_filter", "before_draw"))
    # a draw taken back from her pond: its class names win_allowed (the ``forbidden`` reading)
    back = next(c for c, k in kinds.items() if "draw_from_discards" in k)
    assert CardAbility(CATALOG.card(back), 1).listens("win_allowed")
    quiet = [c for c, k in kinds.items()
             if not k & {"blocks_wins_with_wind", "declared_pool", "draw_from_discards"}]
    assert not any(CardAbility(CATALOG.card(c), 0).listens("win_allowed") for c in quiet)


def test_flip_card_listens_to_what_either_side_does():
    # C-22 Himeko: the back side comes up during the hand, so its hooks count from the start
    front = next(c for c in PLAYABLE if flip_card.two_sided(c))
    flip = _ability(front.id, 2)
    back = flip.sides[1]
    assert all(flip.listens(h) for h in ("before_draw", "after_draw", "claim_made"))
    for hook in ("claim_filter", "late_claims", "win_allowed"):
        assert flip.listens(hook) == (flip.sides[0].listens(hook) or back.listens(hook))
    # card himeko_tsuruta, reading flip_back = "after_extra_turn": the back flips once the
    # extra turn's discard is made, so discards matter
    assert flip.listens("discard_made") and not flip.flip_when_offered


class OnlyClaims(AbilityHooks):
    def claim_filter(self, view: ClaimView, actions: list) -> list:
        return actions[:1]


def test_default_listens_follows_the_overridden_hooks():
    ability = OnlyClaims()
    assert ability.listens("claim_filter") and not ability.listens("after_draw")
    ability.after_draw = lambda view: None  # set on the instance: asked too
    assert ability.listens("after_draw")
    assert not AbilityHooks().listens("claim_filter")
    assert listens(object(), "claim_filter")  # not built on AbilityHooks: asked everything


class PondChecking(RandomAgent):
    """Plays at random, and at every decision compares the table's kept pond tiles (both
    readings) with the ponds read afresh."""

    checked = 0

    def decide(self, obs, legal):
        state = obs._state
        for face_down in (False, True):
            kept = state._pond_tiles(face_down=face_down)
            fresh = tuple(tuple(d.tile for d in q.discards
                                if not d.called and (face_down or not d.face_down))
                          for q in state.players)
            assert kept == fresh
            PondChecking.checked += 1
        return super().decide(obs, legal)


def test_pond_tiles_kept_between_calls_match_the_ponds():
    # calls, takes from a pond, swaps and face-down turns change ponds without growing them
    PondChecking.checked = 0
    rng = random.Random(11)
    for k in range(40):
        start = HandStart(wall=Wall.shuffled(rng).order, dealer=k % 4, scores=SCORES[k % 4])
        cards = [rng.choice(PLAYABLE).id for _ in range(4)]
        play_hand(start, PRESET, [PondChecking(k * 4 + s) for s in range(4)],
                  abilities=[_ability(c, s) for s, c in enumerate(cards)])
    assert PondChecking.checked > 1000


class TwoArgs:
    def pick(self, hand, options):
        return options[-1]


class ThreeArgs:
    def pick(self, hand, options, situation):
        return options[situation.seat]


def test_pick_signature_read_once_per_method_answers_as_before():
    # rule C-03: a pick sees the starting hand; agents with the older two-argument pick work
    situation = table.PickView(seat=1, dealer=0, scores=(25000,) * 4)
    for _ in range(2):  # the second time from the kept reading
        assert table._ask_pick(TwoArgs().pick, (), ("a", "b", "c"), situation) == "c"
        assert table._ask_pick(ThreeArgs().pick, (), ("a", "b", "c"), situation) == "b"
    assert table._ask_pick(lambda h, o: o[0], (), ("a", "b"), situation) == "a"
    assert table._ask_pick(lambda h, o, s: o[1], (), ("a", "b"), situation) == "b"
