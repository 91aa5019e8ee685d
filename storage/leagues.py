"""Leagues repository: leagues, seasons, per-player totals, history and stats queries.

Plain functions of a ``Conn`` (see ``storage.db``): writers run inside ``Database.write``
(the league recorder runs in the table service's match transaction), readers through
``Database.read``. Rules (what counts, how totals change) live in ``bot.services.leagues``;
this module only stores and queries.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.db import Conn, Row
from storage.events import shown
from storage.matches import SeatResult, seats_of
from storage.records import count_if

#: ORDER BY clauses of the two standings orders; each matches an index of 002_leagues.sql.
ORDER_BY_RATING = "ordinal DESC, wins DESC, games ASC, user_id ASC"
ORDER_BY_POINTS = "points DESC, ordinal DESC, wins DESC, games ASC, user_id ASC"


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


@dataclass
class PlayerTotals:
    """A player's running totals in one league, season and game (mutable while tallying)."""

    user_id: int
    name: str
    mu: float
    sigma: float
    points: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_sum: int = 0
    streak_kind: str = "W"
    streak_len: int = 0
    last_match: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


@dataclass
class PartnerTotals:
    """A player's results with one human partner (on their team) in one league, season
    and game, and the partner's name in the last of those matches (mutable while
    tallying)."""

    user_id: int
    partner_id: int
    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    last_match: int = 0


