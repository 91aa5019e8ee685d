"""The Discord adapter's core: interactions in, service calls, answers out.

Cogs and DynamicItems call the ``Controller``; it checks what Discord cannot vouch for,
calls the ``TableService`` and hands results to the ``Publisher``. Decisions:

* **Answered in time, truthfully.** Every handler acknowledges before it touches the
  database or waits for a table's lock (``answers.defer``), and every deferred answer is
  replaced — by the result, or by the one error path (``answers.guarded``). The service
  returns as soon as the user's own change is saved; computer moves follow as events.
* **Never trust a component.** A custom id only names a table: the table must belong to
  the guild and channel the click came from (in a DM only a seated player's own moves and
  pages work), admin rights are those of the table's guild, a page of moves is only shown
  on a private message, and the service re-checks seat, turn and version.
* Public answers (a new table message) are posted as the answer itself; if the request is
  refused the public "thinking…" is deleted and the refusal is said privately.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

import games
from bot.render import renderer
from bot.render.messages import (
    MessageSpec,
    hint_text,
    move_for,
    option_pairs,
    rules_message,
)
from bot.services.errors import BadOptions, NotSeated, ServiceError
from bot.services.leagues import LeagueService
from bot.services.preferences import PreferenceService
from bot.services.tables import TableResult, TableService, TableStatus
from bot.services.tables.hints import UNRATED
from bot.ui import custom_ids, replays
from bot.ui.answers import defer, publicly, say
from bot.ui.custom_ids import CustomId
from bot.ui.publisher import Publisher
from bot.ui.views import edit_kwargs, send_kwargs
from storage import tables as table_repo
from storage.db import Database

log = logging.getLogger(__name__)

_CONTROLS = frozenset({"join", "leave", "bot", "start", "cancel", "rematch"})
_SEAT_KINDS = frozenset({"act", "sel", "multi", "page", "hand"})
#: What the bot needs in a channel to run a table there.
TABLE_NEEDED = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
THREAD_NEEDED = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
_NOT_HERE = "That button belongs to a table somewhere else; use the buttons of this channel."


class NoThread(ServiceError):
    """The table was to open in a thread the bot may not make."""


def missing(interaction: discord.Interaction, needed: discord.Permissions) -> str:
    """The permissions of ``needed`` the bot lacks here, in words ("" when none)."""
    names = [
        name.replace("_", " ").title() for name, wanted in needed
        if wanted and not getattr(interaction.app_permissions, name)
    ]
    if not names:
        return ""
    return f"the {', '.join(names)} permission{'s' if len(names) > 1 else ''}"


def table_options(options: str | None) -> dict[str, str]:
    """``name=value`` options as a mapping (refused plainly when malformed)."""
    try:
        return option_pairs(options or "")
    except ValueError as exc:
        raise BadOptions(str(exc)) from None


def is_admin(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def _private(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is seen only by the clicker (a DM or ephemeral)."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


class Controller:
    """Turns interactions into service calls; results go to the ``Publisher``."""

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
        self.preferences = preferences
        self.publisher = publisher
        self.turn_timer = turn_timer

    async def _post_table(
        self, interaction: discord.Interaction, call: Callable[[], Awaitable[TableResult]]
    ) -> TableResult | None:
        """Answer publicly with the table message of ``call``'s result (it becomes the
        live one)."""
        done: list[TableResult] = []
        spec_of: list[MessageSpec] = []

        async def work() -> dict[str, Any]:
            result = await call()
            done.append(result)
            spec_of.append(self.publisher.table_spec(result))
            return edit_kwargs(spec_of[0])

        message = await publicly(interaction, work)
        if message is None:
            return None
        live = done[0].status in (TableStatus.LOBBY, TableStatus.PLAYING)
        self.publisher.shown_in(done[0], spec_of[0], message.id if live else None, interaction)
        return done[0]

    # -- commands ------------------------------------------------------------------------
    async def new_table(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None,
        league: str | None,
        timer_minutes: int | None,
        thread: bool | None = None,
    ) -> None:
        """``/table new``: open a lobby; its message is the answer, or — in a thread of
        its own (``thread``, else the server's default) — the answer links to it."""
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await say(interaction, "Open tables in a server channel, not in DMs.")
            return
        lacking = missing(interaction, TABLE_NEEDED)
        if lacking:
            await say(interaction, f"I can't run a table in this channel: I need {lacking} here.")
            return
        user = interaction.user
        timer = self.turn_timer if timer_minutes is None else timer_minutes * 60

        async def create(where: int) -> TableResult:
            league_id = None
            if league:
                league_id = (await self.leagues.league_for_table(guild_id, league, game)).id
            return await self.tables.create(
                where, guild_id, user.id, user.display_name, game,
                table_options(options), turn_timer=timer, league_id=league_id,
            )

        done: list[tuple[TableResult, MessageSpec, bool]] = []

        async def work() -> dict[str, Any]:
            target = await self._thread_for(interaction, guild_id, game, options, timer, thread)
            result = await create(target.id if target is not None else channel_id)
            spec = self.publisher.table_spec(result)
            done.append((result, spec, target is None))
            if target is None:
                return edit_kwargs(spec)
            posted = await target.send(**send_kwargs(spec))
            self.publisher.shown_in(result, spec, posted.id)
            return {
                "content": f"**{result.title}** table opened by {user.mention} in"
                f" {target.mention}: join it there.",
                "embed": None,
                "view": None,
            }

        message = await publicly(interaction, work)
        if message is None:
            return
        result, spec, here = done[0]
        if here:
            self.publisher.shown_in(result, spec, message.id, interaction)
        await self.publisher.welcome(result, user.id, interaction)

    async def _thread_for(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        game: str,
        options: str | None,
        timer: int,
        thread: bool | None,
    ) -> discord.Thread | None:
        """The new public thread a table opens in, or None for this channel (asked for no
        thread, the server's default is none, or this is a thread already)."""
        parent = interaction.channel
        if thread is False or not isinstance(parent, discord.TextChannel):
            return None
        if thread is None and not (await self.preferences.server(guild_id)).threads:
            return None
        lacking = missing(interaction, THREAD_NEEDED)
        if lacking:
            raise NoThread(
                f"I can't open the table in a thread here: I need {lacking} in this channel."
                " Open it without `thread`, or ask an admin to grant it."
            )
        self.tables.check_new(guild_id, interaction.user.id, game, table_options(options),
                              turn_timer=timer)
        title = games.get(game).title
        name = f"{title} — {interaction.user.display_name}"[:100]
        return await parent.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440,
        )

    async def status(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Post the table message again at the bottom of the channel (it becomes the live
        one; the old one is deleted)."""
        old = None

        async def current() -> TableResult:
            nonlocal old
            result = await self.tables.status(channel_id)
            old = await self.publisher.table_message_id(result.table_id)
            return result

        result = await self._post_table(interaction, current)
        if result is not None and old is not None:
            live = result.status in (TableStatus.LOBBY, TableStatus.PLAYING)
            if live:
                await self.publisher.outbox.delete(channel_id, old)

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
        on_table = clicked is not None and not _private(interaction)
        await defer(interaction, update=on_table)
        result = await call()
        spec = self.publisher.table_spec(result)
        stored = await self.publisher.table_message_id(result.table_id)
        if on_table and clicked is not None and clicked.id == stored:
            await interaction.edit_original_response(**edit_kwargs(spec))
            self.publisher.shown_in(result, spec, clicked.id, interaction)
        else:
            if not on_table:
                await say(interaction, result.message or done)
            self.publisher.update_table(result, spec)
        if welcome:
            await self.publisher.welcome(result, interaction.user.id, interaction)
        if result.status is not TableStatus.LOBBY:
            await self.publisher.publish(result, interaction=interaction, table_shown=True)

    async def join(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Join the lobby (button or ``/table join``), then check DMs."""
        user = interaction.user
        await self._change(
            interaction, lambda: self.tables.join(channel_id, user.id, user.display_name),
            done="You joined the table.", welcome=True,
        )

    async def leave(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Leave a lobby, or hand a running seat to a computer player."""
        await self._change(
            interaction, lambda: self.tables.leave(channel_id, interaction.user.id),
            done="You left the table.",
        )

    async def add_bot(self, interaction: discord.Interaction, channel_id: int, level: str) -> None:
        """Seat a computer player."""
        await self._change(
            interaction,
            lambda: self.tables.add_bot(
                channel_id, interaction.user.id, level, is_admin=is_admin(interaction)
            ),
            done="A computer player sat down.",
        )

    async def kick(
        self, interaction: discord.Interaction, channel_id: int, target: discord.abc.User
    ) -> None:
        """Remove a player from the lobby (host or Manage Server)."""
        await self._change(
            interaction,
            lambda: self.tables.kick(
                channel_id, interaction.user.id, target.id, is_admin=is_admin(interaction)
            ),
            done="Removed from the table.",
        )

    async def abort(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Close the table without a result (host or Manage Server)."""
        await self._change(
            interaction,
            lambda: self.tables.abort(
                channel_id, interaction.user.id, is_admin=is_admin(interaction)
            ),
            done="The table was closed.",
        )

    async def start(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Deal; the computer players move on their own from here."""
        await self._change(
            interaction,
            lambda: self.tables.start(
                channel_id, interaction.user.id, is_admin=is_admin(interaction)
            ),
            done="Started.",
        )

    async def rematch(self, interaction: discord.Interaction, channel_id: int) -> None:
        """A new game with the same seats: a new table message, new hands."""
        await defer(interaction, update=True)
        result = await self.tables.rematch(
            channel_id, interaction.user.id, is_admin=is_admin(interaction)
        )
        spec = self.publisher.table_spec(result)
        posted = await interaction.followup.send(wait=True, **send_kwargs(spec))
        self.publisher.shown_in(result, spec, posted.id, interaction, original=False)
        await self.publisher.publish(result, interaction=interaction, table_shown=True)

    async def hand(self, interaction: discord.Interaction, channel_id: int) -> None:
        """The caller's hand, privately, with their move components."""
        await defer(interaction)
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await say(
                interaction,
                "The game has not started yet." if result.status is TableStatus.LOBBY
                else "You are not playing at this table.",
            )
            return
        await self._panel(interaction, result, await self.publisher.my_hand(result, mine))

    async def _panel(
        self, interaction: discord.Interaction, result: TableResult, spec: MessageSpec
    ) -> None:
        """Answer with the caller's hand privately; in the channel it becomes their panel
        (kept up to date while its token lasts)."""
        sent = await interaction.followup.send(ephemeral=True, wait=True, **send_kwargs(spec))
        original = interaction.type is discord.InteractionType.application_command
        self.publisher.opened_panel(result, interaction, sent.id, spec, original=original)

    async def play(self, interaction: discord.Interaction, channel_id: int, move: str) -> None:
        """``/play move``: the move is checked by the engine; answer with the new hand."""
        await defer(interaction)
        result = await self.tables.act(channel_id, interaction.user.id, move)
        mine = result.for_user(interaction.user.id)
        if mine is not None:
            await self._panel(interaction, result, await self.publisher.my_hand(result, mine))
        else:
            await say(interaction, "Done.")
        await self.publisher.publish(result, actor=interaction.user.id, interaction=interaction)

    async def hint(self, interaction: discord.Interaction, channel_id: int) -> None:
        """``/hint``: the move the expert would make for the caller, and why (privately;
        the service refuses it where ``hints.check_hint`` says). At an unrated table the
        answer says so; the hint that made it unrated also updates the table message."""
        await defer(interaction)
        result, advice, first = await self.tables.hint(channel_id, interaction.user.id)
        await say(interaction, hint_text(result.game, advice)
                  + (f"\n{UNRATED}" if result.unrated else ""))
        if first:
            await self.publisher.publish(result)

    async def move_choices(
        self, interaction: discord.Interaction, channel_id: int, typed: str
    ) -> list[tuple[str, str]]:
        """``(label, move)`` of the caller's legal moves matching ``typed`` (≤ 25); answered
        from the cached table, without waiting for any lock."""
        try:
            result = await self.tables.status(channel_id)
        except ServiceError:
            return []
        mine = result.for_user(interaction.user.id)
        if mine is None or result.status is not TableStatus.PLAYING:
            return []
        label = renderer(result.game).action_label
        needle = typed.strip().lower()[:100]
        out = [
            (label(a)[:100], a)
            for a in mine.legal
            if len(a) <= 100 and (needle in a.lower() or needle in label(a).lower())
        ]
        return out[:25]

    # -- components ----------------------------------------------------------------------
    async def on_component(
        self, interaction: discord.Interaction, cid: CustomId, values: list[str]
    ) -> None:
        """Any table button or select: checked against where it was clicked and the
        service, never trusted."""
        await defer(interaction, update=True)
        row = await self.db.read(table_repo.get, cid.table_id)
        if row is None:
            await say(interaction, "That table no longer exists. Open one with `/table new`.")
            return
        in_dm = interaction.guild_id is None
        if (in_dm and cid.kind not in _SEAT_KINDS) or (not in_dm and (
            row.guild_id != interaction.guild_id or row.channel_id != interaction.channel_id
        )):
            await say(interaction, _NOT_HERE)
            return
        channel_id = row.channel_id
        if not in_dm:
            self.publisher.clicked(row.id, interaction)
        if cid.kind in _CONTROLS:
            await self._control(interaction, cid, channel_id, row.status)
        elif cid.kind == "hand":
            await self.hand(interaction, channel_id)
        elif row.status != TableStatus.PLAYING:
            await say(interaction, "That game is over; the buttons of this message no longer work.")
        elif cid.kind == "page":
            await self._page(interaction, cid, channel_id)
        else:
            await self._move(interaction, cid, channel_id, values)

    async def _control(
        self, interaction: discord.Interaction, cid: CustomId, channel_id: int, status: str
    ) -> None:
        if cid.kind == "rematch":
            await self.rematch(interaction, channel_id)
            return
        if status != TableStatus.LOBBY:
            await say(interaction, "That lobby has closed; use the latest table message.")
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

    async def _page(self, interaction: discord.Interaction, cid: CustomId, channel_id: int) -> None:
        if not _private(interaction):
            await say(interaction, "Press **Your hand** to see your own moves.")
            return
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await say(interaction, "That is not your seat.")
            return
        if result.version != cid.version:
            await say(interaction, "That button is from an earlier turn; use the latest message.")
            return
        spec = await self.publisher.my_hand(result, mine, page=int(cid.arg))
        await interaction.edit_original_response(**edit_kwargs(spec))
        if interaction.message is not None:
            self.publisher.opened_panel(
                result, interaction, interaction.message.id, spec, original=True
            )

    async def _move(
        self, interaction: discord.Interaction, cid: CustomId, channel_id: int, values: list[str]
    ) -> None:
        try:
            move = move_for(cid, values)
        except custom_ids.BadCustomId:
            await say(interaction, "Pick one move from the menu.")
            return
        try:
            result = await self.tables.act(channel_id, interaction.user.id, move, cid.version)
        except NotSeated:
            await say(interaction, "That is not your seat.")
            return
        mine = result.for_user(interaction.user.id)
        clicked = None
        if mine is not None and _private(interaction) and interaction.message is not None:
            clicked = interaction.message.id
            spec = await self.publisher.my_hand(result, mine)
            self.publisher.clicked_hand(interaction, result, spec)
        await self.publisher.publish(
            result, actor=interaction.user.id, updated_message=clicked, interaction=interaction
        )

    async def on_replay(
        self, interaction: discord.Interaction, match_id: int, step: int, hands: bool
    ) -> None:
        """A replay button: the step it names, checked again (``bot.ui.replays``)."""
        await replays.show(interaction, self.db, match_id, step, hands)

    async def on_rules_page(self, interaction: discord.Interaction, game: str, page: int) -> None:
        """◀/▶ on a rules message."""
        try:
            spec = rules_message(game, page)
        except games.UnknownGame:
            await say(interaction, "There is no such game.")
            return
        await interaction.response.edit_message(**edit_kwargs(spec))
