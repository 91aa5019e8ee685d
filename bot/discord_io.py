"""The REST edge of the bot's own token: counted calls, coalesced message edits, sends that
survive deleted messages and closed DMs. It knows Discord's calls and refusals, not what
a message shows: callers hand it discord.py's message arguments.

* ``RestCounter`` wraps ``bot.http.request``: every call the bot makes with its token (all
  of which count toward Discord's global 50/s limit; interaction responses go through the
  webhook adapter and are not counted) is tallied by route.
* ``Coalescer`` keeps one edit in flight per key (a table message, a DM); a newer payload
  replaces a pending one, so a burst of moves costs one edit per round trip, not per move.
* ``Outbox`` sends and edits messages by channel and message id with the bot's token and
  reports what went wrong as data: ``Gone.MESSAGE`` (10008; for an edit also 30046, too
  many edits of messages older than an hour, and 50083, an archived thread: re-post — a
  new message unarchives the thread), ``Gone.CHANNEL`` (10003: close the table), ``Gone.NO_ACCESS``
  (50001/50013, or 50083 on a send to a locked thread: the bot may not see or write
  there — the channel still exists, so the table stays), ``Gone.DMS_CLOSED`` (50007, or
  50278 when the bot shares no server with the user: fall back to the ephemeral view);
  ``Gone.TOKEN`` is for an interaction's token refused
  (``bot.ui.publish.delivery``). Nothing is sent with mentions unless the caller allows
  them.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import HTTPClient, Route

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
CANNOT_DM = 50007
NO_MUTUAL_GUILD = 50278
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
OLD_MESSAGE_EDITS = 30046
ARCHIVED_THREAD = 50083


class RestCounter:
    """Counts the bot's REST calls by route (``"PATCH /channels/{channel_id}/messages/…"``)."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    @property
    def total(self) -> int:
        """All calls so far."""
        return sum(self.calls.values())

    def install(self, http: HTTPClient) -> None:
        """Wrap ``http.request`` so every call is counted."""
        original = http.request

        async def counted(route: Route, **kwargs: Any) -> Any:
            self.calls[route.key] += 1
            return await original(route, **kwargs)

        http.request = counted  # type: ignore[method-assign]

    def snapshot(self) -> Counter[str]:
        """A copy of the counts (subtract two snapshots to count a stretch of work)."""
        return Counter(self.calls)


#: discord.py's keyword arguments of a message to send or an edit to make.
Payload = dict[str, Any]


#: Seconds before each retry of a message update Discord failed with a 5xx (discord.py
#: itself retries 500/502/504, not 503).
RETRY_AFTER = (1.0, 2.0, 4.0)


