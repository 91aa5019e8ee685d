"""What readers are shown of leagues: standings pages, histories, head-to-head, records
per game and partner, a player's seasons, one counted match. Every list asks
``storage.events.shown`` which games may be shown yet; these run on the report reader
(``Database.report``), as their cost grows with the history.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Conn
from storage.events import shown
from storage.league_totals import PlayerTotals, totals_of
from storage.matches import PlayedMatch, played_matches
from storage.records import count_if

#: ORDER BY clauses of the two standings orders; each matches an index of 002_leagues.sql.
ORDER_BY_RATING = "ordinal DESC, wins DESC, games ASC, user_id ASC"
ORDER_BY_POINTS = "points DESC, ordinal DESC, wins DESC, games ASC, user_id ASC"


@dataclass(frozen=True)
class HeadToHead:
    """Two users' matches against each other (``a`` placed better = ``a_wins``) and as
    partners, in one game or (``game`` None) every game."""

    user_a: int
    user_b: int
    game: str | None
    games: int
    a_wins: int
    b_wins: int
    draws: int
    as_partners: int


@dataclass(frozen=True)
class RecordRow:
    """A user's results in one game of a league: in every match (``partner_id`` None), or
    in those with one human partner on their team (named as in their last such match)."""

    game: str
    partner_id: int | None
    partner_name: str | None
    played: int
    won: int
    drawn: int


@dataclass(frozen=True)
class SeasonTotals:
    """A player's totals in one season and game of a league."""

    season: int
    game: str
    totals: PlayerTotals


def standings(
    conn: Conn, league_id: int, season: int, game: str, order_by: str,
    limit: int, offset: int, *, min_games: int, established: bool,
) -> list[PlayerTotals]:
    """One page of totals in standings order (``ORDER_BY_RATING`` or ``ORDER_BY_POINTS``) of
    the established players (``games >= min_games``) or of the provisional ones."""
    if order_by not in (ORDER_BY_RATING, ORDER_BY_POINTS):
        raise ValueError("Unknown standings order.")
    which = ">=" if established else "<"
    rows = conn.all(
        f"SELECT * FROM league_players WHERE league_id = ? AND season = ? AND game = ?"
        f" AND games {which} ? ORDER BY {order_by} LIMIT ? OFFSET ?",
        (league_id, season, game, min_games, limit, offset),
    )
    return [totals_of(r) for r in rows]


def count_players(
    conn: Conn, league_id: int, season: int, game: str, min_games: int
) -> tuple[int, int]:
    """How many players have totals in a league, season and game: ``(established,
    provisional)``, established meaning at least ``min_games`` games."""
    row = conn.one(
        f"SELECT {count_if('games >= ?')} AS established, COUNT(*) AS n FROM league_players"
        " WHERE league_id = ? AND season = ? AND game = ?",
        (min_games, league_id, season, game),
    )
    if row is None:
        return 0, 0
    return int(row["established"]), int(row["n"]) - int(row["established"])


def season_games(conn: Conn, league_id: int, season: int) -> list[str]:
    """The games played in a league season, sorted."""
    rows = conn.all(
        "SELECT DISTINCT game FROM league_players WHERE league_id = ? AND season = ?"
        " ORDER BY game",
        (league_id, season),
    )
    return [r["game"] for r in rows]


def head_to_head(
    conn: Conn, guild_id: int, user_a: int, user_b: int, game: str | None
) -> HeadToHead:
    """Matches in a guild where both users sat: as opponents (by placement) and as partners."""
    sql = (
        f"SELECT {count_if('a.team <> b.team')} AS games,"
        f" {count_if('a.team <> b.team AND a.rank < b.rank')} AS a_wins,"
        f" {count_if('a.team <> b.team AND a.rank > b.rank')} AS b_wins,"
        f" {count_if('a.team <> b.team AND a.rank = b.rank')} AS draws,"
        f" {count_if('a.team = b.team')} AS as_partners"
        " FROM match_seats a JOIN match_seats b ON b.match_id = a.match_id AND b.user_id = ?"
        " JOIN matches m ON m.id = a.match_id"
        f" WHERE a.user_id = ? AND m.guild_id = ? AND {shown('m')}"
    )
    params: list[object] = [user_b, user_a, guild_id]
    if game is not None:
        sql += " AND m.game = ?"
        params.append(game)
    row = conn.one(sql, params)
    assert row is not None
    return HeadToHead(
        user_a, user_b, game, int(row["games"]), int(row["a_wins"]), int(row["b_wins"]),
        int(row["draws"]), int(row["as_partners"]),
    )


