"""How Deckhand writes counts, option values and numbers, on every surface.

One place for each, so every message says them the same way (``tests/test_words.py``
greps rendered messages for what they replace):

* ``plural``: a count and its noun, ``1 card``, ``2 cards``, ``3 lobbies`` — never
  ``card(s)``; ``noun``: the noun alone, for a count said elsewhere. ``noun`` is the
  single place a translation layer will route plurals through (gettext's ``ngettext``
  takes the singular, the plural and the count, as it does).
* ``option_value``: a table option's value as players type it, ``on``/``off`` for a
  switch — never Python's ``True``/``False``.
* ``number`` and ``signed``: a score with the one minus sign, U+2212 (``−50``; typeset
  minus, as the ONO 99 card −10 is written), and a change of score with its sign
  (``+26``, ``−50``). Data meant for programs (exports, logs) keep ASCII.

Lives in ``games`` because the engines' own sentences (hints, refusals) count things too.
"""

from __future__ import annotations

#: The minus sign of every negative number shown to people.
MINUS = "\u2212"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``many`` is the plural when it is not ``word + "s"``
    (``plural(n, "lobby", "lobbies")``)."""
    return f"{number(count)} {noun(count, word, many)}"


def noun(count: int, word: str, many: str | None = None) -> str:
    """The noun alone, as ``plural`` would put it after ``count``: ``Unknown options``."""
    return word if count == 1 else (many if many is not None else word + "s")


def number(value: int) -> str:
    """``12``, ``−50`` (the minus sign is U+2212)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """A change with its sign: ``+26``, ``+0``, ``−50``."""
    return number(value) if value < 0 else f"+{value}"


def option_value(value: object) -> str:
    """A table option's value as a player would type it: ``on``/``off`` for a switch."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return number(value) if isinstance(value, int) else str(value)
