"""The Discord adapter's core: interactions in, service calls, messages out.

Cogs and DynamicItems call the ``Controller``; it calls the ``TableService`` and then
``publish``es the result:

* the public table message (one per table, its id stored in ``storage.messages``) is
  re-rendered from the result's public part and edited through a ``Coalescer`` (one edit
  in flight per table, the latest state wins); a deleted message is re-posted, a deleted
  channel closes the table;
* each human's hand DM is edited only when their private part changed, and never from
  anyone else's data; the player who clicked gets theirs through the interaction (free
  of the global rate limit);
* a player whose turn it becomes gets a short "Your turn" DM only when they have not
  moved at this table for ``ping_after`` seconds (someone playing along needs no ping, and
  each ping costs two globally limited calls); the previous one is deleted, so DMs do not
  pile up;
* a DM refused with 50007 is announced once per table in the channel; that player uses
  the ephemeral *Your hand* view instead.

Every interaction is answered within Discord's 3 s: quick lobby changes answer directly,
anything that may wait for computer players defers first. Errors are ephemeral.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

import discord

import games
from bot.discord_io import Coalescer, Gone, Outbox
from bot.render import renderer
from bot.render.messages import (
    EventLog,
    MessageSpec,
    hand_message,
    move_for,
    option_pairs,
    rules_message,
    table_message,
)
from bot.services import ratings
from bot.services.errors import NotSeated, ServiceError
from bot.services.leagues import LeagueError, LeagueService
from bot.services.tables import Reminder, Step, TableResult, TableService
from bot.ui import custom_ids
from bot.ui.custom_ids import CustomId
from bot.ui.views import edit_kwargs, send_kwargs
from storage import leagues as league_repo
from storage import messages as refs
from storage import tables as table_repo
from storage.db import Database

log = logging.getLogger(__name__)

OPEN_DMS_HELP = (
    "open your DMs for this server (server name → Privacy Settings → Direct Messages) and "
    "press **Your hand**, or use the **Your hand** button on the table meanwhile"
)
_STATUS_ORDER = {"lobby": 0, "playing": 1, "finished": 2, "aborted": 2}
_CONTROLS = frozenset({"join", "leave", "bot", "start", "cancel", "rematch"})


@dataclass
class _Seen:
    """What the adapter last showed of a table."""

    order: tuple[int, int] = (-1, -1)
    logged_version: int = 0
    to_act_users: frozenset[int] = frozenset()
    hands: dict[int, str] | None = None
    #: When each user last moved at this table (for the "been away" ping rule).
    last_move: dict[int, float] = field(default_factory=dict)


def _is_admin(interaction: discord.Interaction) -> bool:
    return bool(interaction.guild_id) and interaction.permissions.manage_guild


def _name(user: discord.abc.User) -> str:
    return user.display_name


async def _say(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class Controller:
    """Turns interactions into service calls and results into Discord messages."""

    def __init__(
        self,
        client: discord.Client,
        db: Database,
        tables: TableService,
        leagues: LeagueService,
        *,
        turn_timer: int,
        show_steps: bool,
        ping_after: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.ping_after = ping_after
        self._clock = clock
        self.db = db
        self.tables = tables
        self.leagues = leagues
        self.turn_timer = turn_timer
        self.step_hook = self.on_step if show_steps else None
        self._shown: dict[int, MessageSpec] = {}
        self.outbox = Outbox(client)
        self.edits = Coalescer()
        self._seen: dict[int, _Seen] = {}
        self._events: dict[int, EventLog] = {}
        self._ratings_before: dict[int, dict[int, float]] = {}

    async def close(self) -> None:
        """Stop pending message updates."""
        await self.edits.close()

    # -- publishing ---------------------------------------------------------------------------
    def _seen_of(self, table_id: int) -> _Seen:
        return self._seen.setdefault(table_id, _Seen())

    def _log_events(self, result: TableResult) -> list[str]:
        seen = self._seen_of(result.table_id)
        log_ = self._events.setdefault(result.table_id, EventLog())
        fresh = [s for s in result.steps if s.version > seen.logged_version]
        if fresh:
            seen.logged_version = max(s.version for s in fresh)
            log_.add(_with_steps(result, fresh))
        return list(log_.lines)

    async def on_step(self, result: TableResult) -> None:
        """Service hook for each computer move: refresh the table message only (cheap; it
        runs under the table's lock)."""
        self._update_table(result, self._log_events(result), "")

    def _update_table(self, result: TableResult, events: Sequence[str], league: str) -> None:
        seen = self._seen_of(result.table_id)
        order = (_STATUS_ORDER.get(result.status, 2), result.version)
        if order < seen.order:
            return
        seen.order = order
        timed_out = any(step.by == "timeout" for step in result.steps)
        spec = table_message(
            result, events, league_line=league, note=result.message if timed_out else ""
        )

        async def job() -> None:
            await self._show_table(result, spec)

        self.edits.submit(("table", result.table_id), job)

    async def _show_table(self, result: TableResult, spec: MessageSpec) -> None:
        if self._shown.get(result.table_id) == spec:
            return
        ref = await refs.get(self.db, result.table_id, refs.TABLE)
        sent = await self.outbox.edit_or_repost(
            result.channel_id, ref.message_id if ref else None, spec
        )
        if sent.gone is Gone.CHANNEL:
            await self._channel_gone(result)
            return
        if result.status in ("lobby", "playing"):
            self._shown[result.table_id] = spec
        else:
            self._shown.pop(result.table_id, None)
        if sent.message_id is not None and (ref is None or ref.message_id != sent.message_id):
            await refs.put(self.db, result.table_id, refs.TABLE, result.channel_id, sent.message_id)

    async def _channel_gone(self, result: TableResult) -> None:
        log.info("channel %s of table %s is gone; closing it", result.channel_id, result.table_id)
        if result.status in ("lobby", "playing"):
            try:
                await self.tables.abort(result.channel_id, result.host_id, is_admin=True)
            except ServiceError as exc:
                log.info("closing table %s: %s", result.table_id, exc)
        await refs.forget(self.db, result.table_id, refs.TABLE)

    async def publish(
        self,
        result: TableResult,
        *,
        actor: int | None = None,
        updated_message: int | None = None,
        interaction: discord.Interaction | None = None,
        table_shown: bool = False,
    ) -> None:
        """Show a result: the table message, changed hands, turn pings, notices.

        ``updated_message`` is a hand message the caller already edited for ``actor``;
        ``table_shown`` says the caller already showed the table message.
        """
        events = self._log_events(result)
        league = await self._league_line(result)
        if not table_shown:
            self._update_table(result, events, league)
        seen = self._seen_of(result.table_id)
        if seen.hands is None:
            seen.hands = {}
        mention = f"<#{result.channel_id}>"
        for mine in result.private.values():
            # Only a changed hand or changed moves is worth a DM edit (a running total or
            # whose turn it is elsewhere is on the table message).
            signature = repr((mine.view.get("hand"), mine.legal, result.status))
            if seen.hands.get(mine.user_id) == signature:
                continue
            seen.hands[mine.user_id] = signature
            spec = hand_message(result, mine, mention)
            ref = await refs.get(self.db, result.table_id, refs.HAND, mine.user_id)
            if mine.user_id == actor and ref is not None and ref.message_id == updated_message:
                continue
            if await refs.noted(self.db, result.table_id, mine.user_id, refs.DM_CLOSED):
                continue
            self._submit_hand(result, mine.user_id, spec, interaction)
        now = frozenset(
            p.user_id for p in result.private.values() if result.status == "playing" and p.legal
        )
        moment = self._clock()
        if actor is not None:
            seen.last_move[actor] = moment
        for user_id in now - seen.to_act_users - {actor}:
            last = seen.last_move.get(user_id)
            if last is not None and moment - last < self.ping_after:
                continue
            await self._ping(
                result, user_id, f"Your turn in {mention} ({result.title}).", interaction
            )
        seen.to_act_users = now
        if result.status in ("finished", "aborted"):
            if result.status == "aborted":
                await self._close_hands(result)
            self._seen.pop(result.table_id, None)
            self._events.pop(result.table_id, None)
            self._ratings_before.pop(result.table_id, None)

    def _submit_hand(
        self,
        result: TableResult,
        user_id: int,
        spec: MessageSpec,
        interaction: discord.Interaction | None,
    ) -> None:
        async def job() -> None:
            await self._show_hand(result, user_id, spec, interaction)

        self.edits.submit(("hand", result.table_id, user_id), job)

    async def _show_hand(
        self,
        result: TableResult,
        user_id: int,
        spec: MessageSpec,
        interaction: discord.Interaction | None,
    ) -> None:
        ref = await refs.get(self.db, result.table_id, refs.HAND, user_id)
        if ref is not None:
            self.outbox.remember_dm(user_id, ref.channel_id)
            sent = await self.outbox.edit(ref.channel_id, ref.message_id, spec)
            if sent.gone is None:
                return
        sent = await self.outbox.send_dm(user_id, spec)
        if sent.gone is Gone.DMS_CLOSED:
            await self._dms_closed(result, user_id, interaction)
        elif sent.message_id is not None:
            await refs.put(
                self.db, result.table_id, refs.HAND, sent.channel_id, sent.message_id, user_id
            )

    async def _dms_closed(
        self, result: TableResult, user_id: int, interaction: discord.Interaction | None
    ) -> None:
        if not await refs.note(self.db, result.table_id, user_id, refs.DM_CLOSED):
            return
        text = f"<@{user_id}>, I can't send you your hand by DM: {OPEN_DMS_HELP}."
        await self._public_notice(result.channel_id, text, interaction)

    async def _public_notice(
        self, channel_id: int, text: str, interaction: discord.Interaction | None
    ) -> None:
        mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        if interaction is not None and interaction.channel_id == channel_id:
            try:
                await interaction.followup.send(text, allowed_mentions=mentions)
                return
            except discord.HTTPException:
                log.info("notice by followup failed; posting it in the channel")
        await self.outbox.send(channel_id, MessageSpec(content=text))

    async def _ping(
        self, result: TableResult, user_id: int, text: str, interaction: discord.Interaction | None
    ) -> None:
        if await refs.noted(self.db, result.table_id, user_id, refs.DM_CLOSED):
            return
        old = await refs.get(self.db, result.table_id, refs.PING, user_id)
        sent = await self.outbox.send_dm(user_id, MessageSpec(content=text))
        if sent.gone is Gone.DMS_CLOSED:
            await self._dms_closed(result, user_id, interaction)
            return
        if sent.message_id is None:
            return
        await refs.put(
            self.db, result.table_id, refs.PING, sent.channel_id, sent.message_id, user_id
        )
        if old is not None:
            await self.outbox.delete(old.channel_id, old.message_id)

    async def _close_hands(self, result: TableResult) -> None:
        closed = MessageSpec(
            content=f"**{result.title}** in <#{result.channel_id}> — this table was closed."
        )
        for ref in await refs.for_table(self.db, result.table_id):
            if ref.kind == refs.HAND:
                self.edits.submit(
                    ("hand", result.table_id, ref.user_id),
                    lambda ref=ref: self._edit_quietly(ref, closed),  # type: ignore[misc]
                )

    async def _edit_quietly(self, ref: refs.MessageRef, spec: MessageSpec) -> None:
        await self.outbox.edit(ref.channel_id, ref.message_id, spec)

    async def _league_line(self, result: TableResult) -> str:
        """Ratings of the humans in the guild's default league (with the change since the
        game started, when this process saw the start)."""
        users = [s.user_id for s in result.seats if s.user_id is not None]
        if not users or result.guild_id == 0 or result.status not in ("playing", "finished"):
            return ""
        if result.status == "playing":
            if result.table_id not in self._ratings_before:
                self._ratings_before[result.table_id] = await self._ratings(result, users)
            return ""
        after = await self._ratings(result, users)
        before = self._ratings_before.get(result.table_id, {})
        parts = []
        for s in result.seats:
            if s.user_id is None or s.user_id not in after:
                continue
            shown = ratings.display(after[s.user_id])
            if s.user_id in before:
                delta = shown - ratings.display(before[s.user_id])
                parts.append(f"{s.name} {shown} ({delta:+d})")
            else:
                parts.append(f"{s.name} {shown}")
        if not parts:
            return "This game did not count toward the league."
        return "Ratings: " + " · ".join(parts) + " — see /league standings"

    async def _ratings(self, result: TableResult, users: list[int]) -> dict[int, float]:
        league = await self.leagues.league(result.guild_id)
        totals = await league_repo.load_players(
            self.db.reads, league.id, league.season, result.game, users
        )
        return {u: p.ordinal for u, p in totals.items()}

    async def on_timer(self, event: Reminder | TableResult) -> None:
        """Turn-timer callback: remind at half-time, show moves made for absent players."""
        if isinstance(event, TableResult):
            await self.publish(event)
            return
        row = await table_repo.get(self.db, event.table_id)
        if row is None:
            return
        result = await self.tables.status(event.channel_id)
        for user_id in event.user_ids:
            text = (
                f"⏰ Half your time is gone at the {result.title} table in "
                f"<#{event.channel_id}>: move <t:{int(event.deadline)}:R> or the "
                "computer plays for you."
            )
            if await refs.noted(self.db, event.table_id, user_id, refs.DM_CLOSED):
                await self.outbox.send(
                    event.channel_id, MessageSpec(content=f"<@{user_id}> {text}")
                )
            else:
                await self._ping(result, user_id, text, None)

    # -- DMs at join ---------------------------------------------------------------------------
    async def welcome(
        self, result: TableResult, user: discord.abc.User, interaction: discord.Interaction
    ) -> None:
        """The DM check at join: a DM that will become the hand, or the fallback notice."""
        spec = MessageSpec(
            content=(
                f"You joined the **{result.title}** table in <#{result.channel_id}>. "
                "Your hand will appear here when the game starts."
            )
        )
        sent = await self.outbox.send_dm(user.id, spec)
        if sent.gone is Gone.DMS_CLOSED:
            await self._dms_closed(result, user.id, interaction)
        elif sent.message_id is not None:
            await refs.clear_note(self.db, result.table_id, user.id, refs.DM_CLOSED)
            await refs.put(
                self.db, result.table_id, refs.HAND, sent.channel_id, sent.message_id, user.id
            )

    # -- commands ------------------------------------------------------------------------------
    async def new_table(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None,
        league: str | None,
        timer_minutes: int | None,
    ) -> None:
        """``/table new``: open a lobby and post its message."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await _say(interaction, "Open tables in a server channel, not in DMs.")
            return
        try:
            opts = option_pairs(options or "")
            league_id = None
            if league:
                league_id = (
                    await self.leagues.league_for_table(interaction.guild_id, league, game)
                ).id
            timer = self.turn_timer if timer_minutes is None else timer_minutes * 60
            result = await self.tables.create(
                interaction.channel_id,
                interaction.guild_id,
                interaction.user.id,
                _name(interaction.user),
                game,
                opts,
                turn_timer=timer,
                league_id=league_id,
            )
        except (ServiceError, LeagueError, ValueError) as exc:
            await _say(interaction, str(exc))
            return
        answer = await interaction.response.send_message(**send_kwargs(table_message(result)))
        if answer.message_id is not None:
            await refs.put(
                self.db, result.table_id, refs.TABLE, result.channel_id, answer.message_id
            )
        self._seen_of(result.table_id).order = (0, 0)
        await self.welcome(result, interaction.user, interaction)

    async def _lobby_change(
        self,
        interaction: discord.Interaction,
        call: Callable[[], Awaitable[TableResult]],
        *,
        welcome: bool = False,
    ) -> None:
        """A quick lobby change: answer by editing the clicked lobby message (free), or
        ephemerally when it came from a slash command."""
        try:
            result = await call()
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return
        spec = table_message(result, self._events.get(result.table_id, EventLog()).lines)
        ref = await refs.get(self.db, result.table_id, refs.TABLE)
        clicked = interaction.message
        if clicked is not None and ref is not None and clicked.id == ref.message_id:
            self._seen_of(result.table_id).order = (_STATUS_ORDER[result.status], result.version)
            self._shown[result.table_id] = spec
            await interaction.response.edit_message(**edit_kwargs(spec))
        else:
            await interaction.response.send_message(result.message or "Done.", ephemeral=True)
            self._update_table(result, (), "")
        if welcome:
            await self.welcome(result, interaction.user, interaction)
        if result.status != "lobby":
            await self.publish(result, interaction=interaction, table_shown=True)

    async def _slow(
        self,
        interaction: discord.Interaction,
        call: Callable[[], Awaitable[TableResult]],
        *,
        ephemeral_done: str | None = None,
    ) -> TableResult | None:
        """Defer, run a call that may wait for computer players, publish its result."""
        if not interaction.response.is_done():
            if interaction.message is not None:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await call()
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return None
        if ephemeral_done is not None:
            await interaction.followup.send(result.message or ephemeral_done, ephemeral=True)
        await self.publish(result, interaction=interaction)
        return result

    async def join(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Join the lobby (button or ``/table join``), then check DMs."""
        await self._lobby_change(
            interaction,
            lambda: self.tables.join(channel_id, interaction.user.id, _name(interaction.user)),
            welcome=True,
        )

    async def leave(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Leave a lobby, or hand a running seat to a computer player."""
        status = await self._status_or_none(channel_id)
        if status is not None and status.status == "playing":
            await self._slow(
                interaction,
                lambda: self.tables.leave(channel_id, interaction.user.id, on_step=self.step_hook),
                ephemeral_done="You left the table.",
            )
            return
        await self._lobby_change(
            interaction, lambda: self.tables.leave(channel_id, interaction.user.id)
        )

    async def add_bot(self, interaction: discord.Interaction, channel_id: int, level: str) -> None:
        """Seat a computer player."""
        await self._lobby_change(
            interaction,
            lambda: self.tables.add_bot(
                channel_id, interaction.user.id, level, is_admin=_is_admin(interaction)
            ),
        )

    async def kick(
        self, interaction: discord.Interaction, channel_id: int, target: discord.abc.User
    ) -> None:
        """Remove a player from the lobby (host or Manage Server)."""
        await self._lobby_change(
            interaction,
            lambda: self.tables.kick(
                channel_id, interaction.user.id, target.id, is_admin=_is_admin(interaction)
            ),
        )

    async def abort(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Close the table without a result (host or Manage Server)."""
        await self._lobby_change(
            interaction,
            lambda: self.tables.abort(
                channel_id, interaction.user.id, is_admin=_is_admin(interaction)
            ),
        )

    async def start(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Deal and let the computer players move."""
        await self._slow(
            interaction,
            lambda: self.tables.start(
                channel_id,
                interaction.user.id,
                is_admin=_is_admin(interaction),
                on_step=self.step_hook,
            ),
            ephemeral_done=None if interaction.message else "Started.",
        )

    async def rematch(self, interaction: discord.Interaction, channel_id: int) -> None:
        """A new game with the same seats: a new table message, new hands."""
        await interaction.response.defer()
        try:
            result = await self.tables.rematch(
                channel_id,
                interaction.user.id,
                is_admin=_is_admin(interaction),
                on_step=self.step_hook,
            )
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return
        posted = await interaction.followup.send(
            wait=True, **send_kwargs(table_message(result, self._log_events(result)))
        )
        await refs.put(self.db, result.table_id, refs.TABLE, result.channel_id, posted.id)
        await self.publish(result, interaction=interaction)

    async def status(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Post the table message again at the bottom of the channel (it becomes the live
        one; the old one is deleted)."""
        try:
            result = await self.tables.status(channel_id)
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return
        events = self._events.get(result.table_id, EventLog()).lines
        answer = await interaction.response.send_message(
            **send_kwargs(table_message(result, events))
        )
        if result.status not in ("lobby", "playing") or answer.message_id is None:
            return
        old = await refs.get(self.db, result.table_id, refs.TABLE)
        await refs.put(self.db, result.table_id, refs.TABLE, channel_id, answer.message_id)
        if old is not None:
            await self.outbox.delete(old.channel_id, old.message_id)

    async def hand(self, interaction: discord.Interaction, channel_id: int) -> None:
        """The caller's hand, ephemerally, with their move components."""
        try:
            result = await self.tables.status(channel_id)
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return
        mine = result.for_user(interaction.user.id)
        if mine is None:
            text = (
                "The game has not started yet."
                if result.status == "lobby"
                else "You are not playing at this table."
            )
            await _say(interaction, text)
            return
        spec = hand_message(result, mine, f"<#{channel_id}>")
        await interaction.response.send_message(ephemeral=True, **send_kwargs(spec))

    async def play(self, interaction: discord.Interaction, channel_id: int, move: str) -> None:
        """``/play move``: the move is checked by the engine; answer with the new hand."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await self.tables.act(
                channel_id, interaction.user.id, move, on_step=self.step_hook
            )
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return
        mine = result.for_user(interaction.user.id)
        if mine is not None:
            await interaction.followup.send(
                ephemeral=True, **send_kwargs(hand_message(result, mine, f"<#{channel_id}>"))
            )
        await self.publish(result, actor=interaction.user.id, interaction=interaction)

    async def move_choices(
        self, interaction: discord.Interaction, channel_id: int, typed: str
    ) -> list[tuple[str, str]]:
        """``(label, move)`` of the caller's legal moves matching ``typed`` (≤ 25)."""
        try:
            result = await self.tables.status(channel_id)
        except ServiceError:
            return []
        mine = result.for_user(interaction.user.id)
        if mine is None or result.status != "playing":
            return []
        label = renderer(result.game).action_label
        needle = typed.strip().lower()
        out = [
            (label(a)[:100], a)
            for a in mine.legal
            if needle in a.lower() or needle in label(a).lower()
        ]
        return out[:25]

    # -- components ----------------------------------------------------------------------------
    async def on_component(
        self, interaction: discord.Interaction, cid: CustomId, values: list[str]
    ) -> None:
        """Any table button or select: re-check against the service, never trust it."""
        row = await table_repo.get(self.db, cid.table_id)
        if row is None:
            await _say(interaction, "That table no longer exists. Open one with /table new.")
            return
        channel_id = row.channel_id
        if cid.kind in _CONTROLS:
            await self._control(interaction, cid, channel_id, row.status)
        elif cid.kind == "hand":
            await self.hand(interaction, channel_id)
        elif row.status != "playing":
            await _say(
                interaction, "That game is over; the buttons of this message no longer work."
            )
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
        if status != "lobby":
            await _say(interaction, "That lobby has closed; use the latest table message.")
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
        result = await self.tables.status(channel_id)
        mine = result.for_user(interaction.user.id)
        if mine is None:
            await _say(interaction, "That is not your seat.")
            return
        if result.version != cid.version:
            await _say(interaction, "That button is from an earlier turn; use the latest message.")
            return
        spec = hand_message(result, mine, f"<#{channel_id}>", page=int(cid.arg))
        await interaction.response.edit_message(**edit_kwargs(spec))

    async def _move(
        self, interaction: discord.Interaction, cid: CustomId, channel_id: int, values: list[str]
    ) -> None:
        try:
            move = move_for(cid, values)
        except custom_ids.BadCustomId:
            await _say(interaction, "Pick one move from the menu.")
            return
        now = await self.tables.status(channel_id)
        if now.table_id != cid.table_id or now.for_user(interaction.user.id) is None:
            await _say(interaction, "That is not your seat.")
            return
        if now.version != cid.version:
            await _say(interaction, "That button is from an earlier turn; use the latest message.")
            return
        await interaction.response.defer()
        try:
            result = await self.tables.act(
                channel_id, interaction.user.id, move, cid.version, on_step=self.step_hook
            )
        except NotSeated:
            await _say(interaction, "That is not your seat.")
            return
        except ServiceError as exc:
            await _say(interaction, str(exc))
            return
        mine = result.for_user(interaction.user.id)
        clicked = interaction.message.id if interaction.message is not None else None
        if mine is not None:
            log.debug("table %s: seat %s moved", result.table_id, mine.seat)
            spec = hand_message(result, mine, f"<#{channel_id}>")
            try:
                await interaction.edit_original_response(**edit_kwargs(spec))
            except discord.HTTPException as exc:
                log.info("could not update the clicked hand message: %s", exc.status)
                clicked = None
        await self.publish(
            result, actor=interaction.user.id, updated_message=clicked, interaction=interaction
        )

    async def on_rules_page(self, interaction: discord.Interaction, game: str, page: int) -> None:
        """◀/▶ on a rules message."""
        try:
            spec = rules_message(game, page)
        except games.UnknownGame as exc:
            await _say(interaction, str(exc))
            return
        await interaction.response.edit_message(**edit_kwargs(spec))

    async def _status_or_none(self, channel_id: int) -> TableResult | None:
        try:
            return await self.tables.status(channel_id)
        except ServiceError:
            return None


def _with_steps(result: TableResult, steps: Sequence[Step]) -> TableResult:
    return replace(result, steps=tuple(steps))
