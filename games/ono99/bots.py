"""ONO 99 computer players (they see only their own seat's view).

``normal`` scores each legal card by what it leaves in hand and a one-step look-ahead:

* keeping value: −10, Play 2 and Reverse always fit, so they are kept for high totals
  (−10 last, since it also helps the next player); low numbers fit high totals, so high
  numbers are played while they still fit; ONO 99 is dead weight;
* its own risk: the chance that its other cards plus one unknown draw cannot be played
  when the turn comes back (the total climbs by a few points per other player), and,
  when it owes a second card, whether one is left;
* pressure: the chance that four unknown cards cannot be played on the new total (raised
  for Play 2, which makes the next player play twice).

It always swaps four ONO 99 and answers a Play 2 with Reverse or Play 2 when playing two
would cost it more.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from games.base import View, Why
from games.ono99.cards import FULL_DECK, LIMIT, MINUS, NUMBERS, ONO, P2, REV, VALUE
from i18n import N_, _, listing

#: How far the total may climb per other player before the turn comes back.
_CLIMB = (0, 3, 6, 9)
_KEEP = {
    MINUS: 1.0, P2: 0.9, REV: 0.8, ONO: 0.0,
    **{c: 0.8 * (10 - VALUE[c]) / 10 for c in NUMBERS},
}
_RISK_WEIGHT = 2.0
_PRESSURE_WEIGHT = 1.0
#: A total on which this share of the deck cannot be played is worth saying so in a hint.
PRESSING = 0.3
_DECK = Counter(FULL_DECK)


@lru_cache(maxsize=512)
def _bad_share(total: int) -> float:
    """Share of the deck that cannot be played on ``total``."""
    bad = _DECK[ONO] + sum(_DECK[c] for c in NUMBERS if total + VALUE[c] > LIMIT)
    return bad / len(FULL_DECK)


def _stuck_chance(hand: list[str], total: int) -> float:
    """Chance that ``hand`` plus one unknown card has nothing to play on ``total``."""
    for card in hand:
        if card == ONO:
            continue
        if card not in NUMBERS or total + VALUE[card] <= LIMIT:
            return 0.0
    return _bad_share(total)


def _score(view: View, action: str) -> float:
    """How good playing ``action``'s card is (see the module docstring)."""
    hand: list[str] = view["hand"]
    owed: int = view["must_play"]
    others = max(1, view["eliminated"].count(False) - 1)
    card = action.split()[1]
    new = _after(view, card)
    rest = list(hand)
    rest.remove(card)
    passes_on = card == P2 or (card == REV and owed == 2)
    risk = sum(_stuck_chance(rest, min(LIMIT + 1, new + step * others))
               for step in _CLIMB) / len(_CLIMB)
    if owed == 2 and not passes_on:
        risk = max(risk, _stuck_chance(rest, new))
    pressure = _bad_share(new) ** (1 if passes_on else 2)
    return (sum(_KEEP[c] for c in rest) - _RISK_WEIGHT * risk
            + _PRESSURE_WEIGHT * pressure)


def _after(view: View, card: str) -> int:
    """The total once ``card`` is played."""
    new: int = view["total"] + VALUE[card]
    if card == MINUS and not view["options"]["negative_totals"]:
        new = max(0, new)
    return new


def _why_play(name: Callable[[str], str], view: View, action: str) -> str:
    card = action.split()[1]
    new = _after(view, card)
    rest = list(view["hand"])
    rest.remove(card)
    kept = [name(c) for c in (MINUS, P2, REV) if c in rest and c != card]
    said = (
        _("{card} takes the total to {total} and keeps your {kept} for higher totals",
          card=name(card), total=new, kept=listing(kept))
        if kept and card not in (MINUS, P2, REV)
        else _("{card} takes the total to {total}", card=name(card), total=new)
    )
    if _bad_share(new) >= PRESSING:
        return _("{said}; few cards can be played on {total}", said=said, total=new)
    return said


def decide(view: View, legal: list[str]) -> tuple[str, Why]:
    """The ``normal`` player's move, and why."""
    if "swap" in legal:
        return "swap", (N_("four ONO 99 cards are dead weight: you swap them"),)
    action = max(legal, key=lambda a: _score(view, a))
    return action, (_why_play, view, action)


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """A sensible ONO 99 player: safe for itself, awkward for the next player."""
    return decide(view, legal)[0]
