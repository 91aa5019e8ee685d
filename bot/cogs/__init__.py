"""Slash commands, one cog per feature; each is thin: parse → controller/service → reply."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

import discord
from discord import app_commands

import games

if TYPE_CHECKING:
    from bot.services.leagues import LeagueService
    from bot.services.preferences import PreferenceService
    from bot.settings import Settings
    from bot.ui.controller import Controller
    from bot.ui.events import EventDesk
    from storage.db import Database


#: The longest text a string option takes (Discord would allow 6,000 characters); a move
#: is at most ``bot.text.MOVE_LENGTH``.
NAME_LENGTH = 100
OPTIONS_LENGTH = 200


class _App(Protocol):
    controller: Controller
    events: EventDesk
    leagues: LeagueService
    preferences: PreferenceService
    settings: Settings
    db: Database


def app(client: discord.Client) -> _App:
    """The Deckhand parts of the running bot (set up in ``bot.app``)."""
    return cast(_App, client)


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game, for ``game:`` options."""
    return [app_commands.Choice(name=games.get(n).title, value=n) for n in games.names()]


def level_choices() -> list[app_commands.Choice[str]]:
    """Every computer level any game has."""
    return [app_commands.Choice(name=level, value=level) for level in games.levels()]


def channel_of(interaction: discord.Interaction) -> int | None:
    """The channel a table command is about (None in DMs)."""
    return interaction.channel_id if interaction.guild_id is not None else None
