"""The coalescer keeps one edit in flight per key and lets the latest state win; settings
parse the sharding keys."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from pydantic import ValidationError

from bot.discord_io import Coalescer
from bot.settings import Settings


def unfiled(**values: Any) -> Settings:
    """Settings from the environment and ``values``, never from a ``.env`` file."""
    # pydantic types __init__ with the fields only, not BaseSettings' own _env_file:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def test_bursts_are_coalesced_and_the_latest_wins() -> None:
    edits = Coalescer()
    done: list[int] = []
    gate = asyncio.Event()

    def job(n: int) -> Callable[[], Coroutine[object, object, None]]:
        async def run() -> None:
            if n == 0:
                await gate.wait()
            done.append(n)

        return run

    edits.submit("table-1", job(0))
    await asyncio.sleep(0)
    for n in range(1, 10):
        edits.submit("table-1", job(n))
    edits.submit("table-2", job(100))
    gate.set()
    await edits.flush()
    assert done.count(100) == 1
    assert [n for n in done if n < 100] == [0, 9]
    assert edits.coalesced == 8


async def test_a_failing_edit_does_not_stop_the_next() -> None:
    edits = Coalescer()
    done: list[str] = []

    async def boom() -> None:
        raise RuntimeError("Discord said no")

    async def fine() -> None:
        done.append("ok")

    edits.submit("k", boom)
    await edits.flush()
    edits.submit("k", fine)
    await edits.flush()
    assert done == ["ok"]


def test_sharding_and_optional_keys_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKHAND_SHARD_COUNT", "4")
    monkeypatch.setenv("DECKHAND_SHARD_IDS", "0, 2")
    monkeypatch.setenv("DECKHAND_DEV_GUILD", "")
    monkeypatch.setenv("DECKHAND_BOT_MOVE_DELAY", "0")
    # Some of the shards: the other processes must share the database, so PostgreSQL.
    with pytest.raises(ValidationError, match="postgresql"):
        unfiled()
    monkeypatch.setenv("DECKHAND_DB", "postgresql://deckhand@db/deckhand")
    s = unfiled()
    assert (s.shard_count, s.shard_ids, s.dev_guild, s.bot_move_delay) == (4, (0, 2), None, 0)
    assert [s.owns(shard << 22) for shard in range(4)] == [True, False, True, False]
    monkeypatch.setenv("DECKHAND_DB", "data/deckhand.db")
    monkeypatch.setenv("DECKHAND_SHARD_IDS", "3,1,0,2")  # all of them: one process, SQLite is fine
    assert unfiled().shard_ids == (3, 1, 0, 2)
    monkeypatch.setenv("DECKHAND_TURN_TIMER", "-1")
    with pytest.raises(ValidationError):
        unfiled()


def test_create_bot_picks_the_sharded_client() -> None:
    from discord.ext import commands

    from bot.app import create_bot, intents

    plain = create_bot(unfiled(DECKHAND_DB=":memory:"))
    sharded = create_bot(
        unfiled(DECKHAND_SHARD_COUNT=2)
    )
    assert not isinstance(plain, commands.AutoShardedBot)
    assert isinstance(sharded, commands.AutoShardedBot) and sharded.shard_count == 2
    wanted = intents()
    assert wanted.guilds and not wanted.message_content and not wanted.members
    assert plain.intents.value == wanted.value
