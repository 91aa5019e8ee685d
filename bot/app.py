"""The Discord application: ``create_bot(settings)`` builds it, ``run_bot(settings)`` runs it.

``create_bot`` only builds the client (tests start it against a fake Discord); everything
that needs the event loop happens in ``setup_hook``: open the database, build the table
and league services, load open tables, register the DynamicItems (so buttons of old
messages work after a restart), start the turn timers, add the cogs and sync commands.
With ``DECKHAND_SHARD_COUNT`` the bot is an ``AutoShardedBot``; each guild's interactions
arrive on its own shard, so a table (one per channel) lives on its guild's shard.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.discord_io import RestCounter
from bot.services.leagues import LeagueService
from bot.services.tables import TableService
from bot.services.timers import TurnTimers
from bot.settings import Settings
from bot.ui.controller import Controller
from bot.ui.items import ITEMS
from storage.db import Database

log = logging.getLogger(__name__)

COGS = (
    "bot.cogs.tables",
    "bot.cogs.play",
    "bot.cogs.rules",
    "bot.cogs.league",
    "bot.cogs.stats",
)


def intents() -> discord.Intents:
    """Only what Deckhand needs: guild and channel events (no message content, no members)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


# For the type checker the mixin is a Bot (it is only ever mixed into one); at run time it
# stays a plain class so each bot keeps its own discord.py base.
if TYPE_CHECKING:
    _BotBase = commands.Bot
else:
    _BotBase = object


class DeckhandMixin(_BotBase):
    """What every Deckhand bot has once ``setup_hook`` ran, and its start-up and close."""

    settings: Settings
    counter: RestCounter
    db: Database
    tables: TableService
    leagues: LeagueService
    timers: TurnTimers
    controller: Controller
    #: Where table seeds come from; ``None`` is the service's default (random). Tests
    #: pass a counter so every game is the same on every run.
    table_seeds: Callable[[], int] | None = None

    async def _deckhand_setup(self, bot: commands.Bot | commands.AutoShardedBot) -> None:
        self.counter.install(bot.http)
        self.db = await Database.open(self.settings.db)
        delay = self.settings.bot_move_delay
        self.tables = (
            TableService(self.db, bot_delay=delay)
            if self.table_seeds is None
            else TableService(self.db, bot_delay=delay, new_seed=self.table_seeds)
        )
        self.leagues = LeagueService(self.db)
        self.tables.add_match_recorder(self.leagues.record_match)
        report = await self.tables.load()
        # The loaded tables live as long as the process: keep them out of the collector's
        # full scans, which otherwise pause every move for tens of ms with 1,000 tables.
        gc.freeze()
        log.info(
            "loaded %d open tables (%d playing, %d quarantined) in %.3f s",
            report.loaded,
            report.playing,
            len(report.quarantined),
            report.seconds,
        )
        self.controller = Controller(
            bot,
            self.db,
            self.tables,
            self.leagues,
            turn_timer=self.settings.turn_timer,
            show_steps=self.settings.bot_move_delay > 0,
            ping_after=self.settings.turn_ping_after,
        )
        bot.add_dynamic_items(*ITEMS)
        self.timers = TurnTimers(self.tables, notify=self.controller.on_timer)
        for name in COGS:
            await bot.load_extension(name)
        if self.settings.sync_commands:
            if self.settings.dev_guild is not None:
                guild = discord.Object(self.settings.dev_guild)
                bot.tree.copy_global_to(guild=guild)
                await bot.tree.sync(guild=guild)
            else:
                await bot.tree.sync()
        self.timers.start()

    async def setup_hook(self) -> None:
        await self._deckhand_setup(self)

    async def close(self) -> None:
        await super().close()
        await self._deckhand_close()

    async def _deckhand_close(self) -> None:
        if hasattr(self, "timers"):
            await self.timers.stop()
        if hasattr(self, "controller"):
            await self.controller.close()
        if hasattr(self, "db"):
            await self.db.close()


class DeckhandBot(DeckhandMixin, commands.Bot):
    """Deckhand on one connection."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), help_command=None
        )
        self.settings = settings
        self.counter = RestCounter()


class ShardedDeckhandBot(DeckhandMixin, commands.AutoShardedBot):
    """Deckhand on several shards (``DECKHAND_SHARD_COUNT``/``DECKHAND_SHARD_IDS``)."""

    def __init__(self, settings: Settings) -> None:
        extra: dict[str, Any] = {}
        if settings.shard_ids:
            extra["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            shard_count=settings.shard_count,
            **extra,
        )
        self.settings = settings
        self.counter = RestCounter()


def create_bot(
    settings: Settings | None = None, *, table_seeds: Callable[[], int] | None = None
) -> DeckhandBot | ShardedDeckhandBot:
    """The configured bot, not yet connected (``settings`` default: the environment)."""
    settings = settings or Settings()
    bot: DeckhandBot | ShardedDeckhandBot
    if settings.shard_count is not None or settings.shard_ids:
        bot = ShardedDeckhandBot(settings)
    else:
        bot = DeckhandBot(settings)
    bot.table_seeds = table_seeds
    return bot


def run_bot(settings: Settings) -> int:
    """Run until stopped; the exit code for ``deckhand run``."""
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    if settings.discord_token is None:
        log.error("DISCORD_TOKEN is not set")
        return 2
    bot = create_bot(settings)
    token = settings.discord_token.get_secret_value().strip()

    async def main() -> None:
        async with bot:
            await bot.start(token)

    try:
        asyncio.run(main())
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (Bot → Reset Token)")
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
