"""The site's addresses: one place for the route patterns and the links that match them.

Every id in an address is a slug (``bot.services.publication.Slugs``): ``/g/<guild>``
lists a guild's published leagues, ``/l/<league>`` a league's seasons,
``/l/<league>/s/<n>`` a season's standings, ``/l/<league>/p/<player>`` a player's record,
``/l/<league>/e/<event>`` an event's standings and rounds and ``/l/<league>/m/<match>?step=<n>``
a finished game's replay.
"""

from __future__ import annotations

from urllib.parse import urlencode

from bot.services.publication import Slugs

GUILD = "/g/{guild}"
LEAGUE = "/l/{league}"
SEASON = "/l/{league}/s/{season:[0-9]{1,6}}"
PLAYER = "/l/{league}/p/{player}"
MATCH = "/l/{league}/m/{match}"
EVENT = "/l/{league}/e/{event}"
STYLE = "/static/site.css"
ICON = "/static/icon.svg"


def guild(slugs: Slugs, guild_id: int) -> str:
    """The page of a guild's published leagues."""
    return f"/g/{slugs.encode('guild', 0, guild_id)}"


def league(slugs: Slugs, league_id: int) -> str:
    """A league's page (its seasons)."""
    return f"/l/{slugs.encode('league', 0, league_id)}"


def season(slugs: Slugs, league_id: int, number: int) -> str:
    """A season's standings."""
    return f"{league(slugs, league_id)}/s/{number}"


def player(slugs: Slugs, league_id: int, user_id: int) -> str:
    """A player's page inside a league."""
    return f"{league(slugs, league_id)}/p/{slugs.encode('player', league_id, user_id)}"


def event(slugs: Slugs, league_id: int, event_id: int) -> str:
    """An event's standings and rounds."""
    return f"{league(slugs, league_id)}/e/{slugs.encode('event', league_id, event_id)}"


def match(slugs: Slugs, league_id: int, match_id: int, step: int | None = None,
          hands: bool = False) -> str:
    """A match's replay, at ``step`` (default: the start), with every hand if ``hands``."""
    query = {k: v for k, v in (("step", step), ("hands", 1 if hands else None)) if v is not None}
    base = f"{league(slugs, league_id)}/m/{slugs.encode('match', league_id, match_id)}"
    return f"{base}?{urlencode(query)}" if query else base
