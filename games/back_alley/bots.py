"""Back Alley computer players (they see only their own seat's view).

``normal`` bids from hand strength — expected tricks from jokers, trump honours and
length, side-suit honours guarded against the cards still unseen — and fits its bid to
its partner's: it claims board when its hand all but surely takes every trick, supports a
partner's board only with a strong hand, and keeps the team's contract within what the
hand size and the other bids leave. In play it never overtakes its partner's winning card,
wins as cheaply as it safely can, leads its top trumps to draw the others' when it holds
the best one (or its team claimed board), cashes sure winners, and otherwise discards low.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.back_alley.rules import PLAYERS, STRENGTH, SUIT_OF
from games.base import View, Why
from games.cards import DECK_WITH_JOKERS
from games.trick_play import TrickRules, unseen
from i18n import N_, _, decimal

#: How cards compare in trick play under each trump suit (or none); jokers are trumps.
RULES = {t: TrickRules(table.__getitem__, STRENGTH.__getitem__, t) for t, table in SUIT_OF.items()}


def _unseen(view: View) -> set[str]:
    """Cards this seat has not seen: in other hands or still undealt."""
    turned = [c for c in (view["turned"], view["discarded"]) if c]
    return unseen(DECK_WITH_JOKERS, view["hand"], view["played"], turned)


def estimate_tricks(view: View) -> float:
    """Expected tricks of this hand: guarded honours, long trumps, sure small-hand cards."""
    hand: list[str] = view["hand"]
    trump: str | None = view["trump"]
    rules = RULES[trump]
    size: int = view["hand_size"]
    pool = _unseen(view)
    density = (PLAYERS - 1) * size / max(1, len(pool))
    others_trumps = len(rules.trumps(pool)) * density / (PLAYERS - 1)
    higher = rules.outranking(pool)
    total = 0.0
    for suit, cards in rules.by_suit(hand).items():
        trumps = suit == trump
        for i, c in enumerate(cards):
            k = higher(c) * density
            value = max(0.0, 1 - 0.45 * k) if len(cards) >= i + 1 + round(k) else 0.0
            if trumps:
                if i + 1 > others_trumps + 1:
                    value = max(value, 0.7)
            elif trump is not None:
                value *= max(0.2, 1 - 0.2 * (i + round(k)) * density - 0.06 * len(cards))
            total += value
    # In long deals the cards counted as losers still win some late tricks.
    return total + 0.08 * max(0, size - 4)


def _board_odds(view: View) -> float:
    """Rough chance this hand alone takes every trick."""
    hand: list[str] = view["hand"]
    rules = RULES[view["trump"]]
    pool = _unseen(view)
    density = (PLAYERS - 1) * view["hand_size"] / max(1, len(pool))
    unseen_trumps = len(rules.trumps(pool))
    top = len(rules.masters(rules.trumps(hand), pool))
    higher = rules.outranking(pool)
    odds = 1.0
    for c in hand:
        beaters = higher(c)
        if not rules.is_trump(c) and (top < unseen_trumps or len(hand) <= 3):
            beaters += unseen_trumps
        odds *= (1 - min(1.0, density)) ** beaters
    return odds


def _bid_value(bid: object) -> int:
    return bid if isinstance(bid, int) else 0


def _bid_terms(view: View) -> tuple[float, int, int]:
    """The expected tricks, the bid they make alone (nine tenths of them, up from .7), and the room
    the partner's and the opponents' bids leave."""
    seat: int = view["seat"]
    bids: list[object] = view["bids"]
    est = estimate_tricks(view)
    opponents = sum(_bid_value(bids[s]) for s in range(PLAYERS) if s % 2 != seat % 2)
    room = view["hand_size"] - _bid_value(bids[(seat + 2) % PLAYERS]) - opponents // 2
    return est, math.floor(est * 0.9 + 0.3), room


def choose_bid(view: View, legal: list[str]) -> str:
    """Bid from the estimate, fitted to the partner's bid and the other bids."""
    size: int = view["hand_size"]
    partner = (view["seat"] + 2) % PLAYERS
    est, alone, room = _bid_terms(view)
    odds = _board_odds(view)
    if view["boards"][partner]:
        return "board" if odds > 0.5 or est >= max(1.5, 0.8 * size) else "pass"
    if odds > 0.7 or (size >= 4 and est >= size - 0.3):
        return "board"
    n = min(alone, size - 1, max(0, room))
    return f"bid {n}" if n >= 1 and f"bid {n}" in legal else "pass"


