"""Held interaction tokens age from their interaction's creation, not from when a message
was put under them."""

from __future__ import annotations

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
