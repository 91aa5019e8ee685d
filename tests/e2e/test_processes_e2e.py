"""Two real bot processes (``tests.e2e.bot_process``: ``deckhand run``) on one PostgreSQL
database and one fake Discord with four shards: process A runs shards 0 and 1, process B
shards 2 and 3. Hands are played from DMs, which Discord delivers on shard 0 — so every
hand move at a table of B's guild is received and committed by A, and B (the owner) must
hear of it at once to play its computers' answers. B is killed with SIGKILL mid-game and
started again: no acknowledged move is lost and the game goes on, buttons included."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.leagues import LeagueService
from bot.services.tables import TableStatus
from bot.services.tables.records import Table, table_of
from storage import tables as repo
from storage.connect import open_database
from storage.db import Database
from tests.e2e.driver import Person
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_state import Channel, Guild, Message
from tests.e2e.play import WINDOW_SCALE, click_move
from tests.waiting import DEADLINE, until

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 4
PROCESSES = {"A": (0, 1), "B": (2, 3)}


class BotProcess:
    """One ``deckhand run`` subprocess on the fake; ``kill`` is SIGKILL. Without
    ``sharded``, process A alone runs the whole bot (any database)."""

    def __init__(
        self, fake: FakeDiscord, db_url: str, name: str, log_dir: Path, *, sharded: bool = True
    ) -> None:
        self.fake, self.name = fake, name
        self.shards = PROCESSES[name] if sharded else (0,)
        self.log = log_dir / f"bot-{name}.log"
        shards = {
            "DECKHAND_SHARD_COUNT": str(SHARDS),
            "DECKHAND_SHARD_IDS": ",".join(map(str, self.shards)),
        }
        self.env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DECKHAND_DB": db_url,
            **(shards if sharded else {}),
            "DECKHAND_DEV_GUILD": "",
            "DECKHAND_SYNC_COMMANDS": "1" if name == "A" else "0",
            "DECKHAND_BOT_MOVE_DELAY": "0.05",
            # B's tables (its guild's) get a short turn timer, to see it fire after a restart.
            "DECKHAND_TURN_TIMER": "6" if name == "B" else "0",
            "DECKHAND_USER_RATE": "1000",
            "DECKHAND_TEST_SEED": "1000" if name == "A" else "2000",
            "DECKHAND_TEST_API": fake.base_url,
            "DECKHAND_TEST_GATEWAY": fake.gateway_url,
        }
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log.open("ab") as log:
            proc = self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.bot_process",
                cwd=ROOT, env=self.env, stdout=log, stderr=log,
            )
        started = time.monotonic()

        def ready() -> bool:
            assert proc.returncode is None, f"bot {self.name} exited:\n{self.tail()}"
            return self.ready(started)

        await until(ready, f"bot {self.name} to get ready (its log: {self.log})")
        await self.fake.settle()

    def ready(self, since: float) -> bool:
        """Every shard of this process identified, and (for A) the commands are synced."""
        fresh = {
            s.shard[0]
            for s in self.fake.gateway.sessions.values()
            if s.connected and s.valid and s.shard[0] in self.shards and s.seq > 0
        }
        synced = self.name != "A" or bool(self.fake.commands_for(None))
        return fresh == set(self.shards) and synced and time.monotonic() - since > 1.0

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


def guild_on(
    fake: FakeDiscord, shards: tuple[int, ...], name: str, channels: tuple[str, ...]
) -> Guild:
    """A new guild whose shard is one of ``shards`` (ids follow the clock's milliseconds)."""
    while True:
        guild = fake.add_guild(name, channels=channels)
        if (guild.id >> 22) % SHARDS in shards:
            return guild
        fake.guilds.remove(guild)
        time.sleep(0.002)


def hand(person: Person, channel: Channel) -> Message:
    """``person``'s hand DM for the table in ``channel``."""
    hands = [
        m for m in person.dm_messages()
        if "your hand" in m.content and f"<#{channel.id}>" in m.content
    ]
    assert hands, [m.content[:60] for m in person.dm_messages()]
    return hands[-1]


def table_message(channel: Channel) -> Message:
    tables = [m for m in channel.messages() if m.rich and " — table " in m.text]
    assert tables, [m.text[:60] for m in channel.messages()]
    return tables[-1]


class Tables:
    """The committed tables, read from the database as a third process would: whose turn
    it is, and what the ``normal`` computer would play for a seat."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.rng = random.Random(5)

    async def table(self, channel: Channel) -> Table | None:
        row = await self.db.read(repo.latest_in_channel, channel.id)
        return table_of(row) if row is not None else None

    async def human_moves(self, channel: Channel) -> int:
        table = await self.table(channel)
        assert table is not None
        actions = await self.db.read(repo.actions, table.id)
        return sum(a.by_user is not None for a in actions)

    async def next_move(self, channel: Channel, people: list[Person]) -> tuple[Person, str] | None:
        """Who of ``people`` is to move at the channel's table, and the move (None if a
        computer is to move, or the game is over)."""
        table = await self.table(channel)
        if table is None or table.state is None or table.status is not TableStatus.PLAYING:
            return None
        for person in people:
            seat = table.seat_of(person.id)
            if seat is not None and seat in table.state.to_act:
                view = table.game.view(table.state, seat)
                legal = table.game.legal_actions(table.state, seat)
                return person, table.game.bot("normal")(view, legal, self.rng)
        return None


async def move_once(
    tables: Tables, channel: Channel, people: list[Person], timeout: float = DEADLINE
) -> bool:
    """The person to move at ``channel``'s table makes the normal computer's move from
    their hand DM, once it shows the move; False if nobody was to move before ``timeout``
    (computers thinking, or the game over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await tables.next_move(channel, people)
        if found is not None:
            person, action = found
            try:
                answer = await click_move(person, hand(person, channel), action)
            except AssertionError:  # the DM does not show this turn's moves yet
                await asyncio.sleep(0.05)
                continue
            # Refused only when the table moved meanwhile (a computer, a turn timer): by
            # version ("earlier turn"), or by the row another process changed first.
            assert not answer.ephemeral or any(
                why in answer.text for why in ("earlier turn", "changed elsewhere")
            ), answer.text
            return not answer.ephemeral
        await asyncio.sleep(0.05)
    return False


async def until_offered(tables: Tables, channel: Channel, people: list[Person]) -> None:
    """Wait until one of ``people`` is to move (the computers have answered)."""

    async def offered() -> bool:
        return await tables.next_move(channel, people) is not None

    await until(offered, f"a move offered in #{channel.name}")


async def until_timed_out(tables: Tables, channel: Channel, person: Person) -> None:
    """Wait until the turn timer moves for ``person`` (who does nothing meanwhile)."""
    table = await tables.table(channel)
    assert table is not None
    seat, version = table.seat_of(person.id), table.version

    async def timed_out() -> bool:
        actions = await tables.db.read(repo.actions, table.id)
        return any(a.version > version and a.seat == seat and a.timed_out for a in actions)

    await until(timed_out, f"the turn timer to move for {person.name}")


@pytest.fixture
async def cluster(
    fake_discord: FakeDiscord, pg_url: str, tmp_path: Path
) -> AsyncIterator[dict[str, BotProcess]]:
    """Processes A and B on the fake (started by the test, once its guilds exist)."""
    fake_discord.shards = SHARDS
    fake_discord.settle_time = 0.1
    fake_discord.limits.window_scale = WINDOW_SCALE
    fake_discord.callback_deadline = 3.0
    bots = {name: BotProcess(fake_discord, pg_url, name, tmp_path) for name in PROCESSES}
    try:
        yield bots
    finally:
        for bot in bots.values():
            await bot.stop()


async def open_table(
    host: Person, others: list[Person], channel: Channel, game: str, options: str,
    computers: int,
) -> Message:
    opened = await host.slash("table new", channel=channel, game=game, options=options)
    table = opened.response
    assert table is not None and not opened.ephemeral, opened.text
    for person in others:
        await person.click(table, "Join")
    for _ in range(computers):
        await host.click(table, "Add computer")
    started = await host.click(table, "Start")
    assert not started.ephemeral, started.text
    return table


@pytest.mark.slow
async def test_two_processes_play_and_survive_a_kill(
    fake_discord: FakeDiscord, cluster: dict[str, BotProcess], pg_url: str
) -> None:
    fake = fake_discord
    alpha = guild_on(fake, PROCESSES["A"], "Alpha", ("spades", "ono99"))
    bravo = guild_on(fake, PROCESSES["B"], "Bravo", ("gin", "back-alley", "craits"))
    for bot in cluster.values():
        await bot.start()
    ann, ben = (fake.member(n, guild=alpha) for n in ("ann", "ben"))
    cat = fake.member("cat", guild=bravo)
    db = await open_database(pg_url)
    tables = Tables(db)
    try:
        # In B's guild: cat against a computer. Her DM moves are received by A (shard 0);
        # B runs the computer and must hear of each move at once.
        gin = bravo.channel("gin")
        await open_table(cat, [], gin, "gin_rummy", "target=50", computers=1)
        acknowledged = 0
        for _ in range(6):
            acknowledged += await move_once(tables, gin, [cat])
        await until_offered(tables, gin, [cat])
        assert await tables.human_moves(gin) == acknowledged

        # B dies without warning; a DM move still lands (A takes it), then B comes back
        # and answers it, and the table's buttons work again.
        await cluster["B"].kill()
        acknowledged += await move_once(tables, gin, [cat])
        assert await tables.human_moves(gin) == acknowledged
        await cluster["B"].start()
        shown = await cat.click(table_message(gin), "Your hand")
        assert shown.ephemeral and "your hand" in shown.text.lower(), shown.text
        # Timers run again: cat waits, and the stand-in computer moves for her in time.
        await until_offered(tables, gin, [cat])
        await until_timed_out(tables, gin, cat)

        games = [
            (gin, [cat], "gin_rummy"),
            (bravo.channel("back-alley"), [cat], "back_alley"),
            (bravo.channel("craits"), [cat], "craits"),
            (alpha.channel("spades"), [ann, ben], "spades"),
            (alpha.channel("ono99"), [ann, ben], "ono99"),
        ]
        await open_table(cat, [], games[1][0], "back_alley", "deals=2", computers=3)
        await open_table(cat, [], games[2][0], "craits", "short=on", computers=2)
        await open_table(ann, [ben], games[3][0], "spades", "target=50", computers=0)
        await open_table(ann, [ben], games[4][0], "ono99", "", computers=0)
        playing = list(games)
        moves = {game: 0 for _, _, game in games}
        for _ in range(3000):
            for entry in list(playing):
                channel, people, _ = entry
                table = await tables.table(channel)
                assert table is not None
                if table.status is not TableStatus.PLAYING:
                    playing.remove(entry)
                    continue
                moved = await move_once(tables, channel, people, timeout=0.2)
                moves[entry[2]] += moved
                if channel is gin and moved:
                    acknowledged += 1
            if not playing:
                break
        assert not playing, [game for _, _, game in playing]
        assert all(moves.values()), moves  # every game was played by its people to the end
        assert await tables.human_moves(gin) == acknowledged
        leagues = LeagueService(db)
        for channel, people, game in games:
            table = await tables.table(channel)
            assert table is not None and table.status is TableStatus.FINISHED, game
            standings = await people[0].slash("league standings", channel=channel, game=game)
            assert people[0].name.capitalize() in standings.text, standings.text
        # The totals both processes kept as games ended equal a rebuild from the matches.
        for guild in (alpha, bravo):
            kept = {g: await leagues.standings(guild.id, game=g) for _, _, g in games}
            await leagues.rebuild(guild.id, is_admin=True)
            assert kept == {g: await leagues.standings(guild.id, game=g) for _, _, g in games}
    finally:
        await db.close()
