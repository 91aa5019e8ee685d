"""The ``expert`` computer player for Gin Rummy: ``normal``'s move, left for one that a
learned evaluation (``learned.py``) values ``MARGIN`` points of the hand higher — on every
decision: taking or drawing, the discard, and whether to knock.

The numbers here and in BENCHMARKS.md ("How strong the computer players are", its Gin
Rummy table) come from ``python -m bench.strength`` (against ``normal``) and
``python -m bench.strength --openspiel`` (against OpenSpiel's ``SimpleGinRummyBot``, by our rules).

Opponent. Two models of the other player: ``normal``, and the eager player
(``eager.py``: ``SimpleGinRummyBot`` as it plays by our rules). They differ most in when
they knock — the eager player at once with 10 or less, ``normal`` only early in the hand
with 6–10 and otherwise waiting for gin or an undercut — and in the upcard: ``normal``
takes a low one to cut its deadwood, the eager player only one that melds.
``eager_chance`` weighs them by Bayes' rule from an even start on what the opponent did:
whether it took the upcard it was offered (``OFFER_TAKES``, measured), and each knock it
made this game (``view["knocks"]``): one ``normal`` would not have made says eager, one it
would have made says ``normal`` a little (a third of the eager player's knocks are such).
The evaluation reads that chance; a world (``world``) deals the opponent's hand as one
model would hold it (``normal``'s unless told), one it would not have knocked with.

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

Decision. The evaluation values each legal move in points of the hand (mine minus the
opponent's) from what the seat sees, the opponent read as eager with ``eager_chance``; it
was fitted to play-outs of ``normal`` from real positions, half of them against ``normal``
and half against the eager player (``bench/gin_train.py``), so it is one step of policy
improvement over ``normal``. The expert plays the best-valued move when it is valued more
than ``MARGIN`` points above ``normal``'s (gin always). The margin was chosen on paired
single hands against ``normal`` with the first weights (deals 20,000–21,999, each from both
seats; points a hand: margin 0 +3.06 ± 0.79, 2 +3.19 ± 0.60, 4 +2.67 ± 0.46), and held with
the shipped weights against ``SimpleGinRummyBot`` (hands 30,000–35,999: margin 0 +0.96,
1 +1.45, 2 +0.83, 3 +0.47, each ± 0.3–0.7) and against ``normal`` (games 310,000–310,999:
margin 1 60.1 %, 2 61.6 %); margin 2 is the one that keeps both. On fresh deals it won
60.1 % of 3,000 games to 100 against ``normal`` and scored +0.89 ± 0.22 points a hand more
than ``normal`` against ``SimpleGinRummyBot`` (24,000 hands, paired; BENCHMARKS.md, Gin
Rummy, with every variant tried). It replaced a search of
the knock alone over these worlds (96 rollouts valued by the chance of winning the game:
53.2 % against ``normal``), which ``normal``'s measured knock rule left little to gain.
Worlds remain what ``Game.world`` deals for this game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games import melds
from games.base import View
from games.cards import STANDARD_DECK
from games.gin_rummy import bots, eager, learned
from games.gin_rummy.state import DISCARD, OFFER, GinState
from games.search import deal

#: Games to 100 against ``normal``, games 300,400–303,399 (BENCHMARKS.md, the issue 47 row of
#: "How strong the computer players are"): the expert's wins.
MEASURED = {"games": 3000, "expert": 1803}
#: Points by which the learned evaluation must value a move above ``normal``'s to play it.
MARGIN = 2.0
#: Cards in the stock after the deal and the upcard.
STOCK_AT_DEAL = 31
#: The most opponent hands replayed for one world (see the module docstring).
FIT_TRIES = 4
#: How much likelier an unseen card near one the opponent took is in its hand.
NEAR_TAKEN_WEIGHT = 2.0
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
    """A model of the opponent: the deadwood it would have knocked with at ``stock`` cards
    left while I held ``known`` cards from the pile (gin always), and how it throws."""

    name: str
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
    "normal",
    lambda stock, known: frozenset(
        d for d in range(11) if d == 0 or bots.KNOCK.pays(d, stock, known)),
    least_deadwood, False,
)
EAGER = Model(
    "eager", lambda stock, known: frozenset(range(11)), eager.throw, True,
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


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    usual = bots.normal_bot(view, legal, rng)
    return learned.choose(view, legal, usual, eager_chance(view), MARGIN, learned.shipped())
