"""What the heuristic bot keeps between decisions of a hand is the same as read afresh.

The safe types against each threat are kept with the ponds they were read from (see
``HeuristicBot._safe``): a pond that grows, a pond tile that changes (a swap, a call, a tile
turned face down) and a new hand must each give what a new bot reads from the same table.
"""

from __future__ import annotations

from pipeline.bots.heuristic import HeuristicBot
from pipeline.rules.agents import Observation
from pipeline.rules.hand import DiscardInfo, HandState
from pipeline.rules.hooks import SwapControls
from pipeline.tiles import parse_types
from tests.support.bot_moments import BIG_TENPAI, RIICHI_HAND, own_turn, reach


def riichi_table() -> HandState:
    """P1 in riichi on 6p (then passes 4s), P2 to play: P1 is the one threat."""
    state, _ = reach(["", RIICHI_HAND, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                     [(), ["riichi 6p"]], 2, own_turn(), dora="4m")
    assert state.players[1].riichi
    return state


def same_as_afresh(bot: HeuristicBot, state: HandState) -> set[int]:
    """The kept reading equals a new bot's; returns the safe types against P1."""
    kept = bot._threats(Observation(state, 2))
    assert kept == HeuristicBot(0)._threats(Observation(state, 2))
    (threat,) = kept
    return threat.safe


def test_the_safe_types_follow_a_growing_pond() -> None:
    state = riichi_table()
    bot = HeuristicBot(0)
    before = same_as_afresh(bot, state)
    five_s = parse_types("5s")[0]
    assert five_s not in before
    # P3 passes a 5s after the riichi: safe from now on
    state.discard_count += 1
    state.players[3].discards.append(DiscardInfo(five_s * 4, False, False,
                                                 order=state.discard_count))
    assert five_s in same_as_afresh(bot, state)


def test_the_safe_types_follow_a_pond_tile_that_changes() -> None:
    state = riichi_table()
    bot = HeuristicBot(0)
    before = same_as_afresh(bot, state)
    six_p = parse_types("6p")[0]
    assert six_p in before
    # P2 swaps a hand tile for P1's 6p: the pond's tile changes in place
    held = next(x for x in state.players[2].concealed if x // 4 not in before)
    lying = next(d.tile for d in state.players[1].discards if d.tile // 4 == six_p)
    SwapControls(state).with_pond(2, held, lying, "test")
    after = same_as_afresh(bot, state)
    assert held // 4 in after
    # a pond tile turned face down is no longer seen by P2
    SwapControls(state).turn_face_down(held, "test", 2)
    assert same_as_afresh(bot, state) != after


def test_the_safe_types_are_read_afresh_in_a_new_hand() -> None:
    bot = HeuristicBot(0)
    first = same_as_afresh(bot, riichi_table())
    state = riichi_table()  # the same ponds in another hand, then one of them changed
    d = state.players[1].discards[0]
    d.tile = parse_types("9s")[0] * 4
    assert same_as_afresh(bot, state) != first


def test_whether_there_is_a_threat_agrees_with_the_threats_read() -> None:
    """``_any_threat`` (claims, extra turns) answers as ``bool(_threats(...))`` would."""
    bot = HeuristicBot(0)
    riichi = riichi_table()
    dama, _ = reach(["", RIICHI_HAND, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                    [(), ["6p"]], 2, own_turn(), dora="4m")
    face_up, _ = reach(["", RIICHI_HAND, BIG_TENPAI, ""], "1z" + "6p" + "8m",
                       [(), ["6p"]], 2, own_turn(), dora="4m")
    face_up.reveal_hand(1, "test")  # a dama hand shown face up: ready, so a threat
    answers = []
    for state in (riichi, dama, face_up):
        obs = Observation(state, 2)
        answers.append(bot._any_threat(obs))
        assert answers[-1] == bool(bot._threats(obs))
    assert answers == [True, False, True]


def test_a_copy_leaves_the_kept_reading_behind_and_reads_the_same() -> None:
    import copy
    import pickle

    state = riichi_table()
    bot = HeuristicBot(0)
    expected = same_as_afresh(bot, state)
    assert bot._safe_kept  # something is kept
    for twin in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert twin._safe_kept == {}  # a cache: the paired replay's snapshot does not copy it
        assert twin.rng.getstate() == bot.rng.getstate()
        assert same_as_afresh(twin, state) == expected
    assert bot._safe_kept  # the original keeps its own


def test_a_face_up_threat_kept_is_the_one_read_afresh() -> None:
    """A face-up hand's threat is kept by what it is read from (``_FACE_UP_KEPT``): asked again
    it is the same as read afresh, and once its pond or the dora shown change it is read anew
    (here its own wait discarded: furiten, no threat)."""
    from pipeline.bots import heuristic

    state = riichi_table()
    state.reveal_hand(1, "test")
    bot = HeuristicBot(0)

    def kept_and_afresh() -> list:
        kept = bot._threats(Observation(state, 2))
        assert bot._threats(Observation(state, 2)) == kept  # the kept answer, asked again
        heuristic._FACE_UP_KEPT.clear()
        assert HeuristicBot(0)._threats(Observation(state, 2)) == kept
        return kept

    (threat,) = kept_and_afresh()
    assert threat.waits
    state.wall.reveal_indicator()  # one more dora indicator shown: read anew
    assert kept_and_afresh()[0].value >= threat.value
    wait = min(threat.waits)
    state.discard_count += 1
    state.players[1].discards.append(DiscardInfo(wait * 4, False, False,
                                                 order=state.discard_count))
    assert kept_and_afresh() == []  # its own wait in its pond: furiten, no threat
