"""Gin Rummy computer players. They see only their own seat's view.

``normal`` keeps melds and near-melds, picks up a discard only when it joins a meld or
cuts its deadwood a lot, throws its highest loose card (a little less readily one near a
card the opponent took; once its deadwood may be 10 or less, simply the card leaving the
least) and goes gin (or big gin) whenever it can. It knocks by ``KNOCK``, a rule measured
by play-outs (``bench/gin_knock.py``): early in the hand with 6–10 deadwood (5 only in
the first two turns), when the opponent's hand is still poor; never with 1–4, when waiting
for gin, or to undercut the opponent's knock, pays more; and not late in the hand, when
the opponent's hand has grown good enough to undercut. Every card the opponent took from
the pile (it holds melds) moves the knock earlier.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from games import melds
from games.base import View, Why
from games.cards import LOW_RANK, SUIT
from games.gin_rummy import scoring
from i18n import N_, _

#: Deadwood cut that makes a discard worth taking even if it joins no meld.
TAKE_GAIN = 6
#: Extra cost of throwing a card that is part of a pair or a two-card run draw.
NEAR_MELD_COST = 4
#: Extra cost of throwing a card the opponent is known to be collecting. Small: keeping a
#: high card only because it is near one the opponent took leaves too much deadwood. With
#: 2 rather than 7, ``normal`` won 58.2 % (56.6–59.7 %) of 4,000 games to 100 against
#: itself with 7, and scored 0.83 ± 0.22 points a hand more against ``SimpleGinRummyBot``
#: (hands 0–7,999, paired); 0–2.5 measured alike, 4 a little worse.
DANGER_COST = 2


def _near(a: str, b: str) -> bool:
    """Pair, or same suit within two ranks: one card away from a meld."""
    if a[0] == b[0]:
        return True
    return SUIT[a] == SUIT[b] and abs(LOW_RANK[a] - LOW_RANK[b]) <= 2


def helps(card: str, held: list[str]) -> bool:
    """Whether ``card`` pairs with, or is a run draw for, a card in ``held``."""
    return any(_near(card, k) for k in held)


@dataclass(frozen=True)
class KnockRule:
    """When a knock (not gin) pays: with ``deadwood`` d, while the stock holds at least
    ``from_stock[d]`` cards (never for a d it does not list), plus ``per_taken`` for each
    card the opponent took from the pile and holds."""

    from_stock: Mapping[int, int]
    per_taken: int

    def least_stock(self, deadwood: int, opponent_known: int) -> int | None:
        """The fewest stock cards left at which knocking with ``deadwood`` pays."""
        least = self.from_stock.get(deadwood)
        return None if least is None else least + self.per_taken * opponent_known

    def pays(self, deadwood: int, stock: int, opponent_known: int) -> bool:
        """Whether knocking with ``deadwood`` pays with ``stock`` cards left."""
        least = self.least_stock(deadwood, opponent_known)
        return least is not None and stock >= least


#: ``normal``'s knocks, fitted by ``python -m bench.gin_knock`` (its docstring has the
#: numbers and how each round's play-outs moved them).
KNOCK = KnockRule(from_stock={5: 29, 6: 22, 7: 21, 8: 21, 9: 20, 10: 21}, per_taken=2)


def low(after: dict[str, int]) -> bool:
    """Whether the hand (``after``: its deadwood by discard) may keep 10 or less: then, as
    the opponent may knock any time and a knock of ours waits for gin or an undercut, every
    point of deadwood counts more than a near-meld (+0.4 points a hand against
    ``SimpleGinRummyBot`` over 8,000 hands)."""
    return min(after.values()) <= scoring.KNOCK_LIMIT


def _discard_cost(card: str, loose: list[str], after: dict[str, int], theirs: list[str]) -> int:
    cost = after[card]
    near = not low(after) and any(_near(card, o) for o in loose if o != card)
    if card in loose and near:
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
    options: tuple[str, ...], waited: int | None = None,
) -> str:
    """Why ``card`` is the one to throw: the near-melds it keeps (or, when a knock with
    ``waited`` deadwood was declined or the deadwood is as low, that the least deadwood
    counts), and what it is (``options``: the cards it could throw)."""
    loose = list(melds.best_arrangement(hand).deadwood)
    parts = []
    rest = [c for c in loose if c != card]
    pair = next(((a, b) for i, a in enumerate(rest) for b in rest[i + 1:] if _near(a, b)), None)
    if waited is not None:
        parts.append(_("knocking with {waited} deadwood pays less than waiting", waited=waited))
    elif low(melds.deadwood_by_discard(hand)):
        parts.append(_("at this low deadwood each point counts more than a near-meld"))
    elif pair is not None:
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


def decide(view: View, legal: list[str], rule: KnockRule = KNOCK) -> tuple[str, Why]:
    """The ``normal`` player's move, and why (knocking by ``rule``)."""
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
        known = len(view["known"][1 - view["seat"]])
        if rule.pays(after[card], view["stock"], known):
            return f"knock {card}", (
                N_("throwing {} leaves {} deadwood, and with {} cards left in the stock"
                   " knocking with that pays more than waiting"),
                card, after[card], view["stock"],
            )
        waited = after[card]
    else:
        waited = None
    theirs: list[str] = view["known"][1 - view["seat"]]
    options = [a.split()[1] for a in legal if a.startswith("discard ")]
    card = discard_order(hand, options, theirs)[0]
    return f"discard {card}", (_why_discard, card, hand, theirs, tuple(options), waited)


def discard_order(hand: list[str], options: list[str], theirs: list[str]) -> list[str]:
    """``options`` (cards of ``hand`` it may throw), the cheapest to throw first: the
    deadwood it leaves, plus a cost for breaking up a near-meld and for feeding the
    opponent (``theirs``: the cards it took); ties go to the higher card."""
    after = melds.deadwood_by_discard(hand)
    loose = list(melds.best_arrangement(hand).deadwood)
    return sorted(
        options,
        key=lambda c: (_discard_cost(c, loose, after, theirs), -melds.card_value(c), c),
    )


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """The ``normal`` Gin Rummy computer player."""
    return decide(view, legal)[0]
