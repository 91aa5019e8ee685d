"""The Discord application: ``create_bot(settings)`` builds it, ``run_bot(settings)`` runs it.

``create_bot`` only builds the client (tests start it against a fake Discord); everything
that needs the event loop happens in ``setup_hook``: open the database, build the table
and league services, load open tables, register the DynamicItems (so buttons of old
messages work after a restart), add the cogs, sync commands, and resume the tables'
computer moves and turn timers; the card faces missing from the application's emojis are
uploaded beside all that (``bot.card_emojis``). Command names, descriptions, options and
choices are translated for the Discord locales Deckhand has a catalog for
(``bot.translator``). Slash-command failures go to the one error path
(``bot.ui.answers``); nothing the bot sends pings anyone unless it says so.
With ``DECKHAND_SHARD_COUNT`` the bot is an ``AutoShardedBot``; each guild's interactions
arrive on its own shard, so a table (one per channel) belongs to its guild's shard.
Several processes can share one PostgreSQL database, each running the shards in
``DECKHAND_SHARD_IDS``: a process keeps, times and plays the computers of only the tables
it owns (``Settings.owns``). A move that arrives elsewhere (a hand button in a DM comes on
shard 0) is committed there by version and announced; the owner hears of it
(``TableService.watch``, started before tables load) and takes it from there.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import aiohttp
import discord
from discord.ext import commands

from bot.card_emojis import CardEmojis, EmojiReport, FaceSet, ensure_card_emojis
from bot.discord_io import RestCounter
from bot.failures import Unreachable
from bot.progress import Interrupted
from bot.services.events.service import EventService
from bot.services.leagues import LeagueService
from bot.services.preferences import PreferenceService
from bot.services.tables import TableService
from bot.services.tables.autoplay import Clock
from bot.settings import Settings, SettingsError
from bot.translator import CatalogTranslator
from bot.ui.answers import answer_error, say
from bot.ui.controller import Controller
from bot.ui.cooldown import SLOW_DOWN, Cooldown, cost_of
from bot.ui.event_tables import EventTables
from bot.ui.events import EventDesk
from bot.ui.items import ITEMS, on_interaction
from bot.ui.language import hear
from bot.ui.lobby import LobbyDesk
from bot.ui.publish import Publisher
from i18n import SOURCE, _, speaking
from storage.connect import open_database
from storage.db import Database

log = logging.getLogger(__name__)

COGS = (
    "bot.cogs.tables",
    "bot.cogs.play",
    "bot.cogs.rules",
    "bot.cogs.league",
    "bot.cogs.game",
    "bot.cogs.stats",
    "bot.cogs.settings",
    "bot.cogs.event",
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
    cooldown: Cooldown
    db: Database
    tables: TableService
    leagues: LeagueService
    preferences: PreferenceService
    publisher: Publisher
    controller: Controller
    events: EventDesk
    event_tables: EventTables
    #: Where table seeds come from; ``None`` is the service's default (random). Tests
    #: pass a counter so every game is the same on every run.
    table_seeds: Callable[[], int] | None = None
    #: The clock of timers, computer moves and interaction tokens' ages; ``None``: the
    #: system's. Tests pass one that follows the fake Discord's, so a day passes at once.
    clock: Clock | None = None
    #: The card faces to keep as application emojis (the art plugs in here); ``None``:
    #: none, every card shows as text.
    card_faces: FaceSet | None = None
    #: Card code and palette → emoji, filled while ``emoji_upload`` runs.
    card_emojis: CardEmojis
    #: The start-up upload of missing card emojis, running beside the game.
    emoji_upload: asyncio.Task[EmojiReport] | None = None

    def _deckhand_init(self, settings: Settings) -> None:
        self.settings = settings
        self.counter = RestCounter()
        rate = settings.user_rate
        self.cooldown = Cooldown(per_second=rate, burst=max(1, int(4 * rate)))

    async def _deckhand_setup(self, bot: commands.Bot | commands.AutoShardedBot) -> None:
        self.counter.install(bot.http)
        self._start_emoji_upload(bot)
        self.db = await open_database(self.settings.db)
        self.preferences = PreferenceService(self.db)
        self.tables = TableService(
            self.db, pace=self.settings.bot_move_delay, new_seed=self.table_seeds,
            owns=self.settings.owns, stand_in=self.preferences.stand_in, clock=self.clock,
        )
        self.leagues = LeagueService(self.db)
        event_service = EventService(self.db)
        self.tables.add_match_recorder(self.leagues.record_match)
        self.tables.add_match_recorder(event_service.record_match)
        self.tables.watch()
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
        timing: dict[str, Any] = (
            {"clock": self.clock.now, "sleep": self.clock.sleep, "wall": self.clock.now}
            if self.clock is not None else {}
        )
        self.publisher = Publisher(
            bot, self.db, self.tables, self.leagues, self.preferences,
            card_emojis=self.card_emojis, ping_after=self.settings.turn_ping_after, **timing,
        )
        await self.publisher.load()
        self.tables.subscribe(self.publisher.on_event)
        self.event_tables = EventTables(
            bot, event_service, self.tables, self.publisher,
            turn_timer=self.settings.turn_timer, owns=self.settings.owns,
        )
        self.events = EventDesk(
            event_service, self.tables, self.leagues, self.publisher, self.event_tables
        )
        self.lobby = LobbyDesk(
            self.db, self.tables, self.leagues, self.publisher, self.preferences,
            turn_timer=self.settings.turn_timer,
        )
        self.controller = Controller(
            self.db, self.tables, self.publisher, self.lobby, self.events, self.cooldown
        )
        self.tables.on_finish(self.event_tables.finished)
        bot.add_dynamic_items(*ITEMS)
        bot.add_listener(on_interaction, "on_interaction")
        bot.tree.on_error = _on_command_error  # type: ignore[method-assign]
        _on_channel_deleted(bot, self.publisher)
        for name in COGS:
            await bot.load_extension(name)
        await bot.tree.set_translator(CatalogTranslator())
        if self.settings.sync_commands:
            if self.settings.dev_guild is not None:
                guild = discord.Object(self.settings.dev_guild)
                bot.tree.copy_global_to(guild=guild)
                await bot.tree.sync(guild=guild)
            else:
                await bot.tree.sync()
        self.tables.resume()
        self.event_tables.resume()
        self.leagues.start_backfill()

    def _start_emoji_upload(self, bot: commands.Bot | commands.AutoShardedBot) -> None:
        """Upload the missing card faces in the background (``bot.card_emojis``)."""
        faces = self.card_faces
        self.card_emojis = CardEmojis(faces.name_of if faces else None)
        if faces is None:
            log.info("card emojis: no card faces configured; cards show as text")
        elif not self.settings.card_emojis:
            log.info("card emojis: off (DECKHAND_CARD_EMOJIS); cards show as text")
        else:

            async def upload(faces: FaceSet) -> EmojiReport:
                drawn = await asyncio.to_thread(faces.draw)
                return await ensure_card_emojis(bot, drawn, self.card_emojis)

            self.emoji_upload = asyncio.create_task(upload(faces), name="card emojis")

    async def setup_hook(self) -> None:
        await self._deckhand_setup(self)

    async def close(self) -> None:
        # Tables and messages first: nothing may be sent once Discord's session is closed.
        if self.emoji_upload is not None:
            self.emoji_upload.cancel()
            await asyncio.gather(self.emoji_upload, return_exceptions=True)
        if hasattr(self, "event_tables"):
            await self.event_tables.close()
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "leagues"):
            await self.leagues.close()
        if hasattr(self, "publisher"):
            await self.publisher.close()
        await super().close()
        if hasattr(self, "db"):
            await self.db.close()


async def _on_command_error(
    interaction: discord.Interaction, error: discord.app_commands.AppCommandError
) -> None:
    """Every slash command's failure: answered (never left "thinking…") and logged."""
    if isinstance(error, discord.app_commands.CheckFailure) and interaction.response.is_done():
        return  # refused by a check that answered already (the cooldown)
    original = getattr(error, "original", error)
    await answer_error(interaction, original)


