"""The ``expert`` computer player for Craits: determinized search (PIMC).

Worlds. The other hands and the draw pile are dealt from the cards the seat cannot place
(not in its hand, not in the face-up discard pile), by the public hand sizes.

Value. Each play (or the draw) of the seat on turn is played out to the end of the round
by ``normal`` players and scored as the game scores it: the round points the others took
on average minus mine (the lowest total wins). Announcing and calling out are
``normal``'s (it always does both). Rollouts run to the end of the round: cutting them
short and scoring the hands as they stand measured worse.
"""

from __future__ import annotations

import random

import games
from games.base import View
from games.cards import STANDARD_DECK
from games.craits import bots
from games.craits.state import CraitsState
from games.search import budget, deal, pimc, standing

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 2.5
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 48


def world(view: View, rng: random.Random) -> CraitsState:
    """A full state consistent with ``view`` (see the module docstring)."""
    me: int = view["seat"]
    hand = list(view["hand"])
    placed = set(hand) | set(view["discards"])
    pool = [c for c in STANDARD_DECK if c not in placed]
    others = [s for s in range(view["players"]) if s != me]
    sizes = [view["hand_counts"][s] for s in others]
    dealt = deal(pool, [*sizes, len(pool) - sum(sizes)], rng)
    hands = [hand] * view["players"]
    for s, h in zip(others, dealt, strict=False):
        hands[s] = h
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


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    moves = [a for a in legal if a.split()[0] not in ("announce", "callout")]
    if len(moves) < len(legal) or view["current"] != view["seat"]:
        return bots.normal(view, legal, rng)
    game = games.get("craits")
    return pimc(
        game, view, moves, rng,
        worlds=budget(ROLLOUTS, len(moves)), value=standing(game), done=round_over,
        default=bots.normal(view, moves, rng),
        confidence=CONFIDENCE,
    )
