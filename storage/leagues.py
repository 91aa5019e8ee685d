"""Leagues repository: leagues and their seasons, and which are published.

Plain functions of a ``Conn`` (see ``storage.db``): writers run inside ``Database.write``,
readers through ``Database.read``. What counting a match stores for a league is in
``storage.league_totals``, what readers are shown in ``storage.league_reports``. Rules
(what counts, how totals change) live in ``bot.services.leagues``; these modules only
store and query.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Conn, Row


@dataclass(frozen=True)
class League:
    """A league row."""

    id: int
    guild_id: int
    name: str
    game: str | None
    scoring: str
    count_bots: bool
    is_default: bool
    season: int
    created_at: float
    #: Shown on the standings web page (an admin published it).
    published: bool = False
    #: Counted games a player needs in a season (and game) to be ranked; fewer: provisional.
    provisional_games: int = 5


@dataclass(frozen=True)
class Season:
    """One season of a league; ``ended_at`` is None for the current one."""

    league_id: int
    season: int
    after_match: int
    started_at: float
    ended_at: float | None


def _league(row: Row) -> League:
    return League(
        id=row["id"], guild_id=row["guild_id"], name=row["name"], game=row["game"],
        scoring=row["scoring"], count_bots=bool(row["count_bots"]),
        is_default=bool(row["is_default"]), season=row["season"], created_at=row["created_at"],
        published=bool(row["published"]),
        provisional_games=row["provisional_games"],
    )


def insert_league(
    conn: Conn, *, guild_id: int, name: str, game: str | None, scoring: str,
    count_bots: bool, is_default: bool, now: float, provisional_games: int = 5,
) -> League:
    """Create a league and its season 1 (which counts every qualifying match)."""
    row = conn.one(
        "INSERT INTO leagues (guild_id, name, game, scoring, count_bots, is_default, season,"
        " created_at, provisional_games) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id",
        (guild_id, name, game, scoring, int(count_bots), int(is_default), now,
         provisional_games),
    )
    assert row is not None
    league_id = int(row["id"])
    conn.execute(
        "INSERT INTO league_seasons (league_id, season, after_match, started_at)"
        " VALUES (?, 1, 0, ?)",
        (league_id, now),
    )
    return League(
        league_id, guild_id, name, game, scoring, count_bots, is_default, 1, now,
        provisional_games=provisional_games,
    )


def set_provisional_games(conn: Conn, league_id: int, games: int) -> None:
    """Change how many counted games make a player established in the league."""
    conn.execute("UPDATE leagues SET provisional_games = ? WHERE id = ?", (games, league_id))


def league_by_id(conn: Conn, league_id: int) -> League | None:
    """The league with that id, or None."""
    row = conn.one(
        "SELECT * FROM leagues WHERE id = ?", (league_id,))
    return _league(row) if row else None


def league_by_name(conn: Conn, guild_id: int, name: str) -> League | None:
    """The guild's league of that name (case-insensitive), or None."""
    row = conn.one(
        "SELECT * FROM leagues WHERE guild_id = ? AND lower(name) = lower(?)",
        (guild_id, name),
    )
    return _league(row) if row else None


def default_league(conn: Conn, guild_id: int) -> League | None:
    """The guild's default league, or None if it has not been created yet."""
    row = conn.one(
        "SELECT * FROM leagues WHERE guild_id = ? AND is_default = 1", (guild_id,)
    )
    return _league(row) if row else None


def guild_leagues(conn: Conn, guild_id: int) -> list[League]:
    """The guild's leagues, the default first, then by name."""
    rows = conn.all(
        "SELECT * FROM leagues WHERE guild_id = ? ORDER BY is_default DESC, lower(name)",
        (guild_id,),
    )
    return [_league(r) for r in rows]


def all_leagues(conn: Conn) -> list[League]:
    """Every league of every guild, by id."""
    return [_league(r) for r in conn.all("SELECT * FROM leagues ORDER BY id")]


def seasons(conn: Conn, league_id: int) -> list[Season]:
    """A league's seasons, oldest first."""
    rows = conn.all(
        "SELECT * FROM league_seasons WHERE league_id = ? ORDER BY season", (league_id,)
    )
    return [
        Season(r["league_id"], r["season"], r["after_match"], r["started_at"], r["ended_at"])
        for r in rows
    ]


def start_season(conn: Conn, league: League, now: float) -> Season:
    """End the current season and start the next; later matches count toward the new one."""
    row = conn.one("SELECT COALESCE(MAX(id), 0) AS last FROM matches")
    after = int(row["last"]) if row else 0
    number = league.season + 1
    conn.execute(
        "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND season = ?",
        (now, league.id, league.season),
    )
    conn.execute(
        "INSERT INTO league_seasons (league_id, season, after_match, started_at)"
        " VALUES (?, ?, ?, ?)",
        (league.id, number, after, now),
    )
    conn.execute("UPDATE leagues SET season = ? WHERE id = ?", (number, league.id))
    return Season(league.id, number, after, now, None)


def set_published(conn: Conn, league_id: int, published: bool) -> None:
    """Publish a league on the web page, or take it off."""
    conn.execute("UPDATE leagues SET published = ? WHERE id = ?", (int(published), league_id))


def published_leagues(conn: Conn, guild_id: int) -> list[League]:
    """The guild's published leagues, the default first, then by name."""
    rows = conn.all(
        "SELECT * FROM leagues WHERE guild_id = ? AND published = 1"
        " ORDER BY is_default DESC, lower(name)",
        (guild_id,),
    )
    return [_league(r) for r in rows]
