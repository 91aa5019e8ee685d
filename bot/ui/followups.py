"""How many follow-up messages an interaction may still send.

"Apps are limited to 5 followup messages per interaction if it was initiated from a
user-installed app and isn't installed in the server (meaning the authorizing integration
owners object only contains USER_INSTALL)"; only Create Followup Message counts, edits do
not (developers/interactions/receiving-and-responding.mdx; change-log, User-Installed
Apps General Availability). Decisions:

* Every follow-up Deckhand sends is counted here, on the interaction's ``extras``, so
  whatever sends one (an answer, a hand panel, a ping, a picture, the table posted
  afresh) sees what is left, whichever ``Token`` of the interaction it holds.
* The limit is lifted only where the interaction shows the server installed the app
  (``is_guild_integration``); discord.py tells no more of the owners, so the bot's own DM
  counts too (no answer there needs more than one follow-up).
"""

from __future__ import annotations

import discord

#: Follow-ups an interaction authorised only by a user install may send.
LIMIT = 5
_USED = "deckhand.followups"


def left(interaction: discord.Interaction) -> int | None:
    """Follow-ups the interaction may still send (None: no limit)."""
    if interaction.is_guild_integration():
        return None
    return max(0, LIMIT - _used(interaction))


def spend(interaction: discord.Interaction) -> bool:
    """Count one follow-up about to be sent; False (nothing counted) when none is left."""
    if left(interaction) == 0:
        return False
    interaction.extras[_USED] = _used(interaction) + 1
    return True


def _used(interaction: discord.Interaction) -> int:
    used = interaction.extras.get(_USED, 0)
    assert isinstance(used, int)
    return used
