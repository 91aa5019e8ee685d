"""Events repository: events, their sign-ups and every table of every round.

Plain functions of a ``Conn`` (see ``storage.db``), as ``storage.leagues``. The rules (who
meets whom, what a result is worth) live in ``bot.services.events``; this module only
stores and queries — and holds, as SQL so that every list can filter in its own query,
the one answer to "may this finished game be shown yet?" (``shown``: not while another
table still plays its duplicate board) and when a board's games count (``board_release``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n import Message
from storage.db import Conn, Row
from storage.models import computer_name


@dataclass(frozen=True)
class EventRow:
    """An event as stored."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    format: str
    rounds: int
    boards: int
    options: dict[str, Any]
    seed: int
    league_id: int | None
    status: str
    round: int
    created_by: int
    created_at: float
    announced: int = 0
    computer: str | None = None
    message_id: int | None = None
    #: The secret its deals derive from (hex; None: an event made before secrets, dealt
    #: from ``seed``). Never shown.
    secret: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class EntrantRow:
    """A signed-up player; ``seed`` and ``entrant`` (their user id, or their team's
    number) are set when the event starts."""

    user_id: int
    #: The player's name; the computer entrant's, put into words when shown.
    name: str | Message
    joined: int
    seed: int | None
    entrant: int | None
    withdrawn: bool


@dataclass(frozen=True)
class TableRow:
    """One table (or bye) of a round; ``scores`` and ``points`` are None until played."""

    round: int
    table_no: int
    board: int
    seed: int
    side_a: int
    side_b: int | None
    seats: tuple[int, ...]
    scores: tuple[int, ...] | None
    points: float | None
    match_id: int | None
    channel_id: int | None = None
    table_id: int | None = None

    @property
    def played(self) -> bool:
        """Its result is in (a bye counts as played)."""
        return self.side_b is None or self.scores is not None


def _event(r: Row) -> EventRow:
    return EventRow(
        r["id"], r["guild_id"], r["channel_id"], r["name"], r["game"], r["format"],
        r["rounds"], r["boards"], json.loads(r["options"]), r["seed"], r["league_id"],
        r["status"], r["round"], r["created_by"], r["created_at"], r["announced"],
        r["computer"], r["message_id"], r["secret"],
    )


def _table(r: Row) -> TableRow:
    scores = None if r["scores"] is None else tuple(json.loads(r["scores"]))
    return TableRow(
        r["round"], r["table_no"], r["board"], r["seed"], r["side_a"], r["side_b"],
        tuple(json.loads(r["seats"])), scores, r["points"], r["match_id"], r["channel_id"],
        r["table_id"],
    )


def insert_event(
    conn: Conn, *, guild_id: int, channel_id: int, name: str, game: str, format: str,
    rounds: int, boards: int, options: dict[str, Any], secret: str, league_id: int | None,
    created_by: int, now: float, computer: str | None = None,
) -> int:
    """A new event taking sign-ups, dealt from ``secret`` (hex); its id."""
    row = conn.one(
        "INSERT INTO events (guild_id, channel_id, name, game, format, rounds, boards, options,"
        " seed, secret, league_id, status, created_by, created_at, computer)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 'signup', ?, ?, ?) RETURNING id",
        (guild_id, channel_id, name, game, format, rounds, boards,
         json.dumps(options, sort_keys=True), secret, league_id, created_by, now, computer),
    )
    assert row is not None
    return int(row["id"])


def event_by_id(conn: Conn, event_id: int) -> EventRow | None:
    """The event with that id, or None."""
    row = conn.one("SELECT * FROM events WHERE id = ?", (event_id,))
    return _event(row) if row else None


def guild_events(conn: Conn, guild_id: int, statuses: Sequence[str]) -> list[EventRow]:
    """A guild's events in those statuses, newest first."""
    marks = ", ".join("?" * len(statuses))
    rows = conn.all(
        f"SELECT * FROM events WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC",
        (guild_id, *statuses),
    )
    return [_event(r) for r in rows]


