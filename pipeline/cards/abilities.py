"""Card abilities built from catalog effects: reusable effect primitives behind the engine hooks.

A :class:`CardAbility` holds one character's card for one seat and answers the engine's hooks by
asking each of its effects, fed with the parameters from the catalog, so a designer's change of
a number changes the behaviour with no code change. The effect kinds with a class of their own
(:mod:`pipeline.cards.effects`, listed in :data:`~pipeline.cards.effects.registry.EFFECTS`:
``yaku_value``, ``one_han_yaku_value``, ``count_bonus``, ``win_multiplier``,
``open_keeps_value``, ``open_hands``, ``local_yaku``, ``ura_rule``, ``score_as_dealer``,
``double_wind``, ``always_riichi``, ``condition_bonus``, ``dora_both_ways``,
``han_per_count``, ``win_without_yaku``, ``extra_turn``, ``face_down_discard``,
``rinshan_reveal``, ``wall_to_indicator``, ``noten_double_wall``, ``declared_pool``,
``honor_sequences``, ``winds_as_west``, ``call_payment``, ``always_winning_tile``,
``wrap_sequences``, ``priority_call``, ``unclaimable_repeat``, ``set_aside_draw``,
``repeat_discard``, ``payment_per_out``, ``tsumo_full_ron``, ``stake_rule``, ``table_sweep``,
``floor_at_zero``, ``extra_dora_stake``, ``ignore_dora``, ``honba_by_han``,
``dora_multiplier``, ``late_ron``, ``double_from_chi_sources``, ``dama_protection``,
``blocks_calls``, ``duel``, ``wall_exchange``, ``draw_from_discards``, ``private_extra_tile``,
``last_tile_mastery``, ``swap_with_discard``, ``blocks_wins_with_wind``, ``peek_and_swap``,
``meld_swap``, ``copy_ability``, ``family_guess``, ``flip_card``: every kind) are each sent
only the hooks they override (the rows of
:data:`~pipeline.cards.effects.base.EFFECT_HOOK_TABLE`: every engine hook but ``match_end``,
``turn_start``, asked as her turn begins before her turn choices, and the card layer's
``remember`` and ``turns_card_over``), each answer combined as the table says, with the hand's
table controls in the contexts built after the deal. ``copy_ability`` and ``flip_card`` take no
hook: they build their card's whole ability (:func:`card_ability`; a copied card's ability,
both sides of a two-sided card: :mod:`pipeline.cards.effects.copy_ability`,
:mod:`pipeline.cards.effects.flip_card`). Extra han from bonuses are not yaku (rule C-12); a
value set replaces, it does not add (rule C-11). ``effect_implemented`` says which effects
(with their parameter values) are covered; the engine asks the ability only the hooks one of
its effects names (``listens``). What the counts read is in
:mod:`pipeline.cards.shapes`; the stakes a card imposes for the next hand are paid by
:mod:`pipeline.cards.match_duties`.

Bot policies. Each card says what the heuristic bot (:mod:`pipeline.bots.heuristic`) does with
its choices, and why, in a sentence opening "Bot policy" and the card's name in brackets, in the
docstring of the module that implements it (``tests/bots/test_card_policy_docs.py`` checks
that every card has one). Which card to play is the bots' business: the pick estimate of each
effect's worth with the starting hand (:mod:`pipeline.bots.pick`, which the card layer never
imports).
Two choices are shared by many cards. An extra turn (optional,
C-17) is taken unless a threat is on the table (a riichi, or an opponent with three open melds,
or two late in the hand) while her hand is two or more steps from tenpai: a folding hand would
only risk one more discard. A face-down discard cannot deal in (C-13), so it is used only under
a threat, on the tile the bot would discard anyway when that tile is dangerous (an expected
deal-in cost of ``FACE_DOWN_MIN_DANGER``, 100 points, or more; in riichi, the tile she must
discard). A hand tile offered for a known tile (a pond's, or the next wall tile: the exchange
rule) is swapped when that brings the hand closer to tenpai, or keeps it as close (one step or
less) while it accepts at least 4 more tiles (``KNOWN_DRAW_MIN_GAIN`` in
:mod:`pipeline.bots.heuristic`); among several such swaps the best one, else none. The bot's
tile judgment knows only the standard hand shapes and values, so a card's bonuses do not change
how it builds a hand unless its policy says so: a card whose text rewards or punishes a tile
choice declares it as tile incentives (:mod:`pipeline.cards.incentives`, from its effects'
``incentives``), which the bot's discard evaluation reads without naming the card.

- Bot policy (Aislinn Wishart): her extra turn after a tedashi discard follows the shared rule;
  the stake others pay for opening needs no decision of hers (and other bots do not call less
  against her).
- Bot policy (Awai Oohoshi): (``rinshan_reveal``) a revealed tile is swapped with an indicator
  when the new indicator makes more of her tiles dora than the old one did and the best tile to
  take stays as good; she then takes the revealed tile that leaves her hand closest to tenpai
  after her best discard (the best connected on a tie). Her kans follow the bot's usual kan
  rules, and the kan on a discard her riichi allows (her wait unchanged) is always taken (her
  tile incentives: ``riichi_kan``).
- Bot policy (Ako Atarashi): (``swap_with_discard``) her swap after a call with a pond tile of
  the same family follows the exchange rule.
- Bot policy (Toyone Anetai): no decision: the chasing-riichi value, Shiiaru raotai and the
  stick bonus apply by themselves, with the bot's usual riichi and calls; the pick prices each
  by a rough chance of applying.
- Bot policy (Mihoko Fukuji): her face-down discard when her last visible discard matches
  another player's last discard (``face_down_discard``) follows the shared rule; the hands she
  opens (``open_hands``) need no decision (the bot reads their tiles as it reads any hand
  played face up).
- Bot policy (Myeonghwa Choe): (``blocks_wins_with_wind``) the swap of a passed round or seat
  wind for a terminal or honor of hers follows the exchange rule; blocking the others' wins
  needs no decision.
- Bot policy (Nodoka Haramura): her one face-down discard follows the shared rule, so it waits
  for a dangerous tile; the pick prices 2-han pinfu and closed tanyao by the starting hand.
- Bot policy (Jun Inoue): her extra turn after a call and her face-down discard after a call
  that broke an ippatsu follow the shared rules; the call payment (``call_payment``) needs no
  decision, and the bot calls by its usual rules, not more for the payment.
- Bot policy (Kasumi Iwato): before her first discard (``open_hands``) the bot names the family
  with the most copies it cannot see: the others most likely hold those, so the most tiles are
  shown and counted for her han.
- Bot policy (Yumi Kajiki): (``meld_swap``) after her call the bot swaps melds when the other
  meld is worth more to her (a value-tile triplet 2, each dora tile 1, a kan a half more), never
  for a sequence only another character may build (her hand would be dead, rule C-20: no win,
  noten at the draw, so the swap can only cost her), while such a meld of hers goes for any
  other; it turns one tile of another player's pond face down (the last one offered: those
  count for her han) while her hand is within two steps of tenpai, never a tile of her own pond.
- Bot policy (Hajime Kunihiro): (``swap_with_discard``) her swap with a pond tile of the same
  number (at 6 or 12 tiles in her pond, or after another player's riichi) follows the exchange
  rule.
- Bot policy (Kazue Nanpo): (``wall_exchange``) after drawing, each tile she puts at the end of
  the dead wall is chosen the same way as Yuuki's: the least useful one.
- Bot policy (Yuuki Kataoka): (``wall_exchange``) each tile she puts back at the end of the live
  wall is the least useful one by the bot's own discard judgment (shanten, then how well it
  connects, keeping dora, red fives and value pairs).
- Bot policy (Koromo Amae): (``last_tile_mastery``) the second last-tile move (offered while she
  is the only player in riichi) is declined when the last live tile already falls to her own
  draw (tiles left a multiple of four) and made otherwise, which may bring it to her; her
  last-tile wins are taken like every win.
- Bot policy (Komaki Jindai): no decision: she plays face up from the start; the pick weighs
  the doubled win and 2-han riichi and ippatsu against a fixed cost for the open hand.
- Bot policy (Yoshiko Kainou): the bot repeats the discard (``repeat_discard``) when the
  second copy is useless (the hand is no further from tenpai with a dead honor in its place):
  a safe, unclaimable discard and a fresh draw. Uumensai needs no decision; her incentives keep
  the last tile of a family before others among discards that keep her hand as close to
  tenpai, and the bot does not otherwise aim for five families.
- Bot policy (Kurumi Kakura): no decision: a repeated type cannot be called or ronned by itself
  (``unclaimable_repeat``), so her incentives count no deal-in danger for it, and a type already
  in her pond goes first among discards that keep her hand as close to tenpai (the pairs there
  count for her damaten seven pairs); the bot does not aim for seven pairs.
- Bot policy (Tomoe Karijuku): her extra turn after a white dragon discard follows the shared
  rule; her white dragons are kept as the bot keeps any value tile, not let go first for the
  turn (they also win for her in riichi and give 2 han drawn: shedding them first measured
  worse, see ``EARNING_TYPES`` in :mod:`pipeline.cards.effects.extra_turn`); the white dragon
  winning in riichi and the tsumo bonus need no decision (the bot takes every win offered);
  the pick counts the white dragons held and unseen.
- Bot policy (Shiromi Kosegawa): her extra turn after a suji or genbutsu discard against a
  riichi (``extra_turn``) follows the shared rule (the riichi is a threat, so the bot takes it
  while within one step of tenpai), and so does the face-down discard of that turn; the bot
  does not choose suji to earn the turn. Her dora both ways need no decision; her incentives
  keep the tiles before the indicators as dora while her hand is closed.
- Bot policy (Yuuko Mase): no decision: the engine offers her no pon or kan and reads her
  wrap-around sequences (``wrap_sequences``); the bot counts them as sets when it builds her
  hand (shanten and acceptance in pipeline/bots/shaped.py) and takes every win and riichi they
  make; her incentives let a type already in her pond go first among discards that keep her
  hand as close to tenpai (three of a type there give her a han).
- Bot policy (Seiko Matano): the set-aside fourth copy (``set_aside_draw``) is drawn instead of
  the wall's tile when her hand is within one step of tenpai (the kan it makes brings a
  replacement draw, fu and a dora indicator) or under a threat (a tile already seen is safer to
  hold); a slow hand draws from the wall. Her pon bonus needs no decision: the bot calls by its
  usual rules.
- Bot policy (Yuu Matsumi): her priority pon of a red dragon (``priority_call``; just discarded
  or earlier in the discarder's pond) is judged like any pon of a value tile: taken when it
  brings her hand closer to tenpai (under a threat only to reach tenpai). The warm-tile bonus
  needs no decision; her incentives keep warm tiles before others among discards that keep
  her hand as close to tenpai.
- Bot policy (Kei Arakawa): no decision (``payment_per_out``); the pick counts about six live
  outs on her wins and, now and then, a winner's tile held.
- Bot policy (Hitomi Ezaki): no decision: both stakes (``stake_rule``) follow from the hand's
  result; the pick gives each a small fixed worth.
- Bot policy (Kirame Hanada): (``extra_dora_stake``) when the bot declares riichi (its usual
  rule) below the points limit, it stakes half her points for the extra indicators while 24 or
  more live tiles are left (``STAKE_RIICHI_MIN_TILES``): the stake comes back on her win, so it
  pays while the riichi is early enough to win often; later, the plain riichi. The floor at
  zero (``floor_at_zero``) needs no decision.
- Bot policy (Huiyu Hao): no decision (``ignore_dora``, ``tsumo_full_ron``): riichi is never
  offered to her, furiten and noten payments need none; her incentives make dora worth nothing
  to keep (they give her no han), and the pick counts her lost dora against the full-ron
  tsumo.
- Bot policy (Kana Ikeda): (``stake_rule``) the Inazuma riichi is chosen over a plain riichi
  when she has at least 15,000 points and 24 or more live tiles are left
  (``STAKE_RIICHI_MIN_POINTS``, ``STAKE_RIICHI_MIN_TILES``): the 5,000 stake comes back on her
  win, so it pays while the riichi is early and she can afford it. The 1-han yaku doubled in
  last place need no decision.
- Bot policy (Kuro Matsumi): no decision (``dora_multiplier``): her incentives keep her dora
  twice as firmly as an ordinary dora (and count them twice when she weighs pushing against a
  threat), and the bot never discards a known dora or red five outside riichi (riichi
  declaration and face-down discards included) while another discard is legal, so she loses
  them for the match only when every discard is one; once lost they are worth nothing to keep.
  The pick prices the doubled dora of the starting hand.
- Bot policy (Teru Miyanaga): no decision (``honba_by_han``): the bot calls, declares riichi
  and takes extra turns by its usual rules, not to add honba; the pick prices the honba on the
  table and a few added.
- Bot policy (Nelly Virsaladze): no decision: the sweep (``table_sweep``) and the early-riichi
  han (``condition_bonus``) follow from the hand's result and her riichi turn; the pick prices
  the sweep by the chance of a drawn hand or her deal-in.
- Bot policy (Sumire Hirose): (``late_ron``) the late ron is taken whenever it is offered, as
  the bot takes every legal win (passing would only let a winning tile go by).
- Bot policy (Yukiko Maya): her priority chi from any player (``priority_call``) is judged like
  any chi (taken when it speeds up a hand that keeps a yaku and some value); the double payment
  (``double_from_chi_sources``) needs no decision.
- Bot policy (Hiroe Atago): (``dama_protection``) her choice is riichi or dama. In tenpai with
  a yaku that needs no riichi (all simples, a value-honor triplet, a flush) and two or more
  winning tiles the bot stays dama (``DAMA_CARD`` in :mod:`pipeline.bots.heuristic`): her
  damaten saves her share of others' tsumo and turns higher players' ippatsu draws into wins,
  worth more than riichi's han; without such a yaku it declares riichi as usual (her riichi
  ignores furiten). The ron on a higher player's ippatsu draw is taken like any win.
- Bot policy (Sae Usuzawa): (``blocks_calls``) at her riichi the bot blocks a player not in
  riichi (one in riichi may still call), the one with the most melds (a calling hand is fast),
  then the points leader (rule C-21 on equal points).
- Bot policy (Megan Davin): (``duel``) before her first discard the bot duels the points leader
  (rule C-21 on equal points): double payments are worth most against the richest player,
  whose ability is then switched off; the pick prices the duel by the chance her starting hand
  wins.
- Bot policy (Touka Ryuumonbuchi): no decision (``score_as_dealer``): the bot declares riichi
  by its usual rule; the pick prices a riichi win paid as a dealer's, or as dealer one limit
  higher.
- Bot policy (Saki Miyanaga): no decision (``always_winning_tile``, ``winds_as_west``): the bot
  takes every win offered, her rinshan tiles included, and declares kans by its usual rule (no
  threat, the hand no further from tenpai), with no extra push for the rinshan tile; its tile
  judgment does not read winds as West.
- Bot policy (Mairu Shirouzu): (``family_guess``) before each draw the bot names the family with
  the most copies it cannot see, the likeliest family for the next wall tile.
- Bot policy (Himeko Tsuruta): (``flip_card``, ``extra_turn``) her extra turn after a new-family
  discard follows the shared extra-turn rule; the bot does not send tiles face down or choose
  new families on purpose for her han.
- Bot policy (Arata Sagimori): no decision: her incentives keep pinzu before other tiles among
  discards that keep her hand as close to tenpai (the bot does not give up speed for them);
  the pick prices the pinzu thresholds from the pinzu of the starting hand.
- Bot policy (Tomoki Sawamura): her face-down discard while she could deal into an ippatsu
  follows the shared rule (the riichi is the threat); the pick prices 2-han menzen tsumo and
  iipeikou (and 4-han ryanpeikou) by the starting hand.
- Bot policy (Mako Someya): her extra turn after calling souzu or the green dragon follows the
  shared rule; the bot calls by its usual rules, not more for the extra turn; the pick prices
  the open values kept by how far the starting hand leans to one suit.
- Bot policy (Ryuuka Shimizudani): (``declared_pool``) the bot declares the card's preferred
  combination, offered first: under ``any_combination`` the one of highest expected value
  (``declarations.best``: the chance a win holds every declared yaku times what it pays; riichi
  alone unless a second yaku is all but sure), under ``five_fixed``
  :func:`~pipeline.cards.effects.declared_pool.preferred` (tanyao when hand and pool hold at most
  3 terminals and honors, since it survives calls; riichi otherwise). She draws from the pool the
  tile that leaves her hand closest to tenpai, keeping a tile that completes her hand for last
  (she may win only once the pool is empty); with a yaku declared that needs a closed hand she
  makes no call, with riichi declared she declares riichi as soon as she is tenpai, unless the
  riichi would lock a declared yakuhai out (its honor held as a single, or as a pair that is
  not one of the waits: the locked hand could never make the set, so she stays dama until it
  is one), and with a yakuhai declared she never discards its honor while she has another tile
  to discard. It never
  declares a ron marked as a chombo: a reverse mangan for nothing.
- Bot policy (Satomi Kanbara): no decision (``wall_to_indicator``, ``noten_double_wall``): the
  longer wall, the doubled payments and the extra indicators follow from where the hand ends;
  the pick weighs the indicators of a win on her own wall against her doubled payments there.
- Bot policy (Shizuno Takakamo): no decision (``ura_rule``); the pick prices her extra ura
  indicators on riichi wins and the ura the others lose.
- Bot policy (Hisa Takei): no decision: the single-wait han and the hell-wait doubling apply at
  her win; the bot's waits and its riichi or dama choice are its usual ones.
- Bot policy (Haru Takimi): her extra turn after a 2 or 8 and her face-down discard after a chi
  follow the shared rules; her incentives let 2s and 8s go first (an extra turn, and the 3-to-7
  bonus), then other tiles outside 3 to 7, among discards that keep her hand as close to
  tenpai; the bot does not call chi for them; the pick counts the 2s and 8s held and prices
  the 3-to-7 bonus by the simples held.
- Bot policy (Momoko Touyoko): no decision: her third-row discards go face down by force
  (``always_riichi``); the bot still declares riichi by its usual rule, although the card gives
  a closed win riichi and ura anyway (a declared riichi adds mostly the ippatsu chance).
- Bot policy (Satoha Tsujigaito): (``peek_and_swap``) the swap of a hand tile for the wall tile
  she peeks at follows the exchange rule, and hands on (the next seat to draw takes it) no
  dora, red five or tile unsafe against a riichi except for a step closer to tenpai; the
  doubling under an ippatsu threat needs no decision.
- Bot policy (Toki Onjouji): (``private_extra_tile``) the tile beside her hand is swapped in
  when that brings her hand closer to tenpai, and taken instead of a draw when it wins or brings
  the hand closer to tenpai (in riichi only to win); otherwise it stays beside the hand, unseen
  by the others.
- Bot policy (Takami Shibuya): (``draw_from_discards``) a tile of her own pond is drawn instead
  of the wall's when it wins or brings her hand closer to tenpai, or when her hand, one step
  from tenpai or less, stays as close and accepts at least 4 more tiles
  (``KNOWN_DRAW_MIN_GAIN``) despite the type she may not then discard; otherwise the unknown
  wall tile.
- Bot policy (Maho Yumeno): (``copy_ability``) the bot copies the drawn card its pick estimate
  values most with this starting hand and situation (:func:`pipeline.bots.pick.choose`), as it
  picks any card.
- Bot policy (Hatsumi Usuzumi): no decision (``double_wind``): the bot keeps a pair of her seat
  wind as it keeps any value pair; the pick prices the double yakuhai by the seat winds held and
  the others' wind melds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.cards.catalog import Card
from pipeline.cards.effects.base import (
    AbilityBuild,
    BeforeDrawContext,
    CallContext,
    CardEffect,
    ClaimContext,
    DiscardContext,
    DrawContext,
    DrawnContext,
    FuritenContext,
    HandEndContext,
    HandStartContext,
    PaymentContext,
    RiichiContext,
    ScoringContext,
    TurnContext,
    WinCheckContext,
    WinTileContext,
)
from pipeline.cards.effects.registry import EFFECTS
from pipeline.cards.memory import MatchMemory
from pipeline.rules.actions import AbilityTag, Action
from pipeline.rules.hand_shapes import HandShapes
from pipeline.rules.hooks import (
    AbilityHooks,
    CallView,
    ClaimView,
    DiscardView,
    DrawView,
    OwnTurnView,
    TableControls,
    WallControls,
    WinTileView,
    WinView,
    merge_modifiers,
)
from pipeline.rules.scoring import ScoringModifiers
from pipeline.rules.settlement import HandEndView, RiichiView, Settlement

# Optional choices an ability offers to its player: an ``ABILITY`` action tagged ``<what>``,
# next to a plain alternative (a discard, or a pass), as each effect class declares them
# (``optional``).
OPTIONAL_EFFECTS: frozenset[str] = frozenset().union(*(e.optional for e in EFFECTS.values()))


def card_ability(card: Card, seat: int, memory: MatchMemory | None,
                 build: AbilityBuild) -> AbilityHooks:
    """The seat's ability for the card this hand: the one an effect of the card builds (a meta
    card: :meth:`~pipeline.cards.effects.base.CardEffect.build_ability`, the first that builds
    one), else the card's effects, each sent the hooks it takes."""
    for effect in card.effects:
        cls = EFFECTS.get(effect.kind)
        if cls is not None:
            built = cls.build_ability(effect.params, card, build)
            if built is not None:
                return built
    return CardAbility(card, seat, memory)


