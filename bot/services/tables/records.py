"""What a table is in memory: its status (with the allowed transitions in one table, as h11
keeps its state machine) and the ``Table`` record the runtime keeps per open table."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import games
from games.base import Game, State
from storage.models import (
    Computer,
    Human,
    Occupant,
    Snapshot,
    SnapshotError,
    load_options,
    load_seats,
)
from storage.tables import TableRow


class TableStatus(enum.StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


#: Every allowed change of status; anything else is a bug.
TRANSITIONS: dict[TableStatus, frozenset[TableStatus]] = {
    TableStatus.LOBBY: frozenset({TableStatus.PLAYING, TableStatus.ABORTED}),
    TableStatus.PLAYING: frozenset({TableStatus.FINISHED, TableStatus.ABORTED}),
    TableStatus.FINISHED: frozenset(),
    TableStatus.ABORTED: frozenset(),
}
OPEN = frozenset({TableStatus.LOBBY, TableStatus.PLAYING})


@dataclass(kw_only=True)
class Table:
    """An open table as the runtime holds it: the last committed state, never ahead of it."""

    id: int
    channel_id: int
    guild_id: int
    league_id: int | None
    game: Game[Any]
    options: dict[str, Any]
    host_id: int
    status: TableStatus
    seed: int
    version: int
    seats: list[Occupant]
    state: State | None
    deadline: float | None
    reminded: bool
    turn_timer: int
    created_at: float
    started_at: float | None
    #: The match this table's game was recorded as, once this process finished it (a
    #: finished table loaded from its row does not know it).
    match_id: int | None = None
    #: A hint was used: the game counts toward no rating (``hints``).
    unrated: bool = False

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, if they sit here."""
        return next(
            (i for i, o in enumerate(self.seats) if isinstance(o, Human) and o.user_id == user_id),
            None,
        )

    def humans(self) -> list[Human]:
        """The human occupants, in seat order."""
        return [o for o in self.seats if isinstance(o, Human)]

    def computer_to_act(self) -> int | None:
        """The first computer seat whose turn it is, if any."""
        if self.status is not TableStatus.PLAYING or self.state is None:
            return None
        return next((s for s in self.state.to_act if isinstance(self.seats[s], Computer)), None)

    def move_to(self, status: TableStatus) -> None:
        """Change status; ``ValueError`` for a change ``TRANSITIONS`` does not allow."""
        if status not in TRANSITIONS[self.status]:
            raise ValueError(f"table {self.id}: {self.status} → {status} is not allowed")
        self.status = status


@dataclass(frozen=True)
class QuarantinedTable:
    """A table whose snapshot could not be loaded, and why."""

    table_id: int
    channel_id: int
    reason: str


#: What loading a stored table can raise when its row is unreadable.
LOAD_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError)


def table_of(row: TableRow) -> Table:
    """Load a row; raises one of ``LOAD_ERRORS`` (``SnapshotError`` is a ``ValueError``)."""
    game = games.get(row.game)
    seats = load_seats(row.seats)
    options = dict(load_options(row.options))
    status = TableStatus(row.status)
    state: State | None = None
    if status is not TableStatus.LOBBY and row.snapshot is not None:
        env = Snapshot.parse(row.snapshot)
        if env.game != game.name:
            raise SnapshotError(f"the snapshot is of {env.game!r}, the table of {game.name!r}")
        if env.version != row.version:
            raise SnapshotError(f"the snapshot is version {env.version}, the table {row.version}")
        state = game.from_json(env.state)
        if state.players != len(seats):
            raise SnapshotError("the snapshot has a different number of seats")
    elif status is TableStatus.PLAYING:
        raise SnapshotError("the snapshot is missing")
    return Table(
        id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, league_id=row.league_id,
        game=game, options=options, host_id=row.host_id, status=status, seed=row.seed,
        version=row.version, seats=seats, state=state, deadline=row.deadline,
        reminded=row.reminded, turn_timer=row.turn_timer, created_at=row.created_at,
        started_at=row.started_at, unrated=row.unrated,
    )


def reason(exc: BaseException) -> str:
    """Why a table could not be loaded, for the quarantine column and logs."""
    return f"{type(exc).__name__}: {exc}"[:500]
