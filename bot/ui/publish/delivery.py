"""How a message reaches Discord: through an interaction's token, or with the bot's own.

Every message kind (the table message, hands, notices, pictures) is sent, edited and
deleted here. Decisions:

* Each table has a ``Reach``: ``BOT`` (the default: interaction tokens where one is held,
  the bot's token otherwise) or ``TOKENS`` (a table the bot's token cannot reach — a place
  the bot is not a member of: only interactions' tokens reach it). At a ``TOKENS`` table
  every bot-token call is refused here, as ``Gone.NO_ACCESS``, without a request, and the
  hands are private panels whatever the players chose (``reachable``): a DM needs the
  bot's token. The reach is decided where the table opens (``bot.ui.places``) and kept
  in the database (``storage.places``) for restarts.
* A send through a token that Discord refuses falls back to the bot's token where the
  table's reach allows; an edit through a token that is refused says so (``Gone.TOKEN``)
  and the caller decides (the table message has its own way back, a panel has none). A
  young token refused because its install is gone (``allowance.lost``) is reported to
  ``on_lost``.
* A message the bot edits with its own token is replaced rather than edited once it is
  ``replace_after`` old (Discord limits edits of messages older than an hour, 30046).
* Specs are turned into discord.py's arguments here (``bot.ui.views``): callers speak in
  ``MessageSpec``; the REST edge below (``bot.discord_io``) speaks in payloads.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import time
from collections.abc import Awaitable, Callable

import discord

from bot.discord_io import OLD_MESSAGE_EDITS, UNKNOWN_MESSAGE, Gone, Outbox, Sent
from bot.render.messages import MessageSpec
from bot.services.preferences import Preferences
from bot.ui import allowance
from bot.ui.allowance import Exhausted
from bot.ui.publish.tokens import Token, TokenMessage
from bot.ui.views import edit_kwargs, send_kwargs

log = logging.getLogger(__name__)

#: A message this old is replaced by a fresh one rather than edited with the bot's token
#: (edits of messages older than an hour are rate limited by Discord, error 30046).
REPLACE_AFTER = 50 * 60.0


class Reach(enum.Enum):
    """Which tokens reach a table's messages."""

    BOT = "bot"
    TOKENS = "tokens"


