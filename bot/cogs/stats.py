"""``/stats [user]``: a player's record in this server (or DM, or group DM), per game and
partner, and a picture of their rating over this season in each game they played."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.art.chart import rating_chart
from bot.cogs import anywhere, app
from bot.render.messages import MessageSpec
from bot.services.leagues import LeagueService, PlayerStats
from bot.text import clip
from bot.ui.answers import CONTENT_LIMIT, defer, reply, say
from bot.ui.cooldown import HEAVY, cost
from bot.ui.places import scope_of
from i18n import _, ngettext, number


def stats_text(name: str, st: PlayerStats) -> str:
    """A player's record as text."""
    if st.played == 0:
        return _("{name} has not finished a game here yet.", name=name)
    lines = [_("**{name}**: {games}, {won} won", name=name,
               games=ngettext("{n} game", "{n} games", st.played), won=number(st.won))]
    for g in st.games:
        title = (_("{game} (lowest score wins)", game=_(games.get(g.game).title))
                 if g.lower_wins else _(games.get(g.game).title))
        line = _("• {game}: {played} played, {won} won, {drawn} drawn, best score {best}",
                 game=title, played=number(g.played), won=number(g.won),
                 drawn=number(g.drawn), best=number(g.best_score))
        if g.favourite_partner is not None:
            line += _(", favourite partner {name}", name=g.favourite_partner.name)
        lines.append(line)
    return "\n".join(lines)


async def stats_answer(
    leagues: LeagueService, guild_id: int, user_id: int, name: str
) -> tuple[str, bytes | None]:
    """The record as text and, when the player has rating lines this season, the
    picture of them (drawn in a worker thread)."""
    text = stats_text(name, await leagues.player_stats(guild_id, user_id))
    lines = await leagues.rating_lines(guild_id, user_id)
    if not lines:
        return text, None
    titled = [(_(games.get(g).title), series) for g, series in lines]
    title = _("{name}: rating this season", name=name)
    return text, await asyncio.to_thread(rating_chart, title, titled)


class StatsCommands(commands.Cog):
    """Personal statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="stats", description="Your (or someone's) record in this server",
        extras=cost(HEAVY),
    )
    @app_commands.describe(user="Whose record (default: yours)")
    @anywhere
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        guild_id = scope_of(interaction)
        assert guild_id is not None  # not offered in the bot's own DM
        who = user or interaction.user

        await defer(interaction)
        text, chart = await stats_answer(app(self.bot).leagues, guild_id, who.id,
                                         who.display_name)
        if chart is None:
            await say(interaction, text)
            return
        await reply(interaction, MessageSpec(
            content=clip(text, CONTENT_LIMIT) if len(text) > CONTENT_LIMIT else text,
            files=(("rating.png", chart),),
        ))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(StatsCommands(bot))
