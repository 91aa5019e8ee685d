"""The ``expert`` computer player for two-player Spades: determinized search (PIMC).

Worlds. The opponent's unseen hand is dealt from the cards the seat cannot place (not in
its hand, not played, not discarded face up — unless the opponent exchanged for Blind Nil,
which may have taken face-up discards back), never in a suit the opponent showed void in.
The draft keeps strong cards, so spades, aces, kings and queens are dealt to the opponent
three times as likely as others (a uniform opponent is too weak and the search overbids);
the rest is the face-down discard pile (and the stock during the draft).

Once the opponent has bid (all through the play, and for my bid when I bid second) the
worlds are fitted to its bid: of ``TRIES`` worlds drawn, the one kept is the one whose
opponent hand at bid time (its hand now and the cards it has played) would have made
``normal`` bid closest to what it bid (Nil counting 0 tricks, ``NIL_MISFIT`` more when
only one of the two is Nil; a Blind Nil, bid unseen, is not fitted). Uniform-weighted
worlds explained the bid 0.96 tricks off on average, fitted ones 0.20; 200 games against
``normal`` went from 58.5 % (51.6–65.1 %, +35.9 a game) to 65.0 % (58.2–71.3 %, +43.5),
and the next 200 deals gave 63.5 % (56.6–69.9 %, +42.4; p99 171 ms of CPU a decision).
A lower confidence for fitted bids (1.0 standard error, as in Back Alley) measured no
better here (65.0 %, +40.5), so bids keep ``CONFIDENCE``; nor does the fit make the
strong-card weighting redundant (uniform weights with the fit: 58.5 %, +20.5).

Value. Each move is played out to the end of the hand by ``normal`` players; the value is
my points minus the opponent's, with every bag counted a further ``BAG_COST`` points (ten
bags cost 100, so a bag is worth avoiding well before the tenth).

Search decides the bid (among ``normal``'s bid ± 2 and Nil) and every card played, one
card standing for each run of cards that win and lose the same tricks (a 9 and J with the
10 gone), so the rollouts go to moves that differ; the draft and the Blind Nil exchange
are ``normal``'s.
"""

from __future__ import annotations

import random
from functools import partial

import games
from games.base import View
from games.cards import HIGH_RANK, STANDARD_DECK, SUIT
from games.search import budget, deal, fitted, pimc
from games.spades import bots
from games.spades.state import BID, DRAFT, PLAY, SpadesState
from games.trick_play import distinct_plays

#: Standard errors by which a searched move must beat ``normal``'s to replace it.
CONFIDENCE = 2.0
#: Rollouts per decision (shared by the candidate moves); fixed so decisions reproduce.
ROLLOUTS = 96
#: A bag costs this much beyond its point (the 100-point penalty every ten bags).
BAG_COST = 6.0
#: How much likelier a drafted-strong card (a spade, an ace, king or queen) is in the
#: opponent's hand than another unseen card.
STRONG_WEIGHT = 3.0
#: Worlds drawn for each one kept once the opponent has bid (the one that best explains
#: its bid).
TRIES = 8
#: Misfit added when the world's hand would have bid Nil and the opponent did not, or
#: the other way round (a hand is Nil-safe or not; a trick's difference is not the point).
NIL_MISFIT = 2


def strong_weight(card: str) -> float:
    """Sampling weight of an unseen card in the opponent's hand."""
    return STRONG_WEIGHT if SUIT[card] == "S" or HIGH_RANK[card] >= 12 else 1.0