def league_records(conn: Conn, league_id: int, user_id: int) -> list[RecordRow]:
    """A user's results per game and per game and human partner in the matches that
    counted toward a league, every season together (from the stored totals)."""
    games = conn.all(
        "SELECT game, SUM(games) AS played, SUM(wins) AS won, SUM(draws) AS drawn"
        " FROM league_players WHERE league_id = ? AND user_id = ? GROUP BY game ORDER BY game",
        (league_id, user_id),
    )
    partnered = conn.all(
        "SELECT g.game AS game, g.partner_id AS partner_id, x.name AS name,"
        " g.played AS played, g.won AS won, g.drawn AS drawn FROM ("
        " SELECT game, partner_id, SUM(games) AS played, SUM(wins) AS won,"
        "  SUM(draws) AS drawn, MAX(last_match) AS last_match FROM league_partners"
        " WHERE league_id = ? AND user_id = ? GROUP BY game, partner_id) g"
        " JOIN league_partners x ON x.league_id = ? AND x.user_id = ?"
        " AND x.game = g.game AND x.partner_id = g.partner_id AND x.last_match = g.last_match"
        " ORDER BY g.game, g.partner_id",
        (league_id, user_id, league_id, user_id),
    )
    return [
        RecordRow(r["game"], None, None, int(r["played"]), int(r["won"]), int(r["drawn"]))
        for r in games
    ] + [
        RecordRow(r["game"], r["partner_id"], r["name"], int(r["played"]), int(r["won"]),
                  int(r["drawn"]))
        for r in partnered
    ]


def player_seasons(conn: Conn, league_id: int, user_id: int) -> list[SeasonTotals]:
    """A user's totals in every season and game of a league, newest season first."""
    rows = conn.all(
        "SELECT * FROM league_players WHERE league_id = ? AND user_id = ?"
        " ORDER BY season DESC, game",
        (league_id, user_id),
    )
    return [SeasonTotals(r["season"], r["game"], totals_of(r)) for r in rows]


def league_history(
    conn: Conn, league_id: int, season: int | None, limit: int
) -> list[PlayedMatch]:
    """The league's last ``limit`` matches (of one season, or all), newest first."""
    if season is None:
        rows = conn.all(
        "SELECT m.* FROM league_matches lm JOIN matches m ON m.id = lm.match_id"
            f" WHERE lm.league_id = ? AND {shown('m')} ORDER BY lm.match_id DESC LIMIT ?",
            (league_id, limit),
        )
    else:
        rows = conn.all(
        "SELECT m.* FROM league_matches lm JOIN matches m ON m.id = lm.match_id"
            f" WHERE lm.league_id = ? AND lm.season = ? AND {shown('m')}"
            " ORDER BY lm.match_id DESC LIMIT ?",
            (league_id, season, limit),
        )
    return played_matches(conn, rows)


def player_history(
    conn: Conn, guild_id: int, user_id: int, league_id: int | None, limit: int
) -> list[PlayedMatch]:
    """A user's last ``limit`` matches in a guild (or in one league), newest first."""
    if league_id is None:
        rows = conn.all(
        "SELECT m.* FROM match_seats s JOIN matches m ON m.id = s.match_id"
            f" WHERE s.user_id = ? AND m.guild_id = ? AND {shown('m')}"
            " ORDER BY s.match_id DESC LIMIT ?",
            (user_id, guild_id, limit),
        )
    else:
        rows = conn.all(
        "SELECT m.* FROM match_seats s"
            " JOIN league_matches lm ON lm.match_id = s.match_id AND lm.league_id = ?"
            " JOIN matches m ON m.id = s.match_id"
            f" WHERE s.user_id = ? AND {shown('m')} ORDER BY s.match_id DESC LIMIT ?",
            (league_id, user_id, limit),
        )
    return played_matches(conn, rows)


def league_match(conn: Conn, league_id: int, match_id: int) -> PlayedMatch | None:
    """The match with its seats if it counted toward the league, else None."""
    rows = conn.all(
        "SELECT m.* FROM league_matches lm JOIN matches m ON m.id = lm.match_id"
        f" WHERE lm.league_id = ? AND lm.match_id = ? AND {shown('m')}",
        (league_id, match_id),
    )
    found = played_matches(conn, rows)
    return found[0] if found else None
