"""Events played at real tables: the table, league and event services on one database,
wired as the bot wires them (the league recorder, then the event recorder, in every
finishing transaction), with each event table opened as the Discord desk opens it."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from bot.services.events.service import EventService
from bot.services.leagues import LeagueService
from bot.services.tables import TableResult, TableService
from storage.db import Conn, Database
from storage.events import EventRow, TableRow
from storage.leagues import League
from tests.web.world import play

GUILD = 4_400_001
ADMIN = 4_400_099
NOW = 1_700_000_000.0


def key(t: TableRow) -> tuple[int, int, int]:
    return t.round, t.table_no, t.board


class Night:
    """Services of one database, and where each event table is played."""

    def __init__(self, db: Database, new_secret: Callable[[], bytes] = lambda: bytes(16)) -> None:
        seeds = itertools.count(1)
        self.db = db
        self.tables = TableService(db, new_seed=lambda: next(seeds))
        self.leagues = LeagueService(db, clock=lambda: NOW)
        self.events = EventService(db, clock=lambda: NOW, new_secret=new_secret)
        self.tables.add_match_recorder(self.leagues.record_match)
        self.tables.add_match_recorder(self.events.record_match)
        self.rng = random.Random(9)

    async def event(
        self, players: Sequence[int], *, format: str = "duplicate", rounds: int = 1,
        boards: int = 1, league_id: int | None = None, game: str = "gin_rummy",
        before_start: Callable[[Conn, int], None] | None = None,
    ) -> EventRow:
        """An event with these players signed up (``before_start(conn, event_id)`` runs
        then), started."""
        event = await self.events.create(
            GUILD, 900, ADMIN, is_admin=True, name="Night", game=game, format=format,
            rounds=rounds, boards=boards, options={"target": 10}, league_id=league_id,
        )
        for user in players:
            await self.events.join(GUILD, event.id, user, f"P{user % 1000}")
        if before_start is not None:
            await self.db.write(before_start, event.id)
        await self.events.start(GUILD, event.id, ADMIN, is_admin=True)
        return await self.events.event(GUILD, event.id)

    @staticmethod
    def channel(t: TableRow) -> int:
        """Where a table plays its boards (one thread per table, as in Discord)."""
        return 70_000 + 100 * t.round + t.table_no

    async def open_due(self, event_id: int) -> dict[int, TableResult]:
        """Open the first unplayed board of each table of the round whose thread has no
        game open; the opened games by channel."""
        event, players, tables = await self.events.round_tables(event_id)
        opened = {}
        for no in sorted({t.table_no for t in tables if t.round == event.round}):
            group = [t for t in tables if (t.round, t.table_no) == (event.round, no)]
            board = next((t for t in group if t.scores is None and t.side_b is not None), None)
            if board is None or (board.table_id is not None and await self._open(board)):
                continue
            opened[self.channel(board)] = await self.tables.open_seated(
                self.channel(board), GUILD, event.game, event.options,
                self.events.seating(board, players), seed=board.seed, turn_timer=0,
                league_id=event.league_id, link=self.events.linker(event.id, key(board)),
            )
        return opened

    async def _open(self, board: TableRow) -> bool:
        now = await self.tables.status(self.channel(board))
        return now.table_id == board.table_id and now.status == "playing"

    async def finish(self, channel: int) -> TableResult:
        """Play the channel's game to its end (each human as the normal computer would)."""
        await play(self.tables, channel, self.rng, 100_000)
        return await self.tables.status(channel)

    async def close(self) -> None:
        await self.tables.close()


@asynccontextmanager
async def club_night(
    db: Database, new_secret: Callable[[], bytes] = lambda: bytes(16)
) -> AsyncIterator[tuple[Night, League]]:
    """A ``Night`` and its guild's league "Club"; the tables are closed after."""
    night = Night(db, new_secret)
    try:
        yield night, await night.leagues.create_league(GUILD, "Club", is_admin=True)
    finally:
        await night.close()
