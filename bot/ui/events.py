"""Events in Discord: ``/event`` and the sign-up buttons.

The rules (pairing, results, standings) are ``bot.services.events``'; this module only
turns commands and clicks into service calls and answers them; ``EventTables``
(``bot.ui.event_tables``) keeps each event's tables, announcements and sign-up message
going. Absent players: an event table has the server's turn timer, so a computer plays
for a player whose time runs out; a player who withdraws (``/event leave``) hands their
seat to a computer at once and is paired no more.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import permissions
from bot.render.events import signup_message, standings_text, status_word
from bot.services.errors import ServiceError
from bot.services.events.rounds import entrant_players
from bot.services.events.service import EventError, EventService
from bot.services.leagues import LeagueService
from bot.services.tables import TableService
from bot.text import plain
from bot.ui.answers import defer, publicly, say
from bot.ui.asks import lacking, table_options
from bot.ui.event_tables import EventTables, NoEventChannel
from bot.ui.places import is_admin, place_of
from bot.ui.publish import Publisher, Reach
from bot.ui.views import edit_kwargs
from i18n import N_, _, lazy_gettext, number, speaking
from storage.events import EventRow

log = logging.getLogger(__name__)

NEEDS_BOT = N_(
    "Events need Deckhand's bot in this server (their tables open in threads it makes), and"
    " only Deckhand's commands were added here. An admin can add the bot: <{link}>"
)
NO_EVENT = N_("There is no event here; `/event new` makes one (Manage Server).")


class EventDesk:
    """``/event`` commands and sign-up buttons."""

    def __init__(
        self, events: EventService, tables: TableService, leagues: LeagueService,
        publisher: Publisher, running: EventTables,
    ) -> None:
        self.events, self.tables, self.leagues = events, tables, leagues
        self.publisher, self.running = publisher, running

    # -- commands and buttons ------------------------------------------------------------
    async def create(
        self, interaction: discord.Interaction, *, name: str, game: str, format: str,
        rounds: int, boards: int, options: str | None, league: str | None,
        computer: str | None,
    ) -> None:
        """``/event new``: a public sign-up message with its buttons."""
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        assert guild_id is not None and channel_id is not None
        place = place_of(interaction)
        if place is not None and place.reach is Reach.TOKENS:
            link = permissions.invite_link(str(interaction.application_id))
            await say(interaction, _(NEEDS_BOT, link=link))
            return
        if not isinstance(interaction.channel, discord.TextChannel):
            await say(interaction, _("Run events in a text channel: their tables open in"
                                     " threads of it."))
            return
        missing = lacking(interaction, _use(format))
        if missing:
            await say(interaction, _("I can't run an event here: I need {missing} in this"
                                     " channel (its tables open in threads).", missing=missing))
            return

        async def work() -> dict[str, Any]:
            league_id = None
            if league:
                league_id = (await self.leagues.league_for_table(guild_id, league, game)).id
            admin = await is_admin(self.publisher.db, interaction)
            event = await self.events.create(
                guild_id, channel_id, interaction.user.id, is_admin=admin,
                name=name, game=game, format=format, rounds=rounds, boards=boards,
                options=table_options(options), league_id=league_id, computer=computer,
            )
            created.append(event.id)
            with speaking(await self.running.language(guild_id)):
                return edit_kwargs(signup_message(event, []))

        created: list[int] = []
        message = await publicly(interaction, work)
        if message is not None:
            await self.events.set_message(created[0], message.id)

    async def on_button(self, interaction: discord.Interaction, event_id: int, kind: str) -> None:
        """Sign up, Leave or Start on the sign-up message: the message shows the result."""
        guild_id = interaction.guild_id
        if guild_id is None or interaction.message is None:
            await say(interaction, _("That button belongs to an event message in a server."))
            return
        await defer(interaction, update=True)
        await self._do(interaction, guild_id, event_id, kind)
        await self.running.refresh(event_id, via=interaction)

    async def command(
        self, interaction: discord.Interaction, kind: str, event_id: int | None
    ) -> None:
        """``/event join|leave|start``: the same as the buttons, answered privately."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        await defer(interaction)
        event = await self._pick(guild_id, interaction.channel_id, event_id)
        await say(interaction, await self._do(interaction, guild_id, event.id, kind))
        await self.running.refresh(event.id)

    async def _do(
        self, interaction: discord.Interaction, guild_id: int, event_id: int, kind: str
    ) -> str:
        user = interaction.user
        if kind == "join":
            event = await self.events.join(guild_id, event_id, user.id, user.display_name)
            return _("You are signed up for {event}.", event=plain(event.name))
        if kind == "leave":
            event = await self.events.leave(guild_id, event_id, user.id)
            if event.status == "running":
                await self._stand_in(event, user.id)
                return _("You withdrew from {event}; a computer finishes your game.",
                         event=plain(event.name))
            return _("You are no longer signed up for {event}.", event=plain(event.name))
        event = await self.events.event(guild_id, event_id)
        missing = lacking(interaction, _use(event.format))
        if missing:
            raise NoEventChannel(lazy_gettext(
                "I can't open the event's tables: I need {missing} here.", missing=missing))
        admin = await is_admin(self.publisher.db, interaction)
        await self.events.start(guild_id, event_id, user.id, is_admin=admin)
        await self.running.sync(event_id)
        return _("The event has started: round 1's tables are open.")

    async def cancel(self, interaction: discord.Interaction, event_id: int | None) -> None:
        """``/event cancel``: the event ends without a result; its open games are closed."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        await defer(interaction)
        event = await self._pick(guild_id, interaction.channel_id, event_id)
        async with self.running.locked(event.id):
            admin = await is_admin(self.publisher.db, interaction)
            open_tables = await self.events.cancel(
                guild_id, event.id, interaction.user.id, is_admin=admin
            )
            for channel in {t.channel_id for t in open_tables if t.channel_id is not None}:
                try:  # the event's own thread; whoever may cancel the event may close it
                    result = await self.tables.abort(channel, interaction.user.id, is_admin=True)
                except ServiceError:
                    continue  # no game open there
                await self.publisher.publish(result)
        await say(interaction, _("{event} is cancelled; its open games were closed.",
                                 event=plain(event.name)))
        await self.running.refresh(event.id)

    async def standings(self, interaction: discord.Interaction, event_id: int | None) -> None:
        """``/event standings``: the table, its order, and the round being played."""
        guild_id = interaction.guild_id
        assert guild_id is not None

        async def work() -> dict[str, Any]:
            event = await self._pick(guild_id, interaction.channel_id, event_id)
            st = await self.events.standings(guild_id, event.id)
            _, players, tables = await self.events.round_tables(event.id)
            names = {p.user_id: p.name for p in players}
            with speaking(await self.running.language(guild_id)):  # a public answer
                text = standings_text(st, tables, entrant_players(players), names)
            return {"content": text}

        await publicly(interaction, work)

    async def listing(self, interaction: discord.Interaction) -> None:
        """``/event list``: the server's events taking sign-ups or running."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        await defer(interaction)
        found = await self.events.events(guild_id)
        lines = [
            _("#{id} **{event}** — {status}", id=e.id, event=plain(e.name),
              status=status_word(e.status))
            + (_(", round {round} of {rounds}", round=number(e.round), rounds=number(e.rounds))
               if e.status == "running" else "")
            + f" · <#{e.channel_id}>"
            for e in found[:20]
        ]
        await say(interaction, "\n".join(lines) or _(NO_EVENT))

    async def _pick(self, guild_id: int, channel_id: int | None, event_id: int | None) -> EventRow:
        """The event asked for, or else the newest open one of this channel (or server)."""
        if event_id is not None:
            return await self.events.event(guild_id, event_id)
        found = await self.events.events(guild_id)
        here = [e for e in found if e.channel_id == channel_id] or found
        if not here:
            raise EventError(lazy_gettext(NO_EVENT))
        return here[0]

    async def _stand_in(self, event: EventRow, user_id: int) -> None:
        """A withdrawn player's open event table goes on with a computer in their seat."""
        _, _, tables = await self.events.round_tables(event.id)
        for t in tables:
            if t.round == event.round and user_id in t.seats and t.channel_id is not None:
                try:
                    result = await self.tables.leave(t.channel_id, user_id)
                except ServiceError:
                    continue  # not open there (any more), or not seated
                await self.publisher.publish(result)


def _use(format: str) -> str:
    """What an event of ``format`` is, for ``bot.permissions``."""
    return permissions.DUPLICATE if format == "duplicate" else permissions.EVENT


