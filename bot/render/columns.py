"""Column heads that Discord, the standings page and the terminal all show, written once."""

from __future__ import annotations

from collections.abc import Sequence

from i18n import pgettext


def grid(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, gap: str = " ", rule: str = ""
) -> list[str]:
    """``rows`` under ``header`` for a monospace font, each column as wide as its widest
    cell, its head included (a translated head is often longer than its numbers): the
    second column (names) left-aligned, the others right; with ``rule``, a line of it
    under the header."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: Sequence[str]) -> str:
        return gap.join(
            c.ljust(w) if i == 1 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    lines = [fmt(header), *(fmt(r) for r in rows)]
    if rule:
        lines.insert(1, gap.join(rule * w for w in widths))
    return lines


def points() -> str:
    """The head of a points column (a league's points, an event's game points): ``Pts``."""
    return pgettext("column: league points", "Pts")


def played() -> str:
    """The head of a games-played column: ``G``."""
    return pgettext("column: games played", "G")


def won_drawn_lost() -> tuple[str, str, str]:
    """The heads of a standings table's won, drawn and lost columns (short: ``W D L``)."""
    return (pgettext("column: games won", "W"), pgettext("column: games drawn", "D"),
            pgettext("column: games lost", "L"))
