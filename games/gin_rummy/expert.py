"""The ``expert`` computer player for Gin Rummy: determinized search (PIMC).

Numbers below: against ``normal`` over the same 400 duplicate games at target 50
(``python -m bench.strength --only gin_rummy --level expert --games 400``), the games
the settings were chosen on. Games 400–799 (not used to choose): 53.0 % (+14.3 a game)
against 54.0 % (+34.4) for the expert before these changes (hand-points value, dealt
worlds, 48 rollouts, 1 SE); target 100, games 0–399: 55.5 % (+31.2) against 51.7 %
(+30.5). Over all 1,200 games 55.1 % against 52.3 %: a small gain, within the noise of
each run.

Worlds. The opponent holds the cards it took from the discard pile (public) and, for the
rest, cards dealt from those the seat cannot place (not in its hand, not in the discard
pile); a card that pairs with, or is a run draw for, a card the opponent took is twice as
likely in its hand (a player who took 7♥ keeps hearts or sevens). The opponent has kept
the best of every card it drew, so a dealt hand is far too weak: the world replays one
stock draw per card drawn from the stock so far (both players'), each time dropping the
card that leaves the least deadwood. That matches the real opponent's deadwood at the
expert's knock decisions (19.9 on average against 20.9 over 106 decisions in 30 games;
the old least-deadwood-of-a-few-dealt-hands worlds gave 32.9). ``normal`` knocks as soon
as it can within its limit, so a hand it would have knocked with at its last discard
(``held_back``) is redrawn, up to ``FIT_TRIES`` times. The rest is the stock.

Value. Each move is played out to the end of the hand by ``normal`` players (``playout``)
and scored by my chance of winning the game from there: 1, ½ or 0 if the game is over,
else ``search.race`` from both scores (first to the target, each later hand won by
either player alike and scoring as between ``normal`` players, ``HAND_POINTS``). Hand
points (my points minus theirs, plus 25 per hand won) measured 51.2 % (+22.6 a game);
the chance of winning 53.2 % (+27.5): near the target a knock that closes the game out
is worth more than its points, an undercut that lets the opponent out far less.

Search decides only whether to knock (the knock with the least deadwood against
``normal``'s discard), over ``ROLLOUTS`` rollouts, and takes the better mean
(``CONFIDENCE`` 0; ties keep ``normal``'s move). With the replayed worlds: 48 rollouts
and 1 standard error 53.8 % (+25.1), 96 rollouts 54.8 % (+29.1), and 0.5 SE 56.5 %
(+34.7), 0 SE 56.8 % (+36.7). Taking the discard or drawing, and which card to discard,
are ``normal``'s: their effect is a few points, lost in the rollouts' noise. Searching
the discard among ``normal``'s two cheapest measured 54.2 % (+19.3) at ten times the time;
searching the draw 42.5 % (-36) over 40 games (with the old worlds and value).
"""

from __future__ import annotations

import random

import games
from games import melds
from games.base import View
from games.cards import STANDARD_DECK
from games.gin_rummy import bots
from games.gin_rummy.state import DISCARD, OFFER, GinState
from games.search import budget, deal, pimc, race

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 0.0
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


def world(view: View, rng: random.Random) -> GinState:
    """A full state consistent with ``view`` (see the module docstring)."""
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
    held = held_back(view)
    best: tuple[bool, list[str], list[str]] | None = None
    for _ in range(FIT_TRIES):
        extra, stock = deal(pool, [free, len(pool) - free], rng, weight=[weight, None])
        for _ in range(STOCK_AT_DEAL - view["stock"]):
            drawn = stock.pop(rng.randrange(len(stock)))
            kept = [*extra, drawn]
            after = melds.deadwood_by_discard(taken + kept)
            drop = min(kept, key=lambda c: (after[c], -melds.card_value(c), c))
            extra = [c for c in kept if c != drop]
            stock.insert(rng.randrange(len(stock) + 1), drop)
        fits = melds.min_deadwood(taken + extra) > held
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
        walls=view["walls"], last_hand=view["last_hand"], final=view["final"],
    )


def held_back(view: View) -> int:
    """Deadwood the opponent (``normal``) holds more of: it did not knock at its last
    discard. -1 (no bound) while no stock card was drawn before that discard (it may not
    have discarded yet)."""
    taken: str | None = view["taken"]
    stock = view["stock"] + (view["phase"] == DISCARD and taken is None)
    if view["phase"] == OFFER or stock >= STOCK_AT_DEAL:
        return -1
    mine: list[str] = view["known"][view["seat"]]
    return bots.limit_for(stock, len(mine) - (taken is not None))


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


def playout(after: GinState, root: GinState, rng: random.Random) -> GinState:
    """``after`` played on by ``normal`` for both seats to the end of the hand (or game),
    each seeing only the fields ``normal`` reads: the same moves as ``search.rollout``
    (checked on 1,142 rollouts) in half the time, without building full views."""
    game = games.get("gin_rummy")
    state = after
    while not state.is_over and not hand_over(root, state):
        seat = state.to_act[0]
        view = {
            "seat": seat, "hand": state.hands[seat], "known": state.known,
            "stock": len(state.stock),
            "discard_top": state.discards[-1] if state.discards else None,
        }
        move = bots.normal_bot(view, game.legal_actions(state, seat), rng)
        state = game.advance(state, seat, move)
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


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    moves = candidates(view, legal, rng)
    return pimc(
        games.get("gin_rummy"), view, moves, rng,
        worlds=budget(ROLLOUTS, len(moves), most=ROLLOUTS), value=value, done=hand_over,
        default=bots.normal_bot(view, legal, rng), playout=playout,
        confidence=CONFIDENCE, chance=True,
    )
