"""``/league create|join|standings|history`` and ``/league season new|list``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.cogs import app, ephemeral, game_choices
from bot.services.leagues import LeagueError, LeagueService, Standings
from storage.leagues import PlayedMatch

ROWS_SHOWN = 15


def _is_admin(interaction: discord.Interaction) -> bool:
    return interaction.permissions.manage_guild


def standings_text(st: Standings) -> str:
    """Standings as a short monospace table."""
    if st.game is None or not st.rows:
        return f"No games have counted toward **{st.league.name}** in season {st.season} yet."
    title = games.get(st.game).title
    head = (
        f"**{st.league.name}** · {title} · season {st.season}"
        f"{'' if st.current else ' (finished)'} · {st.scoring}"
    )
    points = st.scoring != "rating"
    lines = [
        f"{'#':>3} {'Player':<18} {'Pts' if points else 'Rating':>6} {'G':>3} "
        f"{'W':>3} {'D':>3} {'L':>3} Streak"
    ]
    for r in st.rows[:ROWS_SHOWN]:
        value = r.points if points else r.rating_display
        lines.append(
            f"{r.rank:>3} {r.name[:18]:<18} {value:>6} {r.games:>3} {r.wins:>3} "
            f"{r.draws:>3} {r.losses:>3} {r.streak}"
        )
    more = f"\n…and {st.total - ROWS_SHOWN} more" if st.total > ROWS_SHOWN else ""
    return head + "\n```\n" + "\n".join(lines) + "\n```" + more


def history_text(matches: list[PlayedMatch]) -> str:
    """The last matches, newest first, one line each."""
    if not matches:
        return "No games yet."
    out = []
    for m in matches:
        seats = sorted(m.seats, key=lambda s: (s.rank, s.seat))
        result = " · ".join(f"{s.rank}. {s.name} {s.score}" for s in seats)
        out.append(f"<t:{int(m.finished_at)}:d> **{games.get(m.game).title}** — {result}")
    return "\n".join(out)


@app_commands.guild_only()
class LeagueCommands(commands.GroupCog, group_name="league", group_description="Leagues"):
    """Every finished game counts toward the server's league; named leagues are extra."""

    season = app_commands.Group(name="season", description="League seasons")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> LeagueService:
        return app(self.bot).leagues

    @app_commands.command(name="create", description="Create a league (Manage Server)")
    @app_commands.describe(
        name="League name",
        game="Only this game counts (default: every game)",
        scoring="rating, points, or points:W/D/L such as points:3/1/0",
    )
    @app_commands.choices(game=game_choices())
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        game: str | None = None,
        scoring: str = "rating",
    ) -> None:
        assert interaction.guild_id is not None
        try:
            league = await self.service.create_league(
                interaction.guild_id,
                name,
                is_admin=_is_admin(interaction),
                game=game,
                scoring=scoring,
            )
        except LeagueError as exc:
            await ephemeral(interaction, str(exc))
            return
        what = games.get(league.game).title if league.game else "every game"
        await interaction.response.send_message(
            f"League **{league.name}** created ({what}, {league.scoring}). Play toward it with "
            f"`/table new … league:{league.name}`."
        )

    @app_commands.command(name="join", description="How to play in a league, and your place in it")
    @app_commands.describe(name="League name (default: the server's league)")
    async def join(self, interaction: discord.Interaction, name: str | None = None) -> None:
        assert interaction.guild_id is not None
        try:
            league = await self.service.league(interaction.guild_id, name)
        except LeagueError as exc:
            await ephemeral(interaction, str(exc))
            return
        what = games.get(league.game).title if league.game else "any game"
        how = (
            "every finished game in this server counts"
            if league.is_default
            else f"open tables with `/table new game:… league:{league.name}`"
        )
        await ephemeral(
            interaction,
            f"There is nothing to sign: in **{league.name}** ({what}, {league.scoring}) {how}. "
            "You appear in `/league standings` after your first counted game.",
        )

    @app_commands.command(name="standings", description="League standings")
    @app_commands.describe(
        league="League name (default: the server's league)",
        game="Which game's standings",
        season="Season number (default: current)",
    )
    @app_commands.choices(game=game_choices())
    async def standings(
        self,
        interaction: discord.Interaction,
        league: str | None = None,
        game: str | None = None,
        season: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        try:
            st = await self.service.standings(
                interaction.guild_id, league, game=game, season=season
            )
        except LeagueError as exc:
            await ephemeral(interaction, str(exc))
            return
        await interaction.response.send_message(standings_text(st))

    @app_commands.command(name="history", description="Recent games of a league or a player")
    @app_commands.describe(
        league="League name (default: the server's league)", user="Only this player's games"
    )
    async def history(
        self,
        interaction: discord.Interaction,
        league: str | None = None,
        user: discord.User | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        try:
            if user is not None:
                matches = await self.service.player_history(
                    interaction.guild_id, user.id, league=league
                )
            else:
                matches = await self.service.league_history(interaction.guild_id, league)
        except LeagueError as exc:
            await ephemeral(interaction, str(exc))
            return
        await ephemeral(interaction, history_text(matches)[:2000])

    @season.command(name="new", description="End the season and start the next (Manage Server)")
    @app_commands.describe(league="League name (default: the server's league)")
    async def season_new(self, interaction: discord.Interaction, league: str | None = None) -> None:
        assert interaction.guild_id is not None
        try:
            s = await self.service.new_season(
                interaction.guild_id, league, is_admin=_is_admin(interaction)
            )
        except LeagueError as exc:
            await ephemeral(interaction, str(exc))
            return
        await interaction.response.send_message(
            f"Season {s.season} has started; the last season's standings stay viewable with "
            f"`/league standings season:{s.season - 1}`."
        )

    @season.command(name="list", description="A league's seasons")
    @app_commands.describe(league="League name (default: the server's league)")
    async def season_list(
        self, interaction: discord.Interaction, league: str | None = None
    ) -> None:
        assert interaction.guild_id is not None
        try:
            seasons = await self.service.seasons(interaction.guild_id, league)
        except LeagueError as exc:
            await ephemeral(interaction, str(exc))
            return
        lines = [
            f"Season {s.season}: <t:{int(s.started_at)}:d> – "
            + (f"<t:{int(s.ended_at)}:d>" if s.ended_at else "now")
            for s in seasons
        ]
        await ephemeral(interaction, "\n".join(lines) or "No seasons yet.")


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(LeagueCommands(bot))
