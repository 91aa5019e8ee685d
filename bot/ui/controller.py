"""The Discord adapter's core: interactions in, service calls, answers out.

Cogs call the ``Controller``, and every component reaches it through
``bot.ui.handlers.Clicks``; it checks what Discord cannot vouch for, calls the
``TableService``, answers the interaction, and hands the result to the ``Publisher`` with
what publishing may use of the interaction (``Token``) and what the answer showed already
(``Answered``). Nothing below calls back up into it. Decisions:

* **Answered in time, truthfully.** Every handler acknowledges before it touches the
  database or waits for a table's lock (``answers.defer``), and every deferred answer is
  replaced — by the result, or by the one error path (``answers.guarded``). The service
  returns as soon as the user's own change is saved; computer moves follow as events.
* **Never trust a component.** A custom id only names a table: the table must belong to
  the place (scope and channel, ``bot.ui.places``) the click came from (in the bot's own
  DM only a seated player's own moves and pages work), admin rights are those of that
  place, a page of moves is only shown on a private message, and the service re-checks
  seat, turn and version. An id that only looks like ours, or that no item takes, is
  answered as a broken button.
* Public answers (a new table message) are posted as the answer itself; if the request is
  refused the public "thinking…" is deleted and the refusal is said privately. Where
  Discord would show a table message to the asker alone (``places.answers_public``), no
  table is opened, posted or rematched, and the asker is told why.
* A table opens where its place says how it is reached (``Reach``): without the bot
  (installed to a user only) it needs no permission of the bot's, opens no thread, keeps
  its hands in private panels, and its message has a **Refresh** button (``refresh``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

import games
from bot import permissions
from bot.render import renderer
from bot.render.hand import move_for
from bot.render.hint import hint_text
from bot.render.messages import MessageSpec
from bot.render.rules import rules_message
from bot.services.errors import NotSeated, ServiceError
from bot.services.leagues import LeagueService
from bot.services.preferences import PreferenceService
from bot.services.tables import TableResult, TableService, TableStatus
from bot.services.tables.hints import UNRATED
from bot.services.tables.records import OPEN
from bot.ui import custom_ids, places, replays
from bot.ui.answers import defer, guarded, publicly, reply, say, update
from bot.ui.asks import lacking, table_options, table_timer
from bot.ui.cooldown import SLOW_DOWN, Cooldown
from bot.ui.custom_ids import CustomId
from bot.ui.events import EventDesk
from bot.ui.publish import Answered, Publisher, Reach
from bot.ui.views import edit_kwargs
from i18n import N_, _, lazy_gettext
from storage import tables as table_repo
from storage.db import Database

log = logging.getLogger(__name__)

_CONTROLS = frozenset({"join", "leave", "bot", "start", "cancel", "rematch"})
PRIVATE_HERE = N_(
    "Discord shows my answers to you here to you alone (this server has not added me, and"
    " its **Use External Apps** permission is off for you), so nobody else could see this"
    " table. Ask a moderator to allow Use External Apps or to add Deckhand to the server,"
    " or play in a DM or group DM."
)
YOUR_TURN = N_("**It is your turn.**")
NO_TABLES_HERE = N_(
    "Tables open in a server's channel, a DM or a group DM with your friends — not in my"
    " DMs. Try `deckhand play` to play me alone."
)
_SEAT_KINDS = frozenset({"act", "sel", "multi", "page", "hand"})
_NOT_HERE = N_("That button belongs to a table somewhere else; use the buttons of this"
               " channel.")
BROKEN = N_("That button doesn't work (any more); use the buttons of the latest table"
            " message.")
GAME_OVER = N_("That game is over; the buttons of this message no longer work.")
OLD_COPY = N_("This is an old copy of the table; it goes on here: {link}")
LOST = N_(
    "I can't show this table here any more: the install that let me post in this"
    " conversation is gone (whoever added Deckhand removed it, or left). The game is saved"
    " and this click changed nothing. Anyone here who has Deckhand can bring the table back"
    " with `/table status`. Add Deckhand to your account: <{link}>"
)
_THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                      discord.ChannelType.news_thread})
#: The kinds of button a table message carries (a hand's are ``_SEAT_KINDS``).
_TABLE_KINDS = (_CONTROLS - {"rematch"}) | {"hand", "refresh"}


class NoThread(ServiceError):
    """The table was to open in a thread the bot may not make."""


def _private(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is seen only by the clicker (the bot's DM, or
    ephemeral)."""
    message = interaction.message
    return interaction.context.dm_channel is True or (
        message is not None and message.flags.ephemeral
    )


