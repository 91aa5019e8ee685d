"""``/table new|join|leave|start|addbot|kick|abort|status``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import (
    NAME_LENGTH,
    OPTIONS_LENGTH,
    anywhere,
    app,
    channel_of,
    game_choices,
    level_choices,
)
from bot.render.durations import EXAMPLES
from bot.ui.answers import say
from i18n import _

#: The longest ``timer:`` one can type (``1d23h59m`` and a little room).
TIMER_LENGTH = 16


@anywhere
class TableCommands(commands.GroupCog, group_name="table", group_description="Card tables"):
    """One table per channel (threads, DMs and group DMs are channels too)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        game="Which game",
        options="Game options as name=value, e.g. target=150 (see /rules)",
        league="Count the game toward this league too (the server's league always counts)",
        timer=f"Time per turn before the computer plays for you: {EXAMPLES}",
        thread="Open the table in a thread of its own (default: the server's /settings)",
    )
    @app_commands.choices(game=game_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: app_commands.Range[str, 1, OPTIONS_LENGTH] | None = None,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
        timer: app_commands.Range[str, 1, TIMER_LENGTH] | None = None,
        thread: bool | None = None,
    ) -> None:
        await app(self.bot).lobby.new_table(
            interaction, game, options, league, timer, thread
        )

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).lobby.join(interaction, channel)

    @app_commands.command(
        name="leave", description="Leave the table (a computer takes over in a game)"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).lobby.leave(interaction, channel)

    @app_commands.command(name="start", description="Deal the cards (host or Manage Server)")
    async def start(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).lobby.start(interaction, channel)

    @app_commands.command(name="addbot", description="Seat a computer player")
    @app_commands.describe(level="How well it plays")
    @app_commands.choices(level=level_choices())
    async def addbot(
        self, interaction: discord.Interaction, level: app_commands.Range[str, 1, 20] = "normal"
    ) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).lobby.add_bot(interaction, channel, level)

    @app_commands.command(
        name="kick", description="Remove a player from the lobby (host or Manage Server)"
    )
    @app_commands.describe(user="Who to remove")
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).lobby.kick(interaction, channel, user)

    @app_commands.command(
        name="abort", description="Close the table without a result (host or Manage Server)"
    )
    async def abort(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).lobby.abort(interaction, channel)

    @app_commands.command(
        name="status", description="Show the table again at the bottom of the channel"
    )
    async def status(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is None:
            await say(interaction, _("Use this in the table's channel."))
            return
        await app(self.bot).lobby.status(interaction, channel)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(TableCommands(bot))
