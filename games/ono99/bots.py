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

Every number it weighs is a field of ``Weights``; ``NORMAL`` holds ``normal``'s. The
``expert`` plays the same score with weights learned against ``normal``
(``tuned``, written by ``python -m bench.ono_tune``), which may also count the
cards (shares of the cards it has not seen rather than of the whole deck) and prefer
playing a Play 2 or Minus 10 now.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from games.base import View, Why
from games.ono99.cards import FULL_DECK, LIMIT, MINUS, NUMBERS, ONO, P2, REV, VALUE
from i18n import N_, _, listing


@dataclass(frozen=True)
class Weights:
    """What the score weighs (see the module docstring); the defaults are ``normal``'s."""

    #: Keeping value of a Minus 10, a Play 2, a Reverse and an ONO 99 left in hand.
    minus: float = 1.0
    play2: float = 0.9
    reverse: float = 0.8
    ono: float = 0.0
    #: Keeping value of a number card: this × (10 − its value) / 10.
    numbers: float = 0.8
    #: Weight of its own risk of being stuck, and of the pressure on the next player.
    risk: float = 2.0
    pressure: float = 1.0
    #: How far the total may climb per other player before the turn comes back (the
    #: risk is averaged over 0 to 3 such climbs).
    climb: float = 3.0
    #: The pressure is the share of unplayable cards to this power (1 for a Play 2
    #: passed on, which the next player must answer twice).
    sharpness: float = 2.0
    #: Shares of the cards not yet seen (in no hand shown, not in the discard pile)
    #: instead of the whole deck.
    counting: bool = False
    #: Extra value of playing a Play 2 or a Minus 10 now.
    play2_now: float = 0.0
    minus_now: float = 0.0

    def keep(self, card: str) -> float:
        """The value of keeping ``card``."""
        special = {MINUS: self.minus, P2: self.play2, REV: self.reverse, ONO: self.ono}
        return special[card] if card in special else self.numbers * (10 - VALUE[card]) / 10


#: ``normal``'s weights.
NORMAL = Weights()
#: The tuned weights (``python -m bench.ono_tune`` writes them), beside this module.
TUNED_PATH = Path(__file__).with_name("weights.json")


@cache
def tuned() -> Weights:
    """The shipped tuned weights (read once)."""
    text = resources.files(__package__).joinpath(TUNED_PATH.name).read_text(encoding="utf-8")
    return Weights(**json.loads(text)["weights"])


#: A total on which this share of the deck cannot be played is worth saying so in a hint.
PRESSING = 0.3
_DECK = Counter(FULL_DECK)


@lru_cache(maxsize=512)
def _bad_share(total: int) -> float:
    """Share of the deck that cannot be played on ``total``."""
    bad = _DECK[ONO] + sum(_DECK[c] for c in NUMBERS if total + VALUE[c] > LIMIT)
    return bad / len(FULL_DECK)


def _unseen(view: View) -> Counter[str]:
    """The cards ``view``'s seat has not seen (in no hand shown, not in the discard pile)."""
    seen: Counter[str] = Counter(view["hand"]) + Counter(view["discards"])
    for shown in view["revealed"]:
        seen.update(shown or [])
    return _DECK - seen


def _unseen_bad_share(view: View, unseen: Counter[str] | None = None) -> Callable[[int], float]:
    """Share of the cards ``view``'s seat has not seen (``unseen`` if already counted) that
    cannot be played on a total."""
    unseen = _unseen(view) if unseen is None else unseen
    size = max(1, unseen.total())

    @lru_cache(maxsize=32)
    def share(total: int) -> float:
        bad = unseen[ONO] + sum(unseen[c] for c in NUMBERS if total + VALUE[c] > LIMIT)
        return bad / size

    return share


def _stuck_chance(hand: list[str], total: int, bad: Callable[[int], float]) -> float:
    """Chance that ``hand`` plus one unknown card has nothing to play on ``total``."""
    for card in hand:
        if card == ONO:
            continue
        if card not in NUMBERS or total + VALUE[card] <= LIMIT:
            return 0.0
    return bad(total)


def _score(view: View, action: str, w: Weights, bad: Callable[[int], float]) -> float:
    """How good playing ``action``'s card is (see the module docstring)."""
    hand: list[str] = view["hand"]
    owed: int = view["must_play"]
    others = max(1, view["eliminated"].count(False) - 1)
    card = action.split()[1]
    new = _after(view, card)
    rest = list(hand)
    rest.remove(card)
    passes_on = card == P2 or (card == REV and owed == 2)
    risk = sum(_stuck_chance(rest, min(LIMIT + 1, int(new + k * w.climb * others)), bad)
               for k in range(4)) / 4
    if owed == 2 and not passes_on:
        risk = max(risk, _stuck_chance(rest, new, bad))
    pressure = bad(min(LIMIT + 1, new)) ** (1 if passes_on else w.sharpness)
    now = w.play2_now if card == P2 else w.minus_now if card == MINUS else 0.0
    return sum(map(w.keep, rest)) - w.risk * risk + w.pressure * pressure + now


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


def decide(view: View, legal: list[str], weights: Weights = NORMAL) -> tuple[str, Why]:
    """The move the score with ``weights`` picks (``normal``'s by default), and why."""
    if "swap" in legal:
        return "swap", (N_("four ONO 99 cards are dead weight: you swap them"),)
    bad = _unseen_bad_share(view) if weights.counting else _bad_share
    action = max(legal, key=lambda a: _score(view, a, weights, bad))
    return action, (_why_play, view, action)


def normal_bot(view: View, legal: list[str], rng: random.Random) -> str:
    """A sensible ONO 99 player: safe for itself, awkward for the next player."""
    return decide(view, legal)[0]
