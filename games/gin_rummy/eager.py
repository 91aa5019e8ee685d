"""The eager Gin Rummy player: a model of an opponent who knocks as soon as it can.

It plays as OpenSpiel's ``SimpleGinRummyBot`` (the EAAI challenge's baseline) plays by our
rules: it takes the discard only when the card joins one of its best melds or lets it
knock at once, knocks whenever it may (with the card leaving the least deadwood; big gin
when all eleven cards meld) and otherwise throws its highest-ranked unmatched card. It is
not a level anyone plays against: the ``expert`` uses it as one of the opponents it fits to
what the other player does, and the benchmarks train against it.
"""

from __future__ import annotations

import random

from games import melds
from games.base import View
from games.cards import LOW_RANK

#: Most deadwood a knock may keep.
KNOCK_LIMIT = 10
#: Ties between cards of one rank go to the later suit here (OpenSpiel's card order).
SUIT_ORDER = "SCDH"


def takes(hand: list[str], top: str) -> bool:
    """Whether the eager player takes ``top``: it melds, or lets it knock at once."""
    after = melds.deadwood_by_discard([*hand, top])
    del after[top]
    if min(after.values()) <= KNOCK_LIMIT:
        return True
    return top not in melds.best_arrangement([*hand, top]).deadwood


def eager_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The eager player's move (see the module docstring)."""
    if legal[0] in ("take", "draw"):
        if "take" in legal and takes(view["hand"], view["discard_top"]):
            return "take"
        return "pass" if "pass" in legal else "draw"
    if "biggin" in legal:
        return "biggin"
    hand: list[str] = view["hand"]
    knocks = [a for a in legal if a.startswith("knock ")]
    if knocks:
        after = melds.deadwood_by_discard(hand)
        return min(
            knocks, key=lambda a: (after[a[6:]], -LOW_RANK[a[6:]], -SUIT_ORDER.index(a[7]))
        )
    return "discard " + throw(hand, [a[8:] for a in legal if a.startswith("discard ")])


def throw(hand: list[str], options: list[str]) -> str:
    """The card of ``options`` the eager player throws from ``hand`` without knocking: its
    highest-ranked unmatched card, else the one leaving the least deadwood."""
    loose = [c for c in melds.best_arrangement(hand).deadwood if c in options]
    if loose:
        return max(loose, key=lambda c: (LOW_RANK[c], SUIT_ORDER.index(c[1])))
    after = melds.deadwood_by_discard(hand)
    return min(options, key=lambda c: (after[c], c))
