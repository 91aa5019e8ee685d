"""The ``expert`` computer player for Craits: determinized search (PIMC).

Worlds. The other hands and the draw pile are dealt from the cards the seat cannot place
(not in its hand, not in the face-up discard pile), by the public hand sizes. Each hand keeps what
its player's refusals to play showed (``reading.py``).

Value. Each play (or the draw) of the seat on turn is played out to the end of the round
by ``normal`` players and scored as the game scores it: the round points the others took
on average minus mine (the lowest total wins). Announcing and calling out are
``normal``'s (it always does both). Rollouts run to the end of the round: cutting them
short and scoring the hands as they stand measured worse. They are played with lean views
(``playout``: only the fields ``normal`` reads, not the whole view and its history at every
move), the same moves as ``search.rollout`` in about three quarters of the time.
"""

from __future__ import annotations

import random
from functools import partial

import games
from games.base import View
from games.cards import STANDARD_DECK
from games.craits import bots
from games.craits.reading import refusals, slots
from games.craits.state import CraitsState
from games.search import Meter, budget, deal, pimc, standing

#: Four-player games against three ``normal`` players (BENCHMARKS.md, Craits): the expert's
#: wins over games 600,000–600,359, and the same search's shown every hand over games
#: 300,000–300,119 (a bound); ties count half.
MEASURED = {"games": 360, "expert": 84, "bound_games": 120, "clairvoyant": 75.5}

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 2.5
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 48
#: The most moves a decision's play-outs make (50-70 µs each on one core of the benchmark
#: machine): with five players and full hands 48 rollouts took up to 12,700 moves (1.1 s).
MAX_MOVES = 2_000


def world(view: View, rng: random.Random) -> CraitsState:
    """A full state consistent with ``view`` (see the module docstring)."""
    me: int = view["seat"]
    hand = list(view["hand"])
    placed = set(hand) | set(view["discards"])
    pool = [c for c in STANDARD_DECK if c not in placed]
    others = [s for s in range(view["players"]) if s != me]
    refused = refusals(view["history"], view["players"])
    parts = {s: slots(view["hand_counts"][s], refused[s]) for s in others}
    sizes = [n for s in others for n, _ in parts[s]]
    rules = [rule for s in others for _, rule in parts[s]]
    dealt = deal(pool, [*sizes, len(pool) - sum(sizes)], rng, allowed=[*rules, None])
    hands = [hand] * view["players"]
    k = 0
    for s in others:
        hands[s] = [c for part in dealt[k : k + len(parts[s])] for c in part]
        k += len(parts[s])
    return CraitsState(
        players=view["players"], seed=rng.getrandbits(32), options=dict(view["options"]),
        to_act=tuple(view["to_act"]), round_no=view["round_no"], dealer=view["dealer"],
        hands=[list(h) for h in hands], draw_pile=dealt[-1], discard=list(view["discards"]),
        suit=view["suit"], crank=view["crank"], direction=view["direction"],
        current=view["current"] if view["current"] is not None else view["dealer"],
        out=view["out"], announced=list(view["announced"]), skipped=list(view["skipped"]),
        scores=list(view["scores"]), round_scores=[list(r) for r in view["round_scores"]],
    )


def round_over(root: CraitsState, now: CraitsState) -> bool:
    """The rollout ends with the round."""
    return now.round_no != root.round_no


def playout(
    after: CraitsState, root: CraitsState, rng: random.Random, meter: Meter,
) -> CraitsState:
    """``after`` played on by ``normal`` for every seat to the end of the round (or game),
    each seeing only the fields ``normal`` reads: the same moves as ``search.rollout``
    without building full views (and their history) at every move; the moves made are
    counted on ``meter``. At most ``MAX_MOVES`` moves: with every card in a hand, the
    ``normal`` players can go round in a loop for ever (each play reshuffled back and
    drawn again, nobody going out), and such a play-out stops there, nobody having gained."""
    game = games.get("craits")
    state = after
    for _ in range(MAX_MOVES):
        if state.is_over or round_over(root, state):
            break
        seat = state.to_act[0]
        view = {
            "seat": seat, "players": state.players, "hand": state.hands[seat],
            "crank": state.crank, "hand_counts": [len(h) for h in state.hands],
            "direction": state.direction,
        }
        state = game.advance(state, seat, bots.normal(view, game.legal_actions(state, seat), rng))
        meter.moves += 1
    return state


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    moves = [a for a in legal if a.split()[0] not in ("announce", "callout")]
    if len(moves) < len(legal) or view["current"] != view["seat"]:
        return bots.normal(view, legal, rng)
    game = games.get("craits")
    meter = Meter()
    return pimc(
        game, view, moves, rng,
        worlds=budget(ROLLOUTS, len(moves)), value=standing(game), done=round_over,
        max_moves=MAX_MOVES, playout=partial(playout, meter=meter), meter=meter,
        default=bots.normal(view, moves, rng),
        confidence=CONFIDENCE,
    )
