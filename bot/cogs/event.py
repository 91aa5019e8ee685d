"""``/event new|join|leave|start|cancel|standings|list``: Swiss, round robin, duplicate."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.cogs import NAME_LENGTH, OPTIONS_LENGTH, app, level_choices, server_only
from bot.services.events.duplicate import DUPLICATE_GAMES
from bot.services.events.service import MAX_BOARDS, MAX_NAME, MAX_ROUNDS
from bot.ui.events import EventDesk

#: The largest event id an option takes (Discord takes integers below 2**53).
EVENT_ID = app_commands.Range[int, 1, 2**53 - 1]
Format = Literal["swiss", "round_robin", "duplicate"]


def _games() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=games.get(g).title, value=g) for g in sorted(DUPLICATE_GAMES)]


@server_only
class EventCommands(commands.GroupCog, group_name="event", group_description="Events"):
    """Events played in threads of a channel; each command goes through ``EventDesk``. Only
    where a server installed Deckhand: the bot makes the threads."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def desk(self) -> EventDesk:
        return app(self.bot).events

    @app_commands.command(name="new", description="Create an event with sign-ups (Manage Server)")
    @app_commands.describe(
        name="Event name",
        game="The game",
        format="swiss, round_robin, or duplicate (every table plays the same deals)",
        rounds="How many rounds",
        boards="Duplicate: boards (deals) each table plays a round",
        options="Game options such as target=100",
        league="The league the games count toward (default: the server's)",
        computer="A computer of this level evens out an odd field (default: a bye instead)",
    )
    @app_commands.choices(game=_games(), computer=level_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        game: str,
        format: Format,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS],
        boards: app_commands.Range[int, 1, MAX_BOARDS] = 2,
        options: app_commands.Range[str, 1, OPTIONS_LENGTH] | None = None,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
        computer: str | None = None,
    ) -> None:
        await self.desk.create(
            interaction, name=name, game=game, format=format, rounds=rounds, boards=boards,
            options=options, league=league, computer=computer,
        )

    @app_commands.command(name="join", description="Sign up for an event")
    @app_commands.describe(event="Event number (default: the newest here)")
    async def join(self, interaction: discord.Interaction, event: EVENT_ID | None = None) -> None:
        await self.desk.command(interaction, "join", event)

    @app_commands.command(name="leave", description="Take back a sign-up, or withdraw")
    @app_commands.describe(event="Event number (default: the newest here)")
    async def leave(self, interaction: discord.Interaction, event: EVENT_ID | None = None) -> None:
        await self.desk.command(interaction, "leave", event)

    @app_commands.command(name="start", description="Pair round 1 and open its tables")
    @app_commands.describe(event="Event number (default: the newest here)")
    async def start(self, interaction: discord.Interaction, event: EVENT_ID | None = None) -> None:
        await self.desk.command(interaction, "start", event)

    @app_commands.command(name="cancel", description="End an event without a result")
    @app_commands.describe(event="Event number (default: the newest here)")
    async def cancel(self, interaction: discord.Interaction, event: EVENT_ID | None = None) -> None:
        await self.desk.cancel(interaction, event)

    @app_commands.command(name="standings", description="An event's standings and round")
    @app_commands.describe(event="Event number (default: the newest here)")
    async def standings(
        self, interaction: discord.Interaction, event: EVENT_ID | None = None
    ) -> None:
        await self.desk.standings(interaction, event)

    @app_commands.command(name="list", description="This server's events")
    async def list_events(self, interaction: discord.Interaction) -> None:
        await self.desk.listing(interaction)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(EventCommands(bot))
