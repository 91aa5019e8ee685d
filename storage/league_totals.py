"""What counting a match stores for a league, per season and game, and the reads that
count: players' totals, results with human partners, computer levels' ratings, the matches
counted (numbered), ratings over time (and the seasons' games still to be filled), and the
matches a rebuild counts.

Plain functions of a ``Conn``: the league recorder writes them inside the table service's
match transaction (see ``bot.services.leagues``); ``rebuild``, ``check`` and ``backfill``
derive them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from storage.db import Conn, Row
from storage.leagues import League
from storage.matches import PlayedMatch, played_matches


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
class Pending:
    """A league season's game whose ratings over time are still to be computed, up to the
    match numbered ``through``."""

    league_id: int
    season: int
    game: str
    through: int


def totals_of(row: Row) -> PlayerTotals:
    """A ``league_players`` row."""
    return PlayerTotals(
        user_id=row["user_id"], name=row["name"], mu=row["mu"], sigma=row["sigma"],
        points=row["points"], games=row["games"], wins=row["wins"], draws=row["draws"],
        losses=row["losses"], score_sum=row["score_sum"],
        streak_kind=row["streak_kind"], streak_len=row["streak_len"],
        last_match=row["last_match"],
    )


def _partner(r: Row) -> PartnerTotals:
    return PartnerTotals(r["user_id"], r["partner_id"], r["name"], r["games"], r["wins"],
                         r["draws"], r["last_match"])


def _point(row: Row) -> RatingPoint:
    return RatingPoint(row["user_id"], row["games"], row["number"], row["mu"], row["sigma"])


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


_EXCLUDED_PLAYER_COLUMNS = ", ".join(
    f" {c} = excluded.{c}"
    for c in (
        "name", "mu", "sigma", "ordinal", "points", "games", "wins", "draws", "losses",
        "score_sum", "streak_kind", "streak_len", "last_match",
    )
)


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
    return {r["user_id"]: totals_of(r) for r in rows}


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


def uncounted_matches(conn: Conn, match_ids: Sequence[int]) -> list[PlayedMatch]:
    """Those matches, by id, that count toward no league yet."""
    rows = _all_in(
        conn,
        "SELECT m.* FROM matches m WHERE NOT EXISTS (SELECT 1 FROM league_matches lm"
        " WHERE lm.match_id = m.id) AND m.id IN (?) ORDER BY m.id",
        (), list(match_ids),
    )
    return played_matches(conn, rows)


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
        yield from played_matches(conn, rows)
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
    return list(zip(numbers, played_matches(conn, rows), strict=True))


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
        out.setdefault((r["season"], r["game"]), {})[r["user_id"]] = totals_of(r)
    return out


def all_bots(
    conn: Conn, league_id: int
) -> dict[tuple[int, str], dict[str, tuple[float, float]]]:
    """Every stored computer-level rating of a league, per season and game."""
    out: dict[tuple[int, str], dict[str, tuple[float, float]]] = {}
    for r in conn.all("SELECT * FROM league_bot_ratings WHERE league_id = ?", (league_id,)):
        out.setdefault((r["season"], r["game"]), {})[r["bot_level"]] = (r["mu"], r["sigma"])
    return out
