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
from collections.abc import Sequence

from games.back_alley.rules import PLAYERS, STRENGTH, SUIT_OF, is_trump
from games.base import View
from games.cards import DECK_WITH_JOKERS
from games.tricks import winning_index


def _unseen(view: View) -> set[str]:
    """Cards this seat has not seen: in other hands or still undealt."""
    known = set(view["hand"]) | set(view["played"]) | {view["turned"]}
    if view["discarded"]:
        known.add(view["discarded"])
    return set(DECK_WITH_JOKERS) - known


def _higher(card: str, pool: set[str], trump: str | None) -> int:
    """How many cards of ``pool`` are of ``card``'s suit and stronger."""
    table = SUIT_OF[trump]
    suit, strength = table[card], STRENGTH[card]
    return sum(1 for c in pool if table[c] == suit and STRENGTH[c] > strength)


def _by_suit(hand: Sequence[str], trump: str | None) -> dict[str, list[str]]:
    """The hand split into suits (jokers with the trumps), strongest first."""
    table = SUIT_OF[trump]
    out: dict[str, list[str]] = {}
    for c in sorted(hand, key=lambda c: -STRENGTH[c]):
        out.setdefault(table[c], []).append(c)
    return out


def estimate_tricks(view: View) -> float:
    """Expected tricks of this hand: guarded honours, long trumps, sure small-hand cards."""
    hand: list[str] = view["hand"]
    trump: str | None = view["trump"]
    size: int = view["hand_size"]
    unseen = _unseen(view)
    density = (PLAYERS - 1) * size / max(1, len(unseen))
    others_trumps = sum(1 for c in unseen if is_trump(c, trump)) * density / (PLAYERS - 1)
    total = 0.0
    for suit, cards in _by_suit(hand, trump).items():
        trumps = suit == trump
        for i, c in enumerate(cards):
            k = _higher(c, unseen, trump) * density
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
    trump: str | None = view["trump"]
    unseen = _unseen(view)
    density = (PLAYERS - 1) * view["hand_size"] / max(1, len(unseen))
    unseen_trumps = sum(1 for c in unseen if is_trump(c, trump))
    mine = [c for c in hand if is_trump(c, trump)]
    top = sum(1 for c in mine if _higher(c, unseen, trump) == 0)
    odds = 1.0
    for c in hand:
        beaters = _higher(c, unseen, trump)
        if not is_trump(c, trump) and (top < unseen_trumps or len(hand) <= 3):
            beaters += unseen_trumps
        odds *= (1 - min(1.0, density)) ** beaters
    return odds


def _bid_value(bid: object) -> int:
    return bid if isinstance(bid, int) else 0


def choose_bid(view: View, legal: list[str]) -> str:
    """Bid from the estimate, fitted to the partner's bid and the other bids."""
    seat: int = view["seat"]
    size: int = view["hand_size"]
    partner = (seat + 2) % PLAYERS
    boards: list[int] = view["boards"]
    bids: list[object] = view["bids"]
    est = estimate_tricks(view)
    odds = _board_odds(view)
    if boards[partner]:
        return "board" if odds > 0.5 or est >= max(1.5, 0.8 * size) else "pass"
    if odds > 0.7 or (size >= 4 and est >= size - 0.3):
        return "board"
    opponents = sum(_bid_value(bids[s]) for s in range(PLAYERS) if s % 2 != seat % 2)
    room = size - _bid_value(bids[partner]) - opponents // 2
    n = min(math.floor(est * 0.9 + 0.3), size - 1, max(0, room))
    return f"bid {n}" if n >= 1 and f"bid {n}" in legal else "pass"


def _beats(card: str, best: str, trump: str | None) -> bool:
    table = SUIT_OF[trump]
    if table[card] == table[best]:
        return STRENGTH[card] > STRENGTH[best]
    return table[card] == trump


def _cheapest(cards: Sequence[str], trump: str | None) -> str:
    """The card least worth keeping: side cards before trumps, low before high."""
    return min(cards, key=lambda c: (is_trump(c, trump), STRENGTH[c]))


def _safe(card: str, unseen: set[str], trump: str | None) -> bool:
    """No unseen card can beat ``card``: none is higher in its suit and, for a side card,
    no trump is unseen (someone void could ruff it)."""
    if _higher(card, unseen, trump):
        return False
    return is_trump(card, trump) or not any(is_trump(c, trump) for c in unseen)


def _lead(view: View, legal: list[str], unseen: set[str]) -> str:
    trump: str | None = view["trump"]
    seat: int = view["seat"]
    team = seat % 2
    trumps = [c for c in legal if is_trump(c, trump)]
    if trumps:
        boss = [c for c in trumps if _higher(c, unseen, trump) == 0]
        others_have = any(is_trump(c, trump) for c in unseen)
        if boss and (others_have or view["contracts"][team]["board"]):
            return max(boss, key=STRENGTH.__getitem__)
    side = [c for c in legal if not is_trump(c, trump)]
    winners = [c for c in side if _higher(c, unseen, trump) == 0]
    if winners:
        return max(winners, key=STRENGTH.__getitem__)
    if not side:
        pick = max if view["contracts"][team]["board"] else min
        return pick(trumps, key=STRENGTH.__getitem__)
    suits = _by_suit(side, trump)
    longest = max(suits.values(), key=len)
    return longest[-1]


def _follow(view: View, legal: list[str], unseen: set[str]) -> str:
    trump: str | None = view["trump"]
    seat: int = view["seat"]
    trick: list[list[object]] = view["trick"]
    cards = [str(p[1]) for p in trick]
    table = SUIT_OF[trump]
    best = cards[winning_index(cards, table.__getitem__, STRENGTH.__getitem__, trump)]
    winner_seat = int(str(trick[cards.index(best)][0]))
    if winner_seat == (seat + 2) % PLAYERS:
        return _cheapest(legal, trump)
    winners = [c for c in legal if _beats(c, best, trump)]
    if not winners:
        return _cheapest(legal, trump)
    winners.sort(key=lambda c: (is_trump(c, trump), STRENGTH[c]))
    if len(trick) == PLAYERS - 1:
        return winners[0]
    led = table[cards[0]]
    safe = [c for c in winners if _safe(c, unseen, trump)]
    if safe:
        return safe[0]
    if table[winners[0]] == trump and led != trump:
        return winners[0]
    return winners[-1] if len(trick) == PLAYERS - 2 else _cheapest(legal, trump)


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` computer player."""
    if view["phase"] == "bidding":
        return choose_bid(view, legal)
    playable = [a.split(" ", 1)[1] for a in legal]
    unseen = _unseen(view)
    card = _lead(view, playable, unseen) if not view["trick"] else _follow(view, playable, unseen)
    return "play " + card

