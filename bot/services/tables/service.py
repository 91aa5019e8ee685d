"""``TableService``: the facade the adapters (Discord, the terminal) call, with ids and strings.

Every change is: take the channel's lock → check (``lobby``/``turns``) → apply → commit ONE
transaction → update the cache → release the lock → hand the table to ``autoplay`` → return
the result. A returned result means the change is durable; an exception means nothing was
written. Computer moves, reminders and time-outs happen later, each the same way, and reach
the adapters through ``subscribe``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

import games
from bot.services.errors import (
    BadOptions,
    NotAllowed,
    NothingToRematch,
    NotSeated,
    TableAlreadyOpen,
    TableBusy,
    UnknownGameError,
)
from bot.services.tables import hints, lobby, turns
from bot.services.tables.autoplay import Autoplay, Clock, SystemClock
from bot.services.tables.records import QuarantinedTable, Table, TableStatus, table_of
from bot.services.tables.results import (
    By,
    Reminder,
    Step,
    TableResult,
    project,
    project_row,
    reminder,
)
from bot.services.tables.store import (
    TABLES_TOPIC,
    Link,
    LoadReport,
    TableStore,
    no_table,
    quarantined,
)
from bot.services.tables.thinking import Thinker
from bot.services.tables.turns import Due, DueKind
from games.base import Game, IllegalAction, State
from games.rng import rng_for
from games.search import Advice
from i18n import Message, lazy_gettext
from storage import tables as repo
from storage.db import Conflict, Conn, Database
from storage.matches import MatchRecord, insert_match, match_of_table
from storage.models import Computer, Occupant, Snapshot, TableSettings, dump_options, dump_seats

log = logging.getLogger(__name__)

DEFAULT_TURN_TIMER = 300

#: Called inside the transaction that records a finished match (e.g. league updates).
MatchRecorder = Callable[[Conn, int, MatchRecord], None]
#: Gets every result the runtime makes on its own (computer moves, time-outs) and reminders.
Listener = Callable[[TableResult | Reminder], Awaitable[None]]
#: Told the table's id after a game's finish is committed, whoever made the move.
FinishListener = Callable[[int], None]


async def _default_stand_in(guild_id: int) -> str:
    """Deckhand's own stand-in level, for every server."""
    return lobby.STAND_IN_LEVEL


