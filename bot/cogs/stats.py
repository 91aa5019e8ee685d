"""``/stats [user]``: a player's record in this server, per game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.cogs import app
from bot.services.leagues import PlayerStats
from bot.ui.answers import privately


def stats_text(name: str, st: PlayerStats) -> str:
    """A player's record as text."""
    if st.played == 0:
        return f"{name} has not finished a game here yet."
    lines = [f"**{name}**: {st.played} game{'s' if st.played != 1 else ''}, {st.won} won"]
    for g in st.games:
        title = games.get(g.game).title + (" (lowest score wins)" if g.lower_wins else "")
        line = (
            f"• {title}: {g.played} played, {g.won} won, {g.drawn} drawn,"
            f" best score {g.best_score}"
        )
        if g.favourite_partner is not None:
            line += f", favourite partner {g.favourite_partner.name}"
        lines.append(line)
    return "\n".join(lines)


class StatsCommands(commands.Cog):
    """Personal statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="Your (or someone's) record in this server")
    @app_commands.describe(user="Whose record (default: yours)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        who = user or interaction.user

        async def work() -> str:
            st = await app(self.bot).leagues.player_stats(guild_id, who.id)
            return stats_text(who.display_name, st)

        await privately(interaction, work)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(StatsCommands(bot))
