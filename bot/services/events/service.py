"""``EventService``: Swiss, round-robin and duplicate events over the database.

Discord-free. Everything lives in the database (``storage.events``): each call reads what
it needs and writes in one transaction, so an event carries on after a restart exactly
where it was. Pairing a round, what a table's result is worth and the standings are
``rounds`` (pure).

Decisions:
* Events are for the two-sided games: Gin Rummy and Spades (entrants are players) and
  Back Alley (entrants are fixed partnerships, see ``pairing.partnerships``; it needs an
  even number of players, at least four).
* Seeding is the sign-up order. The creator or a server admin starts the event; round 1
  is paired at once and every later round when the last table of the round before is
  recorded, in the same transaction as that result.
* Computers (``computer``: a level, when the creator allows them) even out an odd field
  at the start: one computer entrant (user id ``COMPUTER``) joins, so nobody sits out a
  bye — and a Back Alley field of an odd number of players can play. Without them the
  odd one out gets a bye (Back Alley refuses an odd field).
* A player who leaves a running event is withdrawn (with their partner, in Back Alley):
  tables already paired are still played out (the table's turn timer lets a computer play
  for an absent player), and from the next round on they are not paired; a round-robin
  or duplicate opponent scheduled against them gets a bye instead.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import games
from bot.services.errors import ServiceError
from bot.services.events import pairing
from bot.services.events.duplicate import DUPLICATE_GAMES
from bot.services.events.pairing import Standing
from bot.services.events.rounds import (
    entrant_players,
    round_tables,
    seed_order,
    side_a_points,
    standing_rows,
)
from bot.services.events.seeds import new_secret
from i18n import Message, lazy_gettext
from storage import events as repo
from storage.db import Conn, Database
from storage.events import EntrantRow, EventRow, TableRow
from storage.matches import MatchRecord

log = logging.getLogger(__name__)

FORMATS = ("swiss", "round_robin", "duplicate")
MAX_NAME = 50
MAX_ROUNDS = 20
MAX_BOARDS = 8
#: The user id of the computer entrant that evens out a field (no Discord user has it).
COMPUTER = -1


class EventError(ServiceError):
    """A request the event service refuses; the message can be shown as it is."""


@dataclass(frozen=True)
class EventStandings:
    """An event's standings and the order that decided them, in words."""

    event: EventRow
    order: Message
    rows: tuple[Standing, ...]


@dataclass(frozen=True)
class Recorded:
    """A recorded table, and the next round's tables when it completed a round."""

    table: TableRow
    next_round: tuple[TableRow, ...]
    finished: bool


def record_in(
    conn: Conn, event_id: int, key: tuple[int, int, int], scores: Sequence[int],
    match_id: int | None,
) -> Recorded:
    """Record table ``key``'s final seat scores inside ``conn``'s transaction; when it was
    the round's last table, pair the next round (or finish the event)."""
    event = repo.event_by_id(conn, event_id)
    if event is None or event.status != "running":
        raise EventError(lazy_gettext("That event is not running."))
    tables = repo.tables(conn, event.id)
    found = [t for t in tables if (t.round, t.table_no, t.board) == key]
    if not found or found[0].side_b is None:
        raise EventError(lazy_gettext("There is no such table in the event."))
    table = found[0]
    if len(scores) != len(table.seats):
        raise EventError(lazy_gettext(
            "A table of {game} has {seats} scores.",
            game=event.game, seats=len(table.seats),
        ))
    players = repo.entrants(conn, event.id)
    points = (
        None if event.format == "duplicate"
        else side_a_points(event, table, entrant_players(players)[table.side_a], scores)
    )
    if not repo.record_table(conn, event.id, key, scores, points, match_id):
        raise EventError(lazy_gettext("That table's result is already in."))
    tables = repo.tables(conn, event.id)
    done = next(t for t in tables if (t.round, t.table_no, t.board) == key)
    if not all(t.played for t in tables if t.round == event.round):
        return Recorded(done, (), False)
    active = {p.entrant for p in players if not p.withdrawn}
    if event.round >= event.rounds or len(active) < 2:
        repo.set_progress(conn, event.id, status="finished", round_no=event.round)
        return Recorded(done, (), True)
    following = round_tables(event, players, tables, event.round + 1)
    repo.insert_tables(conn, event.id, following)
    repo.set_progress(conn, event.id, status="running", round_no=event.round + 1)
    return Recorded(done, tuple(following), False)


