"""Craits action strings: tolerant parsing to the canonical form, and reading them back.

Canonical forms: ``play 7H``, ``play 8H as S``, ``play 9H as D``, any play with `` last``
appended, ``draw``, ``announce``, ``callout 2``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from games import actions
from games.base import IllegalAction
from games.cards import SUIT_NAMES, parse_code
from i18n import N_, Message, lazy_gettext

#: The other suit of the same colour, for a 9.
PARTNER_SUIT: Final = {"S": "C", "C": "S", "H": "D", "D": "H"}
VERBS: Final = "play <card>, draw, announce, callout <seat>"


#: What a card adds to the crank: only aces and 2s may be played while it runs.
CRANK_VALUE: Final = {"A": 1, "2": 2}


def playable(card: str, top: str, suit: str, crank: int) -> bool:
    """Whether ``card`` may be played on ``top`` (the suit to follow being ``suit``): an
    ace or a 2 while the crank runs, else an 8, the suit or the top card's rank."""
    if crank:
        return card[0] in CRANK_VALUE
    return card[0] == "8" or card[1] == suit or card[0] == top[0]


class Play(NamedTuple):
    """A parsed ``play``: the card, the suit it names (8s and switched 9s) and ``last``."""

    card: str
    named: str | None
    last: bool


def play_text(card: str, named: str | None = None, last: bool = False) -> str:
    """The canonical action for a play."""
    return f"play {card}" + (f" as {named}" if named else "") + (" last" if last else "")


def read_play(action: str) -> Play:
    """A canonical ``play …`` action taken apart."""
    words = action.split()
    last = words[-1] == "last"
    named = words[3] if len(words) > 3 and words[2] == "as" else None
    return Play(words[1], named, last)


def parse(text: str) -> str:
    """The canonical form of an action; ``IllegalAction`` if it is malformed."""
    verb, words = actions.split(text)
    if verb in ("draw", "announce"):
        return actions.no_args(verb, words)
    if verb == "callout":
        if len(words) != 1:
            raise IllegalAction(
                lazy_gettext("Say whom to call out by seat number, e.g. 'callout 2'.")
            )
        seat = actions.number(words[0], N_("The seat must be a number, not {word!r}."))
        return f"callout {seat}"
    if verb == "play":
        return _parse_play(words)
    raise IllegalAction(lazy_gettext("Unknown move {verb!r}. Moves: {moves}.", verb=verb,
                                     moves=VERBS))


def _parse_play(words: list[str]) -> str:
    last = bool(words) and words[-1].lower() == "last"
    if last:
        words = words[:-1]
    lower = [w.lower() for w in words]
    named: str | None = None
    if "as" in lower[1:]:  # a first word "as" is the ace of spades
        at = lower.index("as", 1)
        if len(words) != at + 2:
            raise IllegalAction(lazy_gettext("Name one suit after 'as', e.g. 'play 8H as S'."))
        named = actions.suit(words[at + 1])
        words = words[:at]
    card = actions.one_card("play", words, parse_code)
    if card[0] == "8":
        if named is None:
            raise IllegalAction(lazy_gettext("Name a suit: play {card} as S", card=card))
    elif card[0] == "9":
        partner = PARTNER_SUIT[card[1]]
        if named == card[1]:
            named = None
        elif named not in (None, partner):
            raise IllegalAction(lazy_gettext(
                "A 9 can only switch to the other suit of its colour: {suit}",
                suit=Message(SUIT_NAMES[partner]),
            ))
    elif named is not None:
        raise IllegalAction(
            lazy_gettext("Only an 8 (wild) or a 9 (switch colour-mate) names a suit.")
        )
    return play_text(card, named, last)
