"""An event's Discord side, kept up to date with the database: its tables in threads, its
announcements and its sign-up message.

The rules (pairing, results, standings) are ``bot.services.events``'; the ``/event``
commands and buttons are ``bot.ui.events``'. Decisions:

* Each table of a round is a table-service game (``TableService.open_seated``: the
  event's seat order and board seed, nobody hosts it) in a thread of the event's channel:
  public for Swiss and round robin (anyone may watch), **private** for duplicate, with
  the table's players added — every table plays the same cards, so nobody may watch a
  board at one table while it is still to be played at another. A duplicate table plays
  its boards one after another in the same thread. The
  game's match records the table's result in the same transaction (``EventService
  .record_match``), and pairs the next round when it was the round's last table.
* ``sync`` brings an event's Discord side up to date with the database: it opens every
  table that is due and not open (a new round, a table's next board, a table whose game
  was aborted by an admin or whose thread was deleted — it is dealt again, same cards),
  announces a round once in the event's channel (mentioning its players) and posts the
  final standings once. It runs after every finished game, at start-up, and after
  ``/event start``; one event syncs at a time (``locked``), so nothing opens twice.
* The sign-up message is edited once per change of status, round or number signed up.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.render.events import round_announcement, signup_message, standings_text
from bot.services.errors import ServiceError, TableAlreadyOpen
from bot.services.events.rounds import entrant_players
from bot.services.events.service import COMPUTER, EventService
from bot.services.tables import TableResult, TableService, TableStatus
from bot.text import cut
from bot.ui.answers import update
from bot.ui.publish import Answered, Publisher
from bot.ui.views import edit_kwargs
from i18n import _, number, speaking
from storage.db import StorageUnavailable
from storage.events import EntrantRow, EventRow, TableRow

log = logging.getLogger(__name__)

#: How long a closing bot lets event syncs under way finish (seconds).
CLOSE_WAIT = 10.0


class NoEventChannel(ServiceError):
    """The event's channel is gone or not a text channel."""


def _key(t: TableRow) -> tuple[int, int, int]:
    return t.round, t.table_no, t.board


