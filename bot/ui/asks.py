"""What an interaction asks, read one way by every handler: a table's options and turn
timer, whether the clicked message is the clicker's alone, and the permissions the bot
lacks where it was asked (admin rights are one question of the place's,
``bot.ui.places.is_admin``)."""

from __future__ import annotations

import discord

from bot import permissions
from bot.render.durations import parse_timer
from bot.render.options import option_pairs
from bot.services.errors import BadOptions


def table_options(options: str | None) -> dict[str, str]:
    """``name=value`` options as a mapping (refused plainly when malformed)."""
    try:
        return option_pairs(options or "")
    except ValueError as exc:
        raise BadOptions(str(exc)) from None


def table_timer(timer: str | None, default: int) -> int:
    """``timer:`` as seconds per turn (``bot.render.durations``; ``default`` when not
    given), refused plainly when it cannot be read."""
    if timer is None:
        return default
    try:
        return parse_timer(timer)
    except ValueError as exc:
        raise BadOptions(str(exc)) from None


def private(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is seen only by the clicker (the bot's DM, or
    ephemeral)."""
    message = interaction.message
    return interaction.context.dm_channel is True or (
        message is not None and message.flags.ephemeral
    )


def lacking(interaction: discord.Interaction, *uses: str) -> str:
    """The permissions ``uses`` (``bot.permissions``) need that the bot lacks here, in
    words ("" when none)."""
    return permissions.missing(interaction.app_permissions, *uses)
