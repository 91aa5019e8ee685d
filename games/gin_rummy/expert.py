"""The ``expert`` computer player for Gin Rummy: determinized search (PIMC) over worlds
fitted to the opponent it is playing.

The numbers here and in BENCHMARKS.md ("How strong the computer players are") come from
``python -m bench.strength`` (against ``normal``) and ``python -m bench.strength
--openspiel`` (against OpenSpiel's ``SimpleGinRummyBot``, by our rules).

Opponent. Two models of the other player: ``normal``, and the eager player
(``eager.py``: ``SimpleGinRummyBot`` as it plays by our rules). They differ most in when
they knock — the eager player at once with 10 or less, ``normal`` only early in the hand
with 6–10 and otherwise waiting for gin or an undercut — and in the upcard: ``normal``
takes a low one to cut its deadwood, the eager player only one that melds.
``eager_chance`` weighs them by Bayes' rule from an even start on what the opponent did:
whether it took the upcard it was offered (``OFFER_TAKES``, measured), and each knock it
made this game (``view["knocks"]``): one ``normal`` would not have made says eager, one it
would have made says ``normal`` a little (a third of the eager player's knocks are such).
Each world draws its model by that chance; the opponent's hand in it must be one the model
would not have knocked with, and the play-outs play the model for the opponent.

Worlds. The opponent holds the cards it took from the discard pile (public) and, for the
rest, cards dealt from those the seat cannot place (not in its hand, not in the discard
pile); a card that pairs with, or is a run draw for, a card the opponent took is twice as
likely in its hand (a player who took 7♥ keeps hearts or sevens). The opponent has kept
the best of every card it drew, so a dealt hand is far too weak: the world replays one
stock draw per card drawn from the stock so far (both players'), each time dropping the
card the model throws (``Model.throws``: for ``normal`` the card leaving the least
deadwood, for the eager player its highest loose card). That matched the real opponent's
deadwood at the expert's knock decisions (19.9 on average against 20.9 over 106 decisions
in 30 games; least-deadwood-of-a-few-dealt-hands worlds gave 32.9). A hand the model
would have knocked with at the opponent's last discard (``held_back``), or, for the eager
player (whose throw is exact), one from which it would not have thrown its last discard,
is redrawn, up to ``FIT_TRIES`` times (paired on hands 0–2,999 against
``SimpleGinRummyBot``: +0.08 ± 0.15 points a hand, no worse). The rest is the stock.

Value. Each move is played out to the end of the hand (``playout``) and scored by my
chance of winning the game from there: 1, ½ or 0 if the game is over, else ``search.race``
from both scores (first to the target, each later hand won by either player alike and
scoring as between ``normal`` players, ``HAND_POINTS``). Against hand points it measured
53.2 % against 51.2 % of games: near the target a knock that closes the game out is worth
more than its points, an undercut that lets the opponent out far less.

Search decides only whether to knock (``normal``'s move, the knock with the least
deadwood and ``normal``'s discard), over ``ROLLOUTS`` rollouts, and takes the better mean
(``CONFIDENCE`` 0; ties keep ``normal``'s move). Since ``normal`` knocks by a rule fitted
to the same question (``bots.KNOCK``), the search adds little to it against
``SimpleGinRummyBot``. Paired on the same deals and seats, with ``normal``'s discards of
issue 36's second round: the expert scores 0.30 ± 0.25 points a hand below ``normal``
(hands 0–2,999; with 1 standard error required, before that round, 0.17 ± 0.24 below, so
0 is kept). On hands 0–1,499, against this expert: the opponent always taken for the eager
player (right, for this bot) +0.32 ± 0.30, always for ``normal`` −0.81 ± 0.35;
``FIT_TRIES`` 12 −0.13 ± 0.17; given the bot's real hand (the stock reshuffled) +1.11 ±
0.42 (+4.50 a hand in all), and the stock's order too +1.32 ± 0.42. So what is missing
is the bot's hand, not search time or the model. Taking the discard or drawing, and which
card to discard, are ``normal``'s: searching them was lost in the rollouts' noise, and
cheaper rules measured no better (BENCHMARKS.md lists what was tried).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import games
from games import melds
from games.base import Bot, View
from games.cards import INDEX, STANDARD_DECK
from games.gin_rummy import bots, eager, features, learned
from games.gin_rummy.state import DISCARD, OFFER, GinState
from games.search import budget, deal, pimc, race

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 0.0
#: Points by which the learned evaluation must value a move above ``normal``'s to play it.
MARGIN = 0.0
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 96
#: Cards in the stock after the deal and the upcard.
STOCK_AT_DEAL = 31
#: The most opponent hands replayed for one world (see the module docstring).
FIT_TRIES = 4
#: How much likelier an unseen card near one the opponent took is in its hand.
NEAR_TAKEN_WEIGHT = 2.0
#: What the winner of a hand scores between ``normal`` players: (points, per mille) for
#: 0 (wall or tie) and 5-point bins by their mean, from 20,000 hands (1,000 games of 20).
HAND_POINTS = (
    (0, 22), (3, 144), (8, 189), (13, 151), (18, 121), (23, 87), (28, 85),
    (33, 63), (38, 50), (43, 32), (48, 22), (53, 15), (58, 8), (67, 10),
)
#: How often each model takes the upcard it is offered, by the card's value (at most 3,
#: 4 to 6, 7 or more), measured over 6,000 hands: ``normal`` takes a low card to cut its
#: deadwood, the eager player only a card that melds.
OFFER_TAKES = {"normal": (0.98, 0.39, 0.16), "eager": (0.16, 0.19, 0.17)}
#: Of the eager player's knocks, the share ``normal`` would have made too (measured on
#: 2,084 knocks); ``normal`` never knocks outside its rule, counted as 1 in 50.
EAGER_KNOCKS_IN_RULE = 0.33
NORMAL_KNOCKS_OUT_OF_RULE = 0.02


@dataclass(frozen=True)
class Model:
    """A model of the opponent: how it plays, and the deadwood it would have knocked with
    at ``stock`` cards left while I held ``known`` cards from the pile (gin always)."""

    name: str
    bot: Bot
    knocks_with: Callable[[int, int], frozenset[int]]
    #: The card it throws from a hand (of the options given), when a world replays its draws.
    throws: Callable[[list[str], list[str]], str]
    #: Whether a world must explain its last discard (``throws`` must pick that card).
    explains_discard: bool


def least_deadwood(hand: list[str], options: list[str]) -> str:
    """The card of ``options`` leaving the least deadwood (ties: the higher, then by code)."""
    after = melds.deadwood_by_discard(hand)
    return min(options, key=lambda c: (after[c], -melds.card_value(c), c))


NORMAL = Model(
    "normal", bots.normal_bot,
    lambda stock, known: frozenset(
        d for d in range(11) if d == 0 or bots.KNOCK.pays(d, stock, known)),
    least_deadwood, False,
)
EAGER = Model(
    "eager", eager.eager_bot, lambda stock, known: frozenset(range(11)), eager.throw, True,
)


def eager_chance(view: View) -> float:
    """How likely the opponent plays like the eager player rather than ``normal``, from an
    even start: by the upcard it took or passed this hand and its knocks this game."""
    opp = 1 - view["seat"]
    odds = 0.0
    history = view["history"]
    upcard = history[0].get("upcard") if history and history[0]["type"] == "new_hand" else None
    for event in history[1:]:
        if event["type"] == "draw" and event["source"] == "stock":
            break
        if event.get("seat") == opp and upcard is not None:
            took = event["type"] == "draw"
            value = melds.card_value(upcard)
            band = 0 if value <= 3 else 1 if value <= 6 else 2
            e, n = OFFER_TAKES["eager"][band], OFFER_TAKES["normal"][band]
            odds += math.log(e / n) if took else math.log((1 - e) / (1 - n))
            break
    for d, stock, known in view["knocks"][opp]:
        if bots.KNOCK.pays(d, stock, known):
            odds += math.log(EAGER_KNOCKS_IN_RULE)
        else:
            odds -= math.log(NORMAL_KNOCKS_OUT_OF_RULE)
    return 1 / (1 + math.exp(-odds))


def world(view: View, rng: random.Random, model: Model = NORMAL) -> GinState:
    """A full state consistent with ``view``, the opponent playing as ``model`` (see the
    module docstring)."""
    me: int = view["seat"]
    opp = 1 - me
    hand = list(view["hand"])
    known = [list(k) for k in view["known"]]
    placed = set(hand) | set(view["discards"]) | set(known[opp])
    pool = [c for c in STANDARD_DECK if c not in placed]
    taken = known[opp]
    free = view["hand_counts"][opp] - len(taken)

    def weight(card: str) -> float:
        return NEAR_TAKEN_WEIGHT if bots.helps(card, taken) else 1.0

    # The opponent has kept the best of every card it drew: replay as many stock draws
    # from the dealt sample, each time dropping what leaves the least deadwood; of up to
    # FIT_TRIES such hands, the first it would not have knocked with at its last discard.
    held = held_back(view, model)
    threw = last_discard(view) if model.explains_discard else None
    best: tuple[bool, list[str], list[str]] | None = None
    for _ in range(FIT_TRIES):
        extra, stock = deal(pool, [free, len(pool) - free], rng, weight=[weight, None])
        for _ in range(STOCK_AT_DEAL - view["stock"]):
            drawn = stock.pop(rng.randrange(len(stock)))
            kept = [*extra, drawn]
            drop = model.throws(taken + kept, kept)
            extra = [c for c in kept if c != drop]
            stock.insert(rng.randrange(len(stock) + 1), drop)
        fits = melds.min_deadwood(taken + extra) not in held and (
            threw is None or model.throws([*taken, *extra, threw], [*extra, threw]) == threw)
        if best is None or fits > best[0]:
            best = (fits, extra, stock)
        if fits:
            break
    assert best is not None
    _, extra, stock = best
    hands = [hand, taken + extra] if me == 0 else [taken + extra, hand]
    return GinState(
        players=2, seed=rng.getrandbits(32), options=dict(view["options"]),
        to_act=tuple(view["to_act"]), hand_no=view["hand_no"], dealer=view["dealer"],
        hands=hands, stock=stock, discards=list(view["discards"]), phase=view["phase"],
        stock_only=view["stock_only"], taken=view["taken"], known=known,
        takes=view["takes"], scores=list(view["scores"]), hands_won=list(view["hands_won"]),
        walls=view["walls"], knocks=[[list(k) for k in ks] for ks in view["knocks"]],
        last_hand=view["last_hand"], final=view["final"],
    )


def last_discard(view: View) -> str | None:
    """The card the opponent threw last, if throwing it was the last thing it did."""
    opp = 1 - view["seat"]
    event = next((e for e in reversed(view["history"]) if e.get("seat") == opp), None)
    return event["card"] if event is not None and event["type"] == "discard" else None


def held_back(view: View, model: Model = NORMAL) -> frozenset[int]:
    """Deadwood the opponent cannot hold: it would have knocked with it (as ``model``) at
    its last discard. Empty while no stock card was drawn before that discard (it may not
    have discarded yet)."""
    taken: str | None = view["taken"]
    stock = view["stock"] + (view["phase"] == DISCARD and taken is None)
    if view["phase"] == OFFER or stock >= STOCK_AT_DEAL:
        return frozenset()
    mine: list[str] = view["known"][view["seat"]]
    return model.knocks_with(stock, len(mine) - (taken is not None))


def value(root: GinState, end: GinState, seat: int) -> float:
    """My chance of winning the game from where the rollout ended (see the module
    docstring): 1, ½ or 0 once it is over, else ``race`` from both seats' scores."""
    if end.final is not None:
        winner = end.final["winner"]
        return 0.5 if winner is None else float(winner == seat)
    target: int = end.options["target"]
    return race(target - end.scores[seat], target - end.scores[1 - seat], HAND_POINTS)


