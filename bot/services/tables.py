"""The table service: one durable table per channel, Discord-free.

Adapters (the Discord cogs, the terminal ``play`` mode) call ``TableService`` with ids and
strings and render the ``TableResult`` they get back. Decisions:

* Every operation on a channel runs under that channel's ``asyncio.Lock`` (one open table
  per channel, so this is the per-table lock, and it also serialises create/rematch).
* A move is checked (table, seat, version, turn), applied by the engine, then committed —
  snapshot, version, deadline and log row, plus the match and every match recorder when
  the game ends — in ONE transaction; memory is updated and the result returned only after
  ``COMMIT``. A reply therefore means the move is durable. The statements are plain
  functions run by ``Database.write``: one round trip to the writer's thread, group
  committed with other tables' moves (a move that fails there fails alone); only a game end
  with match recorders (async, e.g. leagues) uses ``Database.transaction()``.
* The version is checked before the turn, so an old button says "earlier turn".
* Computer seats then move through the same path, each in its own transaction, with an rng
  derived from the table seed and the version (replays and tests are deterministic).
* Open tables live in memory; a channel not in memory is looked up in the database on use
  (tables created by another process, or dropped after a conflicting write).
* A snapshot that cannot be loaded quarantines its table (status unchanged): every operation
  on it is refused with ``TableQuarantined`` except ``abort``, which frees the channel.
* Results meant for everyone hold only public data (spectator view, public events); each
  human seat's own view and legal actions are in ``TableResult.private[seat]``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import aiosqlite
from pydantic import ValidationError

import games
from bot.services.errors import (
    AlreadySeated,
    AlreadyStarted,
    BadOptions,
    IllegalMove,
    NoSuchSeat,
    NoTable,
    NotAllowed,
    NothingToRematch,
    NotPlaying,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    TableAlreadyOpen,
    TableBusy,
    TableFull,
    TableQuarantined,
    TooFewPlayers,
    UnknownGameError,
    UnknownLevel,
)
from games.base import Game, IllegalAction, Outcome, State
from games.rng import rng_for
from storage import tables as repo
from storage.db import Database
from storage.matches import MatchRecord, SeatResult, write_match
from storage.models import (
    Computer,
    Human,
    Occupant,
    Snapshot,
    SnapshotError,
    TableSettings,
    dump_options,
    dump_seats,
    load_options,
    load_seats,
)

log = logging.getLogger(__name__)

DEFAULT_TURN_TIMER = 300
TIMEOUT_LEVEL = "normal"

MatchRecorder = Callable[[aiosqlite.Connection, int, MatchRecord], Awaitable[None]]
StepHook = Callable[["TableResult"], Awaitable[None]]
ScheduleListener = Callable[[int, float], None]
_LOAD_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError)


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat (public)."""

    seat: int
    name: str
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
    name: str
    by: Literal["player", "computer", "timeout"]
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class SeatPrivate:
    """Only for the player in ``seat``: their view (with their hand) and legal actions."""

    seat: int
    user_id: int
    view: dict[str, Any]
    legal: tuple[str, ...]


@dataclass(frozen=True)
class TableResult:
    """What an operation did and the table as it is now, ready to render.

    Everything is public except ``private``: send ``private[seat]`` only to that seat.
    """

    table_id: int
    channel_id: int
    guild_id: int
    game: str
    title: str
    status: str
    version: int
    host_id: int
    seats: tuple[SeatInfo, ...]
    options: Mapping[str, Any]
    turn_timer: int
    deadline: float | None
    message: str
    steps: tuple[Step, ...] = ()
    to_act: tuple[int, ...] = ()
    public: dict[str, Any] | None = None
    outcome: Outcome | None = None
    match_id: int | None = None
    private: Mapping[int, SeatPrivate] = field(default_factory=dict)

    def for_user(self, user_id: int) -> SeatPrivate | None:
        """The private part for ``user_id``'s seat, if they are seated."""
        return next((p for p in self.private.values() if p.user_id == user_id), None)


@dataclass(frozen=True)
class Reminder:
    """Half of a turn's time is gone: remind these seats (public)."""

    table_id: int
    channel_id: int
    version: int
    seats: tuple[int, ...]
    user_ids: tuple[int, ...]
    deadline: float