class Controller:
    """Turns interactions into service calls and answers; results go to the ``Publisher``."""

    def __init__(
        self,
        db: Database,
        tables: TableService,
        leagues: LeagueService,
        publisher: Publisher,
        preferences: PreferenceService,
        events: EventDesk,
        cooldown: Cooldown,
        *,
        turn_timer: int,
    ) -> None:
        self.db, self.tables, self.leagues = db, tables, leagues
        self.preferences = preferences
        self.publisher = publisher
        self.events = events
        self.cooldown = cooldown
        self.turn_timer = turn_timer

    # -- components (``bot.ui.handlers.Clicks``) -----------------------------------------------
    async def on_table_click(
        self, interaction: discord.Interaction, cid: CustomId | None, values: list[str]
    ) -> None:
        """Any table button or select: checked against where it was clicked and the
        service, never trusted."""
        if not self.cooldown.allow(interaction.user.id):
            await guarded(interaction, say(interaction, _(SLOW_DOWN)))
        elif cid is None:
            await guarded(interaction, say(interaction, _(BROKEN)))
        elif self.publisher.lost(cid.table_id):
            # Said in the callback itself: no token of this table's install works now.
            link = permissions.user_install_link(str(interaction.application_id))
            await guarded(interaction, say(interaction, _(LOST, link=link)))
        else:
            await guarded(interaction, self._component(interaction, cid, values))

    async def on_event_click(
        self, interaction: discord.Interaction, event_id: int | None, kind: str
    ) -> None:
        """Sign up, Leave or Start on an event's message (``EventDesk``)."""
        if not self.cooldown.allow(interaction.user.id):
            await guarded(interaction, say(interaction, _(SLOW_DOWN)))
        elif event_id is None:
            await guarded(interaction, say(interaction, _(BROKEN)))
        else:
            await guarded(interaction, self.events.on_button(interaction, event_id, kind))

    async def on_replay_click(
        self, interaction: discord.Interaction, match_id: int, step: int, hands: bool
    ) -> None:
        """A replay button: the step it names, checked again (``bot.ui.replays``)."""
        await guarded(interaction, replays.show(interaction, self.db, match_id, step, hands))

    async def on_rules_click(self, interaction: discord.Interaction, game: str, page: int) -> None:
        """◀/▶ on a rules message."""
        await guarded(interaction, self._rules_page(interaction, game, page))

    async def on_stray_click(self, interaction: discord.Interaction) -> None:
        """A component whose id no item takes (not ours, or numbers out of range)."""
        await self.on_table_click(interaction, None, [])

    async def _rules_page(self, interaction: discord.Interaction, game: str, page: int) -> None:
        await defer(interaction, update=True)  # then the page speaks the reader's language
        try:
            spec = rules_message(game, page)
        except games.UnknownGame:
            await say(interaction, _("There is no such game."))
            return
        await update(interaction, spec)

    async def _component(
        self, interaction: discord.Interaction, cid: CustomId, values: list[str]
    ) -> None:
        await defer(interaction, update=True)
        row = await self.db.read(table_repo.get, cid.table_id)
        if row is None:
            await say(interaction, _("That table no longer exists. Open one with `/table new`."))
            return
        place = places.place_of(interaction)  # None: a hand DM, in the bot's own DM
        if (place is None and cid.kind not in _SEAT_KINDS) or (place is not None and (
            row.guild_id != place.scope or row.channel_id != place.channel_id
        )):
            await say(interaction, _(_NOT_HERE))
            return
        channel_id = row.channel_id
        if place is not None and cid.kind in _TABLE_KINDS and row.status in OPEN:
            live = await self.publisher.table.message_id(row.id)
            clicked = interaction.message
            if live is not None and clicked is not None and clicked.id != live:
                where = "@me" if place.private else str(place.scope)
                link = f"https://discord.com/channels/{where}/{channel_id}/{live}"
                await say(interaction, _(OLD_COPY, link=link))
                return
        if place is not None:
            self.publisher.table.clicked(row.id, self.publisher.token(interaction))
        if cid.kind in _CONTROLS:
            await self._control(interaction, cid, channel_id, row.status)
        elif cid.kind == "hand":
            await self.hand(interaction, channel_id)
        elif cid.kind == "refresh":
            await self.refresh(interaction, channel_id)
        elif row.status != TableStatus.PLAYING:
            await say(interaction, _(GAME_OVER))
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

    async def _page(self, interaction: discord.Interaction, cid: CustomId, channel_id: int) -> None:
        if not _private(interaction):
            await say(interaction, _("Press **Your hand** to see your own moves."))
            return
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await say(interaction, _("That is not your seat."))
            return
        if result.version != cid.version:
            await say(interaction,
                      _("That button is from an earlier turn; use the latest message."))
            return
        spec = await self.publisher.hands.of(result, mine, page=int(cid.arg))
        if self._old_dm(interaction):
            await reply(interaction, spec)  # a fresh private page: an old DM is not edited
            return
        await update(interaction, spec)
        if interaction.message is not None:
            token = self.publisher.token(interaction)
            self.publisher.hands.opened(
                result, token, interaction.message.id, spec, original=True
            )

    def _old_dm(self, interaction: discord.Interaction) -> bool:
        """Whether the clicked message is a hand DM too old to edit (30046: posted afresh)."""
        clicked = interaction.message
        return clicked is not None and not clicked.flags.ephemeral and (
            self.publisher.delivery.aged(clicked.id)
        )

    async def _move(
        self, interaction: discord.Interaction, cid: CustomId, channel_id: int, values: list[str]
    ) -> None:
        try:
            move = move_for(cid, values)
        except custom_ids.BadCustomId:
            await say(interaction, _("Pick one move from the menu."))
            return
        try:
            result = await self.tables.act(channel_id, interaction.user.id, move, cid.version)
        except NotSeated:
            await say(interaction, _("That is not your seat."))
            return
        token = self.publisher.token(interaction)
        mine = result.for_user(token.user_id)
        shown = None
        if mine is not None and _private(interaction) and token.message_id is not None and (
            not self._old_dm(interaction)  # else the hand DM is sent afresh (``Hands``)
        ):
            # The click's answer is the clicked hand, shown in turn with its other edits.
            shown = token.message_id
            self.publisher.hands.clicked(result, await self.publisher.hands.of(result, mine), token)
        await self.publisher.publish(
            result, Answered(via=token, actor=token.user_id, hand=shown)
        )

    # -- commands ------------------------------------------------------------------------
    async def new_table(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None,
        league: str | None,
        timer: str | None,
        thread: bool | None = None,
    ) -> None:
        """``/table new``: open a lobby; its message is the answer, or — in a thread of
        its own (``thread``, else the server's default) — the answer links to it. Where
        Deckhand's bot is no member (``Reach.TOKENS``) it needs none of the bot's
        permissions and opens no thread; where Discord would show the lobby to the asker
        alone it opens nothing."""
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
                where, scope, user.id, user.display_name, game,
                table_options(options), turn_timer=seconds, league_id=league_id,
            )
            await self.publisher.placed(result.table_id, place.reach)
            await places.claim(self.db, place, user.id)
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
        on_table = clicked is not None and not _private(interaction)
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
            channel_id, interaction.user.id, is_admin=await places.is_admin(self.db, interaction)
        )
        await self.publisher.placed(result.table_id, place.reach)
        spec = await self.publisher.table.spec(result)
        posted, original = await reply(interaction, spec, ephemeral=False)
        token = self.publisher.token(interaction)
        self.publisher.table.shown(result, spec, posted, token, original=original)
        await self.publisher.publish(result, Answered(via=token, table=True))

    async def refresh(self, interaction: discord.Interaction, channel_id: int) -> None:
        """**Refresh** (at a table only tokens reach) on the live table message: it shows
        the game as it is now — edited, or posted afresh when it is too old to edit
        (``TableMessages.answer_click``) — and the click's token keeps it up to date from
        here; a player whose turn it is gets their hand as well, told so. (A click on an
        old copy never gets here: ``_component`` says where the table is.)"""
        await defer(interaction, update=True)
        result = await self.tables.status(channel_id)
        spec = await self.publisher.table.spec(result)
        token = self.publisher.token(interaction)
        if result.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            await say(interaction, _(GAME_OVER))
            return
        await self.publisher.table.answer_click(result, spec, token)
        mine = result.for_user(token.user_id)
        if mine is not None and mine.legal and result.status is TableStatus.PLAYING:
            hand = await self.publisher.hands.of(result, mine)
            turn = f"{_(YOUR_TURN)}\n{hand.content}"
            await self._panel(interaction, result, replace(hand, content=turn))

    async def hand(self, interaction: discord.Interaction, channel_id: int) -> None:
        """The caller's hand, privately, with their move components."""
        await defer(interaction)
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await say(
                interaction,
                _("The game has not started yet.") if result.status is TableStatus.LOBBY
                else _("You are not playing at this table."),
            )
            return
        await self._panel(interaction, result, await self.publisher.hands.of(result, mine))

    async def _panel(
        self, interaction: discord.Interaction, result: TableResult, spec: MessageSpec
    ) -> None:
        """Answer with the caller's hand privately; in the channel it becomes their panel
        (kept up to date while its token lasts)."""
        message_id, original = await reply(interaction, spec)
        token = self.publisher.token(interaction)
        self.publisher.hands.opened(result, token, message_id, spec, original=original)

    async def play(self, interaction: discord.Interaction, channel_id: int, move: str) -> None:
        """``/play move``: the move is checked by the engine; answer with the new hand."""
        await defer(interaction)
        result = await self.tables.act(channel_id, interaction.user.id, move)
        mine = result.for_user(interaction.user.id)
        if mine is not None:
            await self._panel(interaction, result, await self.publisher.hands.of(result, mine))
        else:
            await say(interaction, _("Done."))
        token = self.publisher.token(interaction)
        await self.publisher.publish(result, Answered(via=token, actor=token.user_id))

    async def hint(self, interaction: discord.Interaction, channel_id: int) -> None:
        """``/hint``: the move the expert would make for the caller, and why (privately;
        the service refuses it where ``hints.check_hint`` says). At an unrated table the
        answer says so; the hint that made it unrated also updates the table message."""
        await defer(interaction)
        result, advice, first = await self.tables.hint(channel_id, interaction.user.id)
        await say(interaction, hint_text(result.game, advice)
                  + (f"\n{_(UNRATED)}" if result.unrated else ""))
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
