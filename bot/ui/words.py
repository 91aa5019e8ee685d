"""The Discord front end's words for the service's refusals.

The services say what went wrong in words any front end can show; where Discord has its
own way to go on (a slash command, a button), the Discord wording is here, chosen by the
error's class. Everything else is shown as the service said it. User-chosen names are
shown ``plain``.
"""

from __future__ import annotations

from bot.services.errors import NoTable, ServiceError, StaleVersion, TableQuarantined
from i18n import N_, _

_DISCORD: dict[type[ServiceError], str] = {
    NoTable: N_("There is no table in this channel. Open one with `/table new`."),
    StaleVersion: N_("That button is from an earlier turn; use the latest message."),
    TableQuarantined: N_(
        "This table's saved game could not be read, so it cannot be played. An admin can"
        " close it with `/table abort`."
    ),
}


def say_in_discord(exc: ServiceError) -> str:
    """The text to show on Discord for a refused request (in the language spoken)."""
    for kind, text in _DISCORD.items():
        if isinstance(exc, kind):
            return _(text)
    return str(exc)

