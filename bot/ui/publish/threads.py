"""The threads Deckhand opens for lobbies (``/table new thread:``), deleted again when the
lobby closes before a game was dealt in it — a lobby opened and cancelled leaves nothing
behind, however often a member does it.

Decisions:

* Only a thread made for a lobby by this process is deleted, and only while no game has
  been dealt in it: once one is, the thread is the game's record and stays. After a
  restart such a thread is left to archive itself (a day without messages).
* Deleting a thread needs Manage Threads (``bot.permissions``); a refusal is logged.
"""

from __future__ import annotations

import logging

import discord

from bot.discord_io import Gone
from bot.services.tables import TableResult, TableStatus
from bot.ui.publish.delivery import Delivery

log = logging.getLogger(__name__)

class LobbyThreads:
    """Threads made for lobbies, until a game is dealt in them."""

    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self._made: set[int] = set()

    async def open(self, parent: discord.TextChannel, name: str) -> discord.Thread:
        """A new public thread of ``parent`` for a lobby."""
        thread = await parent.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440,
        )
        self._made.add(thread.id)
        return thread

    async def unused(self, thread_id: int) -> None:
        """No lobby opened in the thread after all: delete it."""
        if thread_id in self._made:
            self._made.discard(thread_id)
            await self._delete(0, thread_id)

    async def settle(self, result: TableResult) -> None:
        """A table's result: its thread is kept once a game is dealt in it, deleted when its
        lobby closed first."""
        if result.channel_id not in self._made or result.status is TableStatus.LOBBY:
            return
        self._made.discard(result.channel_id)
        if result.status is TableStatus.ABORTED and not result.dealt:
            await self._delete(result.table_id, result.channel_id)

    def forget(self, channel_id: int) -> None:
        """The thread was deleted."""
        self._made.discard(channel_id)

    async def _delete(self, table_id: int, thread_id: int) -> None:
        gone = await self.delivery.delete_channel(table_id, thread_id)
        if gone is Gone.NO_ACCESS:
            log.warning("thread %s of a closed lobby was not deleted: no Manage Threads",
                        thread_id)
