"""Tolerant parsing of action strings, shared by every engine.

Actions are a verb followed by arguments: ``discard QH``, ``bid 4``, ``play 8H as S``.
Input is case-insensitive and tolerant of spacing (``  PLAY 10 h  `` is ``play TH``); the
canonical form is the lower-case verb and canonical arguments separated by single spaces.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import IllegalAction, read_number
from i18n import lazy_gettext

SUIT_WORDS = {
    "s": "S", "spade": "S", "spades": "S", "♠": "S",
    "h": "H", "heart": "H", "hearts": "H", "♥": "H",
    "d": "D", "diamond": "D", "diamonds": "D", "♦": "D",
    "c": "C", "club": "C", "clubs": "C", "♣": "C",
}


def split(text: str) -> tuple[str, list[str]]:
    """The lower-case verb and the remaining words of an action."""
    words = text.split()
    if not words:
        raise IllegalAction(lazy_gettext("Say what to do."))
    return words[0].lower(), words[1:]


def take_cards(words: list[str], parse: Callable[[str], str]) -> list[str]:
    """Parse every word as a card; a rank and suit split by a space (``10 h``) are joined."""
    out: list[str] = []
    i = 0
    while i < len(words):
        try:
            out.append(parse(words[i]))
            i += 1
            continue
        except ValueError:
            if i + 1 >= len(words):
                raise
        out.append(parse(words[i] + words[i + 1]))
        i += 2
    return out


def one_card(verb: str, words: list[str], parse: Callable[[str], str]) -> str:
    """Exactly one card after ``verb``, e.g. ``discard QH``."""
    if not words:
        raise IllegalAction(lazy_gettext("Which card? Say e.g. '{verb} QH'.", verb=verb))
    found = take_cards(words, parse)
    if len(found) != 1:
        raise IllegalAction(lazy_gettext("Name one card after '{verb}'.", verb=verb))
    return found[0]


def number(word: str, refusal: str) -> int:
    """A whole number argument (``read_number``: an absurdly long one is out of range);
    ``refusal`` is the message (marked with ``N_``) when it is not one, ``{word!r}`` the word."""
    value = read_number(word.strip())
    if value is None:
        raise IllegalAction(lazy_gettext(refusal, word=word))
    return value


def suit(word: str) -> str:
    """A suit letter from a letter, name or symbol."""
    try:
        return SUIT_WORDS[word.strip().lower()]
    except KeyError:
        raise IllegalAction(
            lazy_gettext("{word!r} is not a suit (say S, H, D or C).", word=word)
        ) from None


def no_args(verb: str, words: list[str]) -> str:
    """A verb that takes nothing after it."""
    if words:
        raise IllegalAction(lazy_gettext("'{verb}' takes nothing after it.", verb=verb))
    return verb
