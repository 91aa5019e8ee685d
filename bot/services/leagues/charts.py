"""Ratings over time, as charts (``/stats``, the web page) draw them.

Decisions:
* **Ratings over time are stored, never replayed for a reader.** Recording a match gives
  it the next number among its season's games of its game and stores every human's rating
  after it, so ``/stats``, standings and the web charts read a few indexed rows. A chart
  draws at most ``CHART_POINTS`` of a player's games (spread evenly, first and last
  included). Until a season's game counted before they were stored is filled
  (``upkeep.backfill``), its charts are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.services import ratings
from storage import league_reports, league_totals
from storage.db import Conn
from storage.league_totals import RatingPoint
from storage.leagues import League

#: The most games of one player a rating chart draws (see ``chart_games``).
CHART_POINTS = 400


def chart_games(total: int, most: int | None = None) -> list[int]:
    """Which of a player's ``total`` games a chart draws: every one up to ``most``
    (``CHART_POINTS``), else ``most`` spread evenly, the first and the last included."""
    most = CHART_POINTS if most is None else most
    if total <= most:
        return list(range(1, total + 1))
    return sorted({1 + round(i * (total - 1) / (most - 1)) for i in range(most)})


@dataclass(frozen=True)
class RatingLines:
    """Players' ratings over a league season's game as charts draw them: ``played``
    matches in all, and each player's points (``chart_games`` of theirs), by user;
    ``pending`` while they are not computed yet (then no points)."""

    played: int
    lines: dict[int, list[RatingPoint]]
    pending: bool = False


def season_ratings(
    conn: Conn, league_id: int, season: int, game: str, user_ids: Sequence[int]
) -> RatingLines:
    """Those users' ``RatingLines`` in a league season's game (stored rows only)."""
    played = league_totals.season_game_count(conn, league_id, season, game)
    if league_totals.is_pending(conn, league_id, season, game):
        return RatingLines(played, {}, pending=True)
    totals = league_totals.load_players(conn, league_id, season, game, user_ids)
    return RatingLines(played, {
        u: league_totals.rating_points(conn, league_id, season, game, u, chart_games(p.games))
        for u, p in totals.items()
    })


def rating_lines(
    conn: Conn, league: League, user_id: int
) -> list[tuple[str, list[tuple[int, int]]]]:
    """Per game of the league's current season that the player played (and whose ratings
    over time are stored): ``(n, displayed rating)`` as a newcomer (n 0) and after their
    n-th counted game (``chart_games`` of them)."""
    newcomer = ratings.display(ratings.DEFAULT.ordinal)
    out = []
    for game in league_reports.season_games(conn, league.id, league.season):
        lines = season_ratings(conn, league.id, league.season, game, [user_id])
        mine = lines.lines.get(user_id)
        if mine:
            out.append((game, [
                (0, newcomer), *((p.games, ratings.display(p.ordinal)) for p in mine)
            ]))
    return out
