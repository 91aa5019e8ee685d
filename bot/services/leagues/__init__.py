"""Leagues: recording finished matches, standings, seasons, history, head-to-head, stats.

Discord-free; the ``/league`` and ``/stats`` cogs, the web page and ``deckhand standings``
call ``LeagueService``, a facade; each module has one job (its docstring states its
decisions):

* ``errors``       — what the service refuses, and the checks of what a caller asks;
* ``scoring``      — the tally: results per team, points, ratings (``Scoring``,
  ``SeasonGame``);
* ``recording``    — the match recorder: what counts (``counts_toward``) toward which
  league, counted inside the match's transaction; duplicate boards held until complete;
* ``upkeep``       — deriving the stored rows again from ``matches``: rebuild, check,
  backfill;
* ``standings``    — standings pages: order, provisional players;
* ``charts``       — ratings over time as charts draw them;
* ``stats``        — a player's record across a guild (``/stats``);
* ``spreadsheets`` — standings and matches as CSV;
* ``service``      — the facade: finds the league, checks admin rights, seasons.
"""

from bot.services.leagues.charts import RatingLines, chart_games, season_ratings
from bot.services.leagues.errors import (
    MAX_ROWS,
    DuplicateLeague,
    GameRequired,
    InvalidRequest,
    NotAdmin,
    UnknownLeague,
    UnknownSeason,
)
from bot.services.leagues.scoring import Scoring, team_results
from bot.services.leagues.service import LeagueService
from bot.services.leagues.standings import Standings
from bot.services.leagues.stats import PlayerStats

__all__ = [
    "MAX_ROWS",
    "DuplicateLeague",
    "GameRequired",
    "InvalidRequest",
    "LeagueService",
    "NotAdmin",
    "PlayerStats",
    "RatingLines",
    "Scoring",
    "Standings",
    "UnknownLeague",
    "UnknownSeason",
    "chart_games",
    "season_ratings",
    "team_results",
]
