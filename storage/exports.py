"""Finished games as an export reads them: the match, its seats and — when the table's log
still belongs to this game — its moves. Only games that may be shown
(``storage.events.shown``): a duplicate board still in play elsewhere is left out.

A table's log is the game's only while the table row still has the match's seed and is
finished (a rematch starts a new log on the same table; ``db purge`` deletes old tables);
otherwise ``moves`` is None.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Conn, Row
from storage.events import shown
from storage.matches import SeatResult, seats_of


@dataclass(frozen=True)
class GameRecord:
    """One finished game: options as stored (JSON text), seats by seat number, and the
    moves as ``(seat, action)`` pairs (None when the log is gone)."""

    match_id: int
    game: str
    options: str
    seed: int
    started_at: float
    finished_at: float
    seats: tuple[SeatResult, ...]
    moves: tuple[tuple[int, str], ...] | None


def _records(conn: Conn, rows: list[Row]) -> list[GameRecord]:
    seats = seats_of(conn, [r["id"] for r in rows])
    out = []
    for r in rows:
        moves = None
        if r["table_status"] == "finished" and r["table_seed"] == r["seed"]:
            logged = conn.all(
                "SELECT seat, action FROM table_actions WHERE table_id = ? ORDER BY version",
                (r["table_id"],),
            )
            moves = tuple((int(a["seat"]), str(a["action"])) for a in logged)
        out.append(GameRecord(
            r["id"], r["game"], r["options"], int(r["seed"]), r["started_at"], r["finished_at"],
            seats[r["id"]], moves,
        ))
    return out


_SELECT = (
    "SELECT m.*, t.status AS table_status, t.seed AS table_seed FROM matches m"
    " LEFT JOIN tables t ON t.id = m.table_id"
)


def guild_games(conn: Conn, guild_id: int, after: int = 0, limit: int = 500) -> list[GameRecord]:
    """A guild's finished games with a match id above ``after``, oldest first."""
    rows = conn.all(
        f"{_SELECT} WHERE m.guild_id = ? AND m.id > ? AND {shown('m')} ORDER BY m.id LIMIT ?",
        (guild_id, after, limit),
    )
    return _records(conn, rows)


def league_games(conn: Conn, league_id: int, after: int = 0, limit: int = 500) -> list[GameRecord]:
    """The games that counted toward a league, with a match id above ``after``."""
    rows = conn.all(
        f"{_SELECT} JOIN league_matches lm ON lm.match_id = m.id"
        f" WHERE lm.league_id = ? AND lm.match_id > ? AND {shown('m')}"
        " ORDER BY lm.match_id LIMIT ?",
        (league_id, after, limit),
    )
    return _records(conn, rows)