def hand_over(root: GinState, now: GinState) -> bool:
    """The rollout ends with the hand."""
    return now.hand_no != root.hand_no


def playout(
    after: GinState, root: GinState, rng: random.Random, opponent: Bot = bots.normal_bot,
) -> GinState:
    """``after`` played on to the end of the hand (or game) by ``normal`` for the seat to
    act in ``root`` and ``opponent`` for the other, each seeing only the fields they read:
    the same moves as ``search.rollout`` (checked on 1,142 rollouts) in half the time,
    without building full views."""
    game = games.get("gin_rummy")
    me = root.to_act[0]
    state = after
    while not state.is_over and not hand_over(root, state):
        seat = state.to_act[0]
        view = {
            "seat": seat, "hand": state.hands[seat], "known": state.known,
            "stock": len(state.stock),
            "discard_top": state.discards[-1] if state.discards else None,
        }
        bot = bots.normal_bot if seat == me else opponent
        state = game.advance(state, seat, bot(view, game.legal_actions(state, seat), rng))
    return state


def candidates(view: View, legal: list[str], rng: random.Random) -> list[str]:
    """The moves worth searching (see the module docstring)."""
    usual = bots.normal_bot(view, legal, rng)
    knocks = [a for a in legal if a.startswith("knock ")]
    if view["phase"] != DISCARD or "biggin" in legal or not knocks:
        return [usual]
    after = melds.deadwood_by_discard(view["hand"])
    discard = bots.normal_bot(view, [a for a in legal if not a.startswith("knock ")], rng)
    knock = min(knocks, key=lambda a: (after[a.split()[1]], a))
    return list(dict.fromkeys([usual, knock, discard]))