@dataclass(frozen=True)
class RatingPoint:
    """A human's rating after their ``games``-th counted game of a league season's game,
    the season's ``number``-th game of that game."""

    user_id: int
    games: int
    number: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class Counted:
    """Where a match counted toward a league: its season, game and ``number`` there."""

    match_id: int
    season: int
    game: str
    number: int


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match with its seats (by seat number)."""

    match_id: int
    guild_id: int
    league_id: int | None
    game: str
    started_at: float
    finished_at: float
    seats: tuple[SeatResult, ...]
    #: A hint was used at its table: it counts toward no rating or standings.
    unrated: bool = False
    options: dict[str, Any] = field(default_factory=dict)


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


def _league(row: Row) -> League:
    return League(
        id=row["id"], guild_id=row["guild_id"], name=row["name"], game=row["game"],
        scoring=row["scoring"], count_bots=bool(row["count_bots"]),
        is_default=bool(row["is_default"]), season=row["season"], created_at=row["created_at"],
        published=bool(row["published"]),
        provisional_games=row["provisional_games"],
    )


def _totals(row: Row) -> PlayerTotals:
    return PlayerTotals(
        user_id=row["user_id"], name=row["name"], mu=row["mu"], sigma=row["sigma"],
        points=row["points"], games=row["games"], wins=row["wins"], draws=row["draws"],
        losses=row["losses"], score_sum=row["score_sum"],
        streak_kind=row["streak_kind"], streak_len=row["streak_len"],
        last_match=row["last_match"],
    )


def _all_in(
    conn: Conn, sql: str, params: Sequence[object], values: Sequence[object]
) -> list[Row]:
    """``conn.all`` for a query with one ``IN (?)`` list: it gets a mark per value, and
    ``values`` follow ``params``. No values, no rows (and no query)."""
    assert sql.count("IN (?)") == 1, sql
    if not values:
        return []
    marks = ", ".join("?" * len(values))
    return conn.all(sql.replace("IN (?)", f"IN ({marks})"), (*params, *values))


# -- leagues and seasons ------------------------------------------------------------------
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


_EXCLUDED_PLAYER_COLUMNS = ", ".join(
    f" {c} = excluded.{c}"
    for c in (
        "name", "mu", "sigma", "ordinal", "points", "games", "wins", "draws", "losses",
        "score_sum", "streak_kind", "streak_len", "last_match",
    )
)


# -- totals -------------------------------------------------------------------------------
def load_players(
    conn: Conn, league_id: int, season: int, game: str, user_ids: Iterable[int]
) -> dict[int, PlayerTotals]:
    """The stored totals of those users (absent users are missing from the result)."""
    rows = _all_in(
        conn,
        "SELECT * FROM league_players WHERE league_id = ? AND season = ? AND game = ?"
        " AND user_id IN (?)",
        (league_id, season, game),
        list(user_ids),
    )
    return {r["user_id"]: _totals(r) for r in rows}


def save_players(
    conn: Conn, league_id: int, season: int, game: str,
    players: Iterable[PlayerTotals],
) -> None:
    """Insert or replace those totals."""
    conn.executemany(
        "INSERT INTO league_players (league_id, season, game, user_id, name, mu,"
        " sigma, ordinal, points, games, wins, draws, losses, score_sum,"
        " streak_kind, streak_len, last_match)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (league_id, season, game, user_id) DO UPDATE SET"
        + _EXCLUDED_PLAYER_COLUMNS,
        [
            (
                league_id, season, game, p.user_id, p.name, p.mu, p.sigma, p.ordinal, p.points,
                p.games, p.wins, p.draws, p.losses, p.score_sum, p.streak_kind,
                p.streak_len, p.last_match,
            )
            for p in players
        ],
    )


def load_bots(
    conn: Conn, league_id: int, season: int, game: str, levels: Iterable[str]
) -> dict[str, tuple[float, float]]:
    """Stored ``(mu, sigma)`` of those computer levels."""
    rows = _all_in(
        conn,
        "SELECT bot_level, mu, sigma FROM league_bot_ratings WHERE league_id = ?"
        " AND season = ? AND game = ? AND bot_level IN (?)",
        (league_id, season, game),
        sorted(set(levels)),
    )
    return {r["bot_level"]: (r["mu"], r["sigma"]) for r in rows}


def save_bots(
    conn: Conn, league_id: int, season: int, game: str,
    ratings: dict[str, tuple[float, float]],
) -> None:
    """Insert or replace computer-level ratings."""
    if not ratings:
        return
    conn.executemany(
        "INSERT INTO league_bot_ratings (league_id, season, game, bot_level, mu, sigma)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (league_id, season, game, bot_level)"
        " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
        [(league_id, season, game, lvl, mu, sg) for lvl, (mu, sg) in ratings.items()],
    )


def load_partners(
    conn: Conn, league_id: int, season: int, game: str, user_ids: Iterable[int]
) -> dict[tuple[int, int], PartnerTotals]:
    """The stored results of those users with their partners, by (user, partner)."""
    rows = _all_in(
        conn,
        "SELECT * FROM league_partners WHERE league_id = ? AND season = ? AND game = ?"
        " AND user_id IN (?)",
        (league_id, season, game),
        list(user_ids),
    )
    return {(r["user_id"], r["partner_id"]): _partner(r) for r in rows}


def _partner(r: Row) -> PartnerTotals:
    return PartnerTotals(r["user_id"], r["partner_id"], r["name"], r["games"], r["wins"],
                         r["draws"], r["last_match"])


def save_partners(
    conn: Conn, league_id: int, season: int, game: str, partners: Iterable[PartnerTotals]
) -> None:
    """Insert or replace results with partners."""
    conn.executemany(
        "INSERT INTO league_partners (league_id, season, game, user_id, partner_id, name,"
        " games, wins, draws, last_match) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (league_id, season, game, user_id, partner_id) DO UPDATE SET"
        " name = excluded.name, games = excluded.games, wins = excluded.wins,"
        " draws = excluded.draws, last_match = excluded.last_match",
        [(league_id, season, game, p.user_id, p.partner_id, p.name, p.games, p.wins, p.draws,
          p.last_match) for p in partners],
    )


def all_partners(
    conn: Conn, league_id: int
) -> dict[tuple[int, str], dict[tuple[int, int], PartnerTotals]]:
    """Every stored result with a partner in a league, per season and game."""
    out: dict[tuple[int, str], dict[tuple[int, int], PartnerTotals]] = {}
    for r in conn.all("SELECT * FROM league_partners WHERE league_id = ?", (league_id,)):
        out.setdefault((r["season"], r["game"]), {})[(r["user_id"], r["partner_id"])] = (
            _partner(r)
        )
    return out


def add_league_matches(conn: Conn, league_id: int, counted: Sequence[Counted]) -> None:
    """Note that matches counted toward a league."""
    conn.executemany(
        "INSERT INTO league_matches (league_id, match_id, season, game, number)"
        " VALUES (?, ?, ?, ?, ?)",
        [(league_id, c.match_id, c.season, c.game, c.number) for c in counted],
    )


def next_number(conn: Conn, league_id: int, season: int, game: str) -> int:
    """The ``number`` the next match counted toward a league season's game gets."""
    return season_game_count(conn, league_id, season, game) + 1