def league_events(conn: Conn, league_id: int) -> list[EventRow]:
    """The events whose games count toward a league, newest first."""
    rows = conn.all("SELECT * FROM events WHERE league_id = ? ORDER BY id DESC", (league_id,))
    return [_event(r) for r in rows]


def set_progress(conn: Conn, event_id: int, *, status: str, round_no: int) -> None:
    """Move an event on: its status and the round being played."""
    conn.execute(
        "UPDATE events SET status = ?, round = ? WHERE id = ?", (status, round_no, event_id)
    )


def unsettled_events(conn: Conn) -> list[EventRow]:
    """Every running event, and every finished one whose end was not announced yet."""
    rows = conn.all(
        "SELECT * FROM events WHERE status = 'running'"
        " OR (status = 'finished' AND announced <= rounds) ORDER BY id", (),
    )
    return [_event(r) for r in rows]


def set_message(conn: Conn, event_id: int, message_id: int) -> None:
    """The event's sign-up message."""
    conn.execute("UPDATE events SET message_id = ? WHERE id = ?", (message_id, event_id))


def set_announced(conn: Conn, event_id: int, round_no: int) -> None:
    """Note that round ``round_no`` (``rounds + 1``: the final standings) was announced."""
    conn.execute("UPDATE events SET announced = ? WHERE id = ?", (round_no, event_id))


def set_rounds(conn: Conn, event_id: int, rounds: int) -> None:
    """Change how many rounds an event has (a round robin's schedule may be shorter)."""
    conn.execute("UPDATE events SET rounds = ? WHERE id = ?", (rounds, event_id))


def add_entrant(conn: Conn, event_id: int, user_id: int, name: str) -> bool:
    """Sign a user up (last in the sign-up order); False if they already were."""
    row = conn.one(
        "SELECT COALESCE(MAX(joined), 0) AS last FROM event_entrants WHERE event_id = ?",
        (event_id,),
    )
    joined = (int(row["last"]) if row else 0) + 1
    return conn.execute(
        "INSERT INTO event_entrants (event_id, user_id, name, joined) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (event_id, user_id) DO NOTHING",
        (event_id, user_id, name, joined),
    ) == 1


def remove_entrant(conn: Conn, event_id: int, user_id: int) -> bool:
    """Take a user's sign-up back (before the start); False if there was none."""
    return conn.execute(
        "DELETE FROM event_entrants WHERE event_id = ? AND user_id = ?", (event_id, user_id)
    ) == 1


def entrants(conn: Conn, event_id: int) -> list[EntrantRow]:
    """The sign-ups in sign-up order; the computer entrant named by the event's level
    (``storage.models.computer_name``: it is stored without a name)."""
    rows = conn.all(
        "SELECT p.*, e.computer AS level FROM event_entrants p"
        " JOIN events e ON e.id = p.event_id WHERE p.event_id = ? ORDER BY p.joined",
        (event_id,),
    )
    return [
        EntrantRow(r["user_id"], r["name"] or computer_name(r["level"]), r["joined"],
                   r["seed"], r["entrant"], bool(r["withdrawn"]))
        for r in rows
    ]


def set_seeds(conn: Conn, event_id: int, seeds: Sequence[tuple[int, int, int]]) -> None:
    """Record ``(user_id, seed, entrant)`` for each player at the start."""
    conn.executemany(
        "UPDATE event_entrants SET seed = ?, entrant = ? WHERE event_id = ? AND user_id = ?",
        [(seed, entrant, event_id, user) for user, seed, entrant in seeds],
    )


def withdraw_entrant(conn: Conn, event_id: int, entrant: int) -> int:
    """Mark every player of an entrant withdrawn; how many rows changed."""
    return conn.execute(
        "UPDATE event_entrants SET withdrawn = 1 WHERE event_id = ? AND entrant = ?",
        (event_id, entrant),
    )


def insert_tables(conn: Conn, event_id: int, tables: Sequence[TableRow]) -> None:
    """Add a round's tables (and byes)."""
    conn.executemany(
        "INSERT INTO event_tables (event_id, round, table_no, board, seed, side_a, side_b,"
        " seats, scores, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (event_id, t.round, t.table_no, t.board, t.seed, t.side_a, t.side_b,
             json.dumps(list(t.seats)), None if t.scores is None else json.dumps(list(t.scores)),
             t.points)
            for t in tables
        ],
    )


