"""``/rules game:`` — the rules as Deckhand plays them, paged with ◀/▶."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import everywhere, game_choices
from bot.render.rules import rules_message
from bot.ui.answers import defer, reply


class RulesCommands(commands.Cog):
    """The rules of each game, including Deckhand's decisions where rule books differ."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played here")
    @everywhere
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await defer(interaction)  # then the rules speak the reader's language
        await reply(interaction, rules_message(game))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(RulesCommands(bot))