@dataclass(frozen=True)
class QuarantinedTable:
    """A table whose snapshot could not be loaded, and why."""

    table_id: int
    channel_id: int
    reason: str


@dataclass(frozen=True)
class LoadReport:
    """What start-up loaded."""

    loaded: int
    playing: int
    quarantined: tuple[QuarantinedTable, ...]
    seconds: float


@dataclass
class _Table:
    id: int
    channel_id: int
    guild_id: int
    league_id: int | None
    game: Game[Any]
    options: dict[str, Any]
    host_id: int
    status: str
    seed: int
    version: int
    seats: list[Occupant]
    state: State | None
    deadline: float | None
    reminded: bool
    turn_timer: int
    created_at: float
    started_at: float | None

    def seat_of(self, user_id: int) -> int | None:
        return next(
            (i for i, o in enumerate(self.seats) if isinstance(o, Human) and o.user_id == user_id),
            None,
        )

    def humans(self) -> list[Human]:
        return [o for o in self.seats if isinstance(o, Human)]


def _computer_name(seats: list[Occupant], level: str) -> str:
    used = set()
    for o in seats:
        tail = o.name.rsplit(" ", 1)[-1]
        if isinstance(o, Computer) and tail.isdigit():
            used.add(int(tail))
    n = next(i for i in range(1, len(seats) + 2) if i not in used)
    return f"Computer ({level}) {n}"


def _human(user_id: int, name: str) -> Human:
    return Human(user_id=user_id, name=(name.strip() or f"Player {user_id}")[:100])


def _row_to_table(row: repo.TableRow) -> _Table:
    """Load a row; raises one of ``_LOAD_ERRORS`` (or ``SnapshotError``) if it is unreadable."""
    game = games.get(row.game)
    seats = load_seats(row.seats)
    options = dict(load_options(row.options))
    state: State | None = None
    if row.status != "lobby" and row.snapshot is not None:
        env = Snapshot.parse(row.snapshot)
        if env.game != game.name:
            raise SnapshotError(f"the snapshot is of {env.game!r}, the table of {game.name!r}")
        if env.version != row.version:
            raise SnapshotError(f"the snapshot is version {env.version}, the table {row.version}")
        state = game.from_json(env.state)
        if state.players != len(seats):
            raise SnapshotError("the snapshot has a different number of seats")
    elif row.status == "playing":
        raise SnapshotError("the snapshot is missing")
    return _Table(
        id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, league_id=row.league_id,
        game=game, options=options, host_id=row.host_id, status=row.status, seed=row.seed,
        version=row.version, seats=seats, state=state, deadline=row.deadline,
        reminded=row.reminded, turn_timer=row.turn_timer, created_at=row.created_at,
        started_at=row.started_at,
    )


def _no_table() -> NoTable:
    return NoTable("There is no table in this channel. Open one with /table new.")


def _quarantined() -> TableQuarantined:
    return TableQuarantined(
        "This table's saved game could not be read, so it is on hold. An admin can abort it"
        " to free the channel."
    )


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]


