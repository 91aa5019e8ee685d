"""``/hand``, ``/play move:`` (autocomplete offers exactly the caller's legal moves) and
``/hint`` (the expert's move; at practice tables only: ``bot.services.tables.hints``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import anywhere, app, channel_of
from bot.text import MOVE_LENGTH
from bot.ui.answers import say
from i18n import _


class PlayCommands(commands.Cog):
    """Playing without buttons (and the ephemeral fallback when DMs are closed)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="Show your hand and moves (only you see it)")
    @anywhere
    async def hand(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).controller.hand(interaction, channel)

    @app_commands.command(name="play", description="Make a move at this channel's table")
    @app_commands.describe(move="Your move, e.g. discard QH (start typing for your moves)")
    @anywhere
    async def play(
        self, interaction: discord.Interaction, move: app_commands.Range[str, 1, MOVE_LENGTH]
    ) -> None:
        channel = channel_of(interaction)
        if channel is None:
            await say(interaction, _("Use `/play` in the table's channel."))
            return
        await app(self.bot).controller.play(interaction, channel, move)

    @app_commands.command(
        name="hint",
        description="The expert computer's move for you (practice tables only: /table new"
        " hints:True)",
    )
    @anywhere
    async def hint(self, interaction: discord.Interaction) -> None:
        if (channel := channel_of(interaction)) is not None:
            await app(self.bot).controller.hint(interaction, channel)

    @play.autocomplete("move")
    async def moves(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        channel = channel_of(interaction)
        if channel is None:
            return []
        found = await app(self.bot).controller.move_choices(interaction, channel, current)
        return [app_commands.Choice(name=label, value=move) for label, move in found]


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(PlayCommands(bot))