def season_game_count(conn: Conn, league_id: int, season: int, game: str) -> int:
    """How many matches of ``game`` counted toward a league season."""
    row = conn.one(
        "SELECT MAX(number) AS n FROM league_matches"
        " WHERE league_id = ? AND season = ? AND game = ?",
        (league_id, season, game),
    )
    return int(row["n"]) if row is not None and row["n"] is not None else 0


def save_ratings(
    conn: Conn, league_id: int, season: int, game: str, points: Iterable[RatingPoint]
) -> None:
    """Insert or replace ratings over time."""
    conn.executemany(
        "INSERT INTO league_ratings (league_id, season, game, user_id, games, number, mu,"
        " sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (league_id, season, game, user_id, games) DO UPDATE SET"
        " number = excluded.number, mu = excluded.mu, sigma = excluded.sigma",
        [(league_id, season, game, p.user_id, p.games, p.number, p.mu, p.sigma)
         for p in points],
    )


def rating_points(
    conn: Conn, league_id: int, season: int, game: str, user_id: int, games: Sequence[int]
) -> list[RatingPoint]:
    """A user's ratings after their ``games``-th counted games (those that exist), in
    order."""
    rows = _all_in(
        conn,
        "SELECT * FROM league_ratings WHERE league_id = ? AND season = ? AND game = ?"
        " AND user_id = ? AND games IN (?) ORDER BY games",
        (league_id, season, game, user_id),
        list(games),
    )
    return [_point(r) for r in rows]


def all_rating_points(conn: Conn, league_id: int) -> dict[tuple[int, str], list[RatingPoint]]:
    """Every stored rating of a league, per season and game, by user and game count."""
    out: dict[tuple[int, str], list[RatingPoint]] = {}
    for r in conn.iterate(
        "SELECT * FROM league_ratings WHERE league_id = ? ORDER BY season, game, user_id, games",
        (league_id,),
    ):
        out.setdefault((r["season"], r["game"]), []).append(_point(r))
    return out


def _point(row: Row) -> RatingPoint:
    return RatingPoint(row["user_id"], row["games"], row["number"], row["mu"], row["sigma"])


@dataclass(frozen=True)
class Pending:
    """A league season's game whose ratings over time are still to be computed, up to the
    match numbered ``through``."""

    league_id: int
    season: int
    game: str
    through: int


def pending_ratings(conn: Conn, league_id: int | None = None) -> list[Pending]:
    """The seasons' games whose ratings over time are not all stored yet (of one league,
    or of all)."""
    sql = "SELECT * FROM league_ratings_pending"
    params: tuple[object, ...] = ()
    if league_id is not None:
        sql += " WHERE league_id = ?"
        params = (league_id,)
    rows = conn.all(sql + " ORDER BY league_id, season, game", params)
    return [Pending(r["league_id"], r["season"], r["game"], r["through"]) for r in rows]


def is_pending(conn: Conn, league_id: int, season: int, game: str) -> bool:
    """Whether that season's game still waits for its ratings over time."""
    row = conn.one(
        "SELECT 1 AS yes FROM league_ratings_pending WHERE league_id = ? AND season = ?"
        " AND game = ?",
        (league_id, season, game),
    )
    return row is not None


def done_pending(conn: Conn, pending: Pending) -> None:
    """That season's game has all its ratings over time."""
    conn.execute(
        "DELETE FROM league_ratings_pending WHERE league_id = ? AND season = ? AND game = ?",
        (pending.league_id, pending.season, pending.game),
    )


def clear_league(conn: Conn, league_id: int) -> None:
    """Delete everything derived for a league (before a rebuild)."""
    for table in ("league_players", "league_bot_ratings", "league_matches", "league_ratings",
                  "league_ratings_pending", "league_partners"):
        conn.execute(f"DELETE FROM {table} WHERE league_id = ?", (league_id,))


# -- reading matches ----------------------------------------------------------------------
def _with_seats(conn: Conn, rows: list[Row]) -> list[PlayedMatch]:
    by_match = seats_of(conn, [r["id"] for r in rows])
    return [
        PlayedMatch(r["id"], r["guild_id"], r["league_id"], r["game"], r["started_at"],
                    r["finished_at"], by_match[r["id"]], bool(r["unrated"]),
                    json.loads(r["options"]))
        for r in rows
    ]