def tables(conn: Conn, event_id: int) -> list[TableRow]:
    """Every table of the event, by round, table and board."""
    rows = conn.all(
        "SELECT * FROM event_tables WHERE event_id = ? ORDER BY round, table_no, board",
        (event_id,),
    )
    return [_table(r) for r in rows]


def record_table(
    conn: Conn, event_id: int, key: tuple[int, int, int], scores: Sequence[int],
    points: float | None, match_id: int | None,
) -> bool:
    """Store the result of table ``(round, table_no, board)``; False if it was already in
    (or there is no such table)."""
    round_no, table_no, board = key
    return conn.execute(
        "UPDATE event_tables SET scores = ?, points = ?, match_id = ? WHERE event_id = ?"
        " AND round = ? AND table_no = ? AND board = ? AND scores IS NULL AND side_b IS NOT NULL",
        (json.dumps(list(scores)), points, match_id, event_id, round_no, table_no, board),
    ) == 1


def table_of_game(conn: Conn, table_id: int) -> tuple[int, TableRow] | None:
    """The event (its id) and event table a table-service table is playing, or None."""
    r = conn.one("SELECT * FROM event_tables WHERE table_id = ?", (table_id,))
    return (int(r["event_id"]), _table(r)) if r else None


def set_channel(conn: Conn, event_id: int, key: tuple[int, int, int], channel_id: int) -> None:
    """The thread where table ``(round, table_no, board)`` is played."""
    conn.execute(
        "UPDATE event_tables SET channel_id = ? WHERE event_id = ? AND round = ?"
        " AND table_no = ? AND board = ?", (channel_id, event_id, *key),
    )


def link_table(conn: Conn, event_id: int, key: tuple[int, int, int], table_id: int) -> None:
    """The table-service table playing ``(round, table_no, board)`` (inside the transaction
    that opens it)."""
    conn.execute(
        "UPDATE event_tables SET table_id = ? WHERE event_id = ? AND round = ?"
        " AND table_no = ? AND board = ?", (table_id, event_id, *key),
    )


# -- what may be shown yet, and when a board's games count -------------------------------
#: SQL: the duplicate board of the ``event_tables`` row aliased ``{t}`` is still in play —
#: a table of its round plays it and has no result yet, while the event runs or while
#: that table's game is still open (an event cancelled mid-board: until its games are
#: closed). Every table of a board holds the same cards, so nothing of the board's games
#: (seed, moves, scores, matchpoints) may be shown anywhere before.
_IN_PLAY = (
    "EXISTS (SELECT 1 FROM events e JOIN event_tables other ON other.event_id = e.id"
    " LEFT JOIN tables ot ON ot.id = other.table_id"
    " WHERE e.id = {t}.event_id AND e.format = 'duplicate' AND other.round = {t}.round"
    " AND other.board = {t}.board AND other.table_no <> {t}.table_no"
    " AND other.side_b IS NOT NULL AND other.scores IS NULL"
    " AND (e.status = 'running' OR ot.status IN ('lobby', 'playing')))"
)


#: SQL: the table-service tables playing a duplicate board still in play. Not correlated
#: with the rows a list reads, so it is run once per query (a finished event has no board
#: in play; a cancelled one may, while a game of it is still open).
_HELD_TABLES = (
    "SELECT mine.table_id FROM events ev JOIN event_tables mine ON mine.event_id = ev.id"
    " WHERE ev.format = 'duplicate' AND ev.status IN ('running', 'cancelled')"
    " AND mine.table_id IS NOT NULL AND " + _IN_PLAY.format(t="mine")
)


def shown(match: str) -> str:
    """SQL condition on the ``matches`` row aliased ``match``: the finished game may be
    shown (listed with its score, exported, replayed) — it is not a game of a duplicate
    board still in play. The one answer every list, export and replay asks."""
    return f"({match}.table_id IS NULL OR {match}.table_id NOT IN ({_HELD_TABLES}))"


