"""Fixtures: a running fake Discord, and a runner that starts any discord.py client on it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import discord
import pytest

from tests.e2e.fake_discord import FakeDiscord

ClientFactory = Callable[[], discord.Client]


class BotRunner:
    """Starts clients built by a factory (e.g. ``lambda: bot.create_bot(settings)``)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.running: dict[discord.Client, asyncio.Task[None]] = {}

    async def start(self, factory: ClientFactory, *, timeout: float = 10.0) -> discord.Client:
        """Build a client, log it in with the fake's token and wait for ``on_ready``
        (factories pass a small ``guild_ready_timeout``: discord.py waits that long after
        the last GUILD_CREATE before it is ready)."""
        client = factory()
        task = asyncio.create_task(client.start(self.fake.token))
        self.running[client] = task
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            await self.stop(client)
            if task in done and (error := task.exception()) is not None:
                raise error
            raise AssertionError(f"the client was not ready within {timeout} s")
        await self.fake.settle()
        return client

    async def stop(self, client: discord.Client) -> None:
        """Close the client and wait for its task to end."""
        await client.close()
        task = self.running.pop(client)
        with contextlib.suppress(asyncio.CancelledError, discord.DiscordException):
            await asyncio.wait_for(task, 10)

    async def stop_all(self) -> None:
        for client in list(self.running):
            await self.stop(client)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on 127.0.0.1; discord.py's URLs point at it until the test ends."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def bot_runner(fake_discord: FakeDiscord) -> AsyncIterator[BotRunner]:
    """``client = await bot_runner.start(factory)``; every client is closed at the end."""
    runner = BotRunner(fake_discord)
    try:
        yield runner
    finally:
        await runner.stop_all()
