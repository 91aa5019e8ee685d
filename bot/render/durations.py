"""Turn timers as people write and read them: ``30m``, ``2h``, ``1d``, ``1h30m``, ``off``.

Decisions:

* A timer is written as amounts of days, hours and minutes (``1d``, ``2h``, ``90m``,
  ``1d12h``; upper or lower case, spaces allowed), a bare number meaning minutes (as
  ``timer:`` always took), or ``off`` (also ``0``). Anything else is refused with an
  example, never guessed at.
* Its bounds are the table's own (``storage.models.MAX_TURN_TIMER``, a week): a longer
  timer is refused here in the words it was written in, before the table service would
  refuse it in seconds.
* Shown back in the largest whole units: ``5 min``, ``2 hours``, ``1 day 12 hours``; a
  timer that is not whole minutes (set by the operator in seconds) in seconds.
"""

from __future__ import annotations

import re

from i18n import N_, _, ngettext, number
from storage.models import MAX_TURN_TIMER

_UNITS = {"d": 86400, "h": 3600, "m": 60}
_PART = re.compile(r"(\d{1,6})\s*([dhm])")
_WHOLE = re.compile(r"(?:\d{1,6}\s*[dhm]\s*)+")
EXAMPLES = N_("30m, 2h, 1d or 1h30m (a number alone is minutes), or off")


def parse_timer(text: str) -> int:
    """Seconds per turn (0: no timer); ``ValueError`` saying how to write one."""
    typed = text.strip().lower()
    if typed in ("off", "none", "no", "0"):
        return 0
    if typed.isdigit() and len(typed) <= 6:
        seconds = int(typed) * 60
    elif _WHOLE.fullmatch(typed):
        seconds = sum(int(n) * _UNITS[unit] for n, unit in _PART.findall(typed))
    else:
        raise ValueError(_("`timer` is a time per turn such as {examples}.", examples=_(EXAMPLES)))
    if seconds > MAX_TURN_TIMER:
        raise ValueError(_("A turn timer is at most {most}.", most=describe(MAX_TURN_TIMER)))
    return seconds


def describe(seconds: int) -> str:
    """``5 min``, ``2 hours``, ``1 day 12 hours``, ``90 s`` (0: ``off``)."""
    if seconds <= 0:
        return _("off")
    if seconds % 60:
        return _("{seconds} s", seconds=number(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [ngettext("{n} day", "{n} days", days)] if days else []
    parts += [ngettext("{n} hour", "{n} hours", hours)] if hours else []
    parts += [_("{minutes} min", minutes=number(minutes))] if minutes else []
    return " ".join(parts)


def timer_text(turn_timer: int) -> str:
    """The table message's words for its timer."""
    if turn_timer <= 0:
        return _("no turn timer")
    return _("{timer} per turn", timer=describe(turn_timer))
