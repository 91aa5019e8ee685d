"""Short notices around a game: the welcome at joining, "DMs closed", turn pings and the
half-time reminder.

Decisions:

* A player whose turn it becomes gets a short "Your turn" DM only when they have not moved
  at this table for ``ping_after`` seconds; the previous ping is deleted. A player who
  keeps their hand in the channel (or whose DMs are closed) is pinged in the channel,
  through the interaction that caused the turn (or the freshest one at the table) when
  one may still post there, else with the bot's token where the table allows it; at a
  table only tokens reach, a turn that comes when no token is left is not pinged — the
  table message shows it, and its timer.
* A DM refused with 50007 is announced once per table in the channel (that mention is the
  one ping Deckhand allows itself), through the player's own interaction when it came from
  that channel; that player uses the ephemeral *Your hand* view from then on.
* Joining checks the DMs at once: a DM that becomes the hand DM, or the notice above;
  players who keep their hand in the channel are told where it will be instead.
* Each notice is addressed to one player and speaks their language, also when it is
  posted in the channel.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import discord

from bot.discord_io import Gone
from bot.render.messages import MessageSpec
from bot.services.preferences import Preferences, PreferenceService
from bot.services.tables import Reminder, TableResult, TableStatus
from bot.ui.publish.delivery import Delivery, Reach
from bot.ui.publish.tokens import Clock, Token
from i18n import N_, _, speaking
from storage import messages as refs
from storage.db import Conn, Database

OPEN_DMS_HELP = N_(
    "open your DMs for this server (server name → Privacy Settings → Direct Messages) and "
    "press **Your hand**, or use the **Your hand** button on the table meanwhile"
)


@dataclass
class _Turns:
    """Whose turn a table's last result said it was, and when each user last moved."""

    to_act: frozenset[int] = frozenset()
    last_move: dict[int, float] = field(default_factory=dict)


class Notices:
    """Welcomes, "DMs closed" notices, turn pings and reminders."""

    def __init__(
        self,
        db: Database,
        delivery: Delivery,
        preferences: PreferenceService,
        clock: Clock,
        *,
        ping_after: float = 0.0,
    ) -> None:
        self.db, self.delivery, self.preferences = db, delivery, preferences
        self.clock = clock
        self.ping_after = ping_after
        self._turns: dict[int, _Turns] = {}

    def forget(self, table_id: int) -> None:
        """The table closed."""
        self._turns.pop(table_id, None)

    async def welcome(self, result: TableResult, via: Token) -> None:
        """The DM check at join: a DM that will become the hand, or the fallback notice
        (players who keep their hand in the channel are told where it will be)."""
        user_id = via.user_id
        prefs = await self.preferences.of(result.guild_id, user_id, via.heard)
        if not self.delivery.reachable(result.table_id, prefs).by_dm:
            with speaking(prefs.language):
                why = (
                    _("I am not a member here, so hands are private panels")
                    if self.delivery.reach(result.table_id) is Reach.TOKENS
                    else _("`/settings hand:` to change")
                )
                where = MessageSpec(content=_(
                    "Your hand will be a private panel in this channel: press **Your hand**"
                    " on the table message once the game starts ({why}).", why=why,
                ))
            await self.delivery.reply(via, where, ephemeral=True)
            return
        with speaking(prefs.language):
            spec = MessageSpec(content=_(
                "You joined the **{game}** table in {channel}. Your hand will appear here"
                " when the game starts.", game=_(result.title), channel=f"<#{result.channel_id}>",
            ))
        sent = await self.delivery.send_dm(result.table_id, user_id, spec)
        if sent.gone is Gone.DMS_CLOSED:
            await self.dms_closed(result.table_id, result.channel_id, user_id, via,
                                  prefs.language)
        elif sent.message_id is not None:
            ref = refs.MessageRef(
                result.table_id, refs.HAND, user_id, sent.channel_id, sent.message_id
            )
            await self.db.write(_reopened, ref)

    async def dms_closed(
        self, table_id: int, channel_id: int, user_id: int, via: Token | None, language: str
    ) -> None:
        """Say once per table, in the channel, that the user's DMs are closed (in their
        ``language``)."""
        if not await self.db.write(refs.note, table_id, user_id, refs.DM_CLOSED, time.time()):
            return
        with speaking(language):
            text = _("{user}, I can't send you your hand by DM: {help}.",
                     user=f"<@{user_id}>", help=_(OPEN_DMS_HELP))
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        await self.delivery.post(
            table_id, channel_id, MessageSpec(content=text), via=via, mentions=mentions
        )

    async def turns(
        self,
        result: TableResult,
        prefs: Mapping[int, Preferences],
        *,
        actor: int | None,
        via: Token | None,
    ) -> None:
        """Ping the players whose turn it became (not the one who just moved, nor anyone
        who moved here less than ``ping_after`` seconds ago)."""
        turns = self._turns.setdefault(result.table_id, _Turns())
        to_act = frozenset(
            p.user_id for p in result.private.values()
            if result.status is TableStatus.PLAYING and p.legal
        )
        moment = self.clock()
        if actor is not None:
            turns.last_move[actor] = moment
        for user_id in to_act - turns.to_act - {actor}:
            last = turns.last_move.get(user_id)
            if last is not None and moment - last < self.ping_after:
                continue
            with speaking(prefs[user_id].language):
                text = _("Your turn in {channel} ({game}).", channel=f"<#{result.channel_id}>",
                         game=_(result.title))
            await self._ping(
                result.table_id, result.channel_id, user_id, text, via, prefs[user_id],
            )
        turns.to_act = to_act

    async def remind(self, event: Reminder, via: Token | None) -> None:
        """Half of a turn's time is gone: tell the players to act (in the channel through
        ``via`` where it may still post there)."""
        prefs = await self.preferences.for_players(event.guild_id, event.user_ids)
        for user_id in event.user_ids:
            with speaking(prefs[user_id].language):
                text = _(
                    "⏰ Half your time is gone at the {game} table in {channel}: move {when} or"
                    " the computer plays for you.", game=_(event.title),
                    channel=f"<#{event.channel_id}>", when=f"<t:{int(event.deadline)}:R>",
                )
            await self._ping(
                event.table_id, event.channel_id, user_id, text, via,
                self.delivery.reachable(event.table_id, prefs[user_id]),
            )

    async def _ping(
        self,
        table_id: int,
        channel_id: int,
        user_id: int,
        text: str,
        via: Token | None,
        prefs: Preferences,
    ) -> None:
        delivery = self.delivery
        if not prefs.by_dm or await self.db.read(refs.noted, table_id, user_id, refs.DM_CLOSED):
            mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
            await delivery.post(
                table_id, channel_id, MessageSpec(content=f"<@{user_id}> {text}"),
                via=via, mentions=mentions,
            )
            return
        old = await self.db.read(refs.get, table_id, refs.PING, user_id)
        sent = await delivery.send_dm(table_id, user_id, MessageSpec(content=text))
        if sent.gone is Gone.DMS_CLOSED:
            await self.dms_closed(table_id, channel_id, user_id, via, prefs.language)
            return
        if sent.message_id is None:
            return
        ping = refs.MessageRef(table_id, refs.PING, user_id, sent.channel_id, sent.message_id)
        await self.db.write(refs.put, ping)
        if old is not None:
            await delivery.delete(table_id, old.channel_id, old.message_id)


def _reopened(conn: Conn, ref: refs.MessageRef) -> None:
    """A DM went through: the user's DMs are open (again); this DM becomes the hand."""
    refs.clear_note(conn, ref.table_id, ref.user_id, refs.DM_CLOSED)
    refs.put(conn, ref)
