"""Players' records per guild: every finished match a user sat in, per game and option set,
and per human partner.

They are kept as matches are recorded (``add_match``, which the league recorder runs in
the match's transaction), so ``/stats`` reads a few rows however many games a player has
played. ``recount`` derives them from ``matches`` again, and ``stored``/``recounted``
let ``deckhand db check`` compare the two. Migration 014 filled them for the matches
recorded before, with the same counting.

A seat won when no seat placed better and no other team placed the same; drew when no seat
placed better but another team placed the same (partners share their placement, so that
is their team's result, ``bot.services.leagues.team_results``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from storage.db import Conn, Row
from storage.events import counts_yet
from storage.matches import SeatResult, options_text, partnered


@dataclass(frozen=True)
class GameStatsRow:
    """One user's results in one game, played with one set of options, across a guild."""

    game: str
    options: str
    played: int
    won: int
    drawn: int
    max_score: int
    min_score: int


@dataclass(frozen=True)
class PartnerRow:
    """How often a user sat on the same team as a human partner in one game."""

    game: str
    partner_id: int
    partner_name: str
    games: int
    last_match: int


_ADD_GAME = (
    "INSERT INTO player_games (guild_id, user_id, game, options, played, won, drawn,"
    " max_score, min_score) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, game, options) DO UPDATE SET"
    " played = player_games.played + 1, won = player_games.won + excluded.won,"
    " drawn = player_games.drawn + excluded.drawn,"
    " max_score = CASE WHEN excluded.max_score > player_games.max_score"
    "  THEN excluded.max_score ELSE player_games.max_score END,"
    " min_score = CASE WHEN excluded.min_score < player_games.min_score"
    "  THEN excluded.min_score ELSE player_games.min_score END"
)
_NEWER = "excluded.last_match > player_partners.last_match"
_ADD_PARTNER = (
    "INSERT INTO player_partners (guild_id, user_id, game, partner_id, name, games,"
    " last_match) VALUES (?, ?, ?, ?, ?, 1, ?)"
    " ON CONFLICT (guild_id, user_id, game, partner_id) DO UPDATE SET"
    " games = player_partners.games + 1,"
    f" name = CASE WHEN {_NEWER} THEN excluded.name ELSE player_partners.name END,"
    f" last_match = CASE WHEN {_NEWER} THEN excluded.last_match"
    "  ELSE player_partners.last_match END"
)


class Recorded(Protocol):
    """What ``add_match`` reads of a match (a ``MatchRecord``, or a ``PlayedMatch`` read
    back when a duplicate board's games count together)."""

    @property
    def guild_id(self) -> int: ...

    @property
    def game(self) -> str: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def seats(self) -> tuple[SeatResult, ...]: ...


def add_match(conn: Conn, match_id: int, match: Recorded, results: Mapping[int, str]) -> None:
    """Count a match in its players' records (``results``: each team's ``W``, ``D`` or
    ``L``)."""
    options = options_text(match.options)
    humans = [s for s in match.seats if s.user_id is not None]
    conn.executemany(_ADD_GAME, [
        (match.guild_id, s.user_id, match.game, options, int(results[s.team] == "W"),
         int(results[s.team] == "D"), s.score, s.score)
        for s in humans
    ])
    conn.executemany(_ADD_PARTNER, [
        (match.guild_id, s.user_id, match.game, p.user_id, p.name, match_id)
        for s, p in partnered(match.seats)
    ])


def _game_row(r: Row) -> GameStatsRow:
    return GameStatsRow(r["game"], r["options"], r["played"], r["won"], r["drawn"],
                        r["max_score"], r["min_score"])


def _partner_row(r: Row) -> PartnerRow:
    return PartnerRow(r["game"], r["partner_id"], r["name"], r["games"], r["last_match"])


def game_stats(conn: Conn, guild_id: int, user_id: int) -> list[GameStatsRow]:
    """Per game and option set: matches played, won, drawn and the extreme scores of a user
    in a guild (the options decide which extreme is best)."""
    rows = conn.all(
        "SELECT * FROM player_games WHERE guild_id = ? AND user_id = ? ORDER BY game, options",
        (guild_id, user_id),
    )
    return [_game_row(r) for r in rows]


def partners(conn: Conn, guild_id: int, user_id: int) -> list[PartnerRow]:
    """Per game and human partner: matches on the same team, with the partner's last name."""
    rows = conn.all(
        "SELECT * FROM player_partners WHERE guild_id = ? AND user_id = ?"
        " ORDER BY game, partner_id",
        (guild_id, user_id),
    )
    return [_partner_row(r) for r in rows]