#: Worlds the discard search plays the opponent's reply in.
WORLDS = 12
#: Discards (the best valued by the evaluation) the search weighs beside ``normal``'s.
SEARCHED = 2


def lean(state: GinState, seat: int) -> View:
    """The fields the players and the evaluation read of ``seat``'s view."""
    return {
        "seat": seat, "hand": state.hands[seat], "known": state.known,
        "stock": len(state.stock), "discards": state.discards,
        "discard_top": state.discards[-1] if state.discards else None,
        "history": state.history, "phase": state.phase, "knocks": state.knocks,
    }


def leaf(state: GinState, root: GinState, me: int, chance: float, ev: learned.Evaluation) -> float:
    """My points of the hand from ``state``: exact if the hand is over, else the
    evaluation's value of my next draw (drawing blind, or taking a top card that melds)."""
    if state.hand_no != root.hand_no or state.is_over:
        assert state.last_hand is not None
        points = state.last_hand["points"]
        return float(points[me] - points[1 - me])
    view = lean(state, me)
    legal = games.get("gin_rummy").legal_actions(state, me)
    t = features.table(view, chance)
    top = view["discard_top"]
    if "take" in legal and not features.meldable(t.hand) >> INDEX[top] & 1:
        legal = [a for a in legal if a != "take"]
    return max(learned.values(t, legal, top, ev).values())


