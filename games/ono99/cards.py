"""ONO 99 cards: codes, values, the 2022 deck and tolerant parsing.

Codes are ``0``…``10`` (number cards), ``REV`` (Reverse), ``-10`` (Minus Ten), ``P2``
(Play 2) and ``ONO`` (ONO 99). Input is case-insensitive and ignores spaces; words such as
``reverse``, ``minus 10``, ``−10``, ``play 2`` and ``ono 99`` are accepted too.
"""

from __future__ import annotations

from typing import Final

from games.base import read_number
from i18n import N_, lazy_gettext

#: The highest running total a play may leave (the total must stay below 99).
LIMIT: Final = 98
REV: Final = "REV"
MINUS: Final = "-10"
P2: Final = "P2"
ONO: Final = "ONO"
NUMBERS: Final[tuple[str, ...]] = tuple(str(v) for v in range(11))
SPECIALS: Final[tuple[str, ...]] = (MINUS, REV, P2)
#: Every card code in canonical order (numbers, then specials, then ONO 99).
ORDER: Final[tuple[str, ...]] = (*NUMBERS, *SPECIALS, ONO)
#: Position of each code in ``ORDER``, for sorting.
POSITION: Final[dict[str, int]] = {c: i for i, c in enumerate(ORDER)}

_COUNTS: Final = {"0": 8, **{str(v): 6 for v in range(1, 10)}, "10": 10, ONO: 10, REV: 10,
                  MINUS: 10, P2: 10}
#: The 112-card 2022 deck (its order does not matter: games shuffle it).
FULL_DECK: Final[tuple[str, ...]] = tuple(c for c in ORDER for _ in range(_COUNTS[c]))

#: What a card adds to the running total (``-10`` is floored at 0 by the engine unless
#: negative totals are allowed).
VALUE: Final[dict[str, int]] = {**{c: int(c) for c in NUMBERS}, REV: 0, P2: 0, ONO: 0, MINUS: -10}
#: Plain names for messages (marked for the catalogs: ``_(NAME[card])`` says one).
NAME: Final[dict[str, str]] = {**{c: c for c in NUMBERS}, REV: N_("Reverse"),
                               MINUS: N_("Minus 10"), P2: N_("Play 2"), ONO: N_("ONO 99")}

_WORDS: Final = {
    "REV": REV, "R": REV, "REVERSE": REV,
    "-10": MINUS, "−10": MINUS, "M10": MINUS, "MINUS10": MINUS, "MINUSTEN": MINUS,
    "P2": P2, "PLAY2": P2, "PLAYTWO": P2, "+2": P2,
    "ONO": ONO, "ONO99": ONO,
}


def parse_card(text: str) -> str:
    """The canonical code of ``text``; ``ValueError`` if it is not an ONO 99 card."""
    t = "".join(text.split()).upper()
    if t in _WORDS:
        return _WORDS[t]
    value = read_number(t)
    if value is not None and 0 <= value <= 10:
        return str(value)
    raise ValueError(lazy_gettext(
        "{text!r} is not an ONO 99 card (cards: 0–10, REV, -10, P2, ONO).", text=text.strip()
    ))


def sort_hand(hand: list[str]) -> list[str]:
    """A hand in canonical order."""
    return sorted(hand, key=POSITION.__getitem__)