# -- counting again from matches ---------------------------------------------------------
def count_if(condition: str) -> str:
    """How many rows meet ``condition`` (0 when none), in portable SQL."""
    return f"COALESCE(SUM(CASE WHEN {condition} THEN 1 ELSE 0 END), 0)"


_NOBODY_BETTER = (
    "NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id AND o.rank < s.rank)"
)
_SHARED_TOP = (
    "EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id AND o.rank = s.rank"
    " AND o.team <> s.team)"
)
#: A seat ``s``'s wins and draws, counted over a group of seats.
_RESULTS = (
    f"{count_if(f'{_NOBODY_BETTER} AND NOT {_SHARED_TOP}')} AS won,"
    f" {count_if(f'{_NOBODY_BETTER} AND {_SHARED_TOP}')} AS drawn"
)
_RECOUNT_GAMES = (
    "SELECT m.guild_id AS guild_id, s.user_id AS user_id, m.game AS game,"
    f" m.options AS options, COUNT(*) AS played, {_RESULTS},"
    " MAX(s.score) AS max_score, MIN(s.score) AS min_score"
    " FROM match_seats s JOIN matches m ON m.id = s.match_id"
    f" WHERE s.user_id IS NOT NULL AND m.guild_id = ? AND {counts_yet('m')}"
    " GROUP BY m.guild_id, s.user_id, m.game, m.options"
)
_RECOUNT_PARTNERS = (
    "SELECT g.guild_id AS guild_id, g.user_id AS user_id, g.game AS game,"
    " g.partner_id AS partner_id, x.name AS name, g.games AS games,"
    " g.last_match AS last_match FROM ("
    " SELECT m.guild_id AS guild_id, s.user_id AS user_id, m.game AS game,"
    "  p.user_id AS partner_id, COUNT(*) AS games, MAX(p.match_id) AS last_match"
    " FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team"
    "  AND p.seat <> s.seat AND p.user_id IS NOT NULL"
    f" WHERE s.user_id IS NOT NULL AND m.guild_id = ? AND {counts_yet('m')}"
    " GROUP BY m.guild_id, s.user_id, m.game, p.user_id) g"
    " JOIN match_seats x ON x.match_id = g.last_match AND x.user_id = g.partner_id"
)
_GAME_COLUMNS = "guild_id, user_id, game, options, played, won, drawn, max_score, min_score"
_PARTNER_COLUMNS = "guild_id, user_id, game, partner_id, name, games, last_match"
_ORDER = " ORDER BY user_id, game, {}"


@dataclass(frozen=True)
class GuildRecords:
    """Every player's records in one guild, by user (each list in a fixed order)."""

    games: dict[int, list[GameStatsRow]]
    partners: dict[int, list[PartnerRow]]


def _grouped(
    conn: Conn, games_sql: str, partners_sql: str, guild_id: int
) -> GuildRecords:
    out = GuildRecords({}, {})
    for r in conn.all(games_sql + _ORDER.format("options"), (guild_id,)):
        out.games.setdefault(r["user_id"], []).append(_game_row(r))
    for r in conn.all(partners_sql + _ORDER.format("partner_id"), (guild_id,)):
        out.partners.setdefault(r["user_id"], []).append(_partner_row(r))
    return out


def stored(conn: Conn, guild_id: int) -> GuildRecords:
    """The guild's records as stored."""
    return _grouped(
        conn, f"SELECT {_GAME_COLUMNS} FROM player_games WHERE guild_id = ?",
        f"SELECT {_PARTNER_COLUMNS} FROM player_partners WHERE guild_id = ?", guild_id,
    )


def recounted(conn: Conn, guild_id: int) -> GuildRecords:
    """The guild's records counted again from ``matches``."""
    return _grouped(
        conn, f"SELECT * FROM ({_RECOUNT_GAMES}) r", f"SELECT * FROM ({_RECOUNT_PARTNERS}) r",
        guild_id,
    )


def recount(conn: Conn, guild_id: int) -> None:
    """Replace the guild's stored records with a count from ``matches``."""
    for table in ("player_games", "player_partners"):
        conn.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
    conn.execute(f"INSERT INTO player_games ({_GAME_COLUMNS}) {_RECOUNT_GAMES}", (guild_id,))
    conn.execute(
        f"INSERT INTO player_partners ({_PARTNER_COLUMNS}) {_RECOUNT_PARTNERS}", (guild_id,)
    )


def guilds(conn: Conn) -> list[int]:
    """Every guild with a finished match or a stored record."""
    rows = conn.all(
        "SELECT guild_id FROM matches UNION SELECT guild_id FROM player_games ORDER BY guild_id"
    )
    return [int(r["guild_id"]) for r in rows]
