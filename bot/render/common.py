"""Rendering helpers every game's renderer uses."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.render.markup import Line, line, strong
from games.cards import SUITS, parse_code, pretty
from games.wording import number

_CODE = re.compile(r"\b(?:[A2-9TJQK][SHDC]|BJ|LJ)\b")


def cards(codes: Sequence[str]) -> str:
    """Cards with suit symbols, or an em dash when there are none."""
    return " ".join(pretty(c) for c in codes) or "—"


def prettify(action: str) -> str:
    """An action string with card codes shown with suit symbols: ``discard QH`` → ``Discard Q♥``."""
    text = _CODE.sub(lambda m: pretty(parse_code(m.group(0))), action)
    return text[:1].upper() + text[1:]


def scores(values: Sequence[int], names: Sequence[str]) -> str:
    """``Alice 12 · Bob 40``."""
    return " · ".join(f"{n} {number(v)}" for n, v in zip(names, values, strict=True))


def seat_line(seat: int, names: Sequence[str], to_act: Sequence[int], extra: str = "") -> Line:
    """One seat, its name strong, with ▶ when it is that seat's turn."""
    mark = "▶ " if seat in to_act else "   "
    return line(mark, strong(names[seat]), f" {extra}" if extra else "")


def suit_name_list() -> str:
    """``S H D C`` with symbols, for help texts."""
    return " ".join(f"{s}={pretty('A' + s)[1:]}" for s in SUITS)
