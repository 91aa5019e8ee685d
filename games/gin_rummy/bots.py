"""Gin Rummy computer players. They see only their own seat's view.

``normal`` keeps melds and near-melds, picks up a discard only when it joins a meld or
cuts its deadwood a lot, throws its highest loose card that the opponent is not known to
want, goes gin (or big gin) whenever it can and knocks when its deadwood is low enough:
any legal knock early in the hand, a lower one later or when the opponent has been
picking up discards (undercut risk).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games import melds
from games.base import View, Why
from games.cards import LOW_RANK, SUIT
from i18n import N_, _

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


def _take(view: View) -> Why | None:
    """Why taking the discard top beats drawing blind; ``None`` if it does not."""
    hand: list[str] = view["hand"]
    top: str = view["discard_top"]
    now = melds.min_deadwood(hand)
    after = melds.deadwood_by_discard([*hand, top])
    del after[top]
    best = min(after, key=lambda c: (after[c], c))
    if after[best] <= now - TAKE_GAIN:
        return (N_("{} cuts your deadwood from {} to {}"), top, now, after[best])
    if after[best] >= now:
        return None
    kept = [c for c in hand if c != best] + [top]
    meld = next((m for m in melds.best_arrangement(kept).melds if top in m), None)
    return None if meld is None else (N_("{} makes the meld {}"), top, tuple(meld))


def _why_discard(
    name: Callable[[str], str], card: str, hand: list[str], theirs: list[str],
    options: tuple[str, ...],
) -> str:
    """Why ``card`` is the one to throw: the near-melds it keeps, and what it is."""
    loose = list(melds.best_arrangement(hand).deadwood)
    parts = []
    rest = [c for c in loose if c != card]
    pair = next(((a, b) for i, a in enumerate(rest) for b in rest[i + 1:] if _near(a, b)), None)
    if pair is not None:
        first, second = name(pair[0]), name(pair[1])
        parts.append(
            _("keeps {first} {second} for a set", first=first, second=second)
            if pair[0][0] == pair[1][0]
            else _("keeps {first} {second} for a run", first=first, second=second)
        )
    worth = melds.card_value(card)
    kept_for_them = [c for c in rest if helps(c, theirs) and melds.card_value(c) > worth]
    if kept_for_them:
        parts.append(_("holds on to {card}, which your opponent could use",
                       card=name(kept_for_them[0])))
    if card not in loose:
        after = melds.deadwood_by_discard(hand)
        least = after[card] == min(after[c] for c in options)
        parts.append(
            _("breaking up a meld with {card} leaves the least deadwood", card=name(card))
            if least else _(
                "breaking up a meld with {card} leaves {deadwood} deadwood; those leaving"
                " less could still meld or help your opponent",
                card=name(card), deadwood=after[card],
            )
        )
    elif all(worth >= melds.card_value(c) for c in loose):
        tied = any(melds.card_value(c) == worth for c in rest)
        parts.append(
            _("{card} is one of your highest unmatched cards", card=name(card)) if tied
            else _("{card} is your highest unmatched card", card=name(card))
        )
    else:
        parts.append(_("{card} is the unmatched card you can best spare", card=name(card)))
    return "; ".join(parts)


def decide(view: View, legal: list[str]) -> tuple[str, Why]:
    """The ``normal`` player's move, and why."""
    if legal[0] in ("take", "draw"):
        if "take" not in legal:
            return "draw", (N_("both players passed the upcard, so you draw from the stock"),)
        why = _take(view)
        if why is not None:
            return "take", why
        return (
            "pass" if "pass" in legal else "draw",
            (N_("{} would neither meld nor cut your deadwood much"), view["discard_top"]),
        )
    if "biggin" in legal:
        return "biggin", (N_("all eleven of your cards are in melds: big gin"),)
    hand: list[str] = view["hand"]
    after = melds.deadwood_by_discard(hand)
    knocks = [a for a in legal if a.startswith("knock ")]
    if knocks:
        card = min((a.split()[1] for a in knocks), key=lambda c: (after[c], -melds.card_value(c)))
        if after[card] == 0:
            return f"knock {card}", (N_("throwing {} leaves no deadwood: gin"), card)
        limit = knock_limit(view)
        if after[card] <= limit:
            return f"knock {card}", (
                N_("throwing {} leaves {} deadwood, no more than the {} worth knocking with now"),
                card, after[card], limit,
            )
    theirs: list[str] = view["known"][1 - view["seat"]]
    loose = list(melds.best_arrangement(hand).deadwood)
    options = [a.split()[1] for a in legal if a.startswith("discard ")]
    card = min(
        options,
        key=lambda c: (_discard_cost(c, loose, after, theirs), -melds.card_value(c), c),
    )
    return f"discard {card}", (_why_discard, card, hand, theirs, tuple(options))


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` Gin Rummy computer player."""
    return decide(view, legal)[0]
