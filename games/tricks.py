"""Trick-taking building blocks shared by Spades and Back Alley.

A trick is a list of ``[seat, card]`` plays in order. Which suit a card belongs to and how
strong it is are the game's business (Back Alley's jokers are trumps), so both are passed
in as functions; everything else — following suit and finding the winner — is here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

SuitOf = Callable[[str], str]
Strength = Callable[[str], int]


def follow_options(hand: Sequence[str], led: str | None, suit_of: SuitOf) -> list[str]:
    """Cards of ``hand`` that may be played: the led suit if the hand has any, else all."""
    if led is None:
        return list(hand)
    same = [c for c in hand if suit_of(c) == led]
    return same or list(hand)


def winning_index(
    cards: Sequence[str], suit_of: SuitOf, strength: Strength, trump: str | None
) -> int:
    """Index of the card that wins: the strongest trump, else the strongest of the led suit."""
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        cs = suit_of(c)
        if cs == suit_of(b):
            if strength(c) > strength(b):
                best = i
        elif cs == trump:  # the best so far is of the led suit (or a trump of ``cs``)
            best = i
    return best


def trick_winner(
    trick: Sequence[Sequence[Any]], suit_of: SuitOf, strength: Strength, trump: str | None
) -> int:
    """Seat that wins a completed trick of ``[seat, card]`` plays."""
    cards = [str(p[1]) for p in trick]
    return int(trick[winning_index(cards, suit_of, strength, trump)][0])
