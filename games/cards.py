"""Standard playing cards: codes, parsing, decks, dealing and pretty rendering.

A card is its canonical code, rank then suit: ``AS``, ``TH``, ``7C``, ``QD``; the Back
Alley jokers are ``BJ`` (Big Blooper) and ``LJ`` (Little Blooper). Engines keep cards in
their states as these plain strings (so states are JSON as they are) and look facts up in
the tables here. ``Card`` is the value type for parsing and printing: it *is* the code
(a ``str``), so it can be stored, compared and serialised like one.

Parsing is case-insensitive, ignores spaces, accepts ``10`` for ``T`` and the suit
symbols ``♠♥♦♣``. Pretty rendering (``pretty``) is separate from codes: it is for people.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from i18n import N_, Message, _, lazy_gettext, ngettext

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: Suit names (marked for the catalogs: ``_(SUIT_NAMES[s])`` says one to a reader).
SUIT_NAMES: Final = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
SUIT_SINGULAR: Final = {"S": N_("spade"), "H": N_("heart"), "D": N_("diamond"), "C": N_("club")}
RED_SUITS: Final = frozenset("HD")
BIG_JOKER: Final = "BJ"
LITTLE_JOKER: Final = "LJ"
JOKERS: Final = (BIG_JOKER, LITTLE_JOKER)
#: The jokers' names on labels (marked for the catalogs; the seeds' Big and Little Blooper).
JOKER_NAMES: Final = {BIG_JOKER: N_("Big🃏"), LITTLE_JOKER: N_("Little🃏")}

STANDARD_DECK: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
DECK_WITH_JOKERS: Final[tuple[str, ...]] = (*STANDARD_DECK, BIG_JOKER, LITTLE_JOKER)

#: Rank with the ace low: A=1, 2..10, J=11, Q=12, K=13.
LOW_RANK: Final[dict[str, int]] = {c: RANKS.index(c[0]) + 1 for c in STANDARD_DECK}
#: Rank with the ace high: 2..10, J=11, Q=12, K=13, A=14.
HIGH_RANK: Final[dict[str, int]] = {c: (LOW_RANK[c] if c[0] != "A" else 14) for c in STANDARD_DECK}
#: Suit letter of each standard card.
SUIT: Final[dict[str, str]] = {c: c[1] for c in STANDARD_DECK}
#: Position 0..51 of each standard card in ``STANDARD_DECK`` (for bitmasks).
INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(STANDARD_DECK)}

_RANK_WORDS: Final = {"10": "T", "1": "A"}
_SYMBOL_SUITS: Final = {v: k for k, v in SUIT_SYMBOLS.items()}
_JOKER_WORDS: Final = {
    "BJ": BIG_JOKER, "BIGBLOOPER": BIG_JOKER, "BIGJOKER": BIG_JOKER,
    "LJ": LITTLE_JOKER, "LITTLEBLOOPER": LITTLE_JOKER, "LITTLEJOKER": LITTLE_JOKER,
}


class Card(str):
    """A playing card; equal to (and usable as) its canonical code."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card code such as ``qh``, ``10 ♠`` or ``bj``; raise ``ValueError``."""
        code = parse_code(text)
        return cls(code)

    @property
    def rank(self) -> str:
        """The rank letter (``A 2 … 9 T J Q K``), or the joker's own code."""
        return self if self in JOKERS else self[0]

    @property
    def suit(self) -> str | None:
        """The suit letter, or ``None`` for a joker."""
        return None if self in JOKERS else self[1]

    def pretty(self) -> str:
        """The card for people: ``Q♥``, ``10♠``."""
        return pretty(self)


def parse_code(text: str) -> str:
    """Return the canonical code of ``text``; raise ``ValueError`` if it is not a card."""
    t = "".join(text.split()).upper()
    if t in _JOKER_WORDS:
        return _JOKER_WORDS[t]
    if len(t) >= 2 and t[-1] in _SYMBOL_SUITS:
        t = t[:-1] + _SYMBOL_SUITS[t[-1]]
    rank, suit = t[:-1], t[-1:]
    rank = _RANK_WORDS.get(rank, rank)
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise ValueError(lazy_gettext(
            "{text!r} is not a card (try codes like QH, 10S, AD)", text=text.strip(),
        ))
    return rank + suit


def pretty(code: str) -> str:
    """Render a card code with a suit symbol: ``TH`` → ``10♥``; jokers by name, in the
    language spoken."""
    if code in JOKER_NAMES:
        return _(JOKER_NAMES[code])
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS[code[1]]


def shown(code: str) -> str | Message:
    """``pretty`` for a ``Message``'s parameters: a joker's name is put into words when
    the message is."""
    return Message(JOKER_NAMES[code]) if code in JOKER_NAMES else pretty(code)


def suit_count(count: int, suit: str) -> str:
    """``1 spade``, ``3 hearts``: a count of cards of one suit."""
    if suit == "S":
        return ngettext("{n} spade", "{n} spades", count)
    if suit == "H":
        return ngettext("{n} heart", "{n} hearts", count)
    if suit == "D":
        return ngettext("{n} diamond", "{n} diamonds", count)
    return ngettext("{n} club", "{n} clubs", count)


def pretty_list(codes: Iterable[str]) -> str:
    """Render several cards separated by spaces."""
    return " ".join(pretty(c) for c in codes)


def sort_hand(
    codes: Iterable[str],
    ace_high: bool = False,
    suits: str = "SHDC",
    *,
    first: str | None = None,
    descending: bool = False,
) -> list[str]:
    """Sort by suit (in ``suits`` order, but suit ``first`` — say the trumps — before the
    others) then rank, low to high or ``descending``; jokers first (Little below Big)."""
    ranks = HIGH_RANK if ace_high else LOW_RANK
    order = suits if first is None else first + suits.replace(first, "")
    sign = -1 if descending else 1

    def key(c: str) -> tuple[int, int]:
        if c in JOKERS:
            return (-1, -sign * JOKERS.index(c))
        return (order.index(c[1]), sign * ranks[c])

    return sorted(codes, key=key)


def deal(
    deck: Sequence[str], players: int, size: int, dealer: int
) -> tuple[list[list[str]], list[str]]:
    """Deal ``size`` cards to each player one at a time, starting left of ``dealer``.

    ``deck[0]`` is the top card. Returns the hands (indexed by seat) and the rest of the
    deck, top first.
    """
    hands: list[list[str]] = [[] for _ in range(players)]
    pos = 0
    for _round in range(size):
        for k in range(1, players + 1):
            hands[(dealer + k) % players].append(deck[pos])
            pos += 1
    return hands, list(deck[pos:])
