"""What the league service refuses: its errors, and the checks of what a caller asks (a
game's name, a number of rows, of provisional games, a season). Each message can be shown
as it is."""

from __future__ import annotations

import games
from bot.services.errors import ServiceError
from i18n import lazy_gettext
from storage.leagues import League

MAX_PROVISIONAL_GAMES = 1000
MAX_ROWS = 100_000


class LeagueError(ServiceError):
    """A request the league service refuses; the message can be shown as it is."""


class DuplicateLeague(LeagueError):
    """A league of that name already exists in the guild."""


class UnknownLeague(LeagueError):
    """No league of that name in the guild."""


class UnknownSeason(LeagueError):
    """The league has no such season."""


class NotAdmin(LeagueError):
    """An admin-only action asked for by someone who is not an admin."""


class GameRequired(LeagueError):
    """The league covers several games; the caller must say which one."""


class InvalidRequest(LeagueError):
    """A malformed name, scoring scheme, game, count or pair of players."""


def game_name(text: str) -> str:
    """The game a caller names (any case, spaces or dashes for underscores)."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_") if isinstance(text, str) else ""
    if key not in games.names():
        raise InvalidRequest(lazy_gettext(
            "Unknown game {text!r}; games: {games}.",
            text=text, games=', '.join(games.names()),
        ))
    return key


def row_limit(n: int) -> int:
    """A number of rows to list: 1 to ``MAX_ROWS``."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ROWS:
        raise InvalidRequest(lazy_gettext(
            "Ask for between 1 and {most} rows.",
            most=MAX_ROWS,
        ))
    return n


def provisional_games(n: int) -> int:
    """How many games make a player established: 0 to ``MAX_PROVISIONAL_GAMES``."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_PROVISIONAL_GAMES:
        raise InvalidRequest(
            lazy_gettext(
                "Provisional games must be a whole number from 0 to {most}.",
                most=MAX_PROVISIONAL_GAMES,
            )
        )
    return n


def season_number(league: League, season: int | None) -> int:
    """A season of the league; None means the current one."""
    if season is None:
        return league.season
    valid = isinstance(season, int) and not isinstance(season, bool)
    if not valid or not 1 <= season <= league.season:
        raise UnknownSeason(
            lazy_gettext(
                "{name} has seasons 1 to {last}; there is no season {season}.",
                name=league.name, last=league.season, season=season,
            )
        )
    return season
