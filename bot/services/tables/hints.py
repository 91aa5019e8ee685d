"""Hints and what they cost, pure: the one rule ``/hint`` in Discord and ``hint`` in the
terminal both ask (through ``TableService.use_hint``).

Decisions:
* No hint where a result is measured against other players': at an event's table (its
  result makes the event's standings; ``MANAGED``) and at a named league's table (the
  league was opened to be played unaided).
* Anywhere else a hint is given, but the game becomes **unrated** for everybody at the
  table: when it ends it is recorded like any game (history, replays, exports, ``/stats``)
  but counts toward no league's ratings or standings — not the server's Default league,
  not the terminal's local league. Help for one seat would otherwise move everyone's
  rating. The mark is committed with the table before the first hint is given (so a
  restart or another process keeps it), and the table message, the hint's answer and the
  terminal say so.
"""

from __future__ import annotations

from bot.services.errors import NotAllowed
from bot.services.tables.lobby import MANAGED
from bot.services.tables.records import Table
from i18n import N_, lazy_gettext

#: What an unrated table says, wherever it is shown (one line).
UNRATED = N_("A hint was used at this table, so this game counts toward no rating or standings.")


def check_hint(table: Table) -> bool:
    """Whether a hint may be given at ``table`` (``NotAllowed`` says why not); True when
    giving it makes the game unrated now (it was rated until this hint)."""
    if table.host_id == MANAGED:
        raise NotAllowed(lazy_gettext(
            "Hints are off at event tables: the event's results are played unaided."
        ))
    if table.league_id is not None:
        raise NotAllowed(lazy_gettext(
            "Hints are off at league tables: rated games are played unaided."
        ))
    return not table.unrated
