"""Rendering helpers every game's renderer uses."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.render.markup import Line, line, strong
from games.cards import SUITS, parse_code, pretty
from i18n import N_, _, number

_CODE = re.compile(r"\b(?:[A2-9TJQK][SHDC]|BJ|LJ)\b")


def cards(codes: Sequence[str]) -> str:
    """Cards with suit symbols, or an em dash when there are none."""
    return " ".join(pretty(c) for c in codes) or "—"


#: A move's label for each verb that takes arguments (``{what}``: the cards or number).
VERB_LABELS = {
    "play": N_("Play {what}"), "discard": N_("Discard {what}"), "knock": N_("Knock {what}"),
    "bid": N_("Bid {what}"), "exchange": N_("Exchange {what}"), "callout": N_("Callout {what}"),
}


#: A move's label for each one-word move several games share.
MOVE_LABELS = {"pass": N_("Pass"), "keep": N_("Keep"), "draw": N_("Draw")}


def prettify(action: str) -> str:
    """A move's label, its card codes shown with suit symbols: ``discard QH`` → ``Discard Q♥``
    (a verb no game has is shown as typed, capitalised)."""
    verb, _sep, rest = action.partition(" ")
    what = _CODE.sub(lambda m: pretty(parse_code(m.group(0))), rest)
    if not rest and verb in MOVE_LABELS:
        return _(MOVE_LABELS[verb])
    if rest and verb in VERB_LABELS:
        return _(VERB_LABELS[verb], what=what)
    text = f"{verb} {what}" if rest else verb
    return text[:1].upper() + text[1:]


def scores(values: Sequence[int], names: Sequence[str]) -> str:
    """``Alice 12 · Bob 40``."""
    return " · ".join(f"{n} {number(v)}" for n, v in zip(names, values, strict=True))


def seat_line(seat: int, names: Sequence[str], to_act: Sequence[int], extra: str = "") -> Line:
    """One seat, its name strong, with ▶ when it is that seat's turn."""
    mark = "▶ " if seat in to_act else "   "
    return line(mark, strong(names[seat]), f" {extra}" if extra else "")


def seat_names(seats: Sequence[Any]) -> list[str]:
    """Every seat's name (``SeatInfo``-like) in the reader's language: a person's as they
    chose it, a computer's put into words now (``storage.models.computer_name``)."""
    return [str(s.name) for s in seats]


def suit_name_list() -> str:
    """``S H D C`` with symbols, for help texts."""
    return " ".join(f"{s}={pretty('A' + s)[1:]}" for s in SUITS)
