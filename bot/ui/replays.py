"""``/game replay id:`` and its buttons: a finished game of this server, step by step.

Decisions:
* A replay is for the one who asked: it is answered ephemerally, and each click edits that
  message in place (acknowledged first, as every handler that reads the database is).
* Never trust a button: every click looks the match up again in the guild it came from,
  through the replay service's checks (a finished table, its seed, a log that replays to a
  finished game), and the hands are revealed only by that service, only for such a game.
* Refusals go through the one error path (``bot.ui.answers``): the service's ``NoReplay``
  says "There is no finished game #N here."
"""

from __future__ import annotations

import discord

from bot.render.messages import MessageSpec
from bot.render.replay import replay_message
from bot.services.errors import NoReplay
from bot.services.replays import guild_replay
from bot.text import plain
from bot.ui.answers import defer, reply, update
from bot.ui.places import scope_of
from i18n import lazy_gettext
from storage.db import Database


async def replay_spec(
    db: Database, guild_id: int | None, match_id: int, step: int, hands: bool
) -> MessageSpec:
    """The message of a finished game of the place whose scope is ``guild_id`` at ``step``
    (``NoReplay`` when there is none here to show; in the bot's own DM there never is)."""
    if guild_id is None:
        raise NoReplay(lazy_gettext("There is no finished game #{id} here.", id=match_id))
    rep = await guild_replay(db, guild_id, match_id, step, hands=hands)
    return replay_message(rep, [plain(str(n)) for n in rep.names])


async def show(
    interaction: discord.Interaction, db: Database, match_id: int, step: int, hands: bool
) -> None:
    """Answer ``/game replay`` (privately) or a replay button (the message is edited)."""
    clicked = interaction.type is discord.InteractionType.component
    await defer(interaction, update=clicked)
    spec = await replay_spec(db, scope_of(interaction), match_id, step, hands)
    if clicked:
        await update(interaction, spec)
    else:
        await reply(interaction, spec)
