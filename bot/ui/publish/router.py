"""What Deckhand shows on Discord after a table changed: a result (or a reminder) is routed
to the messages it changes. It decides nothing about the game; it renders results.

Results arrive from the controller, after it answered the interaction that caused them
(with that interaction's ``Token`` and what its answer showed already), and, for computer
moves, reminders and time-outs, from the table service's ``subscribe`` (``on_event``).
Each kind of message is a module with its own state (``TableMessages``, ``Hands``,
``Notices``, ``Pictures``, ``LeagueLine``, and ``LobbyThreads`` for the threads made for
lobbies); all reach Discord through one ``Delivery`` and queue their edits on one
``Coalescer`` (``edits``).

Where a table is reached by tokens alone, it can lose them all at once: the install that
authorised its messages is gone (its installer removed Deckhand or left the conversation;
``allowance.lost``). The table is then marked ``lost`` (in the database, for restarts):
its game goes on safely (every move was committed before it was answered), its tokens are
dropped, every click on it is answered in the callback itself with what happened and how
to go on, and anyone who has Deckhand can bring it back with ``/table status``
(``revived``). A server table whose channel turns out closed to the bot because the bot is
no member there (a server that installed the commands alone: ``member_of``) becomes a
``TOKENS`` table instead of failing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.card_emojis import CardEmojis
from bot.discord_io import Coalescer, Outbox
from bot.services.errors import ServiceError
from bot.services.leagues import LeagueService
from bot.services.preferences import PreferenceService
from bot.services.tables import Reminder, TableResult, TableService, TableStatus
from bot.services.tables.records import OPEN
from bot.ui.publish.delivery import Delivery, Reach
from bot.ui.publish.hands import Hands
from bot.ui.publish.league_line import LeagueLine
from bot.ui.publish.notices import Notices
from bot.ui.publish.pictures import Pictures, ends_a_hand
from bot.ui.publish.table import TableMessages, order
from bot.ui.publish.threads import LobbyThreads
from bot.ui.publish.tokens import Clock, Sleep, Token
from storage import places
from storage.db import Database

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answered:
    """What the edge's answer to an interaction showed already, and who acted.

    ``via`` is the interaction's token; ``actor`` the user who moved; ``table`` says the
    answer showed the table message; ``hand`` is the hand message the answer showed."""

    via: Token | None = None
    actor: int | None = None
    table: bool = False
    hand: int | None = None


NOTHING = Answered()


class Publisher:
    """Routes results and reminders to the message modules; one per bot."""

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
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        wall: Clock = time.time,
    ) -> None:
        self.db, self.tables, self.preferences, self.clock = db, tables, preferences, clock
        self.edits = Coalescer()
        self.delivery = Delivery(Outbox(client), wall=wall)
        self.delivery.on_lost = self._token_lost
        #: Whether the bot is a member of a server (a cached guild: discord.py keeps
        #: every guild of the bot's shards, unavailable ones too).
        self.member_of: Callable[[int], bool] = lambda guild_id: (
            client.get_guild(guild_id) is not None
        )
        #: The tables whose authorising install is gone (``lost``), and when each table
        #: was last brought back (tokens made before then are not the table's any more).
        self._lost: set[int] = set()
        self._revived: dict[int, float] = {}
        self.table = TableMessages(
            db, self.delivery, self.edits, clock, self.channel_deleted, preferences, sleep=sleep
        )
        self.table.on_no_access = lambda r: self.no_member(r.table_id, r.guild_id)
        self.notices = Notices(db, self.delivery, preferences, clock, ping_after=ping_after)
        self.hands = Hands(
            db, self.delivery, self.edits, preferences, self.notices, clock,
            card_emojis=card_emojis or CardEmojis(), sleep=sleep,
        )
        self.pictures = Pictures(db, self.delivery, self.edits, self.table)
        self.league_line = LeagueLine(db, leagues)
        self.threads = LobbyThreads(self.delivery)
        #: The newest result each table's hands and pings were published for.
        self._published: dict[int, tuple[int, int]] = {}

    def token(self, interaction: discord.Interaction) -> Token:
        """The token of an interaction the edge is answering (on the publisher's clock)."""
        return Token.of(interaction, self.clock)

    async def close(self) -> None:
        """Stop pending message updates and the waits for tokens to age."""
        for tokens in (self.table.tokens, self.hands.tokens):
            tokens.drop_where(lambda key: True)
        await self.edits.close()

    async def load(self) -> None:
        """Start-up: the reach of every open table, and which lost their install
        (``storage.places``)."""
        for table_id in await self.db.read(places.open_tokens_only):
            self.delivery.set_reach(table_id, Reach.TOKENS)
        self._lost = await self.db.read(places.open_lost)

    def lost(self, table_id: int) -> bool:
        """Whether the install that let Deckhand post at the table is gone (no token of its
        messages works: each click is answered in its callback)."""
        return table_id in self._lost

    async def _token_lost(self, token: Token) -> None:
        """A young token of a table only tokens reach was refused for want of its install:
        the table is ``lost`` until someone's own install shows it again (``revived``)."""
        if token.channel_id is None:
            return
        try:
            result = await self.tables.status(token.channel_id)
        except ServiceError:
            return
        table_id = result.table_id
        if token.created < self._revived.get(table_id, float("-inf")):
            return  # a token of an install lost before the table was brought back
        if self.delivery.reach(table_id) is not Reach.TOKENS or table_id in self._lost:
            return
        self.delivery.gone_until(token.channel_id, self.clock())
        self._lost.add(table_id)
        self.table.tokens.drop_where(lambda key: key[1] == table_id)
        self.hands.tokens.drop_where(lambda key: key[0] == table_id)
        await self.db.write(places.mark_lost, table_id, time.time())
        log.warning("table %s: the install that authorised its messages is gone; its clicks"
                    " are told to bring it back with /table status", table_id)

    async def revived(self, table_id: int, token: Token) -> None:
        """The table was shown through someone's own install (``/table status``, through
        ``token``): that token, and later ones, are the table's."""
        self._revived[table_id] = token.created
        if token.channel_id is not None:
            self.delivery.gone_until(token.channel_id, None)
        if table_id in self._lost:
            self._lost.discard(table_id)
            await self.db.write(places.clear_lost, table_id)

    async def no_member(self, table_id: int, guild_id: int) -> bool:
        """The bot's token was refused at a server table (50001/50013): if the bot is no
        member of the server (its commands were installed alone, or the bot was removed),
        the table becomes one that tokens alone reach; whether it did."""
        if self.delivery.reach(table_id) is Reach.TOKENS or self.member_of(guild_id):
            return False
        log.warning("table %s: the bot is no member of server %s; reached by tokens from now",
                    table_id, guild_id)
        self.placed(table_id, Reach.TOKENS)
        await self.db.write(places.mark_tokens_only, table_id)  # kept for restarts
        return True

    def placed(self, table_id: int, reach: Reach) -> None:
        """A table opened where ``reach`` says how Deckhand reaches it (its transaction
        kept it for restarts: ``storage.places``)."""
        self.delivery.set_reach(table_id, reach)

    async def on_event(self, event: TableResult | Reminder) -> None:
        """A computer move, a time-out or a reminder happened on its own."""
        if isinstance(event, Reminder):
            await self.notices.remind(event, self.table.speaker(event.table_id))
        else:
            await self.publish(event)

    async def publish(self, result: TableResult, answered: Answered = NOTHING) -> None:
        """Show a result: the table message (unless the answer showed it), changed hands,
        turn pings, the picture of a hand that ended, and the end of a closed table."""
        table_id = result.table_id
        if order(result) < self._published.get(table_id, (-1, -1)):
            return  # a newer result was published already
        self._published[table_id] = order(result)
        spec = await self.table.spec(result, await self.league_line.of(result))
        if not answered.table:
            self.table.update(result, spec)
        chosen = await self.preferences.for_players(
            result.guild_id, [p.user_id for p in result.private.values()],
            answered.via.heard if answered.via is not None else None,
        )
        prefs = {u: self.delivery.reachable(table_id, p) for u, p in chosen.items()}
        await self.hands.publish(result, prefs, via=answered.via, shown=answered.hand)
        speaker = answered.via or self.table.speaker(table_id)
        await self.notices.turns(result, prefs, actor=answered.actor, via=speaker)
        if ends_a_hand(result):
            self.pictures.submit(result, self.table.spoken(table_id))
        await self.threads.settle(result)
        if result.status not in OPEN:
            if result.status is TableStatus.ABORTED:
                await self.hands.close(result)
            self._forget(table_id)

    async def channel_deleted(self, channel_id: int) -> None:
        """The channel (or thread) was deleted: close its open table, if any."""
        try:
            result = await self.tables.close_deleted(channel_id)
        except ServiceError as exc:
            log.info("channel %s deleted: %s", channel_id, exc)
            return
        await self.hands.close(result)
        self._forget(result.table_id)
        self.threads.forget(channel_id)

    def _forget(self, table_id: int) -> None:
        self._published.pop(table_id, None)
        self._lost.discard(table_id)
        self._revived.pop(table_id, None)
        for module in (self.table, self.hands, self.notices, self.league_line):
            module.forget(table_id)
