"""Where an interaction comes from, as Deckhand plays there: one answer every handler asks.

Deckhand is installed to a server (its bot is a member: GUILD_INSTALL) or to a user's
account (USER_INSTALL: its commands follow that user into every server, DM and group DM,
where its bot is no member). Decisions (the Discord rules behind each are cited in
docs/user-install.md):

* **The place** of a table is a channel: a server's channel or thread, or a DM or group DM
  between users (interaction context PRIVATE_CHANNEL). The bot's own DM with a user holds
  hand DMs, never a table (``place_of`` is None there).
* **Its reach** (``Reach``): the bot's token reaches a server's channel when the server
  installed the app (the interaction's ``authorizing_integration_owners`` names the
  guild: ``is_guild_integration``) *with its bot* — a server can install the commands
  alone (the ``applications.commands`` scope without ``bot``, developers/topics/oauth2.mdx),
  and then the bot is no member: no guild of the client's (``Client.get_guild``) — and
  never a DM or group DM between users (a bot cannot join one). Anywhere else only
  interaction tokens reach the table; the reach is decided from the interaction that
  opens the table and stored with it (a table whose bot is refused later turns into one,
  ``Publisher.no_member``).
* **Its league scope**: the server's id; in a DM or group DM its channel id (snowflakes are
  unique across kinds), so a group of friends keeps its own Default league, history,
  replays and ``/stats``.
* **Public answers**: in a server that did not install the app, Discord makes the answers
  to a member without Use External Apps (or Send Messages) ephemeral; ``answers_public``
  says so before a table nobody else could see is opened.
* **Who may do what Manage Server allows** is one question, ``is_admin``: in a server,
  Manage Server; in a DM or group DM, which has no such permission, the user who opened
  the first table there (its *keeper*, recorded then): they start, kick and close any
  table there and run its ``/league`` admin commands. Asked for what only an admin may do,
  anyone else is told in the place's words: a server's service says Manage Server; a
  DM's refusal names its keeper (``NotKeeper``).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.services.errors import NotAllowed
from bot.ui.publish.delivery import Reach
from i18n import lazy_gettext
from storage import places
from storage.db import Database


class NotKeeper(NotAllowed):
    """Someone other than a DM's keeper asked for what only the keeper may do there."""


@dataclass(frozen=True)
class Place:
    """Where an interaction came from: its channel, the league scope, whether it is a DM or
    group DM between users, and how Deckhand reaches a table there."""

    channel_id: int
    scope: int
    private: bool
    reach: Reach


def place_of(interaction: discord.Interaction) -> Place | None:
    """The place of the interaction; None in the bot's own DM (no table lives there)."""
    channel_id = interaction.channel_id
    if channel_id is None or interaction.context.dm_channel:
        return None
    guild_id = interaction.guild_id
    if guild_id is None:
        return Place(channel_id, channel_id, True, Reach.TOKENS)
    member = interaction.client.get_guild(guild_id) is not None
    reach = Reach.BOT if interaction.is_guild_integration() and member else Reach.TOKENS
    return Place(channel_id, guild_id, False, reach)


def scope_of(interaction: discord.Interaction) -> int | None:
    """The league scope of the interaction's place (None in the bot's own DM)."""
    place = place_of(interaction)
    return place.scope if place is not None else None


def answers_public(interaction: discord.Interaction) -> bool:
    """Whether Discord shows Deckhand's public answers to this user's interaction to
    everyone: not in a server that did not install the app while the member lacks Use
    External Apps or Send Messages there (their answers are forced ephemeral)."""
    if interaction.guild_id is None or interaction.is_guild_integration():
        return True
    granted = interaction.permissions
    return granted.use_external_apps and granted.send_messages


async def is_admin(
    db: Database, interaction: discord.Interaction, needed_for: str | None = None
) -> bool:
    """Whether the user may do what Manage Server allows here: Manage Server in a server;
    in a DM or group DM, being its keeper. With ``needed_for`` (what only an admin may do,
    a verb phrase), anyone else in a DM or group DM is refused in its words
    (``NotKeeper``, naming the keeper); in a server the answer is handed on for the
    service to refuse in its own."""
    place = place_of(interaction)
    if place is None or not place.private:
        return interaction.guild_id is not None and interaction.permissions.manage_guild
    keeper = await db.read(places.keeper, place.scope)
    if keeper == interaction.user.id:
        return True
    if needed_for is None:
        return False
    if keeper is None:
        raise NotKeeper(lazy_gettext(
            "Only this conversation's keeper can {what}: whoever opens its first table"
            " (`/table new`) keeps it.", what=needed_for,
        ))
    raise NotKeeper(lazy_gettext(
        "Only {keeper}, who opened this conversation's first table, can {what} here.",
        keeper=f"<@{keeper}>", what=needed_for,
    ))