class Delivery:
    """Sends, edits and deletes Deckhand's messages, through a token or the bot's own."""

    def __init__(
        self,
        outbox: Outbox,
        *,
        replace_after: float = REPLACE_AFTER,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.outbox = outbox
        self.replace_after = replace_after
        #: The time of day as Discord's snowflakes count it (a test's follows its fake).
        self.wall = wall
        self._tokens_only: set[int] = set()
        #: Told of a token whose authorisation Discord took away (``allowance.lost``).
        self.on_lost: Callable[[Token], Awaitable[None]] | None = None
        #: Per channel, when its tokens' install was found gone: tokens made until then
        #: are not tried again (each try would be refused, and counted against the bot).
        self._gone_until: dict[int, float] = {}

    async def _refused(self, token: Token, exc: discord.HTTPException | Exhausted) -> None:
        if self.on_lost is not None and allowance.lost(exc):
            await self.on_lost(token)

    def gone_until(self, channel_id: int, created: float | None) -> None:
        """Tokens of the channel made until ``created`` lost their install (None: a newer
        install reaches the channel; its tokens, and later ones, are tried again)."""
        if created is None:
            self._gone_until.pop(channel_id, None)
        else:
            self._gone_until[channel_id] = created

    def _dead(self, token: Token) -> bool:
        until = self._gone_until.get(token.channel_id or 0)
        return until is not None and token.created <= until

    # -- each table's reach ------------------------------------------------------------------
    def set_reach(self, table_id: int, reach: Reach) -> None:
        """Say how a table's messages are reached (``BOT`` unless said otherwise)."""
        if reach is Reach.TOKENS:
            self._tokens_only.add(table_id)
        else:
            self._tokens_only.discard(table_id)

    def reach(self, table_id: int) -> Reach:
        """How a table's messages are reached."""
        return Reach.TOKENS if table_id in self._tokens_only else Reach.BOT

    def reachable(self, table_id: int, prefs: Preferences) -> Preferences:
        """A player's preferences as the table can keep them: where only tokens reach, the
        hand is a private panel in the table's channel (no DM)."""
        if self.reach(table_id) is Reach.TOKENS and prefs.hand != "channel":
            return dataclasses.replace(prefs, hand="channel")
        return prefs

    def aged(self, message_id: int) -> bool:
        """Whether the message was posted ``replace_after`` seconds ago or more."""
        posted = discord.utils.snowflake_time(message_id).timestamp()
        return self.wall() - posted >= self.replace_after

    # -- through a token ---------------------------------------------------------------------
    async def reply(self, token: Token, spec: MessageSpec, *, ephemeral: bool) -> int | None:
        """A follow-up through ``token``; its id, or None when Discord refused it."""
        if self._dead(token):
            return None
        try:
            return await token.send(send_kwargs(spec), ephemeral=ephemeral)
        except (discord.HTTPException, Exhausted) as exc:
            log.info("a follow-up was refused: %s", _why(exc))
            await self._refused(token, exc)
            return None

    async def edit_held(self, held: TokenMessage, spec: MessageSpec) -> Sent:
        """Edit a message through its token: ``Gone.MESSAGE`` when the message is gone or
        will take no more edits (10008, 30046: post afresh), ``Gone.TOKEN`` when Discord
        refuses the token."""
        channel = held.token.channel_id or 0
        if self._dead(held.token):
            return Sent(channel, None, Gone.TOKEN)
        try:
            await held.token.edit(held.handle, edit_kwargs(spec))
        except discord.HTTPException as exc:
            log.info("an edit through a token was refused: %s", exc.status)
            await self._refused(held.token, exc)
            gone = Gone.MESSAGE if exc.code in (UNKNOWN_MESSAGE, OLD_MESSAGE_EDITS) else Gone.TOKEN
            return Sent(channel, None, gone)
        return Sent(channel, held.message_id)

    async def delete_held(self, held: TokenMessage) -> bool:
        """Delete a message through its token; whether Discord took it."""
        if self._dead(held.token):
            return False
        try:
            await held.token.delete(held.handle)
        except discord.HTTPException as exc:
            log.info("a delete through a token was refused: %s", exc.status)
            await self._refused(held.token, exc)
            return False
        return True

    # -- in a table's channel ------------------------------------------------------------------
    async def post(
        self,
        table_id: int,
        channel_id: int,
        spec: MessageSpec,
        *,
        via: Token | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> Sent:
        """A new public message in the channel: through ``via``'s follow-up when given and
        taken, else with the bot's token where the table allows."""
        if via is not None and via.channel_id == channel_id and not self._dead(via):
            try:
                posted = await via.send(send_kwargs(spec), mentions=mentions)
            except (discord.HTTPException, Exhausted) as exc:
                log.info("table %s: a post through a token was refused: %s", table_id, _why(exc))
                await self._refused(via, exc)
            else:
                return Sent(channel_id, posted)
        if self.reach(table_id) is Reach.TOKENS:
            return Sent(channel_id, None, Gone.NO_ACCESS)
        return await self.outbox.send(channel_id, send_kwargs(spec), mentions=mentions)

    async def edit(
        self, table_id: int, channel_id: int, message_id: int, spec: MessageSpec
    ) -> Sent:
        """Edit a message with the bot's token."""
        if self.reach(table_id) is Reach.TOKENS:
            return Sent(channel_id, None, Gone.NO_ACCESS)
        return await self.outbox.edit(channel_id, message_id, edit_kwargs(spec))

    async def edit_or_repost(
        self, table_id: int, channel_id: int, message_id: int | None, spec: MessageSpec
    ) -> Sent:
        """Edit the message with the bot's token; if it was deleted (or never stored), post
        it anew."""
        if message_id is not None:
            done = await self.edit(table_id, channel_id, message_id, spec)
            if done.gone is not Gone.MESSAGE:
                return done
        return await self.post(table_id, channel_id, spec)

    async def delete(self, table_id: int, channel_id: int, message_id: int) -> None:
        """Delete a message with the bot's token (one already gone is fine)."""
        if self.reach(table_id) is Reach.BOT:
            await self.outbox.delete(channel_id, message_id)

    async def delete_channel(self, table_id: int, channel_id: int) -> Gone | None:
        """Delete a channel or thread with the bot's token; why not, when refused."""
        if self.reach(table_id) is Reach.TOKENS:
            return Gone.NO_ACCESS
        return await self.outbox.delete_channel(channel_id)

    # -- by DM ---------------------------------------------------------------------------------
    async def send_dm(self, table_id: int, user_id: int, spec: MessageSpec) -> Sent:
        """A DM with the bot's token (``Gone.DMS_CLOSED`` when the user takes none)."""
        if self.reach(table_id) is Reach.TOKENS:
            return Sent(0, None, Gone.NO_ACCESS)
        return await self.outbox.send_dm(user_id, send_kwargs(spec))

    def remember_dm(self, user_id: int, channel_id: int) -> None:
        """A DM channel id learned from the database."""
        self.outbox.remember_dm(user_id, channel_id)


def _why(exc: discord.HTTPException | Exhausted) -> object:
    """A refusal for the log: Discord's status, or why Deckhand did not send."""
    return exc.status if isinstance(exc, discord.HTTPException) else exc
