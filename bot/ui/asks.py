"""What an interaction asks, read one way by every handler: a table's options, the asker's
admin rights, and the permissions the bot lacks where it was asked."""

from __future__ import annotations

import discord

from bot import permissions
from bot.render.options import option_pairs
from bot.services.errors import BadOptions


def table_options(options: str | None) -> dict[str, str]:
    """``name=value`` options as a mapping (refused plainly when malformed)."""
    try:
        return option_pairs(options or "")
    except ValueError as exc:
        raise BadOptions(str(exc)) from None


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server in the guild the interaction came from."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def lacking(interaction: discord.Interaction, *uses: str) -> str:
    """The permissions ``uses`` (``bot.permissions``) need that the bot lacks here, in
    words ("" when none)."""
    return permissions.missing(interaction.app_permissions, *uses)