def _why_bid(name: Callable[[str], str], view: View, move: str) -> str:
    """Which of the bid's bounds made it: the hand, the hand size or the other bids."""
    partner = (view["seat"] + 2) % PLAYERS
    size: int = view["hand_size"]
    est, alone, _room = _bid_terms(view)
    tricks = _(N_("your hand should take about {tricks} tricks"), tricks=decimal(est))
    if view["boards"][partner]:
        if move == "board":
            return _(N_("your partner claimed board and {tricks}, so you join it"), tricks=tricks)
        return _(N_("your partner claimed board and {tricks}, so you leave it to them"),
                 tricks=tricks)
    if move == "board":
        return _(N_("{tricks}: most likely every one, so you claim board"), tricks=tricks)
    if move == "pass" and size == 1:
        return _(N_("with one card the only bid is board, and {tricks}: too few to claim it"),
                 tricks=tricks)
    if move == "pass" and alone < 1:
        return _(N_("{tricks}, too few to bid one"), tricks=tricks)
    if move == "pass":
        return _(N_("{tricks}, but your partner's and the others' bids leave no room for yours"),
                 tricks=tricks)
    n = int(move.split()[1])
    if n == alone:
        return _(N_("{tricks}, so you bid {n}"), tricks=tricks, n=n)
    if n == size - 1:
        return _(N_("{tricks}, but with {size} cards a bid is at most {n}"),
                 tricks=tricks, size=size, n=n)
    return _(N_("{tricks}, but your partner's and the others' bids leave room for {n}"),
             tricks=tricks, n=n)


def _lead(view: View, legal: list[str], pool: set[str], rules: TrickRules) -> tuple[str, Why]:
    """Draw trumps with the best one (or always, on a board), cash side winners, else
    lead low from the longest side suit."""
    board = view["contracts"][view["seat"] % 2]["board"]
    trumps = rules.trumps(legal)
    boss = rules.top_master(trumps, pool)
    if boss and (board or rules.trumps(pool)):
        return boss, (N_("{} is the top trump: it wins and draws the others' trumps"), boss)
    side = rules.side(legal)
    cash = rules.top_master(side, pool)
    if cash:
        return cash, (N_("{} is the highest card left in its suit"), cash)
    if not side:
        if board:
            card = max(trumps, key=rules.strength)
            return card, (N_("your side claimed board: {} is your highest trump"), card)
        card = min(trumps, key=rules.strength)
        return card, (N_("{} is your lowest trump"), card)
    card = max(rules.by_suit(side).values(), key=len)[-1]
    return card, (N_("{} leads low from your longest suit"), card)


def _follow(view: View, legal: list[str], pool: set[str], rules: TrickRules) -> tuple[str, Why]:
    """Never overtake the partner; last to play, win cheaply; else win only safely (or
    by ruffing), with the top card third in hand, or throw the cheapest card."""
    trick: list[list[object]] = view["trick"]
    winner, best = rules.winning(trick)
    if winner == (view["seat"] + 2) % PLAYERS:
        card = rules.cheapest(legal)
        return card, (N_("your partner is winning the trick: {} is your cheapest card"), card)
    winners, _losers = rules.split(legal, best)
    if not winners:
        card = rules.cheapest(legal)
        return card, (N_("no card you may play wins the trick: {} is your cheapest"), card)
    if len(trick) == PLAYERS - 1:
        return winners[0], (N_("you play last: {} is your cheapest card that wins"), winners[0])
    safe = [c for c in winners if rules.safe(c, pool)]
    if safe:
        return safe[0], (N_("{} wins the trick, and no card left unseen can beat it"), safe[0])
    if rules.is_trump(winners[0]) and not rules.is_trump(str(trick[0][1])):
        return winners[0], (N_("{} trumps the trick"), winners[0])
    if len(trick) == PLAYERS - 2:
        return winners[-1], (N_("third to play, {} is your best shot at the trick"), winners[-1])
    card = rules.cheapest(legal)
    return card, (N_("a win here could still be beaten: {} is your cheapest card"), card)


def decide(view: View, legal: list[str]) -> tuple[str, Why]:
    """The ``normal`` player's move, and why."""
    if view["phase"] == "bidding":
        move = choose_bid(view, legal)
        return move, (_why_bid, view, move)
    playable = [a.split(" ", 1)[1] for a in legal]
    play = _follow if view["trick"] else _lead
    card, why = play(view, playable, _unseen(view), RULES[view["trump"]])
    return "play " + card, why


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` computer player."""
    return decide(view, legal)[0]
