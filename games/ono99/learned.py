"""ONO 99's learned value of a play: which card to play, from what the seat sees.

``normal``'s score (``bots.py``) adds up a card's terms with hand-set weights, and the tuned
score (``bots.tuned``) with weights an evolution strategy chose. This value was fitted
instead to what plays are worth when played out: ``python -m bench.ono_train`` plays games
of ``normal`` and, at some of the turns with a choice, plays each card on to the end of the
round (in elimination, the game) from the real position (the other hands as they are, the
draw pile reshuffled) by ``normal`` for every seat, scored by the game's own standings —
how much the seat gained on the others' average. Averaged over many positions the hidden
cards average out, so the value is what a play is worth given what the seat sees.

The value is linear in the features of a play (``NAMES``: each term of the score on its
own — what each kind of card kept is worth, its own risk of being stuck, the pressure on
the next player — the kind of card played, the total it makes and whether it reaches 79,
89 or 95, whether two cards are owed, how many players are left and whether a table of
more is down to two, the shares of unseen cards that cannot follow, that answer a Play 2
and that take 10 off, the draw pile's size, what the hand keeps — its special cards, its
ONO 99s, its lowest number, its numbers' sum, how many of its cards still fit the new
total and ten above it, how likely it is stuck on the new total — and the whole scores of
``normal`` and of the tuned weights) and in every product of two of them
(``games/learned_value.py``), fitted by ridge regression to each decision's play-out
advantages, so only the differences between a seat's plays are learned. It is shipped as
``value.json`` beside this module (read once; the file records how it was trained).

Decision: "down to two players" is never on at a table of two. The value was trained
at four players, where two are left only at the end; a table of two is not that end, and
read as it, the value played worse than ``normal`` (−4.3 ± 2.7 points of win rate over
1,200 two-player games; +2.9 ± 2.5 without it, BENCHMARKS.md).

Swapping four ONO 99 stays the tuned score's (it always swaps), as does a turn with only
one card to play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

import numpy as np

from games.base import View
from games.learned_value import Value, load
from games.ono99.bots import (
    NORMAL,
    Weights,
    _after,
    _bad_share,
    _score,
    _stuck_chance,
    _unseen,
    _unseen_bad_share,
    decide,
    tuned,
)
from games.ono99.cards import FULL_DECK, LIMIT, MINUS, NUMBERS, ONO, P2, REV, SPECIALS, VALUE

#: The shipped weights, beside this module.
WEIGHTS = "value.json"
#: The score's linear weights, each made a feature of its own.
TERMS = ("minus", "play2", "reverse", "ono", "numbers")
#: What a play is described by (``features``), before the products of pairs.
NAMES: tuple[str, ...] = (
    *(f"keeps {t}" for t in TERMS), "risk", "pressure", "pressure passed on",
    "is play 2", "is minus 10", "is reverse", "number played", "total after", "owes two",
    "players left", "unseen stuck share", "normal", "tuned",
    "kept specials", "kept ONO 99s", "lowest number kept", "stuck on the total", "total 89+",
    "total 95+", "down to two players", "draw pile share", "kept cards fitting 10 higher",
    "unseen answers", "unseen minus 10s", "total 79+", "kept number sum", "kept numbers fitting",
)
_ZERO = Weights(minus=0, play2=0, reverse=0, ono=0, numbers=0, risk=0, pressure=0)
_ALONE = {t: Weights(**{**_ZERO.__dict__, t: 1.0}) for t in (*TERMS, "risk", "pressure")}
_PASSED = Weights(**{**_ZERO.__dict__, "pressure": 1.0, "sharpness": 1.0})


def features(
    view: View, action: str, bad: Callable[[int], float], unseen: Counter[str]
) -> list[float]:
    """The features of playing ``action`` (``NAMES``, in order); ``unseen``: the cards the
    seat has not seen, ``bad``: the share of them that cannot be played on a total."""
    card = action.split()[1]
    new = _after(view, card)
    rest = list(view["hand"])
    rest.remove(card)
    kept = [VALUE[c] for c in rest if c in NUMBERS]
    size = max(1, unseen.total())
    return [
        *(_score(view, action, _ALONE[t], bad) for t in TERMS),
        -_score(view, action, _ALONE["risk"], bad),
        _score(view, action, _ALONE["pressure"], bad),
        _score(view, action, _PASSED, bad),
        1.0 if card == P2 else 0.0, 1.0 if card == MINUS else 0.0, 1.0 if card == REV else 0.0,
        VALUE[card] / 10 if card in NUMBERS else 0.0, new / 99,
        1.0 if view["must_play"] == 2 else 0.0, view["eliminated"].count(False) / 4,
        bad(min(LIMIT + 1, new)),
        _score(view, action, NORMAL, _bad_share),
        _score(view, action, tuned(), bad),
        sum(c in SPECIALS for c in rest) / 4, rest.count(ONO) / 4,
        min(kept) / 10 if kept else 1.0, _stuck_chance(rest, new, bad),
        1.0 if new >= 89 else 0.0, 1.0 if new >= 95 else 0.0,
        1.0 if view["eliminated"].count(False) == 2 < view["players"] else 0.0,
        view["draw_pile"] / len(FULL_DECK),
        sum(c != ONO and (c not in NUMBERS or new + 10 + VALUE[c] <= LIMIT) for c in rest) / 4,
        (unseen[P2] + unseen[REV]) / size, unseen[MINUS] / size, 1.0 if new >= 79 else 0.0,
        sum(kept) / 40, sum(new + v <= LIMIT for v in kept) / 4,
    ]


def candidates(legal: list[str]) -> list[str]:
    """The plays the value chooses between."""
    return [a for a in legal if a.startswith("play")]


def rows(view: View, plays: list[str]) -> np.ndarray:
    """The features of each of ``plays`` (not expanded)."""
    unseen = _unseen(view)  # counted once for every play
    bad = _unseen_bad_share(view, unseen)
    return np.array([features(view, a, bad, unseen) for a in plays])


@cache
def shipped() -> Value:
    """The shipped value (read once)."""
    return load(__package__, WEIGHTS, NAMES)


def choose(view: View, legal: list[str], value: Value | None = None) -> str:
    """The learned player's move (the shipped value unless given one)."""
    plays = candidates(legal)
    if "swap" in legal or len(plays) < 2:
        return decide(view, legal, tuned())[0]
    return plays[int(np.argmax((value or shipped()).of(rows(view, plays))))]
