"""The language an interaction is answered in.

Decisions:

* **Acknowledge first, then read.** Discord drops an interaction not acknowledged within
  3 s, so nothing that may wait comes before the acknowledgement — not even reading a
  player's language. Until the handler acknowledged, Deckhand speaks what the interaction
  itself says: the Discord client's language when Deckhand has it, else English
  (``hear``; the command tree and every component handler start with it). Right after
  acknowledging (``bot.ui.answers``), ``listen`` reads the player's own choice and the
  server's and speaks the resolved language (``preferences.language``) to the end of the
  interaction. An answer given without acknowledging (a cooldown, a broken button) is
  therefore in the client's language.
* **Scoped by the interaction.** discord.py runs each interaction in a task of its own,
  which holds its own copy of the spoken language (``i18n.speak``), so one player's
  language never reaches another's answer. What an interaction publishes for others (the
  table message, other players' hands and pings) sets its own language explicitly
  (``bot.ui.publish``).
* The client's language is remembered with the player's preferences when it changes
  (``PreferenceService.heard``), for DMs and pings sent outside an interaction.
* **Read once.** What ``listen`` read (``Heard``: the player's choices, and the server's)
  stays with the interaction (``heard_of``; publishing has it as ``Token.heard``), so the
  hand it answers with and the hands and pings it publishes resolve that player's
  preferences from it instead of reading them again.
* **The language never costs the answer.** When the database cannot be reached,
  ``listen`` keeps the interaction's own language: ``/rules`` and its pages need no
  database, and a command that does is answered by its own error path.
"""

from __future__ import annotations

import logging
from typing import Protocol, cast

import discord

from bot.services.preferences import Heard, PreferenceService, language
from i18n import speak
from storage.db import StorageUnavailable

log = logging.getLogger(__name__)

#: The ``extras`` key holding what ``listen`` read.
_HEARD = "deckhand.heard"


class _Listening(Protocol):
    preferences: PreferenceService


def first_heard(interaction: discord.Interaction) -> str:
    """The language the interaction names (its client's, when Deckhand has it), or English."""
    return language(None, str(interaction.locale), None)


def hear(interaction: discord.Interaction) -> None:
    """Speak the interaction's own language until its player's is read (``listen``)."""
    speak(first_heard(interaction))


async def listen(interaction: discord.Interaction) -> None:
    """After acknowledging: speak the player's language for the rest of the interaction,
    and keep what was read with it (``heard_of``)."""
    preferences = cast(_Listening, interaction.client).preferences
    try:
        heard = await preferences.heard(
            interaction.guild_id, interaction.user.id, str(interaction.locale)
        )
    except StorageUnavailable as exc:
        log.warning("the player's language cannot be read (storage unavailable): %s", exc)
        return
    interaction.extras[_HEARD] = heard
    speak(heard.language)


def heard_of(interaction: discord.Interaction) -> Heard | None:
    """What ``listen`` read for the interaction (None before, or when it could not)."""
    heard = interaction.extras.get(_HEARD)
    return heard if isinstance(heard, Heard) else None