class Coalescer:
    """At most one job in flight per key; the latest submitted job for a key wins; a job
    that fails with a server error is retried (``RETRY_AFTER``) unless a newer one came."""

    def __init__(self) -> None:
        self._pending: dict[Hashable, Callable[[], Awaitable[None]]] = {}
        self._running: dict[Hashable, asyncio.Task[None]] = {}
        self.coalesced = 0

    def submit(self, key: Hashable, job: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` for ``key`` soon; replaces a job for ``key`` that has not started."""
        if key in self._pending:
            self.coalesced += 1
        self._pending[key] = job
        if key not in self._running:
            self._running[key] = asyncio.create_task(self._drain(key), name=f"deckhand-edit-{key}")

    async def _drain(self, key: Hashable) -> None:
        failures = 0
        try:
            while key in self._pending:
                job = self._pending.pop(key)
                try:
                    await job()
                except discord.DiscordServerError as exc:
                    if failures == len(RETRY_AFTER):
                        log.error("message update %s failed %d times: %s", key, failures + 1, exc)
                        failures = 0
                        continue
                    log.warning("message update %s: Discord answered %s; retrying", key, exc.status)
                    await asyncio.sleep(RETRY_AFTER[failures])
                    failures += 1
                    self._pending.setdefault(key, job)  # unless a newer one arrived meanwhile
                    continue
                except Exception:
                    log.exception("message update %s failed", key)
                failures = 0
        finally:
            self._running.pop(key, None)

    async def settled(self, key: Hashable) -> None:
        """Wait until the jobs of ``key`` that are running or pending now have run."""
        task = self._running.get(key)
        if task is not None and task is not asyncio.current_task():
            await asyncio.wait({task})

    async def flush(self) -> None:
        """Wait until every submitted job has run."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def close(self) -> None:
        """Drop pending jobs and cancel running ones."""
        self._pending.clear()
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)


class Gone(enum.Enum):
    """Why a send or edit could not be done."""

    MESSAGE = "message"
    CHANNEL = "channel"
    NO_ACCESS = "no_access"
    DMS_CLOSED = "dms_closed"
    #: An interaction's token was refused (it expired, or its message is gone).
    TOKEN = "token"


@dataclass(frozen=True)
class Sent:
    """Where a message now is (``channel_id``, ``message_id``), or why it is not."""

    channel_id: int
    message_id: int | None
    gone: Gone | None = None


def _gone(exc: discord.HTTPException, *, editing: bool = False) -> Gone | None:
    if exc.code == UNKNOWN_MESSAGE:
        return Gone.MESSAGE
    if editing and exc.code in (OLD_MESSAGE_EDITS, ARCHIVED_THREAD):
        return Gone.MESSAGE
    if exc.code == UNKNOWN_CHANNEL:
        return Gone.CHANNEL
    if exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS, ARCHIVED_THREAD):
        return Gone.NO_ACCESS
    if exc.code in (CANNOT_DM, NO_MUTUAL_GUILD):
        return Gone.DMS_CLOSED
    return None


class Outbox:
    """Sends, edits and deletes messages by id through the bot's HTTP client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._dm_channels: dict[int, int] = {}

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def send(
        self,
        channel_id: int,
        message: Payload,
        *,
        mentions: discord.AllowedMentions | None = None,
    ) -> Sent:
        """Post a new message (pinging nobody unless ``mentions`` allows it)."""
        try:
            msg = await self._channel(channel_id).send(
                allowed_mentions=mentions or discord.AllowedMentions.none(), **message
            )
        except discord.HTTPException as exc:
            gone = _gone(exc)
            if gone is None:
                raise
            return Sent(channel_id, None, Gone.CHANNEL if gone is Gone.MESSAGE else gone)
        return Sent(channel_id, msg.id)

    async def edit(self, channel_id: int, message_id: int, edit: Payload) -> Sent:
        """Edit a message in place."""
        try:
            await self._channel(channel_id).get_partial_message(message_id).edit(**edit)
        except discord.HTTPException as exc:
            gone = _gone(exc, editing=True)
            if gone is None:
                raise
            return Sent(channel_id, None, gone)
        return Sent(channel_id, message_id)

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message; one that is already gone is fine."""
        try:
            await self._channel(channel_id).get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            if _gone(exc) is None:
                raise

    async def delete_channel(self, channel_id: int) -> Gone | None:
        """Delete a channel or thread; why not, when Discord refused (already gone is
        ``Gone.CHANNEL``)."""
        try:
            await self.client.http.delete_channel(channel_id)
        except discord.HTTPException as exc:
            gone = _gone(exc)
            if gone is None:
                raise
            return gone
        return None

    async def dm_channel(self, user_id: int) -> int:
        """The DM channel id with ``user_id`` (opened once, then cached)."""
        if user_id not in self._dm_channels:
            data = await self.client.http.start_private_message(user_id)
            self._dm_channels[user_id] = int(data["id"])
        return self._dm_channels[user_id]

    def remember_dm(self, user_id: int, channel_id: int) -> None:
        """Cache a DM channel id learned elsewhere (from the database)."""
        self._dm_channels[user_id] = channel_id

    async def send_dm(self, user_id: int, message: Payload) -> Sent:
        """Send a DM; ``Gone.DMS_CLOSED`` when the user does not accept them."""
        try:
            channel_id = await self.dm_channel(user_id)
        except discord.HTTPException as exc:
            if _gone(exc) is None:
                raise
            return Sent(0, None, Gone.DMS_CLOSED)
        sent = await self.send(channel_id, message)
        if sent.gone in (Gone.CHANNEL, Gone.NO_ACCESS):
            return Sent(channel_id, None, Gone.DMS_CLOSED)
        return sent
