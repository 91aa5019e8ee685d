"""What Deckhand shows on Discord after a table changed: the table message, the hands,
turn pings and notices. It decides nothing about the game; it renders results.

Decisions:

* The public table message (one per table, its id stored in ``storage.messages``) is
  re-rendered from the result's public part and edited through a ``Coalescer`` (one edit
  in flight per table, the latest state wins). After 50 minutes it is replaced by a fresh
  message (Discord limits edits of older ones) and the old one points to the new one (a
  hand DM that old is sent afresh, the old one deleted). A deleted message is re-posted; a deleted
  channel closes the table; a channel the bot may no longer see or write to keeps the
  table (it is logged; the players can still use ``/table status`` elsewhere once access is
  back).
* Each human's hand DM is edited only when their hand or moves changed, never from anyone
  else's data; the player who clicked gets theirs through the interaction. Players who
  chose ``hand: channel`` (``/settings``) get no hand DM: their hand is a private panel in
  the channel, edited through its interaction's token while that lasts (``bot.ui.tokens``;
  a minute before it runs out the panel says so and how to reopen it).
* The table message is edited through an interaction's token too while one is young
  enough (the one that posted it, or a later click on it); when that token ages, the next
  click in the channel posts the table afresh through its own token and deletes the old
  one. Without a usable token, the bot's own token is used as before.
* A player whose turn it becomes gets a short "Your turn" DM only when they have not moved
  at this table for ``ping_after`` seconds; the previous ping is deleted.
* A DM refused with 50007 is announced once per table in the channel (that mention is the
  one ping Deckhand allows itself); that player uses the ephemeral *Your hand* view. A
  player with ``hand: channel`` is pinged in the channel instead of by DM.
* Results arrive from the adapter's own calls and, for computer moves, reminders and
  time-outs, from the table service's ``subscribe`` (``on_event``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

import discord

from bot.art.hand_end import closes_hand, hands, picture
from bot.card_emojis import CardEmojis
from bot.discord_io import Coalescer, Gone, Outbox
from bot.render.messages import EventLog, MessageSpec, hand_message, table_message
from bot.services import ratings
from bot.services.errors import ServiceError
from bot.services.leagues import LeagueService
from bot.services.preferences import Preferences, PreferenceService
from bot.services.tables import (
    Reminder,
    SeatPrivate,
    Step,
    TableResult,
    TableService,
    TableStatus,
    replay,
)
from bot.ui.cards import decorate
from bot.ui.tokens import Key, TokenMessage, Tokens
from bot.ui.views import edit_kwargs, send_kwargs
from storage import leagues as league_repo
from storage import messages as refs
from storage.db import Conn, Database

log = logging.getLogger(__name__)

OPEN_DMS_HELP = (
    "open your DMs for this server (server name → Privacy Settings → Direct Messages) and "
    "press **Your hand**, or use the **Your hand** button on the table meanwhile"
)
_STATUS_ORDER = {TableStatus.LOBBY: 0, TableStatus.PLAYING: 1}
_OPEN = (TableStatus.LOBBY, TableStatus.PLAYING)
#: A table message this old is replaced by a fresh one (edits of messages older than an
#: hour are rate limited by Discord, error 30046).
REPLACE_AFTER = 50 * 60.0
#: A table message whose token is this old is posted afresh through the next click.
REPOST_AFTER = 10 * 60.0
PANEL_EXPIRED = (
    "\n⏳ *This panel stops updating here (Discord lets me update it for 15 minutes).*"
    " Press **Your hand** on the table message, or make a move, to keep it live."
)


@dataclass
class _Seen:
    """What the publisher last showed of a table (dropped when the table closes)."""

    order: tuple[int, int] = (-1, -1)
    #: The newest result whose hands and pings were published (a computer's move can be
    #: published before the player's own result that came first; the older one is then
    #: not shown over it).
    published: tuple[int, int] = (-1, -1)
    logged_version: int = 0
    to_act_users: frozenset[int] = frozenset()
    hands: dict[int, str] = field(default_factory=dict)
    #: The table version each hand DM last showed, and the newest one queued for it (two
    #: results published at once may queue their hands in either order).
    hand_versions: dict[int, int] = field(default_factory=dict)
    hand_queued: dict[int, int] = field(default_factory=dict)
    #: When each user last moved at this table (for the "been away" ping rule).
    last_move: dict[int, float] = field(default_factory=dict)
    events: EventLog = field(default_factory=EventLog)
    shown: MessageSpec | None = None
    ratings_before: dict[int, float] | None = None


def _order(result: TableResult) -> tuple[int, int]:
    return (_STATUS_ORDER.get(result.status, 2), result.version)


class Publisher:
    """Renders results to Discord; one per bot."""

    def __init__(
        self,
        client: discord.Client,
        db: Database,
        tables: TableService,
        leagues: LeagueService,
        preferences: PreferenceService,
        *,
        card_emojis: CardEmojis | None = None,
        ping_after: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        replace_after: float = REPLACE_AFTER,
    ) -> None:
        self.db, self.tables, self.leagues = db, tables, leagues
        self.preferences = preferences
        self.card_emojis = card_emojis or CardEmojis()
        self.replace_after = replace_after
        self.ping_after = ping_after
        self._clock = clock
        self.outbox = Outbox(client)
        self.edits = Coalescer()
        self.tokens = Tokens(clock, on_expiry=self._panel_expired)
        self._seen: dict[int, _Seen] = {}

    async def close(self) -> None:
        """Stop pending message updates."""
        await self.edits.close()

    def seen(self, table_id: int) -> _Seen:
        """What was last shown of a table."""
        return self._seen.setdefault(table_id, _Seen())

    def events(self, result: TableResult) -> list[str]:
        """The table's event lines, with the result's new steps added."""
        seen = self.seen(result.table_id)
        fresh = [s for s in result.steps if s.version > seen.logged_version]
        if fresh:
            seen.logged_version = max(s.version for s in fresh)
            seen.events.add(_with_steps(result, fresh))
        return list(seen.events.lines)

    def table_spec(self, result: TableResult, league: str = "") -> MessageSpec:
        """The table message for a result (its new steps logged)."""
        timed_out = any(step.by == "timeout" for step in result.steps)
        return table_message(
            result, self.events(result), league_line=league,
            note=result.message if timed_out else "",
        )

    # -- the service's events --------------------------------------------------------------
    async def on_event(self, event: TableResult | Reminder) -> None:
        """A computer move, a time-out or a reminder happened on its own."""
        if isinstance(event, Reminder):
            await self.remind(event)
        else:
            await self.publish(event)

    # -- the table message -----------------------------------------------------------------
    def shown_in(
        self,
        result: TableResult,
        spec: MessageSpec,
        message_id: int | None,
        interaction: discord.Interaction | None = None,
        *,
        original: bool = True,
    ) -> None:
        """The caller showed ``spec`` for ``result`` itself (in the interaction's answer,
        or in its follow-up ``message_id`` when not ``original``); that interaction's
        token edits the table message from now on."""
        seen = self.seen(result.table_id)
        seen.order, seen.shown = max(seen.order, _order(result)), spec
        if interaction is not None and message_id is not None and result.status in _OPEN:
            self.tokens.hold(
                ("table", result.table_id, 0), interaction, message_id, original=original
            )
        if message_id is not None:
            ref = refs.MessageRef(result.table_id, refs.TABLE, 0, result.channel_id, message_id)
            self.edits.submit(("ref", result.table_id), lambda: self.db.write(refs.put, ref))

    def _aged(self, message_id: int) -> bool:
        """Whether the message was posted ``replace_after`` seconds ago or more."""
        posted = discord.utils.snowflake_time(message_id).timestamp()
        return time.time() - posted >= self.replace_after

    async def table_message_id(self, table_id: int) -> int | None:
        """The live table message's id, if one is stored."""
        ref = await self.db.read(refs.get, table_id, refs.TABLE)
        return ref.message_id if ref is not None else None

    def update_table(self, result: TableResult, spec: MessageSpec) -> None:
        """Edit the table message to ``spec`` (in order; the newest state wins)."""
        seen = self.seen(result.table_id)
        if _order(result) < seen.order:
            return
        seen.order = _order(result)

        async def job() -> None:
            await self._show_table(result, spec)

        self.edits.submit(("table", result.table_id), job)

    def clicked(self, table_id: int, interaction: discord.Interaction) -> None:
        """A click in the table's channel (acknowledged as an update): its token can post
        the table message afresh when the current one's token ages."""
        if interaction.message is not None:
            self.tokens.hold(
                ("click", table_id, 0), interaction, interaction.message.id, original=True
            )

    async def _show_table(self, result: TableResult, spec: MessageSpec) -> None:
        seen = self._seen.get(result.table_id)
        if seen is not None and seen.shown == spec:
            return
        ref = await self.db.read(refs.get, result.table_id, refs.TABLE)
        if ref is not None and await self._table_by_token(result, spec, ref):
            if seen is not None and result.status in _OPEN:
                seen.shown = spec
            return
        old = ref.message_id if ref else None
        if ref is not None and result.status in _OPEN and self._aged(ref.message_id):
            # Discord limits edits of messages older than an hour (30046): a long game
            # moves to a fresh message, and the old one says where it went.
            sent = await self.outbox.send(result.channel_id, spec)
            if sent.message_id is not None:
                link = f"https://discord.com/channels/{result.guild_id}/{result.channel_id}"
                moved = MessageSpec(
                    content=f"**{result.title}** goes on in a newer message below:"
                    f" {link}/{sent.message_id}",
                    layout=True,  # the old table message is a layout message for good
                )
                self.edits.submit(("moved", ref.message_id), self._editor(ref, moved))
        else:
            sent = await self.outbox.edit_or_repost(result.channel_id, old, spec)
        if sent.gone is Gone.CHANNEL:
            await self._channel_gone(result)
            return
        if sent.gone is Gone.NO_ACCESS:
            log.warning(
                "table %s: no access to channel %s; the table message is not updated",
                result.table_id, result.channel_id,
            )
            return
        if seen is not None and result.status in _OPEN:
            seen.shown = spec
        if sent.message_id is not None and (ref is None or ref.message_id != sent.message_id):
            await self.db.write(
                refs.put,
                refs.MessageRef(
                    result.table_id, refs.TABLE, 0, result.channel_id, sent.message_id
                ),
            )

    async def _table_by_token(
        self, result: TableResult, spec: MessageSpec, ref: refs.MessageRef
    ) -> bool:
        """Show the table message through an interaction's token; False when no token is
        usable (the bot's token is used then)."""
        key: Key = ("table", result.table_id, 0)
        held = self.tokens.get(key)
        if held is not None and held.message_id != ref.message_id:
            self.tokens.drop(key, held)  # the table moved to a message of the bot's own
            held = None
        fresh = self.tokens.get(("click", result.table_id, 0))
        open_ = result.status in _OPEN
        if open_ and fresh is not None and (
            held is None or held.age(self.tokens.clock()) > REPOST_AFTER
        ) and (held is None or fresh.since > held.since):
            try:
                posted = await fresh.interaction.followup.send(wait=True, **send_kwargs(spec))
            except discord.HTTPException as exc:
                log.info("table %s: posting through a click failed: %s", result.table_id, exc)
                self.tokens.drop(("click", result.table_id, 0), fresh)
            else:
                self.tokens.hold(key, fresh.interaction, posted.id, original=False)
                await self.db.write(
                    refs.put,
                    refs.MessageRef(result.table_id, refs.TABLE, 0, result.channel_id, posted.id),
                )
                await self._delete_old_table(result, ref, held)
                return True
        if held is None:
            return False
        try:
            await held.edit(**edit_kwargs(spec))
        except discord.HTTPException as exc:
            log.info("table %s: edit through a token failed: %s", result.table_id, exc)
            self.tokens.drop(key, held)
            return False
        if not open_:
            self.tokens.drop(key, held)
        return True

    async def _delete_old_table(
        self, result: TableResult, ref: refs.MessageRef, held: TokenMessage | None
    ) -> None:
        """Delete the table message that was replaced: through its token while usable."""
        if held is not None:
            try:
                await held.delete()
                return
            except discord.HTTPException as exc:
                log.info("table %s: delete through a token failed: %s", result.table_id, exc)
        await self.outbox.delete(ref.channel_id, ref.message_id)

    async def _channel_gone(self, result: TableResult) -> None:
        log.info("channel %s of table %s is gone; closing it", result.channel_id, result.table_id)
        await self.channel_deleted(result.channel_id)
        await self.db.write(refs.forget, result.table_id, refs.TABLE)

    async def channel_deleted(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: close its open table, if any."""
        try:
            result = await self.tables.close_deleted(channel_id)
        except ServiceError as exc:
            log.info("channel %s deleted: %s", channel_id, exc)
            return
        await self._close_hands(result)
        self._seen.pop(result.table_id, None)

    # -- hands, pings and notices ----------------------------------------------------------
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
        seen = self.seen(result.table_id)
        if _order(result) < seen.published:
            return
        seen.published = _order(result)
        league = await self._league_line(result)
        spec = self.table_spec(result, league)
        if not table_shown:
            self.update_table(result, spec)
        mention = f"<#{result.channel_id}>"
        prefs = await self.preferences.for_players(
            result.guild_id, [p.user_id for p in result.private.values()]
        )
        for mine in result.private.values():
            # Only a changed hand or changed moves is worth a DM edit (a running total or
            # whose turn it is elsewhere is on the table message).
            signature = _signature(result, mine)
            self._panel(result, mine, signature, prefs[mine.user_id], interaction)
            if not prefs[mine.user_id].by_dm or seen.hands.get(mine.user_id) == signature:
                continue
            ref = await self.db.read(refs.get, result.table_id, refs.HAND, mine.user_id)
            if mine.user_id == actor and ref is not None and ref.message_id == updated_message:
                continue  # the clicked hand DM (``clicked_hand``)
            if await self.db.read(refs.noted, result.table_id, mine.user_id, refs.DM_CLOSED):
                continue
            spec = self.hand_spec(result, mine, prefs[mine.user_id])
            self._submit_hand(result, mine.user_id, spec, interaction, signature)
        to_act = frozenset(
            p.user_id for p in result.private.values()
            if result.status is TableStatus.PLAYING and p.legal
        )
        moment = self._clock()
        if actor is not None:
            seen.last_move[actor] = moment
        for user_id in to_act - seen.to_act_users - {actor}:
            last = seen.last_move.get(user_id)
            if last is not None and moment - last < self.ping_after:
                continue
            text = f"Your turn in {mention} ({result.title})."
            await self._ping(
                result.table_id, result.channel_id, user_id, text, interaction,
                by_dm=prefs[user_id].by_dm,
            )
        seen.to_act_users = to_act
        if any(closes_hand(result.game, e) for step in result.steps for e in step.events):
            self._submit_picture(result)
        if result.status not in _OPEN:
            if result.status is TableStatus.ABORTED:
                await self._close_hands(result)
            self._seen.pop(result.table_id, None)
            # The panels' last edits are queued already; the table message's token goes
            # after its last edit (``_table_by_token``).
            self.tokens.drop_table(result.table_id, ("panel", "click"))

    def hand_spec(
        self, result: TableResult, mine: SeatPrivate, prefs: Preferences, page: int = 0
    ) -> MessageSpec:
        """A player's hand message, with card emojis when they asked for them."""
        spec = hand_message(result, mine, f"<#{result.channel_id}>", page=page)
        return decorate(spec, result.game, self.card_emojis, prefs)

    async def my_hand(self, result: TableResult, mine: SeatPrivate, page: int = 0) -> MessageSpec:
        """``hand_spec`` with the player's preferences read for the table's server."""
        prefs = await self.preferences.of(result.guild_id, mine.user_id)
        return self.hand_spec(result, mine, prefs, page)

    def _panel(
        self,
        result: TableResult,
        mine: SeatPrivate,
        signature: str,
        prefs: Preferences,
        interaction: discord.Interaction | None,
    ) -> None:
        """Keep a player's hand panel in the channel up to date: edit it through its token
        while usable; open one through the player's own click in the channel when they
        keep their hand there (or their DMs are closed) and have none."""
        key: Key = ("panel", result.table_id, mine.user_id)
        held = self.tokens.get(key)
        if held is not None:
            if held.shown != signature and held.version <= result.version:
                spec = self.hand_spec(result, mine, prefs)
                self._submit_panel(result, key, held, spec, signature)
            return
        here = (
            interaction is not None
            and interaction.user.id == mine.user_id
            and interaction.channel_id == result.channel_id
            and interaction.guild_id == result.guild_id
            and result.status in _OPEN
        )
        if here and interaction is not None and prefs.in_channel:
            self._open_panel(result, mine, self.hand_spec(result, mine, prefs), interaction)

    def _open_panel(
        self,
        result: TableResult,
        mine: SeatPrivate,
        spec: MessageSpec,
        interaction: discord.Interaction,
    ) -> None:
        key: Key = ("panel", result.table_id, mine.user_id)

        async def job() -> None:
            sent = await interaction.followup.send(ephemeral=True, wait=True, **send_kwargs(spec))
            self.opened_panel(result, interaction, sent.id, spec, original=False)

        self.edits.submit(key, job)

    def opened_panel(
        self,
        result: TableResult,
        interaction: discord.Interaction,
        message_id: int,
        spec: MessageSpec,
        *,
        original: bool,
    ) -> None:
        """``interaction`` showed the user's hand privately in ``message_id`` (its own
        answer when ``original``, else a follow-up): that message is their panel now."""
        mine = result.for_user(interaction.user.id)
        if mine is None or interaction.guild_id is None:
            return
        held = self.tokens.hold(
            ("panel", result.table_id, mine.user_id), interaction, message_id, original=original
        )
        held.version = result.version
        held.shown = _signature(result, mine)
        held.spec = spec

    def _submit_panel(
        self, result: TableResult, key: Key, held: TokenMessage, spec: MessageSpec, signature: str
    ) -> None:
        held.version, held.shown, held.spec = result.version, signature, spec

        async def job() -> None:
            try:
                await held.edit(**edit_kwargs(spec))
            except discord.HTTPException as exc:
                log.info("hand panel %s: edit refused: %s", key, exc.status)
                self.tokens.drop(key, held)

        self.edits.submit(key, job)

    def _submit_picture(self, result: TableResult) -> None:
        """Post the picture of the hand that just ended, once per hand (a notice in the
        database keeps a restart or another process from posting it again)."""
        version = max(s.version for s in result.steps)

        async def job() -> None:
            events = await replay.public_events(self.db, result.table_id)
            scored = hands(result.game, events)
            if not scored:
                return
            names = [s.name for s in result.seats]
            png = await asyncio.to_thread(picture, result.game, scored[-1], names)
            notice = f"picture {version} {len(scored)}"
            if not await self.db.write(refs.note, result.table_id, 0, notice, time.time()):
                return
            spec = MessageSpec(
                content=f"**{result.title}** — what hand {len(scored)} showed:",
                files=((f"{result.game}-hand-{len(scored)}.png", png),),
            )
            held = self.tokens.get(("table", result.table_id, 0))
            if held is not None:
                try:
                    await held.interaction.followup.send(**send_kwargs(spec))
                    return
                except discord.HTTPException as exc:
                    log.info("table %s: picture through a token failed: %s", result.table_id,
                             exc.status)
            await self.outbox.send(result.channel_id, spec)

        self.edits.submit(("picture", result.table_id, version), job)

    def _panel_expired(self, key: Key, held: TokenMessage) -> None:
        """A panel's token is about to run out: its last edit says how to keep it live."""
        spec = held.spec
        if not isinstance(spec, MessageSpec) or key[1] not in self._seen:
            return
        note = replace(spec, content=spec.content + PANEL_EXPIRED)

        async def job() -> None:
            try:
                await held.edit(**edit_kwargs(note))
            except discord.HTTPException as exc:
                log.info("hand panel %s: last edit refused: %s", key, exc.status)

        self.edits.submit(key, job)

    def _submit_hand(
        self,
        result: TableResult,
        user_id: int,
        spec: MessageSpec,
        interaction: discord.Interaction | None,
        signature: str,
    ) -> None:
        seen = self.seen(result.table_id)
        if seen.hand_queued.get(user_id, -1) > result.version:
            return  # a newer hand is queued already: this older one must not replace it
        seen.hand_queued[user_id] = result.version

        async def job() -> None:
            if self._newer_hand_shown(result, user_id):
                return
            if await self._show_hand(result, user_id, spec, interaction):
                # Marked shown only once Discord took it (a failed edit is tried again).
                self._hand_shown(result, user_id, signature)

        self.edits.submit(("hand", result.table_id, user_id), job)

    def clicked_hand(
        self, interaction: discord.Interaction, result: TableResult, spec: MessageSpec
    ) -> None:
        """Show the clicker's hand in the message they clicked (their hand DM or private
        panel), in turn with the publisher's own edits of that hand: a computer's move
        shown meanwhile is never overwritten by this older state."""
        user_id = interaction.user.id
        mine = result.for_user(user_id)
        signature = _signature(result, mine) if mine is not None else ""
        if interaction.guild_id is not None:
            if mine is not None and interaction.message is not None:
                key: Key = ("panel", result.table_id, user_id)
                held = self.tokens.hold(key, interaction, interaction.message.id, original=True)
                self._submit_panel(result, key, held, spec, signature)
            return

        async def job() -> None:
            if self._newer_hand_shown(result, user_id):
                return
            await interaction.edit_original_response(**edit_kwargs(spec))
            self._hand_shown(result, user_id, signature)

        self.edits.submit(("hand", result.table_id, user_id), job)

    def _newer_hand_shown(self, result: TableResult, user_id: int) -> bool:
        seen = self._seen.get(result.table_id)
        return seen is not None and seen.hand_versions.get(user_id, -1) > result.version

    def _hand_shown(self, result: TableResult, user_id: int, signature: str) -> None:
        seen = self.seen(result.table_id)
        seen.hands[user_id] = signature
        seen.hand_versions[user_id] = result.version

    async def _show_hand(
        self,
        result: TableResult,
        user_id: int,
        spec: MessageSpec,
        interaction: discord.Interaction | None,
    ) -> bool:
        """Edit (or send) a player's hand DM; whether it is now shown. A hand DM as old as
        ``replace_after`` is sent afresh and the old one deleted (edits of messages older
        than an hour are rate limited, 30046)."""
        ref = await self.db.read(refs.get, result.table_id, refs.HAND, user_id)
        stale = None
        if ref is not None:
            self.outbox.remember_dm(user_id, ref.channel_id)
            if self._aged(ref.message_id):
                stale = ref
            else:
                sent = await self.outbox.edit(ref.channel_id, ref.message_id, spec)
                if sent.gone is None:
                    return True
        sent = await self.outbox.send_dm(user_id, spec)
        if stale is not None and sent.message_id is not None:
            await self.outbox.delete(stale.channel_id, stale.message_id)
        if sent.gone is Gone.DMS_CLOSED:
            await self._dms_closed(result.table_id, result.channel_id, user_id, interaction)
            return False
        if sent.message_id is None:
            return False
        ref = refs.MessageRef(result.table_id, refs.HAND, user_id, sent.channel_id, sent.message_id)
        await self.db.write(refs.put, ref)
        return True

    async def welcome(
        self, result: TableResult, user_id: int, interaction: discord.Interaction
    ) -> None:
        """The DM check at join: a DM that will become the hand, or the fallback notice
        (players who keep their hand in the channel are told where it will be)."""
        if not (await self.preferences.of(result.guild_id, user_id)).by_dm:
            await interaction.followup.send(
                "Your hand will be a private panel in this channel: press **Your hand** on"
                " the table message once the game starts (`/settings hand:` to change).",
                ephemeral=True,
            )
            return
        spec = MessageSpec(
            content=(
                f"You joined the **{result.title}** table in <#{result.channel_id}>. "
                "Your hand will appear here when the game starts."
            )
        )
        sent = await self.outbox.send_dm(user_id, spec)
        if sent.gone is Gone.DMS_CLOSED:
            await self._dms_closed(result.table_id, result.channel_id, user_id, interaction)
        elif sent.message_id is not None:
            ref = refs.MessageRef(
                result.table_id, refs.HAND, user_id, sent.channel_id, sent.message_id
            )
            await self.db.write(_reopened, ref)

    async def _dms_closed(
        self,
        table_id: int,
        channel_id: int,
        user_id: int,
        interaction: discord.Interaction | None,
    ) -> None:
        now = time.time()
        if not await self.db.write(refs.note, table_id, user_id, refs.DM_CLOSED, now):
            return
        text = f"<@{user_id}>, I can't send you your hand by DM: {OPEN_DMS_HELP}."
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        if interaction is not None and interaction.channel_id == channel_id:
            try:
                await interaction.followup.send(text, allowed_mentions=mentions)
                return
            except discord.HTTPException:
                log.info("notice by followup failed; posting it in the channel")
        await self.outbox.send(channel_id, MessageSpec(content=text), mentions=mentions)

    async def _ping(
        self,
        table_id: int,
        channel_id: int,
        user_id: int,
        text: str,
        interaction: discord.Interaction | None,
        *,
        by_dm: bool,
    ) -> None:
        if not by_dm or await self.db.read(refs.noted, table_id, user_id, refs.DM_CLOSED):
            mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
            await self.outbox.send(
                channel_id, MessageSpec(content=f"<@{user_id}> {text}"), mentions=mentions
            )
            return
        old = await self.db.read(refs.get, table_id, refs.PING, user_id)
        sent = await self.outbox.send_dm(user_id, MessageSpec(content=text))
        if sent.gone is Gone.DMS_CLOSED:
            await self._dms_closed(table_id, channel_id, user_id, interaction)
            return
        if sent.message_id is None:
            return
        ping = refs.MessageRef(table_id, refs.PING, user_id, sent.channel_id, sent.message_id)
        await self.db.write(refs.put, ping)
        if old is not None:
            await self.outbox.delete(old.channel_id, old.message_id)

    async def remind(self, event: Reminder) -> None:
        """Half of a turn's time is gone: tell the players to act."""
        prefs = await self.preferences.for_players(event.guild_id, event.user_ids)
        for user_id in event.user_ids:
            text = (
                f"⏰ Half your time is gone at the {event.title} table in "
                f"<#{event.channel_id}>: move <t:{int(event.deadline)}:R> or the "
                "computer plays for you."
            )
            await self._ping(
                event.table_id, event.channel_id, user_id, text, None,
                by_dm=prefs[user_id].by_dm,
            )

    async def _close_hands(self, result: TableResult) -> None:
        closed = MessageSpec(
            content=f"**{result.title}** in <#{result.channel_id}> — this table was closed."
        )
        for ref in await self.db.read(refs.for_table, result.table_id):
            if ref.kind == refs.HAND:
                self.edits.submit(("hand", result.table_id, ref.user_id), self._editor(ref, closed))

    def _editor(self, ref: refs.MessageRef, spec: MessageSpec) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            await self.outbox.edit(ref.channel_id, ref.message_id, spec)

        return job

    # -- ratings -----------------------------------------------------------------------------
    async def _league_line(self, result: TableResult) -> str:
        """Ratings of the humans in the guild's default league (with the change since the
        game started, when this process saw the start); nothing for an unrated game (the
        table message says so); at a duplicate board still played elsewhere, when it
        will count."""
        users = [s.user_id for s in result.seats if s.user_id is not None]
        counted = (TableStatus.PLAYING, TableStatus.FINISHED)
        if not users or result.guild_id == 0 or result.status not in counted or result.unrated:
            return ""
        seen = self.seen(result.table_id)
        if result.status is TableStatus.PLAYING:
            if seen.ratings_before is None:
                seen.ratings_before = await self._ratings(result, users)
            return ""
        if await self.leagues.counts_later(result.table_id):
            return "This board counts toward the league once every table has played it."
        after = await self._ratings(result, users)
        before = seen.ratings_before or {}
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
        totals = await self.db.read(
            league_repo.load_players, league.id, league.season, result.game, users
        )
        return {u: p.ordinal for u, p in totals.items()}


def _signature(result: TableResult, mine: SeatPrivate) -> str:
    """What a hand DM shows that is worth an edit (a running total or whose turn it is
    elsewhere is on the table message). While the player has moves, the version too: the
    buttons carry it, and the same hand and moves can come back a turn later (ONO 99:
    play a 1, draw a 1)."""
    version = result.version if mine.legal else None
    return repr((mine.view.get("hand"), mine.legal, result.status, version))


def _reopened(conn: Conn, ref: refs.MessageRef) -> None:
    """A DM went through: the user's DMs are open (again); this DM becomes the hand."""
    refs.clear_note(conn, ref.table_id, ref.user_id, refs.DM_CLOSED)
    refs.put(conn, ref)


def _with_steps(result: TableResult, steps: Sequence[Step]) -> TableResult:
    return replace(result, steps=tuple(steps))
