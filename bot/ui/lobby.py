"""The lobby desk: opening a table and what happens around a game rather than in it —
joining, leaving, adding a computer, removing a player, starting, closing, a rematch, and
posting the table message again (``/table`` and the lobby's buttons). The events have
their own desk (``bot.ui.events``); the controller hands the lobby's buttons here and
keeps the path of a move.

Decisions:

* **Answered in time, truthfully**, as every handler (``bot.ui.controller``): deferred
  before anything may wait, every deferred answer replaced by the result or the error.
* A click on the table message turns into that message's new state — edited, or posted
  afresh when it is too old to edit (``TableMessages.answer_click``); a slash command gets
  a private "done" and the table message is edited (``_change``).
* Public answers (a new table message) are posted as the answer itself; if the request is
  refused the public "thinking…" is deleted and the refusal is said privately. Where
  Discord would show a table message to the asker alone (``places.answers_public``), no
  table is opened, posted or rematched, and the asker is told why.
* A table opens where its place says how it is reached (``Reach``): without the bot
  (installed to a user only, or a server that installed the commands alone) it needs no
  permission of the bot's, opens no thread, keeps its hands in private panels, and its
  message has a **Refresh** button. Its reach and, in a DM, its keeper are written in the
  transaction that opens it (``placing``). In a thread the bot needs Send Messages in
  Threads, not Send Messages (``permissions.IN_THREAD``).
* ``/table status`` posts the table through the asker's own install, so it also brings
  back a table whose install is gone (``Publisher.revived``).
* Admin rights are those of the place the interaction came from (``places.is_admin``).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

import games
from bot import permissions
from bot.custom_ids import CustomId
from bot.render.messages import MessageSpec
from bot.services.errors import ServiceError
from bot.services.leagues import LeagueService
from bot.services.preferences import PreferenceService
from bot.services.tables import TableResult, TableService, TableStatus
from bot.services.tables.store import Link
from bot.ui import places
from bot.ui.answers import defer, publicly, reply, say
from bot.ui.asks import lacking, private, table_options, table_timer
from bot.ui.publish import Answered, Publisher, Reach
from bot.ui.views import edit_kwargs
from i18n import N_, _, lazy_gettext
from storage import places as place_repo
from storage.db import Conn, Database

#: The table buttons the desk answers (``bot.custom_ids``).
CONTROLS = frozenset({"join", "leave", "bot", "start", "cancel", "rematch"})
_THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                      discord.ChannelType.news_thread})
PRIVATE_HERE = N_(
    "Discord shows my answers to you here to you alone (this server has not added me, and"
    " its **Use External Apps** permission is off for you), so nobody else could see this"
    " table. Ask a moderator to allow Use External Apps or to add Deckhand to the server,"
    " or play in a DM or group DM."
)
NO_TABLES_HERE = N_(
    "Tables open in a server's channel, a DM or a group DM with your friends — not in my"
    " DMs. Try `deckhand play` to play me alone."
)


class NoThread(ServiceError):
    """The table was to open in a thread the bot may not make."""


def placing(place: places.Place, user_id: int) -> Link:
    """What a table opened in ``place`` by ``user_id`` writes of its place in its own
    transaction (so no table is left without them): that only interaction tokens reach
    it, and in a DM or group DM without a keeper, its opener as the keeper."""
    now = time.time()

    def link(conn: Conn, table_id: int) -> None:
        if place.reach is Reach.TOKENS:
            place_repo.mark_tokens_only(conn, table_id)
        if place.private:
            place_repo.claim_keeper(conn, place.scope, user_id, now)

    return link


class LobbyDesk:
    """``/table`` and the lobby's buttons: service calls and answers; results go to the
    ``Publisher``."""

    def __init__(
        self,
        db: Database,
        tables: TableService,
        leagues: LeagueService,
        publisher: Publisher,
        preferences: PreferenceService,
        *,
        turn_timer: int,
    ) -> None:
        self.db, self.tables, self.leagues = db, tables, leagues
        self.publisher, self.preferences = publisher, preferences
        self.turn_timer = turn_timer

    async def click(
        self, interaction: discord.Interaction, cid: CustomId, channel_id: int, status: str
    ) -> None:
        """A lobby button (``CONTROLS``) on the table message of ``channel_id``, whose table
        is in ``status`` (checked by the controller to be this place's)."""
        if cid.kind == "rematch":
            await self.rematch(interaction, channel_id)
            return
        if status != TableStatus.LOBBY:
            await say(interaction, _("That lobby has closed; use the latest table message."))
            return
        if cid.kind == "join":
            await self.join(interaction, channel_id)
        elif cid.kind == "leave":
            await self.leave(interaction, channel_id)
        elif cid.kind == "bot":
            await self.add_bot(interaction, channel_id, cid.arg)
        elif cid.kind == "start":
            await self.start(interaction, channel_id)
        else:
            await self.abort(interaction, channel_id)

    # -- commands and buttons ------------------------------------------------------------
    async def new_table(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None,
        league: str | None,
        timer: str | None,
        thread: bool | None = None,
        hints: bool | None = None,
    ) -> None:
        """``/table new``: open a lobby (with ``hints``, a practice table); its message is
        the answer, or — in a thread of its own (``thread``, else the server's default) —
        the answer links to it. Where Deckhand's bot is no member (``Reach.TOKENS``) it
        needs none of the bot's permissions and opens no thread; where Discord would show
        the lobby to the asker alone it opens nothing."""
        place = places.place_of(interaction)
        if place is None:
            await say(interaction, _(NO_TABLES_HERE))
            return
        if place.reach is Reach.BOT:
            channel = interaction.channel
            threaded = channel is not None and channel.type in _THREADS
            missing = lacking(interaction, permissions.IN_THREAD if threaded else permissions.TABLE)
            if missing:
                await say(interaction, _(
                    "I can't run a table in this channel: I need {missing} here.", missing=missing
                ))
                return
        elif not places.answers_public(interaction):
            await say(interaction, _(PRIVATE_HERE))
            return
        user = interaction.user
        seconds = table_timer(timer, self.turn_timer)
        scope = place.scope

        async def create(where: int) -> TableResult:
            league_id = None
            if league:
                league_id = (await self.leagues.league_for_table(scope, league, game)).id
            result = await self.tables.create(
                where, scope, user.id, user.display_name, game, table_options(options),
                turn_timer=seconds, league_id=league_id, practice=bool(hints),
                link=placing(place, user.id),
            )
            self.publisher.placed(result.table_id, place.reach)
            return result

        done: list[tuple[TableResult, MessageSpec, bool]] = []

        async def work() -> dict[str, Any]:
            target = await self._thread_for(interaction, place, game, options, seconds, thread)
            if target is None:
                result = await create(place.channel_id)
                spec = await self.publisher.table.spec(result)
                done.append((result, spec, True))
                return edit_kwargs(spec)
            try:
                result = await create(target.id)
            except BaseException:
                await self.publisher.threads.unused(target.id)
                raise
            spec = await self.publisher.table.spec(result)
            done.append((result, spec, False))
            await self.publisher.table.post(result, spec)
            return {
                "content": _("**{game}** table opened by {user} in {thread}: join it there.",
                             game=_(result.title), user=user.mention, thread=target.mention),
                "embed": None,
                "view": None,
            }

        message = await publicly(interaction, work, unless_private=_(PRIVATE_HERE))
        if message is None:
            return
        result, spec, here = done[0]
        token = self.publisher.token(interaction)
        if here:
            self.publisher.table.shown(result, spec, message.id, token)
        await self.publisher.notices.welcome(result, token)

    async def _thread_for(
        self,
        interaction: discord.Interaction,
        place: places.Place,
        game: str,
        options: str | None,
        timer: int,
        thread: bool | None,
    ) -> discord.Thread | None:
        """The new public thread a table opens in, or None for this channel (asked for no
        thread, the server's default is none, or this is a thread already). Where the bot
        is no member, ``thread:true`` is refused and the server's default does not apply."""
        parent = interaction.channel
        if thread is False or not isinstance(parent, discord.TextChannel):
            return None
        if place.reach is Reach.TOKENS:
            if thread:
                raise NoThread(lazy_gettext(
                    "I can't open a thread here: Deckhand's bot is not a member of this"
                    " server (only its commands came here). Open the table without `thread`."
                ))
            return None
        if thread is None and not (await self.preferences.server(place.scope)).threads:
            return None
        missing = lacking(interaction, permissions.THREAD)
        if missing:
            raise NoThread(lazy_gettext(
                "I can't open the table in a thread here: I need {missing} in this channel."
                " Open it without `thread`, or ask an admin to grant it.", missing=missing,
            ))
        self.tables.check_new(place.scope, interaction.user.id, game, table_options(options),
                              turn_timer=timer)
        title = _(games.get(game).title)
        return await self.publisher.threads.open(
            parent, f"{title} — {interaction.user.display_name}"[:100]
        )

    async def status(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Post the table message again at the bottom of the channel: it becomes the live
        one (the old one is retired, ``TableMessages.shown``), through this interaction —
        also where the install that let Deckhand post here is gone (``Publisher.lost``):
        whoever runs it has Deckhand, so the table continues through their install."""
        done: list[tuple[TableResult, MessageSpec]] = []

        async def work() -> dict[str, Any]:
            result = await self.tables.status(channel_id)
            await self.publisher.table.message_id(result.table_id)  # the one it replaces
            done.append((result, await self.publisher.table.spec(result)))
            return edit_kwargs(done[0][1])

        message = await publicly(interaction, work, unless_private=_(PRIVATE_HERE))
        if message is None:
            return
        result, spec = done[0]
        live = result.status in (TableStatus.LOBBY, TableStatus.PLAYING)
        token = self.publisher.token(interaction)
        self.publisher.table.shown(result, spec, message.id if live else None, token)
        await self.publisher.revived(result.table_id, token)

    async def _change(
        self,
        interaction: discord.Interaction,
        call: Callable[[], Awaitable[TableResult]],
        *,
        done: str,
        welcome: bool = False,
    ) -> None:
        """A change to the table (lobby, start, leave, abort): deferred first; a click on
        the table message turns into that message's new state, a slash command gets a
        private "done" and the table message is edited."""
        clicked = interaction.message
        on_table = clicked is not None and not private(interaction)
        await defer(interaction, update=on_table)
        result = await call()
        token = self.publisher.token(interaction)
        table = self.publisher.table
        spec = await table.spec(result)
        stored = await table.message_id(result.table_id)
        if on_table and clicked is not None and clicked.id == stored:
            await table.answer_click(result, spec, token)
        else:
            if not on_table:
                await say(interaction, str(result.message or _(done)))
            table.update(result, spec)
        if welcome:
            await self.publisher.notices.welcome(result, token)
        if result.status is not TableStatus.LOBBY:
            await self.publisher.publish(result, Answered(via=token, table=True))

    async def join(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Join the lobby (button or ``/table join``), then check DMs."""
        user = interaction.user
        await self._change(
            interaction, lambda: self.tables.join(channel_id, user.id, user.display_name),
            done=N_("You joined the table."), welcome=True,
        )

    async def leave(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Leave a lobby, or hand a running seat to a computer player."""
        await self._change(
            interaction, lambda: self.tables.leave(channel_id, interaction.user.id),
            done=N_("You left the table."),
        )

    async def add_bot(self, interaction: discord.Interaction, channel_id: int, level: str) -> None:
        """Seat a computer player."""

        async def call() -> TableResult:
            admin = await places.is_admin(self.db, interaction)
            return await self.tables.add_bot(
                channel_id, interaction.user.id, level, is_admin=admin
            )

        await self._change(interaction, call, done=N_("A computer player sat down."))

    async def kick(
        self, interaction: discord.Interaction, channel_id: int, target: discord.abc.User
    ) -> None:
        """Remove a player from the lobby (host or Manage Server)."""

        async def call() -> TableResult:
            admin = await places.is_admin(self.db, interaction)
            return await self.tables.kick(
                channel_id, interaction.user.id, target.id, is_admin=admin
            )

        await self._change(interaction, call, done=N_("Removed from the table."))

    async def abort(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Close the table without a result (host or Manage Server)."""

        async def call() -> TableResult:
            admin = await places.is_admin(self.db, interaction)
            return await self.tables.abort(channel_id, interaction.user.id, is_admin=admin)

        await self._change(interaction, call, done=N_("The table was closed."))

    async def start(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Deal; the computer players move on their own from here."""

        async def call() -> TableResult:
            admin = await places.is_admin(self.db, interaction)
            return await self.tables.start(channel_id, interaction.user.id, is_admin=admin)

        await self._change(interaction, call, done=N_("Started."))

    async def rematch(self, interaction: discord.Interaction, channel_id: int) -> None:
        """A new game with the same seats: a new table message, new hands (not where
        Discord would show that message to the clicker alone)."""
        if not places.answers_public(interaction):
            await say(interaction, _(PRIVATE_HERE))
            return
        await defer(interaction, update=True)
        place = places.place_of(interaction)
        assert place is not None  # a table's own channel (``_component``)
        result = await self.tables.rematch(
            channel_id, interaction.user.id, is_admin=await places.is_admin(self.db, interaction),
            link=placing(place, interaction.user.id),
        )
        self.publisher.placed(result.table_id, place.reach)
        spec = await self.publisher.table.spec(result)
        posted, original = await reply(interaction, spec, ephemeral=False)
        token = self.publisher.token(interaction)
        self.publisher.table.shown(result, spec, posted, token, original=original)
        await self.publisher.publish(result, Answered(via=token, table=True))
