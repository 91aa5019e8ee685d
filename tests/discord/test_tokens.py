"""Held interaction tokens age from their interaction's creation, not from when a message
was put under them."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord

from bot.ui.publish.tokens import Token, Tokens


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def token(created: float) -> Token:
    interaction = cast(discord.Interaction, cast(Any, object()))
    return Token(interaction, created, user_id=1, guild_id=2, channel_id=3, message_id=4)


async def test_a_token_held_late_keeps_its_age() -> None:
    clock = Clock()
    tokens: Tokens[str] = Tokens(clock, usable=60.0)
    made = token(created=clock.now - 50.0)  # a click 50 s ago, its table posted through it now
    held = tokens.hold("table", made, 99, original=False)
    assert held.age(clock.now) == 50.0 and held.handle == 99
    clock.now += 9.0
    assert tokens.get("table") is held
    clock.now += 2.0
    assert tokens.get("table") is None


async def test_a_newer_token_replaces_an_older_one_and_drop_checks_which() -> None:
    clock = Clock()
    tokens: Tokens[str] = Tokens(clock)
    old = tokens.hold("panel", token(clock.now), 1, original=True)
    new = tokens.hold("panel", token(clock.now + 1), 2, original=True)
    tokens.drop("panel", old)  # a failed edit of the old one must not drop the new one
    assert tokens.get("panel") is new and new.handle is None
    tokens.drop_where(lambda key: key == "panel")
    assert tokens.get("panel") is None


async def test_expiry_is_waited_for_on_the_tokens_clock() -> None:
    """``on_expiry`` fires once a held token reaches ``usable`` on the clock it was given
    (a test's clock makes minutes pass at once), and never for a token dropped before."""
    clock = Clock()
    waits: list[float] = []
    woken = asyncio.Event()

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await woken.wait()

    expired: list[tuple[str, int]] = []
    tokens: Tokens[str] = Tokens(
        clock, usable=60.0, sleep=sleep,
        on_expiry=lambda key, held: expired.append((key, held.message_id)),
    )
    tokens.hold("table", token(clock.now - 20.0), 7, original=True)
    tokens.hold("panel", token(clock.now), 8, original=True)
    tokens.drop("panel")
    await asyncio.sleep(0)
    assert waits == [40.0]  # the dropped one never waits
    clock.now += 60.0
    woken.set()
    for _ in range(3):
        await asyncio.sleep(0)
    assert expired == [("table", 7)] and tokens.get("table") is None
