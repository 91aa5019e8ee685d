"""What a clicked component calls: the protocol between the items, which only parse custom
ids (``bot.ui.items``), and the controller, which checks, calls the services and answers
(``bot.ui.controller``). It lives below both, so neither imports the other, not even for
types.
"""

from __future__ import annotations

from typing import Protocol, cast

import discord

from bot.custom_ids import CustomId


class Clicks(Protocol):
    """The handlers of every Deckhand component; each answers its interaction."""

    async def on_table_click(
        self, interaction: discord.Interaction, cid: CustomId | None, values: list[str]
    ) -> None:
        """A table button or select (``cid`` None: an id that only looks like one)."""

    async def on_event_click(
        self, interaction: discord.Interaction, event_id: int | None, kind: str
    ) -> None:
        """Sign up, Leave or Start on an event's message (``event_id`` None: out of range)."""

    async def on_replay_click(
        self, interaction: discord.Interaction, match_id: int, step: int, hands: bool
    ) -> None:
        """A replay button: the step it names."""

    async def on_rules_click(self, interaction: discord.Interaction, game: str, page: int) -> None:
        """◀/▶ on a rules message."""

    async def on_stray_click(self, interaction: discord.Interaction) -> None:
        """A component whose id no item takes."""


class _HasClicks(Protocol):
    controller: Clicks


def clicks(client: discord.Client) -> Clicks:
    """The running bot's handlers (``bot.app`` sets them up)."""
    return cast(_HasClicks, client).controller
