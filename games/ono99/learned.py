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
the next player — the kind of card played, the total it makes, whether two cards are owed,
how many players are left, the share of unseen cards that cannot follow, and the whole
scores of ``normal`` and of the tuned weights) and in every product of two of them
(``games/learned_value.py``), fitted by ridge regression to each decision's play-out
advantages, so only the differences between a seat's plays are learned. It is shipped as
``value.json`` beside this module (read once; the file records how it was trained).

Swapping four ONO 99 stays the tuned score's (it always swaps), as does a turn with only
one card to play.
"""

from __future__ import annotations

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
    _unseen_bad_share,
    decide,
    tuned,
)
from games.ono99.cards import LIMIT, MINUS, NUMBERS, P2, REV, VALUE

#: The shipped weights, beside this module.
WEIGHTS = "value.json"
#: The score's linear weights, each made a feature of its own.
TERMS = ("minus", "play2", "reverse", "ono", "numbers")
#: What a play is described by (``features``), before the products of pairs.
NAMES: tuple[str, ...] = (
    *(f"keeps {t}" for t in TERMS), "risk", "pressure", "pressure passed on",
    "is play 2", "is minus 10", "is reverse", "number played", "total after", "owes two",
    "players left", "unseen stuck share", "normal", "tuned",
)
_ZERO = Weights(minus=0, play2=0, reverse=0, ono=0, numbers=0, risk=0, pressure=0)
_ALONE = {t: Weights(**{**_ZERO.__dict__, t: 1.0}) for t in (*TERMS, "risk", "pressure")}
_PASSED = Weights(**{**_ZERO.__dict__, "pressure": 1.0, "sharpness": 1.0})


def features(view: View, action: str, bad: Callable[[int], float]) -> list[float]:
    """The features of playing ``action`` (``NAMES``, in order); ``bad`` is the share of
    the cards the seat has not seen that cannot be played on a total."""
    card = action.split()[1]
    new = _after(view, card)
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
    ]


def candidates(legal: list[str]) -> list[str]:
    """The plays the value chooses between."""
    return [a for a in legal if a.startswith("play")]


def rows(view: View, plays: list[str]) -> np.ndarray:
    """The features of each of ``plays`` (not expanded)."""
    bad = _unseen_bad_share(view)  # counted once for every play
    return np.array([features(view, a, bad) for a in plays])


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
