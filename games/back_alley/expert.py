"""The ``expert`` computer player for Back Alley: determinized search (PIMC), by team.

Worlds. The other three hands are dealt from the cards the seat cannot place (not in its
hand, not played, not the turned card or a joker thrown out), never in a suit a player
showed void in; the rest is the undealt stock.

Value. Each move is played out to the end of the deal by ``normal`` players — the partner
included, so a move that overtakes the partner's winning card or breaks the partnership's
contract shows in the result — and scored as the game scores it: my team's points minus
the other team's. A team whose contract is already made still scores each extra trick's
point (there are no bags in Back Alley).

Search decides the bid (pass, ``normal``'s bid and the numbers within two of it, and
board when ``normal`` would claim it) and every card played, one card standing for each
run of cards that win and lose the same tricks.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import games
from games.back_alley import bots
from games.back_alley.rules import PLAYERS, leader_of
from games.back_alley.state import BackAlleyState
from games.base import View
from games.cards import DECK_WITH_JOKERS
from games.search import budget, deal, pimc
from games.trick_play import distinct_plays

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 2.5
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 64


def world(view: View, rng: random.Random) -> BackAlleyState:
    """A full state consistent with ``view`` (see the module docstring)."""
    me: int = view["seat"]
    hand = list(view["hand"])
    played = list(view["played"])
    out = {c for c in (view["turned"], view["discarded"]) if c}
    placed = set(hand) | set(played) | out
    pool = [c for c in DECK_WITH_JOKERS if c not in placed]
    bids = [None if b is None else b if isinstance(b, int) else 0 for b in view["bids"]]
    boards = list(view["boards"])
    rules = bots.RULES[view["trump"]]
    voids = (
        rules.shown_voids(played, leader_of(bids, boards, view["dealer"]), PLAYERS)
        if played else [set() for _ in range(PLAYERS)]
    )
    others = [s for s in range(PLAYERS) if s != me]
    sizes = [view["hand_counts"][s] for s in others]

    def allowed(seat: int) -> Callable[[str], bool]:
        return lambda c: rules.suit_of(c) not in voids[seat]

    dealt = deal(
        pool, [*sizes, len(pool) - sum(sizes)], rng,
        allowed=[*map(allowed, others), None],
    )
    hands = [hand] * PLAYERS
    for s, h in zip(others, dealt, strict=False):
        hands[s] = h
    return BackAlleyState(
        players=PLAYERS, seed=rng.getrandbits(32), options=dict(view["options"]),
        to_act=tuple(view["to_act"]), deal_no=view["deal_no"], dealer=view["dealer"],
        hand_size=view["hand_size"], shuffles=0, phase=view["phase"],
        hands=[list(h) for h in hands], stock=dealt[-1], turned=view["turned"],
        discarded=view["discarded"], trump=view["trump"], bids=bids, boards=boards,
        leader=view["leader"], trick=[list(p) for p in view["trick"]],
        last_trick=[list(p) for p in view["last_trick"]], tricks=list(view["tricks"]),
        played=played, trump_played=view["trump_played"],
        team_scores=list(view["team_scores"]),
    )


def value(root: BackAlleyState, end: BackAlleyState, seat: int) -> float:
    """My team's points this deal minus the other team's."""
    mine, theirs = seat % 2, 1 - seat % 2
    return float(
        end.team_scores[mine] - root.team_scores[mine]
        - (end.team_scores[theirs] - root.team_scores[theirs])
    )


def deal_over(root: BackAlleyState, now: BackAlleyState) -> bool:
    """The rollout ends with the deal."""
    return now.deal_no != root.deal_no


def candidates(view: View, legal: list[str], usual: str) -> list[str]:
    """Bids near ``normal``'s (and pass); in play every legal card but one of each run of
    equivalent cards (``normal``'s ``usual`` card stands for its run)."""
    if view["phase"] != "bidding":
        return distinct_plays(bots.RULES[view["trump"]], DECK_WITH_JOKERS, view, legal, usual)
    if usual == "board":
        return ["board", *[a for a in legal if a != "board"][-2:]]
    guess = int(usual.split()[1]) if usual.startswith("bid ") else 0
    near = {f"bid {n}" for n in range(guess - 2, guess + 3)} | {"pass"}
    return [a for a in legal if a in near]


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    usual = bots.normal_bot(view, legal, rng)
    moves = candidates(view, legal, usual)
    return pimc(
        games.get("back_alley"), view, moves, rng,
        worlds=budget(ROLLOUTS, len(moves)), value=value, done=deal_over,
        default=usual, confidence=CONFIDENCE,
    )
