"""``/rules game:`` — the rules as Deckhand plays them, paged with ◀/▶, in the reader's
language; where Discord has no locale for it (Welsh, Icelandic, Tagalog, Swahili), the
answer says that slash commands stay English and how the language is chosen — Deckhand
has no ``/help``, and ``/rules`` is where a new player looks first."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import everywhere, game_choices
from bot.render.rules import rules_message
from bot.translator import commands_stay_english, discord_speaks
from bot.ui.answers import defer, reply
from i18n import current


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
        spec = rules_message(game)
        if not discord_speaks(current()):
            spec = replace(spec, content=commands_stay_english(current()))
        await reply(interaction, spec)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(RulesCommands(bot))