def world(view: View, rng: random.Random) -> SpadesState:
    """A full state consistent with ``view`` (see the module docstring)."""
    me: int = view["seat"]
    opp = 1 - me
    hand = list(view["hand"])
    played = list(view["played"])
    face_up = list(view["face_up_discards"])
    drawn = view["drawn"]
    blind = [b == "blind nil" for b in view["bids"]]
    drawn_list = [drawn] if drawn else []
    # Face-up discards stay in the pile unless the opponent's Blind Nil exchange may have
    # drawn them (my own exchange's draws are in my hand).
    gone = set(hand) | set(played)
    pile = [] if view["exchanged"][opp] else [c for c in face_up if c not in gone]
    known = set(hand) | set(played) | set(pile) | ({drawn} if drawn else set())
    pool = [c for c in STANDARD_DECK if c not in known]
    voids = bots.RULES.shown_voids(played, 1 - view["first_player"], 2)[opp]
    opp_size = view["hand_counts"][opp]
    down = view["discards"] - len(pile)

    def fits(c: str) -> bool:
        return SUIT[c] not in voids

    opp_hand, hidden_down, stock = deal(
        pool, [opp_size, down, len(pool) - opp_size - down], rng,
        allowed=[fits, None, None], weight=[strong_weight, None, None],
    )
    hands = [hand, opp_hand] if me == 0 else [opp_hand, hand]
    bids = [None if b is None else 0 if b == "blind nil" else int(b) for b in view["bids"]]
    return SpadesState(
        players=2, seed=rng.getrandbits(32), options=dict(view["options"]),
        to_act=tuple(view["to_act"]), hand_no=view["hand_no"],
        first_player=view["first_player"], phase=view["phase"],
        scores=list(view["scores"]), bags=list(view["bags"]),
        stock=drawn_list + stock, hands=hands,
        discards=pile + hidden_down,
        face_up=face_up,
        may_blind=[
            view["phase"] == DRAFT and view["options"]["blind_nil"] and not blind[s]
            and view["hand_counts"][s] == 0 and not (s == me and drawn)
            for s in range(2)
        ],
        blind=blind, exchanged=list(view["exchanged"]), bids=bids,
        tricks=list(view["tricks"]), trick=[list(p) for p in view["trick"]],
        last_trick=view["last_trick"], spades_broken=view["spades_broken"], played=played,
        last_hand=view["last_hand"], winner=view["winner"],
    )


def bid_misfit(view: View, world: SpadesState) -> int:
    """How far the opponent's bid is from the one ``normal`` would have made holding the
    world's hand at bid time (its hand now and the cards it has played): the tricks apart,
    Nil counting 0, and ``NIL_MISFIT`` more when only one of the two is Nil."""
    opp = 1 - view["seat"]
    bid: int = view["bids"][opp]
    played = view["played"]
    seats = bots.RULES.players_of(played, 1 - view["first_player"], 2)
    hand = world.hands[opp] + [c for c, s in zip(played, seats, strict=True) if s == opp]
    guess = int(bots.choose_bid({**view, "seat": opp, "hand": hand}).split()[1])
    return abs(guess - bid) + (NIL_MISFIT if (guess == 0) != (bid == 0) else 0)


def value(root: SpadesState, end: SpadesState, seat: int) -> float:
    """My hand's points minus the opponent's, each new bag costing ``BAG_COST`` more."""
    out = 0.0
    for s, sign in ((seat, 1.0), (1 - seat, -1.0)):
        points = end.scores[s] - root.scores[s]
        bags = (end.bags[s] - root.bags[s]) % 10
        out += sign * (points - BAG_COST * bags)
    return out


def hand_over(root: SpadesState, now: SpadesState) -> bool:
    """The rollout ends with the hand."""
    return now.hand_no != root.hand_no


def candidates(view: View, legal: list[str], usual: str) -> list[str]:
    """Bids near ``normal``'s and Nil; in play every legal card but one of each run of
    equivalent cards (``normal``'s ``usual`` card stands for its run)."""
    if view["phase"] != BID:
        return distinct_plays(bots.RULES, STANDARD_DECK, view, legal, usual)
    guess = int(bots.choose_bid(view).split()[1])
    near = {f"bid {n}" for n in range(guess - 2, guess + 3)} | {"bid 0"}
    return [a for a in legal if a in near]


def expert_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``expert`` computer player (see the module docstring)."""
    usual = bots.normal_bot(view, legal, rng)
    if view["phase"] not in (BID, PLAY):
        return usual
    moves = candidates(view, legal, usual)
    game = games.get("spades")
    opp_bid = view["bids"][1 - view["seat"]]
    return pimc(
        game, view, moves, rng,
        worlds=budget(ROLLOUTS, len(moves)), value=value, done=hand_over,
        default=usual, confidence=CONFIDENCE,
        sample=fitted(game.world, partial(bid_misfit, view), TRIES)
        if isinstance(opp_bid, int) else None,
    )
