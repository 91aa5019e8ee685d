"""Finished matches: one row per match, one per seat (a user or a computer player).

Matches are written by the table service in the same transaction that marks a table
finished; leagues read them (and add their own rows in that same transaction through
match recorders, see ``bot.services.tables``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n import Message
from storage.db import Conn, Row
from storage.events import shown
from storage.models import computer_name


@dataclass(frozen=True)
class SeatResult:
    """How one seat finished. Exactly one of ``user_id`` and ``bot_level`` is set. A
    computer is stored as its level and ``number`` (or whom it ``stands_for``) and named
    when shown (``storage.models.computer_name``); a computer's ``name`` given as text
    (stored so before migration 017) is kept as it is."""

    seat: int
    user_id: int | None
    bot_level: str | None
    name: str | Message
    team: int
    score: int
    rank: int
    number: int | None = None
    stands_for: str | None = None


@dataclass(frozen=True)
class MatchRecord:
    """A finished game. ``guild_id`` 0 is the offline (terminal) guild."""

    table_id: int | None
    guild_id: int
    channel_id: int
    league_id: int | None
    game: str
    options: dict[str, Any]
    seed: int
    started_at: float
    finished_at: float
    seats: tuple[SeatResult, ...]
    #: A hint was used at its table: it counts toward no rating or standings.
    unrated: bool = False


def partnered(seats: Sequence[SeatResult]) -> list[tuple[SeatResult, SeatResult]]:
    """Every human seat with each other human seat of its team: ``(seat, partner)``."""
    humans = [s for s in seats if s.user_id is not None]
    return [(s, p) for s in humans for p in humans if p.team == s.team and p.seat != s.seat]


def options_text(options: dict[str, Any]) -> str:
    """How a match's options are stored (JSON with sorted keys: equal options, equal text)."""
    return json.dumps(options, sort_keys=True)


def insert_match(conn: Conn, match: MatchRecord) -> int:
    """Insert a match and its seats (inside the caller's transaction); return its id."""
    row = conn.one(
        "INSERT INTO matches (table_id, guild_id, channel_id, league_id, game, options, seed,"
        " started_at, finished_at, unrated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (match.table_id, match.guild_id, match.channel_id, match.league_id, match.game,
         options_text(match.options), match.seed, match.started_at,
         match.finished_at, int(match.unrated)),
    )
    assert row is not None
    match_id = int(row["id"])
    conn.executemany(
        "INSERT INTO match_seats (match_id, seat, user_id, bot_level, name, team, score, rank,"
        " bot_number, stands_for) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(match_id, s.seat, s.user_id, s.bot_level, s.name if isinstance(s.name, str) else "",
          s.team, s.score, s.rank, s.number, s.stands_for)
         for s in match.seats],
    )
    return match_id


def match_of_table(conn: Conn, table_id: int) -> int | None:
    """The id of the match a finished table recorded, or None."""
    row = conn.one("SELECT id FROM matches WHERE table_id = ?", (table_id,))
    return int(row["id"]) if row else None


def seats_of(conn: Conn, match_ids: Sequence[int]) -> dict[int, tuple[SeatResult, ...]]:
    """The seats of each given match, by seat number (every id is a key)."""
    found: dict[int, list[SeatResult]] = {i: [] for i in match_ids}
    if match_ids:
        marks = ", ".join("?" * len(match_ids))
        rows = conn.all(
            f"SELECT * FROM match_seats WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            tuple(match_ids),
        )
        for s in rows:
            level, number, stands_for = s["bot_level"], s["bot_number"], s["stands_for"]
            name = s["name"] or computer_name(level, number, stands_for)
            found[s["match_id"]].append(
                SeatResult(s["seat"], s["user_id"], level, name, s["team"], s["score"],
                           s["rank"], number, stands_for)
            )
    return {i: tuple(seats) for i, seats in found.items()}


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


def played_matches(conn: Conn, rows: list[Row]) -> list[PlayedMatch]:
    """``matches`` rows as ``PlayedMatch``es, with their seats."""
    by_match = seats_of(conn, [r["id"] for r in rows])
    return [
        PlayedMatch(r["id"], r["guild_id"], r["league_id"], r["game"], r["started_at"],
                    r["finished_at"], by_match[r["id"]], bool(r["unrated"]),
                    json.loads(r["options"]))
        for r in rows
    ]


@dataclass(frozen=True)
class MatchSource:
    """What a replay is made from: the match (guild, game, seed) and its table's id,
    status and seed (all None when the table row is gone)."""

    match_id: int
    guild_id: int
    game: str
    seed: int
    table_id: int | None
    table_status: str | None
    table_seed: int | None


def match_source(
    conn: Conn, match_id: int, *, league_id: int | None = None, guild_id: int | None = None
) -> MatchSource | None:
    """The match, with its table's row, if it counted toward ``league_id`` or was played
    in ``guild_id`` (give exactly one) and may be shown (``storage.events.shown``); else
    None."""
    if league_id is not None and guild_id is None:
        where, scope = (
            "EXISTS (SELECT 1 FROM league_matches lm WHERE lm.match_id = m.id"
            " AND lm.league_id = ?)", league_id
        )
    elif guild_id is not None and league_id is None:
        where, scope = "m.guild_id = ?", guild_id
    else:
        raise ValueError("a match is looked up in a league or in a guild")
    row = conn.one(
        "SELECT m.id, m.guild_id, m.game, m.seed, m.table_id, t.status,"
        " t.seed AS table_seed FROM matches m LEFT JOIN tables t ON t.id = m.table_id"
        f" WHERE m.id = ? AND {where} AND {shown('m')}",
        (match_id, scope),
    )
    if row is None:
        return None
    return MatchSource(
        row["id"], row["guild_id"], row["game"], row["seed"], row["table_id"], row["status"],
        row["table_seed"],
    )