def discard_search(
    view: View, moves: list[str], chance: float, rng: random.Random, ev: learned.Evaluation,
) -> dict[str, float]:
    """Each of ``moves`` (discards and knocks) valued over ``WORLDS`` worlds: the move made,
    the opponent's reply played by its model, then ``leaf``."""
    game = games.get("gin_rummy")
    me: int = view["seat"]
    totals = dict.fromkeys(moves, 0.0)
    for _ in range(WORLDS):
        model = EAGER if rng.random() < chance else NORMAL
        root = world(view, rng, model)
        root.history = tuple(view["history"])
        for move in moves:
            state = game.advance(root, me, move)
            while state.hand_no == root.hand_no and not state.is_over and state.to_act[0] != me:
                opp = state.to_act[0]
                reply = model.bot(lean(state, opp), game.legal_actions(state, opp), rng)
                state = game.advance(state, opp, reply)
            totals[move] += leaf(state, root, me, chance, ev)
    return {m: v / WORLDS for m, v in totals.items()}


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    usual = bots.normal_bot(view, legal, rng)
    return learned.choose(view, legal, usual, eager_chance(view), MARGIN, learned.shipped())


def search_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The knock search of before (kept while measuring)."""
    moves = candidates(view, legal, rng)
    if len(moves) == 1:
        return moves[0]
    chance = eager_chance(view)
    models: dict[int, Model] = {}

    def sample(view: View, rng: random.Random) -> GinState:
        model = EAGER if rng.random() < chance else NORMAL
        state = world(view, rng, model)
        state.history = tuple(view["history"])
        models[id(state)] = model
        return state

    def play(after: GinState, root: GinState, rng: random.Random) -> GinState:
        return playout(after, root, rng, models[id(root)].bot)

    return pimc(
        games.get("gin_rummy"), view, moves, rng,
        worlds=budget(ROLLOUTS, len(moves), most=ROLLOUTS), value=value, done=hand_over,
        default=bots.normal_bot(view, legal, rng), playout=play, sample=sample,
        confidence=CONFIDENCE, chance=True,
    )
