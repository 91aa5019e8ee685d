"""What the runtime hands to adapters: a table as it is now, ready to render.

Results meant for everyone hold only public data (spectator view, public events); each human
seat's own view and legal actions are in ``TableResult.private[seat]`` and go only to that
seat. Everything is built from a ``Table`` after its change was committed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.services.tables.records import Table, TableStatus
from games.base import Outcome
from i18n import Message
from storage.models import Computer, Human
from storage.tables import TableRow

By = Literal["player", "computer", "timeout"]


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat (public)."""

    seat: int
    #: A person's name, or a computer's put into words when shown
    #: (``storage.models.computer_name``).
    name: str | Message
    user_id: int | None
    bot: str | None


@dataclass(frozen=True)
class Step:
    """One committed move (public): who moved, how, and the public events it produced.

    ``by`` is ``player``, ``computer``, or ``timeout`` when the computer moved for an
    absent player. The action string itself is not included: only events are public.
    """

    version: int
    seat: int
    name: str | Message
    by: By
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class SeatPrivate:
    """Only for the player in ``seat``: their view (with their hand) and legal actions."""

    seat: int
    user_id: int
    view: dict[str, Any]
    legal: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class TableResult:
    """What an operation did and the table as it is now, ready to render.

    Everything is public except ``private``: send ``private[seat]`` only to that seat.
    """

    table_id: int
    channel_id: int
    guild_id: int
    game: str
    title: str
    status: TableStatus
    version: int
    host_id: int
    seats: tuple[SeatInfo, ...]
    options: Mapping[str, Any]
    turn_timer: int
    deadline: float | None
    message: str | Message = ""
    steps: tuple[Step, ...] = ()
    to_act: tuple[int, ...] = ()
    public: dict[str, Any] | None = None
    outcome: Outcome | None = None
    #: The recorded match of a game this process saw finish (for ``/game replay``).
    match_id: int | None = None
    #: A hint was used: the game counts toward no rating (``hints.UNRATED`` says so).
    unrated: bool = False
    private: Mapping[int, SeatPrivate] = field(default_factory=dict)

    def for_user(self, user_id: int) -> SeatPrivate | None:
        """The private part for ``user_id``'s seat, if they are seated."""
        return next((p for p in self.private.values() if p.user_id == user_id), None)


@dataclass(frozen=True)
class Reminder:
    """Half of a turn's time is gone: remind these seats (public)."""

    table_id: int
    channel_id: int
    guild_id: int
    title: str
    version: int
    seats: tuple[int, ...]
    user_ids: tuple[int, ...]
    deadline: float


def seat_infos(table: Table) -> tuple[SeatInfo, ...]:
    """The public seat list."""
    return tuple(
        SeatInfo(
            i, o.name, o.user_id if isinstance(o, Human) else None,
            o.bot if isinstance(o, Computer) else None,
        )
        for i, o in enumerate(table.seats)
    )


def project(
    table: Table, message: str | Message = "", steps: tuple[Step, ...] = ()
) -> TableResult:
    """The table as a result: public parts for all, each human's own part for them."""
    g, state = table.game, table.state
    public: dict[str, Any] | None = None
    outcome: Outcome | None = None
    private: dict[int, SeatPrivate] = {}
    to_act: tuple[int, ...] = ()
    if state is not None and table.status in (TableStatus.PLAYING, TableStatus.FINISHED):
        public = g.view(state, None)
        to_act = tuple(state.to_act)
        if state.is_over:
            outcome = g.outcome(state)
        for i, o in enumerate(table.seats):
            if isinstance(o, Human):
                private[i] = SeatPrivate(
                    i, o.user_id, g.view(state, i), tuple(g.legal_actions(state, i))
                )
    return TableResult(
        table_id=table.id, channel_id=table.channel_id, guild_id=table.guild_id, game=g.name,
        title=g.title, status=table.status, version=table.version, host_id=table.host_id,
        seats=seat_infos(table), options=dict(table.options), turn_timer=table.turn_timer,
        deadline=table.deadline, message=message, steps=steps, to_act=to_act,
        public=public, outcome=outcome, match_id=table.match_id, unrated=table.unrated,
        private=private,
    )


def project_row(row: TableRow, message: str | Message) -> TableResult:
    """A table whose snapshot cannot be read, as far as its row tells."""
    return TableResult(
        table_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
        title=row.game, status=TableStatus(row.status), version=row.version,
        host_id=row.host_id, seats=(), options=json.loads(row.options),
        turn_timer=row.turn_timer, deadline=None, message=message,
    )


def reminder(table: Table) -> Reminder:
    """The half-time reminder for the humans to act."""
    assert table.state is not None and table.deadline is not None
    seats = tuple(s for s in table.state.to_act if isinstance(table.seats[s], Human))
    users = tuple(o.user_id for s in seats if isinstance(o := table.seats[s], Human))
    return Reminder(
        table.id, table.channel_id, table.guild_id, table.game.title, table.version, seats,
        users, table.deadline,
    )
