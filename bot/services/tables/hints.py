"""Hints, pure: whether a table gives them is decided when it opens — the one rule
``/hint`` in Discord and ``hint`` in the terminal both ask (through
``TableService.use_hint``).

Decisions:
* A table opens rated (the default) or as a **practice table** (``/table new hints:True``,
  ``deckhand play --hints``). Hints are given at practice tables only. A practice table's
  game is unrated from its first move: recorded like any game (history, replays, exports,
  ``/stats``) but counted toward no league's ratings or standings — not the server's
  Default league, not the terminal's local league — and its table message, its result and
  the terminal say so from the lobby on. A rematch is what the last game was.
* So whether a game counts is known before anyone moves and never changes: a hint asked
  for on a losing player's last turn cannot erase the winner's win, rating change or
  standings line.
* No practice table at an event (its results make the event's standings) or with a named
  league (the league was opened to be played for).
* The mark is the table's ``unrated`` column (migration 012). Tables a hint made unrated
  mid-game before this rule stay unrated, and so count as practice tables.
"""

from __future__ import annotations

from bot.services.errors import BadOptions, NotAllowed
from bot.services.tables.lobby import MANAGED
from bot.services.tables.records import Table
from i18n import N_, lazy_gettext

#: What a practice table says, wherever it is shown (one line).
UNRATED = N_("Practice table: hints are on, and this game counts toward no rating or standings.")


def check_practice(league_id: int | None) -> None:
    """Refuse (``BadOptions``) a practice table that would count toward a named league."""
    if league_id is not None:
        raise BadOptions(lazy_gettext(
            "A practice table counts toward no league: open it without a league, or without"
            " hints."
        ))


def check_hint(table: Table) -> None:
    """Refuse (``NotAllowed``, saying why) a hint at a table that is not a practice table."""
    if table.host_id == MANAGED:
        raise NotAllowed(lazy_gettext(
            "Hints are off at event tables: the event's results are played unaided."
        ))
    if not table.unrated:
        raise NotAllowed(lazy_gettext(
            "Hints are off at this table: its game counts toward ratings and standings. Hints"
            " are for practice tables, which are opened with hints on and count toward none."
        ))