class DeckhandTree(discord.app_commands.CommandTree):
    """The command tree: every command and autocomplete passes the user's cooldown."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        hear(interaction)  # the interaction's own language until its player's is read
        command = interaction.command
        tokens = (
            cost_of(command.extras)
            if command is not None
            and interaction.type is discord.InteractionType.application_command
            else 1.0
        )
        if cast(DeckhandMixin, self.client).cooldown.allow(interaction.user.id, tokens):
            return True
        if interaction.type is discord.InteractionType.application_command:
            await say(interaction, _(SLOW_DOWN))
        return False


def _on_channel_deleted(
    bot: commands.Bot | commands.AutoShardedBot, publisher: Publisher
) -> None:
    """A deleted channel or thread closes its table. Threads are heard through the raw
    event: discord.py drops an archived thread from its cache, and only a cached thread's
    deletion reaches ``on_thread_delete``."""

    async def channel_closed(channel: discord.abc.GuildChannel) -> None:
        await publisher.channel_deleted(channel.id)

    async def thread_closed(payload: discord.RawThreadDeleteEvent) -> None:
        await publisher.channel_deleted(payload.thread_id)

    bot.add_listener(channel_closed, "on_guild_channel_delete")
    bot.add_listener(thread_closed, "on_raw_thread_delete")


class DeckhandBot(DeckhandMixin, commands.Bot):
    """Deckhand on one connection."""

    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=DeckhandTree,
            guild_ready_timeout=guild_ready_timeout,
        )
        self._deckhand_init(settings)


class ShardedDeckhandBot(DeckhandMixin, commands.AutoShardedBot):
    """Deckhand on several shards (``DECKHAND_SHARD_COUNT``/``DECKHAND_SHARD_IDS``)."""

    def __init__(self, settings: Settings, *, guild_ready_timeout: float = 2.0) -> None:
        extra: dict[str, Any] = {}
        if settings.shard_ids:
            extra["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=DeckhandTree,
            shard_count=settings.shard_count,
            guild_ready_timeout=guild_ready_timeout,
            **extra,
        )
        self._deckhand_init(settings)


def _not_about_voice(record: logging.LogRecord) -> bool:
    """Drop discord.py's start-up warnings that voice is unsupported (PyNaCl, davey): a
    card bot never joins a voice channel."""
    return not str(record.msg).endswith("voice will NOT be supported")


def quiet_library_loggers() -> None:
    """discord.py logs whole gateway payloads (a clicked hand) and callback URLs (with the
    interaction token) at DEBUG: its loggers never go below INFO, whatever the root level.
    Its warnings that voice is unsupported are dropped (Deckhand uses no voice)."""
    library = logging.getLogger("discord")
    if library.getEffectiveLevel() < logging.INFO:
        library.setLevel(logging.INFO)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    client = logging.getLogger("discord.client")
    if _not_about_voice not in client.filters:
        client.addFilter(_not_about_voice)


def art_faces() -> FaceSet:
    """Deckhand's own card faces (``bot.art.faces``), every palette, as application emojis."""
    from bot.art import faces

    # ``/settings deck:`` → the art's palette.
    palettes = {"two-colour": "two", "four-colour": "four"}

    def draw() -> dict[str, bytes]:
        return {name: png for p in faces.PALETTES for name, png in faces.faces(p).items()}

    def name_of(card: str, deck: str) -> str:
        return faces.emoji_name(card, palettes[deck])

    return FaceSet(draw=draw, name_of=name_of)