def may_show(conn: Conn, match_id: int) -> bool:
    """Whether match ``match_id`` may be shown (see ``shown``)."""
    row = conn.one(f"SELECT 1 AS yes FROM matches m WHERE m.id = ? AND {shown('m')}", (match_id,))
    return row is not None


def boards_in_play(conn: Conn, event_id: int) -> set[tuple[int, int]]:
    """The ``(round, board)`` of every duplicate board of the event still in play (see
    ``_IN_PLAY``): its tables' scores and matchpoints are not shown yet."""
    rows = conn.all(
        "SELECT DISTINCT mine.round, mine.board FROM event_tables mine"
        f" WHERE mine.event_id = ? AND {_IN_PLAY.format(t='mine')}", (event_id,),
    )
    return {(int(r["round"]), int(r["board"])) for r in rows}


@dataclass(frozen=True)
class BoardRelease:
    """A game just finished at a duplicate board's table: whether the board is now
    complete (every other table of it has its result) and those tables' matches, oldest
    first."""

    complete: bool
    earlier: tuple[int, ...]


def board_release(conn: Conn, table_id: int) -> BoardRelease | None:
    """For the game finished at table-service table ``table_id``: its board's release, or
    None when the table plays no duplicate board."""
    rows = conn.all(
        "SELECT other.table_no, other.scores, other.match_id FROM event_tables mine"
        " JOIN events e ON e.id = mine.event_id AND e.format = 'duplicate'"
        " LEFT JOIN event_tables other ON other.event_id = mine.event_id"
        " AND other.round = mine.round AND other.board = mine.board"
        " AND other.table_no <> mine.table_no AND other.side_b IS NOT NULL"
        " WHERE mine.table_id = ?", (table_id,),
    )
    if not rows:
        return None
    others = [r for r in rows if r["table_no"] is not None]
    return BoardRelease(
        all(r["scores"] is not None for r in others),
        tuple(sorted(int(r["match_id"]) for r in others if r["match_id"] is not None)),
    )


#: SQL: the table-service tables playing a duplicate board that some table of it has not
#: finished (whatever the event's status): their games count nowhere yet, or never.
_UNCOUNTED_TABLES = (
    "SELECT mine.table_id FROM events ev JOIN event_tables mine ON mine.event_id = ev.id"
    " WHERE ev.format = 'duplicate' AND mine.table_id IS NOT NULL AND EXISTS (SELECT 1"
    " FROM event_tables o WHERE o.event_id = mine.event_id AND o.round = mine.round"
    " AND o.board = mine.board AND o.side_b IS NOT NULL AND o.scores IS NULL)"
)


def counts_yet(match: str) -> str:
    """SQL condition on the ``matches`` row aliased ``match``: the game counts in records
    and leagues — it is no game of a duplicate board that a table of it has not finished
    (the SQL form of ``board_releases``' rule)."""
    return f"({match}.table_id IS NULL OR {match}.table_id NOT IN ({_UNCOUNTED_TABLES}))"


def board_releases(conn: Conn, guild_id: int) -> dict[int, int | None]:
    """Every game of a duplicate board of the guild's events (its match id): the match id
    of its board's last game when every table of the board has its result, else None —
    where the games of a board take their place, together, among the guild's games."""
    rows = conn.all(
        "SELECT mine.match_id AS match_id, (SELECT CASE WHEN COUNT(*) = COUNT(o.scores)"
        " THEN MAX(o.match_id) END FROM event_tables o WHERE o.event_id = mine.event_id"
        " AND o.round = mine.round AND o.board = mine.board AND o.side_b IS NOT NULL)"
        " AS last FROM event_tables mine"
        " JOIN events e ON e.id = mine.event_id AND e.format = 'duplicate'"
        " WHERE e.guild_id = ? AND mine.match_id IS NOT NULL", (guild_id,),
    )
    return {
        int(r["match_id"]): None if r["last"] is None else int(r["last"]) for r in rows
    }