def effect_implemented(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether this effect, with these parameters, has an implementation: its class
    (:data:`~pipeline.cards.effects.registry.EFFECTS`), with the values it plays."""
    return kind in EFFECTS and EFFECTS[kind].implements(params)


class CardAbility(AbilityHooks):
    """One character's ability for one seat, answering the hooks from the card's effects."""

    def __init__(self, card: Card, seat: int, memory: MatchMemory | None = None) -> None:
        self.card = card
        self.seat = seat
        self.name = card.id
        # the effects with a class of their own, each sent only the hooks it names
        self.effects: tuple[CardEffect, ...] = tuple([
            EFFECTS[e.kind](e.params, seat, card.id, memory)
            for e in card.effects if e.kind in EFFECTS])
        for effect in self.effects:  # what each effect knows of its kind's other effects
            effect.alike = tuple([e for e in self.effects if e.kind == effect.kind])
        self._heard = frozenset().union(*(effect.hooks for effect in self.effects))
        # hook -> the effects that name it, in the card's order
        self._named: dict[str, tuple[CardEffect, ...]] = {
            hook: tuple([e for e in self.effects if hook in e.hooks]) for hook in self._heard}
        self._table: TableControls | None = None  # this hand's, once it has started

    def _to(self, hook: str) -> tuple[CardEffect, ...]:
        """The effect classes that name ``hook``, in the card's order."""
        return self._named.get(hook, ())

    def listens(self, hook: str) -> bool:
        """Every hook is overridden here: it is heard when one of the card's effects names it
        (``turn_choices`` also when one names ``turn_start``, the steps it begins with)."""
        return hook in self._heard or (hook == "turn_choices" and "turn_start" in self._heard)

    def own_actions(self, view: OwnTurnView) -> list[Action]:
        """Face-down discards (rule C-13) when the card's condition holds, those of the first
        effect that offers them; then every riichi declared with a stake that is offered."""
        offered: list[Action] = []
        stakes: list[Action] = []
        effects = self._named.get("own_actions", ())
        if not effects:
            return offered
        turn = TurnContext(view, self._table)
        for effect in effects:
            got = effect.own_actions(turn)
            if got and got[0].tag is AbilityTag.RIICHI:
                stakes += got
            elif got and not offered:
                offered = got
        return offered + stakes

    def extra_turn(self, view: DiscardView) -> bool:
        """Whether the card's effects earn an extra turn with this discard (the engine asks
        only where rule C-15 allows one, and offers it: optional, C-17)."""
        effects = self._named.get("extra_turn", ())
        if not effects:
            return False
        discard = DiscardContext(view, self._table)
        return any(effect.extra_turn(discard) for effect in effects)

    def action_taken(self, action: Action) -> None:
        for effect in self._to("action_taken"):
            effect.action_taken(action)

    def hand_start(self, table: TableControls) -> None:
        self._table = table  # the controls the hand's later hooks hand to the effect classes
        start = HandStartContext(table, self.seat, self.name)
        for effect in self._to("hand_start"):
            effect.hand_start(start)

    def scoring(self, win: WinView) -> ScoringModifiers | None:
        scorers = self._to("scoring")
        if not scorers:
            return None
        own = win.seat == self.seat
        asked = ScoringContext(win, self.seat, self._table)
        return merge_modifiers([e.scoring(asked) for e in scorers if own or e.any_win])

    def turn_choices(self, view: OwnTurnView) -> list[Action]:
        named = self._named
        starters = named.get("turn_start", ())
        if starters:  # the steps her turn starts with, before anything is asked
            starting = TurnContext(view, self._table)
            for effect in starters:
                effect.turn_start(starting)
        effects = named.get("turn_choices", ())
        if not effects:
            return []
        turn = TurnContext(view, self._table)
        for effect in effects:
            chosen = effect.turn_choices(turn)
            if chosen:
                return chosen
        return []

    def riichi_choices(self, view: OwnTurnView) -> list[Action]:
        effects = self._named.get("riichi_choices", ())
        if not effects:
            return []
        turn = TurnContext(view, self._table)
        for effect in effects:
            chosen = effect.riichi_choices(turn)
            if chosen:
                return chosen
        return []

    def riichi_allowed(self) -> bool:
        return all(effect.riichi_allowed() for effect in self._to("riichi_allowed"))

    def ignores_furiten(self, in_riichi: bool) -> bool:
        asked = FuritenContext(in_riichi)
        return any(effect.ignores_furiten(asked) for effect in self._to("ignores_furiten"))

    def switched_off(self) -> tuple[int, frozenset[int]] | None:
        for effect in self._to("switched_off"):
            found = effect.switched_off()
            if found is not None:
                return found
        return None

    def late_claims(self, view: DiscardView) -> list[Action]:
        claims_: list[Action] = []
        effects = self._named.get("late_claims", ())
        if effects:
            asked = DiscardContext(view, self._table)
            for effect in effects:
                claims_ = claims_ + effect.late_claims(asked)
        return claims_

    def discard_actions(self, view: DiscardView) -> list[Action]:
        offered: list[Action] = []
        effects = self._named.get("discard_actions", ())
        if effects:
            asked = DiscardContext(view, self._table)
            for effect in effects:
                offered = offered + effect.discard_actions(asked)
        return offered

    def offer_declined(self, action: Action) -> None:
        for effect in self._to("offer_declined"):
            effect.offer_declined(action)

    def hand_end(self, view: HandEndView, table: TableControls) -> None:
        effects = self._named.get("hand_end", ())
        if effects:
            ended = HandEndContext(view, table)
            for effect in effects:
                effect.hand_end(ended)

    def remember(self, memory: MatchMemory) -> None:
        """Called by the card table once the hand is over."""
        for effect in self._to("remember"):
            effect.remember(memory)

    def turns_card_over(self) -> bool:
        """Whether her last draw turns her two-sided card over (asked by the two-sided card)."""
        return any(effect.turns_card_over() for effect in self._to("turns_card_over"))

    def after_draw(self, view: DrawView) -> None:
        effects = self._named.get("after_draw", ())
        if effects:
            drawn = DrawnContext(view, self._table)
            for effect in effects:
                effect.after_draw(drawn)

    def riichi(self, view: RiichiView, table: TableControls) -> None:
        effects = self._named.get("riichi", ())
        if effects:
            declared = RiichiContext(view, table)
            for effect in effects:
                effect.riichi(declared)

    def claim_made(self, view: CallView) -> None:
        effects = self._named.get("claim_made", ())
        if effects:
            called = CallContext(view, self._table)
            for effect in effects:
                effect.claim_made(called)

    def hand_shapes(self) -> HandShapes | None:
        own: HandShapes | None = None
        for effect in self._to("hand_shapes"):
            extra = effect.hand_shapes()
            own = extra.merged(own) if extra else own
        return own

    def always_wins(self, view: WinTileView) -> bool:
        """Asked of a seat at every discard: a card with no always-winning tile says no at
        once."""
        effects = self._named.get("always_wins", ())
        if not effects:
            return False
        asked = WinTileContext(view, self._table)
        return any(effect.always_wins(asked) for effect in effects)

    def win_allowed(self, win: WinView) -> bool:
        asked = WinCheckContext(win, self.seat, self._table)
        return all(effect.win_allowed(asked) for effect in self._to("win_allowed"))

    def while_switched_off(self) -> AbilityHooks | None:
        """What of her effects still applies while her ability is switched off (under Yuuko's
        reading ``restriction_stays``: her ban on pon and kan), or None."""
        for effect in self._to("while_switched_off"):
            left = effect.while_switched_off()
            if left is not None:
                return left
        return None

    def claim_filter(self, view: ClaimView, actions: list[Action]) -> list[Action]:
        for effect in self._to("claim_filter"):
            actions = effect.claim_filter(ClaimContext(view, actions))
        return actions

    def win_is_chombo(self, win: WinView) -> bool:
        """Whether an effect makes her declared win a chombo (``declared_pool``)."""
        asked = WinCheckContext(win, self.seat, self._table)
        return any(effect.win_is_chombo(asked) for effect in self._to("win_is_chombo"))

    def discard_passed(self, view: DiscardView, table: TableControls) -> None:
        effects = self._named.get("discard_passed", ())
        if effects:
            passed = DiscardContext(view, table)
            for effect in effects:
                effect.discard_passed(passed)

    def payments(self, s: Settlement) -> None:
        paid = PaymentContext(s, self._table)
        for effect in self._to("payments"):
            effect.payments(paid)

    def draw_payments(self, s: Settlement) -> None:
        paid = PaymentContext(s, self._table)
        for effect in self._to("draw_payments"):
            effect.draw_payments(paid)

    def kans_closed(self) -> bool:
        """Whether an effect makes her kans closed once made (``rinshan_reveal``)."""
        return any(effect.kans_closed() for effect in self._to("kans_closed"))

    def replace_draw(self, view: DrawView, wall: WallControls) -> int | None:
        """The draw an effect makes in its own way (``rinshan_reveal``), or None."""
        ctx = DrawContext(view, wall)
        for effect in self._to("replace_draw"):
            drawn = effect.replace_draw(ctx)
            if drawn is not None:
                return drawn
        return None

    def before_draw(self, view: DrawView) -> list[Action]:
        own: list[Action] = []
        asked = BeforeDrawContext(view, self._table)
        for effect in self._to("before_draw"):
            own += effect.before_draw(asked)
        return own

    def discard_made(self, view: DiscardView, table: TableControls) -> None:
        effects = self._named.get("discard_made", ())
        if effects:
            made = DiscardContext(view, table)
            for effect in effects:
                effect.discard_made(made)

    def forced_face_down(self, view: OwnTurnView) -> bool:
        """Whether an effect forces her plain discard face down (``always_riichi``)."""
        effects = self._named.get("forced_face_down", ())
        if not effects:
            return False
        turn = TurnContext(view, self._table)
        return any(effect.forced_face_down(turn) for effect in effects)
