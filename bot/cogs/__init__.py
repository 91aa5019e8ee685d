"""Slash commands, one cog per feature; each is thin: parse → controller/service → reply.

Where each command is offered is declared on it (``integration_types`` and ``contexts``,
developers/interactions/application-commands.mdx "Contexts"), one of three ways:

* ``anywhere`` — tables, hands, moves, hints, replays, ``/stats``, ``/league``,
  ``/settings``: in servers (installed there, or by the user) and in DMs and group DMs
  between users (a user install); not in the bot's own DM, which holds hand DMs only.
* ``everywhere`` — ``/rules``: the bot's own DM as well.
* ``server_only`` — ``/event``: its tables play in threads the bot makes, so only where a
  server installed it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import discord
from discord import app_commands

import games
from bot.ui.places import place_of

if TYPE_CHECKING:
    from bot.services.leagues import LeagueService
    from bot.services.preferences import PreferenceService
    from bot.settings import Settings
    from bot.ui.controller import Controller
    from bot.ui.events import EventDesk
    from bot.ui.lobby import LobbyDesk
    from storage.db import Database


#: The longest text a string option takes (Discord would allow 6,000 characters); a move
#: is at most ``bot.text.MOVE_LENGTH``.
NAME_LENGTH = 100
OPTIONS_LENGTH = 200


class _App(Protocol):
    controller: Controller
    events: EventDesk
    lobby: LobbyDesk
    leagues: LeagueService
    preferences: PreferenceService
    settings: Settings
    db: Database


T = TypeVar("T")


def _offered(
    *, user: bool, guilds: bool = True, dms: bool = False, private: bool = False
) -> Callable[[T], T]:
    installs = app_commands.allowed_installs(guilds=True, users=user)
    contexts = app_commands.allowed_contexts(guilds=guilds, dms=dms, private_channels=private)

    def declare(item: T) -> T:
        return installs(contexts(item))

    return declare


anywhere = _offered(user=True, private=True)
everywhere = _offered(user=True, dms=True, private=True)
server_only = _offered(user=False)


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
    """The channel a table command is about (None in the bot's own DM)."""
    place = place_of(interaction)
    return place.channel_id if place is not None else None