def uncounted_matches(conn: Conn, match_ids: Sequence[int]) -> list[PlayedMatch]:
    """Those matches, by id, that count toward no league yet."""
    rows = _all_in(
        conn,
        "SELECT m.* FROM matches m WHERE NOT EXISTS (SELECT 1 FROM league_matches lm"
        " WHERE lm.match_id = m.id) AND m.id IN (?) ORDER BY m.id",
        (), list(match_ids),
    )
    return _with_seats(conn, rows)


def matches_for_league(
    conn: Conn, league: League, page: int = 2000
) -> Iterator[PlayedMatch]:
    """Every match that could count toward the league (guild, league and game filters), by
    id; the caller applies the remaining rules."""
    where = "guild_id = ?"
    params: list[object] = [league.guild_id]
    if not league.is_default:
        where += " AND league_id = ?"
        params.append(league.id)
    if league.game is not None:
        where += " AND game = ?"
        params.append(league.game)
    last = 0
    while True:
        rows = conn.all(
        f"SELECT * FROM matches WHERE {where} AND id > ? ORDER BY id LIMIT ?",
            (*params, last, page),
        )
        if not rows:
            return
        yield from _with_seats(conn, rows)
        last = rows[-1]["id"]


def counted_matches(
    conn: Conn, league_id: int, season: int, game: str, after: int, limit: int
) -> list[tuple[int, PlayedMatch]]:
    """The next ``limit`` matches counted toward a league season's game after the one
    numbered ``after``, in their order there, each with its number."""
    rows = conn.all(
        "SELECT m.*, lm.number AS number FROM league_matches lm"
        " JOIN matches m ON m.id = lm.match_id"
        " WHERE lm.league_id = ? AND lm.season = ? AND lm.game = ? AND lm.number > ?"
        " ORDER BY lm.number LIMIT ?",
        (league_id, season, game, after, limit),
    )
    numbers = [int(r["number"]) for r in rows]
    return list(zip(numbers, _with_seats(conn, rows), strict=True))


def all_counted(conn: Conn, league_id: int) -> list[Counted]:
    """Every match counted toward a league, by season, game and number."""
    rows = conn.all(
        "SELECT * FROM league_matches WHERE league_id = ? ORDER BY season, game, number",
        (league_id,),
    )
    return [Counted(r["match_id"], r["season"], r["game"], r["number"]) for r in rows]


def all_players(conn: Conn, league_id: int) -> dict[tuple[int, str], dict[int, PlayerTotals]]:
    """Every stored total of a league, per season and game, by user."""
    out: dict[tuple[int, str], dict[int, PlayerTotals]] = {}
    for r in conn.all("SELECT * FROM league_players WHERE league_id = ?", (league_id,)):
        out.setdefault((r["season"], r["game"]), {})[r["user_id"]] = _totals(r)
    return out


def all_bots(
    conn: Conn, league_id: int
) -> dict[tuple[int, str], dict[str, tuple[float, float]]]:
    """Every stored computer-level rating of a league, per season and game."""
    out: dict[tuple[int, str], dict[str, tuple[float, float]]] = {}
    for r in conn.all("SELECT * FROM league_bot_ratings WHERE league_id = ?", (league_id,)):
        out.setdefault((r["season"], r["game"]), {})[r["bot_level"]] = (r["mu"], r["sigma"])
    return out


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
    return _with_seats(conn, rows)


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
    return _with_seats(conn, rows)


# -- standings and stats ------------------------------------------------------------------
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
    return [_totals(r) for r in rows]


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


# -- publication (the standings web page) ------------------------------------------------
@dataclass(frozen=True)
class SeasonTotals:
    """A player's totals in one season and game of a league."""

    season: int
    game: str
    totals: PlayerTotals


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


def player_seasons(conn: Conn, league_id: int, user_id: int) -> list[SeasonTotals]:
    """A user's totals in every season and game of a league, newest season first."""
    rows = conn.all(
        "SELECT * FROM league_players WHERE league_id = ? AND user_id = ?"
        " ORDER BY season DESC, game",
        (league_id, user_id),
    )
    return [SeasonTotals(r["season"], r["game"], _totals(r)) for r in rows]


def league_match(conn: Conn, league_id: int, match_id: int) -> PlayedMatch | None:
    """The match with its seats if it counted toward the league, else None."""
    rows = conn.all(
        "SELECT m.* FROM league_matches lm JOIN matches m ON m.id = lm.match_id"
        f" WHERE lm.league_id = ? AND lm.match_id = ? AND {shown('m')}",
        (league_id, match_id),
    )
    found = _with_seats(conn, rows)
    return found[0] if found else None
