"""The ``expert`` computer player for Craits: the learned value of each play
(``learned.py``, trained offline by ``python -m bench.craits_train`` on play-outs of
``normal`` from real positions), which leaves ``normal`` only the crank, the calls and the
draw. Against three ``normal`` players it won 32.7 % of 6,400 four-player games (31.6–33.9 %;
an even share is 25 %), 7.7 ± 1.1 points more than ``normal`` in the same seats, in about
a millisecond a decision (BENCHMARKS.md, Craits).

It replaced determinized search (PIMC: each move played out 48 times by ``normal`` in
worlds dealt to fit what the table had shown, ``normal``'s move left only for one that beat
it by 2.5 standard errors), which measured no stronger than ``normal`` (23.3 % of 360
four-player games), and which, put over the learned move, made it weaker (27.9 % of games
1,200,000–1,200,479 against the learned value's 31.2 % alone): its play-outs are
``normal``'s, and pull its choices back towards ``normal``'s.

Worlds remain what ``Game.world`` deals for this game (``world``): the other hands and the
draw pile dealt from the cards the seat cannot place (not in its hand, not in the face-up
discard pile), by the public hand sizes, each hand keeping what its player's refusals to
play showed (``reading.py``). ``playout`` plays a position on to the end of the round by
``normal`` for every seat, as the trainer's play-outs do.
"""

from __future__ import annotations

import random

import games
from games.base import View
from games.cards import STANDARD_DECK
from games.craits import bots, learned
from games.craits.reading import refusals, slots
from games.craits.state import CraitsState
from games.search import Meter, deal

#: Four-player games against three ``normal`` players (BENCHMARKS.md, Craits): the expert's
#: wins over games 1,300,000–1,306,399; ties count half.
MEASURED = {"games": 6400, "expert": 2095.75}

#: The most moves a play-out makes (50-70 µs each on one core of the benchmark machine).
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
    return learned.choose(view, legal)