def _whole(n: object, most: int) -> bool:
    """``n`` is a whole number from 1 to ``most``."""
    return isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= most


# -- the service ------------------------------------------------------------------------------
class EventService:
    """Event use cases over a ``Database``; ``clock`` stamps new events and ``new_secret``
    gives each event its secret (boards' and tables' deals derive from it, see
    ``bot.services.events.seeds``)."""

    def __init__(
        self, db: Database, *, clock: Callable[[], float] = time.time,
        new_secret: Callable[[], bytes] = new_secret,
    ) -> None:
        self.db = db
        self.clock = clock
        self.new_secret = new_secret

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, *, is_admin: bool, name: str,
        game: str, format: str, rounds: int, boards: int = 2,
        options: dict[str, Any] | None = None, league_id: int | None = None,
        computer: str | None = None,
    ) -> EventRow:
        """A new event taking sign-ups (Manage Server); ``computer`` is the level of the
        computer that may even out the field (None: none)."""
        if not is_admin:
            raise EventError(lazy_gettext("Only a server admin (Manage Server) can create events."))
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not 1 <= len(clean) <= MAX_NAME:
            raise EventError(lazy_gettext(
                "An event name needs 1 to {most} characters.",
                most=MAX_NAME,
            ))
        if game not in DUPLICATE_GAMES:
            raise EventError(
                lazy_gettext(
                    "Events are for {games}, not {game!r}.",
                    games=', '.join(sorted(DUPLICATE_GAMES)), game=game,
                )
            )
        if format not in FORMATS:
            raise EventError(lazy_gettext(
                "The format is one of {formats}, not {format!r}.",
                formats=', '.join(FORMATS), format=format,
            ))
        if not _whole(rounds, MAX_ROUNDS):
            raise EventError(lazy_gettext(
                "An event has 1 to {most} rounds.",
                most=MAX_ROUNDS,
            ))
        if format != "duplicate":
            boards = 1
        elif not _whole(boards, MAX_BOARDS):
            raise EventError(lazy_gettext(
                "A duplicate round has 1 to {most} boards.",
                most=MAX_BOARDS,
            ))
        try:
            checked = games.get(game).check_options(options or {})
        except ValueError as exc:
            raise EventError(exc.args[0]) from None
        levels = games.get(game).levels
        if computer is not None and computer not in levels:
            raise EventError(lazy_gettext(
                "Computer players are {levels}, not {computer!r}.",
                levels=', '.join(levels), computer=computer,
            ))
        now, secret = self.clock(), self.new_secret().hex()

        def create(conn: Conn) -> EventRow:
            event_id = repo.insert_event(
                conn, guild_id=guild_id, channel_id=channel_id, name=clean, game=game,
                format=format, rounds=rounds, boards=boards, options=checked, secret=secret,
                league_id=league_id, created_by=user_id, now=now, computer=computer,
            )
            found = repo.event_by_id(conn, event_id)
            assert found is not None
            return found

        return await self.db.write(create)

    async def event(self, guild_id: int, event_id: int) -> EventRow:
        """The guild's event with that id."""
        found = await self.db.read(repo.event_by_id, event_id)
        if found is None or found.guild_id != guild_id:
            raise EventError(lazy_gettext("There is no event #{event_id} here.", event_id=event_id))
        return found

    async def events(self, guild_id: int) -> list[EventRow]:
        """The guild's events taking sign-ups or running, newest first."""
        return await self.db.read(repo.guild_events, guild_id, ("signup", "running"))

    async def join(self, guild_id: int, event_id: int, user_id: int, name: str) -> EventRow:
        """Sign up for an event that has not started."""
        event = await self.event(guild_id, event_id)
        if event.status != "signup":
            raise EventError(lazy_gettext(
                "{name} has already started; sign-ups are closed.",
                name=event.name,
            ))
        if not await self.db.write(repo.add_entrant, event.id, user_id, name):
            raise EventError(lazy_gettext("You are already signed up for {name}.", name=event.name))
        return event

    async def leave(self, guild_id: int, event_id: int, user_id: int) -> EventRow:
        """Take a sign-up back before the start, or withdraw from a running event (see the
        module docstring)."""
        event = await self.event(guild_id, event_id)
        if event.status == "signup":
            if not await self.db.write(repo.remove_entrant, event.id, user_id):
                raise EventError(lazy_gettext("You are not signed up for {name}.", name=event.name))
            return event
        if event.status != "running":
            raise EventError(lazy_gettext("{name} is over.", name=event.name))

        def withdraw(conn: Conn) -> bool:
            mine = [p for p in repo.entrants(conn, event.id) if p.user_id == user_id]
            if not mine or mine[0].withdrawn or mine[0].entrant is None:
                return False
            return repo.withdraw_entrant(conn, event.id, mine[0].entrant) > 0

        if not await self.db.write(withdraw):
            raise EventError(lazy_gettext("You are not playing in {name}.", name=event.name))
        return event

    async def cancel(
        self, guild_id: int, event_id: int, user_id: int, *, is_admin: bool
    ) -> list[TableRow]:
        """End an event without a result (its creator or an admin); the tables of its
        round still without a result (their games are the caller's to close)."""
        event = await self.event(guild_id, event_id)
        if not is_admin and user_id != event.created_by:
            raise EventError(lazy_gettext(
                "Only whoever created the event or a server admin can cancel it."
            ))
        if event.status not in ("signup", "running"):
            raise EventError(lazy_gettext("{name} is already over.", name=event.name))

        def cancel(conn: Conn) -> list[TableRow]:
            repo.set_progress(conn, event.id, status="cancelled", round_no=event.round)
            return [t for t in repo.tables(conn, event.id) if not t.played]

        return await self.db.write(cancel)

    async def entrants(self, event_id: int) -> list[EntrantRow]:
        """The sign-ups, in sign-up order."""
        return await self.db.read(repo.entrants, event_id)

    async def start(
        self, guild_id: int, event_id: int, user_id: int, *, is_admin: bool
    ) -> list[TableRow]:
        """Seed the entrants and pair round 1 (the creator or an admin); its tables."""
        event = await self.event(guild_id, event_id)
        if not is_admin and user_id != event.created_by:
            raise EventError(lazy_gettext(
                "Only whoever created the event or a server admin can start it."
            ))

        def start(conn: Conn) -> list[TableRow]:
            fresh = repo.event_by_id(conn, event.id)
            assert fresh is not None
            if fresh.status != "signup":
                raise EventError(lazy_gettext("{name} has already started.", name=fresh.name))
            signed = repo.entrants(conn, fresh.id)
            if fresh.computer is not None and len(signed) % 2 and len(signed) > 1:
                repo.add_entrant(conn, fresh.id, COMPUTER, "")  # named when shown
                signed = repo.entrants(conn, fresh.id)
            users = [p.user_id for p in signed]
            if DUPLICATE_GAMES[fresh.game] == 4:
                if len(users) < 4 or len(users) % 2:
                    raise EventError(lazy_gettext(
                        "Back Alley events need an even number of players, four or more; {users} "
                        "signed up.",
                        users=len(users),
                    ))
                teams = pairing.partnerships(users)
                entrant = {u: n for n, team in enumerate(teams, start=1) for u in team}
            else:
                if len(users) < 2:
                    raise EventError(lazy_gettext("An event needs at least two players."))
                entrant = {u: u for u in users}
            repo.set_seeds(conn, fresh.id, [(u, i, entrant[u]) for i, u in enumerate(users, 1)])
            players = repo.entrants(conn, fresh.id)
            if fresh.format == "round_robin":
                length = len(pairing.round_robin(seed_order(players)))
                if fresh.rounds > length:
                    repo.set_rounds(conn, fresh.id, length)
            tables = round_tables(fresh, players, [], 1)
            repo.insert_tables(conn, fresh.id, tables)
            repo.set_progress(conn, fresh.id, status="running", round_no=1)
            return tables

        return await self.db.write(start)

    async def tables(self, event_id: int) -> list[TableRow]:
        """Every table of the event so far, by round."""
        return await self.db.read(repo.tables, event_id)

    async def record(
        self, event_id: int, key: tuple[int, int, int], scores: Sequence[int],
        match_id: int | None = None,
    ) -> Recorded:
        """Record the final seat scores of table ``(round, table_no, board)``; pairs the
        next round (or finishes the event) when it was the round's last table."""
        return await self.db.write(record_in, event_id, key, scores, match_id)

    def record_match(self, conn: Conn, match_id: int, match: MatchRecord) -> None:
        """The match recorder: a finished game played at an event table is that table's
        result, recorded in the transaction that records the match."""
        if match.table_id is None:
            return
        found = repo.table_of_game(conn, match.table_id)
        if found is None:
            return
        event_id, table = found
        scores = [s.score for s in sorted(match.seats, key=lambda s: s.seat)]
        try:
            record_in(conn, event_id, (table.round, table.table_no, table.board), scores,
                      match_id)
        except EventError as exc:  # e.g. the event was cancelled meanwhile
            log.warning("match %s of event %s not recorded: %s", match_id, event_id, exc)

    async def event_of_table(self, table_id: int) -> int | None:
        """The event whose table a table-service table plays, if any."""
        found = await self.db.read(repo.table_of_game, table_id)
        return found[0] if found else None

    async def unsettled(self) -> list[EventRow]:
        """Events with something to do: running ones, and finished ones not announced."""
        return await self.db.read(repo.unsettled_events)

    async def round_tables(self, event_id: int) -> tuple[EventRow, list[EntrantRow],
                                                          list[TableRow]]:
        """An event as it is now: the event, its players and its tables."""

        def read(conn: Conn) -> tuple[EventRow, list[EntrantRow], list[TableRow]]:
            event = repo.event_by_id(conn, event_id)
            if event is None:
                raise EventError(lazy_gettext("There is no event #{event_id}.", event_id=event_id))
            return event, repo.entrants(conn, event_id), repo.tables(conn, event_id)

        return await self.db.read(read)

    @staticmethod
    def seating(board: TableRow, entrants: Sequence[EntrantRow]) -> list[tuple[int | None, str]]:
        """A board's seats as ``TableService.open_seated`` takes them: each entrant's user id
        and name, the computer entrant (``COMPUTER``) as a computer seat (no user)."""
        names = {p.user_id: str(p.name) for p in entrants}
        return [(None if u == COMPUTER else u, names[u]) for u in board.seats]

    def linker(self, event_id: int, key: tuple[int, int, int]) -> Callable[[Conn, int], None]:
        """What ties a new table-service table to event table ``key``, inside the
        transaction that opens it (``TableService.open_seated``'s ``link``)."""

        def link(conn: Conn, table_id: int) -> None:
            repo.link_table(conn, event_id, key, table_id)

        return link

    async def set_channel(self, event_id: int, key: tuple[int, int, int], channel_id: int) -> None:
        """Keep the thread a table is played in (before its game opens there)."""
        await self.db.write(repo.set_channel, event_id, key, channel_id)

    async def set_message(self, event_id: int, message_id: int) -> None:
        """Keep the id of the event's sign-up message (edited as the event goes on)."""
        await self.db.write(repo.set_message, event_id, message_id)

    async def announced(self, event_id: int, round_no: int) -> None:
        """Round ``round_no`` (``rounds + 1``: the end) was announced."""
        await self.db.write(repo.set_announced, event_id, round_no)

    async def standings(self, guild_id: int, event_id: int) -> EventStandings:
        """The event's standings now, with the order that decides them."""
        event = await self.event(guild_id, event_id)

        def read(conn: Conn) -> tuple[list[EntrantRow], list[TableRow], set[tuple[int, int]]]:
            return (repo.entrants(conn, event.id), repo.tables(conn, event.id),
                    repo.boards_in_play(conn, event.id))

        players, tables, in_play = await self.db.read(read)
        order = (
            lazy_gettext("matchpoints, then seed") if event.format == "duplicate"
            else lazy_gettext("points, then Buchholz, then Sonneborn-Berger, then seed")
        )
        return EventStandings(event, order, tuple(standing_rows(event, players, tables, in_play)))
