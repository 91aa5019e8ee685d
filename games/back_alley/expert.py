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

Bids. A bid's worlds are fitted to the bids already made, the partner's included: of
``TRIES`` worlds drawn, the one kept is the one whose hands would have made ``normal``
bid closest to what each player bid (in tricks; board asks for all); uniform worlds
explained the bids 1.5 tricks off on average, fitted ones 0.55. Bids are then scored on
the deal played out by ``normal`` players, and bids that end the bidding with the same
leader and board claims share one play-out (``BidPlayout``), so a bid decision affords
19 worlds for 5 candidate bids instead of 12. With worlds that fit, a bid
needs only ``BID_CONFIDENCE`` standard errors to replace ``normal``'s (40 games of
expert+expert against normal+normal: 2.5 SE 53.8 %, 1.5 SE 57.5 %, 1.0 SE 65.0 %).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

import games
from games.back_alley import bots
from games.back_alley.rules import PLAYERS, deal_points, leader_of, team_contract
from games.back_alley.state import BackAlleyState
from games.base import View
from games.cards import DECK_WITH_JOKERS
from games.search import budget, deal, fitted, pimc, rollout
from games.trick_play import distinct_plays

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 2.5
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 64
#: Worlds drawn for each one kept when bidding (the one that best explains the bids made).
TRIES = 8
#: Candidate-world evaluations per bid decision (most share a play-out: ``BidPlayout``).
BID_ROLLOUTS = 96
#: ``CONFIDENCE`` for bids, which fitted worlds (and more of them) judge more surely.
BID_CONFIDENCE = 1.0


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


def _tricks(bid: str | int | None, size: int) -> int:
    """Tricks a bid (as a view or a bot gives it) asks for: board asks for all of them."""
    if isinstance(bid, int):
        return bid
    if bid is None or bid == "pass":
        return 0
    return size if bid.startswith("board") else int(bid.split()[1])


def bid_misfit(view: View, legal: list[str], world: BackAlleyState) -> int:
    """How far the bids already made are from the ones ``normal`` would have made holding
    the world's hands (in tricks, board asking for all): 0 when the world explains them.
    Each bidder is asked with only the bids made before its turn."""
    me: int = view["seat"]
    size: int = view["hand_size"]
    order = [(view["dealer"] + k) % PLAYERS for k in range(1, PLAYERS + 1)]
    total = 0
    for k, s in enumerate(order[: order.index(me)]):
        before = set(order[:k])
        then = {
            **view, "seat": s, "hand": world.hands[s],
            "bids": [b if t in before else None for t, b in enumerate(view["bids"])],
            "boards": [b if t in before else 0 for t, b in enumerate(view["boards"])],
        }
        total += abs(_tricks(bots.choose_bid(then, legal), size) - _tricks(view["bids"][s], size))
    return total


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


def bidding_over(root: BackAlleyState, now: BackAlleyState) -> bool:
    """The bids are all in (or the deal was redealt, or is over)."""
    return now.phase != "bidding" or now.shuffles != root.shuffles or deal_over(root, now)


def _scored(bidden: BackAlleyState, tricks: Sequence[int]) -> BackAlleyState:
    """``bidden`` (its bids all made) with the deal's points for ``tricks`` per team."""
    end = bidden.clone()
    for team in (0, 1):
        contract, board = team_contract(end.bids, end.boards, team)
        end.team_scores[team] += deal_points(contract, board, tricks[team], end.hand_size)
    return end


class BidPlayout:
    """Play-outs of bids that share the play when they can.

    ``normal`` plays its cards from the lead, the board claims and the cards alone (never
    a numeric bid, never its generator), so in one world every bid whose bidding ends with
    the same leader and board claims leads to the same tricks: the deal is played once
    and each bid is scored on those tricks. Measured: 4.6 candidate bids per decision
    share 1.7 play-outs on average.
    """

    def __init__(self) -> None:
        self.world: BackAlleyState | None = None
        self.tricks: dict[tuple[int | None, tuple[int, ...]], list[int]] = {}

    def __call__(
        self, after: BackAlleyState, world: BackAlleyState, rng: random.Random
    ) -> BackAlleyState:
        game = games.get("back_alley")
        bidden = rollout(game, after, world, bidding_over, "normal", rng)
        if bidden.phase != "playing" or bidden.shuffles != world.shuffles:
            return rollout(game, bidden, world, deal_over, "normal", rng)
        if world is not self.world:
            self.world, self.tricks = world, {}
        key = (bidden.leader, tuple(bidden.boards))
        if key not in self.tricks:
            end = rollout(game, bidden, world, deal_over, "normal", rng)
            scored = next(e for e in end.events if e["type"] == "deal_scored")
            self.tricks[key] = [t["tricks"] for t in scored["teams"]]
        return _scored(bidden, self.tricks[key])


def candidates(view: View, legal: list[str], usual: str) -> list[str]:
    """Bids near ``normal``'s (and pass); in play every legal card but one of each run of
    equivalent cards (``normal``'s ``usual`` card stands for its run)."""
    if view["phase"] != "bidding":
        return distinct_plays(bots.RULES[view["trump"]], DECK_WITH_JOKERS, view, legal, usual)
    if usual == "board":
        return ["board", *[a for a in legal if a != "board"][-2:]]
    guess = _tricks(usual, view["hand_size"])
    near = {f"bid {n}" for n in range(guess - 2, guess + 3)} | {"pass"}
    return [a for a in legal if a in near]


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    usual = bots.normal_bot(view, legal, rng)
    moves = candidates(view, legal, usual)
    game = games.get("back_alley")
    bidding = view["phase"] == "bidding"
    return pimc(
        game, view, moves, rng,
        worlds=budget(BID_ROLLOUTS if bidding else ROLLOUTS, len(moves)), value=value,
        done=deal_over, default=usual, confidence=BID_CONFIDENCE if bidding else CONFIDENCE,
        sample=fitted(game.world, partial(bid_misfit, view, legal), TRIES) if bidding else None,
        playout=BidPlayout() if bidding else None,
    )
