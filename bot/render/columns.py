"""Column heads that Discord, the standings page and the terminal all show, written once."""

from __future__ import annotations

from i18n import pgettext


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
