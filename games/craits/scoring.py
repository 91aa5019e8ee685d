"""Craits card points and the end-of-round hand score (threes cancel, or score −50)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

#: Points of a card left in hand, by rank (threes are special, see ``hand_score``).
POINTS: Final[dict[str, int]] = {
    "A": 1, "2": 20, "3": 0, "4": 15, "5": 30, "6": 30, "7": 20,
    "8": 50, "9": 30, "T": 25, "J": 10, "Q": 10, "K": 10,
}
#: What a lone 3 scores when it has nothing left to cancel.
LONE_THREE: Final = -50


def hand_score(hand: Iterable[str]) -> tuple[int, list[str]]:
    """Points of a hand left at the end of a round, and the cards its threes cancelled.

    Each 3 cancels the highest-scoring other (non-3) card still counted and then scores 0;
    a 3 with nothing left to cancel scores −50: ``3 2 8`` → 20, ``3 3`` → −100.
    """
    cards = list(hand)
    threes = sum(1 for c in cards if c[0] == "3")
    others = sorted((c for c in cards if c[0] != "3"), key=lambda c: -POINTS[c[0]])
    cancelled = others[:threes]
    kept = others[threes:]
    lone = max(0, threes - len(others))
    return sum(POINTS[c[0]] for c in kept) + LONE_THREE * lone, cancelled
