"""Gin Rummy computer players. They see only their own seat's view.

``normal`` keeps melds and near-melds, picks up a discard only when it joins a meld or
cuts its deadwood a lot, throws its highest loose card that the opponent is not known to
want, goes gin (or big gin) whenever it can and knocks when its deadwood is low enough:
any legal knock early in the hand, a lower one later or when the opponent has been
picking up discards (undercut risk).
"""

from __future__ import annotations

import random

from games import melds
from games.base import View
from games.cards import LOW_RANK, SUIT

#: Deadwood cut that makes a discard worth taking even if it joins no meld.
TAKE_GAIN = 6
#: Extra cost of throwing a card that is part of a pair or a two-card run draw.
NEAR_MELD_COST = 4
#: Extra cost of throwing a card the opponent is known to be collecting.
DANGER_COST = 7


def _near(a: str, b: str) -> bool:
    """Pair, or same suit within two ranks: one card away from a meld."""
    if a[0] == b[0]:
        return True
    return SUIT[a] == SUIT[b] and abs(LOW_RANK[a] - LOW_RANK[b]) <= 2


def helps(card: str, held: list[str]) -> bool:
    """Whether ``card`` pairs with, or is a run draw for, a card in ``held``."""
    return any(_near(card, k) for k in held)


def knock_limit(view: View) -> int:
    """The most deadwood worth knocking with now."""
    return limit_for(view["stock"], len(view["known"][1 - view["seat"]]))


def limit_for(stock: int, opponent_known: int) -> int:
    """``knock_limit`` with ``stock`` cards left and the opponent holding
    ``opponent_known`` cards it took from the discard pile."""
    limit = 10 if stock >= 22 else 7 if stock >= 14 else 4
    return max(0, limit - 2 * max(0, opponent_known - 1))


def _discard_cost(card: str, loose: list[str], after: dict[str, int], theirs: list[str]) -> int:
    cost = after[card]
    if card in loose and any(_near(card, o) for o in loose if o != card):
        cost += NEAR_MELD_COST
    if helps(card, theirs):
        cost += DANGER_COST
    return cost


def _want(view: View) -> bool:
    """Whether taking the discard top is better than drawing blind."""
    hand: list[str] = view["hand"]
    top: str = view["discard_top"]
    now = melds.min_deadwood(hand)
    after = melds.deadwood_by_discard([*hand, top])
    del after[top]
    best = min(after, key=lambda c: (after[c], c))
    if after[best] <= now - TAKE_GAIN:
        return True
    if after[best] >= now:
        return False
    kept = [c for c in hand if c != best] + [top]
    return any(top in m for m in melds.best_arrangement(kept).melds)


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` Gin Rummy computer player."""
    if legal[0] in ("take", "draw"):
        if "take" in legal and _want(view):
            return "take"
        return "pass" if "pass" in legal else "draw"
    if "biggin" in legal:
        return "biggin"
    hand: list[str] = view["hand"]
    after = melds.deadwood_by_discard(hand)
    knocks = [a for a in legal if a.startswith("knock ")]
    if knocks:
        card = min((a.split()[1] for a in knocks), key=lambda c: (after[c], -melds.card_value(c)))
        if after[card] == 0 or after[card] <= knock_limit(view):
            return f"knock {card}"
    theirs: list[str] = view["known"][1 - view["seat"]]
    loose = list(melds.best_arrangement(hand).deadwood)
    options = [a.split()[1] for a in legal if a.startswith("discard ")]
    card = min(
        options,
        key=lambda c: (_discard_cost(c, loose, after, theirs), -melds.card_value(c), c),
    )
    return f"discard {card}"

