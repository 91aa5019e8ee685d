"""Deckhand the application: services, Discord adapter, renderers and the CLI.

``bot.create_bot`` is imported lazily, so ``import bot.services…`` never imports discord.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_bot"]


def __getattr__(name: str) -> Any:
    if name == "create_bot":
        from bot.app import create_bot

        return create_bot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
