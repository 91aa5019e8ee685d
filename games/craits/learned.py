"""Craits' learned value of a play: which card to play, from what the seat sees.

``normal`` (``bots.py``) weighs a play by hand-set points; this value was fitted instead to
what plays are worth when played out. ``python -m bench.craits_train`` plays games of
``normal`` and, at some of the turns with a choice, plays each candidate card out to the
end of the round from the real position (the other hands as they are, the draw pile
reshuffled), by ``normal`` for every seat, scored as the game scores it: the round points
the others took on average minus mine. Averaged over many positions the hidden cards
average out, so the value is what a play is worth given what the seat sees — one step of
policy improvement over ``normal``.

The value is linear in the features of a play (``NAMES``: ``normal``'s own value, what the
card scores and which rank it is, what it leaves in hand, the next player's chance of
being unable to follow from the cards unseen and what its refusals to play showed
(``reading.py``), a power against a player close to going out) and in every product of two
of them (``games/learned_value.py``); it is fitted by ridge regression to each decision's
play-out advantages (the candidates' values less their mean), so only the differences
between a seat's plays are learned. It is shipped as ``weights.json`` beside this module (read once;
the file also records how it was trained).

Rule decisions kept from ``normal``: call out and announce whenever possible, play a card
announced as the last one when such a play is legal, and during the crank shed the most
points (the value was not trained there). Of an 8's four suits (and a 9's two) only the one
``normal`` values most is a candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from games.base import View
from games.cards import STANDARD_DECK
from games.craits import bots, moves
from games.craits.reading import Refusal, refusals, slots
from games.craits.scoring import POINTS
from games.learned_value import Value, load

#: The shipped weights, beside this module.
WEIGHTS = "weights.json"
#: Ranks with a feature of their own (``F``: the face cards, which score alike).
RANKS = "A2345679TF8"
#: What a play is described by (``features``), before the products of pairs.
NAMES: tuple[str, ...] = (
    "normal", "points", *(f"is {r}" for r in RANKS), "near attack", "danger points",
    "follow", "follow points", "twin", "stuck", "stuck per card", "eights left",
    "threes left", "rest points", "six goes on", "suit switch", "cards left", "next holds",
    "fewest held",
)


def stuck_chance(view: View, play: moves.Play, ahead: int, refused: Sequence[Refusal],
                 unseen: Sequence[str]) -> float:
    """The chance that the player ``ahead`` holds nothing to follow ``play`` with: each
    part of its hand (``reading.slots``) dealt at random from the unseen cards its refusals
    allow."""
    suit = play.named or play.card[1]
    p = 1.0
    for count, rule in slots(view["hand_counts"][ahead], refused):
        pool = list(unseen) if rule is None else [c for c in unseen if rule(c)]
        if pool:
            stuck = sum(1 for c in pool if not moves.playable(c, play.card, suit, 0))
            p *= (stuck / len(pool)) ** count
    return p


def features(view: View, action: str, refused: Sequence[Sequence[Refusal]],
             unseen: Sequence[str]) -> list[float]:
    """The features of playing ``action`` (``NAMES``, in order)."""
    play = moves.read_play(action)
    card, rank = play.card, play.card[0]
    rest = [c for c in view["hand"] if c != card]
    seat, n = view["seat"], view["players"]
    counts: list[int] = view["hand_counts"]
    ahead = (seat + view["direction"]) % n
    fewest = min(counts[s] for s in range(n) if s != seat)
    suit = play.named or card[1]
    follow = [c for c in rest if c[1] == suit and c[0] not in "38"]
    face = "F" if rank in "JQK" else rank
    stuck = 0.0 if rank == "6" else stuck_chance(view, play, ahead, refused[ahead], unseen)
    return [
        bots._value(view, play) / 10, POINTS[rank] / 10,
        *(1.0 if face == r else 0.0 for r in RANKS),
        1.0 if counts[ahead] <= 2 and rank in "2457" else 0.0,
        POINTS[rank] / 10 if fewest <= 1 else 0.0,
        len(follow), sum(POINTS[c[0]] for c in follow) / 10,
        sum(1 for c in rest if c[0] == rank), stuck, stuck / max(1, counts[ahead]),
        sum(1 for c in rest if c[0] == "8"), sum(1 for c in rest if c[0] == "3"),
        sum(POINTS[c[0]] for c in rest if c[0] != "3") / 10,
        1.0 if rank == "6" and (follow or any(c[0] in "68" for c in rest)) else 0.0,
        1.0 if play.named and rank == "9" else 0.0,
        len(rest), counts[ahead], fewest,
    ]


def candidates(view: View, legal: Sequence[str]) -> list[str]:
    """The plays the value chooses between: those announcing the last card if any, and of
    each card only the suit ``normal`` values most."""
    plays = [a for a in legal if a.startswith("play")]
    if any(a.endswith(" last") for a in plays):
        plays = [a for a in plays if a.endswith(" last")]
    best: dict[str, tuple[float, str]] = {}
    for a in plays:
        play = moves.read_play(a)
        v = bots._value(view, play)
        if play.card not in best or v > best[play.card][0]:
            best[play.card] = (v, a)
    return [a for _, a in best.values()]


def rows(view: View, plays: Sequence[str]) -> np.ndarray:
    """The features of each of ``plays`` (not expanded)."""
    refused = refusals(view["history"], view["players"])
    seen = set(view["hand"]) | set(view["discards"])
    unseen = [c for c in STANDARD_DECK if c not in seen]
    return np.array([features(view, a, refused, unseen) for a in plays])


@cache
def shipped() -> Value:
    """The shipped value (read once)."""
    return load(__package__, WEIGHTS, NAMES)


def choose(view: View, legal: list[str], value: Value | None = None) -> str:
    """The learned player's move (the shipped value unless given one; see the module
    docstring for what stays ``normal``'s)."""
    if view["crank"] or not any(a.startswith("play") for a in legal) or any(
        a.split()[0] in ("announce", "callout") for a in legal
    ):
        return bots.decide(view, legal)[0]
    plays = candidates(view, legal)
    if len(plays) == 1:
        return plays[0]
    values = (value or shipped()).of(rows(view, plays))
    return plays[int(np.argmax(values))]