class TableService:
    """Table lifecycle and moves for every channel, on one ``Database``.

    ``now`` is the clock (seconds), ``new_seed`` makes table seeds, ``bot_delay`` seconds are
    slept (with ``sleep``) before each computer move so an adapter can show them one by one.
    """

    def __init__(
        self,
        db: Database,
        *,
        now: Callable[[], float] = time.time,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
        bot_delay: float = 0.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.db = db
        self._now = now
        self._new_seed = new_seed
        self._bot_delay = bot_delay
        self._sleep = sleep
        self._tables: dict[int, _Table] = {}
        self._quarantined: dict[int, QuarantinedTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._recorders: list[MatchRecorder] = []
        self._listeners: list[ScheduleListener] = []

    # -- wiring -------------------------------------------------------------------------
    def add_match_recorder(self, recorder: MatchRecorder) -> None:
        """Call ``recorder(conn, match_id, match)`` inside every finishing transaction."""
        self._recorders.append(recorder)

    def on_schedule(self, listener: ScheduleListener) -> None:
        """Call ``listener(channel_id, when)`` whenever a table needs a timer check then."""
        self._listeners.append(listener)

    async def load(self) -> LoadReport:
        """Load every open table (start-up); quarantine those that cannot be read."""
        started = time.perf_counter()
        bad: list[QuarantinedTable] = []
        fresh: list[QuarantinedTable] = []
        for row in await repo.load_open(self.db):
            if row.quarantine is not None:
                q = QuarantinedTable(row.id, row.channel_id, row.quarantine)
                self._quarantined[row.channel_id] = q
                bad.append(q)
                continue
            try:
                self._tables[row.channel_id] = _row_to_table(row)
            except _LOAD_ERRORS as exc:
                q = QuarantinedTable(row.id, row.channel_id, _reason(exc))
                self._quarantined[row.channel_id] = q
                bad.append(q)
                fresh.append(q)
        if fresh:

            def mark(conn: sqlite3.Connection) -> None:
                for q in fresh:
                    repo.quarantine(conn, q.table_id, q.reason)

            await self.db.write(mark)
        for q in bad:
            log.warning("table %s (channel %s) quarantined: %s", q.table_id, q.channel_id, q.reason)
        playing = sum(1 for t in self._tables.values() if t.status == "playing")
        return LoadReport(
            len(self._tables), playing, tuple(bad), time.perf_counter() - started
        )

    def pending(self) -> list[tuple[int, float]]:
        """``(channel_id, when)`` of every loaded table that needs a timer check."""
        out = []
        for t in self._tables.values():
            when = self._next_check(t)
            if when is not None:
                out.append((t.channel_id, when))
        return out

    # -- lifecycle ----------------------------------------------------------------------
    async def create(
        self,
        channel_id: int,
        guild_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: Mapping[str, object] | None = None,
        *,
        turn_timer: int = DEFAULT_TURN_TIMER,
        league_id: int | None = None,
    ) -> TableResult:
        """Open a lobby for ``game`` in the channel with the host in the first seat."""
        try:
            g = games.get(game)
        except games.UnknownGame as exc:
            raise UnknownGameError(str(exc)) from None
        try:
            TableSettings(turn_timer=turn_timer)
        except ValidationError:
            raise BadOptions(
                "The turn timer is a number of seconds from 0 (off) to 604800 (a week)."
            ) from None
        try:
            opts = g.check_options(dict(options or {}))
        except ValueError as exc:
            raise BadOptions(str(exc)) from None
        async with self._lock(channel_id):
            if await self._find(channel_id) is not None:
                raise TableAlreadyOpen(
                    "This channel already has a table. Join it, or open one in another"
                    " channel or thread."
                )
            seats: list[Occupant] = [_human(host_id, host_name)]
            now = self._now()
            seed = self._new_seed()
            new = repo.NewTable(
                channel_id, guild_id, league_id, g.name, dump_options(opts), host_id, seed,
                dump_seats(seats), turn_timer, now,
            )
            try:
                table_id = await self.db.write(lambda conn: repo.insert(conn, new))
            except sqlite3.IntegrityError:
                raise TableAlreadyOpen("This channel already has a table.") from None
            t = _Table(
                table_id, channel_id, guild_id, league_id, g, opts, host_id, "lobby", seed, 0,
                seats, None, None, False, turn_timer, now, None,
            )
            self._tables[channel_id] = t
            return self._result(t, f"{seats[0].name} opened a {g.title} table.")

    async def join(self, channel_id: int, user_id: int, name: str) -> TableResult:
        """Take the next free seat in the lobby."""
        async with self._lock(channel_id):
            t = await self._lobby(channel_id)
            if t.seat_of(user_id) is not None:
                raise AlreadySeated("You are already at this table.")
            if len(t.seats) >= t.game.max_players:
                raise TableFull(
                    f"This {t.game.title} table is full ({t.game.max_players} seats)."
                )
            human = _human(user_id, name)
            await self._save_lobby(t, [*t.seats, human], t.host_id)
            return self._result(t, f"{human.name} joined.")

    async def leave(
        self, channel_id: int, user_id: int, *, on_step: StepHook | None = None
    ) -> TableResult:
        """Leave. In a lobby the host passes to the next player (or the table closes);
        in a running game a computer player takes the seat over."""
        async with self._lock(channel_id):
            t = await self._usable(channel_id)
            seat = t.seat_of(user_id)
            if seat is None:
                raise NotSeated("You are not at this table.")
            who = t.seats[seat].name
            rest = [h for h in t.humans() if h.user_id != user_id]
            if not rest:
                await self._close(t, "aborted")
                return self._result(t, f"{who} left; the table is closed.")
            host = t.host_id if t.host_id != user_id else rest[0].user_id
            if t.status == "lobby":
                await self._save_lobby(t, [o for i, o in enumerate(t.seats) if i != seat], host)
                return self._result(t, f"{who} left.")
            seats = list(t.seats)
            level = self._timeout_level(t)
            seats[seat] = Computer(bot=level, name=_computer_name(seats, level))
            try:
                text, now = dump_seats(seats), self._now()
                await self.db.write(lambda conn: repo.update_seats(conn, t.id, text, host, now))
            except repo.RowChanged:
                raise self._busy(t) from None
            t.seats, t.host_id = seats, host
            steps = await self._play_computers(t, on_step)
            return self._result(t, f"{who} left; {seats[seat].name} plays on.", steps)

    async def add_bot(
        self, channel_id: int, user_id: int, level: str = "normal", *, is_admin: bool = False
    ) -> TableResult:
        """Seat a computer player of ``level`` (anyone seated, or an admin)."""
        async with self._lock(channel_id):
            t = await self._lobby(channel_id)
            if t.seat_of(user_id) is None and not is_admin:
                raise NotSeated("Join the table first, then add computer players.")
            level = level.strip().lower()
            if level not in t.game.levels:
                raise UnknownLevel(
                    f"There is no {level!r} computer player; levels: {', '.join(t.game.levels)}."
                )
            if len(t.seats) >= t.game.max_players:
                raise TableFull(
                    f"This {t.game.title} table is full ({t.game.max_players} seats)."
                )
            bot = Computer(bot=level, name=_computer_name(t.seats, level))
            await self._save_lobby(t, [*t.seats, bot], t.host_id)
            return self._result(t, f"{bot.name} sat down.")

    async def remove_bot(
        self, channel_id: int, user_id: int, name: str | None = None, *, is_admin: bool = False
    ) -> TableResult:
        """Remove the computer player called ``name`` (default: the last one seated)."""
        async with self._lock(channel_id):
            t = await self._lobby(channel_id)
            self._require_host(t, user_id, is_admin, "remove computer players")
            bots = [i for i, o in enumerate(t.seats) if isinstance(o, Computer)]
            if name is not None:
                bots = [i for i in bots if t.seats[i].name.lower() == name.strip().lower()]
            if not bots:
                what = f"no computer player called {name!r}" if name else "no computer player"
                raise NoSuchSeat(f"There is {what} at this table.")
            gone = t.seats[bots[-1]]
            await self._save_lobby(t, [o for o in t.seats if o is not gone], t.host_id)
            return self._result(t, f"{gone.name} left.")

    async def kick(
        self, channel_id: int, user_id: int, target_id: int, *, is_admin: bool = False
    ) -> TableResult:
        """Remove another player from the lobby (host or admin)."""
        async with self._lock(channel_id):
            t = await self._lobby(channel_id)
            self._require_host(t, user_id, is_admin, "remove players")
            seat = t.seat_of(target_id)
            if seat is None:
                raise NoSuchSeat("That player is not at this table.")
            if target_id == t.host_id:
                raise NotAllowed("The host cannot be removed; the host can leave instead.")
            gone = t.seats[seat]
            await self._save_lobby(t, [o for o in t.seats if o is not gone], t.host_id)
            return self._result(t, f"{gone.name} was removed from the table.")

    async def start(
        self,
        channel_id: int,
        user_id: int,
        *,
        is_admin: bool = False,
        on_step: StepHook | None = None,
    ) -> TableResult:
        """Seat the players in a random (seeded) order, deal, and let computers move."""
        async with self._lock(channel_id):
            t = await self._lobby(channel_id)
            self._require_host(t, user_id, is_admin, "start the game")
            g = t.game
            if len(t.seats) < g.min_players:
                raise TooFewPlayers(
                    f"{g.title} needs at least {g.min_players} players; {len(t.seats)} seated."
                    " Invite someone or add a computer player."
                )
            seats = list(t.seats)
            rng_for(t.seed, "seating").shuffle(seats)
            state = g.new(len(seats), seed=t.seed, options=t.options)
            now = self._now()
            deadline = self._deadline(t.turn_timer, seats, state, now)
            snapshot = Snapshot.dump(g.name, 0, g.dumps(state))
            try:
                text = dump_seats(seats)
                await self.db.write(
                    lambda conn: repo.start(conn, t.id, text, snapshot, deadline, now)
                )
            except repo.RowChanged:
                raise self._busy(t) from None
            t.seats, t.state, t.status, t.version = seats, state, "playing", 0
            t.deadline, t.reminded, t.started_at = deadline, False, now
            if deadline is not None:
                self._schedule(t)
            steps = await self._play_computers(t, on_step)
            return self._result(t, f"The {g.title} game has started.", steps)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: str,
        expected_version: int | None = None,
        *,
        on_step: StepHook | None = None,
    ) -> TableResult:
        """Play ``action`` for the user's seat, then let computer seats move.

        ``on_step`` is awaited after each committed computer move with a result holding
        just that step, so an adapter can show them one by one; the returned result holds
        every step.
        """
        async with self._lock(channel_id):
            t = await self._usable(channel_id)
            if t.status != "playing" or t.state is None:
                raise NotPlaying("The game has not started yet; the host can start it.")
            seat = t.seat_of(user_id)
            if seat is None:
                raise NotSeated("You are not playing at this table.")
            if expected_version is not None and expected_version != t.version:
                raise StaleVersion(
                    "That button is from an earlier turn; use the latest message."
                )
            if seat not in t.state.to_act:
                raise NotYourTurn("It is not your turn.")
            try:
                new = t.game.apply(t.state, seat, action)
                canonical = t.game.parse_action(action)
            except IllegalAction as exc:
                raise IllegalMove(str(exc)) from None
            steps = [await self._commit(t, seat, canonical, new, user_id, "player")]
            steps += await self._play_computers(t, on_step)
            return self._result(t, "", steps)

    async def abort(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> TableResult:
        """End the open table without a result (host or admin; also for quarantined ones)."""
        async with self._lock(channel_id):
            q = self._quarantined.get(channel_id)
            if q is not None:
                if not is_admin:
                    raise NotAllowed("Only an admin can abort a quarantined table.")
                now = self._now()
                await self.db.write(lambda conn: repo.close(conn, q.table_id, "aborted", now))
                del self._quarantined[channel_id]
                row = await repo.get(self.db, q.table_id)
                assert row is not None
                return self._row_result(row, "The unreadable table was aborted.")
            t = await self._usable(channel_id)
            self._require_host(t, user_id, is_admin, "abort the table")
            await self._close(t, "aborted")
            return self._result(t, "The table was aborted.")

    async def rematch(
        self,
        channel_id: int,
        user_id: int,
        *,
        is_admin: bool = False,
        on_step: StepHook | None = None,
    ) -> TableResult:
        """Start a new game with the same seats and options and a new seed.

        Any human who played the last finished game in the channel (or an admin) may ask;
        the seat order is kept.
        """
        async with self._lock(channel_id):
            if await self._find(channel_id) is not None:
                raise TableAlreadyOpen("This channel already has a table.")
            row = await repo.latest_in_channel(self.db, channel_id)
            if row is None or row.status != "finished":
                raise NothingToRematch("There is no finished game here to play again.")
            old = _row_to_table(row)
            if old.seat_of(user_id) is None and not is_admin:
                raise NotSeated("Only the players of the last game can start a rematch.")
            g, seats, now, seed = old.game, old.seats, self._now(), self._new_seed()
            state = g.new(len(seats), seed=seed, options=old.options)
            deadline = self._deadline(old.turn_timer, seats, state, now)
            new = repo.NewTable(
                channel_id, old.guild_id, old.league_id, g.name, dump_options(old.options),
                old.host_id, seed, dump_seats(seats), old.turn_timer, now,
            )
            snapshot = Snapshot.dump(g.name, 0, g.dumps(state))

            def open_and_start(conn: sqlite3.Connection) -> int:
                table_id = repo.insert(conn, new)
                repo.start(conn, table_id, new.seats, snapshot, deadline, now)
                return table_id

            try:
                table_id = await self.db.write(open_and_start)
            except sqlite3.IntegrityError:
                raise TableAlreadyOpen("This channel already has a table.") from None
            t = _Table(
                table_id, channel_id, old.guild_id, old.league_id, g, old.options, old.host_id,
                "playing", seed, 0, seats, state, deadline, False, old.turn_timer, now, now,
            )
            self._tables[channel_id] = t
            if deadline is not None:
                self._schedule(t)
            steps = await self._play_computers(t, on_step)
            return self._result(t, f"Rematch! A new {g.title} game has started.", steps)

    async def status(self, channel_id: int) -> TableResult:
        """The channel's open table, or else its most recent (finished or aborted) one."""
        async with self._lock(channel_id):
            t = await self._find(channel_id)
            if isinstance(t, QuarantinedTable):
                raise _quarantined()
            if t is not None:
                return self._result(t, "")
            row = await repo.latest_in_channel(self.db, channel_id)
            if row is None:
                raise _no_table()
            try:
                return self._result(_row_to_table(row), "")
            except _LOAD_ERRORS:
                return self._row_result(row, "This table's saved game could not be read.")

    # -- timers -------------------------------------------------------------------------
    async def fire_timer(self, channel_id: int) -> Reminder | TableResult | None:
        """Do what is due on the table now: resume computer moves (after a restart), send
        the half-time reminder, or let the computer move for players whose time ran out."""
        async with self._lock(channel_id):
            t = self._tables.get(channel_id)
            if t is None or t.status != "playing" or t.state is None:
                return None
            if self._computer_to_act(t) is not None:
                resumed = await self._play_computers(t, None)
                return self._result(t, "The computer players moved.", resumed)
            if t.deadline is None:
                return None
            now = self._now()
            if now >= t.deadline:
                steps: list[Step] = []
                late = [s for s in t.state.to_act if isinstance(t.seats[s], Human)]
                level = self._timeout_level(t)
                for seat in late:
                    if t.state is None or seat not in t.state.to_act:
                        continue
                    action = t.game.choose(t.state, seat, level, rng_for(t.seed, "bot", t.version))
                    new = t.game.apply(t.state, seat, action)
                    steps.append(await self._commit(t, seat, action, new, None, "timeout"))
                steps += await self._play_computers(t, None)
                names = " and ".join(t.seats[s].name for s in late)
                return self._result(
                    t, f"{names} timed out; the computer played for them.", steps
                )
            if not t.reminded and now >= t.deadline - t.turn_timer / 2:
                try:
                    version = t.version
                    await self.db.write(lambda conn: repo.set_reminded(conn, t.id, version))
                except repo.RowChanged:
                    raise self._busy(t) from None
                t.reminded = True
                self._schedule(t)
                seats = tuple(s for s in t.state.to_act if isinstance(t.seats[s], Human))
                users = tuple(
                    o.user_id for s in seats if isinstance(o := t.seats[s], Human)
                )
                return Reminder(t.id, channel_id, t.version, seats, users, t.deadline)
            self._schedule(t)
            return None

    # -- internals ----------------------------------------------------------------------
    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def _find(self, channel_id: int) -> _Table | QuarantinedTable | None:
        """The open table of the channel, loading it from the database if needed."""
        t = self._tables.get(channel_id) or self._quarantined.get(channel_id)
        if t is not None:
            return t
        row = await repo.open_in_channel(self.db, channel_id)
        if row is None:
            return None
        if row.quarantine is not None:
            q = self._quarantined[channel_id] = QuarantinedTable(
                row.id, channel_id, row.quarantine
            )
            return q
        try:
            loaded = self._tables[channel_id] = _row_to_table(row)
        except _LOAD_ERRORS as exc:
            q = self._quarantined[channel_id] = QuarantinedTable(row.id, channel_id, _reason(exc))
            reason = q.reason
            await self.db.write(lambda conn: repo.quarantine(conn, row.id, reason))
            return q
        self._schedule(loaded)
        return loaded

    async def _usable(self, channel_id: int) -> _Table:
        t = await self._find(channel_id)
        if t is None:
            raise _no_table()
        if isinstance(t, QuarantinedTable):
            raise _quarantined()
        return t

    async def _lobby(self, channel_id: int) -> _Table:
        t = await self._usable(channel_id)
        if t.status != "lobby":
            raise AlreadyStarted("The game here has already started; wait for the next one.")
        return t

    def _require_host(self, t: _Table, user_id: int, is_admin: bool, what: str) -> None:
        if user_id != t.host_id and not is_admin:
            raise NotAllowed(f"Only the table's host or an admin can {what}.")

    def _busy(self, t: _Table) -> TableBusy:
        self._tables.pop(t.channel_id, None)
        return TableBusy("The table changed elsewhere in the meantime; please try again.")

    async def _save_lobby(self, t: _Table, seats: list[Occupant], host_id: int) -> None:
        text, now = dump_seats(seats), self._now()
        try:
            await self.db.write(lambda conn: repo.update_lobby(conn, t.id, text, host_id, now))
        except repo.RowChanged:
            raise self._busy(t) from None
        t.seats, t.host_id = seats, host_id

    async def _close(self, t: _Table, status: str) -> None:
        now = self._now()
        try:
            await self.db.write(lambda conn: repo.close(conn, t.id, status, now))
        except repo.RowChanged:
            raise self._busy(t) from None
        t.status, t.deadline = status, None
        self._tables.pop(t.channel_id, None)

    def _timeout_level(self, t: _Table) -> str:
        levels = t.game.levels
        return TIMEOUT_LEVEL if TIMEOUT_LEVEL in levels else levels[-1]

    @staticmethod
    def _deadline(
        turn_timer: int, seats: list[Occupant], state: State, now: float
    ) -> float | None:
        if turn_timer <= 0 or not any(isinstance(seats[s], Human) for s in state.to_act):
            return None
        return now + turn_timer

    def _computer_to_act(self, t: _Table) -> int | None:
        if t.state is None:
            return None
        return next((s for s in t.state.to_act if isinstance(t.seats[s], Computer)), None)

    def _next_check(self, t: _Table) -> float | None:
        if t.status != "playing":
            return None
        if self._computer_to_act(t) is not None:
            return 0.0
        if t.deadline is None:
            return None
        return t.deadline if t.reminded else t.deadline - t.turn_timer / 2

    def _schedule(self, t: _Table) -> None:
        when = self._next_check(t)
        if when is not None:
            for listener in self._listeners:
                listener(t.channel_id, when)

    async def _play_computers(self, t: _Table, on_step: StepHook | None) -> list[Step]:
        steps: list[Step] = []
        while t.status == "playing" and t.state is not None:
            seat = self._computer_to_act(t)
            if seat is None:
                break
            if self._bot_delay > 0:
                await self._sleep(self._bot_delay)
            occupant = t.seats[seat]
            assert isinstance(occupant, Computer)
            action = t.game.choose(t.state, seat, occupant.bot, rng_for(t.seed, "bot", t.version))
            new = t.game.apply(t.state, seat, action)
            step = await self._commit(t, seat, action, new, None, "computer")
            steps.append(step)
            if on_step is not None:
                await on_step(self._result(t, "", [step]))
        return steps

    async def _commit(
        self,
        t: _Table,
        seat: int,
        action: str,
        new: State,
        by_user: int | None,
        by: Literal["player", "computer", "timeout"],
    ) -> Step:
        """Persist one move (and the match, if it ends the game) in one transaction.

        Everything (snapshot JSON included) is computed before the write is queued, so the
        work on the writer's thread is just the statements.
        """
        g, version, table_id, now = t.game, t.version + 1, t.id, self._now()
        deadline = self._deadline(t.turn_timer, t.seats, new, now)
        snapshot = Snapshot.dump(g.name, version, g.dumps(new))
        match = self._match(t, new, now) if new.is_over else None

        def persist(conn: sqlite3.Connection) -> int | None:
            repo.record_action(
                conn, table_id, version=version, seat=seat, action=action, by_user=by_user,
                timed_out=by == "timeout", snapshot=snapshot, deadline=deadline,
                finished=match is not None, now=now,
            )
            return write_match(conn, match) if match is not None else None

        try:
            if match is None or not self._recorders:
                await self.db.write(persist)
            else:
                async with self.db.transaction() as conn:
                    match_id = await self.db.call(persist)
                    assert match_id is not None
                    for recorder in self._recorders:
                        await recorder(conn, match_id, match)
        except repo.RowChanged:
            raise self._busy(t) from None
        t.state, t.version, t.deadline, t.reminded = new, version, deadline, False
        if new.is_over:
            t.status = "finished"
            self._tables.pop(t.channel_id, None)
        elif deadline is not None:
            self._schedule(t)
        return Step(version, seat, t.seats[seat].name, by, tuple(new.events))

    def _match(self, t: _Table, state: State, now: float) -> MatchRecord:
        out = t.game.outcome(state)
        teams = t.game.teams(len(t.seats))
        seats = tuple(
            SeatResult(
                seat=i,
                user_id=o.user_id if isinstance(o, Human) else None,
                bot_level=o.bot if isinstance(o, Computer) else None,
                name=o.name,
                team=teams[i],
                score=out.scores[i],
                rank=out.ranks[i],
            )
            for i, o in enumerate(t.seats)
        )
        return MatchRecord(
            table_id=t.id, guild_id=t.guild_id, channel_id=t.channel_id, league_id=t.league_id,
            game=t.game.name, options=dict(t.options), seed=t.seed,
            started_at=t.started_at if t.started_at is not None else now, finished_at=now,
            seats=seats,
        )

    def _result(self, t: _Table, message: str, steps: list[Step] | None = None) -> TableResult:
        g, state = t.game, t.state
        seats = tuple(
            SeatInfo(
                i, o.name, o.user_id if isinstance(o, Human) else None,
                o.bot if isinstance(o, Computer) else None,
            )
            for i, o in enumerate(t.seats)
        )
        public: dict[str, Any] | None = None
        outcome: Outcome | None = None
        private: dict[int, SeatPrivate] = {}
        to_act: tuple[int, ...] = ()
        if state is not None and t.status in ("playing", "finished"):
            public = g.view(state, None)
            to_act = tuple(state.to_act)
            if state.is_over:
                outcome = g.outcome(state)
            for i, o in enumerate(t.seats):
                if isinstance(o, Human):
                    private[i] = SeatPrivate(
                        i, o.user_id, g.view(state, i), tuple(g.legal_actions(state, i))
                    )
        return TableResult(
            table_id=t.id, channel_id=t.channel_id, guild_id=t.guild_id, game=g.name,
            title=g.title, status=t.status, version=t.version, host_id=t.host_id, seats=seats,
            options=dict(t.options), turn_timer=t.turn_timer, deadline=t.deadline,
            message=message, steps=tuple(steps or ()), to_act=to_act, public=public,
            outcome=outcome, private=private,
        )

    def _row_result(self, row: repo.TableRow, message: str) -> TableResult:
        return TableResult(
            table_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
            title=row.game, status=row.status, version=row.version, host_id=row.host_id,
            seats=(), options=json.loads(row.options), turn_timer=row.turn_timer,
            deadline=None, message=message,
        )


async def replay(db: Database, table_id: int) -> State:
    """The state reached by re-applying the table's log from its seed and options."""
    row = await repo.get(db, table_id)
    if row is None:
        raise NoTable(f"There is no table {table_id}.")
    game = games.get(row.game)
    seats = load_seats(row.seats)
    state: State = game.new(len(seats), seed=row.seed, options=load_options(row.options))
    for n, a in enumerate(await repo.actions(db, table_id), start=1):
        if a.version != n:
            raise ValueError(f"the log skips from version {n - 1} to {a.version}")
        state = game.apply(state, a.seat, a.action)
    return state


@dataclass(frozen=True)
class CheckResult:
    """Whether a table's log replays to its snapshot."""

    table_id: int
    ok: bool
    problem: str = ""


async def check_table(db: Database, table_id: int) -> CheckResult:
    """Replay the table's log and compare it with the stored snapshot."""
    row = await repo.get(db, table_id)
    if row is None:
        return CheckResult(table_id, False, "no such table")
    if row.snapshot is None:
        return CheckResult(table_id, True, "no game yet")
    try:
        game = games.get(row.game)
        env = Snapshot.parse(row.snapshot)
        stored = game.dumps(game.from_json(env.state))
        replayed = game.dumps(await replay(db, table_id))
    except (*_LOAD_ERRORS, IllegalAction) as exc:
        return CheckResult(table_id, False, _reason(exc))
    if env.version != row.version:
        return CheckResult(table_id, False, f"snapshot version {env.version} ≠ {row.version}")
    if stored != replayed:
        return CheckResult(table_id, False, "replaying the log gives a different state")
    return CheckResult(table_id, True)