class TableService:
    """Table lifecycle and moves for every channel, on one ``Database``.

    ``clock`` is the one clock (moves, timers, pacing); ``new_seed`` makes table seeds;
    ``pace`` is the pause before each computer move, so people can follow them.
    """

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock | None = None,
        new_seed: Callable[[], int] | None = None,
        pace: float = 0.0,
        thinker: Thinker | None = None,
        owns: Callable[[int], bool] | None = None,
        stand_in: Callable[[int], Awaitable[str]] | None = None,
    ) -> None:
        self.db = db
        self._stand_in = stand_in or _default_stand_in
        self.thinker = thinker or Thinker()
        self.clock: Clock = clock or SystemClock()
        self.store = TableStore(db, owns or (lambda guild_id: True))
        self.autoplay = Autoplay(
            plan=self._plan, think=self._think, fire=self._fire, clock=self.clock, pace=pace
        )
        self._new_seed = new_seed or (lambda: secrets.randbits(62))
        self._recorders: list[MatchRecorder] = []
        self._reloads: set[asyncio.Task[None]] = set()
        self._listeners: list[Listener] = []
        self._finish_listeners: list[FinishListener] = []

    # -- wiring --------------------------------------------------------------------------
    def add_match_recorder(self, recorder: MatchRecorder) -> None:
        """Call ``recorder(conn, match_id, match)`` inside every finishing transaction."""
        self._recorders.append(recorder)

    def on_finish(self, listener: FinishListener) -> None:
        """Call ``listener(table_id)`` after every committed game end (it must not block:
        it runs while the table's lock is held)."""
        self._finish_listeners.append(listener)

    def subscribe(self, listener: Listener) -> None:
        """Await ``listener(event)`` with every computer move, time-out and reminder."""
        self._listeners.append(listener)

    async def load(self) -> LoadReport:
        """Load every open table (start-up); then ``resume`` once listeners are set."""
        return await self.store.load()

    def watch(self) -> None:
        """Hear the other processes' table changes (PostgreSQL ``LISTEN``) and reload
        them at once (``changed_elsewhere``)."""
        loop = asyncio.get_running_loop()

        def heard(payload: str | None) -> None:
            changed = self.store.heard(payload)
            if changed != []:
                loop.call_soon_threadsafe(self._reload_soon, changed)

        self.db.listen(TABLES_TOPIC, heard)

    def _reload_soon(self, channels: list[int] | None) -> None:
        task = asyncio.create_task(self.changed_elsewhere(channels))
        self._reloads.add(task)
        task.add_done_callback(self._reloads.discard)

    async def changed_elsewhere(self, channels: list[int] | None) -> None:
        """Another process committed a change to these channels' tables (``None``: maybe
        to any, announcements were missed): reload those this process keeps, and plan
        what they now have due (computer moves, timers)."""
        for channel in channels if channels is not None else self.store.channels():
            if self.store.cached(channel) is None:
                continue
            try:
                async with self.store.locked(channel):
                    self.store.forget(channel)
                    await self.store.find(channel)
            except Exception:
                log.exception("reloading the table of channel %s failed", channel)
            self.autoplay.poke(channel)

    def resume(self) -> None:
        """Schedule what every loaded table has due (interrupted computer moves, timers
        that ran out while the process was down)."""
        for table in self.store.tables():
            self.autoplay.poke(table.channel_id)

    async def settled(self, channel_id: int) -> None:
        """Wait until the table has no computer move due (for tests and the terminal)."""
        await self.autoplay.settled(channel_id)

    async def idle(self) -> None:
        """Wait until no table has a computer move due."""
        await self.autoplay.idle()

    async def close(self) -> None:
        """Stop scheduled work (changes being committed are let finish) and the thinkers."""
        for task in self._reloads:
            task.cancel()
        await self.autoplay.close()
        self.thinker.close()

    # -- lobby ---------------------------------------------------------------------------
    def check_new(
        self,
        guild_id: int,
        host_id: int,
        game: str,
        options: Mapping[str, object] | None = None,
        *,
        turn_timer: int = DEFAULT_TURN_TIMER,
    ) -> tuple[Game[Any], dict[str, Any]]:
        """Refuse a new table ``create`` would refuse for its game, options, timer or the
        host's open lobbies (before a thread is made for it); the game and its options."""
        try:
            g = games.get(game)
        except games.UnknownGame as exc:
            raise UnknownGameError(exc.args[0]) from None
        try:
            TableSettings(turn_timer=turn_timer)
        except ValidationError:
            raise BadOptions(
                lazy_gettext(
                    "The turn timer is a number of seconds from 0 (off) to 604800 (a week)."
                )
            ) from None
        try:
            opts = g.check_options(dict(options or {}))
        except ValueError as exc:
            raise BadOptions(exc.args[0]) from None
        lobby.require_room_for_a_lobby(self.store.tables(), guild_id, host_id)
        return g, opts

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
        practice: bool = False,
        link: Link | None = None,
    ) -> TableResult:
        """Open a lobby for ``game`` in the channel with the host in the first seat; a
        ``practice`` table gives hints and counts toward no rating (``hints``).
        ``link(conn, table_id)`` runs in the transaction that opens it."""
        g, opts = self.check_new(guild_id, host_id, game, options, turn_timer=turn_timer)
        if practice:
            hints.check_practice(league_id)
        async with self.store.locked(channel_id):
            if await self.store.find(channel_id) is not None:
                raise _already_open()
            seats: list[Occupant] = [lobby.human(host_id, host_name)]
            now, seed = self.clock.now(), self._new_seed()
            new = repo.NewTable(
                channel_id=channel_id, guild_id=guild_id, league_id=league_id, game=g.name,
                options=dump_options(opts), host_id=host_id, seed=seed, seats=dump_seats(seats),
                turn_timer=turn_timer, now=now, unrated=practice,
            )
            try:
                table_id = await self.store.insert_lobby(new, link)
            except Conflict:
                raise _already_open() from None
            t = Table(
                id=table_id, channel_id=channel_id, guild_id=guild_id, league_id=league_id,
                game=g, options=opts, host_id=host_id, status=TableStatus.LOBBY, seed=seed,
                version=0, seats=seats, state=None, deadline=None, reminded=False,
                turn_timer=turn_timer, created_at=now, started_at=None, unrated=practice,
            )
            self.store.keep(t)
            return project(t, lazy_gettext(
                "{name} opened a {game} table.",
                name=seats[0].name, game=Message(g.title),
            ))

    async def join(self, channel_id: int, user_id: int, name: str) -> TableResult:
        """Take the next free seat in the lobby."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            seating = lobby.join(t, user_id, name)
            await self._save_lobby(t, seating)
            return project(t, lazy_gettext("{name} joined.", name=seating.seats[-1].name))

    async def add_bot(
        self, channel_id: int, user_id: int, level: str = "normal", *, is_admin: bool = False
    ) -> TableResult:
        """Seat a computer player of ``level`` (anyone seated, or an admin)."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            seating = lobby.add_computer(t, user_id, level, is_admin)
            await self._save_lobby(t, seating)
            return project(t, lazy_gettext("{name} sat down.", name=seating.seats[-1].name))

    async def remove_bot(
        self, channel_id: int, user_id: int, name: str | None = None, *, is_admin: bool = False
    ) -> TableResult:
        """Remove the computer player called ``name`` (default: the last one seated)."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            seating, gone = lobby.remove_computer(t, user_id, name, is_admin)
            await self._save_lobby(t, seating)
            return project(t, lazy_gettext("{name} left.", name=gone.name))

    async def kick(
        self, channel_id: int, user_id: int, target_id: int, *, is_admin: bool = False
    ) -> TableResult:
        """Remove another player from the lobby (host or admin)."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            seating, gone = lobby.kick(t, user_id, target_id, is_admin)
            await self._save_lobby(t, seating)
            return project(t, lazy_gettext("{name} was removed from the table.", name=gone.name))

    async def leave(self, channel_id: int, user_id: int) -> TableResult:
        """Leave. In a lobby the host passes to the next player (or the table closes);
        in a running game a computer player takes the seat over."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            who = t.seats[s].name if (s := t.seat_of(user_id)) is not None else ""
            if t.status is TableStatus.LOBBY:
                seating = lobby.leave(t, user_id)
                if seating.closed:
                    await self._close(t, TableStatus.ABORTED)
                    return project(t, lazy_gettext("{who} left; the table is closed.", who=who))
                await self._save_lobby(t, seating)
                return project(t, lazy_gettext("{who} left.", who=who))
            seat, seating = lobby.take_over(t, user_id, await self._stand_in_for(t))
            if seating.closed:
                await self._close(t, TableStatus.ABORTED)
                return project(t, lazy_gettext("{who} left; the table is closed.", who=who))
            text, now = dump_seats(seating.seats), self.clock.now()
            host = seating.host_id
            await self.store.commit(
                t, lambda conn: repo.update_seats(conn, t.id, text, host, now)
            )
            t.seats, t.host_id = seating.seats, seating.host_id
        self.autoplay.poke(channel_id)
        return project(t, lazy_gettext(
            "{who} left; {name} plays on.",
            who=who, name=t.seats[seat].name,
        ))

    async def start(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> TableResult:
        """Seat the players in a random (seeded) order and deal."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            seats = lobby.seating_for_start(t, user_id, is_admin)
            state = t.game.new(len(seats), seed=t.seed, options=t.options)
            now = self.clock.now()
            deadline = turns.deadline(t.turn_timer, seats, state, now)
            snapshot = Snapshot.dump(t.game.name, 0, t.game.dumps(state))
            text = dump_seats(seats)
            await self.store.commit(
                t, lambda conn: repo.start(conn, t.id, text, snapshot, deadline, now)
            )
            t.seats, t.state, t.version = seats, state, 0
            t.deadline, t.reminded, t.started_at = deadline, False, now
            t.move_to(TableStatus.PLAYING)
        self.autoplay.poke(channel_id)
        return project(t, lazy_gettext("The {game} game has started.", game=Message(t.game.title)))

    # -- playing -------------------------------------------------------------------------
    async def act(
        self, channel_id: int, user_id: int, action: str, expected_version: int | None = None
    ) -> TableResult:
        """Play ``action`` for the user's seat (computer seats move afterwards, on their
        own schedule)."""
        async with self.store.locked(channel_id):
            t = await self.store.usable(channel_id)
            seat = turns.check_move(t, user_id, expected_version)
            canonical, new = turns.apply_move(t, seat, action)
            step = await self._commit_move(t, seat, canonical, new, user_id, "player")
        self.autoplay.poke(channel_id)
        return project(t, "", (step,))

    async def use_hint(self, channel_id: int, user_id: int) -> None:
        """Ask for a hint in the user's turn, as ``hints.check_hint`` rules (the one rule of
        every front end: practice tables only)."""
        await self._use_hint(channel_id, user_id)

    async def _use_hint(self, channel_id: int, user_id: int) -> tuple[Table, int]:
        t = await self.store.usable(channel_id)
        hints.check_hint(t)
        return t, turns.check_move(t, user_id, None)

    async def hint(self, channel_id: int, user_id: int) -> tuple[TableResult, Advice]:
        """The move ``expert`` would make for the user now, and why, after ``use_hint``.
        The search of the committed state runs in a worker, holding no lock."""
        t, seat = await self._use_hint(channel_id, user_id)
        assert t.state is not None
        result = project(t)
        advice = await self.thinker.advise(
            t.game, t.state, seat, rng_for(t.seed, "hint", t.version)
        )
        return result, advice

    async def abort(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> TableResult:
        """End the open table without a result (host or admin; also for quarantined ones)."""
        return await self._abort(
            channel_id,
            lambda t: lobby.require_host(t, user_id, is_admin, lazy_gettext("abort the table")),
            is_admin,
            lazy_gettext("The table was aborted."),
        )

    async def close_deleted(self, channel_id: int) -> TableResult:
        """The table's channel is gone: end its open table without a result."""
        return await self._abort(
            channel_id, lambda t: None, True, lazy_gettext(
                "The table's channel was deleted; it was closed."
            )
        )

    async def _abort(
        self, channel_id: int, check: Callable[[Table], None], is_admin: bool, note: Message
    ) -> TableResult:
        async with self.store.locked(channel_id):
            q = self.store.quarantined_in(channel_id)
            if q is not None:
                return await self._abort_quarantined(q, is_admin)
            t = await self.store.usable(channel_id)
            check(t)
            await self._close(t, TableStatus.ABORTED)
        self.autoplay.poke(channel_id)
        return project(t, note)

    async def rematch(
        self, channel_id: int, user_id: int, *, is_admin: bool = False, link: Link | None = None
    ) -> TableResult:
        """Start a new game with the same seats and options and a new seed.

        Any human who played the last finished game in the channel (or an admin) may ask;
        the seat order is kept. ``link(conn, table_id)`` runs in the transaction that
        opens it.
        """
        async with self.store.locked(channel_id):
            if await self.store.find(channel_id) is not None:
                raise _already_open()
            row = await self.db.read(repo.latest_in_channel, channel_id)
            if row is None or row.status != TableStatus.FINISHED:
                raise NothingToRematch(
                    lazy_gettext("There is no finished game here to play again.")
                )
            old = table_of(row)
            if old.host_id == lobby.MANAGED:
                raise NothingToRematch(lazy_gettext(
                    "An event's game has no rematch; the event goes on."
                ))
            if old.seat_of(user_id) is None and not is_admin:
                raise NotSeated(lazy_gettext(
                    "Only the players of the last game can start a rematch."
                ))
            t = await self._open_started(
                channel_id, old.guild_id, old.game, old.options, old.seats,
                host_id=old.host_id, seed=self._new_seed(), turn_timer=old.turn_timer,
                league_id=old.league_id, practice=old.unrated, link=link,
            )
        self.autoplay.poke(channel_id)
        return project(t, lazy_gettext(
            "Rematch! A new {game} game has started.",
            game=Message(t.game.title),
        ))

    async def open_seated(
        self, channel_id: int, guild_id: int, game: str, options: Mapping[str, object],
        players: Sequence[tuple[int | None, str]], *, seed: int, turn_timer: int,
        computer: str = lobby.STAND_IN_LEVEL, league_id: int | None = None,
        link: Link | None = None,
    ) -> TableResult:
        """Open a game already dealt, with ``players`` (user id, name; no id: a computer
        player of level ``computer``, named by its level) in this seat order and this seed
        — an event's table. Nobody hosts it (``lobby.MANAGED``): only an admin can abort it,
        and it has no rematch. ``link(conn, table_id)`` runs in the transaction that opens
        it."""
        g, opts = self.check_new(guild_id, lobby.MANAGED, game, options, turn_timer=turn_timer)
        seats: list[Occupant] = [
            lobby.human(user, name) if user is not None else Computer(bot=computer)
            for user, name in players
        ]
        async with self.store.locked(channel_id):
            if await self.store.find(channel_id) is not None:
                raise _already_open()
            t = await self._open_started(
                channel_id, guild_id, g, opts, seats, host_id=lobby.MANAGED, seed=seed,
                turn_timer=turn_timer, league_id=league_id, link=link,
            )
        self.autoplay.poke(channel_id)
        return project(t, lazy_gettext("The {game} game has started.", game=Message(g.title)))

    async def _open_started(
        self, channel_id: int, guild_id: int, g: Game[Any], options: dict[str, Any],
        seats: list[Occupant], *, host_id: int, seed: int, turn_timer: int,
        league_id: int | None, link: Link | None = None, practice: bool = False,
    ) -> Table:
        """Insert a table and deal it in one transaction (the channel's lock is held)."""
        now = self.clock.now()
        state = g.new(len(seats), seed=seed, options=options)
        deadline = turns.deadline(turn_timer, seats, state, now)
        new = repo.NewTable(
            channel_id=channel_id, guild_id=guild_id, league_id=league_id, game=g.name,
            options=dump_options(options), host_id=host_id, seed=seed, seats=dump_seats(seats),
            turn_timer=turn_timer, now=now, unrated=practice,
        )
        snapshot = Snapshot.dump(g.name, 0, g.dumps(state))

        def open_and_start(conn: Conn) -> int:
            table_id = repo.insert(conn, new)
            repo.start(conn, table_id, new.seats, snapshot, deadline, now)
            if link is not None:
                link(conn, table_id)
            return table_id

        try:
            table_id = await self.db.write(open_and_start)
        except Conflict:
            raise _already_open() from None
        t = Table(
            id=table_id, channel_id=channel_id, guild_id=guild_id, league_id=league_id,
            game=g, options=options, host_id=host_id, status=TableStatus.PLAYING, seed=seed,
            version=0, seats=seats, state=state, deadline=deadline, reminded=False,
            turn_timer=turn_timer, created_at=now, started_at=now, unrated=practice,
        )
        self.store.keep(t)
        return t

    async def status(self, channel_id: int) -> TableResult:
        """The channel's open table, or else its most recent (finished or aborted) one.

        Answered from the last committed state without waiting for any lock."""
        found = await self.store.find(channel_id)
        if isinstance(found, QuarantinedTable):
            raise quarantined()
        if found is not None:
            return project(found)
        row = await self.db.read(repo.latest_in_channel, channel_id)
        if row is None:
            raise no_table()
        try:
            t = table_of(row)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return project_row(row, lazy_gettext("This table's saved game could not be read."))
        if t.status is TableStatus.FINISHED:
            t.match_id = await self.db.read(match_of_table, t.id)
        return project(t)

    # -- what runs on its own ------------------------------------------------------------
    def _plan(self, channel_id: int) -> Due | None:
        t = self.store.cached(channel_id)
        return turns.next_due(t, self.clock.now()) if t is not None else None

    async def _think(self, channel_id: int, due: Due) -> str | None:
        """The computer seat's move for the table as it is at ``due.version`` (a search
        runs in a worker process, so the loop answers everyone else meanwhile)."""
        t = self.store.cached(channel_id)
        if t is None or t.version != due.version or t.state is None:
            return None
        occupant = t.seats[due.seat]
        level = occupant.bot if isinstance(occupant, Computer) else await self._stand_in_for(t)
        rng = rng_for(t.seed, "bot", t.version)
        return await self.thinker.choose(t.game, t.state, due.seat, level, rng)

    async def _fire(self, channel_id: int, due: Due, action: str | None) -> None:
        """Do ``due`` if it still is: one change under the lock, one transaction; then tell
        the listeners. A table changed by another process is reloaded and planned again."""
        event: TableResult | Reminder | None = None
        async with self.store.locked(channel_id):
            t = self.store.cached(channel_id)
            now = self.clock.now()
            if t is None or turns.next_due(t, now) != due or now < due.when:
                return
            assert t.state is not None
            try:
                if due.kind is DueKind.REMIND:
                    version = t.version
                    await self.store.commit(
                        t, lambda conn: repo.set_reminded(conn, t.id, version)
                    )
                    t.reminded = True
                    event = reminder(t)
                else:
                    by: By = "computer" if due.kind is DueKind.COMPUTER else "timeout"
                    move, new = self._computer_move(t, due.seat, action)
                    step = await self._commit_move(t, due.seat, move, new, None, by)
                    note = (
                        lazy_gettext(
                            "{name} ran out of time; the computer played for them.",
                            name=t.seats[due.seat].name,
                        )
                        if by == "timeout" else ""
                    )
                    event = project(t, note, (step,))
            except TableBusy:  # changed by another process: reload, then plan afresh
                await self.store.find(channel_id)
                return
        await self._notify(event)

    async def _stand_in_for(self, t: Table) -> str:
        """The computer level the table's server chose to play for absent players."""
        level = await self._stand_in(t.guild_id)
        return level if level in t.game.levels else lobby.stand_in_level(t)

    def _computer_move(self, t: Table, seat: int, action: str | None) -> tuple[str, State]:
        """The move thought of (or, for a failed thought, the default stand-in's: quick on
        the loop), applied; a move the engine refuses is replaced by a random legal one
        (logged)."""
        assert t.state is not None
        rng = rng_for(t.seed, "bot", t.version)
        if action is None:
            action = t.game.choose(t.state, seat, lobby.stand_in_level(t), rng)
        try:
            return action, t.game.apply(t.state, seat, action)
        except IllegalAction:
            # Neither the move nor the refusal is logged: either may name a card of its hand.
            log.error("table %s: seat %s: the engine refused a computer move", t.id, seat)
            fallback = random.Random(t.version).choice(t.game.legal_actions(t.state, seat))
            return fallback, t.game.apply(t.state, seat, fallback)

    async def _notify(self, event: TableResult | Reminder | None) -> None:
        if event is None:
            return
        for listener in self._listeners:
            try:
                await listener(event)
            except Exception:
                log.exception("a listener failed on table %s", event.table_id)

    # -- commits -------------------------------------------------------------------------
    async def _save_lobby(self, t: Table, seating: lobby.Seating) -> None:
        text, now, host = dump_seats(seating.seats), self.clock.now(), seating.host_id
        await self.store.commit(t, lambda conn: repo.update_lobby(conn, t.id, text, host, now))
        t.seats, t.host_id = seating.seats, seating.host_id

    async def _close(self, t: Table, status: TableStatus) -> None:
        now = self.clock.now()
        await self.store.commit(t, lambda conn: repo.close(conn, t.id, status, now))
        t.deadline = None
        t.move_to(status)
        self.store.keep(t)

    async def _abort_quarantined(self, q: QuarantinedTable, is_admin: bool) -> TableResult:
        if not is_admin:
            raise NotAllowed(lazy_gettext(
                "Only an admin can abort a table whose saved game is unreadable."
            ))
        now = self.clock.now()
        await self.db.write(repo.close, q.table_id, TableStatus.ABORTED, now)
        self.store.release_quarantine(q.channel_id)
        row = await self.db.read(repo.get, q.table_id)
        assert row is not None
        return project_row(row, lazy_gettext("The unreadable table was aborted."))

    async def _commit_move(
        self, t: Table, seat: int, action: str, new: State, by_user: int | None, by: By
    ) -> Step:
        """Persist one move (and the match, with every recorder, if it ends the game) in
        one transaction; then update the cached table (with the match's id).

        Everything (snapshot JSON included) is computed before the write is queued, so the
        work on the writer's thread is just the statements.
        """
        g, version, table_id, now = t.game, t.version + 1, t.id, self.clock.now()
        deadline = turns.deadline(t.turn_timer, t.seats, new, now)
        snapshot = Snapshot.dump(g.name, version, g.dumps(new))
        match = turns.match_record(t, new, now) if new.is_over else None
        recorders = tuple(self._recorders)

        def persist(conn: Conn) -> int | None:
            """The move's row; the match's id when it ended the game."""
            repo.record_action(
                conn, table_id, version=version, seat=seat, action=action, by_user=by_user,
                timed_out=by == "timeout", snapshot=snapshot, deadline=deadline,
                finished=match is not None, now=now,
            )
            if match is None:
                return None
            match_id = insert_match(conn, match)
            for recorder in recorders:
                recorder(conn, match_id, match)
            return match_id

        match_id = await self.store.commit(t, persist)
        t.state, t.version, t.deadline, t.reminded = new, version, deadline, False
        if new.is_over:
            t.match_id = match_id if isinstance(match_id, int) else None
            t.move_to(TableStatus.FINISHED)
            self.store.keep(t)
            for listener in self._finish_listeners:
                listener(t.id)
        return Step(version, seat, t.seats[seat].name, by, tuple(new.events))


def _already_open() -> TableAlreadyOpen:
    return TableAlreadyOpen(lazy_gettext(
        "There is already a table here; join it, or open one elsewhere."
    ))