def create_bot(
    settings: Settings | None = None,
    *,
    table_seeds: Callable[[], int] | None = None,
    card_faces: FaceSet | None = None,
    guild_ready_timeout: float = 2.0,
    clock: Clock | None = None,
) -> DeckhandBot | ShardedDeckhandBot:
    """The configured bot, not yet connected (``settings`` default: the environment).
    ``card_faces``: the faces to keep as application emojis (none: cards as text).
    ``clock``: the time of timers, computer moves and tokens (none: the system's).
    ``guild_ready_timeout``: how long discord.py waits for more guilds after the last one
    arrived before it calls the bot ready (tests, on a local fake, pass less)."""
    settings = settings or Settings()
    quiet_library_loggers()
    bot: DeckhandBot | ShardedDeckhandBot
    if settings.shard_count is not None or settings.shard_ids:
        bot = ShardedDeckhandBot(settings, guild_ready_timeout=guild_ready_timeout)
    else:
        bot = DeckhandBot(settings, guild_ready_timeout=guild_ready_timeout)
    bot.table_seeds = table_seeds
    bot.card_faces = card_faces
    bot.clock = clock
    return bot


async def declared_commands(settings: Settings) -> list[dict[str, Any]]:
    """The commands this Deckhand registers, as ``setup_hook`` syncs them (translated
    payloads); for ``deckhand doctor`` to compare with what Discord holds."""
    bot = create_bot(settings)
    for name in COGS:
        await bot.load_extension(name)
    translator = CatalogTranslator()
    await bot.tree.set_translator(translator)
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


def run_bot(settings: Settings, *, table_seeds: Callable[[], int] | None = None) -> int:
    """Run until stopped; the exit code for ``deckhand run`` (``table_seeds``: as for
    ``create_bot``; tests' bot processes deal known games)."""
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.discord_token is None:
        log.error("DISCORD_TOKEN is not set")
        return 2
    bot = create_bot(settings, table_seeds=table_seeds, card_faces=art_faces())
    token = settings.discord_token.get_secret_value().strip()

    async def main() -> None:
        # Everything the bot says is in its reader's language, set where it renders
        # (``i18n.speaking``); the operator's terminal language is not the players'.
        with speaking(SOURCE):
            async with bot:
                await bot.start(token)

    try:
        asyncio.run(main())
    except discord.LoginFailure:
        raise SettingsError(_(
            "Discord refused the token: check DISCORD_TOKEN in .env (Developer Portal → your"
            " application → Bot → Reset Token).")) from None
    except discord.PrivilegedIntentsRequired:
        raise SettingsError(_(
            "Discord refused the gateway intents Deckhand asked for: check the application's"
            " Bot → Privileged Gateway Intents.")) from None
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as exc:
        raise Unreachable(_(
            "Cannot reach Discord ({error}): check this machine's network connection, then run"
            " again.", error=type(exc).__name__)) from None
    except KeyboardInterrupt:
        raise Interrupted(_("Stopped. Every move was saved as it was made.")) from None
    return 0