class EventTables:
    """Every event's tables, announcements and sign-up message, for this process's guilds."""

    def __init__(
        self, client: discord.Client, events: EventService, tables: TableService,
        publisher: Publisher, *, turn_timer: int, owns: Callable[[int], bool],
    ) -> None:
        self.client, self.events, self.tables = client, events, tables
        self.publisher = publisher
        self.turn_timer = turn_timer
        self.owns = owns
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()
        self._posted: set[int] = set()  # tables whose message this process posted
        #: (event, status, round, sign-ups) each event's message was shown with, here.
        self._shown: set[tuple[int, str, int, int]] = set()

    @asynccontextmanager
    async def locked(self, event_id: int) -> AsyncIterator[None]:
        """Hold the event: no sync of it runs meanwhile."""
        async with self._locks[event_id]:
            yield

    async def refresh(
        self, event_id: int, via: discord.Interaction | None = None
    ) -> None:
        """Edit the event's sign-up message to what the event is now — through ``via``, a
        click on it, else with the bot's own token — once per change of status, round or
        number signed up. A message that is gone or cannot be edited is left alone."""
        event, players, _ = await self.events.round_tables(event_id)
        shown = (event.id, event.status, event.round, len(players))
        if shown in self._shown:
            return
        with speaking(await self.language(event.guild_id)):
            spec = signup_message(event, players)
        try:
            if via is not None:
                await update(via, spec)
            elif event.message_id is not None:
                channel = await self._channel(event)
                await channel.get_partial_message(event.message_id).edit(**edit_kwargs(spec))
        except (discord.HTTPException, NoEventChannel) as exc:
            log.info("event %s: its message was not updated: %s", event.id, exc)
            return
        self._shown.add(shown)

    # -- keeping the tables going ----------------------------------------------------------
    def finished(self, table_id: int) -> None:
        """A game finished: sync its event, if it is an event's (in the background)."""
        self._spawn(self._sync_table(table_id))

    async def _sync_table(self, table_id: int) -> None:
        try:
            event_id = await self.events.event_of_table(table_id)
        except StorageUnavailable as exc:
            log.warning("events: could not look table %s up: %s", table_id, exc)
            return
        if event_id is not None:
            await self.sync(event_id)

    def resume(self) -> None:
        """Start-up: sync every unsettled event of this process's guilds (background)."""
        self._spawn(self._resume())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resume(self) -> None:
        try:
            unsettled = await self.events.unsettled()
        except StorageUnavailable as exc:
            log.warning("events: could not read them to sync: %s", exc)
            return
        for event in unsettled:
            if self.owns(event.guild_id):
                await self.sync(event.id)

    async def close(self) -> None:
        """Let syncs under way finish (a few seconds at most), then stop what is left."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=CLOSE_WAIT)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def sync(self, event_id: int) -> None:
        """Open what is due, announce what is new (see the module docstring); a failure is
        logged (the next finished game or start-up tries again)."""
        async with self._locks[event_id]:
            try:
                await self._sync(event_id)
            except (discord.HTTPException, ServiceError, StorageUnavailable) as exc:
                log.warning("event %s: could not bring its tables up to date: %s", event_id, exc)

    async def _sync(self, event_id: int) -> None:
        await self._open_and_announce(event_id)
        await self.refresh(event_id)

    async def language(self, guild_id: int) -> str:
        """An event's messages, threads and announcements speak its server's language."""
        return (await self.publisher.preferences.server(guild_id)).language

    async def _open_and_announce(self, event_id: int) -> None:
        event, players, tables = await self.events.round_tables(event_id)
        with speaking(await self.language(event.guild_id)):
            await self._announce(event, players, tables)

    async def _announce(
        self, event: EventRow, players: list[EntrantRow], tables: list[TableRow]
    ) -> None:
        event_id = event.id
        if event.status == "running":
            for group in _due(event, tables):
                await self._open(event, group)
            event, players, tables = await self.events.round_tables(event_id)
            if event.announced < event.round:
                await self._post(event, round_announcement(
                    event, tables, entrant_players(players),
                    {p.user_id: p.name for p in players},
                ), mention=True)
                await self.events.announced(event.id, event.round)
        elif event.status == "finished" and event.announced <= event.rounds:
            st = await self.events.standings(event.guild_id, event.id)
            names = {p.user_id: p.name for p in players}
            text = _("The event is over.") + "\n" + standings_text(
                st, tables, entrant_players(players), names
            )
            await self._post(event, cut(text, 2000), mention=False)
            await self.events.announced(event.id, event.rounds + 1)

    async def _open(self, event: EventRow, group: list[TableRow]) -> None:
        """Open the first unplayed board of one table of the round (its game in its thread),
        or post the table message of one already open that was never shown (the process
        stopped in between)."""
        board = next(t for t in group if t.scores is None)
        result = await self._open_game(board)
        if result is not None and (
            result.table_id in self._posted
            or await self.publisher.table.message_id(result.table_id) is not None
        ):
            return
        thread = await self._thread(event, group)
        if result is None:
            try:
                result = await self._deal(event, board, thread)
            except TableAlreadyOpen:  # someone opened a game of their own in the thread
                thread = await self._thread(event, group, fresh=True)
                result = await self._deal(event, board, thread)
        spec = await self.publisher.table.spec(result)
        if await self.publisher.table.post(result, spec):
            self._posted.add(result.table_id)  # its stored reference is written in a moment
            await self.publisher.publish(result, Answered(table=True))

    async def _deal(self, event: EventRow, board: TableRow, thread: discord.Thread) -> TableResult:
        """Open the board's game in the thread, seated and dealt as the event says."""
        players = await self.events.entrants(event.id)
        return await self.tables.open_seated(
            thread.id, event.guild_id, event.game, event.options,
            self.events.seating(board, players),
            seed=board.seed, turn_timer=self.turn_timer,
            computer=event.computer or "normal", league_id=event.league_id,
            link=self.events.linker(event.id, _key(board)),
        )

    async def _open_game(self, board: TableRow) -> TableResult | None:
        """The board's game if it is still being played in its thread (else None: it
        was never opened, or an admin aborted it, or its thread is gone)."""
        if board.table_id is None or board.channel_id is None:
            return None
        try:
            now = await self.tables.status(board.channel_id)
        except ServiceError:
            return None
        live = now.status in (TableStatus.LOBBY, TableStatus.PLAYING)
        return now if live and now.table_id == board.table_id else None

    async def _thread(
        self, event: EventRow, group: list[TableRow], *, fresh: bool = False
    ) -> discord.Thread:
        """The table's thread: the one its earlier boards used (unless ``fresh``), or a new
        one (public, or private to the table's players for duplicate)."""
        for t in group if not fresh else ():
            if t.channel_id is None:
                continue
            try:
                found = self.client.get_channel(t.channel_id) or await self.client.fetch_channel(
                    t.channel_id
                )
            except (discord.NotFound, discord.Forbidden):
                break
            if isinstance(found, discord.Thread):
                return found
            break
        parent = await self._channel(event)
        first = group[0]
        name = _("{event} · round {round} · table {table}", event=event.name,
                 round=number(first.round), table=number(first.table_no))[:100]
        if event.format == "duplicate":
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.private_thread, invitable=False,
                auto_archive_duration=1440,
            )
            for user in dict.fromkeys(first.seats):
                if user != COMPUTER:
                    await thread.add_user(discord.Object(user))
        else:
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440,
            )
        for t in group:
            await self.events.set_channel(event.id, _key(t), thread.id)
        return thread

    async def _channel(self, event: EventRow) -> discord.TextChannel:
        try:
            found = self.client.get_channel(event.channel_id) or await self.client.fetch_channel(
                event.channel_id
            )
        except (discord.NotFound, discord.Forbidden):
            found = None
        if not isinstance(found, discord.TextChannel):
            raise NoEventChannel(f"the channel of event {event.id} is gone")
        return found

    async def _post(self, event: EventRow, text: str, *, mention: bool) -> None:
        channel = await self._channel(event)
        await channel.send(
            text, allowed_mentions=discord.AllowedMentions(users=mention, roles=False,
                                                           everyone=False),
        )


def _due(event: EventRow, tables: list[TableRow]) -> list[list[TableRow]]:
    """The current round's tables (each a list of its boards) with a board left to play."""
    groups: defaultdict[int, list[TableRow]] = defaultdict(list)
    for t in tables:
        if t.round == event.round and t.side_b is not None:
            groups[t.table_no].append(t)
    return [g for _, g in sorted(groups.items()) if any(t.scores is None for t in g)]
