"""How Deckhand writes option values and numbers, on every surface.

One place for each, so every message says them the same way (``tests/test_words.py``
greps rendered messages for what they replace):

* counts: ``i18n.ngettext("{n} card", "{n} cards", count)``, the form chosen by the
  language's plural rule — never ``card(s)``, never ``+ "s"``;
* ``option_value``: a table option's value as players type it, ``on``/``off`` for a
  switch — never Python's ``True``/``False`` — and a number in plain ASCII digits (no
  grouping, ``-`` for a negative), as ``games.base.read_number`` reads it back. Players
  type these words in every language, so they are not translated;
* ``i18n.number`` and ``signed``: a score with the one minus sign, U+2212 (``−50``;
  typeset minus, as the ONO 99 card −10 is written), and a change of score with its sign
  (``+26``, ``−50``). Data meant for programs (exports, logs) keep ASCII.

Every caller is a front end (the renderers, pictures, the terminal, the page, the rules
documents), so it lives in ``bot``; the engines count through ``i18n`` alone.
"""

from __future__ import annotations

from i18n import number


def signed(value: int) -> str:
    """A change with its sign: ``+26``, ``+0``, ``−50``."""
    return number(value) if value < 0 else f"+{number(value)}"


def option_value(value: object) -> str:
    """A table option's value as a player would type it: ``on``/``off`` for a switch."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)  # ASCII digits, no grouping: what ``games.base.read_number`` reads
