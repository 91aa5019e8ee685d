"""``/game replay id:`` — step through a finished game of this server (``bot.ui.replays``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import anywhere, app
from bot.custom_ids import MAX_OPTION_INT
from bot.ui import replays


@anywhere
class GameCommands(commands.GroupCog, group_name="game", group_description="Finished games"):
    """Finished games of this server, DM or group DM, looked at again; answers only the
    asker, failures go through the one error path."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="replay", description="Step through a finished game")
    @app_commands.rename(match_id="id")
    @app_commands.describe(match_id="The game's number (in /league history and its result)")
    async def replay(
        self,
        interaction: discord.Interaction,
        match_id: app_commands.Range[int, 1, MAX_OPTION_INT],
    ) -> None:
        await replays.show(interaction, app(self.bot).db, match_id, 0, False)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(GameCommands(bot))
